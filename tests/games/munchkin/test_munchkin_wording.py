"""Player-facing text of the Munchkin engine is our own: no sentence copied from the
rulebook, and every message is a literal msgid that makemessages can extract."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.seeds import SEEDS_DIR, copied_runs, seeds_available

REPO = Path(__file__).resolve().parents[3]
PACKAGE = REPO / "games" / "munchkin"
DOC = REPO / "docs" / "rules" / "munchkin.md"

needs_seeds = pytest.mark.skipif(
    not seeds_available(), reason=f"rulebook seeds expected in {SEEDS_DIR}"
)


def msgids() -> list[str]:
    """Every string marked with ``_()`` in the engine's modules."""
    found: list[str] = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_":
                assert len(node.args) == 1, f"{path.name}:{node.lineno}"
                arg = node.args[0]
                assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                    f"{path.name}:{node.lineno}: _() needs a literal string"
                )
                found.append(arg.value)
    return found


def test_the_engine_marks_its_messages_for_translation() -> None:
    assert len(msgids()) > 40


@needs_seeds
def test_no_message_copies_the_rulebook() -> None:
    copied = {text: copied_runs(text) for text in msgids()}
    assert {text: runs for text, runs in copied.items() if runs} == {}


@needs_seeds
def test_the_rules_decisions_doc_copies_no_sentence_from_the_rulebook() -> None:
    assert copied_runs(DOC.read_text(encoding="utf-8")) == []
