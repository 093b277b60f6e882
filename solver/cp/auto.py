"""engine="auto" with CP: the step planned once, for the estimate and for the answer.

The estimate (solver.cp.costs) plans the step in ``AUTO_BUILD_SHARE`` of the time left; when it
prefers CP, the answer is built from the same plans, its build in that share too. A planning or
a build cut by its share, or a case CP can't optimise, gives None: the graph answers with the
rest of the limit. Planning the step again for the answer cost as much as the first planning,
which choices a player can repeat before the step make long (a loop the graph walks as well).
"""

from __future__ import annotations

from collections.abc import Iterable

from mtg_outcomes.model.objective import Objective
from mtg_outcomes.model.types import Case

from ..contract import Result
from ..limits import Deadline, LimitReached
from .answer import AUTO_BUILD_SHARE, cp_outcomes
from .bounds import ModelTooLarge
from .choosers import declarations_optimizable, optimizable_problem
from .costs import preferred_plans
from .optimum import cp_optimize

__all__ = ["auto_outcomes", "auto_optimize"]


def auto_outcomes(case: Case, fields: Iterable[str] | None, deadline: Deadline, max_nodes: int | None,
                  workers: int = 1) -> Result | None:
    """CP's outcomes of ``case`` when its estimated cost is below the graph's and it builds in
    its share of the limit, else None (the graph's turn)."""
    plans = preferred_plans(case, deadline, max_nodes, AUTO_BUILD_SHARE)
    if plans is None:
        return None
    try:
        return cp_outcomes(case, fields=fields, timeout=deadline, build_share=AUTO_BUILD_SHARE,
                           max_nodes=max_nodes, workers=workers, planned=plans)
    except (LimitReached, ModelTooLarge):
        return None  # the CP build can't finish in its share of the limit (or hold the amounts): the graph has the rest


def auto_optimize(case: Case, objective: Objective, fields: Iterable[str] | None, deadline: Deadline,
                  max_nodes: int | None, workers: int = 1) -> Result | None:
    """CP's optimal outcomes when its estimate is below the graph's and it gives backward
    induction's answer (:func:`~solver.cp.cp_optimizable`), else None (the graph's turn)."""
    plans = preferred_plans(case, deadline, max_nodes, AUTO_BUILD_SHARE)
    if plans is None or (optimizable_problem(plans, objective) is not None
                         and declarations_optimizable(plans, objective) is not None):
        return None
    try:
        return cp_optimize(case, objective, fields=fields, timeout=deadline, build_share=AUTO_BUILD_SHARE,
                           max_nodes=max_nodes, workers=workers, planned=plans)
    except (LimitReached, ModelTooLarge):
        return None
