"""Server-rendered fragments: the same partials serve the page, the POST reply
and the socket frame, so a phone sees the same thing whichever way it arrives.

A frame has two parts. The *personal* part (the seats section: the viewer's own
seat, the host's controls) depends on who is looking, is small and seldom
changes. The *shared* part (status line, board, controls, history) is the
expensive one. What each part may show a viewer is derived here, from the engine
and the session, never from a flag a game sets: the shared part depends on the
language, whether the viewer may act and is a spectator, and on the viewer's seat
when the engine hides things per seat (``seat_bound``: its ``view`` differs per
seat) or when each seat edits only its own board. :func:`part_keys` is that
derivation; ``companion/live.py`` renders each key once per revision of a table.

Nothing here is cached: a live table keeps what it rendered for its latest
revision, and drops it when the revision moves on or its last socket leaves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from django.utils import translation
from django.utils.safestring import SafeString

from companion.fragments import CLOSE, OPEN, Store, in_use, template, using
from companion.fragments import render as render_piece
from companion.models import GameSession, Seat
from companion.selectors import (
    SEATS_TEMPLATE,
    LogTail,
    Viewer,
    seats_values,
    shared_per_seat,
    table_context,
)

PERSONAL = "personal"
SHARED = "shared"
SHARED_TEMPLATE = "companion/partials/shared_frames.html"


@dataclass(frozen=True)
class PartKeys:
    """What each part of a frame depends on, besides the session's revision."""

    personal: tuple
    shared: tuple


def part_keys(session: GameSession, viewer: Viewer, language: str) -> PartKeys:
    """The viewer's keys: two viewers with equal keys are sent the same HTML.

    The personal part shows the viewer's own seat and host controls. The shared
    part differs per seat only when the engine hides things per seat or each seat
    edits only its own board: otherwise every seated phone shares one render.
    """
    per_seat = shared_per_seat(session)
    return PartKeys(
        personal=(language, viewer.seat, viewer.is_host, viewer.spectator),
        shared=(language, viewer.can_act, viewer.spectator, viewer.seat if per_seat else None),
    )


def render_part(
    part: str,
    session: GameSession,
    seats: Sequence[Seat],
    viewer: Viewer,
    language: str,
    tail: LogTail | None = None,
    pieces: Store | None = None,
) -> list[str]:
    """One part of a viewer's frame (``PERSONAL`` or ``SHARED``), as live fragments,
    in the chunks its template writes (joined, the part's HTML; cut by a live
    table, :meth:`Cuts.chunks`). ``pieces``: the live table's store of
    ``fragment()`` renders, whose strings are chunks of their own.

    The personal part is the seats section alone, rendered from its values: after
    most changes they are what they were, and a live table finds its HTML by them
    (five phones, five seats sections, none rendered again): one chunk.

    A live table renders its parts inside :func:`fragments.using` already (one per
    language a revision, ``live._in_turn``): a part does not enter it again."""
    if pieces is not None and in_use(pieces, language):
        return _written(part, session, seats, viewer, tail)
    with using(pieces, language):
        return _written(part, session, seats, viewer, tail)


def _written(
    part: str, session: GameSession, seats: Sequence[Seat], viewer: Viewer, tail: LogTail | None
) -> list[str]:
    if part == PERSONAL:
        values = seats_values(session, list(seats), viewer, oob=True)
        return [render_piece(SEATS_TEMPLATE, values)]
    values = table_context(session, viewer, seats=list(seats), tail=tail)
    values.update(oob=True, csrf_token="")
    return list(template(SHARED_TEMPLATE).template.generate(values))


def render_frames(
    session: GameSession,
    viewer: Viewer,
    *,
    language: str | None = None,
    seats: Sequence[Seat] | None = None,
) -> str:
    """All live fragments for one viewer, rendered now (a POST reply)."""
    language = language or translation.get_language()
    seats = list(session.seats.all()) if seats is None else seats
    parts = (render_part(p, session, seats, viewer, language) for p in (PERSONAL, SHARED))
    return "".join(chunk for part in parts for chunk in part)


# ---------------------------------------------------------------- fragments

# Every top-level element of a frame is an out-of-band fragment with an id, and
# only top-level elements carry hx-swap-oob: where one starts, the previous ends.
_OOB = ' hx-swap-oob="true"'
_ID = re.compile(r'(?<![\w-])id="([^"]+)"')


def fragments(html: str) -> tuple[tuple[str, str], ...]:
    """A frame as (element id, HTML) pairs, in order, each without the blank that
    follows it (the blank between two fragments is nobody's: so a fragment is the
    same HTML whether it is read in the whole frame or alone, :meth:`Cuts.chunks`).
    Plain string searches: this runs for every part after every change."""
    return _split(html) or (("", html),)


