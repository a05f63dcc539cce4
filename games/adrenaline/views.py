"""Adrenaline on the web: set-up form, board context, history sentences, shot helper."""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass, fields
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from companion import services
from companion.errors import ServiceError, error_text
from companion.fragments import Derived
from companion.paths import url_of
from games.adrenaline import map_view, rules
from games.adrenaline.arena import BOARD_IDS, Square, load_board
from games.adrenaline.game import GAME
from games.adrenaline.targeting import Reason
from games.models import Card, cards_of
from games.presenter import Presenter, Setup, Story

COLOURS = ("red", "blue", "yellow")
#: The map a new table plays on unless it picks another (or none): it suits 3 to 5.
DEFAULT_BOARD = "medium-a"


@dataclass(frozen=True)
class Character:
    slug: str
    name: str
    colour: str  # CSS class suffix and the colour's name
    colour_label: Any

    def __reduce__(self) -> tuple[Any, ...]:
        # One of the five constants below: in a piece's key (``pickle``) it is its
        # slug, not its four fields (a player's board names up to five characters).
        # Any other Character is pickled field by field.
        if CHARACTERS.get(self.slug) is self:
            return (character, (self.slug,))
        return (Character, _character_fields(self))


#: A Character's fields in order (its pickle when it is not one of the five).
_character_fields = operator.attrgetter(*(f.name for f in fields(Character)))


CHARACTERS = {
    c.slug: c
    for c in (
        Character("dstructor", "D-struct-OR", "yellow", gettext_lazy("yellow")),
        Character("banshee", "Banshee", "blue", gettext_lazy("blue")),
        Character("dozer", "Dozer", "grey", gettext_lazy("grey")),
        Character("violet", "Violet", "purple", gettext_lazy("purple")),
        Character("sprog", "Sprog", "green", gettext_lazy("green")),
    )
}


@functools.lru_cache(maxsize=64)
def _choices(count: int) -> tuple[int, ...]:
    """``0 … count - 1`` as a tuple, made once a count: the shot helper's rows are
    in its piece's key, and a ``range`` pickles through its class (a third of the
    helper's key, with four targets), a tuple of small numbers as bytes."""
    return tuple(range(count))


def character(slug: str) -> Character:
    """The character of that slug (as a piece's key names it)."""
    return CHARACTERS[slug]


POWERUP_LABELS = {
    "scope": gettext_lazy("Targeting Scope"),
    "newton": gettext_lazy("Newton"),
    "tagback": gettext_lazy("Tagback Grenade"),
    "teleporter": gettext_lazy("Teleporter"),
    None: gettext_lazy("power-up"),
}
CUBE_LABELS = {
    "red": gettext_lazy("red"),
    "blue": gettext_lazy("blue"),
    "yellow": gettext_lazy("yellow"),
    "powerups": gettext_lazy("power-ups"),
}


ROOM_NAMES = {
    "red": gettext_lazy("red room"),
    "blue": gettext_lazy("blue room"),
    "yellow": gettext_lazy("yellow room"),
    "green": gettext_lazy("green room"),
    "white": gettext_lazy("white room"),
    "purple": gettext_lazy("purple room"),
}
POWERUP_MOVES = {
    "newton": gettext_lazy("Newton (another figure, 1 or 2 squares in a line)"),
    "teleporter": gettext_lazy("Teleporter (their own figure, anywhere)"),
}
_R = Reason
#: Why a player cannot be targeted, in the table's words (every code has some: a test).
REASONS = {
    _R.NOT_ON_BOARD: gettext_lazy("not on the map"),
    _R.NOT_VISIBLE: gettext_lazy("out of sight"),
    _R.VISIBLE: gettext_lazy("in sight (this weapon needs a target you cannot see)"),
    _R.TOO_CLOSE: gettext_lazy("too close (needs 2 or more moves away)"),
    _R.TOO_FAR: gettext_lazy("too far (more than 2 moves away)"),
    _R.ON_YOUR_SQUARE: gettext_lazy("on your square"),
    _R.NOT_ON_YOUR_SQUARE: gettext_lazy("not on your square"),
    _R.NOT_EXACTLY_ONE_AWAY: gettext_lazy("not exactly 1 move away"),
    _R.NOT_IN_LINE: gettext_lazy("not in a straight line from you"),
    _R.SAME_ROOM: gettext_lazy("in your own room"),
    _R.NOT_IN_ROOM: gettext_lazy("not in the room aimed at"),
    _R.NOT_ON_SQUARE: gettext_lazy("not on the square aimed at"),
    _R.NOT_NEAR_VORTEX: gettext_lazy("too far from any vortex square"),
    _R.CANNOT_MOVE_INTO_SIGHT: gettext_lazy("cannot be pulled into your sight"),
    _R.NO_PREVIOUS_TARGET: gettext_lazy("needs the earlier effect's target first"),
    _R.NOT_SEEN_BY_PREVIOUS: gettext_lazy("the previous target cannot see them"),
    _R.NOT_BASIC_TARGET: gettext_lazy("not a target of the basic effect"),
    _R.ALREADY_TARGETED: gettext_lazy("already a target of this shot"),
    _R.NOT_ON_TARGET_SQUARE: gettext_lazy("not on the target's square"),
    _R.UNKNOWN_PLAYER: gettext_lazy("not in this game"),
    _R.SHOOTER: gettext_lazy("the shooter"),
    _R.DUPLICATE_TARGET: gettext_lazy("chosen twice"),
    _R.NO_TARGET: gettext_lazy("needs a target"),
    _R.TOO_MANY_TARGETS: gettext_lazy("too many targets"),
    _R.SAME_SQUARE: gettext_lazy("one target per square"),
    _R.NO_SHARED_AIM: gettext_lazy("no single direction or square covers them all"),
    _R.ONE_OLD_AND_ONE_NEW: gettext_lazy("at most one earlier target and one new one"),
    _R.ILLEGAL_AIM: gettext_lazy("not a square, room or direction this effect can aim at"),
}


