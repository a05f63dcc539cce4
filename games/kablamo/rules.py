"""Kablamo as a table companion: the phones run the turn, the order and the memory of
everything except the chambers.

The table plays with the real box (revolvers, bullets, the bag). The engine walks
every turn through its phases (Rotate, Reveal, Resolve, Repeat, Replace, Reload),
takes what came up under each hammer, computes the resolution order (live bullets
first, then by ascending printed number, ties as decided in
``docs/rules/kablamo.md``), records who each bullet was assigned to and what became
of it (done, delayed on a revolver or in front of a player, misfired), keeps the
delayed effects and which player holds which revolver (Lights Out), applies
Marquis of Queensbury Rules and the eliminations, and ends the game when one player
is left, or none.

**It never stores what is inside a revolver's chambers.** Remembering where your
bullets are is the game.

The box's bullet list is data the table can extend: a session starts with the
bullets the rulebook names and each table adds the others of its box (name,
printed number, type). Pure Python: no Django, no I/O, no randomness (the bag is
real). ``apply`` never mutates its input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.actions import Payload
from games.engine.errors import InvalidInput, RuleError
from games.engine.errors import gettext_noop as _
from games.engine.protocol import Engine, Event, Outcome, Result, State
from games.engine.state import copy_state
from games.engine.validate import as_bool, as_choice, as_int, as_text, require

MIN_SEATS, MAX_SEATS = 2, 5
VARIANTS = ("standard", "social", "hardcore")
KINDS = ("action", "high-velocity")
LIVE = ("kablamo", "click")
EMPTY = "empty"
MAX_NUMBER = 999
MAX_NAME = 40
PLACES = ("revolver", "player")  # where a delayed effect waits
OUTCOMES = ("done", "delayed", "misfired")
PHASES = ("load", "rotate", "reveal", "resolve", "replace", "reload", "over")

#: The bullets the rulebook names (the catalog's), without the printed numbers it
#: never gives: a table enters its box's numbers. ``delayed``: where the effect waits.
NAMED: dict[str, dict[str, Any]] = {
    "test-of-honor": {"name": "Test of Honor", "kind": "action", "delayed": None},
    "speed-load": {"name": "Speed Load", "kind": "action", "delayed": None},
    "stockpiling": {"name": "Stockpiling", "kind": "action", "delayed": None},
    "sleight-of-hand": {"name": "Sleight of Hand", "kind": "action", "delayed": None},
    "triple-action": {"name": "Triple Action", "kind": "action", "delayed": None},
    "cylinder-malfunction": {
        "name": "Cylinder Malfunction",
        "kind": "action",
        "delayed": "revolver",
    },
    "trigger-malfunction": {"name": "Trigger Malfunction", "kind": "action", "delayed": "revolver"},
    "trigger-happy": {"name": "Trigger Happy", "kind": "action", "delayed": "player"},
    "marquis-of-queensbury-rules": {
        "name": "Marquis of Queensbury Rules",
        "kind": "high-velocity",
        "delayed": None,
    },
    "lights-out": {"name": "Lights Out", "kind": "high-velocity", "delayed": None},
}
MARQUIS, LIGHTS_OUT, CYLINDER = "marquis-of-queensbury-rules", "lights-out", "cylinder-malfunction"


# --------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class AddBullet(Payload):
    """A bullet of the table's box: its name, printed number and type."""

    action_type = "add_bullet"

    name: str
    number: int
    kind: str
    delayed: str | None = None


@dataclass(frozen=True)
class Loaded(Payload):
    action_type = "loaded"

    seat: int


@dataclass(frozen=True)
class Rotate(Payload):
    action_type = "rotate"


@dataclass(frozen=True)
class Reveal(Payload):
    """What came up under a revolver's hammer: a live bullet, an empty chamber, or a
    bullet of the list (its printed number as the tile shows it)."""

    action_type = "reveal"

    revolver: int
    result: str  # "kablamo" | "click" | "empty" | "bullet"
    bullet: str = ""
    number: int | None = None


