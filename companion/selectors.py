"""Reads: what a given phone may see of a session, ready for the templates."""

from __future__ import annotations

import operator
import pickle
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext

from companion import fragments
from companion.models import Action, GameSession, Seat
from companion.paths import url_of
from games.engine.protocol import Outcome
from games.engine.registry import get_engine
from games.views import presenter_for

HISTORY_LENGTH = 15


class Wording:
    """What a game's history sentences are worded from, besides each action's
    events: its presenter's ``history_state`` of the session's state and the seats'
    names. One per render, shared by the history's entries and the undo button; in
    an entry's key (``pickle``) it is its contents pickled once, not once per entry."""

    __slots__ = ("_pickled", "_said", "game", "names", "seen")

    def __init__(self, game: str, seen: dict[str, Any], names: dict[int, str]) -> None:
        self.game, self.seen, self.names = game, seen, names
        self._pickled: bytes | None = None
        # The sentences worded so far, by language and the events as pickled (the
        # undo button names the newest action, whose entry the history words too).
        self._said: dict[tuple[str, bytes], tuple[str, ...]] = {}

    @classmethod
    def of(cls, session: GameSession, seats: Sequence[Seat]) -> Wording:
        presenter = presenter_for(session.game)
        names = {seat.index: seat.name for seat in seats}
        return cls(session.game, presenter.history_state(session.state), names)

    def lines(self, events: Iterable[dict[str, Any]]) -> tuple[str, ...]:
        """The sentences of an action's events, in the active language."""
        presenter = presenter_for(self.game)
        found = (describe(presenter, event, self.seen, self.names) for event in events)
        return tuple(line for line in found if line)

    def sentence(self, events: bytes) -> str:
        """An action's sentences (its events as :func:`events_pickled` holds them) as
        one line: what the undo button names, and what a tap that repeats it is told
        it repeats."""
        return " ".join(self.lines_of(events))

    def lines_of(self, events: bytes) -> tuple[str, ...]:
        """:meth:`lines` of events as :func:`events_pickled` holds them, worded once
        in each language."""
        key = (translation.get_language(), events)
        found = self._said.get(key)
        if found is None:
            found = self._said[key] = self.lines(pickle.loads(events))
        return found

    def pickled(self) -> bytes:
        """Its contents pickled (once): two wordings with the same bytes word every
        entry alike."""
        if self._pickled is None:
            self._pickled = pickle.dumps((self.game, self.seen, self.names), protocol=5)
        return self._pickled

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle_wording, (self.pickled(),))


def _unpickle_wording(pickled: bytes) -> Wording:
    return Wording(*pickle.loads(pickled))


@dataclass(frozen=True)
class HistoryEntry:
    """One line of the history, as the values it is rendered from: in a live table
    an entry is kept by them (``fragment()``), so the sentences of an entry
    whose row and wording did not change are not worked out again after a tap
    (:attr:`lines` is worked out only when the entry is rendered)."""

    version: int
    seat_name: str | None
    #: The action's events, pickled once a row (:func:`events_pickled`): an entry's
    #: key holds them as they are, and its sentences are worded from them.
    events: bytes
    wording: Wording
    undone: bool
    is_undo: bool
    undoes: int | None

    @property
    def lines(self) -> tuple[str, ...]:
        return self.wording.lines_of(self.events)

    def pickled(self) -> bytes:
        """Its fields in order, pickled once an entry: the history's fifteen
        entries are keyed after every tap (``fragments.PICKLED_ONCE``), and an
        entry whose row, wording and undoing did not change is the same object as
        before (:func:`history`)."""
        pickled = self.__dict__.get("_pickled")
        if pickled is None:
            pickled = pickle.dumps(_entry_fields(self), protocol=5)
            object.__setattr__(self, "_pickled", pickled)
        return pickled

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle_entry, (self.pickled(),))


_entry_fields = operator.attrgetter(*(f.name for f in fields(HistoryEntry)))
fragments.PICKLED_ONCE.add(HistoryEntry)


def _unpickle_entry(pickled: bytes) -> HistoryEntry:
    return HistoryEntry(*pickle.loads(pickled))