def square_words(square: str, room: str) -> str:
    return f"{ROOM_NAMES[room]} {square}"


def board_choices() -> list[tuple[str, str]]:
    """(id, words) of every board, for the set-up form."""
    choices = []
    for board_id in BOARD_IDS:
        board = load_board(board_id)
        words = _board_name(board_id)
        if board.players:
            low, high = board.players
            words += " · " + ngettext(
                "%(low)s–%(high)s player", "%(low)s–%(high)s players", high
            ) % {"low": low, "high": high}
        choices.append((board_id, words))
    return choices


def _board_name(board_id: str) -> str:
    names = dict(load_board(board_id).name)
    return names.get((get_language() or "en")[:2], names.get("en", board_id))


def _worded_map(values: dict[str, Any] | None) -> dict[str, Any] | None:
    """The map fragment's values with the words a phone reads (its language's)."""
    if values is None:
        return None
    cells = tuple(
        None
        if cell is None
        else {
            **cell,
            "label": square_words(cell["id"], cell["room"])
            + (": " + ", ".join(cell["names"]) if cell["names"] else ""),
        }
        for cell in values["cells"]
    )
    return {
        **values,
        "name": _board_name(values["board"]),
        "cells": cells,
        "by_powerup": tuple((kind, str(POWERUP_MOVES[kind])) for kind in values["by_powerup"]),
    }


def _note(reason: Reason | None, moves: int | None) -> dict[str, Any]:
    """Whether the player may be targeted (``ok``) and why not or how far (``text``),
    in words. Named, not a pair: the template engine finds ``note.0`` only after two
    failed lookups and a ``dir()``."""
    if reason is not None:
        return {"ok": False, "text": str(REASONS[reason])}
    count = moves or 0
    text = ngettext("%(count)s move away", "%(count)s moves away", count) % {"count": count}
    return {"ok": True, "text": text}


def _cube_stepper(colour: str, value: int, language: str | None) -> dict[str, Any]:
    """One colour of a player's cubes as its stepper shows it, with the buttons'
    spoken labels (made here, not by two template tags per stepper: a player's cubes
    are rendered again whenever one is paid). ``language``: the active one, looked
    up once for the board."""
    label, less, more = _stepper_labels(colour, language)
    return {
        "field": colour,
        "label": label,
        "value": value,
        "less": less,
        "more": more,
    }


@functools.lru_cache(maxsize=64)
def _stepper_labels(colour: str, _language: str | None) -> tuple[str, str, str]:
    """The colour's name and its stepper's two buttons, spoken, in the current
    language, as plain strings (made once a language: in a piece's key a lazy
    label is pickled as the call that would translate it, each time)."""
    label = str(CUBE_LABELS[colour])
    return (
        label,
        _("Remove one: %(label)s") % {"label": label},
        _("Add one: %(label)s") % {"label": label},
    )


@functools.lru_cache(maxsize=16)
def _powerup_kinds(_language: str | None) -> tuple[tuple[str, str], ...]:
    """Each power-up kind and its name in the current language, made once a
    language (every board after every tap names them)."""
    return tuple((kind, str(POWERUP_LABELS[kind])) for kind in rules.POWERUP_KINDS)


def character_name(slug: str | None) -> str:
    return CHARACTERS[slug].name if slug in CHARACTERS else str(slug or "?")


def table_names(state: dict[str, Any], names: dict[int, str] | None) -> dict[str, str]:
    """Each player's character (slug) and the name the table knows them by: their
    seat's, or the character's when the seat has none. The one rule the boards, the
    history, the turn bar, the shot helper and the map name players by."""
    return {
        p["character"]: (names or {}).get(index) or character_name(p["character"])
        for index, p in enumerate(state.get("players", []))
    }


def _namer(state: dict[str, Any], names: dict | None) -> Any:
    """Names for the history, as :func:`table_names` gives them (a character not at
    the table by its own name)."""
    known = table_names(state, names)

    def name(slug: str | None) -> str:
        return known.get(slug or "") or character_name(slug)

    return name


