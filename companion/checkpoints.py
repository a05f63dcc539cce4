"""What an undo needs of the log, without reading or replaying all of it.

An undo takes back the last game action still in effect (the *target*) and
needs the state as if it had never been played: the effective actions before
it, replayed. Replaying from ``initial_state`` costs as much as the game is
long, so every ``CHECKPOINT_EVERY`` versions the state is kept
(``models.Checkpoint``, taken when the action row is appended) and the undo
replays from the newest checkpoint that still holds.

A checkpoint at version ``c`` is the state the log's first ``c`` rows made. It
still holds for the log as it is now if no later undo reached back to it: no
undo row with a version above ``c`` took back an action at or below ``c``. Then
the actions in effect up to ``c`` are exactly those the checkpoint has applied,
and the state before the target is the checkpoint with the effective actions
between ``c`` and the target replayed on it. (Version 0, ``initial_state``,
always holds.) The undo about to be appended takes back the target, which is
above ``c``, so the checkpoint it used still holds after it.

Reads, whatever the game's length: the undo rows (two integers each), the
newest game rows' versions (at most one more than there are undos), the
checkpoint versions, one checkpoint's state and the rows after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.models import Action, Checkpoint, GameSession


@dataclass(frozen=True)
class Target:
    """The last game action still in effect."""

    version: int
    seat: int | None


@dataclass(frozen=True)
class Log:
    """What the undo rows say: (undo version, version it took back), oldest first."""

    undos: tuple[tuple[int, int], ...]

    @property
    def undone(self) -> frozenset[int]:
        return frozenset(undoes for _version, undoes in self.undos)


def read_log(session: GameSession) -> Log:
    rows = (
        Action.objects.filter(session=session, kind=Action.Kind.UNDO)
        .order_by("version")
        .values_list("version", "undoes")
    )
    return Log(tuple((version, undoes) for version, undoes in rows if undoes is not None))


def last_effective(session: GameSession, log: Log) -> Target | None:
    """The newest game action no undo took back; each undo hides at most one, so
    it is among the newest ``undos + 1`` game rows."""
    undone = log.undone
    rows = (
        Action.objects.filter(session=session, kind=Action.Kind.GAME)
        .order_by("-version")
        .values_list("version", "seat")[: len(log.undos) + 1]
    )
    for version, seat in rows:
        if version not in undone:
            return Target(version, seat)
    return None


def valid_base(versions: Sequence[int], log: Log, below: int) -> int:
    """The newest of ``versions`` under ``below`` that still holds (0 if none)."""
    undos = sorted(log.undos, reverse=True)  # newest first
    reach = below  # the oldest version an undo newer than the candidate took back
    i = 0
    for c in sorted((v for v in versions if v < below), reverse=True):
        while i < len(undos) and undos[i][0] > c:
            reach = min(reach, undos[i][1])
            i += 1
        if reach > c:
            return c
    return 0


def state_before(session: GameSession, engine: Any, target: Target, log: Log) -> dict[str, Any]:
    """The state as if ``target`` (the last effective action) had never been played."""
    versions = list(
        Checkpoint.objects.filter(session=session, version__lt=target.version).values_list(
            "version", flat=True
        )
    )
    base = valid_base(versions, log, target.version)
    if base:
        state = Checkpoint.objects.values_list("state", flat=True).get(
            session=session, version=base
        )
    else:
        state = session.initial_state
    undone = log.undone
    rows = (
        Action.objects.filter(
            session=session,
            kind=Action.Kind.GAME,
            version__gt=base,
            version__lt=target.version,
        )
        .order_by("version")
        .values_list("version", "seat", "payload")
    )
    for version, seat, payload in rows:
        if version not in undone:
            state = engine.apply(state, engine.parse_action(payload), seat).state
    return state


def replay_all(session: GameSession, engine: Any) -> dict[str, Any]:
    """The current state from ``initial_state`` and every effective action: what
    the checkpoints must always agree with (tests and the benchmark's floor)."""
    rows = list(
        Action.objects.filter(session=session)
        .order_by("version")
        .values_list("version", "kind", "seat", "payload", "undoes")
    )
    undone = {undoes for _v, kind, _s, _p, undoes in rows if kind == Action.Kind.UNDO}
    state = session.initial_state
    for version, kind, seat, payload, _undoes in rows:
        if kind == Action.Kind.GAME and version not in undone:
            state = engine.apply(state, engine.parse_action(payload), seat).state
    return state
