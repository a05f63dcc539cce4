"""The card reference: search and filter every game's cards, card pages, rules pages.

Read-only pages anyone can open, session or not. Card rows come from the catalog
loader (``manage.py load_catalogs``); rules pages straight from the rules summary
each game's declaration names (``Game.rules``). The games are the declared ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from typing import Any
from urllib.parse import urlencode

from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url

from companion.errors import BadRequest, NotFound
from companion.htmx import HtmxHttpRequest
from companion.paths import url_of
from companion.views import _error_response
from games.card_search import Found, find
from games.catalog_loader import AMMO, data_file
from games.engine.registry import games
from games.models import Card, CardType

# Every declared game by slug, its name in the reader's language, in the order the
# filters list them.
GAMES: dict[str, Any] = {slug: _(game.name) for slug, game in games().items()}
COLOUR_NAMES = {"red": _("red"), "blue": _("blue"), "yellow": _("yellow")}
MAX_QUERY = 100
MAX_NUMBER = 99
PAGE = 60


@dataclass(frozen=True)
class CardQuery:
    """What a search asks for: words and filters, validated."""

    q: str = ""
    game: str = ""
    kind: str = ""
    colour: str = ""
    cost: int | None = None
    damage: int | None = None
    priority: int | None = None

    @property
    def is_empty(self) -> bool:
        return self == CardQuery()

    @property
    def has_filters(self) -> bool:
        return replace(self, q="") != CardQuery()

    @property
    def has_facets(self) -> bool:
        """A "More filters" filter is set."""
        return any(getattr(self, facet) not in ("", None) for facet in FACETS)

    def params(self) -> dict[str, str]:
        """The GET parameters that ask for this search, in the form's order."""
        return {
            name: str(value)
            for name in self.__dataclass_fields__
            if (value := getattr(self, name)) not in ("", None)
        }

    def url(self) -> str:
        params = self.params()
        return reverse("cards") + (f"?{urlencode(params)}" if params else "")


# The filters under "More filters", each a column of ``Card``; a game offers the
# ones some of its cards have.
FACETS = {"colour": "colours", "cost": "cost", "damage": "damage", "priority": "priority"}


def _number(raw: str, field: str) -> int | None:
    if raw == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(gettext_noop("“%(field)s” must be a whole number."), field=field) from None
    if not 0 <= value <= MAX_NUMBER:
        raise BadRequest(
            gettext_noop("“%(field)s” must be between 0 and %(max)s."), field=field, max=MAX_NUMBER
        )
    return value


def parse_query(params: Any) -> CardQuery:
    """A ``CardQuery`` from GET parameters, or ``BadRequest`` saying what is wrong.

    A filter that exists but does not apply to the chosen game (another game's
    card type, ammo colours for Shazamm!) is not an error: ``fit_to_game`` drops it."""
    raw = {name: str(params.get(name, "")).strip() for name in CardQuery.__dataclass_fields__}
    if len(raw["q"]) > MAX_QUERY:
        raise BadRequest(gettext_noop("Search for at most %(max)s characters."), max=MAX_QUERY)
    game, kind, colour = raw["game"], raw["kind"], raw["colour"]
    if game and game not in GAMES:
        raise BadRequest(gettext_noop("There is no game called “%(game)s”."), game=game[:32])
    if kind and not CardType.objects.filter(slug=kind).exists():
        raise BadRequest(gettext_noop("There is no card type “%(kind)s”."), kind=kind[:32])
    if colour and colour not in AMMO:
        raise BadRequest(gettext_noop("There is no ammo colour “%(colour)s”."), colour=colour[:16])
    return CardQuery(
        q=raw["q"],
        game=game,
        kind=kind,
        colour=colour,
        cost=_number(raw["cost"], "cost"),
        damage=_number(raw["damage"], "damage"),
        priority=_number(raw["priority"], "priority"),
    )


