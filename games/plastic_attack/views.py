"""Plastic Attack on the web: set-up, the armies, the battle, your move, the history."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import cards_of
from games.plastic_attack import bot, rules
from games.plastic_attack.cards import BANDS, RANKS, SPECIALS, rank_of
from games.plastic_attack.game import GAME
from games.presenter import Presenter, Setup, Story

TIMER_CHOICES = (0, 30, 60, 120)
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES = {
    "J": gettext_lazy("Jack"),
    "Q": gettext_lazy("Queen"),
    "K": gettext_lazy("King"),
    "A": gettext_lazy("Ace"),
}


#: The names the bot gives its figures (marked for translation in ``bot.py``): shown in
#: the reader's language, as a player's own names are shown as they typed them.
BOT_FIGURES = frozenset(name for name, _power, _actions in bot.ARMY)


def figure_name(name: str) -> str:
    """A figure's name as the reader sees it: the bot's in the reader's language."""
    return _(name) if name in BOT_FIGURES else name


def with_figures_named(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` (a state, a seat's view or the history's part of it) with its figures
    named as the reader sees them (:func:`figure_name`): the one place the board and
    the history read a figure's name from. The same object when no bot figure is in
    it (a table of people), else a copy: the state is never changed."""
    chars = view["characters"]
    if not any(c["name"] in BOT_FIGURES for c in chars):
        return view
    named = [
        {**c, "name": figure_name(c["name"])} if c["name"] in BOT_FIGURES else c for c in chars
    ]
    return {**view, "characters": named}


def special_names() -> dict[str, str]:
    """The special actions' names in the reader's language (from the catalog)."""
    return {card.slug: card.name for card in cards_of("plastic-attack") if card.slug in SPECIALS}


def special_text(slug: str) -> str:
    """What a special action does, in the reader's language (from the catalog)."""
    return next((c.text for c in cards_of("plastic-attack") if c.slug == slug), "")


def card_label(card: str) -> str:
    """ "QH" → "Q♥"; a bare rank (the table's deck) stays as it is."""
    rank = rank_of(card)
    suit = card[len(rank) :]
    return rank + SUITS.get(suit, "")


class PlasticAttackPresenter:
    slug = GAME.slug
    name = GAME.name
    players = GAME.players
    board_template = "plastic_attack/board.html"
    setup_template = "plastic_attack/setup.html"
    asks_edit_policy = False
    field_labels = {
        "name": gettext_lazy("name"),
        "power": gettext_lazy("Power"),
        "actions": gettext_lazy("special actions"),
        "characters": gettext_lazy("figures"),
        "character": gettext_lazy("figure"),
        "defender": gettext_lazy("defending player"),
        "card": gettext_lazy("card"),
        "target": gettext_lazy("figure"),
        "players": gettext_lazy("players"),
        "seat": gettext_lazy("player"),
        "hands": gettext_lazy("cards"),
        "luck": gettext_lazy("Luck"),
        "recovery_power": gettext_lazy("Recovery"),
    }

    # ------------------------------------------------------------ set-up

    def setup_context(self, query: QueryDict) -> dict[str, Any]:
        return {
            "presenter": self,
            "seats": range(rules.MAX_SEATS),
            "timer_choices": TIMER_CHOICES,
        }

    def parse_setup(self, post: QueryDict) -> Setup:
        names = [post.get(f"name_{n}", "").strip() for n in range(rules.MAX_SEATS)]
        bots = {n for n in range(rules.MAX_SEATS) if post.get(f"bot_{n}") == "on"}
        seats = [(n, name) for n, name in enumerate(names) if name or n in bots]
        online = post.get("mode", "table") == "online"
        try:
            seconds = int(post.get("turn_seconds", "0"))
        except ValueError:
            seconds = -1  # refused with a message by the service
        return Setup(
            names=[name or _("Bot") for _n, name in seats],
            options={
                "hands": "dealt" if online else "table",
                "fast_capture": post.get("fast_capture") == "on",
                "luck": post.get("luck", "current"),
                "recovery_power": post.get("recovery_power", "roll"),
            },
            host_seat=0 if post.get("sit", "on") == "on" and seats and 0 not in bots else None,
            mode="online" if online else "companion",
            turn_seconds=seconds if online else 0,
            bot_seats=tuple(i for i, (n, _name) in enumerate(seats) if n in bots and online),
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
        view = with_figures_named(view)  # everything below reads the figures' names from it
        me = viewer.seat
        names = {seat.index: seat.name for seat in seats}
        specials = special_names()
        chars = view["characters"]
        battle = view["battle"]
        phase = view["phase"]
        dealt = view["options"]["hands"] == "dealt"
        waiting = rules.waiting_for(view)
        my_move = can_edit and me is not None and (me in waiting or phase == "first")

        def figure(c: dict[str, Any]) -> dict[str, Any]:
            return {
                "id": c["id"],
                "name": c["name"],
                "power": c["power"],
                "start_power": c["start_power"],
                "actions": [(band, specials.get(c["actions"][band], "")) for band in BANDS],
                "shields": len(c["shields"]),
                "vulnerable": c["vulnerable"],
                "controlled": c["controlled"],
                "owner": names.get(c["owner"], ""),
            }

        armies = []
        for seat, player in enumerate(view["players"]):
            armies.append(
                {
                    "seat": seat,
                    "name": names.get(seat, player["name"]),
                    "me": seat == me,
                    "current": seat == view["current"] and phase not in ("setup", "first", "over"),
                    "ready": player["ready"],
                    "out": player["out"],
                    "figures": [figure(c) for c in chars if c["army"] == seat],
                    "captives": [figure(c) for c in chars if c["captured_by"] == seat],
                    "statuses": self._statuses(player),
                    "hand_size": view["hand_sizes"][seat] if dealt else None,
                }
            )
        hand = view["hands"][me] if dealt and me is not None and view["hands"][me] else []
        move = self._move(view, me, names, specials, dealt, hand) if my_move else None
        return {
            "phase": phase,
            "turn": view["turn"],
            "current": names.get(view["current"], ""),
            "clockwise": view["direction"] == 1,
            "dealt": dealt,
            "deck": view["deck"] if dealt else None,
            "discard": len(view["discard"]) if dealt else None,
            "armies": armies,
            "battle": self._battle(view, names),
            "last_battle": self._last_battle(view, names),
            "skipped": [names.get(seat, "") for seat in view.get("skipped", [])],
            "waiting": [names.get(s, "") for s in waiting],
            "hand": [{"card": c, "label": card_label(c)} for c in hand],
            "move": move,
            "swap_key": "-".join(
                str(part)
                for part in (phase, view["turn"], me in waiting, battle and battle["cards"])
            ),
            "over": phase == "over",
            "winner": names.get(view["winner"]) if view["winner"] is not None else None,
            "fast": view["options"]["fast_capture"],
            "bands": BANDS[:3],
            "specials": sorted(specials.items(), key=lambda item: str(item[1])),
            "army_rows": range(rules.MAX_ARMY),
            "budget": rules.BUDGET,
        }

    @staticmethod
    def _statuses(player: dict[str, Any]) -> list[str]:
        out = []
        if player["deception"]:
            out.append(_("+5 on the next defence (Deception)"))
        if player["weapons"]:
            out.append(_("+5 on the next attack (Special Weapons)"))
        if player["intimidated"]:
            out.append(_("−5 on the next defence (Intimidation)"))
        if player["knocked_out"]:
            out.append(_("skips the next turn (Knock Out)"))
        return out

    def _battle(self, view: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
        battle = view["battle"]
        if battle is None or view["phase"] not in ("defend", "cards", "special"):
            return None
        chars = view["characters"]
        defender_char = battle["defender_character"]
        return {
            "attacker": names.get(battle["attacker"], ""),
            "attacker_figure": chars[battle["attacker_character"]]["name"],
            "defender": names.get(battle["defender"], ""),
            "defender_figure": chars[defender_char]["name"] if defender_char is not None else None,
            "cards": [
                {
                    "who": names.get(seat, ""),
                    "down": card is True,
                    "label": card_label(card) if isinstance(card, str) else "",
                }
                for seat, card in zip(
                    (battle["attacker"], battle["defender"]), battle["cards"], strict=True
                )
            ],
        }

    def _last_battle(self, view: dict[str, Any], names: dict[int, str]) -> dict[str, Any] | None:
        last = view["last_battle"]
        if last is None:
            return None
        chars = view["characters"]
        return {
            "attacker": names.get(last["attacker"], ""),
            "defender": names.get(last["defender"], ""),
            "attacker_figure": chars[last["attacker_character"]]["name"],
            "defender_figure": chars[last["defender_character"]]["name"],
            # Each side by name (the template engine finds ``cards.0`` only after
            # failing a key and an attribute lookup and calling dir()).
            **{
                side: {
                    "card": card_label(last["cards"][i]),
                    "total": last["totals"][i],
                    "bonus": last["bonuses"][i],
                    "vulnerable": last["vulnerable"][i],
                }
                for i, side in enumerate(("attack", "defence"))
            },
            "won": last["won"],
            "tie": last["totals"][0] == last["totals"][1],
            # What it did, in words: the Power lost or the capture, the special action.
            "effects": [
                line
                for line in (self.describe(e, view, names) for e in last.get("effects", []))
                if line
            ],
        }

    def _move(
        self,
        view: dict[str, Any],
        me: int,
        names: dict[int, str],
        specials: dict[str, str],
        dealt: bool,
        hand: list[str],
    ) -> dict[str, Any] | None:
        phase = view["phase"]
        chars = view["characters"]
        mine = [{"id": c, "name": chars[c]["name"]} for c in rules.army_of(view, me)]
        if phase == "setup":
            return {"kind": "army"}
        if phase == "first":
            return {
                "kind": "first",
                "players": [(s, names.get(s, "")) for s in rules.alive(view)],
            }
        if phase == "declare":
            return {
                "kind": "declare",
                "figures": mine,
                "defenders": [(s, names.get(s, "")) for s in rules.alive(view) if s != me],
            }
        if phase == "defend":
            return {"kind": "defend", "figures": mine}
        if phase == "cards":
            if dealt:
                cards = [{"card": c, "label": card_label(c)} for c in hand]
            else:
                cards = [{"card": r, "label": r} for r in RANKS]
            return {"kind": "card", "cards": cards, "dealt": dealt}
        battle = view["battle"]
        action = battle["special"]
        targets = rules.special_targets(view, action)
        return {
            "kind": "special",
            "action": specials.get(action, action),
            "text": special_text(action),
            "slug": action,
            "band": battle["band"],
            "targets": [
                {
                    "id": t,
                    "name": chars[t]["name"],
                    # A captured figure has no Power until it comes back.
                    "power": chars[t]["power"] if chars[t]["army"] is not None else None,
                }
                for t in (targets or [])
            ],
            "takes_target": targets is not None,
            "players": [(s, names.get(s, "")) for s in rules.alive(view)]
            if action == "master-plan"
            else [],
        }

    def story(
        self, log: list[list[dict[str, Any]]], state: dict[str, Any], names: list[str]
    ) -> Story:
        """The standings say it all for now: no figures of their own yet."""
        return Story()

    def localise_params(self, params: dict[str, Any]) -> dict[str, Any]:
        return {k: figure_name(v) if isinstance(v, str) else v for k, v in params.items()}

    # ------------------------------------------------------------ history

    def history_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """The players' names and the figures' names."""
        return {
            "players": [{"name": p["name"]} for p in state["players"]],
            "characters": [{"name": c["name"]} for c in state["characters"]],
        }

    def describe(
        self, event: dict[str, Any], state: dict[str, Any], names: dict | None = None
    ) -> str:
        names = names or {s: p["name"] for s, p in enumerate(state["players"])}
        chars = with_figures_named(state)["characters"]
        kind = event.get("kind")

        def who(seat: Any) -> str:
            return str(names.get(seat, "?"))

        def fig(char_id: Any) -> str:
            known = isinstance(char_id, int) and char_id < len(chars)
            return chars[char_id]["name"] if known else "?"

        simple = {  # events that name one player
            "first": _("%(who)s drew the Ace and plays first."),
            "skipped": _("%(who)s is knocked out and skips this turn."),
            "card_down": _("%(who)s lays a card face down."),
            "out": _("%(who)s has no figures left and is out."),
            "winner": _("%(who)s wins the war!"),
            "no_cards": _("%(who)s has no card to fight with; the turn passes."),
            "drew_to_defend": _("%(who)s had no cards and draws one to defend."),
        }
        if kind in simple:
            return simple[kind] % {"who": who(event.get("seat"))}

        if kind == "army":
            return _("%(who)s set up an army of %(n)s figures (%(list)s).") % {
                "who": who(event["seat"]),
                "n": len(event["characters"]),
                "list": ", ".join(f"{figure_name(n)} {p}" for n, p in event["characters"]),
            }
        if kind == "ace_deal":
            return _("The deal for the first player: %(cards)s. %(who)s plays first.") % {
                "cards": ", ".join(f"{who(s)} {card_label(c)}" for s, c in event["cards"]),
                "who": who(event["seat"]),
            }
        if kind == "turn":
            extra = _("%(who)s plays an extra turn (Quick Action).")
            return extra % {"who": who(event["seat"])} if event.get("extra") else ""
        if kind == "declare":
            return _("%(who)s attacks %(defender)s with %(figure)s.") % {
                "who": who(event["seat"]),
                "defender": who(event["defender"]),
                "figure": fig(event["character"]),
            }
        if kind == "defend":
            return _("%(who)s defends with %(figure)s.") % {
                "who": who(event["seat"]),
                "figure": fig(event["character"]),
            }
        if kind == "battle":
            a, d = event["totals"]
            values = {
                "attacker": fig(event["attacker_character"]),
                "defender": fig(event["defender_character"]),
                "a": a,
                "d": d,
                "ac": card_label(event["cards"][0]),
                "dc": card_label(event["cards"][1]),
            }
            won = _("%(attacker)s (%(ac)s, total %(a)s) beats %(defender)s (%(dc)s, total %(d)s).")
            held = _(
                "%(defender)s (%(dc)s, total %(d)s) holds off %(attacker)s (%(ac)s, total %(a)s)."
            )
            return (won if event["won"] else held) % values
        if kind == "power_lost":
            return _("%(figure)s drops to Power %(power)s.") % {
                "figure": fig(event["character"]),
                "power": event["power"],
            }
        if kind == "shield_used":
            return _("%(figure)s's Shield takes the blow.") % {"figure": fig(event["character"])}
        if kind == "captured":
            return _("%(who)s captures %(figure)s.") % {
                "who": who(event["by"]),
                "figure": fig(event["character"]),
            }
        if kind == "won_back":
            return _("%(who)s wins %(figure)s back, at Power 1.") % {
                "who": who(event["seat"]),
                "figure": fig(event["character"]),
            }
        if kind == "reversed":
            return _("Play changes direction.")
        if kind == "special_skipped":
            return _("No special action this time.")
        if kind == "special_impossible":
            return _("%(action)s cannot be used now.") % {
                "action": special_names().get(event["special"], event["special"])
            }
        if kind == "special":
            return self._special_sentence(event, who, fig)
        return ""

    def _special_sentence(self, event: dict[str, Any], who: Any, fig: Any) -> str:
        action = event["special"]
        name = special_names().get(action, action)
        details = {
            "remedy": _("%(figure)s rises to Power %(power)s."),
            "luck": _("the die shows %(roll)s: %(figure)s is now at Power %(power)s.")
            if event.get("improved")
            else _("the die shows %(roll)s, not enough: %(figure)s stays at Power %(power)s."),
            "mind-control": _("%(figure)s now fights for them at Power 1."),
            "recovery": _("%(figure)s comes back at Power %(power)s."),
            "sniper": _("%(figure)s is hit instead."),
            "shield": _("%(figure)s keeps the card as a Shield."),
            "vulnerability": _("%(figure)s will count only its card next battle."),
            "master-plan": _("new hands of three for %(players)s."),
        }
        text = details.get(action)
        values = {
            "figure": fig(event.get("target")),
            "power": event.get("power"),
            "roll": event.get("roll"),
            "players": ", ".join(who(p) for p in event.get("players", [])),
        }
        said = _("%(who)s uses %(action)s") % {"who": who(event["seat"]), "action": name}
        return f"{said}: {text % values}" if text else f"{said}."


PRESENTER: Presenter = PlasticAttackPresenter()
