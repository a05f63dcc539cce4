"""Games are found from their declarations (``games/<game>/game.py``), and only there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.catalog_loader import catalog_files, data_file
from games.engine.declaration import Game
from games.engine.protocol import Engine
from games.engine.registry import (
    bot_slugs,
    engine_modules,
    engine_slugs,
    games,
    get_bot,
    get_engine,
    has_bot,
)
from games.presenter import Presenter
from games.reference import GAMES, rules_of
from games.views import presenter_for, presenters

REPO = Path(__file__).resolve().parents[2]
DECLARED = list(games().values())


def test_the_declared_games_are_the_packages_with_a_declaration():
    folders = {path.parent.name for path in (REPO / "games").glob("*/game.py")}
    assert {game.package.removeprefix("games.") for game in DECLARED} == folders
    assert set(games()) == {"adrenaline", "munchkin", "shazamm", "kablamo", "plastic-attack"}


def test_the_platform_lists_come_from_the_declarations():
    playable = [game.slug for game in DECLARED if game.engine]
    assert (
        engine_slugs()
        == playable
        == [
            "adrenaline",
            "kablamo",
            "munchkin",
            "plastic-attack",
            "shazamm",
        ]
    )
    assert [p.slug for p in presenters()] == [g.slug for g in DECLARED if g.presenter]
    assert bot_slugs() == ["plastic-attack", "shazamm"]
    assert has_bot("shazamm") and not has_bot("adrenaline") and not has_bot("kablamo")
    assert list(GAMES) == list(games())
    assert len(catalog_files()) == sum(1 for game in DECLARED if game.catalog)


def test_every_game_with_an_engine_has_its_screens_and_rules():
    for game in DECLARED:
        assert game.engine and game.presenter and rules_of(game.slug) is not None
        assert get_engine(game.slug).slug == game.slug
        assert presenter_for(game.slug).slug == game.slug


@pytest.mark.parametrize("game", DECLARED, ids=lambda g: g.slug)
def test_each_declaration_names_parts_that_exist(game: Game):
    assert game.module == f"{game.package}.game"
    assert game.name and game.players
    if game.engine:
        engine = get_engine(game.slug)
        assert isinstance(engine, Engine)
        assert engine.slug == game.slug
        # The engine, and the bot, live in modules the purity checks cover.
        assert game.engine.split(":")[0] in game.pure_modules
    if game.bot:
        assert game.bot.split(":")[0] in game.pure_modules
        assert callable(get_bot(game.slug))
    if game.presenter:
        assert game.engine, "a presenter needs an engine"
        presenter = presenter_for(game.slug)
        assert isinstance(presenter, Presenter)
        assert presenter.slug == game.slug
    if game.templates:
        assert (REPO / "templates" / game.templates).is_dir()
    if game.catalog:
        document = json.loads(data_file(game, game.catalog).read_text(encoding="utf-8"))
        assert document["game"] == game.slug
    if game.rules:
        assert data_file(game, game.rules).exists()
    for name in game.engine_modules:
        assert name in engine_modules()


def test_the_declarations_and_the_engine_protocols_are_runtime_checkable():
    """``isinstance`` against the protocols checks attributes and methods are there."""

    class Nothing:
        pass

    assert not isinstance(Nothing(), Engine)
    assert not isinstance(Nothing(), Presenter)


@pytest.fixture
def new_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A game package "ludo" that exists only in a temporary folder, added to ``games``."""
    import importlib
    import sys

    import games as games_package

    package = tmp_path / "ludo"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "game.py").write_text(
        "from games.engine.declaration import Game\n"
        'GAME = Game(slug="ludo", name="Ludo", module=__name__, players="2-4",\n'
        '            engine="rules:ENGINE", pure_modules=("rules", "moves"))\n'
    )
    (package / "rules.py").write_text("from games.ludo import moves\nENGINE = moves\n")
    (package / "moves.py").write_text("import django.db\n")  # the impurity to catch
    monkeypatch.setattr(games_package, "__path__", [*games_package.__path__, str(tmp_path)])
    importlib.invalidate_caches()
    games.cache_clear()
    yield package
    games.cache_clear()
    for name in [m for m in sys.modules if m == "games.ludo" or m.startswith("games.ludo.")]:
        del sys.modules[name]


def test_a_new_package_is_found_and_its_declared_modules_are_checked(new_game: Path):
    """Nothing but the package: it is a game, its engine is listed, and the purity
    check fails on the module that imports Django."""
    from tests.support.purity import impurities, pure_files

    assert "ludo" in games() and "ludo" in engine_slugs()
    assert {"games.ludo.game", "games.ludo.rules", "games.ludo.moves"} <= set(engine_modules())
    checked = {path.resolve() for path in pure_files()}
    moves = (new_game / "moves.py").resolve()
    assert {(new_game / "rules.py").resolve(), moves} <= checked
    assert impurities(moves.read_text(), "moves.py") == ["moves.py:1 imports django.db"]