@dataclass(frozen=True)
class Assign(Payload):
    """The revolver's owner gives the bullet at the head of the order to a player."""

    action_type = "assign"

    target: int


@dataclass(frozen=True)
class Settle(Payload):
    """What became of the assigned bullet: done, delayed (on the revolver or in front
    of the player), or misfired."""

    action_type = "settle"

    outcome: str
    place: str = ""


@dataclass(frozen=True)
class ExtraShot(Payload):
    """An effect makes a revolver fire again this turn (the Repeat phase)."""

    action_type = "extra_shot"

    revolver: int


@dataclass(frozen=True)
class Play(Payload):
    """A high-velocity bullet played from the hand, at any moment of the turn.
    Lights Out names the other player (``other``); another bullet may name a target."""

    action_type = "play"

    seat: int
    bullet: str
    other: int | None = None


@dataclass(frozen=True)
class ClearDelayed(Payload):
    """A delayed effect has done its work: it leaves the revolver or the player."""

    action_type = "clear_delayed"

    place: str
    index: int
    bullet: str


@dataclass(frozen=True)
class Next(Payload):
    """The table has done this phase (Replace, Reload): go on."""

    action_type = "next"


@dataclass(frozen=True)
class Eliminate(Payload):
    """A player is out, by the table's own reckoning (a house bullet, a mistake)."""

    action_type = "eliminate"

    seat: int


Action = (
    (AddBullet | Loaded | Rotate | Reveal | Assign | Settle | ExtraShot | Play | ClearDelayed)
    | Next
    | Eliminate
)
ACTION_TYPES = (
    "add_bullet",
    "loaded",
    "rotate",
    "reveal",
    "assign",
    "settle",
    "extra_shot",
    "play",
    "clear_delayed",
    "next",
    "eliminate",
)


def _seat(payload: Mapping[str, Any], key: str) -> int:
    return as_int(require(payload, key), key, 0, MAX_SEATS - 1)


def parse_action(payload: Mapping[str, Any]) -> Action:
    if not isinstance(payload, Mapping):
        raise InvalidInput(_("The action must be an object."))
    kind = as_choice(require(payload, "type"), "type", ACTION_TYPES)
    if kind == "add_bullet":
        delayed = payload.get("delayed") or None
        return AddBullet(
            as_text(payload.get("name"), "name", MAX_NAME),
            as_int(require(payload, "number"), "number", 0, MAX_NUMBER),
            as_choice(require(payload, "kind"), "kind", KINDS),
            None if delayed is None else as_choice(delayed, "delayed", PLACES),
        )
    if kind == "loaded":
        return Loaded(_seat(payload, "seat"))
    if kind == "rotate":
        return Rotate()
    if kind == "reveal":
        result = as_choice(require(payload, "result"), "result", (*LIVE, EMPTY, "bullet"))
        number = payload.get("number")
        bullet = payload.get("bullet") or ""
        if not isinstance(bullet, str) or len(bullet) > MAX_NAME:
            raise InvalidInput(_("“%(field)s” is not a valid choice."), field="bullet")
        return Reveal(
            _seat(payload, "revolver"),
            result,
            bullet if result == "bullet" else "",
            None
            if number in (None, "") or result != "bullet"
            else as_int(number, "number", 0, MAX_NUMBER),
        )
    if kind == "assign":
        return Assign(_seat(payload, "target"))
    if kind == "settle":
        outcome = as_choice(require(payload, "outcome"), "outcome", OUTCOMES)
        place = payload.get("place") or ""
        if outcome == "delayed":
            place = as_choice(place, "place", PLACES)
        return Settle(outcome, place if outcome == "delayed" else "")
    if kind == "extra_shot":
        return ExtraShot(_seat(payload, "revolver"))
    if kind == "play":
        bullet = require(payload, "bullet")
        if not isinstance(bullet, str) or len(bullet) > MAX_NAME:
            raise InvalidInput(_("“%(field)s” is not a valid choice."), field="bullet")
        other = payload.get("other")
        return Play(
            _seat(payload, "seat"),
            bullet,
            None if other in (None, "") else as_int(other, "other", 0, MAX_SEATS - 1),
        )
    if kind == "clear_delayed":
        bullet = require(payload, "bullet")
        if not isinstance(bullet, str):
            raise InvalidInput(_("“%(field)s” is not a valid choice."), field="bullet")
        return ClearDelayed(
            as_choice(require(payload, "place"), "place", PLACES),
            as_int(require(payload, "index"), "index", 0, MAX_SEATS - 1),
            bullet,
        )
    if kind == "next":
        return Next()
    return Eliminate(_seat(payload, "seat"))


