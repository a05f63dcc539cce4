"""The protocol every rules engine implements.

A game is declared as a small object: how to set up a state, how to parse an
action a client posted, how to apply it, who acts, what each seat may see, and
whether the game is over. The ``companion`` app owns sessions, storage, sockets
and timers and talks to games only through this protocol.

State is a JSON-serialisable ``dict`` (it is stored as is in the session row);
``apply`` never mutates its input. Actions are typed, frozen objects parsed from
JSON payloads; ``to_payload`` gives the canonical form that is stored in the
action log and parsed again on replay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

State = dict[str, Any]
Event = dict[str, Any]


@runtime_checkable
class Action(Protocol):
    def to_payload(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Result:
    """The new state after an action and what happened, as structured events."""

    state: State
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    """Final standings: ``places`` lists seats by place, tied seats share a place."""

    places: list[list[int]]
    scores: dict[int, int] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        return self.places[0] if self.places else []


@runtime_checkable
class Engine(Protocol):
    slug: str
    min_seats: int
    max_seats: int
    #: True when actions carry secrets (hands, bids): then only the owner seat may
    #: post an action, whatever the session's editing rule, and undo is off online.
    seat_bound: bool

    def parse_options(self, raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        """Validate set-up options; raise ``InvalidInput`` on anything out of range."""
        ...

    def new_state(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
        """The state at the start of a game for these seats (names or characters)."""
        ...

    def parse_action(self, payload: Mapping[str, Any]) -> Action:
        """Turn a client's JSON payload into a typed action or raise ``InvalidInput``."""
        ...

    def apply(self, state: State, action: Action, seat: int | None = None) -> Result:
        """Apply an action posted by ``seat`` (``None``: the host, not seated), or
        raise ``RuleError`` saying why the rules forbid it."""
        ...

    def owner(self, state: State, action: Action) -> int | None:
        """The seat on whose behalf the action is taken (None: anyone's business)."""
        ...

    def view(self, state: State, seat: int | None) -> State:
        """What ``seat`` may see (``None`` is a spectator)."""
        ...

    def outcome(self, state: State) -> Outcome | None:
        """Final standings once the game is over, else ``None``."""
        ...

    def waiting_for(self, state: State) -> list[int]:
        """Seats whose input the game is waiting for now (timers and bots act on these)."""
        ...

    def default_action(self, state: State, seat: int) -> dict[str, Any] | None:
        """The payload played for ``seat`` when its timer runs out (None: nothing)."""
        ...
