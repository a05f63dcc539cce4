"""Folding text for search: case-, accent- and punctuation-insensitive."""

from __future__ import annotations

import re
import unicodedata

_NOT_WORD = re.compile(r"[^\w]+")


def fold(text: str) -> str:
    """``"L'Attacco più Forte!"`` → ``"l attacco piu forte"``."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _NOT_WORD.sub(" ", bare.casefold()).strip()


def words(query: str, limit: int = 8) -> list[str]:
    """The distinct folded words of a query, at most ``limit`` of them."""
    seen: list[str] = []
    for word in fold(query).split():
        if word not in seen:
            seen.append(word)
    return seen[:limit]