def _split(html: str) -> tuple[tuple[str, str], ...] | None:
    """:func:`fragments`: none in blank HTML; None where ``html`` is not a frame
    of fragments (an attribute outside a start tag, anything but blank before the
    first fragment)."""
    starts = []
    at = html.find(_OOB)
    while at != -1:
        tag = html.rfind("<", 0, at)
        if tag == -1 or html.find(">", tag, at) != -1:
            return None  # the attribute outside a start tag: not our frame
        starts.append(tag)
        at = html.find(_OOB, at + len(_OOB))
    if html[: starts[0] if starts else len(html)].strip():
        return None  # not a frame of fragments: one piece, always sent
    if not starts:
        return ()
    pieces = []
    for begin, end in zip(starts, [*starts[1:], len(html)], strict=True):
        while end > begin and html[end - 1].isspace():
            end -= 1
        piece = html[begin:end]
        pieces.append((_ident(piece), piece))
    return tuple(pieces)


@dataclass(frozen=True)
class Piece:
    """A fragment of a frame: its element id, its HTML (as it goes in the frame,
    or inside the fragment around it) and that HTML's hash; the hash of its HTML
    with the pieces nested in it that can be sent alone (``fragments.OPEN``) left
    out (``skeleton``), and those pieces, each a ``Piece`` again whose ``alone`` is
    its HTML marked for an out-of-band swap.

    A fragment whose nested pieces are the items of a feed (a list, newest first,
    whose element carries an ``id`` and ``data-feed="<length>"``: the history) also
    has that element's id (``feed``), its length, and the hash of its HTML with
    the items left out (``shell``): when only new items came in at the top (and
    the oldest went), a phone is sent just those, to put before the others."""

    ident: str
    html: str
    digest: int
    skeleton: int
    nested: tuple[Piece, ...] = ()
    alone: str = ""
    feed: str = ""
    length: int = 0
    shell: int = 0

    @cached_property
    def whole(self) -> Sent:
        """The record of this fragment sent whole (:class:`Shown`), made once: the
        table's phones share it."""
        if not self.nested:
            return self.digest
        return self.digest, self.skeleton, self.shell, {p.ident: p.whole for p in self.nested}


#: A frame cut in its fragments, in order.
Frame = tuple[Piece, ...]


def cut(html: str, cuts: Cuts | None = None) -> Frame:
    """A part or frame in fragments, each with its hash and its nested pieces: done
    once per part and revision by the live table, not once per socket; with the
    table's ``cuts``, a fragment whose HTML its last revision already cut is not
    cut again (most of a table does not change; a live table finds most of its
    fragments by the object, :meth:`Cuts.chunks`)."""
    if cuts is None:
        return tuple(_piece(ident, piece) for ident, piece in fragments(html))
    return tuple(cuts.piece(ident, piece) for ident, piece in fragments(html))


