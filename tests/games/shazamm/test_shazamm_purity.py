"""The Shazamm! engine and bot stay pure: no Django, I/O, clock, json, os or random."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "games" / "shazamm"
FORBIDDEN_MODULES = {
    "django",
    "channels",
    "celery",
    "asgiref",
    "companion",
    "config",
    "redis",
    "psycopg",
    "os",
    "io",
    "sys",
    "pathlib",
    "socket",
    "subprocess",
    "time",
    "datetime",
    "random",
    "secrets",
    "json",
    "requests",
    "urllib",
    "sqlite3",
    "shutil",
    "tempfile",
    "importlib",
}
FORBIDDEN_CALLS = {"open", "input", "print", "exec", "eval", "__import__", "compile"}


# The pure part of the package (views.py and the like belong to the web layer).
PURE = ("__init__.py", "rules.py", "spells.py", "bot.py")


def modules() -> list[Path]:
    return [PACKAGE / name for name in PURE]


def test_the_pure_modules_exist():
    assert all(path.exists() for path in modules())


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.name)
def test_shazamm_module_imports_nothing_impure(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno}"
            continue
        else:
            continue
        for name in names:
            root = name.split(".")[0]
            assert root not in FORBIDDEN_MODULES, f"{path.name}:{node.lineno} imports {name}"
            assert root in {"__future__", "games"} or root in {
                "collections",
                "copy",
                "dataclasses",
                "typing",
                "itertools",
                "functools",
                "math",
            }, f"{path.name}:{node.lineno} imports {name}"
