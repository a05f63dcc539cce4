"""How a committed change reaches the phones: one path, in revision order.

1. A change commits and bumps the session's ``revision`` (``services``).
2. After commit, :func:`announce` tells this process's tables of the session at
   once and, where there is Redis, publishes ``"<revision> <origin>"`` on the
   session's pub/sub channel for every other process. That is the only
   announcement: each table hears of each revision once.
3. Each server process (each event loop) holds one :class:`Table` per session it
   has sockets for. Its :class:`Relay` holds one Redis subscription, to the
   channels of all its tables, and hands each announcement from another process
   to the table.
4. The table makes sure it knows that revision (handed over by the committing
   thread, which rendered it while PostgreSQL wrote it: :func:`render_ahead`,
   :func:`offer`; or one read of the session, its seats and the log's tail, shared
   by all its sockets: single-flight), renders
   each part a viewer may see once per revision (``rendering.part_keys``,
   single-flight too) and has each socket send it.
5. A socket sends a revision only if it is newer than the last one it sent, so
   no phone ever goes back, whatever order renders finish in.

What a table keeps is its latest revision and the parts rendered for it; all of
it goes when the revision moves on or the last socket leaves. Nothing is kept
process-wide, so the cost of a change does not depend on how many tables the
process has seen.

Faults: an announcement can be lost (Redis restarted, a failure after commit).
So a table also checks the database's revision when a phone's heartbeat comes and
the last check is older than :data:`VERIFY_SECONDS`, and when the relay's
subscription had to reconnect, every table checks its revision at once (Redis
pub/sub keeps nothing for a subscriber that was away). A phone therefore catches
up within seconds of any lost message.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextvars import Context
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import redis
import redis.asyncio
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import models
from django.db.models.base import ModelState

from companion import fragments
from companion.models import Action, GameSession, Seat
from companion.rendering import PERSONAL, SHARED, Cuts, Frame, cut, part_keys, render_part
from companion.rows import Committed
from companion.selectors import LogTail, Viewer, log_tail, viewer_for

logger = logging.getLogger(__name__)

VERIFY_SECONDS = 4.0  # a table checks the database's revision at most this often
CHECK_BATCH_SECONDS = 0.2  # the checks asked for within this long are one query
HEALTH_SECONDS = 30.0  # an idle subscription checks its connection this often
RETRY_SECONDS = 0.5  # after a Redis error


def group_name(session_id: int) -> str:
    return f"session.{session_id}"


# ---------------------------------------------------------------- committing side


#: Who sent an announcement: a process's own tables hear of its changes in-process.
ORIGIN = uuid.uuid4().hex


#: What the committing thread hands a table: the snapshot of a revision and the
#: parts it rendered of it (:func:`offer`).
Handed = tuple["Table", "Snapshot", dict[tuple, Frame]]


def announce(session_id: int, revision: int, handed: Sequence[Handed] = ()) -> None:
    """After commit, from the committing thread: the new revision, to every table.

    This process's tables of the session hear of it at once, on their own event
    loops; every other process through Redis, where there is one (``REDIS_URL``):
    one ``PUBLISH`` of ``"<revision> <origin>"`` on the session's channel, which
    every process with a table of the session has subscribed to (:class:`Relay`;
    from the server's loop, only where another process listens: ``_TELL_OTHERS``).
    Each table hears of each revision once (a relay ignores its own process's
    announcements), and from there on it is the one path: ``Table.announced``.
    Without Redis there is one process, and nobody else to tell.

    ``handed``: what :func:`offer` rendered for the tables, given to each before it
    hears of the revision. All that an event loop is given of one revision goes in
    one call: the loop is woken once a tap, not once for the parts, once for the
    announcement and once for the publish (each wake-up a write to the loop's
    wake-up descriptor, and the loop's thread taking the interpreter's lock).

    The publish does not hold up the committing thread where an event loop of this
    process can make it (the server's); a failure there is logged, and the other
    processes' phones catch up by their heartbeat checks.
    """
    with _tables_lock:
        tables = list(_TABLES.get(session_id, {}).values())
    calls: dict[asyncio.AbstractEventLoop, list[Callable[[], object]]] = {}
    for table, snapshot, parts in handed:
        calls.setdefault(table.loop, []).append(functools.partial(table.offer, snapshot, parts))
    for table in tables:
        calls.setdefault(table.loop, []).append(functools.partial(table.announced, revision))
    publishing: asyncio.AbstractEventLoop | None = None
    if settings.REDIS_URL:
        channel, message = redis_channel(group_name(session_id)), f"{revision} {ORIGIN}"
        publishing = _server_loop(tables)
        if publishing is not None:
            calls.setdefault(publishing, []).append(
                functools.partial(_publish_on_loop, channel, message)
            )
    woken = getattr(_WAKING, "woken", None)
    for loop, in_order in calls.items():
        if woken is not None and loop is woken[0]:
            woken[1].extend(in_order)  # goes with the tap's answer (:func:`waking`)
            continue
        try:
            # In a context of its own: not the committing thread's (asgiref marks
            # that one as inside its database thread, and would refuse the renders).
            loop.call_soon_threadsafe(each, in_order, context=Context())
        except RuntimeError:  # that event loop has closed
            if loop is publishing:
                publishing = None
    if settings.REDIS_URL and publishing is None:
        _publisher().publish(channel, message)


def each(calls: Sequence[Callable[[], object]]) -> None:
    """On a loop: what a committing thread gave it, in order; one failing does
    not keep the others from running."""
    for call in calls:
        try:
            call()
        except Exception:
            logger.exception("a table could not take revision news: %r", call)


def undelivered(calls: Sequence[Callable[[], object]]) -> None:
    """What a loop that has closed was to be given: its publish is made from this
    thread, so the other processes' phones still hear of the revision; the rest
    was for this process's sockets, which closed with their loop."""
    for call in calls:
        if isinstance(call, functools.partial) and call.func is _publish_on_loop:
            _publisher().publish(*call.args)


_WAKING = threading.local()


@contextlib.contextmanager
def waking(loop: asyncio.AbstractEventLoop) -> Iterator[list[Callable[[], object]]]:
    """In a thread that will wake ``loop`` when it is done (a tap thread, which
    then answers the tap there): what :func:`announce` has for that loop is kept
    in the list yielded, for the thread to send with its own wake-up
    (:func:`each`, before the answer), not sent in a wake-up of its own."""
    news: list[Callable[[], object]] = []
    before = getattr(_WAKING, "woken", None)
    _WAKING.woken = (loop, news)
    try:
        yield news
    finally:
        _WAKING.woken = before


def redis_channel(group: str) -> str:
    """The Redis pub/sub channel of a table's group (``CHANNEL_PREFIX`` keeps apart
    the deployments, test runs and benchmarks that share one Redis)."""
    return f"{settings.SEGNALINO_LIVE_PREFIX}:{group}"


def _server_loop(tables: Sequence[Table]) -> asyncio.AbstractEventLoop | None:
    """An event loop of this process, running in another thread, that can publish
    for the committing thread: one of the session's tables', or one with a relay.
    None where there is none (a worker, a script, a test)."""
    try:
        asyncio.get_running_loop()
        return None  # called on a loop's own thread: it cannot wait on itself
    except RuntimeError:
        pass
    for loop in [table.loop for table in tables] + list(_RELAYS):
        if loop.is_running() and not loop.is_closed():
            return loop
    return None


def _publish_on_loop(channel: str, message: str) -> None:
    """On the loop the committing thread handed the announcement to."""
    relay().publish(channel, message)


_PUBLISHER: Any = None


def _publisher() -> Any:
    """A blocking Redis client for processes without an event loop of their own
    (a Celery worker, a management command): short timeouts, so Redis being down
    costs a commit at most a second before it is logged and forgotten."""
    global _PUBLISHER
    if _PUBLISHER is None:
        _PUBLISHER = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1.0, socket_timeout=1.0
        )
    return _PUBLISHER


@dataclass
class Ahead:
    """What a change's tables rendered while it was being written
    (:func:`render_ahead`): the row as they know it, and per table the snapshot and
    its parts."""

    row: Action
    renders: list[Handed]


def render_ahead(session: GameSession, seats: Sequence[Seat], row: Action) -> Ahead | None:
    """From the committing thread, inside its transaction, while PostgreSQL writes
    ``row``: this process's tables of the session render the new revision, as
    :func:`offer` would once committed, so the phones hear of it one round trip
    sooner. Where the COMMIT travels with the write (``rows.write_action``'s
    ``last``), a part that would read the database is not rendered here (the lock
    is gone: it could read a later change) but by the loop, after the commit.
    Nothing leaves here: :func:`offer` hands the renders over after the
    commit, or they are dropped with the transaction. None without tables here."""
    with _tables_lock:
        tables = list(_TABLES.get(session.pk, {}).values())
    if not tables:
        return None
    try:
        session_copy, seats_copy, row_copy = _copies(session, seats, row)
        assert row_copy is not None
        return Ahead(row_copy, _rendered(tables, session_copy, seats_copy, row_copy))
    except Exception:  # never the tap's failure: offer renders after the commit instead
        logger.warning("could not render revision %s ahead", session.revision, exc_info=True)
        return None


def offer(
    session: GameSession, seats: Sequence[Seat], row: Action | None, ahead: Ahead | None = None
) -> list[Handed]:
    """After commit, from the committing thread: what the new revision looks like,
    as read and written under the lock, for this process's tables of the session
    to use instead of reading it again, with the parts their sockets need rendered
    here and now (the thread has everything in hand; the renders need not wait for
    a hop to the event loop and back to the database thread), or while it was
    written (``ahead``). Data only: handed to the tables with the announcement
    (:func:`announce`), which wakes the sockets.

    The tables get copies: the committing thread goes on using its objects (a
    reply may ``refresh_from_db()`` its session), and a snapshot must never change
    under the renders of its revision."""
    with _tables_lock:
        tables = list(_TABLES.get(session.pk, {}).values())
    handed: list[Handed] = []
    if ahead is not None and row is not None:
        # The row as the tables rendered it is stored now, with its key.
        ahead.row.pk, ahead.row._state.adding, ahead.row._state.db = row.pk, False, row._state.db
        handed = ahead.renders
        done = {table for table, _snapshot, _parts in handed}
        tables = [table for table in tables if table not in done]
    if tables:
        handed = [*handed, *_rendered(tables, *_copies(session, seats, row))]
    return handed


def _copies(
    session: GameSession, seats: Sequence[Seat], row: Action | None
) -> tuple[GameSession, tuple[Seat, ...], Action | None]:
    return (
        copied(session),
        tuple(copied(seat) for seat in seats),
        copied(row) if row is not None else None,
    )


_Model = TypeVar("_Model", bound=models.Model)


def copied(instance: _Model) -> _Model:
    """A copy of a model instance, as ``copy.copy`` makes one: its field values
    shared, its ``_state`` its own, with a cache of related objects of its own
    (Django's ``__getstate__`` makes the same). Made directly: ``copy.copy`` goes
    through pickling's protocol (``__reduce_ex__``, Django's ``__getstate__`` and
    ``__setstate__``, ``copy.copy`` of the ``_state`` again through it), 3–4 µs a
    copy against 0.7, seven copies a tap."""
    values = instance.__dict__.copy()
    kept = ModelState()
    kept.__dict__.update(values["_state"].__dict__)
    kept.fields_cache = dict(kept.fields_cache)
    values["_state"] = kept
    new: Any = instance.__class__.__new__(instance.__class__)
    new.__dict__ = values
    return new


def _rendered(
    tables: Sequence[Table], session: GameSession, seats: tuple[Seat, ...], row: Action | None
) -> list[Handed]:
    """Each table's snapshot of the change (of these copies) and the parts its
    sockets need of it; a table that knows a newer revision is left out, and parts
    that fail to render are left to the loop, which renders them on its way (and
    logs it if they fail again)."""
    found = []
    for table in tables:
        snapshot = table.after(session, seats, row)
        if snapshot is None:
            continue
        try:
            parts = table.prerender(snapshot)
        except Committed:  # a part that reads the log, rendered ahead: left to the loop
            parts = {}
        except Exception:
            logger.warning("could not render revision %s ahead", snapshot.revision, exc_info=True)
            parts = {}
        found.append((table, snapshot, parts))
    return found


def _in_turn(
    jobs: Sequence[tuple[str, Viewer, str]],
    render: Callable[[tuple[str, Viewer, str]], Frame],
    pieces: fragments.Store | None,
) -> list[Frame]:
    """``render`` of each (part, viewer, language) job, in their order, done one
    language at a time with that language active throughout, and with the table's
    ``pieces`` in use (``fragments.using``, entered once a language, not by each
    part: no switch, and back, per part)."""
    done: dict[int, Frame] = {}
    order = sorted(range(len(jobs)), key=lambda n: jobs[n][2])
    for language, group in itertools.groupby(order, key=lambda n: jobs[n][2]):
        with fragments.using(pieces, language):  # (which makes it the active language)
            for n in group:
                done[n] = render(jobs[n])
    return [done[n] for n in range(len(jobs))]


# ---------------------------------------------------------------- tables


@dataclass(frozen=True)
class Snapshot:
    """A session at one revision: the row, its seats and the log's tail. Nobody
    else holds these objects; ``revision`` is fixed when the snapshot is made."""

    session: GameSession
    seats: tuple[Seat, ...]
    tail: LogTail | None
    revision: int = field(init=False)
    # (token, spectator, language) → the parts that phone needs: derived from this
    # snapshot alone, so worked out once a revision, not again by each step.
    _jobs: dict[tuple[str, bool, str], list[tuple]] = field(
        init=False, default_factory=dict, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "revision", self.session.revision)

    def viewer(self, token: str, spectator: bool, language: str) -> Viewer:
        """Whom this revision's parts are rendered for, for that phone."""
        viewer: Viewer = self.jobs(token, spectator, language)[0][2]
        return viewer

    def jobs(self, token: str, spectator: bool, language: str) -> list[tuple]:
        """What one phone needs of this revision: (part, key, viewer, language) for
        each part, the key saying which phones share that part's HTML."""
        found = self._jobs.get((token, spectator, language))
        if found is None:
            viewer = viewer_for(self.session, list(self.seats), token, spectator=spectator)
            keys = part_keys(self.session, viewer, language)
            found = [
                (PERSONAL, keys.personal, viewer, language),
                (SHARED, keys.shared, viewer, language),
            ]
            self._jobs[(token, spectator, language)] = found
        return found


def known(
    *, code: str | None = None, pk: int | None = None
) -> tuple[GameSession, tuple[Seat, ...]] | None:
    """The newest revision this process's tables hold of a session (found by its
    code or key): a copy of its row, which the caller may change, and its seats,
    which it may not; None if no table here has it.

    What a tap may be worked out on before the database has confirmed that this is
    still the session's revision (``rows.write_action``'s ``revision``): the
    tables follow every revision, so it usually is."""
    with _tables_lock:
        if pk is None and code is not None:
            pk = _CODES.get(code)
        tables = list(_TABLES.get(pk, {}).values()) if pk is not None else []
    snapshots = [table.snapshot for table in tables if table.snapshot is not None]
    if not snapshots:
        return None
    newest = max(snapshots, key=lambda snapshot: snapshot.revision)
    if code is not None and newest.session.code != code:
        return None
    return copied(newest.session), newest.seats


def read_snapshot(session_id: int) -> Snapshot:
    session = GameSession.objects.get(pk=session_id)
    return Snapshot(session, tuple(session.seats.all()), log_tail(session))


def read_revisions(session_ids: Sequence[int]) -> dict[int, int]:
    """The database's revision of each session (one query for all of them)."""
    return dict(GameSession.objects.filter(pk__in=session_ids).values_list("pk", "revision"))


class Socket(Protocol):
    """What a table needs of a socket (``consumers.SessionConsumer``): whom it
    shows the table to, and how to have it send a revision."""

    token: str
    spectator: bool
    language: str
    sent: int  # the newest revision it has sent

    async def refresh(self, revision: int = 0, *, full: bool = False) -> None: ...


class Table:
    """One session as seen by one process: its sockets, its latest revision and
    the parts rendered for it. Lives on one event loop."""

    def __init__(self, session_id: int, loop: asyncio.AbstractEventLoop) -> None:
        self.session_id = session_id
        self.group = group_name(session_id)
        self.loop = loop
        self.sockets: set[Socket] = set()
        self.snapshot: Snapshot | None = None
        self.verified_at = 0.0
        self.joined: asyncio.Future[None] = loop.create_future()
        self._reading: asyncio.Future[Snapshot] | None = None
        self._verifying = False  # a check of its revision is on its way
        self._parts: dict[tuple, asyncio.Future[Frame]] = {}
        self.fragments = fragments.Store()  # pieces rendered from their values alone
        self.cuts = Cuts()  # those pieces' frames as cut, by their HTML

    # -- what the table knows

    def _use(self, snapshot: Snapshot) -> None:
        if self.snapshot is None:
            with _tables_lock:
                _CODES[snapshot.session.code] = self.session_id
        if self.snapshot is None or snapshot.revision > self.snapshot.revision:
            self.snapshot = snapshot
            self._parts = {}  # only the latest revision's renders are kept
            self.fragments.advance()
            self.cuts.advance()

    def after(
        self, session: GameSession, seats: tuple[Seat, ...], row: Action | None
    ) -> Snapshot | None:
        """From any thread: the snapshot of a committed change, its log's tail
        built on the one this table knows; None if the table knows a newer one."""
        known = self.snapshot
        if known is not None and session.revision <= known.revision:
            return None
        tail = None
        if known is not None and known.tail is not None:
            if row is None and known.tail.version == session.version:
                tail = known.tail
            elif row is not None:
                tail = known.tail.extended(row)
        return Snapshot(session, seats, tail)

    def prerender(self, snapshot: Snapshot) -> dict[tuple, Frame]:
        """From the committing thread: each part the table's sockets need of
        ``snapshot``, by (part, key). The pieces store is safe to share with the
        database thread: a piece is found by its values, whichever revision made it."""
        jobs: dict[tuple, tuple[Viewer, str]] = {}
        for socket in list(self.sockets):
            for part, key, viewer, language in snapshot.jobs(
                socket.token, socket.spectator, socket.language
            ):
                jobs.setdefault((part, key), (viewer, language))
        found = _in_turn(
            [(part, viewer, language) for (part, _key), (viewer, language) in jobs.items()],
            lambda job: self._cut(snapshot, *job, self.fragments),
            self.fragments,
        )
        return dict(zip(jobs, found, strict=True))

    def _cut(
        self,
        snapshot: Snapshot,
        part: str,
        viewer: Viewer,
        language: str,
        pieces: fragments.Store | None,
    ) -> Frame:
        """One part rendered for ``viewer`` and cut in fragments (with this table's
        store of pieces and of cuts, unless ``pieces`` is None: a snapshot that is
        not the table's latest keeps nothing)."""
        written = render_part(
            part, snapshot.session, snapshot.seats, viewer, language, snapshot.tail, pieces
        )
        return cut("".join(written)) if pieces is None else self.cuts.chunks(written)

    def offer(self, snapshot: Snapshot, rendered: dict[tuple, Frame]) -> None:
        """On the loop: the committing thread hands over a revision and its parts."""
        known = self.snapshot
        if known is not None and snapshot.revision <= known.revision:
            return
        self._use(snapshot)
        for key, html in rendered.items():
            done = self.loop.create_future()
            done.set_result(html)
            self._parts[key] = done

    async def latest(self, revision: int = 0, *, fresh: bool = False) -> Snapshot:
        """The table at ``revision`` or newer; ``fresh``: as read from now on."""
        while True:
            known = self.snapshot
            if known is not None and known.revision >= revision and not fresh:
                return known
            if self._reading is None:
                self._reading = asyncio.ensure_future(self._read())
            reading = self._reading
            snapshot = await asyncio.shield(reading)
            if fresh or snapshot.revision >= revision:
                return self.snapshot or snapshot
            # The read began before the revision we were told of committed: again.
            fresh = False

    async def _read(self) -> Snapshot:
        try:
            snapshot = await database_sync_to_async(read_snapshot)(self.session_id)
            self._use(snapshot)
            self.verified_at = time.monotonic()
            return snapshot
        finally:
            self._reading = None

    # -- announcements and checks

    def announced(self, revision: int) -> None:
        """The relay heard of ``revision``: every socket sends it (once). A revision
        the table already holds (this process's own tap: handed over with the
        announcement) goes to the sockets at once, without a task to read it."""
        known = self.snapshot
        if known is not None and known.revision >= revision:
            self._deliver_now(known, revision)
        else:
            spawn(self._deliver(revision))

    async def _deliver(self, revision: int) -> None:
        self._deliver_now(await self.latest(revision), revision)

    def _deliver_now(self, snapshot: Snapshot, revision: int) -> None:
        # Every part this table's sockets need, rendered in one trip to the
        # database thread (which also runs the POSTs), before they ask for them.
        jobs = []
        for socket in list(self.sockets):
            jobs.extend(snapshot.jobs(socket.token, socket.spectator, socket.language))
        self._render(snapshot, jobs)
        spawn(_refresh_each(list(self.sockets), revision))

    def verify_soon(self) -> None:
        """Check the database's revision, unless that was done in the last few
        seconds: it catches an announcement that was lost. The checks of all the
        tables of this event loop that ask within :data:`CHECK_BATCH_SECONDS` are
        one query (2,000 phones beat a heart a second: a query per table every few
        seconds queued ahead of the renders)."""
        if self._verifying or time.monotonic() - self.verified_at < VERIFY_SECONDS:
            return
        self._verifying = True
        checks = _CHECKS.setdefault(self.loop, set())
        if not checks:
            self.loop.call_later(CHECK_BATCH_SECONDS, _start_checks, self.loop)
        checks.add(self)

    def check_now(self) -> None:
        """Check the database's revision with the next batch, however recent the
        last check."""
        self.verified_at = 0.0
        self.verify_soon()

    def checked(self, revision: int) -> None:
        """The database's revision, as a check found it: sockets that have not sent
        it yet send it (as if announced)."""
        self.verified_at = time.monotonic()
        self._verifying = False
        if any(socket.sent < revision for socket in list(self.sockets)):
            self.announced(revision)
            # Missed news: a relay that announces without asking Redis may not
            # have heard this one come; it is told again (``Relay.come``).
            relay().come(redis_channel(self.group))

    # -- rendering

    async def frame(
        self, snapshot: Snapshot, token: str, *, spectator: bool, language: str
    ) -> Frame:
        """The frame one socket sends for ``snapshot``, in fragments: each part
        rendered (and cut in fragments) once per revision and key for all the
        sockets of this table."""
        futures = self._render(snapshot, snapshot.jobs(token, spectator, language))
        frame: Frame = ()
        for future in futures:
            # Rendered ahead (the usual case): taken as it is. Otherwise awaited
            # through a shield, so a socket that goes away meanwhile does not cancel
            # a render the table's other sockets wait for.
            frame += future.result() if future.done() else await asyncio.shield(future)
        return frame

    def _render(self, snapshot: Snapshot, jobs: list[tuple]) -> list[asyncio.Future[Frame]]:
        """A future per job (part, key, viewer, language), in order: the ones this
        revision already has, and the rest rendered together in one thread trip."""
        cacheable = snapshot is self.snapshot
        futures: list[asyncio.Future[Frame]] = []
        missing: list[tuple[tuple, asyncio.Future[Frame]]] = []
        for part, key, viewer, language in jobs:
            found = self._parts.get((part, key)) if cacheable else None
            if found is None:
                found = self.loop.create_future()
                missing.append(((part, viewer, language), found))
                if cacheable:
                    self._parts[(part, key)] = found
                    found.add_done_callback(functools.partial(self._forget_failed, (part, key)))
            futures.append(found)
        if missing:
            pieces = self.fragments if cacheable else None
            spawn(self._render_together(snapshot, missing, pieces))
        return futures

    async def _render_together(
        self,
        snapshot: Snapshot,
        missing: list[tuple[tuple, asyncio.Future[Frame]]],
        pieces: fragments.Store | None,
    ) -> None:
        def render_all() -> list[Frame]:
            return _in_turn(
                [job for job, _future in missing],
                lambda job: self._cut(snapshot, *job, pieces),
                pieces,
            )

        try:
            rendered = await database_sync_to_async(render_all)()
        except BaseException as error:
            for _job, future in missing:
                if not future.done():
                    future.set_exception(error)
                    future.exception()  # retrieved: the sockets waiting get it
            raise
        for (_job, future), html in zip(missing, rendered, strict=True):
            if not future.done():
                future.set_result(html)

    def _forget_failed(self, key: tuple, done: asyncio.Future[Frame]) -> None:
        """A render that failed is not kept: the next socket tries again."""
        if not done.cancelled() and done.exception() is None:
            return
        if self._parts.get(key) is done:
            del self._parts[key]


async def _refresh_each(sockets: Sequence[Socket], revision: int) -> None:
    """Each socket sends ``revision``, one after the other, in one task (not a task
    each: its making, its scheduling and the bookkeeping of its end, five times a
    tap at a table of five). A socket's send does not
    wait for the phone (the server writes the frame out and goes on), and every
    socket waits for the same renders (``_render`` asks for all of them at once),
    so none waits behind another for long; one that fails does not keep the others
    from sending."""
    for socket in sockets:
        try:
            await socket.refresh(revision)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("a socket could not send revision %s", revision)


#: Per event loop, the tables whose revision is to be checked in the next query.
_CHECKS: dict[asyncio.AbstractEventLoop, set[Table]] = {}


def _start_checks(loop: asyncio.AbstractEventLoop) -> None:
    spawn(_check_revisions(loop))


async def _check_revisions(loop: asyncio.AbstractEventLoop) -> None:
    tables = _CHECKS.pop(loop, set())
    if not tables:
        return
    try:
        found = await database_sync_to_async(read_revisions)([t.session_id for t in tables])
    except Exception:
        logger.exception("could not check the revisions of %s tables", len(tables))
        for table in tables:
            table._verifying = False
        return
    for table in tables:
        table.checked(found.get(table.session_id, 0))


_TABLES: dict[int, dict[asyncio.AbstractEventLoop, Table]] = {}
#: The session key of each code a table here has read (:func:`known`).
_CODES: dict[str, int] = {}
_tables_lock = threading.Lock()


async def sit(session_id: int, socket: Socket) -> Table:
    """A socket of this process shows ``session_id``: its table, in the group."""
    loop = asyncio.get_running_loop()
    with _tables_lock:
        per_loop = _TABLES.setdefault(session_id, {})
        table = per_loop.get(loop)
        created = table is None
        if table is None:
            table = per_loop[loop] = Table(session_id, loop)
        table.sockets.add(socket)
    try:
        if created:
            try:
                await relay().join(table.group)
            except BaseException as error:
                table.joined.set_exception(error)
                table.joined.exception()  # retrieved: the sockets waiting get it too
                raise
            table.joined.set_result(None)
        else:
            await asyncio.shield(table.joined)
    except BaseException:
        _forget(table, socket)  # Redis is down: this socket never sat
        raise
    return table


def _forget(table: Table, socket: Socket) -> bool:
    """Take the socket off its table; True if that was the table's last socket."""
    with _tables_lock:
        table.sockets.discard(socket)
        if table.sockets:
            return False
        per_loop = _TABLES.get(table.session_id, {})
        if per_loop.get(table.loop) is table:
            del per_loop[table.loop]
        if not per_loop:
            _TABLES.pop(table.session_id, None)
            if table.snapshot is not None:
                _CODES.pop(table.snapshot.session.code, None)
        return True


async def leave(table: Table, socket: Socket) -> None:
    """The socket closed: the last one of a table takes it (and its renders) away."""
    if _forget(table, socket):
        await relay().leave(table.group)


def table_here(session_id: int) -> Table | None:
    """The running event loop's table of ``session_id``, if it has one."""
    loop = asyncio.get_running_loop()
    with _tables_lock:
        return _TABLES.get(session_id, {}).get(loop)


def tables_here() -> list[Table]:
    """The tables of the running event loop."""
    loop = asyncio.get_running_loop()
    with _tables_lock:
        return [t for per_loop in _TABLES.values() for lp, t in per_loop.items() if lp is loop]


def spawn(coroutine: Awaitable[Any]) -> None:
    """Run ``coroutine`` on this loop, kept alive until done; its failure is logged."""
    task = asyncio.ensure_future(coroutine)
    _PENDING.add(task)
    task.add_done_callback(_finished)


_PENDING: set[asyncio.Future] = set()


def _finished(task: asyncio.Future) -> None:
    _PENDING.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("a live update failed", exc_info=task.exception())


# ---------------------------------------------------------------- relay


class _Subscription(redis.asyncio.client.PubSub):
    """redis-py's subscription, which says when it had to connect again: redis-py
    resubscribes by itself, silently, and announcements published meanwhile are
    lost, so the relay must hear of it to have its tables check their revision."""

    def __init__(self, *args: Any, reconnected: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reconnected = reconnected

    async def on_connect(self, connection: Any) -> None:
        # Called on each reconnection (the first connection is made before
        # redis-py registers this callback).
        await super().on_connect(connection)
        self.reconnected()


#: An announcement, published on a session's channel only where another process
#: listens (``ARGV``: the channel, this process's marker of it, the message): the
#: channel's subscribers less this process's own relay, which subscribes to its
#: marker in the same command as to the channel and leaves both in one command
#: (a lost connection drops both), so Redis counts the two together. Redis runs a
#: script whole, between two commands: a process that subscribed before it is
#: told, as by a plain PUBLISH; one that subscribes after reads the table from the
#: database after subscribing. The script answers how many it told (0: nobody
#: else listens), and a relay that hears the channel keeps that answer
#: (``Relay.publish``): a table alone in its process costs Redis nothing a tap.
_TELL_OTHERS = """
local others = redis.call('PUBSUB', 'NUMSUB', ARGV[1])[2]
    - redis.call('PUBSUB', 'NUMSUB', ARGV[2])[2]
if others > 0 then
    return redis.call('PUBLISH', ARGV[1], ARGV[3])
end
return 0
"""


def _marker(channel: str) -> str:
    """This process's marker of a session's channel (nothing is published on it)."""
    return f"{channel}|{ORIGIN}"


#: A relay's word on a session's channel, once Redis has confirmed that it listens
#: there: ``"+ <origin>"``. A relay that hears it knows it is no longer alone on the
#: channel, and tells its last announcement again (``Relay.came``).
COME = "+"


#: What a lost connection to Redis raises.
_LOST = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)


class _Announcer:
    """A relay's own connection for its announcements (a subscribed connection
    cannot publish): the commands waiting go in one write, and their replies are
    read, nothing more. redis-py's client wraps each command in its pool, its
    retries, its events and a timeout, some hundred microseconds of CPU a tap,
    more than the command itself (benchmarks/README.md, section 21); the
    connection is still redis-py's, which knows the URL's address, password and
    TLS and packs and parses the commands."""

    def __init__(self, url: str) -> None:
        self._connection = redis.asyncio.ConnectionPool.from_url(url).make_connection()

    async def send(self, commands: list[tuple[str | int, ...]]) -> list[Any]:
        """``commands`` sent, their replies read and returned. A connection that
        failed (Redis restarted since the last announcement) is made again and the
        commands sent once more: an announcement heard twice changes nothing (a
        phone is sent a revision once)."""
        try:
            return await self._exchange(commands)
        except _LOST:
            await self._connection.disconnect(nowait=True)
        try:
            return await self._exchange(commands)
        except _LOST:
            await self._connection.disconnect(nowait=True)
            raise

    async def _exchange(self, commands: list[tuple[str | int, ...]]) -> list[Any]:
        """One write, then every reply read: a refusal (``ResponseError``) is
        raised once all are read, so the connection stays in step."""
        connection = self._connection
        await connection.send_packed_command(connection.pack_commands(commands), check_health=False)
        replies: list[Any] = []
        refused: Exception | None = None
        for _command in commands:
            try:
                replies.append(await connection.read_response())
            except redis.exceptions.ResponseError as error:
                refused = refused or error
        if refused is not None:
            raise refused
        return replies

    async def aclose(self) -> None:
        await self._connection.disconnect()


@dataclass(slots=True)
class _Hearing:
    """A channel a relay hears: the last announcement made on it (sent or held
    back), and whether the last answer from Redis found nobody else listening.
    Replaced by a new record (``told`` carried over) whenever an answer may be
    stale: another relay's word, a reconnection, joining again; an answer is kept
    only on the record it was asked for."""

    told: str = ""
    alone: bool = False


class Relay:
    """This event loop's one subscription to Redis, for all its tables: it hears
    the other processes' announcements and hands each to its table. Without Redis
    (one process) it only keeps the list of groups."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.groups: set[str] = set()
        self.lock = asyncio.Lock()
        self.tasks: list[asyncio.Task] = []
        self._client: Any = None  # for subscribing
        self._subscription: _Subscription | None = None
        self._publishing: _Announcer | None = None  # a subscribed connection cannot publish
        self._sessions: dict[bytes, int] = {}  # Redis channel → session
        self._outbox: list[tuple[str, str]] = []  # announcements not yet sent
        self._sending: asyncio.Future | None = None
        self._plainly = False  # PUBLISH, not the script (a Redis that refuses it)
        self._hearing: dict[str, _Hearing] = {}  # the channels this relay hears

    def publish(self, channel: str, message: str) -> None:
        """On the loop: send an announcement to Redis, after those before it.

        One task sends them, on the relay's one connection (``_Announcer``), all
        those waiting in one write: a burst (hundreds of tables at once) costs a
        round trip, not a connection per announcement (a pool of connections
        refused the 101st, "Too many connections", and that announcement was lost
        to the other processes).

        On a channel this relay hears, where the last announcement found nobody
        else listening, nothing is sent: a relay that comes to the channel says so
        on it once Redis has it subscribed (:data:`COME`), and on that word this
        one tells its last announcement again and asks Redis from then on
        (:meth:`came`). Whatever this relay announced before the word is told
        again after it; whatever after, is sent. So a table alone in its process
        (one process, or each table in one of several behind ``config.door``)
        costs Redis nothing a tap."""
        hearing = self._hearing.get(channel)
        if hearing is not None:
            hearing.told = message
            if hearing.alone:
                return
        self._queue(channel, message)

    def _queue(self, channel: str, message: str) -> None:
        self._outbox.append((channel, message))
        if self._sending is None or self._sending.done():
            self._sending = asyncio.ensure_future(self._send())

    def came(self, channel: str) -> None:
        """Another process's relay has come to ``channel``: it may have missed
        what this one announced without asking Redis, so that is told again."""
        hearing = self._hearing.get(channel)
        if hearing is None:
            return
        self._hearing[channel] = _Hearing(hearing.told)  # an answer on its way is stale
        if hearing.told:
            self._queue(channel, hearing.told)

    def come(self, channel: str) -> None:
        """Say on ``channel`` that this relay listens there (Redis has confirmed
        it): relays already there then tell their last announcement again."""
        if channel in self._hearing:
            self._queue(channel, f"{COME} {ORIGIN}")

    async def _send(self) -> None:
        # One turn of the loop first: the tasks this process's tables spawned just
        # now to send the revision to their own sockets go before the publish's
        # work, and announcements that come meanwhile go in the same write.
        await asyncio.sleep(0)
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                try:
                    await self._tell(batch)
                except redis.exceptions.ResponseError:
                    if self._plainly:
                        raise
                    # A Redis that refuses the script: every announcement published.
                    logger.warning("Redis refused the announcing script: publishing plainly")
                    self._plainly = True
                    await self._tell(batch)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.error(
                    "could not announce %s (%d in all) on %s",
                    batch[0][1],
                    len(batch),
                    batch[0][0],
                    exc_info=True,
                )

    async def _tell(self, batch: list[tuple[str, str]]) -> None:
        """Announce ``batch`` to the other processes, in one write; keep, for the
        channels this relay hears, whether anybody else was told."""
        if self._publishing is None:
            self._publishing = _Announcer(self.url)
        hearings = [self._hearing.get(channel) for channel, _message in batch]
        told = await self._publishing.send([self._command(*told) for told in batch])
        if self._plainly:
            return  # a plain PUBLISH counts this relay too: nothing to keep
        for (_channel, message), hearing, others in zip(batch, hearings, told, strict=True):
            # On the record it was asked for: if the record was replaced meanwhile,
            # the answer may be stale and lands on a record nobody reads.
            if hearing is not None and message[0] != COME:
                hearing.alone = others == 0

    def _command(self, channel: str, message: str) -> tuple[str | int, ...]:
        if self._plainly:
            return ("PUBLISH", channel, message)
        return ("EVAL", _TELL_OTHERS, 0, channel, _marker(channel), message)

    async def join(self, group: str) -> None:
        async with self.lock:
            if self.url:
                if self._subscription is None:
                    self._client = redis.asyncio.Redis.from_url(
                        self.url, socket_keepalive=True, health_check_interval=HEALTH_SECONDS
                    )
                    self._subscription = _Subscription(
                        self._client.connection_pool, reconnected=self.reconnected
                    )
                channel = redis_channel(group)
                # Known before Redis confirms the subscription (``_listen``, where
                # this relay then says it has come).
                self._sessions[channel.encode()] = int(group.rpartition(".")[2])
                self._hearing[channel] = _Hearing()
                try:
                    # One command: Redis counts the channel and its marker together.
                    await self._subscription.subscribe(channel, _marker(channel))
                except BaseException:
                    self._forget(channel)
                    raise
                if not self.tasks:
                    self.tasks = [asyncio.ensure_future(self._listen(self._subscription))]
            self.groups.add(group)

    async def leave(self, group: str) -> None:
        async with self.lock:
            self.groups.discard(group)
            channel = redis_channel(group)
            self._forget(channel)
            subscription, client = self._subscription, self._client
            if subscription is None:
                return
            if self.groups:
                try:
                    await subscription.unsubscribe(channel, _marker(channel))
                except Exception:  # Redis is down: the subscription goes with the connection
                    logger.warning("relay could not leave %s", group, exc_info=True)
                return
            for task in self.tasks:
                task.cancel()
            self.tasks, self._subscription, self._client = [], None, None
            try:
                await subscription.aclose()
                await client.aclose()
            except Exception:
                logger.warning("relay could not close its subscription", exc_info=True)

    def _forget(self, channel: str) -> None:
        self._sessions.pop(channel.encode(), None)
        self._hearing.pop(channel, None)

    def reconnected(self) -> None:
        """The subscription was lost and is back (redis-py subscribed again):
        announcements may have been lost meanwhile, so every table checks its
        revision (in one query)."""
        logger.warning("relay reconnected to Redis: every table checks its revision")
        # A word of another relay coming may have been lost too: ask Redis again,
        # and keep no answer on its way. (This relay's own word is said again as
        # Redis confirms each channel.)
        self._hearing = {channel: _Hearing(h.told) for channel, h in self._hearing.items()}
        for table in tables_here():
            table.check_now()

    async def _listen(self, subscription: _Subscription) -> None:
        while True:
            try:
                # A timeout, so an idle subscription still sends its health checks.
                message = await subscription.get_message(timeout=HEALTH_SECONDS)
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection failed: the next read reconnects
                logger.warning("relay lost Redis", exc_info=True)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if message is None:
                continue
            if message.get("type") == "subscribe":  # on each (re)connection too
                if message["channel"] in self._sessions:
                    self.come(message["channel"].decode())
                continue
            if message.get("type") == "message":
                self.heard(message["channel"], message["data"])

    def heard(self, channel: bytes, data: bytes) -> None:
        """An announcement ``b"<revision> <origin>"`` on a table's channel."""
        session_id = self._sessions.get(channel)
        revision, _space, origin = data.partition(b" ")
        if session_id is None or origin == _ORIGIN:
            return  # not a table here, or this process's own (its tables know already)
        if revision == _COME:
            self.came(channel.decode())
            return
        if not revision.isdigit():
            return
        table = table_here(session_id)
        if table is not None:
            table.announced(int(revision))


_ORIGIN = ORIGIN.encode()
_COME = COME.encode()
_RELAYS: dict[asyncio.AbstractEventLoop, Relay] = {}


def relay() -> Relay:
    """The relay of the running event loop (made on first use)."""
    return of_this_loop(_RELAYS, lambda: Relay(settings.REDIS_URL))


_Kept = TypeVar("_Kept")


def of_this_loop(kept: dict[asyncio.AbstractEventLoop, _Kept], make: Callable[[], _Kept]) -> _Kept:
    """The running event loop's entry in ``kept``, made by ``make`` on first use
    (the entries of loops since closed are dropped then)."""
    loop = asyncio.get_running_loop()
    found = kept.get(loop)
    if found is None:
        for old in [other for other in kept if other.is_closed()]:
            del kept[old]
        found = kept[loop] = make()
    return found
