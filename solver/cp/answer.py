"""The CP engine's answer (docs/engines.md): each distinct state the choices before the step reach
planned (solver.cp.plan) and its model built (solver.cp.encode) into a
:class:`~solver.cp.search.Search`, their outcomes enumerated and joined (solver.cp.union), with
what the rules engine continues after the step (solver.cp.suffix)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.objective import Objective
from mtg_outcomes.model.types import Case

from ..api import Result
from ..limits import Deadline, LimitReached, as_deadline
from .choosers import optimizable_problem
from .encode import build_model
from .plan import StepPlans, step_plans
from .prefix import Prefix
from .refusal import Refusal
from .search import SOLVING_CUT, Cut, Search
from .suffix import ends_after
from .union import joined

AUTO_BUILD_SHARE = 0.5  # engine="auto": the share of the time left the CP build may take


def prepared_searches(case: Case, fields: Iterable[str] | None, deadline: Deadline,
              objective: Objective | None = None, build_share: float | None = None,
              max_nodes: int | None = None, workers: int = 1,
              planned: StepPlans | None = None) -> tuple[Prefix, list[Search]]:
    """The expansion before the CP step and, for each distinct state at its start, the step's
    plan and built model, ready to solve (EngineError when CP can't answer). ``planned``: the
    step already planned for the same case and ``max_nodes`` (engine="auto" plans it once); a
    ValueError for another case's, or for a prefix cut at another ``max_nodes``.

    Raises :class:`LimitReached` when ``deadline`` passes while expanding, planning or building,
    or, with ``build_share``, when that fraction of the time left is gone before every model is
    built (the caller then has the rest for another engine)."""
    budget = deadline if build_share is None else deadline.share(build_share)
    if planned is not None and (wrong := planned.problem(case, max_nodes)) is not None:
        raise ValueError(wrong.reason)  # an answer from them would be another question's, silently
    plans = step_plans(case, budget, max_nodes) if planned is None else planned
    if isinstance(plans, Refusal):
        raise EngineError(f"{case.id}: the CP engine can't model this case: {plans}")
    reason = optimizable_problem(plans, objective) if objective is not None else None
    if reason is not None:
        raise EngineError(f"{case.id}: the CP engine can't optimise this case: {reason}")
    from ortools.sat.python import cp_model as cp

    return plans.prefix, [Search(case, plan, build_model(plan, cp, budget), fields, deadline, cp, workers)
                          for plan in plans.plans]


_PREFIX_CUT = "the node limit (max_nodes) was reached while expanding the choices before the last damage step"


def cut_short(case: Case, deadline: Deadline, cut: LimitReached) -> Result:
    """The answer when the time limit passed before the model was built: no outcome, partial."""
    return Result(case.id, "cp", False, [], {"solves": 0, "limit": str(cut),
                                               "seconds": round(deadline.elapsed(), 3)})


def cp_outcomes(case: Case, fields: Iterable[str] | None = None, timeout: float | Deadline | None = None,
                build_share: float | None = None, max_nodes: int | None = None, workers: int = 1,
                planned: StepPlans | None = None) -> Result:
    """Every distinct outcome of ``case`` (projected on ``fields``) by CP-SAT with no-goods.

    Raises :class:`~model.errors.EngineError` when :func:`cp_supported` says the model can't
    express the case. ``timeout`` (seconds, or a :class:`~solver.limits.Deadline` already
    running) bounds every phase: planning, building the tables and the model, solving and
    replaying witnesses. ``complete`` is False when it cut the run (``stats["limit"]`` says
    where, when it was before any solve). With ``build_share``, a build that takes more than that
    fraction of the time left raises :class:`~solver.limits.LimitReached` instead (engine="auto"
    then asks the graph). ``paths`` is 0 on every outcome: this engine doesn't count raw choice
    paths. ``max_nodes`` bounds the states the choices before the CP step visit
    (solver.cp.prefix; a cut leaves ``complete`` False); the step is solved from each distinct
    state they reach and the outcomes are the union. ``workers``: CP-SAT's parallel workers (the
    same outcome set; with more than 1 the witnesses may differ from run to run). ``planned``:
    the step as :func:`solver.cp.plan_step` planned it for this case and ``max_nodes``, so it is
    not planned again (engine="auto" plans it once for its estimate, solver.cp.auto).
    """
    check_workers(workers)
    deadline = as_deadline(timeout)
    try:
        prefix, searches = prepared_searches(case, fields, deadline, build_share=build_share, max_nodes=max_nodes,
                                     workers=workers, planned=planned)
    except LimitReached as cut:
        if build_share is not None and not deadline.expired():
            raise
        return cut_short(case, deadline, cut)
    complete = True
    known: list[tuple[tuple[str, Any], ...]] = []  # (Outcome.state)
    try:
        for search in searches:
            search.forbid_known(known)  # (each model of the union looks only for new outcomes)
            search.distinct()
            known.extend(o.state for o in search.outcomes)
    except Cut:
        complete = False
    extra: dict[str, Any] | None = {"limit": SOLVING_CUT} if not complete else \
        {"limit": _PREFIX_CUT} if not prefix.complete else None
    after, cut_by = ends_after(case, prefix, searches, deadline, max_nodes)
    if cut_by is not None:
        complete = False
        extra = {"limit": cut_by} if extra is None else extra
    if any(s.plan.suffix for s in searches):
        extra = {**(extra or {}), "suffix_roots": sum(len(s.outcomes) for s in searches if s.plan.suffix),
                 "suffix_ends": len(after)}
    return joined(case, prefix, searches, fields, deadline, complete, extra, after)


def check_workers(workers: int) -> None:
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a whole number of at least 1, got {workers!r}")