def weapon_cards() -> dict[str, Card]:
    return {card.slug: card for card in cards_of("adrenaline", "weapon")}


# language → (the catalog it was read from, its weapons as (slug, name) by name)
_BY_NAME: dict[str, tuple[list[Card], list[tuple[str, str]]]] = {}


def weapons_by_name() -> list[tuple[str, str]]:
    """The catalog's weapons as (slug, name) in the active language, in the order of
    their names: sorted once per language while the catalog stays the same, not at
    every render of the shot helper and of the pick-up lists."""
    catalog = cards_of("adrenaline", "weapon")
    language = get_language() or ""
    found = _BY_NAME.get(language)
    if found is None or found[0] is not catalog:
        named = sorted(((card.slug, card.name) for card in catalog), key=lambda pair: pair[1])
        found = _BY_NAME[language] = (catalog, named)
    return found[1]


def weapon_name(slug: str, cards: dict[str, Card] | None = None) -> str:
    cards = weapon_cards() if cards is None else cards
    card = cards.get(slug)
    return card.name if card else slug


# Field names in engine messages ("“damage” must be a whole number."), in our words.
FIELD_LABELS = {
    "damage": gettext_lazy("damage"),
    "marks": gettext_lazy("marks"),
    "target": gettext_lazy("target"),
    "shooter": gettext_lazy("shooter"),
    "player": gettext_lazy("player"),
    "weapon": gettext_lazy("weapon"),
    "delta": gettext_lazy("change"),
    "field": gettext_lazy("counter"),
    "skulls": gettext_lazy("skulls"),
}


