"""Short join codes a person can read aloud and type on a phone."""

from __future__ import annotations

import secrets

# No 0/O, 1/I/L, 2/Z, 5/S, 8/B: nothing that reads as something else.
ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
LENGTH = 5


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(raw: str) -> str:
    """Accept what people type: lower case, spaces and dashes are fine."""
    return "".join(ch for ch in raw.upper() if ch.isalnum())[:16]


def is_well_formed(code: str) -> bool:
    return len(code) == LENGTH and all(ch in ALPHABET for ch in code)
