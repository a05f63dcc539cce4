"""One listener per process on the channel layer, for all the sockets it holds.

A change is announced to a session's group (``services.notify``). Instead of every
socket joining the group, and the channel layer (Redis, with several processes)
carrying one copy of every announcement per socket, each process joins the group
once, with a channel of its own, as soon as it holds a socket of that session, and
leaves it when it holds none. The relay reads that channel and wakes the sockets of
the session it holds (``rendering.listeners_of``), which then render and send their
frames. A table of five phones on one process costs one message per change, not
five; the process that committed a change has already woken its own sockets
(``rendering.prime``), and they ignore the second call for the same change.

One relay per event loop (a server process has one; tests start several).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.layers import get_channel_layer

from companion.rendering import listeners_of

logger = logging.getLogger(__name__)

RETRY_SECONDS = 0.5


class Relay:
    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.members: dict[str, int] = {}  # group → sockets of this process in it
        self.lock = asyncio.Lock()
        self.task: asyncio.Task | None = None

    async def join(self, group: str) -> None:
        """A socket of this process shows the session of ``group``; once this
        returns, every change announced to the group reaches the relay."""
        async with self.lock:
            if self.channel is None:
                # The default prefix: channels_redis reads all of a process's own channels
                # from one list, which only holds names made this way.
                self.channel = await self.layer.new_channel()
                self.task = asyncio.ensure_future(self._listen(self.channel))
            if not self.members.get(group):
                await self.layer.group_add(group, self.channel)
            self.members[group] = self.members.get(group, 0) + 1

    async def leave(self, group: str) -> None:
        async with self.lock:
            count = self.members.get(group, 0) - 1
            if count > 0:
                self.members[group] = count
                return
            self.members.pop(group, None)
            if self.channel is not None:
                await self.layer.group_discard(group, self.channel)
            if not self.members and self.task is not None:
                # Nothing to listen for: stop, so no task outlives the sockets.
                self.task.cancel()
                self.task, self.channel = None, None

    async def _listen(self, channel: str) -> None:
        while True:
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer's connection failed: keep trying
                logger.exception("relay %s could not read the channel layer", channel)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if message.get("type") != "session.changed":
                continue
            for listener in listeners_of(message.get("session")):
                if listener.wake is None:
                    continue
                try:
                    listener.wake(message.get("stamp") or "")
                except RuntimeError:  # that socket's event loop has closed
                    continue


_RELAYS: dict[asyncio.AbstractEventLoop, Relay] = {}


def relay() -> Relay:
    """The relay of the running event loop (made on first use)."""
    loop = asyncio.get_running_loop()
    found = _RELAYS.get(loop)
    if found is None:
        for old in [other for other in _RELAYS if other.is_closed()]:
            del _RELAYS[old]
        found = _RELAYS[loop] = Relay(get_channel_layer())
    return found
