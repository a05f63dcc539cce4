"""One WebSocket per phone per session: it only listens.

Phones send actions as ordinary POSTs; the socket carries server-rendered
fragments back. On connect (and reconnect) the phone gets the full current
fragments at once; after every committed change it gets them again, rendered
for what its own seat may see.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from companion import services
from companion.errors import NotFound
from companion.identity import phone_token
from companion.models import GameSession
from companion.relay import relay
from companion.rendering import (
    Listener,
    Shown,
    cached_frames,
    socket_closed,
    socket_frames,
    socket_opened,
)

SUPPORTED = {code for code, _name in settings.LANGUAGES}


class SessionConsumer(AsyncWebsocketConsumer):
    session_id: int | None = None
    group: str | None = None
    token: str = ""

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.language = self._language()
        self.spectator_key = kwargs.get("spectator_key")
        found = await self._find(kwargs.get("code", ""))
        if found is None:
            await self.close(code=4404)
            return
        self.session_id, self.group = found
        # Frames go out one at a time, in the order changes were committed: the
        # committing thread of this process and the relay may both announce the
        # same change (sent once: ``_sent``), and neither may overtake the full
        # frame being read on connect. The relay listens to the session's group
        # for every socket of this process (``companion/relay.py``).
        self._send_lock = asyncio.Lock()
        self._sent: deque[str] = deque(maxlen=32)
        self._tasks: set[asyncio.Task] = set()
        self._shown = Shown()  # after a change, only the fragments that changed
        await relay().join(self.group)
        await self.accept()
        loop = asyncio.get_running_loop()
        socket_opened(
            self.session_id,
            self.channel_name,
            Listener(
                self.token,
                bool(self.spectator_key),
                self.language,
                wake=lambda stamp: loop.call_soon_threadsafe(self._woken, stamp),
            ),
        )
        await self._enforce_deadline()
        async with self._send_lock:
            await self._send_frames()

    async def disconnect(self, code: int) -> None:
        if self.group:
            group, self.group = self.group, None
            socket_closed(self.session_id, self.channel_name)
            await relay().leave(group)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        size = len(text_data or "") + len(bytes_data or b"")
        if size > settings.SEGNALINO_MAX_WS_FRAME:
            await self._send_error(gettext_noop("That message is too large; it was ignored."))
            return
        try:
            message = json.loads(text_data) if text_data else None
        except ValueError:
            message = None
        if isinstance(message, dict) and message.get("type") == "sync":
            # A phone whose countdown reached zero asks again: enforce the
            # deadline lazily (the change is pushed to the whole group), then resend.
            await self._enforce_deadline()
            async with self._send_lock:
                await self._send_frames()
            return
        await self._send_error(
            gettext_noop("This connection only receives updates; use the buttons to play.")
        )

    def _woken(self, stamp: str) -> None:
        """On the event loop: change ``stamp`` was committed, by this process
        (``rendering.prime``) or another (``relay``); send its frame."""
        if self.group is None:
            return
        task = asyncio.ensure_future(self._deliver(stamp))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, stamp: str | None) -> None:
        async with self._send_lock:
            if self.group is None:
                return
            if not stamp:
                await self._send_frames()
                return
            if stamp in self._sent:  # heard twice: from this process and the relay
                return
            self._sent.append(stamp)
            # The process that made the change, or another socket of this one,
            # has usually read and rendered it already: then the frame needs no
            # database and no thread hop.
            html = cached_frames(
                self.session_id,
                self.token,
                spectator=bool(self.spectator_key),
                language=self.language,
                stamp=stamp,
            )
            if html is None:
                html = await self._render(stamp)
            changed = self._shown.changes(html)
            if changed:
                await self.send(text_data=changed)

    # ------------------------------------------------------------ helpers

    def _language(self) -> str:
        query = self.scope.get("query_string", b"").decode("latin-1")
        for part in query.split("&"):
            key, _sep, value = part.partition("=")
            if key == "lang" and value in SUPPORTED:
                return value
        return settings.LANGUAGE_CODE

    @database_sync_to_async
    def _find(self, code: str) -> tuple[int, str] | None:
        try:
            session = services.get_session(code)
        except NotFound:
            return None
        if self.spectator_key is not None and self.spectator_key != session.spectator_key:
            return None
        # Read here, off the event loop (session middleware loads it lazily).
        self.token = "" if self.spectator_key else phone_token(self.scope.get("session"))
        return session.pk, session.group_name

    @database_sync_to_async
    def _enforce_deadline(self) -> int:
        session = GameSession.objects.get(pk=self.session_id)
        return services.enforce_deadline(session)

    @database_sync_to_async
    def _render(self, stamp: str | None = None) -> str:
        return socket_frames(
            self.session_id,
            self.token,
            spectator=bool(self.spectator_key),
            language=self.language,
            stamp=stamp,
        )

    async def _send_frames(self) -> None:
        """Every fragment, as read now (connect, and a phone asking to resync)."""
        await self.send(text_data=self._shown.everything(await self._render()))

    async def _send_error(self, message: str) -> None:
        with translation.override(self.language):
            html = render_to_string(
                "companion/partials/messages.html", {"error": gettext(message), "oob": True}
            )
        await self.send(text_data=html)