@dataclass(frozen=True)
class Viewer:
    token: str
    seat: int | None
    is_host: bool
    spectator: bool = False

    @property
    def can_act(self) -> bool:
        return not self.spectator and (self.seat is not None or self.is_host)


@dataclass(frozen=True)
class SharedViewer(Viewer):
    """Whom a part rendered once for every seat is rendered for: no seat, no token,
    no host flag, only whether the phone may act. A game's board sees this viewer
    whenever its part is shared (``shared_per_seat`` is False), so nothing personal
    can end up in a render that other phones are sent."""

    acts: bool = False

    @property
    def can_act(self) -> bool:
        return self.acts


def shared_per_seat(session: GameSession) -> bool:
    """Whether the shared part (board, controls, history) differs per seat: when the
    engine hides things per seat (``seat_bound``) or each seat edits only its own
    board. The one place this is decided (``rendering.part_keys`` keys on it)."""
    engine = get_engine(session.game)
    return engine.seat_bound or session.edit_policy == GameSession.EditPolicy.OWN


def shown_to(session: GameSession, viewer: Viewer) -> Viewer:
    """The viewer a shared part is rendered for."""
    if shared_per_seat(session):
        return viewer
    return SharedViewer(
        token="", seat=None, is_host=False, spectator=viewer.spectator, acts=viewer.can_act
    )


def viewer_for(
    session: GameSession, seats: list[Seat], token: str, *, spectator: bool = False
) -> Viewer:
    seat = (
        None
        if spectator or not token
        else next((s.index for s in seats if s.holder == token), None)
    )
    is_host = not spectator and bool(token) and secrets.compare_digest(session.host_token, token)
    return Viewer(token=token, seat=seat, is_host=is_host, spectator=spectator)


def undone_versions(session: GameSession) -> set[int]:
    """Versions of the game actions that an undo has taken back, by the session's version."""
    rows = Action.objects.filter(
        session=session, version__lte=session.version, kind=Action.Kind.UNDO, undoes__isnull=False
    )
    return {version for version in rows.values_list("undoes", flat=True) if version is not None}


def recent_actions(session: GameSession, limit: int = HISTORY_LENGTH) -> list[Action]:
    """The newest rows of the log at the session's version, newest first (a later
    tap, committed since ``session`` was read, is not among them)."""
    return list(session.actions.filter(version__lte=session.version).order_by("-version")[:limit])


@dataclass(frozen=True)
class LogTail:
    """What the frames need of the log at one version: the newest rows, newest
    first, and the versions undone so far. The log is append-only, so this never
    changes for a given (session, version)."""

    version: int
    recent: tuple[Action, ...]
    undone: frozenset[int]

    def extended(self, row: Action) -> LogTail | None:
        """The tail once ``row`` is appended, if ``row`` comes right after it."""
        if row.version != self.version + 1:
            return None
        undone = self.undone
        if row.kind == Action.Kind.UNDO and row.undoes is not None:
            undone = undone | {row.undoes}
        recent = (row, *self.recent)[:HISTORY_LENGTH]
        return LogTail(row.version, recent, frozenset(undone))


def log_tail(session: GameSession) -> LogTail:
    """The log's tail at the session's version, read from the database."""
    return LogTail(
        session.version, tuple(recent_actions(session)), frozenset(undone_versions(session))
    )


def history(
    session: GameSession,
    seats: list[Seat],
    undone: set[int],
    limit: int = HISTORY_LENGTH,
    *,
    rows: list[Action] | None = None,
    wording: Wording | None = None,
) -> list[HistoryEntry]:
    """The newest actions first (their sentences in the reader's language)."""
    wording = wording or Wording.of(session, seats)
    worded = wording.pickled()
    return [
        _entry(row, wording, worded, row.version in undone)
        for row in (recent_actions(session, limit) if rows is None else rows)
    ]


