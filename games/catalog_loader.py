"""Load every game's catalog data file into ``Card`` rows. Safe to re-run."""

from __future__ import annotations

import json
from pathlib import Path

from django.db import transaction

from games.models import Card, forget_catalog_cache

DATA_ROOT = Path(__file__).resolve().parent


def catalog_files() -> list[Path]:
    return sorted(DATA_ROOT.glob("*/data/catalog.json"))


def _text(card: dict, lang: str) -> str:
    text = card.get("text")
    if isinstance(text, dict):
        return text.get(lang, "")
    lines = [effect.get("text", {}).get(lang, "") for effect in card.get("effects", [])]
    return "\n".join(line for line in lines if line)


@transaction.atomic
def load_catalog(path: Path) -> tuple[str, int, int, int]:
    """Returns (game, created, updated, removed)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    game = document["game"]
    created = updated = 0
    seen = []
    for order, card in enumerate(document["cards"]):
        fields = {
            "kind": card["kind"],
            "order": order,
            "name_en": card["name"]["en"],
            "name_it": card["name"]["it"],
            "text_en": _text(card, "en"),
            "text_it": _text(card, "it"),
            "data": card,
        }
        _row, was_created = Card.objects.update_or_create(
            game=game, slug=card["slug"], defaults=fields
        )
        created += was_created
        updated += not was_created
        seen.append(card["slug"])
    removed, _details = Card.objects.filter(game=game).exclude(slug__in=seen).delete()
    return game, created, updated, removed


def load_all() -> list[tuple[str, int, int, int]]:
    results = [load_catalog(path) for path in catalog_files()]
    forget_catalog_cache()
    return results
