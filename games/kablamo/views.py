"""Kablamo on the web: set-up, the revolvers and who holds them, the turn's phase with
its reminder, the reveal, the resolution order, the delayed effects, the history."""

from __future__ import annotations

import zlib
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.kablamo import rules
from games.kablamo.game import GAME
from games.presenter import Presenter, Setup, Story

REMINDERS = {
    "load": gettext_lazy(
        "Each player draws 8 bullets, loads 6 face down in any order and keeps 2 as the "
        "reserve. Tap when you have loaded: then nobody may change their load."
    ),
    "rotate": gettext_lazy("Everyone turns their cylinder one chamber clockwise."),
    "reveal": gettext_lazy("Flip the bullet under each hammer and enter what came up."),
    "resolve": gettext_lazy(
        "Live bullets first, then by printed number, lowest first. The revolver's holder "
        "assigns each bullet; the player it is assigned to applies it."
    ),
    "replace": gettext_lazy(
        "Each player draws from the bag one bullet per empty chamber, into the reserve; "
        "then the live bullets used this turn go back into the bag."
    ),
    "reload": gettext_lazy(
        "Fill your empty chambers from your reserve. Only you touch your safe position."
    ),
}
PHASE_NAMES = {
    "load": gettext_lazy("Loading"),
    "rotate": gettext_lazy("Rotate"),
    "reveal": gettext_lazy("Reveal"),
    "resolve": gettext_lazy("Resolve"),
    "replace": gettext_lazy("Replace"),
    "reload": gettext_lazy("Reload"),
    "over": gettext_lazy("Game over"),
}
STATUS = {
    "pending": gettext_lazy("waiting"),
    "assigned": gettext_lazy("assigned"),
    "done": gettext_lazy("done"),
    "delayed": gettext_lazy("delayed"),
    "misfired": gettext_lazy("misfired"),
    "inactive": gettext_lazy("no longer active"),
}


def bullet_label(state: dict[str, Any], result: str, bullet: str, number: int | None) -> str:
    """ "Kablamo", "Click", "empty", or a bullet's name with its printed number."""
    if result == "kablamo":
        return "Kablamo"
    if result == "click":
        return "Click"
    if result == rules.EMPTY:
        return str(_("empty chamber"))
    name = state["bullets"].get(bullet, {}).get("name", bullet)
    return f"{name} ({number})" if number is not None else name