class AdrenalinePresenter:
    slug = GAME.slug
    name = gettext_lazy(GAME.name)
    players = GAME.players
    board_template = "adrenaline/board.html"
    setup_template = "adrenaline/setup.html"
    asks_edit_policy = True
    field_labels = FIELD_LABELS

    # ------------------------------------------------------------ set-up

    def setup_context(self, query: QueryDict) -> dict[str, Any]:
        return {
            "presenter": self,
            "characters": list(CHARACTERS.values()),
            "skull_choices": [5, 6, 7, 8],
            "boards": board_choices(),
            "default_board": DEFAULT_BOARD,
        }

    def parse_setup(self, post: QueryDict) -> Setup:
        chosen = [slug for slug in CHARACTERS if post.get(f"play_{slug}") == "on"]
        names = [post.get(f"name_{slug}", "") or CHARACTERS[slug].name for slug in chosen]
        first = post.get("first", "")
        options: dict[str, Any] = {
            "characters": chosen,
            "skulls": post.get("skulls", "8"),
            "first_player": chosen.index(first) if first in chosen else 0,
            "board": post.get("board", ""),
        }
        host = post.get("host_seat", "")
        return Setup(
            names=names,
            options=options,
            host_seat=chosen.index(host) if host in chosen else None,
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
        cards = weapon_cards()
        names = {seat.index: seat.name for seat in seats}
        # Each board from its player's part of the state, its seat's name and what
        # this phone may do with it (a Derived: an unchanged board is found in the
        # live table's store by these, and its values are not made again).
        players = []
        seat_names = table_names(view, names)
        # Every board names who damaged and marked it as the history does.
        labels = tuple(seat_names.items())
        for index, player in enumerate(view["players"]):
            players.append(
                Derived(
                    player_values,
                    index,
                    player,
                    seat_names[player["character"]],
                    can_edit and (session.edit_policy != "own" or viewer.seat == index),
                    view["current"] == index and not view["over"],
                    tuple(weapon_name(w["slug"], cards) for w in player["weapons"]),
                    labels,
                )
            )
        current = view["players"][view["current"]]["character"]
        can_end_turn = (
            can_edit
            and not view["over"]
            and (session.edit_policy != "own" or viewer.seat == view["current"])
        )
        # What the turn bar shows, on its own: it is a fragment keyed by these values.
        current_name = seat_names[current]
        turnbar = {
            "current_colour": CHARACTERS[current].colour,  # (a Character would be pickled)
            "current_name": current_name,  # the seat's player, as the boards name them
            "turn": view["turn"],
            "killshot": _killshot(view),
            "frenzy": view["frenzy"],
            "frenzy_actions": rules.frenzy_actions(view, view["current"])
            if view["frenzy"]
            else None,
            "over": view["over"],
            "can_end_turn": can_end_turn,
            "tagbacks": _tagback_offers(last_events, view, seat_names),
        }
        shot = None
        if can_end_turn:
            shot = shot_context(view, names, _no_params())
        return {
            **turnbar,
            "shooter": current,  # the player on turn, as the boards' hit forms name them
            "turnbar": turnbar,
            "players": players,
            "current_name": current_name,
            "pickup_options": _pickup_options(view),
            "shot": shot,
            "shot_url": url_of("adrenaline_shot", session.code),
            "map": _worded_map(
                map_view.map_context(
                    view,
                    seat_names,
                    {slug: CHARACTERS[slug].colour for slug in seat_names},
                )
            ),
        }

    def localise_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """Engine messages carry English weapon names and cube lists: show ours."""
        localised = dict(params)
        if isinstance(params.get("weapon"), str):
            english = {v: k for k, v in rules.WEAPON_NAMES.items()}
            slug = english.get(params["weapon"], params["weapon"])
            localised["weapon"] = weapon_name(slug)
        if "missing" in params:
            localised["missing"] = ", ".join(
                f"{params[c]} {CUBE_LABELS[c]}" for c in COLOURS if params.get(c)
            )
        return localised

    # ------------------------------------------------------------ history

    def history_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """Who plays which character, and the map's board (a move names its room)."""
        return {
            "players": [{"character": p["character"]} for p in state.get("players", [])],
            "board": state.get("board"),
        }

    def describe(
        self, event: dict[str, Any], state: dict[str, Any], names: dict | None = None
    ) -> str:
        kind = event.get("type")
        n = _namer(state, names)
        if kind == "damage":
            if not (event["damage"] or event["marks"] or event.get("marks_lost")):
                return ""  # a target row of the shot form left at 0 and 0
            parts = []
            if event["damage"]:
                parts.append(
                    ngettext("%(count)s damage", "%(count)s damage", event["damage"])
                    % {"count": event["damage"]}
                )
            if event["marks"]:
                parts.append(
                    ngettext("%(count)s mark", "%(count)s marks", event["marks"])
                    % {"count": event["marks"]}
                )
            text = _("%(shooter)s hits %(target)s: %(what)s.") % {
                "shooter": n(event["shooter"]),
                "target": n(event["target"]),
                "what": ", ".join(parts) or _("nothing"),
            }
            if event.get("converted"):
                text += " " + ngettext(
                    "(%(count)s mark turned into damage.)",
                    "(%(count)s marks turned into damage.)",
                    event["converted"],
                ) % {"count": event["converted"]}
            if event.get("lost"):
                text += " " + _("Damage lost past the 12th slot: %(count)s.") % {
                    "count": event["lost"]
                }
            if event.get("marks_lost"):
                text += " " + _("Marks over 3 are lost.")
            if event.get("overkill"):
                text += " " + _("%(target)s is overkilled!") % {"target": n(event["target"])}
            elif event.get("killed"):
                text += " " + _("%(target)s is killed!") % {"target": n(event["target"])}
            return text
        if kind == "weapon_used":
            values = {"shooter": n(event["shooter"]), "weapon": weapon_name(event["weapon"])}
            if event.get("paid"):
                values["cubes"] = ", ".join(CUBE_LABELS.get(c, c) for c in event["paid"])
                return _("%(shooter)s fires the %(weapon)s (pays %(cubes)s).") % values
            return _("%(shooter)s fires the %(weapon)s.") % values
        if kind == "scope":
            return _(
                "%(shooter)s uses a Targeting Scope on %(target)s (pays a %(colour)s cube)."
            ) % {
                "shooter": n(event["shooter"]),
                "target": n(event["target"]),
                "colour": CUBE_LABELS.get(event["colour"], event["colour"]),
            }
        if kind == "tagback":
            return _("%(player)s throws a Tagback Grenade: %(target)s gets a mark.") % {
                "player": n(event["from"]),
                "target": n(event["to"]),
            }
        if kind == "adjust":
            return _("%(player)s: %(delta)+d %(what)s (now %(value)s).") % {
                "player": n(event["player"]),
                "delta": event["delta"],
                "what": CUBE_LABELS.get(event["field"], event["field"]),
                "value": event["value"],
            }
        if kind == "weapon":
            templates = {
                "pickup": _("%(player)s picks up the %(weapon)s."),
                "reload": _("%(player)s reloads the %(weapon)s."),
                "drop": _("%(player)s drops the %(weapon)s."),
                "unload": _("%(player)s marks the %(weapon)s as unloaded."),
            }
            text = templates.get(event["op"], "%(player)s: %(weapon)s") % {
                "player": n(event["player"]),
                "weapon": weapon_name(event["weapon"]),
            }
            if event.get("paid"):
                text += " " + _("Paid: %(cubes)s.") % {
                    "cubes": ", ".join(str(CUBE_LABELS.get(c, c)) for c in event["paid"])
                }
            return text
        if kind == "powerup":
            card = str(POWERUP_LABELS[event.get("kind")])
            if event.get("colour"):
                card += f" ({CUBE_LABELS[event['colour']]})"
            sentences = {
                "draw": _("%(player)s draws a power-up: %(card)s."),
                "discard": _("%(player)s discards a power-up: %(card)s."),
                "play": _("%(player)s plays a power-up: %(card)s."),
            }
            return sentences[event["op"]] % {"player": n(event["player"]), "card": card}
        if kind == "move":
            if not event["to"] or not state.get("board"):
                return _("%(player)s is taken off the map.") % {"player": n(event["player"])}
            square = Square.of(event["to"])
            room = load_board(state["board"]).room_of.get(square, "")
            return _("%(player)s moves to the %(room)s (%(square)s).") % {
                "player": n(event["player"]),
                "room": ROOM_NAMES.get(room, room),
                "square": square,
            }
        if kind == "score":
            awards = ", ".join(
                (
                    _("%(player)s +%(points)s (first blood)")
                    if a.get("reason") == "first_blood"
                    else _("%(player)s +%(points)s")
                )
                % {"player": n(a["to"]), "points": a["points"]}
                for a in event["awards"]
            )
            if event.get("final"):
                return _("Final scoring of %(board)s's board: %(awards)s.") % {
                    "board": n(event["board"]),
                    "awards": awards,
                }
            return _("%(board)s's board is scored: %(awards)s.") % {
                "board": n(event["board"]),
                "awards": awards,
            } + (" " + _("A skull goes on the board.") if event.get("skull") else "")
        if kind == "revenge_mark":
            return _("%(victim)s was overkilled and gives %(killer)s a revenge mark.") % {
                "victim": n(event["from"]),
                "killer": n(event["to"]),
            }
        if kind == "double_kill":
            return _("Double kill: %(player)s scores 1 more point.") % {
                "player": n(event["player"])
            }
        if kind == "frenzy":
            return _("The last skull is gone: final frenzy! Everyone plays one more turn.")
        if kind == "flip":
            return _("%(player)s's board flips to the frenzy side (2-1-1-1).") % {
                "player": n(event["player"])
            }
        if kind == "turn":
            text = _("Now it is %(player)s's turn.") % {"player": n(event["player"])}
            if event.get("frenzy_actions"):
                text += " " + ngettext(
                    "Final frenzy: %(count)s action.",
                    "Final frenzy: %(count)s actions.",
                    event["frenzy_actions"],
                ) % {"count": event["frenzy_actions"]}
            return text
        if kind == "killshot_score":
            awards = ", ".join(
                (
                    _("%(player)s +%(points)s (first blood)")
                    if a.get("reason") == "first_blood"
                    else _("%(player)s +%(points)s")
                )
                % {"player": n(a["to"]), "points": a["points"]}
                for a in event["awards"]
            )
            return _("Kill-shot track: %(awards)s.") % {"awards": awards or _("nobody")}
        if kind == "game_over":
            winners = " & ".join(n(c) for c in event["places"][0]) if event["places"] else "?"
            return _("Game over. Winner: %(winners)s.") % {"winners": winners}
        return ""

    # ------------------------------------------------------------ the end

    def story(
        self, log: list[list[dict[str, Any]]], state: dict[str, Any], names: list[str]
    ) -> Story:
        """Per player: damage dealt, kills, points by source; points over the game."""
        chars = [p["character"] for p in state["players"]]
        named = table_names(state, dict(enumerate(names)))
        dealt = dict.fromkeys(chars, 0)
        kills = dict.fromkeys(chars, 0)
        points = dict.fromkeys(chars, 0)
        series: dict[str, list[int]] = {c: [0] for c in chars}
        for events in log:
            scored = False
            for event in events:
                kind = event.get("type")
                if kind == "damage":
                    dealt[event["shooter"]] += event["damage"]
                    kills[event["shooter"]] += 1 if event.get("killed") else 0
                elif kind in ("score", "killshot_score"):
                    for award in event["awards"]:
                        points[award["to"]] += award["points"]
                        scored = True
                elif kind == "double_kill":
                    points[event["player"]] += 1
                    scored = True
            if scored:
                for c in chars:
                    series[c].append(points[c])
        breakdown = rules.points_breakdown(state)
        return Story(
            columns=(
                str(_("damage dealt")),
                str(_("kills")),
                str(_("from boards")),
                str(_("first blood")),
                str(_("kill-shot track")),
                str(_("double kills")),
            ),
            rows=tuple(
                (
                    named[c],
                    (
                        dealt[c],
                        kills[c],
                        breakdown[c]["board"],
                        breakdown[c]["first_blood"],
                        breakdown[c]["killshot_track"],
                        breakdown[c]["double_kill"],
                    ),
                )
                for c in chars
            ),
            series_title=str(_("Points over the game")),
            series=tuple(
                (
                    named[c],
                    CHARACTERS[c].colour,
                    tuple(series[c]),
                )
                for c in chars
            ),
        )


# (language, weapons held) → (the catalog it was built from, the <option>s)
_PICKUP_OPTIONS: dict[tuple[str, tuple[str, ...]], tuple[list[Card], str]] = {}


def player_values(
    seat: int,
    player: dict[str, Any],
    seat_name: str,
    editable: bool,
    current: bool,
    weapon_names: tuple[str, ...],
    labels: tuple[tuple[str, str], ...],
) -> dict[str, Any]:
    """One player's board (``adrenaline/player.html``) from that player's part of the
    state, the seat's name, whether this phone may edit the board, whether it is
    the player's turn, the names of the weapons they hold (read from the catalog
    by the presenter: a renamed weapon is another input) and every player's name
    as the table sees it, (character slug, seat name), for the damage and marks
    others left on the board."""
    language = get_language()
    who = CHARACTERS[player["character"]]
    # The gear panel's own values (a fragment keyed by them), and those of each of
    # its parts (pieces keyed by theirs: paying a cube re-renders the cubes, not
    # the weapons). Only there: the board's key holds them once.
    # (The character by its slug, all they show of it: a Character in a key is a
    # reducer call and a global look-up for the pickle, a third of such a key.)
    own = {"slug": who.slug, "editable": editable}
    weapons = [
        {"slug": w["slug"], "name": name, "loaded": w["loaded"]}
        for w, name in zip(player["weapons"], weapon_names, strict=True)
    ]
    return {
        "seat": seat,
        "seat_name": seat_name,
        "character": who,
        "slots": _slots(tuple(player["damage"]), labels),
        "damage_count": len(player["damage"]),
        "marks": [
            {"by": _shooter(by, dict(labels)), "count": count}
            for by, count in player["marks"].items()
        ],
        "skulls": player["skulls"],
        "frenzy": player["frenzy"],
        "values": rules.board_values(player),
        "level": rules.adrenaline_level(player),
        "dead": rules.is_dead(player),
        "points": player["points"],
        "current": current,
        "editable": editable,
        "gear": {
            "slug": who.slug,
            "cubes": {c: player["ammo"][c] for c in COLOURS},
            "ammo_values": {
                **own,
                "ammo": [_cube_stepper(c, player["ammo"][c], language) for c in COLOURS],
            },
            "powerup_values": {
                **own,
                "powerups": _hand(player),
                "powerup_kinds": _powerup_kinds(language),
                "colours": tuple((c, _stepper_labels(c, language)[0]) for c in COLOURS),
            },
            "weapon_values": {**own, "weapons": weapons},
        },
    }


def _pickup_options(view: dict[str, Any]) -> str:
    """The <option>s of weapons nobody holds, built once for every board (and kept
    per language and set of held weapons, while the catalog stays the same). Each
    option is escaped here (``format_html``); the whole is a plain ``str`` that
    ``weapons.html`` marks safe where it writes it: it is in the key of all five
    boards after every tap, and a ``SafeString`` (a ``str`` subclass) pickles four
    times slower than a ``str``."""
    held = {w["slug"] for p in view["players"] for w in p["weapons"]}
    catalog = cards_of("adrenaline", "weapon")
    key = (get_language(), tuple(sorted(held)))
    found = _PICKUP_OPTIONS.get(key)
    if found is not None and found[0] is catalog:
        return found[1]
    free = [(slug, name) for slug, name in weapons_by_name() if slug not in held]
    html = "".join(format_html('<option value="{}">{}</option>', *option) for option in free)
    if len(_PICKUP_OPTIONS) > 512:
        _PICKUP_OPTIONS.clear()
    _PICKUP_OPTIONS[key] = (catalog, html)
    return html


#: The marks of an empty damage slot, by its number: the thresholds of the
#: adrenaline levels, the killshot and the overkill.
_SLOT_MARKS = {3: " threshold", 6: " threshold", 11: " kill", 12: " overkill"}


@functools.lru_cache(maxsize=1024)
def _slots(
    damage: tuple[str, ...], labels: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, dict[str, str] | None, str], ...]:
    """Twelve damage slots, each as (its classes: the shooter's colour, the
    thresholds marked; who filled it, as :func:`_shooter`; its number): the track is
    re-rendered after every hit, so the classes are joined here rather than by four
    tests per slot, and each is a tuple, not a dict (in every board's key after every
    tap). Made once a track and set of names (five boards after every tap, most of
    them unchanged)."""
    named, slots = dict(labels), []
    for number in range(1, 13):
        shooter = damage[number - 1] if number <= len(damage) else None
        by = _shooter(shooter, named) if shooter in CHARACTERS else None
        filled = f" c-{by['colour']} filled" if by else ""
        slots.append((f"slot{filled}{_SLOT_MARKS.get(number, '')}", by, str(number)))
    return tuple(slots)


