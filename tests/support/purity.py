"""The purity checker: which files are engine modules, and what in a file is impure.

Which modules are engine modules comes from the games' declarations
(``games/<game>/game.py``: the package, the declaration and ``pure_modules``) plus
the ``games.engine`` package, through ``games.engine.registry.engine_modules``.
"""

from __future__ import annotations

import ast
from importlib.util import find_spec
from pathlib import Path

from games.engine.registry import engine_modules

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


def module_files(name: str) -> list[Path]:
    """The source file of a module, or every file of a package (and its subpackages)."""
    spec = find_spec(name)
    assert spec is not None and spec.origin, f"declared engine module {name} does not exist"
    if name == "games.engine":
        return sorted(Path(spec.origin).parent.rglob("*.py"))
    return [Path(spec.origin)]


def pure_files() -> list[Path]:
    files: list[Path] = []
    for name in engine_modules():
        files.extend(path for path in module_files(name) if path not in files)
    return files


def impurities(source: str, filename: str = "<module>") -> list[str]:
    """What in this source breaks purity: forbidden imports and calls, with line numbers."""
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in FORBIDDEN_CALLS:
                found.append(f"{filename}:{node.lineno} calls {node.func.id}()")
            continue
        else:
            continue
        found.extend(
            f"{filename}:{node.lineno} imports {name}"
            for name in names
            if name.split(".")[0] in FORBIDDEN_MODULES
        )
    return found