def _entry(row: Action, wording: Wording, worded: bytes, undone: bool) -> HistoryEntry:
    """A row's history entry; the one made for this row object before when the
    wording then pickled as ``worded`` does now and the row's undoing is the same
    (a live table's tail keeps its rows: the fourteen entries a tap leaves as they
    were are the same objects, their keys pickled once)."""
    kept = row.__dict__.get("_history_entry")
    if kept is not None and kept[0] == worded and kept[1] == undone:
        return kept[2]
    entry = HistoryEntry(
        version=row.version,
        seat_name=wording.names.get(row.seat) if row.seat is not None else None,
        events=events_pickled(row),
        wording=wording,
        undone=undone,
        is_undo=row.kind == Action.Kind.UNDO,
        undoes=row.undoes,
    )
    row.__dict__["_history_entry"] = (worded, undone, entry)
    return entry


def events_pickled(row: Action) -> bytes:
    """A row's events as its history entry holds them, pickled once a row object: a
    live table's tail keeps its rows from one revision to the next (``LogTail``), so
    the fourteen entries a tap leaves as they were are keyed without pickling their
    events again (a logged action's events never change)."""
    pickled = row.__dict__.get("_events_pickled")
    if pickled is None:
        pickled = row.__dict__["_events_pickled"] = pickle.dumps(tuple(row.events), protocol=5)
    return pickled


def describe(presenter: Any, event: dict[str, Any], seen: dict[str, Any], names: dict) -> str:
    """One history sentence; the platform's own events first, then the game's.
    ``seen``: the game's ``history_state`` of the session's state."""
    if event.get("type") == "timeout":
        return gettext("Time ran out for %(name)s: the default move was played.") % {
            "name": names.get(event.get("seat"), "?")
        }
    return presenter.describe(event, seen, names)


def last_effective_action(
    session: GameSession, undone: set[int], recent: list[Action] | None = None
) -> Action | None:
    """The newest game action that has not been undone.

    ``recent`` (the newest rows, newest first) usually holds it already.
    """
    for row in recent or ():
        if row.kind == Action.Kind.GAME and row.version not in undone:
            return row
    if recent is not None and len(recent) < HISTORY_LENGTH:
        return None  # that was the whole log
    return (
        Action.objects.filter(session=session, kind=Action.Kind.GAME)
        .exclude(version__in=undone)
        .order_by("-version")
        .first()
    )


def _rejoin_url(session: GameSession, seats: list[Seat], viewer: Viewer) -> str:
    own = next((s for s in seats if viewer.seat is not None and s.index == viewer.seat), None)
    if own is None or not own.rejoin_key or viewer.spectator:
        return ""
    return reverse("rejoin", args=[session.code, own.index, own.rejoin_key])


#: The seats section: the personal part of a live frame (``rendering.PERSONAL``).
SEATS_TEMPLATE = "companion/partials/seats.html"


def seats_values(
    session: GameSession, seats: list[Seat], viewer: Viewer, *, oob: bool
) -> dict[str, Any]:
    """The values the seats section is rendered from (and, in a live table, kept
    by): the seats as plain values, and who is looking."""
    return {
        "seats": [
            {
                "index": s.index,
                "name": s.name,
                "bot": s.bot,
                "taken": s.is_taken,
                "reserved": s.is_reserved,
            }
            for s in seats
        ],
        "viewer_seat": viewer.seat,
        "is_host": viewer.is_host,
        "spectator": viewer.spectator,
        "code": session.code,
        "ended": session.is_ended,
        "has_bot": session.bots_allowed,
        # The viewer's own seat's rejoin link (a game with hidden cards): only ever
        # in the part rendered for that seat.
        "rejoin_url": _rejoin_url(session, seats, viewer),
        "oob": oob,
    }


