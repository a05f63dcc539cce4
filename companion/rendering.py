"""Server-rendered fragments: the same partials serve the page, the POST reply
and the socket frame, so a phone sees the same thing whichever way it arrives.

A frame has two parts. The *personal* part (status line, seats) depends on who
is looking and is small. The *shared* part (board, controls, history) is the
expensive one; it depends only on the session version, the language, whether
the viewer may edit and, for games whose board differs per seat (hidden hands,
or "each seat edits only its own board"), on the seat. It is rendered once per
such key and reused by every socket and reply in this process. Frames carry no
CSRF input and no one-time key: htmx sends the CSRF token as a header and
``static/js/app.js`` gives each submission a fresh key.

After a change, the process that committed it keeps what it read under the lock
as the change's :class:`Snapshot`, renders the shared part and wakes its own
sockets (:func:`prime`); other processes hear of the change through their relay
(``companion/relay.py``) and read the session once per change. The personal part
is cached too, per what it shows, with the version written in afterwards. A socket
then sends only the fragments that changed since its last frame (:class:`Shown`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from threading import Lock

from django.template.loader import render_to_string
from django.utils import translation

from companion.lru import LRU
from companion.models import Action, GameSession, Seat
from companion.selectors import Viewer, extend_log_tail, table_context, viewer_for
from games.engine.registry import get_engine
from games.views import presenter_for

_SHARED = LRU(512)  # shared_key → the board, controls and history of a frame
_PERSONAL = LRU(1024)  # personal_key → status and seats, the version left to fill in
_SNAPSHOTS = LRU(256)  # (session pk, stamp) → Snapshot


@dataclass(frozen=True)
class Snapshot:
    """A session and its seats as read once after a change (read-only)."""

    session: GameSession
    seats: list[Seat]


def snapshot(session_id: int, stamp: str | None = None) -> Snapshot:
    """The session and its seats; with a stamp, read once per change and process."""
    if stamp:
        found = _SNAPSHOTS.get((session_id, stamp))
        if found is not None:
            return found
    session = GameSession.objects.get(pk=session_id)
    found = Snapshot(session, list(session.seats.all()))
    if stamp:
        _SNAPSHOTS.put((session_id, stamp), found)
    return found


@dataclass(frozen=True)
class Listener:
    """A socket this process holds: whom it shows the table to, and how to tell it
    of a change directly (``wake(stamp)``, thread-safe) instead of through the
    channel layer."""

    token: str
    spectator: bool
    language: str
    wake: Callable[[str], None] | None = None


# The sockets this process holds, per session: socket id → Listener.
_LIVE: dict[int, dict[Hashable, Listener]] = {}
_live_lock = Lock()


def socket_opened(session_id: int, socket: Hashable, listener: Listener) -> None:
    with _live_lock:
        _LIVE.setdefault(session_id, {})[socket] = listener


def socket_closed(session_id: int, socket: Hashable) -> None:
    with _live_lock:
        listeners = _LIVE.get(session_id)
        if listeners is None:
            return
        listeners.pop(socket, None)
        if not listeners:
            del _LIVE[session_id]


def listeners_of(session_id: int) -> list[Listener]:
    with _live_lock:
        return list(_LIVE.get(session_id, {}).values())


def prime(
    session: GameSession, seats: Sequence[Seat], stamp: str, row: Action | None = None
) -> None:
    """Just committed: keep what was written as the snapshot of change ``stamp`` (and
    ``row``, the action appended, as the newest line of the history), render the
    shared part of the frames this process's sockets of the session show, once per
    distinct shared part, and wake those sockets directly. Each then only renders
    its small personal part on the event loop (no database, no thread hop, no trip
    through the channel layer); the group message that follows is for the sockets
    of other processes, and the ones here ignore a stamp they have already sent.
    """
    snap = Snapshot(session, list(seats))
    _SNAPSHOTS.put((session.pk, stamp), snap)
    if row is not None:
        extend_log_tail(session, row)
    listeners = listeners_of(session.pk)
    for listener in listeners:
        viewer = viewer_for(session, snap.seats, listener.token, spectator=listener.spectator)
        if _SHARED.get(shared_key(session, viewer, listener.language, snap.seats)) is None:
            render_frames(session, viewer, language=listener.language, seats=snap.seats)
    for listener in listeners:
        if listener.wake is not None:
            try:
                listener.wake(stamp)
            except RuntimeError:  # its event loop has closed: the group message remains
                continue


def _seats_key(seats: Sequence[Seat]) -> tuple:
    """What a frame shows of the seats (names change no version)."""
    return tuple((s.index, s.name, s.bot, bool(s.holder)) for s in seats)


def shared_key(session: GameSession, viewer: Viewer, language: str, seats: Sequence[Seat]) -> tuple:
    """Everything the shared part of a frame depends on. Seats are in it because
    boards and history show the seats' names, and renaming one changes no version."""
    presenter = presenter_for(session.game)
    by_seat = presenter.board_varies_by_seat(session)
    return (
        _seats_key(seats),
        session.pk,
        session.code,
        session.version,
        session.edit_policy,
        session.ended_at is not None,
        language,
        viewer.can_act,
        viewer.spectator,
        viewer.seat if by_seat else None,
    )


