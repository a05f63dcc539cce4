"""One WebSocket per phone per session: server-rendered fragments, newest only.

The socket carries the table to the phone and the phone's taps to the server. On
connect (and reconnect) the phone gets every fragment as read then, unless its
URL says it already shows that very revision (``?shown=n``, the revision of its
``#status``, read again at every reconnect): then nothing, since the page holds
it already, and the socket remembers those fragments as sent. After each
change its table announces (``companion/live.py``) it gets the fragments that
changed, rendered for what its seat may see, never a revision older than one it
has already been sent.

The server beats a heart on every socket: a socket that has been sent nothing for
half a second is sent ``{"type": "pong", "revision": m}`` once a second (an event
loop's sockets beat in groups, one every 50 ms, so a process's thousands of sockets
beat spread over the second, not in one burst: :class:`_Beats`). A phone that hears
nothing for two seconds knows it is offline and starts over. The phone's own
heartbeat, ``{"type": "ping", "revision": n}`` with the revision it shows, goes every
five seconds and is answered at once with a pong: a phone that shows an old
revision gets the current one, and a socket whose phone has gone quiet is closed
by the same beat that visits it each second (no watchdog task per socket), so dead
phones leave their table. (Phones used to ping every second, each ping
received, parsed and answered: benchmarks/README.md, section 10.)

A tap (a game action or an undo) travels on the socket the phone already holds:
``{"type": "tap", "path": "/s/CODE/act", "body": "<the form, url-encoded>"}``,
the same fields and one-time key as its POST (``companion/taps.py``), so no HTTP
request, middleware or CSRF check is paid per tap (the socket's origin and the
phone's cookie were checked when it opened). The answer names the tap's key:
``{"type": "done", "key", "version"}``; ``{"type": "refused", "key", "status",
"html"}`` with the message fragment, in the phone's language; or ``{"type":
"failed", "key"}`` when the server could not tell (the phone sends it again, with
the same key, so it is never applied twice). The update itself comes like every
other phone's. A phone whose socket is down POSTs the same tap instead.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import logging
import random
import threading
import time
from collections.abc import Awaitable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import BadRequest as DjangoBadRequest
from django.core.exceptions import SuspiciousOperation
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import QueryDict
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from companion import codes, live, ratelimit, services, taps
from companion.errors import (
    BadRequest,
    Forbidden,
    NotFound,
    ServiceError,
    TooMany,
)
from companion.identity import phone_token
from companion.models import GameSession
from companion.rendering import Shown
from config import dbpool
from games.engine import EngineError

logger = logging.getLogger(__name__)

SUPPORTED = {code for code, _name in settings.LANGUAGES}
#: A phone that has sent heartbeats and then none for this long is gone.
QUIET_SECONDS = 12.0
#: What one socket may send: a phone pings every few seconds and asks for a sync
#: when a countdown ends. Beyond the burst, messages are dropped unanswered; a
#: socket that keeps flooding is closed.
MESSAGES_PER_SECOND = 4.0
MESSAGE_BURST = 20
DROPPED_BEFORE_CLOSE = 200
#: A phone that still shows less than its socket sent this long ago could not
#: apply a frame: it gets everything again. (A heartbeat that merely crossed a
#: frame on the way, the usual case at a busy table, does not.)
APPLY_SECONDS = 2.0
#: The answer to a heartbeat, and the server's own beat (as ``json.dumps`` writes
#: it, without its cost).
PONG = '{"type": "pong", "revision": %d}'
#: Load the table's page again (``SessionConsumer._reload``).
RELOAD = '{"type": "reload"}'
#: How often the server beats on a socket it has sent nothing for half as long (a
#: phone that hears nothing for two seconds says it is offline: ``app.js``).
BEAT_SECONDS = 1.0
#: An event loop's sockets beat in this many groups, one group at a time.
BEAT_GROUPS = 20


_TAP_THREADS: ThreadPoolExecutor | None = None


class _Beats:
    """One event loop's heartbeat on its sockets. They are in :data:`BEAT_GROUPS`
    groups (each joins one at random), and one task beats a group every
    ``BEAT_SECONDS / BEAT_GROUPS``: each socket once a beat, a process's thousands of
    sockets spread over the second, and no timer or task per beat (a timer and a
    task each were two fifths of a beat's cost, measured at 2,000 sockets)."""

    def __init__(self) -> None:
        self.groups: list[set[SessionConsumer]] = [set() for _ in range(BEAT_GROUPS)]
        self.task: asyncio.Task | None = None

    def join(self, socket: SessionConsumer) -> None:
        socket._beat_group = random.randrange(BEAT_GROUPS)
        self.groups[socket._beat_group].add(socket)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())

    def leave(self, socket: SessionConsumer) -> None:
        self.groups[socket._beat_group].discard(socket)
        socket._beat_group = -1
        if self.task is not None and not any(self.groups):
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        step = BEAT_SECONDS / BEAT_GROUPS
        due, index = loop.time(), 0
        while True:
            due += step
            await asyncio.sleep(max(0.0, due - loop.time()))
            index = (index + 1) % BEAT_GROUPS
            now = time.monotonic()
            for n, socket in enumerate(list(self.groups[index])):
                if n % 16 == 15:
                    await asyncio.sleep(0)  # a tap or a frame waiting goes first
                try:
                    await socket.beat(now)
                except asyncio.CancelledError:
                    raise
                except Exception:  # one socket's failure must not stop every beat
                    logger.warning("a heartbeat failed", exc_info=True)