class KablamoPresenter:
    slug = GAME.slug
    name = GAME.name
    players = GAME.players
    board_template = "kablamo/board.html"
    setup_template = "kablamo/setup.html"
    asks_edit_policy = True
    field_labels = {
        "name": gettext_lazy("name"),
        "number": gettext_lazy("printed number"),
        "kind": gettext_lazy("type"),
        "delayed": gettext_lazy("where it waits"),
        "revolver": gettext_lazy("revolver"),
        "result": gettext_lazy("what came up"),
        "bullet": gettext_lazy("bullet"),
        "target": gettext_lazy("player"),
        "outcome": gettext_lazy("what happened"),
        "place": gettext_lazy("where it waits"),
        "seat": gettext_lazy("player"),
        "other": gettext_lazy("other player"),
        "variant": gettext_lazy("variant"),
    }

    # ------------------------------------------------------------ set-up

    def setup_context(self, query: QueryDict) -> dict[str, Any]:
        return {"presenter": self, "seats": range(rules.MAX_SEATS)}

    def parse_setup(self, post: QueryDict) -> Setup:
        names = [post.get(f"name_{n}", "").strip() for n in range(rules.MAX_SEATS)]
        names = [name for name in names if name]
        return Setup(
            names=names,
            options={
                "variant": post.get("variant", "standard"),
                "mulligan": post.get("mulligan") == "on",
            },
            host_seat=0 if post.get("sit", "on") == "on" and names else None,
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
        names = {seat.index: seat.name for seat in seats}
        phase = view["phase"]
        firing = rules.firing(view) if phase in ("rotate", "reveal") else []
        revolvers = []
        for revolver in view["revolvers"]:
            shot = view["shot"].get(str(revolver["id"]))
            revolvers.append(
                {
                    "id": revolver["id"],
                    "number": revolver["id"] + 1,
                    "holder": names.get(revolver["owner"], ""),
                    "holder_alive": view["players"][revolver["owner"]]["alive"],
                    "delayed": [self._delayed(view, b) for b in revolver["delayed"]],
                    "anticlockwise": phase == "rotate"
                    and revolver["id"] in firing
                    and rules.CYLINDER in revolver["delayed"],
                    "fires": revolver["id"] in firing,
                    "owes": revolver["id"] in view["owed"],
                    "shot": bullet_label(view, shot["result"], shot["bullet"], shot["number"])
                    if shot
                    else None,
                }
            )
        players = [
            {
                "seat": seat,
                "name": names.get(seat, player["name"]),
                "alive": player["alive"],
                "loaded": player["loaded"],
                "delayed": [self._delayed(view, b) for b in player["delayed"]],
                "revolver": (rules.revolver_of(view, seat) or 0) + 1,
                # Replace: one bullet per chamber emptied, as far as the app saw shots.
                "draws": view["emptied"].get(str(rules.revolver_of(view, seat)), 0),
            }
            for seat, player in enumerate(view["players"])
        ]
        entry = rules.head(view) if phase == "resolve" else None
        queue = [
            {
                "label": bullet_label(view, e["result"], e["bullet"], e["number"]),
                "revolver": e["revolver"] + 1,
                "holder": names.get(e["owner"], ""),
                "status": STATUS.get(e["status"], e["status"]),
                "target": names.get(e["target"]) if e["target"] is not None else None,
                "current": e is entry,
            }
            for e in view["queue"]
        ]
        living = [(s, names.get(s, "")) for s in rules.alive(view)]
        bullets = sorted(
            (
                {"slug": slug, "name": b["name"], "number": b["number"], "kind": b["kind"]}
                for slug, b in view["bullets"].items()
            ),
            key=lambda b: (b["number"] is None, b["number"] or 0, b["name"]),
        )
        return {
            "phase": phase,
            "phase_name": PHASE_NAMES.get(phase, phase),
            "reminder": _("Only the revolvers that fire again turn: revolver %(list)s.")
            % {"list": ", ".join(str(r + 1) for r in view["repeat"])}
            if phase == "rotate" and view["repeat"]
            else REMINDERS.get(phase, ""),
            "turn": view["turn"],
            "repeat": bool(view["repeat"]),
            "marquis": view["marquis"],
            "revolvers": revolvers,
            "players": players,
            "queue": queue,
            "head": {
                "assigned": entry["status"] == "assigned",
                "label": bullet_label(view, entry["result"], entry["bullet"], entry["number"]),
                "holder": names.get(entry["owner"], ""),
                "target": names.get(entry["target"]) if entry["target"] is not None else None,
            }
            if entry
            else None,
            "living": living,
            "to_load": [
                (s, names.get(s, "")) for s in rules.alive(view) if not view["players"][s]["loaded"]
            ],
            "to_reveal": [r for r in revolvers if r["fires"] and r["shot"] is None]
            if phase == "reveal"
            else [],
            # The reveal forms are kept while filled in, unless the list they offer changed.
            "list_key": zlib.crc32(
                "|".join(f"{b['slug']}:{b['number']}" for b in bullets).encode()
            ),
            "owed": [r + 1 for r in view["owed"]],
            "repeating": [r + 1 for r in view["repeat"]],
            "bullets": [b for b in bullets if b["kind"] == "action"],
            "fast_bullets": [b for b in bullets if b["kind"] == "high-velocity"],
            "hardcore": view["options"]["variant"] == "hardcore",
            "can_edit": can_edit,
            "over": phase == "over",
            "winner": names.get(view["winner"]) if view["winner"] is not None else None,
            "nobody": view["nobody"],
            "kinds": [("action", _("action")), ("high-velocity", _("high-velocity"))],
            "places": [
                ("revolver", _("It waits on the revolver")),
                ("player", _("It waits in front of the player")),
            ],
        }

    @staticmethod
    def _delayed(view: dict[str, Any], slug: str) -> dict[str, str]:
        return {"slug": slug, "name": view["bullets"].get(slug, {}).get("name", slug)}

    def story(
        self, log: list[list[dict[str, Any]]], state: dict[str, Any], names: list[str]
    ) -> Story:
        """The standings say it all for now: no figures of their own yet."""
        return Story()

    def localise_params(self, params: dict[str, Any]) -> dict[str, Any]:
        return dict(params)

    # ------------------------------------------------------------ history

    def history_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """The players' names and the table's bullets' names."""
        return {
            "players": [{"name": p["name"]} for p in state["players"]],
            "bullets": {
                slug: {"name": bullet["name"]}
                for slug, bullet in state["bullets"].items()
                if "name" in bullet
            },
        }

    def describe(
        self, event: dict[str, Any], state: dict[str, Any], names: dict | None = None
    ) -> str:
        names = names or {s: p["name"] for s, p in enumerate(state["players"])}
        kind = event.get("kind")

        def who(seat: Any) -> str:
            return str(names.get(seat, "?"))

        def bullet(slug: str) -> str:
            return state["bullets"].get(slug, {}).get("name", slug)

        simple = {
            "loaded": _("%(who)s has loaded."),
            "kablamo": _("Kablamo! %(who)s is out."),
            "click": _("Click: %(who)s carries on."),
            "marquis_saves": _("Kablamo, but the Marquis of Queensbury Rules save %(who)s."),
            "eliminated": _("%(who)s is eliminated."),
            "winner": _("%(who)s is the last one standing and wins!"),
        }
        if kind in simple:
            said = simple[kind] % {"who": who(event.get("seat"))}
            if "revolver" in event:  # a live bullet resolved: whose (older logs: none)
                return _("Revolver %(n)s: %(what)s") % {"n": event["revolver"] + 1, "what": said}
            return said
        if kind == "locked":
            return _("Everyone has loaded: the loads are locked.")
        if kind == "turn":
            return _("Turn %(n)s begins.") % {"n": event["turn"]}
        if kind == "rotated":
            if event["anticlockwise"]:
                return _("Cylinders turned; anticlockwise: revolver %(list)s.") % {
                    "list": ", ".join(str(r + 1) for r in event["anticlockwise"])
                }
            return _("Cylinders turned.")
        if kind == "revealed":
            return _("Revolver %(n)s fired: %(what)s.") % {
                "n": event["revolver"] + 1,
                "what": bullet_label(state, event["result"], event["bullet"], event["number"]),
            }
        if kind == "order":
            return ""  # the order is on the board
        if kind == "assigned":
            return _("%(bullet)s from revolver %(n)s goes to %(who)s.") % {
                "bullet": bullet(event["bullet"]),
                "n": event["revolver"] + 1,
                "who": who(event["target"]),
            }
        if kind == "settled":
            text: str = {
                "done": _("%(bullet)s: done."),
                "misfired": _("%(bullet)s misfires."),
                "delayed": _("%(bullet)s waits on the revolver.")
                if event.get("place") == "revolver"
                else _("%(bullet)s waits in front of %(who)s."),
            }[event["outcome"]]
            return text % {"bullet": bullet(event["bullet"]), "who": who(event["target"])}
        if kind == "inactive":
            return _("Revolver %(n)s's bullet is no longer active: its holder is out.") % {
                "n": event["revolver"] + 1
            }
        if kind == "extra_shot":
            return _("Revolver %(n)s will fire again this turn.") % {"n": event["revolver"] + 1}
        if kind == "repeat":
            return _("Repeat: revolver %(list)s fires again.") % {
                "list": ", ".join(str(r + 1) for r in event["revolvers"])
            }
        if kind == "played":
            if "other" in event:
                return _("%(who)s plays %(bullet)s on %(other)s.") % {
                    "who": who(event["seat"]),
                    "bullet": bullet(event["bullet"]),
                    "other": who(event["other"]),
                }
            return _("%(who)s plays %(bullet)s.") % {
                "who": who(event["seat"]),
                "bullet": bullet(event["bullet"]),
            }
        if kind == "delayed_done":
            return _("%(bullet)s has done its work.") % {"bullet": bullet(event["bullet"])}
        if kind == "bullet_added":
            return _("%(bullet)s, number %(n)s, is on the table's list.") % {
                "bullet": bullet(event["bullet"]),
                "n": event["number"],
            }
        if kind == "nobody_wins":
            return _("The last players fell together: nobody wins.")
        if kind == "replaced":
            return _("Everyone has drawn their bullets.")
        if kind == "reloaded":
            return _("Everyone has reloaded.")
        return ""


PRESENTER: Presenter = KablamoPresenter()
