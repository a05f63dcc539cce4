"""Munchkin Bites! on the web: set-up form, the table board, the fight, history sentences.

The engine (``rules.py`` and friends) stays pure; this module is the only place that
turns its state and events into words, in the reader's language.

The board is several live fragments: the turn guide and die (``#board``), the fight
(``#mk-fight``) and one card per player (``#mk-player-N``). The fight and the player
cards carry a ``data-swap-key`` that fingerprints everything they show, so a live
update leaves them alone unless they changed: a monster name being typed on one
phone survives another phone tapping a level elsewhere. Every action posted from
one of these fragments changes what it shows, so its key changes and the form in
it is replaced (with a fresh one-time key) after each use.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.http import QueryDict
from django.utils.translation import get_language, gettext, gettext_lazy, gettext_noop, ngettext
from django.utils.translation import gettext as _

from games.engine.errors import InvalidInput
from games.munchkin import rules
from games.munchkin.game import GAME
from games.presenter import SEAT_COLOURS, Presenter, Setup, Story

PHASE_LABELS = {
    "kick_door": gettext_lazy("Kick open the door"),
    "look_for_trouble": gettext_lazy("Look for trouble"),
    "loot_room": gettext_lazy("Loot the room"),
    "charity": gettext_lazy("Charity"),
}
SEX_LABELS = {"male": gettext_lazy("male"), "female": gettext_lazy("female")}
# Field names in engine messages ("“gold” must be a whole number."), in our words.
FIELD_LABELS = {
    "seat": gettext_lazy("player"),
    "sex": gettext_lazy("sex"),
    "race": gettext_lazy("race"),
    "name": gettext_lazy("name"),
    "rank": gettext_lazy("rank"),
    "index": gettext_lazy("power"),
    "gold": gettext_lazy("gold"),
    "monster": gettext_lazy("monster"),
    "level": gettext_lazy("level"),
    "levels": gettext_lazy("levels for the kill"),
    "escape": gettext_lazy("run-away modifier"),
    "value": gettext_lazy("value"),
    "side": gettext_lazy("side"),
    "helper_levels": gettext_lazy("levels for the helper"),
    "mode": gettext_lazy("way of running"),
    "first_player": gettext_lazy("first player"),
    "host_seat": gettext_lazy("this phone plays as"),
    "sexes": gettext_lazy("sex"),
    "delta": gettext_lazy("change"),
}


def signed(value: int) -> str:
    """+3, -2, 0: how bonuses are printed on the cards (and on the board: plain
    ASCII signs keep a live part one byte a character: docs/architecture.md)."""
    return f"{value:+d}" if value else "0"


# Values offered by the enhancer and one-shot bonus menus, and the run-away modifier.
ENHANCER_VALUES = [(v, signed(v)) for v in [*range(10, 0, -1), *range(-1, -11, -1)]]
ESCAPE_VALUES = [(v, signed(v)) for v in range(6, -7, -1)]


def race_name(slug: str) -> str:
    return gettext(rules.RACE_NAMES[slug]) if slug in rules.RACE_NAMES else slug


def _fingerprint(*parts: Any) -> str:
    """A short key naming everything a keyed fragment shows (see the module docstring)."""
    raw = json.dumps([get_language(), *parts], sort_keys=True, default=str)
    return hashlib.blake2s(raw.encode(), digest_size=10).hexdigest()


class MunchkinPresenter:
    slug = GAME.slug
    name = gettext_lazy(GAME.name)
    players = GAME.players
    field_labels = FIELD_LABELS
    board_template = "munchkin/board.html"
    setup_template = "munchkin/setup.html"
    asks_edit_policy = False  # anyone at the table taps any row

    # ------------------------------------------------------------ set-up

    def setup_context(self, query: QueryDict) -> dict[str, Any]:
        return {
            "presenter": self,
            "rows": [{"index": i, "number": i + 1} for i in range(rules.MAX_SEATS)],
            "required_rows": rules.MIN_SEATS,
            "sexes": list(SEX_LABELS.items()),
        }

    def parse_setup(self, post: QueryDict) -> Setup:
        """Named rows are the players, in order; empty rows are left out."""
        rows = []
        for index in range(rules.MAX_SEATS):
            name = " ".join(post.get(f"name_{index}", "").split())
            if name:
                rows.append((index, name, post.get(f"sex_{index}", "")))
        numbers = [index for index, _name, _sex in rows]
        names = {"first": "first_player", "host_seat": "host_seat"}

        def position(field: str) -> int | None:
            raw = post.get(field, "")
            if raw == "":
                return None
            try:
                row = int(raw)
            except ValueError:
                row = -1
            if not 0 <= row < rules.MAX_SEATS:
                raise InvalidInput(
                    gettext_noop("“%(field)s” is not a valid choice."), field=names[field]
                )
            if row not in numbers:
                raise InvalidInput(
                    gettext_noop("Player %(number)s has no name yet."), number=row + 1
                )
            return numbers.index(row)

        first = position("first") if len(rows) >= rules.MIN_SEATS else None
        return Setup(
            names=[name for _index, name, _sex in rows],
            options={
                "first_player": first or 0,
                "sexes": [sex or None for _index, _name, sex in rows],
            },
            host_seat=position("host_seat") if rows else None,
        )

    # ------------------------------------------------------------ board

    def context(
        self,
        session: Any,
        view: dict[str, Any],
        viewer: Any,
        seats: list[Any],
        can_edit: bool,
        last_events: list[dict[str, Any]],
    ) -> dict[str, Any]:
        seat_names = {seat.index: seat.name for seat in seats}
        names = [seat_names.get(i) or p["name"] for i, p in enumerate(view["players"])]
        over = bool(view["over"])
        editable = can_edit and not over
        turn = view["turn"]
        combat = view["combat"]
        fight = self._fight(view, names, editable) if combat else None
        players = [
            self._player(view, seat, names, editable) for seat in range(len(view["players"]))
        ]
        recipients = rules.charity_recipients(view, turn["seat"])
        outcome = rules.ENGINE.outcome(view)
        last = self._last_fight(view["last_combat"], names) if combat is None else None
        fighters = [
            {"seat": i, "name": n, "current": i == turn["seat"]} for i, n in enumerate(names)
        ]
        return {
            "players": players,
            "over": over,
            "editable": editable,
            "turn": {
                "number": turn["number"],
                "seat": turn["seat"],
                "name": names[turn["seat"]],
                "phase": turn["phase"],
                "phases": [
                    {
                        "slug": slug,
                        "label": PHASE_LABELS[slug],
                        "current": slug == turn["phase"],
                        "skipped": slug == "look_for_trouble"
                        and rules.skips_looking_for_trouble(turn),
                    }
                    for slug in rules.PHASES
                ],
                "phase_label": PHASE_LABELS[turn["phase"]],
                "reminder": gettext(rules.phase_reminder(view)),
                "can_advance": turn["phase"] != "charity",
                "fighting": combat is not None,
                "charity": [names[s] for s in recipients],
            },
            "last_roll": (
                {
                    "value": view["last_roll"]["value"],
                    "by": names[view["last_roll"]["seat"]]
                    if view["last_roll"]["seat"] is not None
                    else None,
                }
                if view["last_roll"]
                else None
            ),
            "fight": fight,
            "last_fight": last,
            "fighters": fighters,
            "enhancer_values": ENHANCER_VALUES,
            "escape_values": ESCAPE_VALUES,
            "fight_key": _fingerprint(
                combat, fight, last, names, turn["seat"], turn["phase"], editable
            ),
            "winners": [names[s] for s in outcome.winners] if outcome else [],
            "places": [
                [{"name": names[s], "level": outcome.scores.get(s, 0)} for s in place]
                for place in outcome.places
            ]
            if outcome
            else [],
        }

    def _player(
        self, view: dict[str, Any], seat: int, names: list[str], editable: bool
    ) -> dict[str, Any]:
        player = view["players"][seat]
        combat = view["combat"]
        role = None
        if combat is not None:
            role = (
                "fighter"
                if combat["fighter"] == seat
                else "helper"
                if combat["helper"] == seat
                else None
            )
        races = player["races"]
        room = len(races) < (2 if player["half_breed"] else 1)
        current = view["turn"]["seat"] == seat and not view["over"]
        card = {
            "seat": seat,
            "name": names[seat],
            "level": player["level"],
            "gear": player["gear"],
            "gear_text": signed(player["gear"]),
            "strength": rules.strength(player),
            "sex": player["sex"],
            "sex_label": SEX_LABELS.get(player["sex"]) if player["sex"] else None,
            "other_sex": "female" if player["sex"] == "male" else "male",
            "races": [{"slug": r, "name": race_name(r)} for r in races],
            "half_breed": player["half_breed"],
            "addable_races": [
                {"slug": r, "name": race_name(r)} for r in rules.RACES if r not in races
            ]
            if room
            else [],
            "can_half_breed": bool(races) and not player["half_breed"],
            "can_drop_half_breed": player["half_breed"] and len(races) < 2,
            "powers": [
                {"index": i, "name": p["name"], "rank": p["rank"]}
                for i, p in enumerate(player["powers"])
            ],
            "power_total": rules.power_total(player),
            "power_room": max(0, player["level"] - rules.power_total(player)),
            "deaths": player["deaths"],
            "current": current,
            "role": role,
            "can_sell": current and combat is None and player["level"] < rules.MAX_LEVEL - 1,
            "winner": seat in view["winners"],
        }
        card["key"] = _fingerprint(card, editable)
        return card

    def _monster_label(self, monster: dict[str, Any]) -> str:
        return monster["name"] or _("Monster")

    def _fight(self, view: dict[str, Any], names: list[str], editable: bool) -> dict[str, Any]:
        combat = view["combat"]
        totals = rules.combat_totals(view)
        assert totals is not None
        labels = {m["id"]: self._monster_label(m) for m in combat["monsters"]}
        monsters = [
            {
                "id": m["id"],
                "name": labels[m["id"]],
                "printed": m["level"],
                "level": rules.monster_level(m),
                "levels": m["levels"],
                "escape": m["escape"],
                "escape_text": signed(m["escape"]),
                "enhancers": [
                    {"name": e["name"], "value": signed(e["value"])} for e in m["enhancers"]
                ],
                "twin_of": m["twin_of"],
            }
            for m in combat["monsters"]
        ]
        helper = combat["helper"]
        margin = totals["margin"]
        runners = []
        if combat["stage"] == "running":
            owed: dict[int, list[int]] = {}
            for run in rules.pending_runs(view):
                owed.setdefault(run["seat"], []).append(run["monster"])
            for seat in combat["runners"]:
                role = "fighter" if seat == combat["fighter"] else "helper"
                runners.append(
                    {
                        "seat": seat,
                        "name": names[seat],
                        "bonus": combat["run_bonus"][role],
                        "bonus_text": signed(combat["run_bonus"][role]),
                        "owed": [{"id": i, "name": labels.get(i, "?")} for i in owed.get(seat, [])],
                        "runs": [
                            {
                                **run,
                                "monster_name": labels.get(run["monster"], "?"),
                                "modifier_text": signed(run["modifier"]),
                            }
                            for run in combat["runs"]
                            if run["seat"] == seat
                        ],
                    }
                )
        return {
            "stage": combat["stage"],
            "fighter": {"seat": combat["fighter"], "name": names[combat["fighter"]]},
            "helper": {"seat": helper, "name": names[helper]} if helper is not None else None,
            "helpers": [
                {"seat": i, "name": n, "current": i == helper}
                for i, n in enumerate(names)
                if i != combat["fighter"]
            ],
            "totals": totals,
            "fighter_level": view["players"][combat["fighter"]]["level"],
            "fighter_gear": signed(view["players"][combat["fighter"]]["gear"]),
            "helper_level": view["players"][helper]["level"] if helper is not None else None,
            "helper_gear": signed(view["players"][helper]["gear"]) if helper is not None else None,
            "player_bonus": signed(totals["player_bonus"]),
            "monster_bonus": signed(totals["monster_bonus"]),
            "players_winning": totals["winning"] == "players",
            "tie": margin == 0,
            "lead": abs(margin),
            "monsters": monsters,
            "bonuses": {
                side: [{"name": b["name"], "value": signed(b["value"])} for b in entries]
                for side, entries in combat["bonuses"].items()
            },
            "runners": runners,
        }

    def _last_fight(self, last: dict[str, Any] | None, names: list[str]) -> dict[str, Any] | None:
        if last is None:
            return None
        labels = {m["id"]: self._monster_label(m) for m in last["monsters"]}
        # How the fighter's own run-away rolls went: "ran from" only for the monsters
        # they got away from, "caught by" for the others.
        fighter_runs = [r for r in last["runs"] if r["seat"] == last["fighter"]]
        return {
            "result": last.get("result"),
            "fighter": names[last["fighter"]],
            "monsters": [labels[m["id"]] for m in last["monsters"]],
            "escaped": [labels.get(r["monster"], "?") for r in fighter_runs if r["escaped"]],
            "caught_by": [labels.get(r["monster"], "?") for r in fighter_runs if not r["escaped"]],
            "caught": [
                {"name": names[r["seat"]], "monster": labels.get(r["monster"], "?")}
                for r in last["runs"]
                if not r["escaped"]
            ],
        }

    # ------------------------------------------------------------ errors

    def story(
        self, log: list[list[dict[str, Any]]], state: dict[str, Any], names: list[str]
    ) -> Story:
        """Per player: levels gained, fights won and lost, deaths; levels over the game."""
        seats = range(len(state["players"]))
        gained = dict.fromkeys(seats, 0)
        won = dict.fromkeys(seats, 0)
        lost = dict.fromkeys(seats, 0)
        deaths = dict.fromkeys(seats, 0)
        level = {seat: 1 for seat in seats}
        series: dict[int, list[int]] = {seat: [1] for seat in seats}
        for events in log:
            moved = False
            for event in events:
                kind = event.get("type")
                if kind == "level" and "to" in event:
                    gained[event["seat"]] += max(0, event["to"] - event["from"])
                    level[event["seat"]] = event["to"]
                    moved = True
                elif kind == "combat_won":
                    won[event["fighter"]] += 1
                elif kind == "combat_lost":
                    lost[event["fighter"]] += 1
                elif kind == "death":
                    deaths[event["seat"]] += 1
            if moved:
                for seat in seats:
                    series[seat].append(level[seat])
        return Story(
            columns=(
                str(_("levels gained")),
                str(_("fights won")),
                str(_("fights lost")),
                str(_("deaths")),
            ),
            rows=tuple(
                (names[seat], (gained[seat], won[seat], lost[seat], deaths[seat])) for seat in seats
            ),
            score="level",
            series_title=str(_("Levels over the game")),
            series=tuple(
                (names[seat], SEAT_COLOURS[seat % len(SEAT_COLOURS)], tuple(series[seat]))
                for seat in seats
            ),
        )

    def localise_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """Race names come from the engine in English."""
        localised = dict(params)
        if isinstance(params.get("race"), str):
            english = {str(v): k for k, v in rules.RACE_NAMES.items()}
            localised["race"] = race_name(english.get(params["race"], params["race"]))
        return localised

    # ------------------------------------------------------------ history

    def history_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """The players' names."""
        return {"players": [{"name": p["name"]} for p in state.get("players", [])]}

    def describe(
        self, event: dict[str, Any], state: dict[str, Any], names: dict | None = None
    ) -> str:
        names = names or {}
        players = state.get("players", [])

        def who(seat: Any) -> str:
            if seat in names:
                return str(names[seat])
            if isinstance(seat, int) and 0 <= seat < len(players):
                return str(players[seat]["name"])
            return "?"

        kind = event.get("type")
        handler = getattr(self, f"_describe_{kind}", None)
        return handler(event, who) if handler is not None else ""

    def _describe_level(self, e: dict[str, Any], who: Any) -> str:
        values = {"player": who(e["seat"]), "level": e["to"]}
        if e["why"] == "kill":
            return _("%(player)s goes up to level %(level)s (killed a monster).") % values
        if e["why"] == "helper":
            return _("%(player)s goes up to level %(level)s (helped with the kill).") % values
        if e["why"] == "sell":
            return _("%(player)s goes up to level %(level)s (sold items).") % values
        if e["to"] < e["from"]:
            return _("%(player)s goes down to level %(level)s.") % values
        return _("%(player)s goes up to level %(level)s.") % values

    def _describe_gear(self, e: dict[str, Any], who: Any) -> str:
        return _("%(player)s: gear bonus %(now)s (was %(before)s).") % {
            "player": who(e["seat"]),
            "now": signed(e["to"]),
            "before": signed(e["from"]),
        }

    def _describe_sex(self, e: dict[str, Any], who: Any) -> str:
        if e["to"] == "female":
            return _("%(player)s is now female.") % {"player": who(e["seat"])}
        return _("%(player)s is now male.") % {"player": who(e["seat"])}

    def _describe_race(self, e: dict[str, Any], who: Any) -> str:
        values = {"player": who(e["seat"]), "race": race_name(e["race"])}
        if e["op"] == "add":
            return _("%(player)s becomes a %(race)s.") % values
        return _("%(player)s is no longer a %(race)s.") % values

    def _describe_half_breed(self, e: dict[str, Any], who: Any) -> str:
        if e["on"]:
            return _("%(player)s plays Half-Breed: room for a second race.") % {
                "player": who(e["seat"])
            }
        return _("%(player)s is no longer a Half-Breed.") % {"player": who(e["seat"])}

    def _describe_power(self, e: dict[str, Any], who: Any) -> str:
        values = {"player": who(e["seat"]), "power": e["name"], "rank": e["rank"]}
        if e["op"] == "add":
            return _("%(player)s takes the power %(power)s (rank %(rank)s).") % values
        if e["why"] == "level_loss":
            return (
                _(
                    "%(player)s loses the power %(power)s (rank %(rank)s): "
                    "too many ranks for the level."
                )
                % values
            )
        if e["why"] == "race_loss":
            return (
                _("%(player)s loses the power %(power)s (rank %(rank)s): no longer a Changeling.")
                % values
            )
        return _("%(player)s discards the power %(power)s (rank %(rank)s).") % values

    def _describe_sell(self, e: dict[str, Any], who: Any) -> str:
        text = ngettext(
            "%(player)s sells items worth %(gold)s gold for %(count)s level.",
            "%(player)s sells items worth %(gold)s gold for %(count)s levels.",
            e["levels"],
        ) % {"player": who(e["seat"]), "gold": e["gold"], "count": e["levels"]}
        if e["wasted"]:
            text += " " + _("%(gold)s gold is lost (no change is given).") % {"gold": e["wasted"]}
        return text

    def _describe_death(self, e: dict[str, Any], who: Any) -> str:
        if e["gear_lost"]:
            return _("%(player)s dies and loses a gear bonus of %(gear)s.") % {
                "player": who(e["seat"]),
                "gear": signed(e["gear_lost"]),
            }
        return _("%(player)s dies.") % {"player": who(e["seat"])}

    def _describe_roll(self, e: dict[str, Any], who: Any) -> str:
        if e["seat"] is None:
            return _("The die shows %(value)s.") % {"value": e["value"]}
        return _("%(player)s rolls the die: %(value)s.") % {
            "player": who(e["seat"]),
            "value": e["value"],
        }

    def _describe_phase(self, e: dict[str, Any], who: Any) -> str:
        return _("%(player)s moves on to the next phase: %(phase)s.") % {
            "player": who(e["seat"]),
            "phase": PHASE_LABELS.get(e["phase"], e["phase"]),
        }

    def _describe_turn(self, e: dict[str, Any], who: Any) -> str:
        return _("Turn %(number)s: now it is %(player)s's turn.") % {
            "number": e["number"],
            "player": who(e["seat"]),
        }

    def _describe_fight(self, e: dict[str, Any], who: Any) -> str:
        m = e["monster"]
        values = {"player": who(e["seat"]), "monster": self._monster_label(m), "level": m["level"]}
        if m["levels"] > 1:
            return _("%(player)s fights %(monster)s (level %(level)s, worth 2 levels).") % values
        return _("%(player)s fights %(monster)s (level %(level)s).") % values

    def _describe_monster(self, e: dict[str, Any], who: Any) -> str:
        m = e["monster"]
        values = {"monster": self._monster_label(m), "level": m["level"], "number": m["id"]}
        if e["wandering"]:
            return (
                _(
                    "A Wandering Monster joins the fight: %(monster)s, level %(level)s "
                    "(monster %(number)s)."
                )
                % values
            )
        return _("%(monster)s, level %(level)s, joins the fight (monster %(number)s).") % values

    def _describe_twin(self, e: dict[str, Any], who: Any) -> str:
        return _(
            "Evil Twin: monster %(number)s is a copy of monster %(of)s, enhancers and all."
        ) % {
            "number": e["monster"],
            "of": e["of"],
        }

    def _describe_enhancer(self, e: dict[str, Any], who: Any) -> str:
        numbers = ", ".join(str(n) for n in e["monsters"])
        values = {"numbers": numbers, "value": signed(e["value"]), "name": e["name"]}
        count = len(e["monsters"])
        if e["name"]:
            return (
                ngettext(
                    "Monster %(numbers)s gets %(value)s from %(name)s.",
                    "Monsters %(numbers)s (twins) get %(value)s from %(name)s.",
                    count,
                )
                % values
            )
        return (
            ngettext(
                "Monster %(numbers)s gets an enhancer: %(value)s.",
                "Monsters %(numbers)s (twins) get an enhancer: %(value)s.",
                count,
            )
            % values
        )

    def _describe_monster_removed(self, e: dict[str, Any], who: Any) -> str:
        return _("%(monster)s (monster %(number)s) leaves the fight: no levels for it.") % {
            "monster": e["name"] or _("Monster"),
            "number": e["monster"],
        }

    def _describe_bonus(self, e: dict[str, Any], who: Any) -> str:
        values = {"value": signed(e["value"]), "name": e["name"]}
        if e["side"] == "players":
            if e["name"]:
                return _("One-shot bonus for the players: %(value)s (%(name)s).") % values
            return _("One-shot bonus for the players: %(value)s.") % values
        if e["name"]:
            return _("One-shot bonus for the monsters: %(value)s (%(name)s).") % values
        return _("One-shot bonus for the monsters: %(value)s.") % values

    def _describe_helper(self, e: dict[str, Any], who: Any) -> str:
        if e["seat"] is None:
            return _("%(player)s stops helping.") % {"player": who(e["previous"])}
        if e["previous"] is not None:
            return _("%(player)s helps instead of %(previous)s.") % {
                "player": who(e["seat"]),
                "previous": who(e["previous"]),
            }
        return _("%(player)s joins the fight as helper.") % {"player": who(e["seat"])}

    def _describe_run_bonus(self, e: dict[str, Any], who: Any) -> str:
        return _("%(player)s: run-away modifier %(now)s.") % {
            "player": who(e["seat"]),
            "now": signed(e["to"]),
        }

    def _describe_combat_won(self, e: dict[str, Any], who: Any) -> str:
        return _("The players win, %(players)s against %(monsters)s.") % {
            "players": e["players"],
            "monsters": e["monsters"],
        }

    def _describe_combat_lost(self, e: dict[str, Any], who: Any) -> str:
        values = {"players": e["players"], "monsters": e["monsters"]}
        if e["players"] == e["monsters"]:
            return _("A tie at %(players)s goes to the monsters: time to run away!") % values
        return _("The monsters win, %(monsters)s against %(players)s: time to run away!") % values

    def _describe_run(self, e: dict[str, Any], who: Any) -> str:
        values = {
            "player": who(e["seat"]),
            "number": e.get("name") or e["monster"],  # the monster's name, when the event has it
            "roll": e["roll"],
            "total": e["total"],
        }
        if e["mode"] == "escape":
            return _("%(player)s gets away from monster %(number)s without rolling.") % values
        if e["mode"] == "caught":
            return _("%(player)s cannot get away from monster %(number)s.") % values
        if e["modifier"]:
            if e["escaped"]:
                return (
                    _(
                        "%(player)s rolls %(roll)s (%(total)s with modifiers) "
                        "and gets away from monster %(number)s."
                    )
                    % values
                )
            return (
                _(
                    "%(player)s rolls %(roll)s (%(total)s with modifiers) "
                    "and is caught by monster %(number)s."
                )
                % values
            )
        if e["escaped"]:
            return _("%(player)s rolls %(roll)s and gets away from monster %(number)s.") % values
        return _("%(player)s rolls %(roll)s and is caught by monster %(number)s.") % values

    def _describe_combat_end(self, e: dict[str, Any], who: Any) -> str:
        if e["result"] == "cancelled":
            return _("The fight is called off: nobody gains a level.")
        if e["result"] == "won":
            return _("The fight is over.")
        if not e["caught"]:
            return _("The fight is over: everybody got away.")
        caught = ", ".join(
            _("%(player)s by monster %(number)s")
            % {"player": who(c["seat"]), "number": c.get("name") or c["monster"]}
            for c in e["caught"]
        )
        return _("The fight is over. Bad Stuff for: %(caught)s.") % {"caught": caught}

    def _describe_game_over(self, e: dict[str, Any], who: Any) -> str:
        winners = " & ".join(who(s) for s in e["winners"])
        return ngettext(
            "%(players)s reaches level 10 and wins the game!",
            "%(players)s reach level 10 and win the game together!",
            len(e["winners"]),
        ) % {"players": winners}


PRESENTER: Presenter = MunchkinPresenter()