def _shooter(slug: str, named: dict[str, str]) -> dict[str, str]:
    """Who left a damage or a mark, as a board shows them: their colour, and their
    name as :func:`table_names` gives it (``named``)."""
    who = CHARACTERS[slug]
    return {"colour": who.colour, "name": named.get(slug) or who.name}


def _killshot(view: dict[str, Any]) -> list[dict[str, Any]]:
    track = []
    for i in range(max(view["skulls"], len(view["killshot"]))):
        entry = view["killshot"][i] if i < len(view["killshot"]) else None
        track.append(
            {
                "skull": entry is None,
                "killer": CHARACTERS.get(entry["killer"]) if entry else None,
                "tokens": entry["tokens"] if entry else 0,
                "frenzy": i >= view["skulls"],
            }
        )
    return track


def _tagback_offers(
    last_events: list[dict], view: dict[str, Any], seat_names: dict[str, str]
) -> list[dict]:
    """After a shot: each damaged player holding a Tagback Grenade (or a power-up of
    no known kind) who can see the shooter may throw it. ``seat_names``: each
    character's player, as the boards name them."""
    if view["over"]:
        return []
    hands = {p["character"]: p["powerups"] for p in view["players"]}
    offers = []
    for event in last_events:
        if event.get("type") == "damage" and event.get("damage", 0) > 0:
            victim, shooter = event["target"], event["shooter"]
            if victim not in hands or shooter not in seat_names:
                continue
            if any(card["kind"] in ("tagback", None) for card in hands[victim]):
                if _sees(view, victim, shooter):
                    # Who throws at whom, and the two players' names as the boards
                    # name them: the turn bar's key holds these, not two boards.
                    offers.append(
                        {
                            "from": CHARACTERS[victim],
                            "to": CHARACTERS[shooter],
                            "from_name": seat_names[victim],
                            "to_name": seat_names[shooter],
                        }
                    )
    return offers


