"""Load a game's card catalog and rules summary, and check the rules every game's data keeps.

Each game ships games/<game>/data/catalog.json (the cards a player looks up) and
rules.json (the rules summary behind the "?" buttons). `GameData` reads them; the
`assert_*` checks take plain dicts and lists, so a game's test file states only its
own facts (kinds, section slugs, limits) and a check can be fed broken data to show
that it fails.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import cached_property
from pathlib import Path

import pytest

from tests.support.seeds import SEEDS_DIR, copied_runs, seeds_available

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"
LANGUAGES = ("en", "it")
MAX_TEXT_CHARS = 200  # one or two sentences on a phone screen
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
POINTS_PER_SECTION = (3, 8)

needs_seeds = pytest.mark.skipif(
    not seeds_available(), reason=f"rulebook seeds expected in {SEEDS_DIR}"
)


class GameData:
    """One game's catalog.json and rules.json, read once."""

    def __init__(self, game_dir: str) -> None:
        self.data_dir = GAMES_DIR / game_dir / "data"

    def _load(self, name: str) -> dict:
        return json.loads((self.data_dir / name).read_text(encoding="utf-8"))

    @cached_property
    def _catalog(self) -> dict:
        return self._load("catalog.json")

    @cached_property
    def _rules(self) -> dict:
        return self._load("rules.json")

    def catalog(self) -> dict:
        return self._catalog

    def rules(self) -> dict:
        return self._rules

    def cards(self, kind: str | None = None) -> list[dict]:
        return [c for c in self._catalog["cards"] if kind is None or c["kind"] == kind]

    def card(self, slug: str) -> dict:
        return next(c for c in self._catalog["cards"] if c["slug"] == slug)

    def section_text(self, slug: str, lang: str = "en") -> str:
        """The points of one rules section joined into one string."""
        section = next(s for s in self._rules["sections"] if s["slug"] == slug)
        return " ".join(section["points"][lang])

    @staticmethod
    def player_texts(card: dict) -> list[str]:
        """Every player-facing sentence on a card, both languages."""
        texts = []
        for lang in LANGUAGES:
            texts += [card[key][lang] for key in ("text", "timing") if key in card]
            texts += card["notes"][lang]
            texts += [e["text"][lang] for e in card.get("effects", [])]
        return texts

    def rules_texts(self) -> list[str]:
        """Every player-facing line of the rules summary, both languages."""
        return rules_texts(self._rules)


def rules_texts(rules: dict) -> list[str]:
    """The title, section titles and points of a rules summary, both languages."""
    texts = [rules["title"][lang] for lang in LANGUAGES]
    for section in rules["sections"]:
        for lang in LANGUAGES:
            texts.append(section["title"][lang])
            texts += section["points"][lang]
    return texts


# --- The catalog --------------------------------------------------------------------


def assert_kinds(catalog: dict, game: str, kinds: Sequence[tuple[str, str, str]]) -> None:
    """The catalog is for `game` and declares exactly `kinds` (slug, en, it), in order."""
    assert catalog["game"] == game
    assert catalog["kinds"] == [
        {"slug": slug, "name": {"en": en, "it": it}} for slug, en, it in kinds
    ]


def assert_clean_unique_slugs(cards: Iterable[dict], kinds: Iterable[str] | None = None) -> None:
    """Card slugs are unique and lower-case-dashed; with `kinds`, each card's kind is one."""
    cards = list(cards)
    slugs = [c["slug"] for c in cards]
    assert len(slugs) == len(set(slugs)), sorted(s for s in slugs if slugs.count(s) > 1)
    declared = None if kinds is None else set(kinds)
    for c in cards:
        assert SLUG.match(c["slug"]), c["slug"]
        if declared is not None:
            assert c["kind"] in declared, c["slug"]


def assert_slugs_from_english_names(cards: Iterable[dict]) -> None:
    """A card's slug is its English name, lower-cased, with dashes for anything else."""
    for c in cards:
        expected = re.sub(r"[^a-z0-9]+", "-", c["name"]["en"].lower()).strip("-")
        assert c["slug"] == expected, (c["slug"], expected)


def assert_texts_in_both_languages(cards: Iterable[dict], notes_required: bool = False) -> None:
    """Every card has a name and text in each language, no blank note, and as many
    notes in Italian as in English; with `notes_required`, at least one note."""
    for c in cards:
        for lang in LANGUAGES:
            assert c["name"][lang].strip(), (c["slug"], lang)
            assert c["text"][lang].strip(), (c["slug"], lang)
            if notes_required:
                assert c["notes"][lang], (c["slug"], lang)
            assert all(n.strip() for n in c["notes"][lang]), (c["slug"], lang)
        assert len(c["notes"]["en"]) == len(c["notes"]["it"]), c["slug"]


def assert_texts_fit(
    texts: Iterable[str], limit: int = MAX_TEXT_CHARS, where: object = None
) -> None:
    """Each text fits a phone screen: at most `limit` characters."""
    for text in texts:
        assert len(text) <= limit, text if where is None else (where, text)


def assert_card_texts_fit(data: GameData, limit: int = MAX_TEXT_CHARS) -> None:
    """Every card's player-facing texts fit a phone screen."""
    for c in data.cards():
        assert_texts_fit(data.player_texts(c), limit, where=c["slug"])


# --- The rules summary --------------------------------------------------------------


def assert_rules_summary_complete(
    rules: dict,
    game: str,
    sections: Sequence[str] | None = None,
    required: Iterable[str] = (),
    points: tuple[int, int] = POINTS_PER_SECTION,
) -> None:
    """The summary is for `game`, titled in both languages, with unique clean section
    slugs (exactly `sections` in order, if given; at least `required`), and every
    section has a title and the same number of non-blank points in both languages,
    within `points` (fewest, most)."""
    assert rules["game"] == game
    assert all(rules["title"][lang].strip() for lang in LANGUAGES)
    slugs = [s["slug"] for s in rules["sections"]]
    assert len(slugs) == len(set(slugs)), slugs
    assert all(SLUG.match(slug) for slug in slugs), slugs
    if sections is not None:
        assert slugs == list(sections)
    assert set(required) <= set(slugs), sorted(set(required) - set(slugs))
    fewest, most = points
    for section in rules["sections"]:
        assert all(section["title"][lang].strip() for lang in LANGUAGES), section["slug"]
        counts = [len(section["points"][lang]) for lang in LANGUAGES]
        assert counts[0] == counts[1], section["slug"]
        assert fewest <= counts[0] <= most, section["slug"]
        for lang in LANGUAGES:
            assert all(p.strip() for p in section["points"][lang]), (section["slug"], lang)


# --- Our own words ---------------------------------------------------------------------


def assert_not_copied(texts: Iterable[str]) -> None:
    """No text shares a run of words with a rulebook (see tests/support/seeds.py)."""
    copied = {t: runs for t in texts if (runs := copied_runs(t))}
    assert not copied, copied