def parse_options(raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidInput(
            _("Kablamo is for %(low)s to %(high)s players."), low=MIN_SEATS, high=MAX_SEATS
        )
    raw = raw or {}
    if not isinstance(raw, Mapping):
        raise InvalidInput(_("“%(field)s” must be an object."), field="options")
    return {
        "variant": as_choice(raw.get("variant") or "standard", "variant", VARIANTS),
        "mulligan": as_bool(raw.get("mulligan", False), "mulligan"),
    }


# --------------------------------------------------------------------------
# Helpers (also for the presenter and the tests)
# --------------------------------------------------------------------------


def alive(state: Mapping[str, Any]) -> list[int]:
    return [seat for seat, p in enumerate(state["players"]) if p["alive"]]


def revolver_of(state: Mapping[str, Any], seat: int) -> int | None:
    """The revolver ``seat`` holds now (Lights Out moves them)."""
    return next((r["id"] for r in state["revolvers"] if r["owner"] == seat), None)


def firing(state: Mapping[str, Any]) -> list[int]:
    """The revolvers that fire in this shot: every living player's, or in the Repeat
    phase only those owing an extra shot."""
    if state["repeat"]:
        return list(state["repeat"])
    return [r["id"] for r in state["revolvers"] if state["players"][r["owner"]]["alive"]]


def order_key(entry: Mapping[str, Any]) -> tuple[int, int, int]:
    """Live bullets first, then by ascending printed number; equal numbers by the
    revolver's seat order (A-K2)."""
    live = entry["result"] in LIVE
    return (0 if live else 1, 0 if live else entry["number"], entry["revolver"])


def head(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The bullet being resolved now (the first not yet settled)."""
    return next((e for e in state["queue"] if e["status"] in ("pending", "assigned")), None)


def legal_actions(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Payloads that move the game on now (for tests and the random player)."""
    phase = state["phase"]
    out: list[dict[str, Any]] = []
    if phase == "over":
        return out
    if phase == "load":
        return [
            {"type": "loaded", "seat": s} for s in alive(state) if not state["players"][s]["loaded"]
        ]
    if phase == "rotate":
        out.append({"type": "rotate"})
    elif phase == "reveal":
        for revolver in firing(state):
            if str(revolver) in state["shot"]:
                continue
            out.extend(
                {"type": "reveal", "revolver": revolver, "result": result}
                for result in (*LIVE, EMPTY)
            )
            out.extend(
                {"type": "reveal", "revolver": revolver, "result": "bullet", "bullet": slug}
                for slug, bullet in state["bullets"].items()
                if bullet["number"] is not None and bullet["kind"] == "action"
            )
    elif phase == "resolve":
        entry = head(state)
        if entry is not None and entry["status"] == "pending":
            out.extend({"type": "assign", "target": s} for s in alive(state))
        elif entry is not None:
            out.append({"type": "settle", "outcome": "done"})
            out.append({"type": "settle", "outcome": "misfired"})
            out.extend({"type": "settle", "outcome": "delayed", "place": p} for p in PLACES)
        for revolver in [
            r["id"] for r in state["revolvers"] if state["players"][r["owner"]]["alive"]
        ]:
            out.append({"type": "extra_shot", "revolver": revolver})
    else:
        out.append({"type": "next"})
    if state["options"]["variant"] != "hardcore" and phase in ("rotate", "reveal", "resolve"):
        living = alive(state)
        for s in living:
            out.append({"type": "play", "seat": s, "bullet": MARQUIS})
            out.extend(
                {"type": "play", "seat": s, "bullet": LIGHTS_OUT, "other": o}
                for o in living
                if o != s
            )
    return out


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------


class KablamoEngine:
    slug = "kablamo"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    seat_bound = False  # nothing is secret in the app: the chambers are never in it

    def parse_options(self, raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        return parse_options(raw, seats)

    def new_state(self, seats: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
        opts = parse_options(options, len(seats))
        return {
            "options": opts,
            "bullets": {slug: {**info, "number": None} for slug, info in NAMED.items()},
            "players": [
                {"name": name, "alive": True, "loaded": False, "out_turn": None, "delayed": []}
                for name in seats
            ],
            "revolvers": [{"id": n, "owner": n, "delayed": []} for n in range(len(seats))],
            "turn": 0,
            "phase": "load",
            "shot": {},  # revolver id (as text) → what came up, in this shot
            "queue": [],
            "repeat": [],  # revolvers firing again this turn (the Repeat phase), in order
            "owed": [],  # extra shots owed, fired once this resolution is over
            "marquis": False,
            "emptied": {},  # revolver id (as text) → chambers its shots emptied this turn
            "winner": None,
            "nobody": False,
        }

    def parse_action(self, payload: Mapping[str, Any]) -> Action:
        return parse_action(payload)

    def owner(self, state: State, action: Any) -> int | None:
        """Whose business it is (for "each player edits only their own"): a reveal
        is the revolver's holder's, an assignment the firing revolver's holder's, a
        settlement the target's."""
        if isinstance(action, Reveal):
            revolvers = state["revolvers"]
            return revolvers[action.revolver]["owner"] if action.revolver < len(revolvers) else None
        entry = head(state)
        if isinstance(action, Assign) and entry is not None:
            return entry["owner"]
        if isinstance(action, Settle) and entry is not None:
            return entry["target"]
        if isinstance(action, Loaded | Play):
            return action.seat
        return None

    def waiting_for(self, state: State) -> list[int]:
        return []  # a table companion: nobody is timed

    def default_action(self, state: State, seat: int) -> dict[str, Any] | None:
        return None

    def view(self, state: State, seat: int | None) -> State:
        return state

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        if state["winner"] is None:
            return Outcome(places=[list(range(len(state["players"])))])  # nobody wins
        others = sorted(
            (s for s in range(len(state["players"])) if s != state["winner"]),
            key=lambda s: -(state["players"][s]["out_turn"] or 0),
        )
        return Outcome(places=[[state["winner"]], *([s] for s in others)])

    # ------------------------------------------------------------ apply

    def apply(self, state: State, action: Any, seat: int | None = None) -> Result:
        if state["phase"] == "over":
            raise RuleError(_("The game is over."))
        s = copy_state(state)
        events: list[Event] = []
        handlers: dict[type, Any] = {
            AddBullet: self._add_bullet,
            Loaded: self._loaded,
            Rotate: self._rotate,
            Reveal: self._reveal,
            Assign: self._assign,
            Settle: self._settle,
            ExtraShot: self._extra_shot,
            Play: self._play,
            ClearDelayed: self._clear_delayed,
            Next: self._next,
            Eliminate: self._eliminate,
        }
        handler = handlers.get(type(action))
        if handler is None:
            raise InvalidInput(_("Unknown action."))
        handler(s, action, events)
        return Result(s, events)

    # -- the box's list

    def _add_bullet(self, s: State, action: AddBullet, events: list[Event]) -> None:
        slug = _slug(action.name)
        known = s["bullets"].get(slug)
        if known is not None and known["number"] is not None and known["number"] != action.number:
            raise RuleError(
                _("%(name)s is already on the list with number %(number)s."),
                name=known["name"],
                number=known["number"],
            )
        if known is not None and known["kind"] != action.kind:
            raise RuleError(_("%(name)s is a bullet of another type."), name=known["name"])
        s["bullets"][slug] = {
            "name": known["name"] if known else action.name,
            "kind": action.kind,
            "delayed": action.delayed if known is None else known["delayed"] or action.delayed,
            "number": action.number,
        }
        events.append({"kind": "bullet_added", "bullet": slug, "number": action.number})

    # -- the turn

    def _loaded(self, s: State, action: Loaded, events: list[Event]) -> None:
        if s["phase"] != "load":
            raise RuleError(_("The revolvers are already loaded."))
        player = self._player(s, action.seat)
        if player["loaded"]:
            raise RuleError(_("%(name)s has already loaded."), name=player["name"])
        player["loaded"] = True
        events.append({"kind": "loaded", "seat": action.seat})
        if all(p["loaded"] for p in s["players"] if p["alive"]):
            events.append({"kind": "locked"})
            self._new_turn(s, events)

    def _new_turn(self, s: State, events: list[Event]) -> None:
        s["turn"] += 1
        s["phase"] = "rotate"
        s["marquis"] = False
        s["repeat"], s["owed"], s["shot"], s["queue"] = [], [], {}, []
        s["emptied"] = {}
        events.append({"kind": "turn", "turn": s["turn"]})

    def _rotate(self, s: State, action: Rotate, events: list[Event]) -> None:
        if s["phase"] != "rotate":
            raise RuleError(_("That is not what the turn is waiting for now."))
        backwards = []
        for revolver in s["revolvers"]:
            if revolver["id"] in firing(s) and CYLINDER in revolver["delayed"]:
                # One copy is used up by this shot: the cylinder turns the other way.
                revolver["delayed"].remove(CYLINDER)
                backwards.append(revolver["id"])
        events.append({"kind": "rotated", "anticlockwise": backwards})
        s["phase"] = "reveal"

    def _reveal(self, s: State, action: Reveal, events: list[Event]) -> None:
        if s["phase"] != "reveal":
            raise RuleError(_("That is not what the turn is waiting for now."))
        if action.revolver not in firing(s):
            raise RuleError(_("That revolver does not fire in this shot."))
        key = str(action.revolver)
        if key in s["shot"]:
            raise RuleError(_("What that revolver fired is already entered."))
        entry: dict[str, Any] = {"result": action.result, "bullet": "", "number": None}
        if action.result == "bullet":
            if not action.bullet:
                raise RuleError(_("Choose which bullet came up."))
            bullet = s["bullets"].get(action.bullet)
            if bullet is None:
                raise RuleError(_("Add that bullet to the table's list first."))
            if None not in (action.number, bullet["number"]) and action.number != bullet["number"]:
                raise RuleError(
                    _("%(name)s is number %(number)s on the table's list."),
                    name=bullet["name"],
                    number=bullet["number"],
                )
            number = action.number if action.number is not None else bullet["number"]
            if number is None:
                raise RuleError(_("Enter the number printed on %(name)s."), name=bullet["name"])
            if bullet["number"] is None:
                bullet["number"] = number  # the box's number, learnt at its first reveal
            entry.update(bullet=action.bullet, number=number)
        s["shot"][key] = entry
        # After a shot the chamber is empty, whatever it held: one bullet to draw.
        s["emptied"][key] = s["emptied"].get(key, 0) + 1
        events.append({"kind": "revealed", "revolver": action.revolver, **entry})
        if all(str(r) in s["shot"] for r in firing(s)):
            self._order(s, events)

    def _order(self, s: State, events: list[Event]) -> None:
        """Every revolver has fired: the resolution order, and the live bullets."""
        queue = []
        for key, shot in s["shot"].items():
            if shot["result"] == EMPTY:
                continue
            revolver = int(key)
            queue.append(
                {
                    "revolver": revolver,
                    "owner": s["revolvers"][revolver]["owner"],
                    **shot,
                    "status": "pending",
                    "target": None,
                }
            )
        queue.sort(key=order_key)
        s["queue"] = queue
        s["phase"] = "resolve"
        events.append(
            {"kind": "order", "queue": [[e["revolver"], e["result"], e["bullet"]] for e in queue]}
        )
        # Live bullets resolve first and need no choice: a Kablamo eliminates the
        # revolver's holder unless Marquis is in force; a Click does nothing.
        for entry in queue:
            if entry["result"] not in LIVE:
                continue
            entry["status"] = "done"
            # (Each says its revolver: the reveal that completes the order is
            # often another revolver's, and the history names the right one.)
            said = {"seat": entry["owner"], "revolver": entry["revolver"]}
            if entry["result"] == "kablamo":
                if s["marquis"]:
                    events.append({"kind": "marquis_saves", **said})
                else:
                    events.append({"kind": "kablamo", **said})
                    self._kill(s, entry["owner"], events, said=True)
            else:
                events.append({"kind": "click", **said})
        self._skip_the_dead(s, events)

    def _skip_the_dead(self, s: State, events: list[Event]) -> None:
        """A bullet whose revolver's holder died before it resolved is no longer
        active (A-K18); when the order is done, the turn goes on."""
        if self._ended(s, events):
            return
        for entry in s["queue"]:
            if entry["status"] == "pending" and not s["players"][entry["owner"]]["alive"]:
                entry["status"] = "inactive"
                events.append({"kind": "inactive", "revolver": entry["revolver"]})
        if head(s) is not None:
            return
        if s["owed"]:
            # Repeat: the revolvers owing a shot fire again, in the order owed.
            s["repeat"] = [
                r for r in s["owed"] if s["players"][s["revolvers"][r]["owner"]]["alive"]
            ]
            s["owed"], s["shot"], s["queue"] = [], {}, []
            if s["repeat"]:
                s["phase"] = "rotate"
                events.append({"kind": "repeat", "revolvers": s["repeat"]})
                return
        s["repeat"] = []
        s["phase"] = "replace"

    def _assign(self, s: State, action: Assign, events: list[Event]) -> None:
        entry = head(s)
        if s["phase"] != "resolve" or entry is None or entry["status"] != "pending":
            raise RuleError(_("No bullet is waiting to be assigned."))
        if not s["players"][self._check_seat(s, action.target)]["alive"]:
            raise RuleError(_("That player is out of the game."))
        entry["status"], entry["target"] = "assigned", action.target
        events.append(
            {
                "kind": "assigned",
                "revolver": entry["revolver"],
                "bullet": entry["bullet"],
                "target": action.target,
            }
        )

    def _settle(self, s: State, action: Settle, events: list[Event]) -> None:
        entry = head(s)
        if s["phase"] != "resolve" or entry is None or entry["status"] != "assigned":
            raise RuleError(_("No assigned bullet is waiting for its effect."))
        entry["status"] = action.outcome
        if action.outcome == "delayed":
            if action.place == "revolver":
                # On the revolver of the player it was played on (the rulebook: "in
                # the corner of your revolver"), which travels with it.
                holder = revolver_of(s, entry["target"])
                revolver = entry["revolver"] if holder is None else holder
                s["revolvers"][revolver]["delayed"].append(entry["bullet"])
            else:
                s["players"][entry["target"]]["delayed"].append(entry["bullet"])
        events.append(
            {
                "kind": "settled",
                "revolver": entry["revolver"],
                "bullet": entry["bullet"],
                "target": entry["target"],
                "outcome": action.outcome,
                "place": action.place,
            }
        )
        self._skip_the_dead(s, events)

    def _extra_shot(self, s: State, action: ExtraShot, events: list[Event]) -> None:
        if s["phase"] != "resolve":
            raise RuleError(_("Extra shots are owed while bullets resolve."))
        revolver = self._check_revolver(s, action.revolver)
        if not s["players"][s["revolvers"][revolver]["owner"]]["alive"]:
            raise RuleError(_("That revolver's holder is out of the game."))
        s["owed"].append(revolver)
        events.append({"kind": "extra_shot", "revolver": revolver})

    def _play(self, s: State, action: Play, events: list[Event]) -> None:
        if s["phase"] in ("load", "over"):
            raise RuleError(_("High-velocity bullets are played during a turn."))
        if s["options"]["variant"] == "hardcore":
            raise RuleError(_("The hardcore variant has no high-velocity bullets."))
        if not s["players"][self._check_seat(s, action.seat)]["alive"]:
            raise RuleError(_("That player is out of the game."))
        bullet = s["bullets"].get(action.bullet)
        if bullet is None or bullet["kind"] != "high-velocity":
            raise RuleError(_("Only a high-velocity bullet can be played from the hand."))
        event: Event = {"kind": "played", "seat": action.seat, "bullet": action.bullet}
        if action.bullet == MARQUIS:
            # From now to the end of the turn, Kablamos eliminate nobody; one that
            # has already fired stands (never retroactive).
            s["marquis"] = True
        elif action.bullet == LIGHTS_OUT:
            other = action.other
            if (
                other is None
                or other == action.seat
                or not s["players"][self._check_seat(s, other)]["alive"]
            ):
                raise RuleError(
                    _("Lights Out swaps revolvers with another player still in the game.")
                )
            mine, theirs = revolver_of(s, action.seat), revolver_of(s, other)
            if mine is None or theirs is None:
                raise RuleError(_("Both players must hold a revolver."))
            # The revolvers change hands with what is delayed on them.
            s["revolvers"][mine]["owner"], s["revolvers"][theirs]["owner"] = other, action.seat
            for entry in s["queue"]:
                if entry["status"] == "pending" and entry["revolver"] in (mine, theirs):
                    entry["owner"] = s["revolvers"][entry["revolver"]]["owner"]
            event["other"] = other
        elif action.other is not None:
            event["other"] = action.other
        events.append(event)

    def _clear_delayed(self, s: State, action: ClearDelayed, events: list[Event]) -> None:
        holder = (
            s["revolvers"][self._check_revolver(s, action.index)]
            if action.place == "revolver"
            else s["players"][self._check_seat(s, action.index)]
        )
        if action.bullet not in holder["delayed"]:
            raise RuleError(_("That delayed effect is not there."))
        holder["delayed"].remove(action.bullet)
        events.append({"kind": "delayed_done", **action.to_payload()})

    def _next(self, s: State, action: Next, events: list[Event]) -> None:
        if s["phase"] == "replace":
            s["phase"] = "reload"
            events.append({"kind": "replaced"})
        elif s["phase"] == "reload":
            events.append({"kind": "reloaded"})
            self._new_turn(s, events)
        else:
            raise RuleError(_("That is not what the turn is waiting for now."))

    def _eliminate(self, s: State, action: Eliminate, events: list[Event]) -> None:
        if not s["players"][self._check_seat(s, action.seat)]["alive"]:
            raise RuleError(_("That player is out of the game."))
        self._kill(s, action.seat, events)
        if s["phase"] == "resolve":
            self._skip_the_dead(s, events)
        else:
            self._ended(s, events)

    # -- eliminations and the end

    def _kill(self, s: State, seat: int, events: list[Event], *, said: bool = False) -> None:
        """``said``: the event that killed them says so already (a Kablamo)."""
        player = s["players"][seat]
        player["alive"] = False
        player["out_turn"] = s["turn"]
        player["delayed"] = []  # what waited in front of them goes with them (A-K18)
        if not said:
            events.append({"kind": "eliminated", "seat": seat})

    def _ended(self, s: State, events: list[Event]) -> bool:
        living = alive(s)
        if len(living) > 1:
            return False
        s["phase"] = "over"
        if living:
            s["winner"] = living[0]
            events.append({"kind": "winner", "seat": living[0]})
        else:
            s["nobody"] = True  # the last players died together: nobody wins
            events.append({"kind": "nobody_wins"})
        return True

    # -- checks

    @staticmethod
    def _check_seat(s: State, seat: int) -> int:
        if seat >= len(s["players"]):
            raise InvalidInput(_("There is no seat %(seat)s."), seat=seat)
        return seat

    @staticmethod
    def _check_revolver(s: State, revolver: int) -> int:
        if revolver >= len(s["revolvers"]):
            raise InvalidInput(_("There is no revolver %(n)s."), n=revolver)
        return revolver

    def _player(self, s: State, seat: int) -> dict[str, Any]:
        return s["players"][self._check_seat(s, seat)]


def _slug(name: str) -> str:
    return "-".join("".join(ch if ch.isalnum() else " " for ch in name.casefold()).split())


ENGINE: Engine = KablamoEngine()
