"""Find sentences copied from the rulebooks in /work/shared/seeds.

Player-facing text must be written in our own words; `copied_runs` reports every
run of consecutive words that a text shares with any rulebook.
"""

import re
import unicodedata
from functools import cache
from pathlib import Path

SEEDS_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
SHINGLE = 8

_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    """Lower-case, fold accents and split on anything that is not a letter or digit."""
    folded = unicodedata.normalize("NFKD", text.lower())
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return _WORD.findall(folded)


def seeds_available() -> bool:
    return SEEDS_DIR.is_dir() and any(SEEDS_DIR.glob("*.txt"))


@cache
def seed_shingles(n: int = SHINGLE) -> frozenset[tuple[str, ...]]:
    """Every run of n consecutive words in any rulebook."""
    shingles: set[tuple[str, ...]] = set()
    for path in sorted(SEEDS_DIR.glob("*.txt")):
        tokens = words(path.read_text(encoding="utf-8"))
        shingles.update(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    return frozenset(shingles)


def copied_runs(text: str, n: int = SHINGLE) -> list[str]:
    """Runs of n or more consecutive words that `text` shares with the rulebooks.

    Overlapping n-word matches are merged into one longer run.
    """
    tokens = words(text)
    shingles = seed_shingles(n)
    hits = [i for i in range(len(tokens) - n + 1) if tuple(tokens[i : i + n]) in shingles]
    runs: list[str] = []
    start = end = None
    for i in hits:
        if end is not None and i <= end:
            end = i + n
            continue
        if start is not None:
            runs.append(" ".join(tokens[start:end]))
        start, end = i, i + n
    if start is not None:
        runs.append(" ".join(tokens[start:end]))
    return runs
