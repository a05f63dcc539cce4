"""Shazamm! on the web: set-up, the bridge, the secret lock-in, the reveal replay."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Card, cards_of
from games.presenter import Presenter, Setup, Story
from games.shazamm.game import GAME
from games.shazamm.spells import CLONE, SLUGS

TIMER_CHOICES = (0, 30, 60, 120)


def spell_cards() -> dict[int, Card]:
    return {card.data["number"]: card for card in cards_of("shazamm")}


def spell_name(number: int, cards: dict[int, Card] | None = None) -> str:
    cards = spell_cards() if cards is None else cards
    card = cards.get(number)
    return f"{number} {card.name}" if card else str(number)


class ShazammPresenter:
    slug = GAME.slug
    name = GAME.name
    players = GAME.players
    # The fields its messages name, in the phone's language ("“bid” must be a whole
    # number" read “bid” in Italian too).
    field_labels = {
        "bid": gettext_lazy("bid"),
        "spells": gettext_lazy("spells"),
        "clone": gettext_lazy("spell to copy"),
        "value": gettext_lazy("change"),
        "cards": gettext_lazy("cards"),
        "variant": gettext_lazy("variant"),
        "hands": gettext_lazy("hands"),
        "options": gettext_lazy("options"),
    }
    board_template = "shazamm/board.html"
    setup_template = "shazamm/setup.html"
    asks_edit_policy = False

    # ------------------------------------------------------------ set-up

    def setup_context(self, query: QueryDict) -> dict[str, Any]:
        return {
            "presenter": self,
            "timer_choices": TIMER_CHOICES,
            "variants": [
                ("standard", _("Standard: 5 spells, 3 more each round")),
                ("full_hand", _("Variant 1: all 14 spells in hand")),
                ("chosen_order", _("Variant 2: each mage orders their own deck")),
            ],
        }

    def parse_setup(self, post: QueryDict) -> Setup:
        mode = post.get("mode", "online")
        physical = mode == "companion"
        bot = post.get("bot") == "on" and not physical
        names = [
            post.get("name_0", "") or _("Mage 1"),
            post.get("name_1", "") or (_("Bot") if bot else _("Mage 2")),
        ]
        try:
            seconds = int(post.get("turn_seconds", "0"))
        except ValueError:
            seconds = -1  # refused with a message by the service
        return Setup(
            names=names,
            options={
                "variant": post.get("variant", "standard"),
                "hands": "physical" if physical else "tracked",
            },
            host_seat=0 if post.get("sit", "on") == "on" else None,
            mode=mode,
            turn_seconds=seconds,
            bot_seats=(1,) if bot else (),
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
        cards = spell_cards()
        me = viewer.seat
        names = {seat.index: seat.name for seat in seats}
        slabs = []
        for index in range(view["slabs"]):
            broken = index < view["broken"] or index >= view["slabs"] - view["broken"]
            slabs.append(
                {
                    "index": index,
                    "broken": broken,
                    "wall": view["wall"] == index,
                    "mage": view["mages"].index(index) if index in view["mages"] else None,
                }
            )
        hands = view.get("hands")
        own_hand = hands[me] if (hands is not None and me is not None) else None
        physical = view["options"]["hands"] == "physical"
        if physical and me is not None:
            spent = set(view["discards"][me])
            own_hand = [n for n in range(15) if n not in spent]
        opponent = 1 - me if me is not None else None
        locked = view["locked"]
        pending = view.get("pending")
        mages = []
        for seat in (0, 1):
            count = hands[seat] if hands is not None and isinstance(hands[seat], int) else None
            mages.append(
                {
                    "seat": seat,
                    "name": names.get(seat, ""),
                    "mana": view["mana"][seat],
                    "locked": bool(locked[seat]),
                    "hand_count": count
                    if count is not None
                    else (len(hands[seat]) if hands is not None else None),
                    "is_viewer": seat == me,
                    "colour": "blue" if seat == 0 else "red",
                }
            )
        my_lock = locked[me] if me is not None and isinstance(locked[me], dict) else None
        last = view.get("last")
        return {
            "me": me,
            "mages": mages,
            "slabs": slabs,
            "round": view["round"],
            "turn": view["turn"],
            "phase": view["phase"],
            "physical": physical,
            "hand": [self._card(n, cards) for n in (own_hand or [])],
            "can_lock": can_edit
            and me is not None
            and view["phase"] == "bidding"
            and not locked[me],
            "my_lock": self._lock_text(my_lock, cards),
            "max_bid": view["mana"][me] if me is not None else 0,
            "clone_options": [
                self._card(n, cards)
                for n in sorted(set(view["previous"][opponent]))
                if n not in (0, CLONE)
            ]
            if opponent is not None
            else [],
            "pending": pending,
            "pending_name": names.get(pending["seat"]) if pending else None,
            "my_decision": self._decision(pending, me, cards) if can_edit else None,
            "can_order": can_edit
            and me is not None
            and view["phase"] == "ordering"
            and not view.get("orders", [None, None])[me],
            "steps": [
                line
                for line in (self.describe(e, view, names) for e in (last or {}).get("steps", []))
                if line
            ],
            "over": view["phase"] == "over",
            "winner": names.get(view["winner"]) if view.get("winner") is not None else None,
            "draw": view.get("draw", False),
            "all_spells": [self._card(n, cards) for n in range(1, 15)],
            "order_slots": [{"position": i, "default": i + 1} for i in range(14)],
        }

    def _card(self, number: int, cards: dict[int, Card]) -> dict[str, Any]:
        card = cards.get(number)
        return {
            "number": number,
            "slug": SLUGS[number],
            "name": card.name if card else str(number),
            "text": card.text if card else "",
        }

    def _lock_text(self, lock: dict[str, Any] | None, cards: dict[int, Card]) -> dict | None:
        if not lock:
            return None
        return {
            "bid": lock["bid"],
            "spells": [self._card(n, cards)["name"] for n in lock["spells"]],
        }

    def _decision(self, pending: dict | None, me: int | None, cards: dict) -> dict | None:
        if not pending or pending["seat"] != me or pending.get("options") is None:
            return None
        options = pending["options"]
        if pending["kind"] == "recycle":
            bid = options.get("bid", 0)
            low = options.get("low", max(1, bid - 5))
            high = options.get("high", bid + 5)
            return {
                "kind": "recycle",
                "choices": [(d, bid + d) for d in range(-5, 6) if low <= bid + d <= high],
                "bid": bid,
            }
        return {
            "kind": "larceny",
            "spells": [self._card(n, cards) for n in options.get("spells", [])],
        }

    def story(
        self, log: list[list[dict[str, Any]]], state: dict[str, Any], names: list[str]
    ) -> Story:
        """Per mage: spells cast and mana bid; the wall of fire over the game."""
        spells = [0, 0]
        mana = [0, 0]
        rounds = 0
        wall: list[int] = []
        for events in log:
            for event in events:
                kind = event.get("type")
                if kind == "reveal":
                    for seat in (0, 1):
                        spells[seat] += len(event["spells"][seat])
                        mana[seat] += int(event["bids"][seat] or 0)
                elif kind in ("move", "middle") and "wall" in event:
                    wall.append(int(event["wall"]))
                elif kind == "round_end":
                    rounds += 1
        return Story(
            columns=(str(_("rounds played")), str(_("spells cast")), str(_("mana bid"))),
            rows=tuple((names[seat], (rounds, spells[seat], mana[seat])) for seat in (0, 1)),
            series_title=str(_("Where the wall of fire stood")) if wall else "",
            series=((str(_("wall of fire")), "red", tuple(wall)),) if wall else (),
        )

    def localise_params(self, params: dict[str, Any]) -> dict[str, Any]:
        localised = dict(params)
        if isinstance(params.get("spell"), int):
            localised["spell"] = spell_name(params["spell"])
        return localised

    # ------------------------------------------------------------ history

    def history_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """The mages' names."""
        return {"names": list(state.get("names", []))}

    def describe(
        self, event: dict[str, Any], state: dict[str, Any], names: dict | None = None
    ) -> str:
        names = names or dict(enumerate(state.get("names", [])))
        kind = event.get("type")

        def who(seat: Any) -> str:
            return str(names.get(seat, "?"))

        def spells(numbers: list[int]) -> str:
            cards = spell_cards()
            return ", ".join(spell_name(n, cards) for n in numbers) or _("no spell")

        simple = {
            "locked": _("%(who)s has locked in."),
            "ordered": _("%(who)s has ordered their deck."),
            "mutism": _("%(who)s casts Mutism: no more spells work this round."),
            "end_round_spell": _("%(who)s casts End of round: the round stops here."),
            "resistance": _("Resistance: the wall cannot move toward %(who)s."),
            "safe_loss": _("Safe loss: %(who)s pays nothing."),
        }
        if kind in simple:
            return simple[kind] % {"who": who(event.get("seat"))}
        if kind == "reveal":
            return _("Reveal: %(a)s bids %(x)s (%(sa)s), %(b)s bids %(y)s (%(sb)s).") % {
                "a": who(0),
                "b": who(1),
                "x": event["bids"][0],
                "y": event["bids"][1],
                "sa": spells(event["spells"][0]),
                "sb": spells(event["spells"][1]),
            }
        if kind == "cancel":
            return _("Both cast %(spell)s: they cancel out.") % {"spell": spells([event["spell"]])}
        if kind == "void":
            return _("%(spell)s of %(who)s fizzles.") % {
                "spell": spells([event["spell"]]),
                "who": who(event["seat"]),
            }
        if kind == "clone":
            return _("%(who)s clones %(spell)s.") % {
                "who": who(event["seat"]),
                "spell": spells([event["spell"]]),
            }
        if kind == "steal":
            return _("Larceny: %(who)s steals %(spells)s.") % {
                "who": who(event["seat"]),
                "spells": spells(event["spells"]),
            }
        if kind == "kept":
            return _("%(who)s keeps %(spells)s.") % {
                "who": who(event["seat"]),
                "spells": spells(event["spells"]),
            }
        if kind == "decision":
            what = {"recycle": _("Recycle"), "larceny": _("Larceny")}.get(event["kind"], "")
            return _("Waiting for %(who)s to decide (%(what)s).") % {
                "who": who(event["seat"]),
                "what": what,
            }
        if kind == "middle":
            return _("Middle: the wall goes back between the mages.")
        if kind == "recycle":
            return _("Recycle: %(who)s now bids %(bid)s.") % {
                "who": who(event["seat"]),
                "bid": event["bid"],
            }
        if kind == "boost":
            return _("Boost: %(who)s attacks with %(attack)s.") % {
                "who": who(event["seat"]),
                "attack": event["attack"],
            }
        if kind == "double":
            return _("Double dose: %(who)s attacks with %(attack)s.") % {
                "who": who(event["seat"]),
                "attack": event["attack"],
            }
        if kind == "attack":
            a, b = event["attacks"]
            if event["winner"] is None:
                return _("%(a)s against %(b)s: a tie, the wall stays.") % {"a": a, "b": b}
            return _("%(winner)s wins the turn, %(a)s against %(b)s.") % {
                "winner": who(event["winner"]),
                "a": max(a, b),
                "b": min(a, b),
            }
        if kind == "loser_wins":
            return _("Loser wins: the wall turns around.")
        if kind == "blaze":
            return _("Blaze: the wall moves two slabs.")
        if kind == "move":
            if not event["steps"]:
                return _("The wall does not move.")
            return _("The wall moves %(steps)s toward %(who)s.") % {
                "steps": event["steps"],
                "who": who(event["toward"]),
            }
        if kind == "pay":
            return _("%(who)s pays %(amount)s (mana left: %(mana)s).") % {
                "who": who(event["seat"]),
                "amount": event["amount"],
                "mana": event["mana"],
            }
        if kind in ("reinforce", "suction"):
            return _("%(who)s refills mana to %(mana)s.") % {
                "who": who(event["seat"]),
                "mana": event["mana"],
            }
        if kind == "out_of_mana":
            if event["seat"] is None:
                return _("Both mages are out of mana.")
            return _("%(who)s is out of mana: the wall is pushed %(push)s toward them.") % {
                "who": who(event["seat"]),
                "push": event["push"],
            }
        if kind == "round_end":
            return _("End of the round: a slab breaks at each end.")
        if kind == "drew":
            return ""  # the number of cards drawn is shown in the hands
        if kind == "game_over":
            if event["winner"] is None:
                return _("Both mages fall: a draw!")
            return _("%(who)s wins the duel!") % {"who": who(event["winner"])}
        return ""


PRESENTER: Presenter = ShazammPresenter()
