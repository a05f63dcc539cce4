"""The engine protocol shared by every game: pure Python, no Django, no I/O."""

from games.engine.errors import EngineError, InvalidInput, RuleError, gettext_noop
from games.engine.protocol import Engine, Event, Outcome, Result, State
from games.engine.rng import SeededRandom

__all__ = [
    "Engine",
    "EngineError",
    "Event",
    "InvalidInput",
    "Outcome",
    "Result",
    "RuleError",
    "SeededRandom",
    "State",
    "gettext_noop",
]
