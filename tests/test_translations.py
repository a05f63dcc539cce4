"""The Italian catalog is complete: every string a player can see has a translation."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def entries(path: Path) -> list[tuple[str, str, bool]]:
    """(msgid, msgstr, fuzzy) for every non-obsolete entry; plural forms joined."""
    result = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        if block.startswith("#~") or "msgid" not in block:
            continue
        fuzzy = bool(re.search(r"^#,.*\bfuzzy\b", block, re.M))
        msgid = "".join(
            re.findall(r'^(?:msgid|msgid_plural)? ?"(.*)"$', block.split("msgstr")[0], re.M)
        )
        msgstrs = re.findall(r'^msgstr(?:\[\d\])? "(.*)"((?:\n".*")*)', block, re.M)
        strings = [first + "".join(re.findall(r'"(.*)"', rest)) for first, rest in msgstrs]
        result.append((msgid, strings, fuzzy))
    return result


def test_every_italian_string_is_translated_and_none_is_fuzzy():
    po = REPO / "locale" / "it" / "LC_MESSAGES" / "django.po"
    missing = [
        msgid for msgid, strings, fuzzy in entries(po) if msgid and (fuzzy or not all(strings))
    ]
    assert missing == []


def test_placeholders_survive_translation():
    po = REPO / "locale" / "it" / "LC_MESSAGES" / "django.po"
    for msgid, strings, _fuzzy in entries(po):
        wanted = set(re.findall(r"%\((\w+)\)", msgid))
        for text in strings:
            assert set(re.findall(r"%\((\w+)\)", text)) <= wanted | {"count", "n"}, msgid