class Cuts:
    """A live table's fragments as cut, by their HTML: those its current revision
    has used, and the last one's (as ``fragments.Store`` keeps its renders). Top-level
    fragments and nested pieces are kept apart, each by its HTML alone (a key tuple
    per fragment and revision was an object the garbage collector walks)."""

    def __init__(self) -> None:
        self.previous: tuple[dict[str, Piece], dict[str, Piece]] = ({}, {})
        self.current: tuple[dict[str, Piece], dict[str, Piece]] = ({}, {})
        # The store's strings cut as whole fragments, by the object: (the string,
        # its fragments). The entry holds the object: its id is not another's.
        self.wholes_previous: dict[int, tuple[str, Frame]] = {}
        self.wholes_current: dict[int, tuple[str, Frame]] = {}

    def advance(self) -> None:
        if self.current[0] or self.current[1] or self.wholes_current:
            self.previous, self.wholes_previous = self.current, self.wholes_current
        self.current, self.wholes_current = ({}, {}), {}

    def chunks(self, written: list[str]) -> Frame:
        """A part cut as :func:`render_part` wrote it, in chunks. A chunk that is a
        whole fragment (or several) the store keeps (a ``fragment()`` at the top of
        the part: a player's board, the map, a phone's seats section; most of a
        frame, and the same object after most taps) is cut once while it is the
        same object, and found by it: neither searched nor hashed again. Only the
        text between such chunks is searched (the status line, the history).
        Where there is more than blank between a fragment's end and the next one
        (it would be the first one's), the part is cut whole, as :func:`cut` cuts
        it: the same frame either way."""
        # Where the store's strings are, found in C (a loop over every chunk in
        # Python cost what the cut saved): a piece is a ``SafeString``, what the
        # template writes itself a ``str`` or a ``Markup``.
        kinds = list(map(type, written))
        frame: list[Piece] = []
        done = at = 0
        while True:
            try:
                at = kinds.index(SafeString, at)
            except ValueError:
                break
            whole = self._whole(written[at])
            if whole is not None:
                if not self._text(written[done:at], frame):
                    return cut("".join(written), self)
                frame += whole
                done = at + 1
            at += 1
        if not self._text(written[done:], frame) or not frame:
            return cut("".join(written), self)  # cut whole: the same frame
        return tuple(frame)

    def _whole(self, chunk: str) -> Frame | None:
        """The chunk's fragments, if it starts with one (a fragment's HTML, its
        first start tag out of band, after blank at most)."""
        found = self.wholes_current.get(id(chunk)) or self.wholes_previous.get(id(chunk))
        if found is None or found[0] is not chunk:
            tag = chunk.find("<")
            if tag == -1 or chunk.find(_OOB, tag, chunk.find(">", tag)) == -1:
                return None  # (blank before the tag is the last fragment's: see _split)
            split = _split(chunk)
            if not split:
                return None
            found = (chunk, tuple(self.piece(ident, html) for ident, html in split))
        self.wholes_current[id(chunk)] = found
        return found[1]

    def _text(self, text: list[str], frame: list[Piece]) -> bool:
        """The fragments of the text between two kept chunks added to ``frame``;
        False if it starts with more than blank."""
        if not text:
            return True
        found = _split("".join(text))
        if found is None:
            return False
        frame += (self.piece(ident, html) for ident, html in found)
        return True

    def piece(self, ident: str | None, html: str, *, nested: bool = False) -> Piece:
        """``html`` cut, as its last revision cut it if it did (a nested piece too:
        one entry new in the history, and the other fourteen are not cut again).
        ``ident``: its id, or None to read it from ``html`` if it is cut."""
        current = self.current[nested]
        found = current.get(html)
        if found is None:
            found = self.previous[nested].get(html)
            if found is None:
                ident = _ident(html) if ident is None else ident
                found = _piece(ident, html, nested=nested, cuts=self)
            current[html] = found
        return found


def _piece(ident: str, html: str, *, nested: bool = False, cuts: Cuts | None = None) -> Piece:
    """``html`` (with the markers of the pieces nested in it) as a Piece; its nested
    pieces as ``cuts`` has them, if it has them (found by their HTML before their
    id is read: most are)."""
    at = html.find(OPEN)
    children: tuple[Piece, ...] = ()
    parts: list[str] = []  # the HTML around the nested pieces and theirs, in turn
    if at == -1:
        clean = skeleton = html
    else:
        outline: list[str] = []
        found: list[Piece] = []
        done = 0
        while at != -1:
            stop = html.find("-->", at)  # the marker says how long the piece is
            start = stop + 3
            end = start + int(html[at + len(OPEN) : stop])
            if not html.startswith(CLOSE, end):
                raise ValueError("a nested piece does not close where its marker says")
            body = html[start:end]
            if cuts is None:
                child = _piece(_ident(body), body, nested=True)
            else:
                child = cuts.piece(None, body, nested=True)
            text = html[done:at]
            parts += (text, child.html)
            outline += (text, f"\x00{child.ident}\x00")
            found.append(child)
            done = end + len(CLOSE)
            at = html.find(OPEN, done)
        text = html[done:]
        parts.append(text)
        outline.append(text)
        clean, skeleton, children = "".join(parts), "".join(outline), tuple(found)
    digest = hash(clean)
    alone = ""
    if nested:
        tag_end = clean.find(">")
        alone = clean[:tag_end] + _OOB + clean[tag_end:]
    feed = _FEED.search(skeleton) if children and 'data-feed="' in skeleton else None
    named = _ID.search(feed.group(0)) if feed is not None else None
    if feed is None or named is None:
        return Piece(
            ident, clean, digest, digest if not children else hash(skeleton), children, alone
        )
    # The shell: the HTML around the items, without the blank beside each.
    texts = parts[::2]
    shell = [texts[0].rstrip(), *(text.strip() for text in texts[1:-1]), texts[-1].lstrip()]
    return Piece(
        ident,
        clean,
        digest,
        hash(skeleton),
        children,
        alone,
        feed=named.group(1),
        length=int(feed.group(1)),
        shell=hash("".join(shell)),
    )


def _ident(html: str) -> str:
    """The id on the start tag ``html`` opens with; empty without one."""
    named = _ID.search(html, 0, html.find(">"))
    return named.group(1) if named else ""


#: The start tag of a feed's element (``data-feed="<length>"``; its id is found in it).
_FEED = re.compile(r'<[^<>]*\bdata-feed="(\d+)"[^<>]*>')


