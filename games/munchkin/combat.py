"""Munchkin Bites! combat: who fights, the monsters and their enhancers, the totals,
the kill, and running away one monster at a time.

``state["combat"]`` is ``None`` or a dict (see ``docs/rules/munchkin.md``)::

    {
      "fighter": 0, "helper": 2 | None,
      "stage": "fighting" | "running",
      "monsters": [{"id": 1, "name": "...", "level": 8, "levels": 1, "escape": 0,
                    "enhancers": [{"name": "...", "value": 5}], "twin_of": None | 1}],
      "bonuses": {"players": [{"name": "...", "value": 3}], "monsters": [...]},
      "run_bonus": {"fighter": 0, "helper": 0},
      "runners": [0, 2],          # set when the players lose
      "runs": [{"seat": 0, "monster": 1, "mode": "roll", "roll": 4,
                "modifier": 1, "total": 5, "escaped": True}],
      "next_id": 2,
    }

The ``apply_*`` functions change a state ``apply`` has already copied and return
events. The rest only read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.errors import RuleError
from games.engine.errors import gettext_noop as _
from games.engine.protocol import Event, State
from games.engine.rng import SeededRandom
from games.munchkin.actions import (
    AddMonster,
    Bonus,
    Enhance,
    EvilTwin,
    Fight,
    Helper,
    MonsterSpec,
    RemoveMonster,
    Resolve,
    Run,
    RunBonus,
)
from games.munchkin.character import (
    MAX_LEVEL,
    change_level,
    label,
    player_at,
    strength,
)

__all__ = [
    "ESCAPE_ON",
    "MAX_RUN_BONUS",
    "combat_totals",
    "monster_level",
    "pending_runs",
    "roll_die",
]

ESCAPE_ON = 5  # a run-away roll (with modifiers) of 5 or more escapes
MAX_RUN_BONUS = 10
MAX_MONSTERS = 12


# --------------------------------------------------------------------------
# Reading a combat
# --------------------------------------------------------------------------


def roll_die(state: State) -> int:
    """Roll the table's six-sided die with the state's seeded generator."""
    rng = SeededRandom.from_state(state["rng"])
    value = rng.randint(1, 6)
    state["rng"] = rng.to_state()
    return value


def monster_level(monster: Mapping[str, Any]) -> int:
    """Printed level plus enhancers; no card takes a monster below level 1."""
    return max(1, int(monster["level"]) + sum(int(e["value"]) for e in monster["enhancers"]))


def _twin_group(monster: Mapping[str, Any]) -> int:
    """Monsters with the same group number are an original and its Evil Twins."""
    return int(monster["twin_of"] or monster["id"])


def combat_totals(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The two sides of the current fight, and who is winning right now.

    Players win only when strictly ahead: a tie goes to the monsters.
    """
    combat = state["combat"]
    if combat is None:
        return None
    players = state["players"]
    fighter = strength(players[combat["fighter"]])
    helper = strength(players[combat["helper"]]) if combat["helper"] is not None else 0
    player_bonus = sum(b["value"] for b in combat["bonuses"]["players"])
    levels = [{"id": m["id"], "level": monster_level(m)} for m in combat["monsters"]]
    monster_bonus = sum(b["value"] for b in combat["bonuses"]["monsters"])
    side_players = fighter + helper + player_bonus
    side_monsters = sum(m["level"] for m in levels) + monster_bonus
    return {
        "fighter": fighter,
        "helper": helper,
        "player_bonus": player_bonus,
        "players": side_players,
        "monster_levels": levels,
        "monster_bonus": monster_bonus,
        "monsters": side_monsters,
        "winning": "players" if side_players > side_monsters else "monsters",
        "margin": side_players - side_monsters,
        "levels_at_stake": sum(m["levels"] for m in combat["monsters"]),
    }


def pending_runs(state: Mapping[str, Any]) -> list[dict[str, int]]:
    """Run-away rolls still owed: one per running player per monster."""
    combat = state["combat"]
    if combat is None or combat["stage"] != "running":
        return []
    done = {(r["seat"], r["monster"]) for r in combat["runs"]}
    return [
        {"seat": seat, "monster": m["id"]}
        for seat in combat["runners"]
        for m in combat["monsters"]
        if (seat, m["id"]) not in done
    ]


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------


def _combat(state: State) -> dict[str, Any]:
    if state["combat"] is None:
        raise RuleError(_("There is no fight going on."))
    return state["combat"]


def _fighting(state: State) -> dict[str, Any]:
    combat = _combat(state)
    if combat["stage"] != "fighting":
        raise RuleError(_("The fight is decided: the players are running away now."))
    return combat


def _monster(combat: Mapping[str, Any], monster_id: int) -> dict[str, Any]:
    for monster in combat["monsters"]:
        if monster["id"] == monster_id:
            return monster
    raise RuleError(_("There is no monster number %(number)s in this fight."), number=monster_id)