def facets_of(game: str) -> list[str]:
    """The "More filters" a game's cards can be told apart by (every one for all games)."""
    if not game:
        return list(FACETS)
    cards = Card.objects.filter(game=game)
    counts = cards.aggregate(
        colour=Count("id", filter=~Q(colours="")),
        **{facet: Count(column) for facet, column in FACETS.items() if facet != "colour"},
    )
    return [facet for facet in FACETS if counts[facet]]


def fit_to_game(query: CardQuery, kinds: list[CardType], facets: list[str]) -> CardQuery:
    """The query without the filters that do not apply to its game (``facets``: the
    game's own): choosing a game drops the card type and "More filters" of another."""
    if not query.game:
        return query
    dropped: dict[str, Any] = {
        facet: "" if facet == "colour" else None for facet in FACETS if facet not in facets
    }
    if query.kind and not any(k.game == query.game and k.slug == query.kind for k in kinds):
        dropped["kind"] = ""
    return replace(query, **dropped)


def find_cards(query: CardQuery) -> Found:
    """Cards matching the words (names, text and notes, both languages; close
    matches when none matches exactly, see ``games.card_search``) and every filter."""
    cards = Card.objects.all()
    if query.game:
        cards = cards.filter(game=query.game)
    if query.kind:
        cards = cards.filter(kind=query.kind)
    if query.colour:
        cards = cards.filter(colours__contains=query.colour)
    if query.cost is not None:
        cards = cards.filter(cost=query.cost)
    if query.damage is not None:
        cards = cards.filter(damage__gte=query.damage)
    if query.priority is not None:
        cards = cards.filter(priority=query.priority)
    return find(cards, query.q)


def _game_index(game: str) -> int:
    return list(GAMES).index(game) if game in GAMES else len(GAMES)


def cubes(colours: Any) -> list[tuple[str, Any]]:
    """Ammo cubes as (colour, its name in this language), for icons with a text."""
    return [(c, COLOUR_NAMES.get(c, c)) for c in (colours or [])]


def _filters_context(query: CardQuery, kinds: list[CardType], facets: list[str]) -> dict[str, Any]:
    return {
        "games": list(GAMES.items()),
        "kinds": [
            (k.slug, k.name if query.game else f"{GAMES.get(k.game, k.game)}: {k.name}")
            for k in sorted(kinds, key=lambda k: _game_index(k.game))
            if not query.game or k.game == query.game
        ],
        "facets": facets,
        "game_title": GAMES.get(query.game, ""),
        "colours": list(COLOUR_NAMES.items()),
        "numbers": range(1, 4),
        "damages": range(1, 5),
        "priorities": range(0, 15),
    }


def _results_context(query: CardQuery, kinds: list[CardType]) -> dict[str, Any]:
    found = find_cards(query)
    by_key = {(k.game, k.slug): k for k in kinds}
    rows = [
        (
            card,
            GAMES.get(card.game, card.game),
            by_key.get((card.game, card.kind)),
            cubes(card.colours.split()),
        )
        for card in found.cards[:PAGE]
    ]
    return {
        "query": query,
        "rows": rows,
        "count": len(found.cards),
        "close": found.close,
        "more": max(0, len(found.cards) - PAGE),
        "unfiltered_url": CardQuery(q=query.q).url(),
        "all_cards_url": CardQuery().url(),
    }


@require_safe
@vary_on_headers("HX-Request")
def card_index(request: HtmxHttpRequest) -> HttpResponse:
    try:
        asked = parse_query(request.GET)
    except BadRequest as error:
        return _error_response(request, error)
    kinds = list(CardType.objects.all())
    facets = facets_of(asked.game)
    query = fit_to_game(asked, kinds, facets)
    partial = request.htmx and not request.htmx.history_restore_request
    if query != asked and not partial:
        return redirect(query.url())  # the address says what the page shows
    context = _results_context(query, kinds)
    context.update(_filters_context(query, kinds, facets))
    if partial:
        # The results and the filters that apply; the address: this search, without
        # the dropped filters and the form's empty fields.
        response = render(request, "cards/results.html", {**context, "oob": True})
        return push_url(response, query.url())
    return render(request, "cards/index.html", context)


# ---------------------------------------------------------------- card pages

