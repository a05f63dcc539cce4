"""The rules engines stay pure: no Django, Channels, Celery, I/O, clock or global random."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PURE = [
    REPO / "games" / "engine",
    REPO / "games" / "adrenaline" / "rules.py",
    REPO / "games" / "adrenaline" / "scoring.py",
    REPO / "games" / "munchkin" / "rules.py",
    REPO / "games" / "munchkin" / "actions.py",
    REPO / "games" / "munchkin" / "character.py",
    REPO / "games" / "munchkin" / "combat.py",
]
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
    "pathlib",
    "socket",
    "subprocess",
    "time",
    "datetime",
    "random",
    "requests",
    "urllib",
    "sqlite3",
    "shutil",
    "tempfile",
    "json",
}
FORBIDDEN_CALLS = {"open", "input", "print", "exec", "eval", "__import__"}


def pure_files() -> list[Path]:
    files: list[Path] = []
    for path in PURE:
        files.extend(
            sorted(path.glob("*.py")) if path.is_dir() else [path] if path.exists() else []
        )
    return files


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_engine_module_imports_nothing_impure(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, (
                f"{path.name}:{node.lineno} calls {node.func.id}()"
            )
            continue
        else:
            continue
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN_MODULES, (
                f"{path.name}:{node.lineno} imports {name}"
            )


def test_the_engines_import_without_django_installed_in_the_process():
    """Import every engine in a fresh interpreter and check Django never got loaded."""
    code = (
        "import sys; import games.engine, games.engine.registry as r; "
        "[r.get_engine(s) for s in r.engine_slugs()]; [r.get_bot(s) for s in r.BOTS]; "
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
