"""Garbage into every route, every field and the socket: never a server error, and a
refused request changes nothing."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.models import GameSession
from tests.conftest import make_duel, phone

pytestmark = pytest.mark.django_db(transaction=True)

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Text a mischievous phone might send: anything, control characters and NUL
# included, sometimes long, sometimes a plausible value.
junk = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=8),
    st.sampled_from(["", "0", "-1", "1e9", "NaN", "Infinity", "null", "[]", "{}", "\x00", "٣"]),
    st.sampled_from(["shot", "adjust", "end_turn", "lock", "tagback", "dozer", "banshee", "red"]),
    st.text(min_size=200, max_size=3000),
)
fields = st.dictionaries(
    st.one_of(
        st.sampled_from(
            [
                "type",
                "key",
                "expected",
                "shooter",
                "hits.0.target",
                "hits.0.damage",
                "hits.0.marks",
                "player",
                "field",
                "delta",
                "bid",
                "spells",
                "name",
                "edit_policy",
                "end",
                "code",
                "q",
                "game",
                "kind",
                "play_dozer",
                "skulls",
                "hands",
            ]
        ),
        st.text(max_size=12),
    ),
    junk,
    max_size=8,
)
ROUTES = [
    ("post", "/s/{code}/act"),
    ("post", "/s/{code}/undo"),
    ("post", "/s/{code}/host"),
    ("post", "/s/{code}/seats/{seat}/claim"),
    ("post", "/s/{code}/seats/{seat}/free"),
    ("post", "/s/{code}/seats/{seat}/rename"),
    ("post", "/s/{code}/seats/{seat}/bot"),
    ("post", "/s/{code}/seats/{seat}/rejoin/{junk}/"),
    ("get", "/s/{code}/"),
    ("get", "/s/{junk}/"),
    ("get", "/s/{code}/qr.svg"),
    ("get", "/join/"),
    ("get", "/cards/"),
    ("get", "/w/{junk}/"),
    ("post", "/new/adrenaline/"),
    ("post", "/new/shazamm/"),
    ("post", "/new/munchkin/"),
    ("post", "/new/{junk}/"),
    ("get", "/new/{junk}/"),
    ("get", "/rules/{junk}/"),
]


def _table(session: GameSession) -> tuple:
    session.refresh_from_db()
    seats = tuple(session.seats.values_list("index", "name", "holder", "bot", "rejoin_key"))
    return session.version, session.revision, session.state, session.ended_at, seats


@FUZZ
@given(
    route=st.sampled_from(ROUTES),
    seat=st.one_of(st.integers(0, 3), st.integers(-5, 10**12)),
    filler=st.text(alphabet="abcXYZ019-_%.", min_size=1, max_size=30),
    data=fields,
    who=st.sampled_from(["anna", "marco", "stranger", ""]),
)
def test_no_request_is_a_server_error_and_a_refused_one_changes_nothing(
    catalogs, route, seat, filler, data, who
):
    session = _duel()
    method, pattern = route
    path = pattern.format(code=session.code, seat=max(seat, 0), junk=filler)
    before = _table(session)
    client = phone(who) if who else phone("")
    response = getattr(client, method)(path, data, HTTP_HX_REQUEST="true")
    assert response.status_code < 500, (path, data, response.content[:300])
    if response.status_code >= 400:
        assert _table(session) == before, (path, data)


def _duel() -> GameSession:
    # One duel per test run (the database is the test's own): made on first use.
    found = GameSession.objects.filter(game="shazamm").first()
    return found or make_duel(seed=5)


socket_messages = st.one_of(
    st.text(max_size=100),
    st.binary(max_size=100),
    st.builds(
        json.dumps,
        st.fixed_dictionaries(
            {"type": st.sampled_from(["ping", "sync", "act", "undo", "", "PING"])},
            optional={"revision": st.one_of(st.integers(), st.text(max_size=5), st.none())},
        ),
    ),
    st.text(min_size=3000, max_size=5000),
    # Taps: this table's paths and others, any body ("{code}" is the table's code).
    st.builds(
        lambda path, body: json.dumps({"type": "tap", "path": path, "body": body}),
        st.one_of(
            st.sampled_from(["/s/{code}/act", "/s/{code}/undo", "/s/{code}/host", "/", ""]),
            st.text(max_size=40),
            st.integers(),
        ),
        st.one_of(
            st.text(max_size=200),
            st.builds(
                "&".join,
                st.lists(
                    st.sampled_from(
                        [
                            "type=shot",
                            "type=undo",
                            "key=k1",
                            "key=",
                            "expected=1",
                            "a.b.c.d=1",
                            "hits.0.target=dozer",
                            "hits.99.damage=1",
                            "type=%00",
                            "x=%ff",
                        ]
                    ),
                    max_size=8,
                ),
            ),
            st.none(),
        ),
    ),
)


@FUZZ
# (The test harness cannot send an empty message; a browser never does either.)
@given(messages=st.lists(socket_messages.filter(len), min_size=1, max_size=6))
def test_garbage_on_the_socket_gets_an_answer_or_silence_never_an_error(make_session, messages):
    from tests.companion.test_consumers import communicator, phone_cookie

    session = make_session()
    before = _table(session)

    async def run() -> None:
        ws = communicator(f"/ws/s/{session.code}/?lang=en", await phone_cookie("anyone"))
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)  # the table
        for message in messages:
            if isinstance(message, bytes):
                await ws.send_to(bytes_data=message)
            else:
                await ws.send_to(text_data=message.replace("{code}", session.code))
        # Whatever came back is a message, a pong or a refused tap, never a crash of
        # the socket nor a tap the server failed on.
        while not await ws.receive_nothing(timeout=0.2):
            output = await ws.receive_output(timeout=1)
            assert output["type"] == "websocket.send", output
            assert '"type": "failed"' not in (output.get("text") or ""), output
        await ws.disconnect()

    async_to_sync(run)()
    assert _table(session) == before