COST_FIELDS = ("reload_cost", "pickup_cost")
EFFECT_KINDS = {
    "basic": _("Basic effect"),
    "optional": _("Optional effect"),
    "mode": _("Alternative mode"),
}


def _lang() -> str:
    return "it" if (get_language() or "en").startswith("it") else "en"


def localise(value: Any) -> Any:
    if isinstance(value, dict) and set(value) <= {"en", "it"} and value:
        return value.get(_lang()) or value.get("en", "")
    return value


def card_facts(card: Card) -> list[tuple[str, Any]]:
    """The card's numbers, each with a label a player reads (structured fields only)."""
    data = card.data
    facts: list[tuple[str, Any]] = []
    for field_name, label in FACT_LABELS.items():
        if field_name not in data or field_name in COST_FIELDS:
            continue
        value = localise(data[field_name])
        if value is None or value == "" or value == []:
            continue
        if isinstance(value, bool):
            value = _("yes") if value else _("no")
        elif isinstance(value, list):
            value = ", ".join(str(localise(item)) for item in value)
        facts.append((str(label), value))
    return facts


FACT_LABELS: dict[str, Any] = {
    "number": _("Priority"),
    "priority": _("Priority"),
    "copies": _("Copies in the deck"),
    "ranks": _("Card ranks"),
    "rank": _("Rank"),
    "value": _("Value"),
    "damage": _("Damage"),
    "effect_known": _("Effect known"),
}


def _effects(card: Card) -> list[dict[str, Any]]:
    effects = []
    for effect in card.data.get("effects", []):
        damage = effect.get("damage")
        effects.append(
            {
                "kind": EFFECT_KINDS.get(effect.get("kind"), ""),
                "name": localise(effect.get("name")),
                "extra_cost": cubes(effect.get("extra_cost")),
                "damage": "/".join(map(str, damage)) if isinstance(damage, list) else damage,
                "marks": effect.get("marks"),
                "text": localise(effect.get("text")),
            }
        )
    return effects


@require_safe
def card_page(request: HtmxHttpRequest, game: str, slug: str) -> HttpResponse:
    card = Card.objects.filter(game=game, slug=slug).first()
    if card is None:
        return _error_response(
            request, NotFound(gettext_noop("There is no card “%(card)s” here."), card=slug[:60])
        )
    data = card.data
    context = {
        "card": card,
        "kind": CardType.objects.filter(game=card.game, slug=card.kind).first(),
        "game_title": GAMES.get(card.game, card.game),
        "reload_cost": cubes(data.get("reload_cost")),
        "pickup_cost": cubes(data.get("pickup_cost")) if "pickup_cost" in data else None,
        "effects": _effects(card),
        "notes": localise(data.get("notes")) or [],
        "facts": card_facts(card),
        "has_rules": rules_of(card.game) is not None,
    }
    return render(request, "cards/card.html", context)


# ---------------------------------------------------------------- rules pages


@cache
def rules_of(game: str) -> dict[str, Any] | None:
    """A game's rules summary (``data/rules.json``), or None when it has none."""
    declared = games().get(str(game))  # str: a slug from a template may be a SafeString
    if declared is None or declared.rules is None:
        return None
    path = data_file(declared, declared.rules)
    if not path.exists():
        return None
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def rules_url(game: str, section: str) -> str:
    """Where a "?" help link points: one section of a game's rules page."""
    return f"{url_of('rules', game)}#{section}"


@require_safe
def rules_page(request: HtmxHttpRequest, game: str) -> HttpResponse:
    document = rules_of(game)
    if document is None:
        return _error_response(
            request,
            NotFound(gettext_noop("There is no rules page for “%(game)s”."), game=game[:32]),
        )
    sections = [
        {
            "slug": section["slug"],
            "title": localise(section["title"]),
            "points": localise(section["points"]),
        }
        for section in document["sections"]
    ]
    context = {
        "game": game,
        "game_title": GAMES[game],
        "title": localise(document["title"]),
        "sections": sections,
        "has_cards": Card.objects.filter(game=game).exists(),
    }
    return render(request, "cards/rules.html", context)
