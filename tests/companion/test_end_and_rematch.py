"""The end of a game and the next one: the standings and the story of the game,
told from its log; "Play again" moves the whole table (seats and phones) to a new
session in one tap, once, whoever taps; a phone remembers its recent tables."""

from __future__ import annotations

import pytest
from django.test import Client

from companion import services
from companion.models import GameSession
from tests.conftest import next_key, phone, shot

pytestmark = pytest.mark.django_db


def play_adrenaline_to_the_end(session: GameSession) -> GameSession:
    """Each turn the player on turn overkills the next player, then ends the turn."""
    for _ in range(60):
        session.refresh_from_db()
        state = session.state
        if state["over"]:
            return session
        players = state["players"]
        me = players[state["current"]]["character"]
        target = players[(state["current"] + 1) % len(players)]["character"]
        services.submit_action(session, shot(me, target, 12), token="host", key=next_key())
        services.submit_action(session, {"type": "end_turn"}, token="host", key=next_key())
    raise AssertionError("the game did not end")


@pytest.fixture
def finished(make_session):
    session = make_session(skulls=5)
    services.claim_seat(session, 0, "anna")
    services.claim_seat(session, 1, "bruno")
    return play_adrenaline_to_the_end(session)


def test_the_end_shows_the_standings_and_the_story_and_no_invite(finished):
    page = phone("anna").get(f"/s/{finished.code}/").content.decode()
    assert "Final standings" in page
    assert "Invite: code" not in page and 'id="invite"' not in page
    assert "is playing" not in page
    # The story: a row per player with the damage each dealt, and points over time.
    assert "damage dealt" in page and "Points over the game" in page
    assert page.count("<polyline") == 3
    # Damage dealt comes from the log (boards are cleared at each kill).
    dealt = sum(
        event["damage"]
        for row in finished.actions.all()
        for event in row.events
        if event.get("type") == "damage" and event["shooter"] == "dstructor"
    )
    assert dealt >= 12
    assert f'<th scope="row">D-struct-OR</th><td>{dealt}</td>' in page
    assert "Play again (same players and seats)" in page


def test_play_again_moves_the_table_with_its_seats_in_one_tap_and_only_once(finished):
    response = phone("bruno").post(f"/s/{finished.code}/again")
    assert response.status_code == 302
    new = GameSession.objects.get(code=response["Location"].split("/")[2])
    assert new.game == "adrenaline" and new.options == finished.options
    assert [(s.name, s.holder) for s in new.seats.all()] == [
        ("D-struct-OR", "anna"),
        ("Banshee", "bruno"),
        ("Dozer", ""),
    ]
    assert new.host_token == finished.host_token and new.version == 0
    # Anna taps too (her table had not updated yet): the same new session.
    again = phone("anna").post(f"/s/{finished.code}/again", HTTP_HX_REQUEST="true")
    assert again.status_code == 204 and again["HX-Redirect"] == f"/s/{new.code}/"
    assert GameSession.objects.count() == 2
    # The old table now points everyone there.
    page = phone("anna").get(f"/s/{finished.code}/").content.decode()
    assert f'href="/s/{new.code}/" data-next-game' in page
    assert "Play again (same players and seats)" not in page


def test_play_again_works_from_a_phone_without_javascript(finished):
    """The page's form, posted as a browser posts it (its CSRF input checked): the
    phone is sent to the new table."""
    import re

    anna = phone("anna")
    anna_checked = Client(enforce_csrf_checks=True)
    anna_checked.cookies = anna.cookies
    page = anna_checked.get(f"/s/{finished.code}/").content.decode()
    form = page[page.index(f'action="/s/{finished.code}/again"') :].split("</form>")[0]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
    assert token is not None, "the Play again form carries no CSRF input"
    response = anna_checked.post(
        f"/s/{finished.code}/again", {"csrfmiddlewaretoken": token.group(1)}
    )
    assert response.status_code == 302 and response["Location"].startswith("/s/")
    assert GameSession.objects.count() == 2


def test_play_again_before_the_end_or_from_a_stranger_is_refused(make_session, finished):
    ongoing = make_session()
    services.claim_seat(ongoing, 0, "anna")
    response = phone("anna").post(f"/s/{ongoing.code}/again")
    assert response.status_code == 409 and "not over yet" in response.content.decode()
    stranger = phone("nobody").post(f"/s/{finished.code}/again", HTTP_HX_REQUEST="true")
    assert stranger.status_code == 403
    assert Client().post("/s/NOPE1/again").status_code == 404
    assert GameSession.objects.count() == 2  # nothing made


def test_a_session_the_host_ended_can_be_played_again(make_session, host_phone):
    session = make_session()
    host_phone.post(f"/s/{session.code}/host", {"end": "1"})
    page = host_phone.get(f"/s/{session.code}/").content.decode()
    assert "The session has ended" in page and "Final standings" not in page
    response = host_phone.post(f"/s/{session.code}/again")
    assert response.status_code == 302


def test_an_ended_tables_empty_seats_read_as_free_seats_in_italian(make_session, host_phone):
    # "free" as in a seat nobody took ("libero"), not as in a card's cost ("gratis").
    session = make_session()
    host_phone.post(f"/s/{session.code}/host", {"end": "1"})
    page = host_phone.get(f"/s/{session.code}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert page.count('<span class="badge muted">libero</span>') == 3
    assert "gratis" not in page


def test_a_bot_keeps_its_seat_in_the_next_game(db):
    duel = services.create_session(
        game="shazamm", seat_names=["Anna", "B"], options={}, host_token="host", mode="online"
    )
    services.claim_seat(duel, 0, "anna")
    services.seat_bot(duel, 1, "host")
    services.end_session(duel, "host")
    new = services.play_again(duel, "anna")
    seats = list(new.seats.all())
    assert seats[0].holder == "anna" and seats[0].rejoin_key  # hidden cards: her seat
    assert seats[1].bot and not seats[1].holder


def test_a_phone_remembers_its_recent_tables_newest_first(make_session, finished):
    anna = phone("anna")
    ongoing = make_session()
    anna.get(f"/s/{finished.code}/")
    anna.get(f"/s/{ongoing.code}/")
    home = anna.get("/").content.decode()
    assert "Your tables" in home
    assert home.index(f"/s/{ongoing.code}/") < home.index(f"/s/{finished.code}/")
    assert "in play: resume" in home and "finished: look back" in home
    # Another phone has its own list; a deleted table drops out.
    assert "Your tables" not in phone("bruno").get("/").content.decode()
    ongoing.delete()
    assert f"/s/{ongoing.code}/" not in anna.get("/").content.decode()
