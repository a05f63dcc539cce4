"""The rules engines stay pure: no Django, Channels, Celery, I/O, clock or global random.

The files checked are ``games.engine`` and every module a game's declaration lists
as pure (``tests/support/purity.py``), so a new game is checked with no edit here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.purity import impurities, module_files, pure_files

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_engine_module_imports_nothing_impure(path: Path):
    assert impurities(path.read_text(), path.name) == []


def test_the_check_catches_an_impure_module():
    """The checker itself: a declared module importing Django, or opening a file, fails."""
    source = "from games.engine import Engine\nimport django.db\nfrom os import path\nopen('x')\n"
    assert impurities(source, "rules.py") == [
        "rules.py:2 imports django.db",
        "rules.py:3 imports os",
        "rules.py:4 calls open()",
    ]


def test_every_declared_module_is_checked():
    """Each game's declared pure modules, its declaration and its package are in the list."""
    from games.engine.registry import games

    checked = set(pure_files())
    for game in games().values():
        for name in game.engine_modules:
            assert set(module_files(name)) <= checked, name
    assert (REPO / "games" / "shazamm" / "bot.py") in checked
    assert (REPO / "games" / "engine" / "registry.py") in checked


def test_the_engines_import_without_django_installed_in_the_process():
    """Import every declared engine module, engine and bot in a fresh interpreter and
    check Django never got loaded."""
    code = (
        "import sys, importlib; import games.engine, games.engine.registry as r; "
        "[importlib.import_module(m) for m in r.engine_modules()]; "
        "[r.get_engine(s) for s in r.engine_slugs()]; [r.get_bot(s) for s in r.bot_slugs()]; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'channels', 'celery')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_linter_contract_holds():
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.skip("import-linter is not installed in this environment")
    result = subprocess.run([str(lint)], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:]
