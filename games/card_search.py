"""Finding cards by what a player types, typos included.

One policy for every database (``find``):

1. Exact: every typed word (folded: no case, accents or punctuation) is in the
   card's names or text. Cards whose names start with the words come first, then
   names that contain them, then text matches; ties in catalog order.
2. Only when nothing matches exactly: close matches on the names (both
   languages), best first; and if no name is close either, close matches on the
   text. Of these, only the ones nearly as close as the closest. ``Found.close``
   says so, for the "Showing close matches" line.

The one thing that depends on the database is how close a card is to the words
(``closeness``): PostgreSQL's own trigram similarity (pg_trgm, migration 0003);
elsewhere (the embedded SQLite default) RapidFuzz over the catalog, which is a few
hundred cards. The two measure differently; the cut-offs are set so both find the
same cards for the typos in tests/games/test_card_search.py (they part on a few
borderline ones: a lone four-letter word with two letters swapped, "lokc", is
close to Lock only for RapidFuzz; trigrams see it as near "load" and "loss" too).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connections
from django.db.models import QuerySet
from rapidfuzz import fuzz, process

from games.engine.registry import games
from games.models import Card
from games.text_fold import words

# Close matches are looked for in this order; the first that finds any wins.
CLOSE_FIELDS = ("names", "search")
# Fewer typed letters than this: no close matches (three letters are close to
# too much).
MIN_CLOSE_LETTERS = 4
# PostgreSQL: least strict_word_similarity(typed words, column) for a close
# match, and least word_similarity(each typed word, column).
TRIGRAM_CUTOFF = {"names": 0.3, "search": 0.45}
TRIGRAM_WORD_FLOOR = 0.2
# Close matches shown: those at least this share as close as the closest one.
CLOSE_MARGIN = 0.8
# RapidFuzz: least ratio (0–100) between a typed word and a word of the column,
# for every typed word.
WORD_CUTOFF = {"names": 75.0, "search": 80.0}


@dataclass(frozen=True)
class Found:
    cards: list[Card] = field(default_factory=list)
    close: bool = False  # nothing matched exactly; these are close matches


def find(cards: QuerySet[Card], query: str) -> Found:
    """The cards of ``cards`` that ``query`` finds, best first."""
    typed = words(query)
    light = cards.defer("data", "search")
    if not typed:
        return Found(sorted(light, key=catalog_order))
    exact = light
    for word in typed:
        exact = exact.filter(search__contains=word)
    found = list(exact)
    if found:
        return Found(sorted(found, key=lambda c: (_name_tier(c, typed), *catalog_order(c))))
    if sum(map(len, typed)) < MIN_CLOSE_LETTERS:
        return Found()
    for column in CLOSE_FIELDS:
        scores = closeness(cards, typed, column)
        if scores:
            least = max(scores.values()) * CLOSE_MARGIN
            close = light.filter(id__in=[key for key, score in scores.items() if score >= least])
            return Found(
                sorted(close, key=lambda card: (-round(scores[card.id], 3), *catalog_order(card))),
                close=True,
            )
    return Found()


def catalog_order(card: Card) -> tuple[int, str, int]:
    """Games in the declarations' order, then the card's place in its catalog."""
    slugs = list(games())
    game = slugs.index(card.game) if card.game in slugs else len(slugs)
    return (game, card.kind, card.order)


def _name_tier(card: Card, typed: list[str]) -> int:
    """0: every word starts a word of the names; 1: is in the names; 2: only in the text."""
    name_words = card.names.split()
    if all(any(name.startswith(word) for name in name_words) for word in typed):
        return 0
    return 1 if all(word in card.names for word in typed) else 2


def closeness(cards: QuerySet[Card], typed: list[str], column: str) -> dict[int, float]:
    """{card id: 0–1} for the cards whose ``column`` is close to the typed words."""
    vendor = connections[cards.db].vendor
    measure: Callable[[QuerySet[Card], list[str], str], dict[int, float]]
    measure = _trigram_closeness if vendor == "postgresql" else _rapidfuzz_closeness
    return measure(cards, typed, column)


def _trigram_closeness(cards: QuerySet[Card], typed: list[str], column: str) -> dict[int, float]:
    """Strict word similarity of the typed words to the column; every typed word
    must also be somewhat like a part of it."""
    from django.contrib.postgres.search import TrigramStrictWordSimilarity, TrigramWordSimilarity

    close = cards.annotate(closeness=TrigramStrictWordSimilarity(" ".join(typed), column))
    close = close.filter(closeness__gte=TRIGRAM_CUTOFF[column])
    if len(typed) > 1:
        for n, word in enumerate(typed):
            close = close.alias(**{f"like_{n}": TrigramWordSimilarity(word, column)})
            close = close.filter(**{f"like_{n}__gte": TRIGRAM_WORD_FLOOR})
    return {card_id: float(score) for card_id, score in close.values_list("id", "closeness")}


def _rapidfuzz_closeness(cards: QuerySet[Card], typed: list[str], column: str) -> dict[int, float]:
    """Every typed word must be close to a word of the column; the score is the mean."""
    rows = [(card_id, set(text.split())) for card_id, text in cards.values_list("id", column)]
    vocabulary = sorted(set().union(*(own for _, own in rows)))
    near = [
        {choice: score for choice, score, _ in matches}
        for matches in (
            process.extract(
                word, vocabulary, scorer=fuzz.ratio, score_cutoff=WORD_CUTOFF[column], limit=None
            )
            for word in typed
        )
    ]
    scores = {}
    for card_id, own in rows:
        best = [max((score for w, score in n.items() if w in own), default=0.0) for n in near]
        if all(best):
            scores[card_id] = sum(best) / len(best) / 100
    return scores
