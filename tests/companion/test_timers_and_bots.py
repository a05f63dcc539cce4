"""Turn timers and bots, through the same action pipeline as phones."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from companion import services
from companion.models import GameSession
from tests.conftest import make_duel, phone

pytestmark = pytest.mark.django_db(transaction=True)


def duel(turn_seconds: int = 0, bot: bool = False) -> GameSession:
    return make_duel(seed=3, turn_seconds=turn_seconds, bot=bot)


def lock(session, token, bid=5, key="k"):
    return services.submit_action(
        session, {"type": "lock", "bid": bid, "spells": []}, token=token, key=key
    )


def expire(session: GameSession) -> None:
    GameSession.objects.filter(pk=session.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    session.refresh_from_db()


def test_a_timer_starts_with_the_turn_and_keeps_running_for_the_slower_player():
    session = duel(turn_seconds=30)
    assert session.deadline is not None
    first = session.deadline
    lock(session, "anna")
    session.refresh_from_db()
    assert session.deadline == first  # Marco's clock did not restart


def test_when_time_runs_out_the_minimum_bid_with_no_spells_is_locked_in():
    session = duel(turn_seconds=30)
    lock(session, "anna", bid=9)
    expire(session)
    # nobody's task fired: the next page load enforces the deadline lazily
    page = phone("anna").get(f"/s/{session.code}/").content.decode()
    session.refresh_from_db()
    reveal = session.state["last"]
    assert reveal["bids"] == [9, 1]
    assert reveal["spells"][1] == []
    assert "Time ran out for Marco" in page
    assert session.deadline is not None and session.deadline > timezone.now()  # next turn


def test_enforcing_twice_applies_the_default_once():
    session = duel(turn_seconds=30)
    expire(session)
    assert services.enforce_deadline(session) == 2
    session.refresh_from_db()
    version = session.version
    assert services.enforce_deadline(session) == 0
    session.refresh_from_db()
    assert session.version == version


def test_without_a_timer_nothing_is_ever_forced():
    session = duel()
    assert session.deadline is None
    assert services.enforce_deadline(session) == 0


def test_the_bot_answers_a_lock_in_and_the_turn_is_revealed():
    session = duel(bot=True)
    lock(session, "anna", bid=6)
    session.refresh_from_db()
    assert session.state["turn"] == 2 or session.state["round"] == 2
    seats = list(session.actions.values_list("seat", flat=True))
    # the bot locks in as soon as it sits, Anna answers, the bot plays turn 2
    assert seats == [1, 0, 1]
    assert session.state["locked"][1] is not None and session.state["locked"][0] is None


def test_a_stale_bot_request_does_nothing():
    session = duel(bot=True)
    assert services.play_bot_turn(session.pk, 1, session.version + 5) is False
    assert services.play_bot_turn(session.pk, 0, session.version) is False  # not a bot


def test_only_the_host_seats_a_bot_and_only_in_a_free_seat():
    session = services.create_session(
        game="shazamm",
        seat_names=["Anna", "Marco"],
        options={},
        host_token="anna",
        mode="online",
    )
    from companion.errors import Conflict, Forbidden

    with pytest.raises(Forbidden):
        services.seat_bot(session, 1, "marco")
    services.claim_seat(session, 1, "marco")
    with pytest.raises(Conflict):
        services.seat_bot(session, 1, "anna")


async def test_a_phone_joining_after_the_clock_ran_out_sees_the_default_moves_played():
    # The timer's task never ran (a worker down): the first phone to open the table
    # has the default moves played, and is shown the table after them.
    from asgiref.sync import sync_to_async

    from tests.companion.test_consumers import communicator, phone_cookie

    session = await sync_to_async(duel)(turn_seconds=30)
    await sync_to_async(expire)(session)
    ws = communicator(f"/ws/s/{session.code}/?lang=en", await phone_cookie("anna"))
    assert (await ws.connect())[0]
    first = await ws.receive_from(timeout=5)
    stored = await sync_to_async(GameSession.objects.get)(pk=session.pk)
    assert stored.version == 2 and stored.deadline > timezone.now()  # both timed out: turn 2
    assert f'data-version="{stored.version}"' in first
    await ws.disconnect()


async def test_a_phone_joining_while_the_clock_runs_changes_nothing():
    from asgiref.sync import sync_to_async

    from tests.companion.test_consumers import communicator, phone_cookie

    session = await sync_to_async(duel)(turn_seconds=30)
    ws = communicator(f"/ws/s/{session.code}/?lang=en", await phone_cookie("anna"))
    assert (await ws.connect())[0]
    assert 'data-version="0"' in await ws.receive_from(timeout=5)
    stored = await sync_to_async(GameSession.objects.get)(pk=session.pk)
    assert (stored.version, stored.deadline) == (0, session.deadline)
    await ws.disconnect()


@pytest.mark.parametrize(("typed", "shown"), [("Robot", "Robot"), ("", "Bot")])
def test_the_bot_plays_under_the_name_typed_for_its_seat_else_bot(typed, shown):
    """Set-up: "Opponent: Robot" with "play against the bot" ticked names the bot's
    seat Robot on every screen and in the history; left blank, it is the Bot."""
    host = phone("host")
    response = host.post(
        "/new/shazamm/",
        {"name_0": "Bruno", "name_1": typed, "mode": "online", "bot": "on", "sit": "on"},
    )
    assert response.status_code == 302, response.content.decode()[:400]
    code = response["Location"].rstrip("/").rsplit("/", 1)[1]
    session = GameSession.objects.get(code=code)
    seat = session.seats.get(index=1)
    assert seat.bot and seat.name == shown
    assert session.state["names"] == ["Bruno", shown]  # the engine's words say it too
    page = host.get(f"/s/{code}/").content.decode()
    assert f">{shown}<" in page
