"""The bare server for issue 15: the same work with no framework at all.

The issue asks that a tap reach the other phones within 2× of a bare server on the
same work. ``floor.py`` is the framework doing almost nothing (Django + Channels);
this is what is left without it: a plain ASGI callable, no Django, no Channels, no
thread, served by the same uvicorn (uvloop, httptools, the websockets sans-I/O
protocol with permessage-deflate) on the same PostgreSQL through the same driver
(psycopg 3, here its async connections). ``latency.py --bare`` serves it next to
Segnalino and drives it with the same phones and taps. Per tap
(``{"type": "tap", "body": …}``, as a phone sends it) it does the database work a
tap does in Segnalino at its leanest, and the least of the rest:

1. one statement, in autocommit (so one round trip, the COMMIT included): the
   table's row updated (its small JSON state and its version; the UPDATE locks the
   row) and an action row appended with the tap's one-time key, which is unique:
   a repeated key is refused and changes nothing;
2. the tapping socket answered ``{"type": "done", "key", "version"}``;
3. a ~200-byte fragment with the new version sent to each socket of the table held
   in this process (a dict in memory), in version order (a lock a table).

A ping is answered with a pong, anything else with a small message fragment; any
HTTP request with a 2 KB page. PostgreSQL only (``DATABASE_URL``); the tables
``bench_bare`` and ``bench_bare_action`` are created on first use.
"""

from __future__ import annotations

import asyncio
import json
import os
import urllib.parse
from collections import defaultdict
from typing import Any

from psycopg import AsyncConnection, errors
from psycopg_pool import AsyncConnectionPool

try:  # on a core of its own, as Segnalino's server and the floor (config/cores.py)
    from config import cores
except ImportError:  # served beside an older tree (--repo), which does not pin
    pass
else:
    cores.pin_from_environment()

#: The fragment's size: ~200 bytes, as the floor's; ``SEGNALINO_BARE_FRAME_BYTES``
#: (``latency.py --bare-frame-bytes``) makes it as large as Segnalino's updates, in
#: HTML that changes with each version as a board's track does (so deflate has
#: about as much to do), to tell the cost of the bytes from the cost of the rest.
FRAME_BYTES = int(os.environ.get("SEGNALINO_BARE_FRAME_BYTES", "0") or 0)
PAD = "x" * 120
PAGE = ("<!doctype html><title>bare</title><p>" + "x" * 2000 + "</p>").encode()
CREATE_LOCK = 0x5E6F1008  # the advisory lock under which the tables are made

SCHEMA = """
SELECT pg_advisory_xact_lock(%(lock)s);
CREATE TABLE IF NOT EXISTS bench_bare
    (code varchar(32) PRIMARY KEY, state jsonb NOT NULL, version integer NOT NULL);
CREATE TABLE IF NOT EXISTS bench_bare_action
    (id bigserial PRIMARY KEY, code varchar(32) NOT NULL, key varchar(64) NOT NULL UNIQUE,
     version integer NOT NULL, body text NOT NULL)
"""
SEAT = """
INSERT INTO bench_bare (code, state, version) VALUES (%s, '{"taps": 0, "last": ""}', 0)
ON CONFLICT (code) DO UPDATE SET code = EXCLUDED.code RETURNING version
"""
TAP = """
WITH up AS (
    UPDATE bench_bare
    SET state = jsonb_set(jsonb_set(state, '{taps}', to_jsonb((state->>'taps')::int + 1)),
                          '{last}', to_jsonb(%(last)s::text)),
        version = version + 1
    WHERE code = %(code)s RETURNING version
)
INSERT INTO bench_bare_action (code, key, version, body)
SELECT %(code)s, %(key)s, version, %(body)s FROM up RETURNING version
"""


async def _configure(conn: AsyncConnection) -> None:
    await conn.set_autocommit(True)


