"""What every engine answers with and is asked under, below the engines (issue #47): the
:class:`Result` of enumerating outcomes, the engines' names, and the limits the public API checks.

The graph engine (solver.graph), the CP engine (solver.cp) and the API above them (solver.api,
solver.optimize) import this module; it imports neither engine, so no engine imports upward.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from mtg_outcomes.model.outcome import Outcome
from mtg_outcomes.model.types import Case
from mtg_outcomes.model.versions import stamps

if TYPE_CHECKING:
    from .graph import ChoiceGraph
    from .optimize import DecisionReport

__all__ = ["Status", "PASSING", "Result", "ENGINES", "MAX_WORKERS", "DEFAULT_MAX_NODES", "check_engine", "check_case"]

class Status(StrEnum):
    """A case's verdict (``check``, a batch record, the report): its value is what every output
    prints (str-valued, so ``--json`` and the batch records hold the same text)."""

    OK = "OK"  # complete, and the ruling's outcomes are exactly those the rules allow
    NO_EXPECT = "NO-EXPECT"  # no ruling to compare with
    INCOMPLETE = "INCOMPLETE"  # the ruling misses outcomes the rules allow
    UNREACHABLE = "UNREACHABLE"  # the ruling states outcomes nobody can reach
    INCOMPLETE_UNREACHABLE = "INCOMPLETE+UNREACHABLE"
    ERROR_UNREACHABLE = "ERROR+UNREACHABLE"  # a limit cut the search, and expected outcomes weren't reached
    ERROR = "ERROR"  # no answer: a bad input, or a limit other than time cut the search
    TIMEOUT = "TIMEOUT"  # (batch) no complete answer within the case's time limit
    PARTIAL = "PARTIAL"  # (batch) a limit cut the list, which is partial

    def and_unreachable(self) -> Status:
        """This verdict with unreachable expected outcomes besides."""
        match self:
            case Status.OK:
                return Status.UNREACHABLE
            case Status.INCOMPLETE:
                return Status.INCOMPLETE_UNREACHABLE
            case Status.ERROR:
                return Status.ERROR_UNREACHABLE
        raise ValueError(f"{self} has no unreachable form")


# the verdicts of a case whose ruling holds (check's ``ok``)
PASSING = frozenset({Status.OK, Status.NO_EXPECT})


# the engines a caller may name: "auto" picks one of the others per case (solver.engines)
ENGINES = ("auto", "graph", "cp")

MAX_WORKERS = 256  # CP-SAT's parallel workers at most (a million is an invalid model, said by nobody)

DEFAULT_MAX_NODES = 2_000_000


def check_engine(engine: str, workers: int) -> None:
    """A ValueError for an engine that doesn't exist, or parallel workers the graph engine
    doesn't have (enumerate_outcomes, optimize)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")
    if not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be a whole number from 1 to {MAX_WORKERS}, got {workers!r}")
    if engine == "graph" and workers != 1:
        raise ValueError("workers: the graph engine has no parallel search (CP-SAT's workers need engine cp or auto)")


def check_case(case: object, max_nodes: object = None) -> None:
    """A ValueError, with a message, for an argument that is not a case or a node limit that is
    not a whole number of at least 1 (None: no limit); the time limit is :func:`as_deadline`'s."""
    if not isinstance(case, Case):
        raise ValueError(f"case must be a Case (model.load.load_case(path)), got {type(case).__name__}")
    if max_nodes is not None and (not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 1):
        raise ValueError(f"max_nodes must be a whole number of at least 1, or None, got {max_nodes!r}")


@dataclass
class Result:
    """Distinct outcomes of a case, whether the list is complete, and how it was found."""

    case: str
    engine: str
    complete: bool
    outcomes: list[Outcome]
    stats: dict[str, Any] = field(default_factory=dict)
    graph: ChoiceGraph | None = None
    # optimize's decisions on the optimal lines (solver.optimize.DecisionReport), where the
    # engine reports them
    decisions: list[DecisionReport] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"case": self.case, "engine": self.engine, "complete": self.complete,
                "outcomes": [o.as_dict() for o in self.outcomes], "stats": self.stats, **stamps()}