def table_context(
    session: GameSession,
    viewer: Viewer,
    *,
    seats: list[Seat] | None = None,
    tail: LogTail | None = None,
) -> dict[str, Any]:
    """Everything the page and the shared part of the live fragments need, for one
    viewer (the seats section is rendered from :func:`seats_values`). Pass ``seats``
    if the caller already has them.
    """
    seats = list(session.seats.all()) if seats is None else seats
    context: dict[str, Any] = {"session": session, "seats": seats, "viewer": viewer}
    engine = get_engine(session.game)
    presenter = presenter_for(session.game)
    can_edit = viewer.can_act and not session.is_ended
    waiting = engine.waiting_for(session.state) if not session.is_ended else []
    context.update(
        can_edit=can_edit,
        own_only=session.edit_policy == GameSession.EditPolicy.OWN,
        waiting=[s for s in seats if s.index in waiting],
        asks_edit_policy=presenter.asks_edit_policy,
        board_template=presenter.board_template,
        act_url=url_of("act", session.code),
        undo_url=url_of("undo", session.code),
    )
    undo_allowed = not (engine.seat_bound and session.mode == GameSession.Mode.ONLINE)
    if tail is None or tail.version != session.version:
        tail = log_tail(session)
    undone, recent = set(tail.undone), list(tail.recent)
    last = last_effective_action(session, undone, recent)
    if engine.seat_bound and last is not None and last.seat != viewer.seat:
        # Nobody undoes another seat's move in such a game (services.undo): no
        # button that would only be refused. (Its part is rendered per seat.)
        undo_allowed = False
    outcome = engine.outcome(session.state)
    if outcome is not None or session.is_ended:
        context["finale"] = finale(session, seats, presenter, outcome)
        context["can_play_again"] = viewer.can_act
    board_viewer = shown_to(session, viewer)
    view = engine.view(session.state, board_viewer.seat)
    wording = Wording.of(session, seats)
    context.update(
        history=history(session, seats, undone, rows=recent, wording=wording),
        history_limit=HISTORY_LENGTH,
        undo_version=last.version if last and undo_allowed else None,
        undo_label=wording.sentence(events_pickled(last)) if last and undo_allowed else "",
        game=presenter.context(
            session, view, board_viewer, seats, can_edit, last.events if last else []
        ),
    )
    return context


CHART_WIDTH, CHART_HEIGHT = 300, 120


def finale(
    session: GameSession, seats: list[Seat], presenter: Any, outcome: Outcome | None
) -> dict[str, Any]:
    """The end of a game: the standings (places shared by ties), its story told from
    the log, a chart of the story's series, and where the table plays next."""
    names = [seat.name for seat in seats]
    rows = list(
        Action.objects.filter(session=session)
        .order_by("version")
        .values_list("kind", "version", "undoes", "events")
    )
    undone = {undoes for kind, _v, undoes, _e in rows if kind == Action.Kind.UNDO}
    log = [
        events
        for kind, version, _u, events in rows
        if kind == Action.Kind.GAME and version not in undone
    ]
    story = presenter.story(log, session.state, names)
    standings = []
    place = 1
    for group in outcome.places if outcome else []:
        score = outcome.scores.get(group[0]) if outcome and outcome.scores else None
        standings.append(
            {
                "place": place,
                "names": [names[s] for s in group if s < len(names)],
                "score": None if score is None else _score(score, story.score),
            }
        )
        place += len(group)
    next_code = (
        GameSession.objects.filter(pk=session.next_session_id)
        .values_list("code", flat=True)
        .first()
        if session.next_session_id
        else None
    )
    return {
        "standings": standings,
        "story": story,
        "chart": _chart(story.series),
        "next_url": reverse("session", args=[next_code]) if next_code else "",
    }


def _score(score: int, counts: str) -> str:
    """A place's score as the standings say it: "10 points", or "level 10"."""
    if counts == "level":
        return gettext("level %(n)s") % {"n": score}
    return ngettext("%(n)s point", "%(n)s points", score) % {"n": score}


def _chart(series: Any) -> list[tuple[str, str, str]]:
    """Each series as an SVG polyline's points, on one scale."""
    lines = [values for _name, _colour, values in series if values]
    if not lines:
        return []
    top = max(max(values) for values in lines) or 1
    bottom = min(0, *(min(values) for values in lines))
    span = (top - bottom) or 1
    chart = []
    for name, colour, values in series:
        if not values:
            continue
        steps = max(len(values) - 1, 1)
        points = " ".join(
            f"{round(i * CHART_WIDTH / steps, 1)},"
            f"{round(CHART_HEIGHT - (v - bottom) * CHART_HEIGHT / span, 1)}"
            for i, v in enumerate(values)
        )
        chart.append((name, colour, points))
    return chart