def _sees(view: dict[str, Any], who: str, whom: str) -> bool:
    """Whether ``who`` can see ``whom`` (True when the map does not say)."""
    where = rules.positions(view)
    seer, seen = where.get(who), where.get(whom)
    if not view.get("board") or seer is None or seen is None:
        return True
    return load_board(view["board"]).can_see(seer, seen)


def _hand(player: dict[str, Any]) -> tuple[tuple[str | None, str | None, str], ...]:
    """A player's power-ups as (kind, colour, words), in the hand's order."""
    cards = []
    for card in player["powerups"]:
        label = str(POWERUP_LABELS[card["kind"]])
        if card["colour"]:
            label += f" ({CUBE_LABELS[card['colour']]})"
        cards.append((card["kind"], card["colour"], label))
    return tuple(cards)


PRESENTER: Presenter = AdrenalinePresenter()


# ---------------------------------------------------------------- shot helper


def _effect_pairs(effect: dict[str, Any]) -> list[int]:
    damage = effect.get("damage", 0)
    return list(damage) if isinstance(damage, list) else [damage]


def prefill(
    weapon: dict[str, Any] | None,
    effects: list[str],
    targets: list[str],
    banded: dict[str, dict[str, int]] | None = None,
) -> dict[str, tuple[int, int]]:
    """Damage and marks per picked target from the weapon's structured effects.

    Each chosen effect hits the targets in the order they were picked, up to its
    target count; an effect marked ``new_targets`` (Lock Rifle's second lock,
    T.H.O.R.'s chain) starts after the targets earlier effects used, and one with
    ``starts_at`` at that pick (Machine Gun's turret tripod: the *other* target
    first). A list of damages goes by pick order (Hellion: 1 to the target, 0 to the
    others on its square, who take only its marks). ``banded`` (from the map: who
    an effect with two numbers hits, and which number) replaces the pick order for
    those effects. The table then adjusts what the helper cannot know.
    """
    totals = {target: [0, 0] for target in targets}
    if weapon is None:
        return {t: (1, 0) for t in targets}
    used = 0
    for effect in weapon["effects"]:
        if effect["slug"] not in effects:
            continue
        if banded and effect["slug"] in banded:
            damages = _effect_pairs(effect)
            for target, band in banded[effect["slug"]].items():
                row = totals.setdefault(target, [0, 0])
                row[0] += damages[min(band, len(damages) - 1)]
                row[1] += effect.get("marks", 0)
            continue
        start = used if effect.get("new_targets") else effect.get("starts_at", 0)
        reach = effect.get("max_targets")
        hit = targets[start:] if reach is None else targets[start : start + max(reach, 0)]
        damages = _effect_pairs(effect)
        for i, target in enumerate(hit):
            totals[target][0] += damages[min(i, len(damages) - 1)]
            totals[target][1] += effect.get("marks", 0)
        used = max(used, start + len(hit))
    return {t: (min(d, 12), min(m, 3)) for t, (d, m) in totals.items()}