def _role(combat: Mapping[str, Any], seat: int) -> str | None:
    if seat == combat["fighter"]:
        return "fighter"
    if seat == combat["helper"]:
        return "helper"
    return None


def _new_monster(combat: dict[str, Any], spec: MonsterSpec) -> dict[str, Any]:
    if len(combat["monsters"]) >= MAX_MONSTERS:
        raise RuleError(_("A fight can hold at most %(count)s monsters."), count=MAX_MONSTERS)
    monster = {
        "id": combat["next_id"],
        "name": spec.name,
        "level": spec.level,
        "levels": spec.levels,
        "escape": spec.escape,
        "enhancers": [],
        "twin_of": None,
    }
    combat["next_id"] += 1
    combat["monsters"].append(monster)
    return monster


def _close(state: State, result: str) -> Event:
    """End the fight: keep it as ``last_combat`` with its ``result``."""
    combat = state["combat"]
    state["combat"] = None
    combat["result"] = result
    state["last_combat"] = combat
    turn = state["turn"]
    if combat["fighter"] == turn["seat"]:
        turn["met"] = result
    return {
        "type": "combat_end",
        "result": result,
        "fighter": combat["fighter"],
        "helper": combat["helper"],
        "caught": [
            {"seat": r["seat"], "monster": r["monster"], "name": r.get("name", "")}
            for r in combat["runs"]
            if not r["escaped"]
        ],
    }


# --------------------------------------------------------------------------
# Applying combat actions
# --------------------------------------------------------------------------


def apply_fight(state: State, action: Fight) -> list[Event]:
    if state["combat"] is not None:
        raise RuleError(_("A fight is already going on: finish it first."))
    player_at(state, action.seat)
    combat: dict[str, Any] = {
        "fighter": action.seat,
        "helper": None,
        "stage": "fighting",
        "monsters": [],
        "bonuses": {"players": [], "monsters": []},
        "run_bonus": {"fighter": 0, "helper": 0},
        "runners": [],
        "runs": [],
        "next_id": 1,
    }
    state["combat"] = combat
    monster = _new_monster(combat, action.monster)
    if action.seat == state["turn"]["seat"]:
        # The turn's own monster, and the phase it was met in: behind the door it
        # skips "look for trouble"; met while looking for trouble, it does not.
        state["turn"]["met"] = "fighting"
        state["turn"]["met_in"] = state["turn"]["phase"]
    return [{"type": "fight", "seat": action.seat, "monster": dict(monster)}]


def apply_add_monster(state: State, action: AddMonster) -> list[Event]:
    combat = _fighting(state)
    monster = _new_monster(combat, action.monster)
    return [{"type": "monster", "monster": dict(monster), "wandering": action.wandering}]


def apply_evil_twin(state: State, action: EvilTwin) -> list[Event]:
    combat = _fighting(state)
    original = _monster(combat, action.monster)
    twin = _new_monster(
        combat,
        MonsterSpec(original["name"], original["level"], original["levels"], original["escape"]),
    )
    twin["enhancers"] = [dict(e) for e in original["enhancers"]]
    twin["twin_of"] = _twin_group(original)
    return [{"type": "twin", "monster": twin["id"], "of": original["id"]}]


def apply_enhance(state: State, action: Enhance) -> list[Event]:
    combat = _fighting(state)
    group = _twin_group(_monster(combat, action.monster))
    touched = []
    for monster in combat["monsters"]:
        if _twin_group(monster) == group:
            monster["enhancers"].append({"name": action.name, "value": action.value})
            touched.append(monster["id"])
    return [{"type": "enhancer", "monsters": touched, "name": action.name, "value": action.value}]


def apply_remove_monster(state: State, action: RemoveMonster) -> list[Event]:
    combat = _fighting(state)
    monster = _monster(combat, action.monster)
    combat["monsters"].remove(monster)
    return [{"type": "monster_removed", "monster": monster["id"], "name": monster["name"]}]


def apply_bonus(state: State, action: Bonus) -> list[Event]:
    combat = _fighting(state)
    combat["bonuses"][action.side].append({"name": action.name, "value": action.value})
    return [{"type": "bonus", "side": action.side, "name": action.name, "value": action.value}]


def apply_helper(state: State, action: Helper) -> list[Event]:
    combat = _fighting(state)
    previous = combat["helper"]
    if action.seat is None:
        if previous is None:
            raise RuleError(_("Nobody is helping in this fight."))
    else:
        helper = player_at(state, action.seat)
        if action.seat == combat["fighter"]:
            raise RuleError(_("%(player)s cannot help in their own fight."), player=label(helper))
        if action.seat == previous:
            raise RuleError(_("%(player)s is already helping."), player=label(helper))
    combat["helper"] = action.seat
    combat["run_bonus"]["helper"] = 0
    return [{"type": "helper", "seat": action.seat, "previous": previous}]