_BEATS: dict[asyncio.AbstractEventLoop, _Beats] = {}


def _beats() -> _Beats:
    """The running event loop's heartbeat (made on first use)."""
    return live.of_this_loop(_BEATS, _Beats)


def tap_thread(function: Any) -> Any:
    """Where a tap runs: on PostgreSQL in one of a few threads, each with a pooled
    connection of its own, so one table's round trips to the database never hold
    up another table's taps (a table's own taps still take turns: the session's
    row is locked); on SQLite, which takes one writer at a time, in the one
    database thread. Channels runs every socket's database work in that one
    thread: at 2,000 sockets every tap of the process queued there behind every
    other's waits for PostgreSQL (benchmarks/README.md, issue 15)."""
    global _TAP_THREADS
    threads = settings.SEGNALINO_TAP_THREADS
    # The engine from the settings: asking ``connection`` here, on the event loop,
    # would make each tap's task a database wrapper of its own.
    if connections.settings[DEFAULT_DB_ALIAS]["ENGINE"].endswith("sqlite3") or threads <= 1:
        return database_sync_to_async(function)
    if _TAP_THREADS is None:
        _TAP_THREADS = ThreadPoolExecutor(threads, thread_name_prefix="segnalino-tap")
    executor = _TAP_THREADS

    def run(*args: Any) -> Awaitable[Any]:
        loop = asyncio.get_running_loop()
        answer = loop.create_future()
        executor.submit(_on_tap_thread, loop, answer, function, args)
        return answer

    return run


#: Each tap thread's own context, where Django keeps the thread's connection
#: (``django.db.connections`` is per context) from one tap to the next.
_TAP_CONTEXT = threading.local()


def _on_tap_thread(
    loop: asyncio.AbstractEventLoop, answer: asyncio.Future, function: Any, args: tuple
) -> None:
    """On a tap thread: ``function(*args)`` in the thread's own context, with the
    pooled connection the thread holds (its last tap's, when that one still
    works). Taking a connection from the pool and giving it back was a new
    database wrapper, its set-up and the pool's locks on every tap; the check
    the pool makes on a hand-over is made here instead (``config.dbpool``).

    The tap's answer goes back to ``loop`` in the same call as what the tap
    committed has for that loop (``live.waking``: the announcement, and the
    tables' parts), after it: one wake-up of the loop a tap, not two."""
    context = getattr(_TAP_CONTEXT, "context", None)
    if context is None:
        context = _TAP_CONTEXT.context = contextvars.Context()
    result: Any = None
    error: BaseException | None = None
    with live.waking(loop) as news:
        try:
            result = context.run(_with_held_connection, function, args)
        except BaseException as failed:  # handed to the awaiting task, as run_in_executor does
            error = failed
    try:
        loop.call_soon_threadsafe(
            _answered, answer, news, result, error, context=contextvars.Context()
        )
    except RuntimeError:  # the loop has closed: nobody waits for the answer
        live.undelivered(news)


