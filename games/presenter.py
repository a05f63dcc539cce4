"""The presenter protocol: what the web side of a game gives the platform.

A game's presenter (``games/<game>/views.py``, named by its declaration's
``presenter``) owns the game's templates and words: the set-up form, the board
fragment, history sentences and error
parameters. ``companion`` knows nothing else about a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from django.http import QueryDict

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise

    from companion.models import GameSession, Seat
    from companion.selectors import Viewer


#: Colours (CSS ``c-…`` classes) for seats of games whose players have none of their own.
SEAT_COLOURS = ("blue", "red", "yellow", "green", "purple", "grey")


@dataclass(frozen=True)
class Story:
    """What the end of a game shows besides the standings: a table of figures per
    player (``columns`` heads the values of each row) and, where a picture reads
    better, a line per player over the game (``series``: name, colour, values)."""

    columns: tuple[str, ...] = ()
    rows: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    series_title: str = ""
    series: tuple[tuple[str, str, tuple[int, ...]], ...] = ()
    #: What the outcome's scores count, as the standings word them: "points", or
    #: "level" (Munchkin's: the winner is at level 10, not on 10 points).
    score: str = "points"


@dataclass(frozen=True)
class Setup:
    """What a game's set-up form asks for, parsed by its presenter."""

    names: list[str]
    options: dict[str, Any]
    host_seat: int | None = None
    mode: str = "companion"
    turn_seconds: int = 0
    bot_seats: tuple[int, ...] = field(default_factory=tuple)


@runtime_checkable
class Presenter(Protocol):
    """Read-only attributes (a class attribute satisfies them) and methods."""

    @property
    def slug(self) -> str:
        """The game's slug (its declaration's)."""
        ...

    @property
    def name(self) -> _StrOrPromise:
        """The game's name in the reader's language."""
        ...

    @property
    def players(self) -> str:
        """How many players, as printed on the box."""
        ...

    @property
    def board_template(self) -> str:
        """The board fragment, rendered with ``context(...)`` under ``game``."""
        ...

    @property
    def setup_template(self) -> str:
        """The set-up form's fields, included in ``companion/new.html``."""
        ...

    @property
    def asks_edit_policy(self) -> bool:
        """Whether the set-up form asks "each phone edits only its own board?"."""
        ...

    @property
    def field_labels(self) -> Mapping[str, _StrOrPromise]:
        """Field names in the engine's messages ("“gold” must be a whole number."), in
        the game's words; the last part of a path (``hits[0].damage``) is looked up."""
        ...

    def setup_context(self, query: QueryDict) -> dict[str, Any]:
        """The context of the set-up form (``presenter`` included)."""
        ...

    def parse_setup(self, post: QueryDict) -> Setup:
        """The set-up form, parsed; the engine validates the options."""
        ...

    def context(
        self,
        session: GameSession,
        view: dict[str, Any],
        viewer: Viewer,
        seats: list[Seat],
        can_edit: bool,
        last_events: list[dict[str, Any]],
    ) -> dict[str, Any]:
        """The board's context for one viewer, from the engine's ``view`` for its seat."""
        ...

    def localise_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """An engine error's parameters in the reader's language (names of cards…)."""
        ...

    def history_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """What :meth:`describe` reads of the state, and nothing more: the history
        hands ``describe`` this (never the whole state), and an entry of a live table
        is kept by it, so an entry whose event, names and this did not change is
        neither described nor rendered again after a tap."""
        ...

    def describe(
        self, event: dict[str, Any], state: dict[str, Any], names: dict[Any, Any] | None = None
    ) -> str:
        """One history sentence for an engine event ("" to leave it out). ``state``
        is :meth:`history_state`'s part of the state."""
        ...

    def story(
        self, log: list[list[dict[str, Any]]], state: dict[str, Any], names: list[str]
    ) -> Story:
        """The story of a finished game, told from its log: the events of each action
        still in effect, oldest first. ``names``: the seats' names, by seat."""
        ...
