"""Load every game's catalog data file into ``CardType`` and ``Card`` rows.

The files are the ones the games' declarations name (``Game.catalog``).

Safe to re-run: rows are matched on (game, slug), updated in place, and rows whose
slug left the file are deleted, so two runs leave the same rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from django.db import transaction

from games.engine.declaration import Game
from games.engine.registry import games
from games.models import Card, CardType, forget_catalog_cache
from games.text_fold import fold

LANGUAGES = ("en", "it")
AMMO = ("red", "blue", "yellow")


def data_file(game: Game, relative: str) -> Path:
    """A file of the game's package, named relative to its folder in the declaration."""
    spec = find_spec(game.package)
    if spec is None or not spec.submodule_search_locations:
        raise LookupError(f"no package {game.package!r} for game {game.slug!r}")
    return Path(next(iter(spec.submodule_search_locations))) / relative


def catalog_files() -> list[Path]:
    """The catalog of every declared game that has one, in the declarations' order."""
    return [data_file(game, game.catalog) for game in games().values() if game.catalog]


def _text(card: dict, lang: str) -> str:
    text = card.get("text")
    if isinstance(text, dict):
        return text.get(lang, "")
    lines = [effect.get("text", {}).get(lang, "") for effect in card.get("effects", [])]
    return "\n".join(line for line in lines if line)


def _strings(value: Any, lang: str) -> Iterator[str]:
    """Every string of one language inside a card's data: names, text, notes, effects."""
    if isinstance(value, dict):
        if lang in value and set(value) <= set(LANGUAGES):
            localised = value[lang]
            yield from [localised] if isinstance(localised, str) else localised
            return
        for item in value.values():
            yield from _strings(item, lang)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, lang)


def _numbers(value: Any) -> Iterable[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        return [n for item in value for n in _numbers(item)]
    return []


def facets(card: dict) -> dict[str, Any]:
    """The filterable columns of a card: ammo colours and cost, damage, priority."""
    cost = card.get("reload_cost")
    colours = [c for c in AMMO if c in (cost or [])] or (
        [card["colour"]] if card.get("colour") in AMMO else []
    )
    damages = [n for effect in card.get("effects", []) for n in _numbers(effect.get("damage"))]
    damages += list(_numbers(card.get("damage")))
    priority = card.get("priority", card.get("number"))
    return {
        "colours": " ".join(colours),
        "cost": len(cost) if isinstance(cost, list) else None,
        "damage": max(damages) if damages else None,
        "priority": priority if isinstance(priority, int) else None,
    }


def search_text(card: dict) -> str:
    parts = [card["slug"].replace("-", " ")]
    for lang in LANGUAGES:
        parts += _strings(card, lang)
    return fold(" ".join(parts))


def _load_kinds(game: str, kinds: list[dict]) -> None:
    seen = []
    for order, kind in enumerate(kinds):
        CardType.objects.update_or_create(
            game=game,
            slug=kind["slug"],
            defaults={"order": order, "name_en": kind["name"]["en"], "name_it": kind["name"]["it"]},
        )
        seen.append(kind["slug"])
    CardType.objects.filter(game=game).exclude(slug__in=seen).delete()


@transaction.atomic
def load_catalog(path: Path) -> tuple[str, int, int, int]:
    """Returns (game, created, updated, removed)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    game = document["game"]
    kinds = document.get("kinds", [])
    known_kinds = {kind["slug"] for kind in kinds}
    created = updated = 0
    seen = []
    for order, card in enumerate(document["cards"]):
        if card["kind"] not in known_kinds:
            raise ValueError(f"{path}: card {card['slug']!r} has undeclared kind {card['kind']!r}")
        fields = {
            "kind": card["kind"],
            "order": order,
            "name_en": card["name"]["en"],
            "name_it": card["name"]["it"],
            "text_en": _text(card, "en"),
            "text_it": _text(card, "it"),
            "data": card,
            "search": search_text(card),
            "names": fold(f"{card['name']['en']} {card['name']['it']}"),
            **facets(card),
        }
        _row, was_created = Card.objects.update_or_create(
            game=game, slug=card["slug"], defaults=fields
        )
        created += was_created
        updated += not was_created
        seen.append(card["slug"])
    removed, _details = Card.objects.filter(game=game).exclude(slug__in=seen).delete()
    _load_kinds(game, kinds)
    return game, created, updated, removed


def load_all() -> list[tuple[str, int, int, int]]:
    results = [load_catalog(path) for path in catalog_files()]
    forget_catalog_cache()
    return results