class Shown:
    """What one socket has sent of each fragment, so an update carries only the
    fragments that changed since (a damage: one player's board, the status and the
    history, not the whole table).

    A frame is the whole current table, cut in fragments; the socket leaves out
    the ones whose HTML is what it already delivered. The phone's DOM holds what
    its socket delivered (in order, on one TCP stream), so after any gap in the
    revisions a socket sent, the phone still ends up with the full current state;
    a socket that (re)connects starts afresh and gets everything.

    What was sent of a fragment is kept as plain numbers (:data:`Sent`), not an
    object per fragment: a process holds this for every socket (2,000 phones, some
    60 fragments each), and the garbage collector walks every container object it
    keeps, where integers cost it nothing."""

    def __init__(self) -> None:
        self.sent: dict[str, Sent] = {}

    def everything(self, frame: Frame) -> str:
        self.sent = {p.ident: p.whole for p in frame if p.ident}
        return "".join(p.html for p in frame)

    def changes(self, frame: Frame) -> str:
        """The fragments that changed; of a fragment whose own HTML, around its
        nested pieces, did not change, only the nested pieces that did (and so on
        down: of a nested piece, likewise).

        What to send of a fragment depends on the fragment and on what was sent of
        it before, nothing else; the table's phones share the fragment (one render
        per part) and, when they were sent the same, the same record of it
        (``Piece.whole``, and the record made here). So the first socket works it
        out and the others take its answer from the fragment (:data:`_ANSWER`)."""
        out: list[str] = []
        sent = self.sent
        for piece in frame:
            ident = piece.ident
            if not ident:
                out.append(piece.html)
                continue
            before = sent.get(ident)
            if type(before) is int and before == piece.digest:
                continue  # unchanged, nothing nested: the common case, at once
            answer = piece.__dict__.get(_ANSWER)
            if answer is None or not (answer[0] is before or answer[0] == before):
                mark = len(out)
                answer = (before, _changes(piece, before, out), tuple(out[mark:]))
                piece.__dict__[_ANSWER] = answer
            else:
                out.extend(answer[2])
            sent[ident] = answer[1]
        return "".join(out)


#: On a fragment (``Piece.__dict__``, as ``cached_property`` keeps ``whole``): the
#: last socket's record of it before, the record after and what it was sent. A
#: record is never changed once made (a new one replaces it), so the same record
#: before gives the same answer; an equal record takes the same answer too, and the
#: same record after, so phones that joined at different revisions share their
#: records from then on.
_ANSWER = "_shown"


#: What a socket sent of a fragment: the hash of its HTML; for a fragment with
#: nested pieces, that hash, its skeleton's, its shell's (0 without a feed) and
#: what was sent of each piece, in the fragment's order.
Sent = int | tuple[int, int, int, dict[str, "Sent"]]


def _changes(piece: Piece, before: Sent | None, out: list[str]) -> Sent:
    """Add what to send of ``piece`` to ``out``; what the phone then has of it."""
    if before is None:
        out.append(piece.alone or piece.html)
        return piece.whole
    if isinstance(before, int):
        if before == piece.digest:
            return before
    else:
        digest, skeleton, shell, nested = before
        if digest == piece.digest:
            return before
        if piece.nested and skeleton == piece.skeleton:
            return (
                piece.digest,
                piece.skeleton,
                piece.shell,
                {p.ident: _changes(p, nested.get(p.ident), out) for p in piece.nested},
            )
        if piece.feed and shell == piece.shell:
            fed = _fed(piece, list(nested), out)
            if fed is not None:
                return (
                    piece.digest,
                    piece.skeleton,
                    piece.shell,
                    {
                        p.ident: fed[p.ident]
                        if p.ident in fed
                        else _changes(p, nested[p.ident], out)
                        for p in piece.nested
                    },
                )
    out.append(piece.alone or piece.html)
    return piece.whole


def _fed(piece: Piece, before: list[str], out: list[str]) -> dict[str, Sent] | None:
    """If ``piece``'s feed is the one a phone has (``before``: its items' ids, in
    order) with new items come in at the top and the oldest gone past its length,
    add those new items to ``out``, to go before the others (the phone drops what
    runs past the length, as the server did), and say what was sent of each; None
    otherwise (the whole fragment goes)."""
    items = [p.ident for p in piece.nested]
    new = 0
    while new < len(items) and items[new] not in before:
        new += 1
    if new == 0 or items != (items[:new] + before)[: piece.length]:
        return None
    added = piece.nested[:new]
    out.append(
        f'<div hx-swap-oob="afterbegin:#{piece.feed}">' + "".join(p.html for p in added) + "</div>"
    )
    return {p.ident: p.whole for p in added}