class Bare:
    """The process's one pool and the sockets of each table it holds."""

    def __init__(self) -> None:
        self.pool: AsyncConnectionPool | None = None
        self.opening = asyncio.Lock()
        self.sockets: dict[str, dict[int, Any]] = defaultdict(dict)
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def ready(self) -> AsyncConnectionPool:
        async with self.opening:
            if self.pool is None:
                pool = AsyncConnectionPool(
                    os.environ["DATABASE_URL"],
                    min_size=2,
                    max_size=16,
                    configure=_configure,
                    open=False,
                )
                await pool.open(wait=True)
                async with pool.connection() as conn, conn.transaction():
                    await conn.execute(SCHEMA.replace("%(lock)s", str(CREATE_LOCK)))
                self.pool = pool
        return self.pool

    async def seat(self, code: str) -> int:
        pool = await self.ready()
        async with pool.connection() as conn:
            found = await (await conn.execute(SEAT, (code,), prepare=True)).fetchone()
        return int(found[0]) if found else 0

    async def tap(self, code: str, body: str) -> dict[str, Any]:
        """Commit the tap and fan its fragment out; the answer for the tapping socket."""
        key = urllib.parse.parse_qs(body).get("key", [""])[0][:64]
        if not key:
            return {"type": "refused", "key": key, "message": "No one-time key."}
        pool = await self.ready()
        async with self.locks[code]:  # a table's versions reach its sockets in order
            params = {"code": code, "last": body[:80], "key": key, "body": body}
            try:
                async with pool.connection() as conn:
                    cursor = await conn.execute(TAP, params, prepare=True)
                    found = await cursor.fetchone()
            except errors.UniqueViolation:
                return {"type": "refused", "key": key, "message": "Already applied."}
            if found is None:
                return {"type": "refused", "key": key, "message": "No such table."}
            version = int(found[0])
            frame = fragment(version)
            for send in list(self.sockets[code].values()):
                await send({"type": "websocket.send", "text": frame})
        return {"type": "done", "key": key, "version": version}


BARE = Bare()


def fragment(version: int) -> str:
    status = f'<div id="status" data-version="{version}" data-revision="{version}">'
    if FRAME_BYTES <= 0:
        return f"{status}<p>{PAD}</p></div>"
    slots, n = [], 0
    while sum(map(len, slots)) < FRAME_BYTES - 120:
        taken = n < version % 12
        colour = ("blue", "green", "grey", "purple", "yellow")[(version + n) % 5] if taken else ""
        slots.append(
            f'<li class="slot{" c-" + colour if taken else ""}">'
            f'<span class="sr-only">{"hit " + str(version - n) if taken else n + 1}</span></li>'
        )
        n += 1
    return f'{status}<ol class="track" data-damage="{version % 12}">{"".join(slots)}</ol></div>'


async def _http(scope: dict[str, Any], receive: Any, send: Any) -> None:
    while (await receive()).get("more_body"):
        pass
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"text/html; charset=utf-8")],
        }
    )
    await send({"type": "http.response.body", "body": PAGE})


async def _socket(scope: dict[str, Any], receive: Any, send: Any) -> None:
    parts = scope["path"].strip("/").split("/")  # ws/s/<code>
    if len(parts) != 3 or parts[:2] != ["ws", "s"] or not parts[2]:
        await send({"type": "websocket.close", "code": 4404})
        return
    code, me = parts[2][:32], id(send)
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    try:
        version = await BARE.seat(code)
        async with BARE.locks[code]:  # not between a commit and its fan-out
            BARE.sockets[code][me] = send
        await send({"type": "websocket.send", "text": fragment(version)})
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            try:
                said = json.loads(message.get("text") or "")
            except ValueError:
                said = None
            if not isinstance(said, dict):
                reply = '<div id="messages"><p>Not understood.</p></div>'
            elif said.get("type") == "ping":
                reply = json.dumps({"type": "pong", "revision": 0})
            else:
                reply = json.dumps(await BARE.tap(code, str(said.get("body", ""))))
            await send({"type": "websocket.send", "text": reply})
    finally:
        BARE.sockets[code].pop(me, None)
        if not BARE.sockets[code]:
            del BARE.sockets[code]


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http":
        await _http(scope, receive, send)
    elif scope["type"] == "websocket":
        await _socket(scope, receive, send)
