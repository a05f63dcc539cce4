"""Import-linter contract types that read the games' declarations (tooling only).

``pure_engines`` is import-linter's ``forbidden`` contract whose source modules are
the ones listed in ``pyproject.toml`` *plus* every module a game declares pure
(``Game.engine_modules``, found by ``games.engine.registry``). A new game is
checked without editing ``pyproject.toml``.

Source modules are checked as packages (with everything under them), so a game's
package itself is left out here: it also holds the game's web side. Its
``__init__`` is checked by ``tests/games/test_engine_purity.py``.
"""

from __future__ import annotations

from typing import Any

from importlinter.contracts.forbidden import ForbiddenContract

from games.engine.registry import games


class PureEnginesContract(ForbiddenContract):
    type_name = "pure_engines"

    def __init__(
        self, name: str, session_options: dict[str, Any], contract_options: dict[str, Any]
    ) -> None:
        listed = list(contract_options.get("source_modules", []))
        declared = [
            module
            for game in games().values()
            for module in game.engine_modules
            if module != game.package and module not in listed
        ]
        contract_options = {**contract_options, "source_modules": listed + declared}
        super().__init__(name, session_options, contract_options)
