"""The public Python API: enumerate outcomes of a case with a chosen engine (solver.engines)."""

from __future__ import annotations

from collections.abc import Iterable

from mtg_outcomes.model.load import check_fields
from mtg_outcomes.model.types import Case

from . import engines
from .contract import DEFAULT_MAX_NODES, ENGINES, MAX_WORKERS, Result, check_case, check_engine
from .limits import Deadline, as_deadline

__all__ = ["Result", "enumerate_outcomes", "ENGINES", "DEFAULT_MAX_NODES", "MAX_WORKERS", "check_case",
           "check_engine"]


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
    wanted = list(fields) if fields is not None else None
    check_fields(case, wanted)
    return engines.run(engine, case, wanted, deadline, max_nodes, workers)