def _answered(answer: asyncio.Future, news: list, result: Any, error: BaseException | None) -> None:
    """On the loop: what the tap committed goes to the tables, then its answer."""
    live.each(news)
    if answer.done():  # the socket's task was cancelled meanwhile (it closed)
        return
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(result)


def _with_held_connection(function: Any, args: tuple) -> Any:
    held = connections[DEFAULT_DB_ALIAS]
    if held.connection is not None:
        try:
            dbpool.check(held.connection)
        except Exception:  # killed while held, or unanswered for long: a new one
            logger.info("a tap thread's connection was lost: it takes another")
            held.close()
    try:
        return function(*args)
    finally:
        _keep_if_sound(held)


def _keep_if_sound(held: Any) -> None:
    """After a tap: the thread keeps its connection, unless the tap left it in a
    state the next tap must not inherit (Django's own tests, as
    ``close_if_unusable_or_obsolete`` makes them, without its age limit)."""
    if held.connection is None:
        return
    if held.in_atomic_block or held.get_autocommit() != held.settings_dict["AUTOCOMMIT"]:
        held.close()
    elif held.errors_occurred:
        if held.is_usable():
            held.errors_occurred = False
        else:
            held.close()


def release_tap_threads() -> None:
    """Each tap thread gives its connection back, and the threads end (the next
    tap starts new ones). For a test run, whose database is dropped at the end:
    PostgreSQL refuses to drop a database a connection is still open on."""
    global _TAP_THREADS
    executor, _TAP_THREADS = _TAP_THREADS, None
    if executor is None:
        return
    # One call per thread: each waits at the barrier until every thread has one.
    threads = executor._max_workers  # what it was made with (the setting may differ now)
    together = threading.Barrier(threads)

    def give_back() -> None:
        context = getattr(_TAP_CONTEXT, "context", None)
        if context is not None:
            context.run(connections[DEFAULT_DB_ALIAS].close)
        together.wait(timeout=10)

    for done in [executor.submit(give_back) for _ in range(threads)]:
        done.result()
    executor.shutdown()


#: Tap paths up to this long are resolved once per process (``/s/ABCDE/undo`` is
#: 13): a phone sending long made-up paths cannot fill the cache with them.
TAP_PATH_CACHED = 64


