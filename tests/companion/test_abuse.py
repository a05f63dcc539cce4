"""Attacks on a table from someone at it or with its join code: each is refused with
a clear 4xx and changes nothing (issue "Seats, secrets and abuse")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from companion import services
from companion.models import Action, GameSession
from tests.companion.test_views import post_shot
from tests.conftest import make_duel, phone

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_phone_cannot_take_the_key_of_a_timers_own_action():
    # A key shaped like the server's own (a timer running out) is refused; one
    # that merely looks alike is the phone's own and never collides with it.
    session = make_duel(seed=3, turn_seconds=30)
    services.claim_seat(session, 0, "anna") if session.seats.get(index=0).holder != "anna" else None
    lock = {"type": "lock", "bid": "5", "key": "timeout:1:1"}
    refused = phone("anna").post(f"/s/{session.code}/act", lock, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    assert "one-time key" in refused.content.decode()
    assert GameSession.objects.get(pk=session.pk).version == 0

    lock["key"] = "timeout-1-1"  # the server's old format, now an ordinary phone key
    assert phone("anna").post(f"/s/{session.code}/act", lock).status_code in (200, 302)
    GameSession.objects.filter(pk=session.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    page = phone("anna").get(f"/s/{session.code}/")
    assert page.status_code == 200  # the timer's move applied: no clash, no 500
    assert "Time ran out for Marco" in page.content.decode()
    keys = set(Action.objects.filter(session=session).values_list("key", flat=True))
    assert keys == {"timeout-1-1", "timeout:1:1"}


def test_a_phone_without_a_seat_replaying_another_phones_key_learns_nothing(make_session):
    session = make_session()
    services.claim_seat(session, 1, "phone-b")
    first = post_shot(phone("phone-b"), session.code, key="bs-key-1")
    assert first.status_code == 200
    replay = post_shot(phone("stranger"), session.code, key="bs-key-1")
    assert replay.status_code == 403
    assert "another phone" in replay.content.decode()
    again = post_shot(phone("phone-b"), session.code, key="bs-key-1")
    assert again.status_code == 200  # its own retry still gets the first result
    stored = GameSession.objects.get(pk=session.pk)
    assert stored.version == 1 and len(stored.state["players"][2]["damage"]) == 1


# ---------------------------------------------------------------- seats


def test_nobody_can_sit_in_a_bots_seat_and_see_its_hand():
    session = make_duel(seed=3, bot=True)
    response = phone("stranger").post(f"/s/{session.code}/seats/1/claim", HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "bot" in response.content.decode()
    seat = session.seats.get(index=1)
    assert seat.bot and not seat.holder


# ---------------------------------------------------------------- the watch link


async def test_the_watch_link_gives_no_way_to_a_seat(make_session):
    import re

    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    from tests.companion.test_consumers import communicator
    from tests.conftest import next_key, shot

    session = await sync_to_async(make_session)()
    page = (await AsyncClient().get(f"/w/{session.spectator_key}/")).content.decode()
    tv = communicator(f"/ws/w/{session.spectator_key}/?lang=en")
    assert (await tv.connect())[0]
    frames = [await tv.receive_from(timeout=5)]
    await sync_to_async(services.submit_action)(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    frames.append(await tv.receive_from(timeout=5))
    await tv.disconnect()
    for sent in [page, *frames]:
        assert not re.search(rf"(?<![A-Za-z0-9]){session.code}(?![A-Za-z0-9])", sent)
    assert "You are watching" in page


# ---------------------------------------------------------------- bad input: 4xx, never 5xx


@pytest.mark.parametrize(
    ("method", "path", "fields"),
    [
        ("get", "/cards/", {"kind": "\x00"}),
        ("get", "/cards/", {"q": "rail\x00gun"}),
        ("post", "/new/adrenaline/", {"play_dozer": "on", "name_dozer": "Bo\x00b"}),
        ("post", "/join/", {"code": "AB\x00CD"}),
    ],
)
def test_a_nul_character_anywhere_is_a_clear_400(method, path, fields, catalogs):
    response = getattr(phone("anyone"), method)(path, fields)
    assert response.status_code == 400
    assert "not allowed" in response.content.decode()
    assert GameSession.objects.count() == 0


def test_nul_characters_in_a_tables_forms_change_nothing(make_session):
    session = make_session()
    services.claim_seat(session, 0, "host")
    client = phone("host")
    assert post_shot(client, session.code, key="k\x00ey").status_code == 400
    assert post_shot(client, session.code, key="nul-1", shooter="dstr\x00uctor").status_code == 400
    for path, fields in [
        (f"/s/{session.code}/seats/1/rename", {"name": "Bi\x00anca"}),
        (f"/s/{session.code}/undo", {"key": "u\x00", "expected": "1"}),
    ]:
        response = client.post(path, fields, HTTP_HX_REQUEST="true")
        assert response.status_code == 400, path
    stored = GameSession.objects.get(pk=session.pk)
    assert stored.version == 0 and "\x00" not in stored.seats.get(index=1).name


def test_a_head_request_is_answered_like_a_get(make_session):
    session = make_session()
    for path in ("/", "/join/", "/cards/", f"/s/{session.code}/"):
        assert phone("anyone").head(path).status_code == 200, path


async def test_a_socket_to_an_unknown_path_is_refused_not_an_error():
    from tests.companion.test_consumers import communicator

    for path in ("/ws/nothing/", "/ws/s/", "/whatever"):
        connected, code = await communicator(path).connect()
        assert not connected and code == 4404, path


# ---------------------------------------------------------------- the socket's origin


@pytest.mark.parametrize(
    "origin",
    [b"http://127.0.0.1:9999", b"https://127.0.0.1", b"http://localhost", b"null", b""],
)
async def test_a_page_from_another_port_scheme_or_host_cannot_open_the_socket(make_session, origin):
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    session = await sync_to_async(make_session)()
    headers = [(b"host", b"127.0.0.1")]
    if origin:
        headers.append((b"origin", origin))
    ws = WebsocketCommunicator(application, f"/ws/s/{session.code}/", headers=headers)
    connected, _ = await ws.connect()
    assert not connected


async def test_the_apps_own_page_opens_the_socket(make_session):
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    session = await sync_to_async(make_session)()
    headers = [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000")]
    ws = WebsocketCommunicator(application, f"/ws/s/{session.code}/", headers=headers)
    assert (await ws.connect())[0]
    await ws.disconnect()


# ---------------------------------------------------------------- flooding and guessing


def test_guessing_join_codes_is_stopped_after_a_few_wrong_ones(make_session):
    from companion import ratelimit

    session = make_session()
    guesser = phone("guesser")
    for _ in range(ratelimit.WRONG_CODE.count):
        assert guesser.get("/join/", {"code": "QQQQQ"}).status_code == 404
    # Now even a right code is refused for a while: a guessed code is worth little.
    refused = guesser.get("/join/", {"code": session.code})
    assert refused.status_code == 429
    assert "wait a few minutes" in refused.content.decode()
    assert guesser.get(f"/s/{session.code}/").status_code == 429
    friend = phone("friend")
    friend.defaults["REMOTE_ADDR"] = "192.168.1.21"  # another phone on the Wi-Fi
    assert friend.get("/join/", {"code": session.code}).status_code == 302


def test_making_sessions_in_a_loop_is_stopped(catalogs):
    from companion import ratelimit

    client = phone("flooder")
    form = {"play_dstructor": "on", "play_banshee": "on", "play_dozer": "on", "skulls": "5"}
    for _ in range(ratelimit.CREATE.count):
        assert client.post("/new/adrenaline/", form).status_code == 302
    refused = client.post("/new/adrenaline/", form)
    assert refused.status_code == 429
    assert GameSession.objects.count() == ratelimit.CREATE.count


def test_the_admin_login_is_throttled(settings):
    from django.urls import reverse

    from companion import ratelimit

    client = phone("intruder")
    url = reverse("admin:login")
    for _ in range(ratelimit.ADMIN_LOGIN.count):
        response = client.post(url, {"username": "admin", "password": "guess"})
        assert response.status_code == 200  # the form again, with its error
    assert client.post(url, {"username": "admin", "password": "guess"}).status_code == 429


def test_tries_that_straddle_a_turn_of_the_clock_are_all_counted(monkeypatch):
    """A window opens at a client's first try, not at a tick of the wall clock: ten
    tries either side of a round ten minutes still use up the ten, and the window
    frees the address ten minutes after it opened."""
    import time

    from companion import ratelimit

    limit = ratelimit.ADMIN_LOGIN
    now = [limit.seconds * 2_900_000 - 1.0]  # a second before the clock's window turns
    monkeypatch.setattr(time, "time", lambda: now[0])
    for _ in range(limit.count // 2):
        assert ratelimit.take(limit, "10.0.0.9")
    now[0] += 2.0
    for _ in range(limit.count - limit.count // 2):
        assert ratelimit.take(limit, "10.0.0.9")
    assert not ratelimit.take(limit, "10.0.0.9")
    assert ratelimit.take(limit, "10.0.0.10")  # another address has its own count
    now[0] += limit.seconds - 3.0  # still the window the first try opened
    assert not ratelimit.take(limit, "10.0.0.9")
    now[0] += 2.0  # its ten minutes are up
    assert ratelimit.take(limit, "10.0.0.9")


async def test_wrong_codes_over_the_socket_count_too(make_session):
    from asgiref.sync import sync_to_async

    from companion import ratelimit
    from tests.companion.test_consumers import communicator

    session = await sync_to_async(make_session)()
    for _ in range(ratelimit.WRONG_CODE.count):
        connected, code = await communicator("/ws/s/QQQQQ/").connect()
        assert not connected and code == 4404
    connected, code = await communicator(f"/ws/s/{session.code}/").connect()
    assert not connected


async def test_a_socket_flooding_messages_is_cut_off_and_other_tables_go_on(make_session):
    import json

    from asgiref.sync import sync_to_async

    from companion import consumers
    from tests.companion.test_consumers import communicator, phone_cookie
    from tests.conftest import next_key, shot

    flooded = await sync_to_async(make_session)()
    other = await sync_to_async(make_session)()
    flooder = communicator(f"/ws/s/{flooded.code}/?lang=en", await phone_cookie("flooder"))
    assert (await flooder.connect())[0]
    await flooder.receive_from(timeout=5)
    calm = communicator(f"/ws/s/{other.code}/?lang=en", await phone_cookie("calm"))
    assert (await calm.connect())[0]
    await calm.receive_from(timeout=5)

    sync = json.dumps({"type": "sync"})
    for _ in range(consumers.MESSAGE_BURST + consumers.DROPPED_BEFORE_CLOSE + 5):
        await flooder.send_to(text_data=sync)
    answered = 0
    while True:
        output = await flooder.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            assert output["code"] == 4429
            break
        answered += 1
    assert answered <= consumers.MESSAGE_BURST + 1  # the rest cost nothing

    await sync_to_async(services.submit_action)(
        other, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    assert 'data-version="1"' in await calm.receive_from(timeout=5)
    await calm.disconnect()


def test_the_undo_buttons_key_cannot_be_guessed(make_session):
    import re

    session = make_session()
    services.claim_seat(session, 0, "host")
    services.submit_action(
        session,
        {"type": "shot", "shooter": "dstructor", "hits": [{"target": "dozer", "damage": 1}]},
        token="host",
        key="first-shot",
    )
    keys = set()
    for _ in range(2):
        page = phone("host").get(f"/s/{session.code}/").content.decode()
        controls = page[page.index('id="controls"') :]
        keys.add(re.search(r'name="key" value="([^"]*)"', controls).group(1))
    assert len(keys) == 2 and not any(session.code in key for key in keys)


# ---------------------------------------------------------------- seats with secrets


def _everything_sent_to(client, session) -> str:
    return client.get(f"/s/{session.code}/").content.decode()


def test_the_host_cannot_free_or_take_the_opponents_seat_in_a_duel():
    session = make_duel(seed=3)
    host = phone("anna")
    freed = host.post(f"/s/{session.code}/seats/1/free", HTTP_HX_REQUEST="true")
    assert freed.status_code == 403
    assert session.seats.get(index=1).holder == "marco"
    # Marco leaves his seat himself: it stays his, nobody else sits there.
    assert phone("marco").post(f"/s/{session.code}/seats/1/free").status_code in (200, 302)
    for who in ("anna", "stranger"):
        taken = phone(who).post(f"/s/{session.code}/seats/1/claim", HTTP_HX_REQUEST="true")
        assert taken.status_code in (403, 409), who
    assert session.seats.get(index=1).holder == ""
    assert "kept for its player" in _everything_sent_to(host, session)


def test_a_phone_plays_one_seat_of_a_duel():
    session = make_duel(seed=3)
    services.free_seat(session, 1, "marco")
    # Even a seat never played: the host, in seat 0, may not take a second one.
    session.seats.filter(index=1).update(rejoin_key="")
    response = phone("anna").post(f"/s/{session.code}/seats/1/claim", HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "one seat" in response.content.decode()


def test_a_player_moves_their_seat_to_a_new_phone_with_their_own_link():
    import re

    session = make_duel(seed=3)
    marco_page = _everything_sent_to(phone("marco"), session)
    link = re.search(r'href="(/s/[^"]+/rejoin/[^"]+/)"', marco_page).group(1)
    key = link.rstrip("/").rsplit("/", 1)[1]
    # Nobody else is ever shown it: not the host, not a spectator.
    assert key not in _everything_sent_to(phone("anna"), session)
    watch = phone("tv").get(f"/w/{session.spectator_key}/").content.decode()
    assert key not in watch

    new_phone = phone("marco-new-phone")
    assert "Move the seat here" in new_phone.get(link).content.decode()
    assert new_phone.post(link).status_code == 302
    seat = session.seats.get(index=1)
    assert seat.holder == "marco-new-phone" and seat.rejoin_key != key
    # The old phone sees no hand any more, and the spent link works no more.
    assert phone("anna").post(link, HTTP_HX_REQUEST="true").status_code == 403
    assert phone("marco").post(link, HTTP_HX_REQUEST="true").status_code == 403


def test_nobody_undoes_another_seats_secret_lock_in_with_the_box():
    session = make_duel(seed=3, mode="companion", hands="physical")
    services.submit_action(
        session, {"type": "lock", "bid": 7, "spells": []}, token="marco", key="marco-lock"
    )
    with pytest.raises(services.Forbidden):
        services.undo(session, token="anna", key="anna-undo")
    services.undo(session, token="marco", key="marco-undo")  # his own: allowed


def test_long_ended_sessions_are_deleted_and_their_codes_freed(make_session, settings):
    from companion import tasks

    old, recent, open_session = make_session(), make_session(), make_session()
    long_ago = timezone.now() - timedelta(days=settings.SEGNALINO_DELETE_AFTER_DAYS + 1)
    GameSession.objects.filter(pk=old.pk).update(ended_at=long_ago)
    GameSession.objects.filter(pk=recent.pk).update(ended_at=timezone.now())
    assert tasks.delete_old_sessions() == 1
    assert set(GameSession.objects.values_list("pk", flat=True)) == {recent.pk, open_session.pk}
    assert not Action.objects.filter(session_id=old.pk).exists()
    reused = make_session()  # the code space does not fill up: the old code may come back
    GameSession.objects.filter(pk=reused.pk).update(code=old.code)
    assert GameSession.objects.get(code=old.code).pk == reused.pk


def test_making_a_session_now_and_then_tidies_up_without_a_scheduler(make_session, settings):
    old = make_session()
    long_ago = timezone.now() - timedelta(days=settings.SEGNALINO_DELETE_AFTER_DAYS + 1)
    GameSession.objects.filter(pk=old.pk).update(ended_at=long_ago)
    make_session()  # within the hour of the last tidy-up: nothing yet
    assert GameSession.objects.filter(pk=old.pk).exists()
    from django.core.cache import cache

    cache.clear()  # the test's own cache: as if an hour had passed
    make_session()
    assert not GameSession.objects.filter(pk=old.pk).exists()


async def test_with_the_limits_off_a_benchmark_can_time_many_round_trips(make_session, settings):
    import json

    from asgiref.sync import sync_to_async

    from companion import consumers
    from tests.companion.test_consumers import communicator

    settings.SEGNALINO_RATE_LIMITS = False
    session = await sync_to_async(make_session)()
    ws = communicator(f"/ws/s/{session.code}/?lang=en")
    assert (await ws.connect())[0]
    await ws.receive_from(timeout=5)
    for _ in range(consumers.MESSAGE_BURST * 3):
        await ws.send_to(text_data=json.dumps({"type": "hello"}))
        assert "only receives updates" in await ws.receive_from(timeout=5)
    await ws.disconnect()
