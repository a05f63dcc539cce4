"""The floor for issue 15: the same stack doing almost nothing.

An ASGI application that ``latency.py --floor`` serves next to Segnalino, from the
same settings plus a Redis channel layer (so the same database, Redis, ASGI server and Django
start-up), and drives with the same load generator: a table is a code, a phone a
WebSocket at ``/ws/s/<code>/``. Per tap (``{"type": "tap", "body": …}``, as a
phone sends it) it does the least a live table must:

1. in one transaction, lock the table's row (``SELECT … FOR UPDATE`` on
   PostgreSQL), update a small JSON state and its version, commit;
2. answer the tapping socket ``{"type": "done", "key", "version"}``;
3. send a ~200-byte fragment with the new version to the table's group on the
   channel layer, as plain Channels does (one channel per socket, every socket
   in the group), which every socket of the table forwards to its phone.

HTTP goes to Django as in ``config.asgi`` (the floor's round-trip figures use it).
The table ``bench_floor`` is created on first use; nothing else of Segnalino's
is touched. Run as ``daphne floor:application`` with ``benchmarks/`` on the path.
"""

from __future__ import annotations

import json
import os
import urllib.parse
from typing import Any

from django.core.asgi import get_asgi_application

try:  # on a core of its own, as Segnalino's server (config/cores.py)
    from config import cores
except ImportError:  # served beside an older tree (--repo), which does not pin
    pass
else:
    cores.pin_from_environment()
os.environ["DJANGO_SETTINGS_MODULE"] = "floor_settings"  # with a channel layer
django_asgi_app = get_asgi_application()

from channels.db import database_sync_to_async  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.urls import path  # noqa: E402

_READY = False
PAD = "x" * 120  # the fragment is ~200 bytes, as the floor
CREATE_LOCK = 0x5E6F1007  # the advisory lock the floor's processes take to create their table


def _ensure_table() -> None:
    global _READY
    if _READY:
        return
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Floor processes started together on a fresh database would race:
            # PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe run concurrently
            # (a duplicate key in pg_type). One at a time, under a lock.
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CREATE_LOCK])
        cursor.execute(
            "CREATE TABLE IF NOT EXISTS bench_floor "
            "(code varchar(32) PRIMARY KEY, state text NOT NULL, version integer NOT NULL)"
        )
    _READY = True


def seat(code: str) -> int:
    """The table's row (made if missing); its version."""
    _ensure_table()
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO bench_floor (code, state, version) VALUES (%s, %s, 0) "
            "ON CONFLICT (code) DO NOTHING",
            [code, json.dumps({"taps": 0, "last": ""})],
        )
        cursor.execute("SELECT version FROM bench_floor WHERE code = %s", [code])
        return int(cursor.fetchone()[0])


def commit(code: str, body: str) -> int:
    """One locked JSON update, committed; the new version."""
    lock = " FOR UPDATE" if connection.vendor == "postgresql" else ""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT state, version FROM bench_floor WHERE code = %s{lock}", [code])
        raw, version = cursor.fetchone()
        state = json.loads(raw)
        state["taps"] += 1
        state["last"] = body[:80]
        cursor.execute(
            "UPDATE bench_floor SET state = %s, version = %s WHERE code = %s",
            [json.dumps(state), version + 1, code],
        )
    return version + 1


def fragment(version: int) -> str:
    return f'<div id="status" data-version="{version}" data-revision="{version}"><p>{PAD}</p></div>'


class FloorConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.group = f"floor.{self.code}"
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        version = await database_sync_to_async(seat)(self.code)
        await self.send(text_data=fragment(version))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not text_data or not text_data.startswith("{"):
            await self.send(text_data='<div id="messages"><p>Not understood.</p></div>')
            return
        message: dict[str, Any] = json.loads(text_data)
        if message.get("type") == "ping":
            await self.send(text_data=json.dumps({"type": "pong", "revision": 0}))
            return
        body = str(message.get("body", ""))
        key = urllib.parse.parse_qs(body).get("key", [""])[0]
        version = await database_sync_to_async(commit)(self.code, body)
        await self.send(text_data=json.dumps({"type": "done", "version": version, "key": key}))
        await self.channel_layer.group_send(
            self.group, {"type": "floor.frame", "html": fragment(version)}
        )

    async def floor_frame(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["html"])


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": URLRouter([path("ws/s/<str:code>/", FloorConsumer.as_asgi())]),
    }
)
