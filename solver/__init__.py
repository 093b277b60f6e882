"""mtg-outcomes solver: what can HAPPEN in a situation (rules semantics, choice graph, CP model).

Installed, this package is ``mtg_outcomes`` (the one import name, pyproject's package-dir; the
model is ``mtg_outcomes.model``): the public API is re-exported here, loading a case, enumerating,
optimizing, checking a ruling, replaying a witness, objectives, limits, errors.
Importing it loads neither networkx nor OR-Tools: the engines load them when they build a graph or
a CP model, so ``mtg-outcomes --help`` and ``validate`` start fast.
"""

from mtg_outcomes.model import Case, Outcome, Witness, load_case, parse_case
from mtg_outcomes.model.errors import (
    CaseError,
    CaseErrors,
    CaseWarning,
    EngineError,
    MtgOutcomesError,
)
from mtg_outcomes.model.objective import Goal, Objective, parse_objective, parse_objective_text

from .api import ENGINES, Result, enumerate_outcomes
from .check import CheckReport, check
from .explain import Replay, replay
from .limits import Deadline, LimitReached
from .optimize import OptimizeResult, optimize

__all__ = [
    # cases
    "Case", "load_case", "parse_case",
    # answers
    "ENGINES", "Result", "Outcome", "Witness", "enumerate_outcomes", "OptimizeResult", "optimize",
    "CheckReport", "check", "Replay", "replay",
    # objectives
    "Goal", "Objective", "parse_objective", "parse_objective_text",
    # limits
    "Deadline", "LimitReached",
    # errors
    "MtgOutcomesError", "CaseError", "CaseErrors", "CaseWarning", "EngineError",
]
