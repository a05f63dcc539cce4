"""Plastic Attack through the web, as phones use it: the set-up form, each player's
army form, the battle forms and the special action, the history in words, the app's
deck with a bot and hands nobody else sees, and bad input refused."""

from __future__ import annotations

import re

import pytest

from companion.models import GameSession
from tests.conftest import phone

pytestmark = pytest.mark.django_db

BUILDER_FIELDS = ("characters.0.name", "characters.0.power", "characters.0.actions[]")


def create(client, **fields) -> GameSession:
    data = {"name_0": "Anna", "name_1": "Bruno", "mode": "table", **fields}
    response = client.post("/new/plastic-attack/", data)
    assert response.status_code == 302, response.content.decode()[:500]
    code = response["Location"].rstrip("/").rsplit("/", 1)[1]
    return GameSession.objects.get(code=code)


def post(client, session, fields: dict, status: int = 200) -> str:
    response = client.post(
        f"/s/{session.code}/act", {"key": f"k{next(KEYS)}", **fields}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == status, response.content.decode()[:600]
    return response.content.decode()


KEYS = iter(range(10**6))


def army_form(*figures: tuple[str, int, list[str]]) -> dict:
    fields: dict = {"type": "army"}
    for n, (name, power, actions) in enumerate(figures):
        fields[f"characters.{n}.name"] = name
        fields[f"characters.{n}.power"] = str(power)
        fields[f"characters.{n}.actions[]"] = actions
    # The form's empty rows come too.
    for n in range(len(figures), 5):
        fields[f"characters.{n}.name"] = ""
        fields[f"characters.{n}.power"] = ""
        fields[f"characters.{n}.actions[]"] = ["", "", ""]
    return fields


#: Anna's army in the games against the bot: a tank and a hero.
TANK_AND_HERO = army_form(
    ("Tank", 8, ["special-weapons", "sniper", "luck"]),
    ("Hero", 7, ["remedy", "deception", "shield"]),
)


@pytest.fixture
def table(catalogs):
    anna, bruno = phone("anna"), phone("bruno")
    session = create(anna)
    bruno.post(f"/s/{session.code}/seats/1/claim", HTTP_HX_REQUEST="true")
    return session, anna, bruno


def test_the_setup_form_asks_for_players_the_deck_and_the_table_rules(catalogs):
    page = phone("anna").get("/new/plastic-attack/").content.decode()
    for name in ("name_0", "name_5", "bot_1", "mode", "fast_capture", "luck", "recovery_power"):
        assert f'name="{name}"' in page


def test_each_player_builds_an_army_on_their_own_phone_and_the_table_plays_a_battle(table):
    session, anna, bruno = table
    page = anna.get(f"/s/{session.code}/").content.decode()
    for name in BUILDER_FIELDS:
        assert f'name="{name}"' in page  # the form the player fills in
    post(
        anna,
        session,
        army_form(
            ("Tank", 8, ["special-weapons", "sniper", "luck"]),
            ("Winter Superhero", 7, ["remedy", "deception", "shield"]),
        ),
    )
    post(
        bruno,
        session,
        army_form(
            ("Dragon", 6, ["knock-out", "vulnerability", "mind-control"]),
            ("Knight", 5, ["intimidation", "master-plan", "quick-action"]),
        ),
    )
    page = anna.get(f"/s/{session.code}/").content.decode()
    assert "Bruno drew the Ace" in page
    post(bruno, session, {"type": "first", "seat": "0"})
    post(anna, session, {"type": "declare", "character": "0", "defender": "1"})
    post(bruno, session, {"type": "defend", "character": "2"})
    post(anna, session, {"type": "card", "card": "8"})
    waiting = bruno.get(f"/s/{session.code}/").content.decode()
    assert "card down" in waiting  # Anna's card is face down for Bruno
    post(bruno, session, {"type": "card", "card": "5"})
    page = anna.get(f"/s/{session.code}/").content.decode()
    assert 'data-total="attack">16<' in page and 'data-total="defence">11<' in page
    assert "Tank (8, total 16) beats Dragon (5, total 11)." in page
    assert "Special Weapons?" in page  # Anna won with an 8: her 7-8 action
    post(anna, session, {"type": "special", "use": "1"})
    session.refresh_from_db()
    assert session.state["players"][0]["weapons"] == 1
    assert session.state["characters"][2]["power"] == 5
    page = bruno.get(f"/s/{session.code}/").content.decode()
    assert "Anna uses Special Weapons." in page and "+5 on the next attack" in page
    # Where the battle is shown it says what it did, and no tie where there was none.
    effects = re.search(r"<ul class=\"effects\" data-effects>(.*?)</ul>", page, re.S).group(1)
    assert "Dragon drops to Power 5." in effects and "Anna uses Special Weapons." in effects
    assert "Anna wins." in page and "tie" not in page.split("data-winner")[1][:80]


def test_a_player_cannot_play_for_another_and_bad_input_changes_nothing(table):
    session, anna, bruno = table
    before = GameSession.objects.get(pk=session.pk).version
    assert "15 Power points" in post(
        anna, session, army_form(("Tank", 10, ["luck"] * 3), ("Hero", 9, ["luck"] * 3)), 409
    )
    assert "Figure 1 needs a special action on each of 7-8, 9-10 and J-Q" in post(
        anna, session, army_form(("Tank", 5, ["luck", "", "luck"]), ("Hero", 5, ["luck"] * 3)), 400
    )
    assert "Figure 2 needs a Power" in post(
        anna, session, army_form(("Tank", 5, ["luck"] * 3), ("Hero", "", ["luck"] * 3)), 400
    )
    assert "Two figures are called “tank”" in post(
        anna, session, army_form(("Tank", 5, ["luck"] * 3), ("tank", 5, ["luck"] * 3)), 409
    )
    # Anna is the current player, but the armies are not built yet.
    assert "not what the game is waiting for" in post(
        anna, session, {"type": "declare", "character": "0", "defender": "1"}, 409
    )
    # Bruno may never play Anna's turn.
    post(bruno, session, {"type": "declare", "character": "0", "defender": "1"}, 403)
    post(anna, session, {"type": "card", "card": "Z"}, 400)
    post(anna, session, {"type": "nonsense"}, 400)
    assert GameSession.objects.get(pk=session.pk).version == before


@pytest.mark.django_db(transaction=True)  # the bot is woken after commit
def test_online_with_the_bot_each_phone_sees_only_its_own_hand(catalogs):
    anna = phone("anna")
    session = create(anna, mode="online", name_1="", bot_1="on")
    session.refresh_from_db()
    assert session.seats.get(index=1).bot
    post(anna, session, TANK_AND_HERO)
    session.refresh_from_db()
    state = session.state
    assert state["phase"] not in ("setup", "first")  # the bot built its army; the deck dealt
    mine, bots = state["hands"][0], state["hands"][1]
    page = anna.get(f"/s/{session.code}/").content.decode()
    hand = re.search(r'<p class="hand"[^>]*>(.*?)</p>', page, re.S)
    assert hand is not None
    from games.plastic_attack.views import card_label

    shown = re.findall(r'<span class="playing-card">([^<]+)</span>', hand.group(1))
    assert sorted(shown) == sorted(card_label(c) for c in mine)
    assert not any(f'data-card="{c}"' in page for c in bots)
    watcher = phone("tv").get(f"/w/{session.spectator_key}/").content.decode()
    assert '<p class="hand"' not in watcher


def test_when_the_turn_timer_runs_out_the_waited_for_player_lays_their_lowest_card(catalogs):
    from datetime import timedelta

    from django.utils import timezone

    from companion import services
    from games.plastic_attack.cards import value_of
    from tests.support.plastic_attack import TOKENS, online_war

    session = online_war(turn_seconds=30)
    current = session.state["current"]
    other = 1 - current
    mine = 0 if current == 0 else 2
    services.submit_action(
        session,
        {"type": "declare", "character": mine, "defender": other},
        token=TOKENS[current],
        key="d",
    )
    services.submit_action(
        session, {"type": "defend", "character": 2 - mine}, token=TOKENS[other], key="f"
    )
    session.refresh_from_db()
    lowest = min(session.state["hands"][current], key=value_of)
    GameSession.objects.filter(pk=session.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    session.refresh_from_db()
    assert services.enforce_deadline(session) == 2  # both players of the battle
    session.refresh_from_db()
    assert session.state["last_battle"]["cards"][0] == lowest
    page = phone("anna").get(f"/s/{session.code}/").content.decode()
    assert "Time ran out for" in page


def test_only_the_player_who_made_the_last_move_is_offered_its_undo(table):
    session, anna, bruno = table
    post(anna, session, army_form(("Tank", 8, ["luck"] * 3), ("Hero", 7, ["luck"] * 3)))
    assert "data-undo" in anna.get(f"/s/{session.code}/").content.decode()
    assert "data-undo" not in bruno.get(f"/s/{session.code}/").content.decode()


def test_at_the_table_no_bot_can_take_a_seat(catalogs):
    anna = phone("anna")
    session = create(anna)
    page = anna.get(f"/s/{session.code}/").content.decode()
    assert "Fill with a bot" not in page
    response = anna.post(f"/s/{session.code}/seats/1/bot", HTTP_HX_REQUEST="true")
    assert response.status_code == 409 and "only online" in response.content.decode()
    assert not session.seats.get(index=1).bot


def test_no_clock_runs_while_a_player_builds_an_army(catalogs):
    from companion import services
    from tests.support.plastic_attack import ARMIES, online_war

    session = online_war(turn_seconds=30, armies=1)
    assert session.state["phase"] == "setup" and session.deadline is None  # Bruno builds
    services.submit_action(
        session, {"type": "army", "characters": ARMIES[1]}, token="bruno", key="b"
    )
    session.refresh_from_db()
    assert session.deadline is not None  # now a turn is on: the attacker's clock runs


@pytest.mark.django_db(transaction=True)  # the bot is woken after commit
def test_the_bot_keeps_the_name_typed_for_it_and_its_figures_read_in_the_readers_language(
    catalogs,
):
    anna = phone("anna")
    session = create(anna, mode="online", name_1="Robo", bot_1="on")
    seat = session.seats.get(index=1)
    assert seat.bot and seat.name == "Robo"
    post(anna, session, TANK_AND_HERO)
    italian = anna.get(f"/s/{session.code}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Comandante Bot" in italian and "Guardia Bot" in italian
    assert "Bot Commander" not in italian and "Bot Guard" not in italian
    english = anna.get(f"/s/{session.code}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Bot Commander" in english and "Comandante Bot" not in english
    assert "Robo" in english