@functools.lru_cache(maxsize=1024)
def _tap_of(path: str) -> tuple[str, str] | None:
    """The tap (``act`` or ``undo``) a path names and its table's code, or None:
    resolved once per path (the URLconf does not change while the process runs; a
    table's phones send the same two paths all evening)."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    code = match.kwargs.get("code")
    if match.url_name not in taps.TAPS or not isinstance(code, str):
        return None
    return match.url_name, codes.normalise(code)


class SessionConsumer(AsyncWebsocketConsumer):
    # A socket has no channel of its own on Redis: its process's
    # relay listens for the whole table (``companion/live.py``). So a socket
    # neither costs Redis anything nor dies when Redis does.
    channel_layer_alias = "no channel layer for sockets"
    session_id: int | None = None
    code: str = ""
    game: str | None = None  # the session's game, to word a refusal in its terms
    _due: datetime | None = None  # the session's deadline when the phone connected
    table: live.Table | None = None
    token: str = ""
    gone = False  # the socket has closed
    _said_at = 0.0  # when this socket last sent the phone anything
    _beat_group = -1  # which of its event loop's groups of sockets it beats with
    _send_frame: Any = None  # a text frame straight to the server (set in _serve)

    async def dispatch(self, message: dict) -> None:
        """Each message to its handler, straight away. Channels' own ``dispatch``
        first closes stale database connections with a trip to the database thread,
        for every message: a heartbeat (one a second per phone) or a tap would wait
        there behind every render and write of the process. These handlers reach the
        database only through ``database_sync_to_async``, which does that itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message.get('type')!r}")
        await handler(message)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        # However the socket ends (a close, an error, the process stopping), it
        # leaves its table: a table never keeps a dead socket in its group.
        try:
            await self._serve(scope, receive, send)
        finally:
            await self._leave()

    async def _serve(self, scope: Any, receive: Any, send: Any) -> None:
        """Channels' ``AsyncConsumer.__call__`` for a consumer without a channel
        layer: each message received and dispatched in this task, one after the
        other, as there. Channels waits for the next message in a new task of its
        own with ``asyncio.wait``, for every message: about 15 µs of the loop's time
        per heartbeat, 2,000 a second at 2,000 phones (benchmarks/README.md)."""
        self.scope = scope
        self.channel_layer = None
        self.base_send = send
        # Channels' session wrapper (``InstanceSessionWrapper.send``) saves the
        # session only when an HTTP response starts; for a socket's frames it just
        # looks the session up twice, five frames a tap. Frames go past it.
        self._send_frame = getattr(getattr(send, "__self__", None), "real_send", send)
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """Send, unless the phone has just gone: uvicorn raises ``ClientDisconnected``
        (an ``OSError``) for a socket that closed while its frame was being rendered,
        where daphne dropped the frame. Either way the socket is leaving its table."""
        self._said_at = time.monotonic()
        try:
            if text_data is not None and bytes_data is None and not close:
                await self._send_frame({"type": "websocket.send", "text": text_data})
            else:
                await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except OSError:
            self.gone = True

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.language = self._language()
        self.spectator_key = kwargs.get("spectator_key")
        self.spectator = self.spectator_key is not None
        self.sent = -1  # the newest revision this socket has sent
        self._sent_at = 0.0  # when it sent it
        self._send_lock = asyncio.Lock()
        self._tap_lock = asyncio.Lock()
        self._shown = Shown()  # after a change, only the fragments that changed
        # The seat the page shows, when its URL says (an older page's does not).
        self._seat_said, self._seat_shown = self._page_seat()
        self._heard_at = 0.0  # when the phone's last heartbeat came (0: it sends none)
        self._allowance = float(MESSAGE_BURST)  # messages it may send now (a token bucket)
        self._allowance_at = time.monotonic()
        self._dropped = 0
        found = await self._find(kwargs.get("code", ""))
        if found is None:
            await self.close(code=4404)
            return
        self.session_id = found
        await self.accept()
        self.table = await live.sit(self.session_id, self)
        if self._due is not None and self._due <= timezone.now():
            # The clock ran out and no timer played the default moves (a worker
            # down): they are played now. A clock still running is left to the
            # timer and to the phones' "sync" when it reaches zero.
            await self._enforce_deadline()
        await self.refresh(full=True, fresh=True, shown=self._shown_revision())
        if not self.gone:
            _beats().join(self)

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        self.gone = True
        table, self.table = self.table, None
        if self._beat_group >= 0:
            _beats().leave(self)
        if table is not None:
            await live.leave(table, self)

    def _within_rate(self) -> bool:
        if not settings.SEGNALINO_RATE_LIMITS:
            return True
        now = time.monotonic()
        self._allowance = min(
            float(MESSAGE_BURST),
            self._allowance + (now - self._allowance_at) * MESSAGES_PER_SECOND,
        )
        self._allowance_at = now
        if self._allowance < 1.0:
            self._dropped += 1
            return False
        self._allowance -= 1.0
        return True

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self._within_rate():
            if self._dropped >= DROPPED_BEFORE_CLOSE:
                await self._leave()
                await self.close(code=4429)
            return  # a flood: dropped unanswered, costing nothing more
        size = len(text_data or "") + len(bytes_data or b"")
        if size > settings.SEGNALINO_MAX_WS_FRAME:
            await self._send_error(gettext_noop("That message is too large; it was ignored."))
            return
        try:
            message = json.loads(text_data) if text_data else None
        except ValueError:
            message = None
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping" and isinstance(message, dict):
            await self._heartbeat(message)
            return
        if kind == "tap" and isinstance(message, dict):
            # In its own task, so heartbeats are answered while it is applied;
            # one at a time per socket, in the order the phone sent them.
            live.spawn(self._tap(message))
            return
        if kind == "sync":
            # A phone whose countdown reached zero asks again: enforce the
            # deadline lazily (the change is announced to the table), then resend.
            await self._enforce_deadline()
            if self.table is not None:
                self.table.verify_soon()  # at most one read every few seconds
            await self.refresh(full=True)  # the parts this revision already has
            return
        await self._send_error(
            gettext_noop("This connection only receives updates; use the buttons to play.")
        )

    async def beat(self, now: float) -> None:
        """A pong to a phone this socket has sent nothing for half a beat, so it
        knows the server is there without asking; and the table may check its
        revision (a lost announcement caught, even at a table of one phone). A
        phone that has sent heartbeats and then none for :data:`QUIET_SECONDS` is
        gone: its socket is closed, in a task of its own (the beat goes on to the
        next socket), and leaves its table."""
        table = self.table
        if table is None or self.gone:
            return
        if self._heard_at and now - self._heard_at > QUIET_SECONDS:
            self.gone = True  # no second close from the next beat
            live.spawn(self._close_quiet())
            return
        if now - self._said_at >= BEAT_SECONDS / 2:
            await self._pong(table)
        table.verify_soon()

    async def _pong(self, table: live.Table) -> None:
        """The newest revision this socket knows of: the table's, or what it sent."""
        known = table.snapshot.revision if table.snapshot is not None else 0
        await self.send(text_data=PONG % max(known, self.sent))

    async def _heartbeat(self, message: dict) -> None:
        shown = message.get("revision")
        self._heard_at = time.monotonic()
        table = self.table
        if table is None:
            return
        await self._pong(table)
        if (
            isinstance(shown, int)
            and not isinstance(shown, bool)
            and shown < self.sent
            and time.monotonic() - self._sent_at >= APPLY_SECONDS
        ):
            # The phone shows less than it was sent (a frame it could not apply).
            await self.refresh(full=True)
        table.verify_soon()

    async def _close_quiet(self) -> None:
        """Close the socket of a phone whose heartbeats stopped (its beat saw it)."""
        await self._leave()
        await self.close(code=4408)

    async def refresh(
        self,
        revision: int = 0,
        *,
        full: bool = False,
        fresh: bool = False,
        shown: int | None = None,
    ) -> None:
        """Send the table at ``revision`` or newer, if newer than what this socket
        sent (``full``: every fragment, even at the same revision). ``shown``: the
        revision the phone's page shows as it connects; if the table is still at
        it, the page already holds every fragment and none is sent (a 37 KB frame
        costs a phone most of a second to apply), yet the socket notes them as
        sent, so the next change carries only what differs."""
        table = self.table
        if table is None:
            return
        snapshot = await table.latest(revision, fresh=fresh)
        if snapshot.revision < self.sent or (snapshot.revision == self.sent and not full):
            return
        if self._seat_said and self._seat_shown != self._seat_at(snapshot):
            await self._reload()
        frame = await table.frame(
            snapshot, self.token, spectator=self.spectator, language=self.language
        )
        async with self._send_lock:
            # Another refresh may have sent a newer revision while this one rendered.
            if snapshot.revision < self.sent or (snapshot.revision == self.sent and not full):
                return
            self.sent = snapshot.revision
            self._sent_at = time.monotonic()
            text = self._shown.everything(frame) if full else self._shown.changes(frame)
            if shown == snapshot.revision:
                return  # the page was rendered at this revision: it shows all of it
            if text and self.table is not None:
                await self.send(text_data=text)

    def _seat_at(self, snapshot: live.Snapshot) -> int | None:
        """This phone's seat at ``snapshot``: the viewer its frames are rendered for."""
        return snapshot.viewer(self.token, self.spectator, self.language).seat

    async def _reload(self) -> None:
        """The phone's seat is no longer the one its page was rendered for (the
        host freed it, another phone took it by its rejoin link, this phone sat
        down): the page marks its own board and puts it first, which no frame
        moves, so the phone loads its table again. Told once; the frames go on
        meanwhile, as to any phone."""
        async with self._send_lock:
            if not self._seat_said:
                return
            self._seat_said = False
            if self.table is not None:
                await self.send(text_data=RELOAD)

    # ------------------------------------------------------------ taps

    async def _tap(self, message: dict) -> None:
        """One tap: applied by the same service as its POST, answered by its key."""
        path, body = message.get("path"), message.get("body")
        if not isinstance(path, str) or not isinstance(body, str):
            await self._send_error(gettext_noop("That tap was not understood; reload the page."))
            return
        try:
            data: QueryDict | None = QueryDict(body)
        except (DjangoBadRequest, SuspiciousOperation):  # more fields than any form has
            data = None
        key = data.get("key", "")[: services.MAX_KEY_LENGTH] if data is not None else ""
        async with self._tap_lock:
            answer = await tap_thread(self._apply_tap)(path, body, data)
        if not self.gone:
            await self.send(text_data=json.dumps({**answer, "key": key}))

    def _tap_name(self, path: str) -> str | None:
        """``act`` or ``undo`` if ``path`` is one of this socket's table's."""
        found = _tap_of(path) if len(path) <= TAP_PATH_CACHED else _tap_of.__wrapped__(path)
        if found is None:
            return None
        name, code = found
        return name if code == self.code else None

    def _apply_tap(self, path: str, body: str, data: QueryDict | None) -> dict[str, Any]:
        """In the database thread: the tap's answer, without its key."""
        try:
            if data is None:
                raise BadRequest(gettext_noop("That form has more fields than any of ours."))
            if "\x00" in path or "\x00" in body:
                raise BadRequest(gettext_noop("The request holds a character that is not allowed."))
            name = self._tap_name(path)
            if name is None:
                raise NotFound(gettext_noop("That tap is not one this table takes."))
            if self.spectator:
                raise Forbidden(gettext_noop("Watchers cannot change the game."))
            applied = taps.TAPS[name](self.code, data, self.token)
        except (ServiceError, EngineError) as error:
            with translation.override(self.language):
                status, html = taps.refusal(error, self.game, path, data)
            return {"type": "refused", "status": status, "html": html}
        except Exception:
            # Not the phone's fault, and maybe not applied: it sends the tap again
            # with the same key, which a committed tap recognises.
            logger.exception("a tap on session %s failed", self.session_id)
            return {"type": "failed"}
        return {"type": "done", "version": applied.action.version}

    # ------------------------------------------------------------ helpers

    def _language(self) -> str:
        value = self._query("lang")
        return value if value in SUPPORTED else settings.LANGUAGE_CODE

    def _query(self, name: str) -> str | None:
        """The value of ``name`` in the socket's URL, if it has one."""
        query = self.scope.get("query_string", b"").decode("latin-1")
        for part in query.split("&"):
            key, _sep, value = part.partition("=")
            if key == name:
                return value
        return None

    def _shown_revision(self) -> int | None:
        """The revision the phone's page shows (``?shown=n``), if it says one."""
        value = self._query("shown")
        if value is not None and value.isascii() and value.isdigit() and len(value) <= 18:
            return int(value)
        return None

    def _page_seat(self) -> tuple[bool, int | None]:
        """Whether the socket's URL says which seat the phone's page was rendered
        for (``?seat=n``, ``-`` for none), and that seat."""
        value = self._query("seat")
        if value == "-":
            return True, None
        if value is not None and value.isascii() and value.isdigit() and len(value) <= 3:
            return True, int(value)
        return False, None

    @database_sync_to_async
    def _find(self, code: str) -> int | None:
        try:
            if self.spectator_key is not None:
                session = services.get_watched_session(self.spectator_key)
            else:
                session = services.find_session(code, ratelimit.client_of(self.scope))
        except (NotFound, TooMany):
            return None
        self.code, self.game, self._due = session.code, session.game, session.deadline
        # Read here, off the event loop (session middleware loads it lazily).
        self.token = "" if self.spectator_key else phone_token(self.scope.get("session"))
        return session.pk

    @database_sync_to_async
    def _enforce_deadline(self) -> int:
        assert self.session_id is not None
        session = GameSession.objects.get(pk=self.session_id)
        return services.enforce_deadline(session)

    async def _send_error(self, message: str) -> None:
        with translation.override(self.language):
            html = render_to_string(
                "companion/partials/messages.html", {"error": gettext(message), "oob": True}
            )
        await self.send(text_data=html)


class NoSuchSocket(AsyncWebsocketConsumer):
    """A WebSocket to a path that is not a table's: refused at the handshake."""

    channel_layer_alias = "no channel layer for sockets"

    async def connect(self) -> None:
        await self.close(code=4404)
