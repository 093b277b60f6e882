"""The engines, registered by name behind one contract (issue #47; networkx's flow functions,
each a ``flow_func`` with one signature, are the pattern).

An enumerator takes ``(case, fields, deadline, max_nodes, workers)`` and returns a
:class:`~solver.contract.Result`, or None when the case is not its to answer (``auto``: CP is not
estimated cheaper, or its planning or build overran its share); the graph engine answers every
case, so a None hands the case to it. The CP engine's entries name their module and function and
load them on the first call: OR-Tools (~0.35 s) is imported only when a CP model is built, and
nothing in this module imports the CP package, so the engines import no layer above them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol

from mtg_outcomes.model.types import Case

from .contract import Result
from .graph import graph_enumerate
from .limits import Deadline

__all__ = ["Enumerator", "ENUMERATORS", "run", "auto_optimize", "cp_optimize"]


class Enumerator(Protocol):
    """The contract every registered engine meets."""

    def __call__(self, case: Case, fields: list[str] | None, deadline: Deadline, max_nodes: int | None,
                 workers: int) -> Result | None: ...


def _lazy(module: str, name: str) -> Callable[..., Any]:
    """``module.name``, imported on the first call (the CP package loads OR-Tools)."""

    def call(*args: object, **kwargs: object) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = name
    call.__qualname__ = f"{module}.{name}"
    return call


_cp_outcomes: Callable[..., Result] = _lazy("mtg_outcomes.cp", "cp_outcomes")
_auto_outcomes: Callable[..., Result | None] = _lazy("mtg_outcomes.cp.auto", "auto_outcomes")
# optimize's two CP entries (solver.optimize; the signatures of solver.cp.cp_optimize and
# solver.cp.auto.auto_optimize)
cp_optimize: Callable[..., Result] = _lazy("mtg_outcomes.cp", "cp_optimize")
auto_optimize: Callable[..., Result | None] = _lazy("mtg_outcomes.cp.auto", "auto_optimize")


def _cp(case: Case, fields: list[str] | None, deadline: Deadline, max_nodes: int | None,
        workers: int) -> Result | None:
    """CP-SAT's distinct projected outcomes (solver.cp.cp_outcomes)."""
    return _cp_outcomes(case, fields=fields, timeout=deadline, max_nodes=max_nodes, workers=workers)


ENUMERATORS: dict[str, Enumerator] = {
    "auto": _auto_outcomes,  # CP where it is estimated cheaper and builds in its share, else None
    "graph": graph_enumerate,
    "cp": _cp,
}


def run(engine: str, case: Case, fields: list[str] | None, deadline: Deadline, max_nodes: int | None,
        workers: int) -> Result:
    """The answer of the registered engine named ``engine`` (solver.contract.ENGINES), or the
    graph's where that engine hands the case over (None)."""
    answer = ENUMERATORS[engine](case, fields, deadline, max_nodes, workers)
    return answer if answer is not None else graph_enumerate(case, fields, deadline, max_nodes, workers)