_VERSION_MARK = "\x00version\x00"


def personal_key(
    session: GameSession, viewer: Viewer, language: str, seats: Sequence[Seat]
) -> tuple:
    """Everything the personal part (status, seats) shows, but the version: it
    changes with every action, so it is filled in afterwards."""
    engine = get_engine(session.game)
    waiting = tuple(engine.waiting_for(session.state)) if session.deadline else ()
    return (
        session.pk,
        session.code,
        session.is_ended,
        session.deadline,
        session.turn_seconds,
        waiting,
        language,
        viewer.seat,
        viewer.is_host,
        viewer.spectator,
        _seats_key(seats),
    )


def render_frames(
    session: GameSession,
    viewer: Viewer,
    *,
    language: str | None = None,
    seats: list[Seat] | None = None,
) -> str:
    """All live fragments for one viewer, each marked for an out-of-band swap.

    The shared part is rendered once per shared key, the personal part once per
    personal key (most changes leave a phone's status and seats as they were, but
    for the version, written in afterwards)."""
    language = language or translation.get_language()
    seats = list(session.seats.all()) if seats is None else seats
    with translation.override(language):
        key = shared_key(session, viewer, language, seats)
        shared = _SHARED.get(key)
        own = personal_key(session, viewer, language, seats)
        personal = _PERSONAL.get(own)
        if personal is None or shared is None:
            context = table_context(session, viewer, include_shared=shared is None, seats=seats)
            context.update(oob=True, csrf_token="")
            if personal is None:
                context["session_version"] = _VERSION_MARK
                personal = render_to_string("companion/partials/personal_frames.html", context)
                _PERSONAL.put(own, personal)
            if shared is None:
                shared = render_to_string("companion/partials/shared_frames.html", context)
                _SHARED.put(key, shared)
    return personal.replace(_VERSION_MARK, str(session.version), 1) + shared


def cached_frames(
    session_id: int, token: str, *, spectator: bool = False, language: str, stamp: str
) -> str | None:
    """The frame for one socket after the change ``stamp``, if it needs no database.

    Safe on the event loop: it only reads this process's caches and at most renders
    the small personal part; ``None`` means "use :func:`socket_frames`".
    """
    snap = _SNAPSHOTS.get((session_id, stamp))
    if snap is None:
        return None
    viewer = viewer_for(snap.session, snap.seats, token, spectator=spectator)
    if _SHARED.get(shared_key(snap.session, viewer, language, snap.seats)) is None:
        return None
    return render_frames(snap.session, viewer, language=language, seats=snap.seats)


def socket_frames(
    session_id: int,
    token: str,
    *,
    spectator: bool = False,
    language: str,
    stamp: str | None = None,
) -> str:
    """The frame one socket sends: every live fragment, for what its phone may see."""
    snap = snapshot(session_id, stamp)
    viewer = viewer_for(snap.session, snap.seats, token, spectator=spectator)
    return render_frames(snap.session, viewer, language=language, seats=snap.seats)


# ---------------------------------------------------------------- fragments

# Every top-level element of a frame is an out-of-band fragment with an id, and
# only top-level elements carry hx-swap-oob: where one starts, the previous ends.
_OOB = ' hx-swap-oob="true"'
_ID = re.compile(r'(?<![\w-])id="([^"]+)"')


def fragments(html: str) -> tuple[tuple[str, str], ...]:
    """A frame as (element id, HTML) pairs, in order. Plain string searches: this
    runs for every socket after every change."""
    starts = []
    at = html.find(_OOB)
    while at != -1:
        tag = html.rfind("<", 0, at)
        if tag == -1 or ">" in html[tag:at]:
            return (("", html),)  # the attribute outside a start tag: not our frame
        starts.append(tag)
        at = html.find(_OOB, at + len(_OOB))
    if not starts or html[: starts[0]].strip():
        return (("", html),)  # not a frame of fragments: one piece, always sent
    pieces = []
    for begin, end in zip(starts, [*starts[1:], len(html)], strict=True):
        piece = html[begin:end]
        found = _ID.search(piece, 0, piece.find(">"))
        pieces.append((found.group(1) if found else "", piece))
    return tuple(pieces)


class Shown:
    """What one socket has sent of each fragment, so an update carries only the
    fragments that changed since (a damage: one player's board, the status and the
    history, not the whole table). A phone's DOM holds what its socket sent, so a
    fragment the socket sent unchanged need not travel again; a reconnecting socket
    starts afresh and gets everything."""

    def __init__(self) -> None:
        self.sent: dict[str, int] = {}

    def everything(self, html: str) -> str:
        self.sent = {ident: hash(piece) for ident, piece in fragments(html) if ident}
        return html

    def changes(self, html: str) -> str:
        out = []
        for ident, piece in fragments(html):
            digest = hash(piece)
            if ident and self.sent.get(ident) == digest:
                continue
            if ident:
                self.sent[ident] = digest
            out.append(piece)
        return "".join(out)
