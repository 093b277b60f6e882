"""mtg-outcomes solver: what can HAPPEN in a situation (rules semantics, choice graph, CP model).

Importing it loads neither networkx nor OR-Tools: the engines load them when they build a graph or
a CP model, so ``mtg-outcomes --help`` and ``validate`` start fast.
"""

from model import Case, Outcome, load_case

from .api import Result, enumerate_outcomes
from .check import CheckReport, check
from .optimize import OptimizeResult, optimize

__all__ = [
    "Case", "CheckReport", "OptimizeResult", "Outcome", "Result", "check", "enumerate_outcomes",
    "load_case", "optimize",
]
