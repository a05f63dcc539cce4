"""Card catalogs: one row per card, loaded from the data files in the repo."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _


class CardType(models.Model):
    """A kind of card within one game (weapon, spell, bullet, race, …), named in both
    languages. ``Card.kind`` holds the slug."""

    game = models.CharField(max_length=32)
    slug = models.SlugField(max_length=40)
    order = models.PositiveIntegerField(default=0)
    name_en = models.CharField(max_length=60)
    name_it = models.CharField(max_length=60)

    class Meta:
        ordering = ["game", "order"]
        constraints = [
            models.UniqueConstraint(fields=["game", "slug"], name="cardtype_unique_slug")
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.name_en}"

    @property
    def name(self) -> str:
        return self.name_it if _italian() else self.name_en


def _italian() -> bool:
    return (get_language() or "en").startswith("it")


class Card(models.Model):
    game = models.CharField(max_length=32)
    kind = models.CharField(max_length=32, help_text=_("weapon, power-up, spell, …"))
    slug = models.SlugField(max_length=60)
    order = models.PositiveIntegerField(default=0)
    name_en = models.CharField(max_length=80)
    name_it = models.CharField(max_length=80)
    text_en = models.TextField(blank=True)
    text_it = models.TextField(blank=True)
    data = models.JSONField(default=dict, help_text=_("Structured facts: costs, effects, …"))
    # Filter facets, derived from ``data`` by the loader.
    colours = models.CharField(
        max_length=60, blank=True, help_text=_("Ammo colours in the cost, space-separated")
    )
    cost = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("Cubes to reload"))
    damage = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Most damage one target can take from it")
    )
    priority = models.SmallIntegerField(null=True, blank=True, help_text=_("Priority number"))
    search = models.TextField(
        blank=True, editable=False, help_text=_("Names and text in both languages, folded")
    )
    names = models.TextField(
        blank=True, editable=False, help_text=_("Names in both languages, folded")
    )

    class Meta:
        ordering = ["game", "kind", "order"]
        constraints = [models.UniqueConstraint(fields=["game", "slug"], name="card_unique_slug")]

    def __str__(self) -> str:
        return f"{self.game}: {self.name_en}"

    @property
    def name(self) -> str:
        return self.name_it if _italian() else self.name_en

    @property
    def text(self) -> str:
        return self.text_it if _italian() else self.text_en

    @property
    def other_language(self) -> str:
        return "en" if _italian() else "it"

    @property
    def other_name(self) -> str:
        """The name in the other language, where it differs (cards are printed in
        either; a search by one finds the other)."""
        other = self.name_en if _italian() else self.name_it
        return other if other and other != self.name else ""

    def localised(self, value: dict[str, Any] | None) -> Any:
        """Pick this language from a ``{"en": …, "it": …}`` field of ``data``."""
        if not value:
            return ""
        lang = "it" if _italian() else "en"
        return value.get(lang) or value.get("en", "")


_CATALOG_CACHE: dict[tuple[str, str], list[Card]] = {}


def cards_of(game: str, kind: str | None = None) -> list[Card]:
    """A game's cards, cached per process (they change only when the loader runs)."""
    key = (game, kind or "")
    if key not in _CATALOG_CACHE:
        query = Card.objects.filter(game=game)
        if kind:
            query = query.filter(kind=kind)
        _CATALOG_CACHE[key] = list(query)
    return _CATALOG_CACHE[key]


def forget_catalog_cache() -> None:
    _CATALOG_CACHE.clear()