#: Damage a target row of the helper offers at least (a Targeting Scope on top of
#: the heaviest single hits makes 4); the pre-fill may ask for more.
DAMAGE_CHOICES = 4


@functools.cache
def _no_params() -> QueryDict:
    """The shot helper's query when nothing is chosen in it: empty and immutable,
    made once (making one reads the settings, at every tap)."""
    return QueryDict()


def shot_context(state: dict[str, Any], names: dict[int, str], params: QueryDict) -> dict[str, Any]:
    """The shot helper for the player whose turn it is: their weapons (any weapon
    of the catalog too), the chosen effects and targets, pre-filled. Players are
    named as their boards name them (the seat's name)."""
    chars = [p["character"] for p in state["players"]]
    shooter_seat = state["current"]
    shooter = chars[shooter_seat]
    shooter_state = state["players"][shooter_seat]

    labels = table_names(state, names)

    cards = weapon_cards()
    held = {w["slug"]: w["loaded"] for w in shooter_state["weapons"]}
    others = (p for p in state["players"] if p is not shooter_state)
    elsewhere = {w["slug"] for p in others for w in p["weapons"]}
    chosen = params.get("weapon") or params.get("_other_weapon") or ""
    card = cards.get(chosen) if chosen not in elsewhere else None
    weapon = card.data if card else None
    slugs = {e["slug"] for e in weapon["effects"]} if weapon else set()
    effects = [e for e in params.getlist("effects[]") if e in slugs]
    if weapon and not effects:
        effects = [weapon["effects"][0]["slug"]]
    picked = [t for t in params.getlist("_pick[]") if t in chars and t != shooter]
    banded = {}
    for effect in effects:
        assert card is not None  # effects come from the chosen card
        hit = map_view.bands(state, shooter, card.slug, effect, picked)
        if hit is not None:
            banded[effect] = hit
            picked += [p for p in hit if p not in picked and p != shooter]
    numbers = prefill(weapon, effects, picked, banded)
    moves = [
        (player, name, tuple((sq, square_words(sq, room)) for sq, room in squares))
        for player, name, squares in (
            map_view.move_choices(state, shooter, card.slug, effects, picked, labels)
            if card
            else []
        )
    ]
    notes = {
        char: _note(*judged)
        for char, judged in map_view.target_notes(
            state, shooter, card.slug if card else None, effects
        ).items()
    }
    targets: list[dict[str, Any]] = []
    for char in chars:
        if char == shooter:
            continue
        damage, marks = numbers.get(char, (0, 0))
        targets.append(
            {
                # The character as its slug and colour, all the form shows of it: a
                # Character in the helper's key is a reducer call for the pickle.
                "slug": char,
                "colour": CHARACTERS[char].colour,
                "name": labels[char],
                "picked": char in picked,
                "damage": damage,
                "marks": marks,
                "damage_choices": _choices(max(DAMAGE_CHOICES, damage) + 1),
                "note": notes.get(char),
            }
        )
    chips = [(s, cards[s].name, loaded) for s, loaded in held.items() if s in cards]
    if card is not None and card.slug not in held:
        chips.append((card.slug, card.name, None))  # one the app does not know they hold
    scope_rows = _choices(
        min(
            sum(1 for c in shooter_state["powerups"] if c["kind"] in ("scope", None)),
            sum(shooter_state["ammo"].values()),
            rules.MAX_SCOPES,
        )
    )
    # What the form shows, and only that: it is a live fragment keyed by these
    # values, so a cube paid by a shooter with no scope to use leaves it alone.
    return {
        "shooter": shooter,
        "shooter_name": labels[shooter],
        "weapon_chips": chips,
        "other_weapons": [
            (slug, name)
            for slug, name in weapons_by_name()
            if slug not in held and slug not in elsewhere
        ],
        "weapon": card.slug if card else "",
        "weapon_held": card is not None and card.slug in held,
        "can_pickup": card is not None and card.slug not in held and len(held) < rules.MAX_WEAPONS,
        "pickup_cost": [CUBE_LABELS[c] for c in rules.pickup_cost(card.slug)] if card else [],
        "pickup": params.get("pickup") == "true",
        "weapon_effects": _weapon_effects(card, effects) if weapon else [],
        "targets": targets,
        "moves": moves,
        "ruled_out_picked": any(char in picked and not notes[char]["ok"] for char in notes),
        "scope_rows": scope_rows,
        "scope_colours": [
            (c, CUBE_LABELS[c]) for c in COLOURS if scope_rows and shooter_state["ammo"][c] > 0
        ],
    }


