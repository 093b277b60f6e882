"""The public Python API: enumerate outcomes of a case with a chosen engine."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtg_outcomes.model.load import check_fields
from mtg_outcomes.model.outcome import Outcome
from mtg_outcomes.model.types import Case

from .limits import Deadline, as_deadline

if TYPE_CHECKING:
    from .graph import ChoiceGraph

__all__ = ["Result", "enumerate_outcomes", "ENGINES", "DEFAULT_MAX_NODES"]

ENGINES = ("auto", "graph", "cp")


MAX_WORKERS = 256  # CP-SAT's parallel workers at most (a million is an invalid model, said by nobody)


def check_engine(engine: str, workers: int) -> None:
    """A ValueError for an engine that doesn't exist, or parallel workers the graph engine
    doesn't have (enumerate_outcomes, optimize)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")
    if not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be a whole number from 1 to {MAX_WORKERS}, got {workers!r}")
    if engine == "graph" and workers != 1:
        raise ValueError("workers: the graph engine has no parallel search (CP-SAT's workers need engine cp or auto)")


DEFAULT_MAX_NODES = 2_000_000


def check_case(case: Any, max_nodes: Any = None) -> None:
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
    decisions: list[Any] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        from mtg_outcomes.model.versions import stamps

        return {"case": self.case, "engine": self.engine, "complete": self.complete,
                "outcomes": [o.as_dict() for o in self.outcomes], "stats": self.stats, **stamps()}


def enumerate_outcomes(case: Case, engine: str = "auto", fields: Iterable[str] | None = None,
                       max_nodes: int | None = DEFAULT_MAX_NODES, timeout: float | Deadline | None = None,
                       workers: int = 1) -> Result:
    """Every distinct legal outcome of ``case``, each with a witness and its number of paths.

    ``engine``: ``"graph"`` (the choice graph), ``"cp"`` (CP-SAT, distinct projected outcomes), or
    ``"auto"`` (the default: the graph unless CP is estimated to be cheaper, then CP where the CP
    model can express the case and its model is built within ``AUTO_BUILD_SHARE`` of the time
    limit, else the graph has the rest; see :func:`solver.cp.prefer_cp`). CP outcomes have
    ``paths`` 0 (raw choice paths are not counted). ``timeout`` (seconds, or a running
    :class:`~solver.limits.Deadline`) bounds the whole call, every phase of either engine;
    ``max_nodes`` bounds the graph's states (with CP: those of the choices before its step); a
    result either cut has ``complete`` False. ``workers``: CP-SAT's parallel search workers (the
    same outcome set; with more than 1 the CP witnesses may differ between runs; the graph
    engine has none: ``engine="graph"`` with more than 1 is a ValueError).
    """
    check_case(case, max_nodes)
    check_engine(engine, workers)
    deadline = as_deadline(timeout)  # one limit for choosing, building and solving
    fields = list(fields) if fields is not None else None
    check_fields(case, fields)
    if engine == "auto":
        from .cp.auto import auto_outcomes

        answer = auto_outcomes(case, fields, deadline, max_nodes, workers)
        if answer is not None:
            return answer
        engine = "graph"  # the graph is cheaper, or CP's planning or build overran its share
    if engine == "cp":
        from .cp import cp_outcomes

        return cp_outcomes(case, fields=fields, timeout=deadline, max_nodes=max_nodes, workers=workers)
    from .graph import build_graph, graph_outcomes  # networkx is loaded only to build a graph

    cg = build_graph(case, max_nodes=max_nodes, timeout=deadline, fields=fields)
    outcomes, cut = graph_outcomes(cg, fields, deadline)
    stats: dict[str, Any] = {"nodes": cg.graph.number_of_nodes(), "edges": cg.graph.number_of_edges(),
                             "seconds": round(cg.seconds, 3)}
    if cut is not None:
        stats["limit"] = cut
    return Result(case.id, "graph", cg.complete and cut is None, outcomes, stats, cg)