def apply_run_bonus(state: State, action: RunBonus) -> list[Event]:
    combat = _combat(state)
    player = player_at(state, action.seat)
    role = _role(combat, action.seat)
    if role is None:
        raise RuleError(_("%(player)s is not in this fight."), player=label(player))
    before = combat["run_bonus"][role]
    after = before + action.delta
    if abs(after) > MAX_RUN_BONUS:
        raise RuleError(
            _("A run-away modifier must stay between -%(max)s and +%(max)s."), max=MAX_RUN_BONUS
        )
    combat["run_bonus"][role] = after
    return [{"type": "run_bonus", "seat": action.seat, "from": before, "to": after}]


def apply_resolve(state: State, action: Resolve) -> list[Event]:
    combat = _fighting(state)
    if not combat["monsters"]:
        raise RuleError(_("No monster is left in this fight: call it off instead."))
    if action.helper_levels and combat["helper"] is None:
        raise RuleError(_("Nobody is helping, so no helper can gain levels."))
    totals = combat_totals(state)
    assert totals is not None
    fighter, helper = combat["fighter"], combat["helper"]
    outcome = {
        "fighter": fighter,
        "helper": helper,
        "players": totals["players"],
        "monsters": totals["monsters"],
    }
    if totals["winning"] != "players":
        combat["stage"] = "running"
        combat["runners"] = [fighter] if helper is None else [fighter, helper]
        return [{"type": "combat_lost", **outcome}]

    events: list[Event] = [{"type": "combat_won", **outcome, "levels": totals["levels_at_stake"]}]
    winners: list[int] = []
    gains = [(fighter, totals["levels_at_stake"], "kill")]
    if helper is not None and action.helper_levels:
        gains.append((helper, action.helper_levels, "helper"))
    for seat, gain, why in gains:
        before = state["players"][seat]["level"]
        events.extend(change_level(state, seat, before + gain, why))
        if state["players"][seat]["level"] >= MAX_LEVEL:
            winners.append(seat)
    events.append(_close(state, "won"))
    if winners:
        state["winners"] = sorted(winners)
        state["over"] = True
        events.append({"type": "game_over", "winners": state["winners"]})
    return events


def apply_run(state: State, action: Run) -> list[Event]:
    combat = _combat(state)
    player = player_at(state, action.seat)
    if combat["stage"] != "running":
        raise RuleError(_("Nobody runs away before the fight is decided."))
    if action.seat not in combat["runners"]:
        raise RuleError(_("%(player)s is not running from this fight."), player=label(player))
    owed = [p["monster"] for p in pending_runs(state) if p["seat"] == action.seat]
    if action.monster is not None:
        _monster(combat, action.monster)
        if action.monster not in owed:
            raise RuleError(
                _("%(player)s has already run from monster number %(number)s."),
                player=label(player),
                number=action.monster,
            )
        owed = [action.monster]
    if not owed:
        raise RuleError(_("%(player)s has nothing left to run from."), player=label(player))
    modifier = combat["run_bonus"][_role(combat, action.seat) or "fighter"]
    events: list[Event] = []
    for monster_id in owed:
        monster = _monster(combat, monster_id)
        record: dict[str, Any] = {
            "seat": action.seat,
            "monster": monster_id,
            "name": monster["name"],
            "mode": action.mode,
            "roll": None,
            "modifier": modifier + monster["escape"],
            "total": None,
            "escaped": action.mode == "escape",
        }
        if action.mode == "roll":
            record["roll"] = roll_die(state)
            record["total"] = record["roll"] + record["modifier"]
            record["escaped"] = record["total"] >= ESCAPE_ON
            state["last_roll"] = {"seat": action.seat, "value": record["roll"]}
        combat["runs"].append(record)
        events.append({"type": "run", **record})
    if not pending_runs(state):
        events.append(_close(state, "fled"))
    return events


def apply_cancel(state: State) -> list[Event]:
    _combat(state)
    return [_close(state, "cancelled")]


def on_death(state: State, seat: int) -> list[Event]:
    """A character died: it leaves the fight (a fighter's fight ends there)."""
    combat = state["combat"]
    if combat is None or _role(combat, seat) is None:
        return []
    if combat["stage"] == "fighting":
        if seat == combat["fighter"]:
            return [_close(state, "cancelled")]
        combat["helper"] = None
        combat["run_bonus"]["helper"] = 0
        return [{"type": "helper", "seat": None, "previous": seat}]
    if seat in combat["runners"]:
        combat["runners"].remove(seat)
    if not pending_runs(state):
        return [_close(state, "fled")]
    return []