def _weapon_effects(card: Card | None, checked: list[str]) -> list[dict[str, Any]]:
    """The weapon's effects as the shot form lists them, the chosen ones checked."""
    if card is None:
        return []
    return [
        {
            "slug": e["slug"],
            "name": card.localised(e["name"]),
            "text": card.localised(e["text"]),
            "kind": e["kind"],
            "cost": [CUBE_LABELS[c] for c in e.get("extra_cost", [])],
            "checked": e["slug"] in checked,
        }
        for e in card.data["effects"]
    ]


@require_safe
def shot_helper(request: HttpRequest, code: str) -> HttpResponse:
    """The shot helper again, for the choices made so far (weapon, effects, targets)."""
    try:
        session = services.get_session(code)
    except ServiceError as error:
        return HttpResponse(error_text(error), status=404)
    if session.game != PRESENTER.slug:
        return HttpResponse(_("This session is not a game of Adrenaline."), status=404)
    if session.is_ended or session.state["over"]:
        return HttpResponse(_("This game is over: there is no shot to record."), status=409)
    names = {seat.index: seat.name for seat in session.seats.all()}
    return render(
        request,
        "adrenaline/shot_form.html",
        {
            "shot": shot_context(session.state, names, request.GET),
            "act_url": url_of("act", session.code),
            "shot_url": url_of("adrenaline_shot", session.code),
        },
    )
