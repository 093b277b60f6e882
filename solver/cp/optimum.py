"""Optimal play by CP-SAT (:func:`cp_optimize`): each level of the chooser's lexicographic
objective maximised and fixed in turn, then every tied outcome.

When the rules engine continues after the CP step (solver.cp.suffix): CP-SAT
enumerates the distinct states after the step, the choice graph's backward induction
(solver.optimize.induce) values each one's continuation, and the step's chooser keeps the states
whose continuation is worth the most to them (lexicographic goals, each state valued by its
worst outcome of optimal play after it, as the graph values an option).

This is the graph's own answer: the step's decisions are one player's (solver.cp.choosers.
optimizable_problem), and with one chooser over a run of decisions, backward induction keeps exactly
the end points of the run whose value is the best of all of them (a decision's value is the
best of its options', so the kept options are those whose subtree holds such an end point);
the outcomes of optimal play are then the union of those end points' outcomes. A chooser
without an objective keeps every state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.objective import Goal, Objective
from mtg_outcomes.model.outcome import Outcome, sort_key
from mtg_outcomes.model.types import Case

from ..contract import Result
from ..graph import build_graph
from ..limits import Deadline, LimitReached, as_deadline
from ..optimize import induce, project, witnesses
from .answer import check_workers, cut_short, prepared_searches
from .blocks import join_witness
from .choosers import declarations_optimizable, optimizable_problem, step_choosers
from .declared import declarer, optimize_declarations
from .plan import StepPlans, step_plans
from .prefix import Prefix
from .refusal import Refusal
from .search import SOLVING_CUT, Cut, Search
from .step import StepPlan
from .suffix import SUFFIX_PHASE, after_step
from .union import joined, namer, with_witness
from .units import BuiltModel

if TYPE_CHECKING:
    from .cptypes import Expr

__all__ = ["cp_optimize", "optimize_after"]

GRAPH_CUT = "a limit (max_nodes or the time limit) cut the choice graph after the CP step"


def optimize_after(case: Case, objective: Objective, prefix: Prefix, outcomes: list[Outcome], chooser: str | None,
                   fields: Iterable[str] | None, deadline: Deadline,
                   max_nodes: int | None) -> tuple[list[Outcome], bool, dict[str, Any]]:
    """The outcomes of optimal play (projected on ``fields``), whether the answer is complete,
    and stats, from the step's distinct solutions ``outcomes`` (their witnesses, solver.cp.
    search with a suffix) at the one state at the step's start; ``chooser`` is the step's
    player with an objective (None: nobody's choice in the step is scored)."""
    start = prefix.starts[0]
    try:
        roots = []
        for o in outcomes:
            deadline.check(SUFFIX_PHASE)
            roots.append(after_step(case, prefix.table, start, o.witness, o.words))
    except LimitReached as reached:
        return [], False, {"limit": str(reached)}
    if not roots:
        return [], True, {"suffix_roots": 0}
    cg = build_graph(case, max_nodes=max_nodes, timeout=deadline, starts=([r.state for r in roots], prefix.table))
    ind = induce(cg, objective)
    live = [i for i, nid in enumerate(cg.roots) if ind.results.get(nid)]
    kept = live
    extra: dict[str, Any] = {"suffix_roots": len(roots), "suffix_nodes": cg.graph.number_of_nodes()}
    goals = objective.of(chooser) if chooser is not None else None
    if chooser is not None and goals and live:
        worth = {i: ind.worst(chooser, ind.results[cg.roots[i]]) for i in live}
        top = max(v for v in worth.values() if v is not None)
        kept = [i for i in live if worth[i] == top]
        # the value the chooser is sure of, as each goal's expression reads (not negated)
        extra["optimum"] = {chooser: [g.sense * v for g, v in zip(goals, top, strict=True)]}
    found: dict[Any, Outcome] = {}
    cut: str | None = None
    for i in kept:
        root = roots[i]
        listed, cut = witnesses(cg, ind, cg.roots[i])
        for o in listed:
            found.setdefault(o.state, with_witness(o.state, join_witness(root.witness, root.words, o.witness, o.words,
                                                                     namer(root.state, prefix.table))))
        if cut is not None:
            break
    out = sorted(found.values(), key=lambda o: sort_key(o.state))
    if fields is not None:
        out = sorted((Outcome(o.state, o.witness, 0, o.words) for o in project(out, list(fields))),
                     key=lambda o: sort_key(o.state))
    if not cg.complete or cut is not None:
        extra["limit"] = GRAPH_CUT if not cg.complete else cut
    return out, cg.complete and cut is None, extra


def _level(plan: StepPlan, built: BuiltModel, goal: Goal) -> Expr:
    """``goal`` as an expression to maximise: sense times the sum of its terms (a field the
    case doesn't have counts as 0, as :meth:`Goal.score` does)."""
    total: Expr = 0
    for coef, f in goal.terms:
        _, expr = built.outputs.get(f, ("int", plan.base.get(f, 0)))
        if expr is None or isinstance(expr, bool):
            expr = int(bool(expr))
        total = total + coef * expr
    return goal.sense * total


def cp_optimize(case: Case, objective: Objective, fields: Iterable[str] | None = None,
                timeout: float | Deadline | None = None, build_share: float | None = None,
                max_nodes: int | None = None, workers: int = 1, planned: StepPlans | None = None) -> Result:
    """The outcomes of optimal play by CP-SAT: each level of the chooser's lexicographic
    objective is maximised and fixed in turn, then every distinct outcome (projected on
    ``fields``) reaching the optimum is enumerated with no-goods, each with a witness. When the
    rules engine continues after the step (solver.cp.suffix), every distinct state after it is
    enumerated instead, the choice graph's backward induction values each one's continuation
    (``max_nodes`` bounds that graph), and the chooser keeps the best (solver.cp.optimum).

    Raises :class:`~model.errors.EngineError` when :func:`cp_optimizable` gives a reason.
    ``complete`` is False when ``timeout`` cut the search; the best outcome found so far is then
    the only one listed. ``stats["optimum"]`` holds each level's proved optimal value (per
    chooser), present when every level was proved even if listing the tied outcomes was cut.
    ``timeout`` and ``build_share`` bound every phase, and ``workers`` and ``planned`` are, as
    in :func:`cp_outcomes`.
    """
    check_workers(workers)
    deadline = as_deadline(timeout)
    try:
        # (``max_nodes`` bounds the graph after the step, not the expansion before it: planned as
        # prepared_searches plans it)
        plans = planned if planned is not None else step_plans(case, deadline if build_share is None else
                                                               deadline.share(build_share))
        if isinstance(plans, Refusal):
            raise EngineError(f"{case.id}: the CP engine can't model this case: {plans}")
        if optimizable_problem(plans, objective) is not None and declarations_optimizable(plans, objective) is None:
            return _optimize_declarations(case, objective, plans, fields, deadline, build_share, max_nodes, workers)
        prefix, searches = prepared_searches(case, fields, deadline, objective, build_share, workers=workers,
                                             planned=plans)  # (planned once, above)
    except LimitReached as cut:
        if build_share is not None and not deadline.expired():
            raise
        return cut_short(case, deadline, cut)
    search = searches[0]  # one state at the step's start (optimizable_problem)
    plan, built = search.plan, search.built
    chooser = next((c for c in step_choosers(plan) if objective.of(c) is not None), None)
    goals = objective.of(chooser) if chooser is not None else None
    if plan.suffix:
        return _optimize_after(case, objective, prefix, search, chooser, fields, deadline, max_nodes)
    levels = [_level(plan, built, g) for g in goals or ()]
    optimum: list[int] | None = []
    complete = True
    try:
        optimum = search.optimise(levels)
        if optimum is not None:
            search.distinct(first=search.last)
    except Cut:
        complete = False
        if search.best is not None and not search.outcomes:
            search.record(search.best)
    extra: dict[str, Any] = {} if complete else {"limit": SOLVING_CUT}
    if chooser is not None and goals and optimum is not None and len(optimum) == len(goals):
        # each level's proved optimal value, as the goal's expression reads (not negated)
        extra["optimum"] = {chooser: [g.sense * v for g, v in zip(goals, optimum, strict=True)]}
    return joined(case, prefix, searches, fields, deadline, complete, extra)


def _optimize_declarations(case: Case, objective: Objective, plans: StepPlans, fields: Iterable[str] | None,
                           deadline: Deadline, build_share: float | None, max_nodes: int | None,
                           workers: int) -> Result:
    """:func:`cp_optimize` when the defending player declares blocks first and others choose after
    (solver.cp.declared): the models bound the declarations, the choice graph values each."""
    prefix, searches = prepared_searches(case, sorted(objective.fields()), deadline, None, build_share, max_nodes, workers,
                                 planned=plans)
    chooser = declarer(plans)
    levels = [[_level(s.plan, s.built, g) for g in objective.of(chooser) or ()] for s in searches]
    try:
        outcomes, reports, complete, stats = optimize_declarations(case, objective, plans, searches, levels, fields,
                                                                   deadline, max_nodes)
    except Cut:
        return Result(case.id, "cp", False, [], {"limit": SOLVING_CUT, "seconds": round(deadline.elapsed(), 3)})
    except LimitReached as cut:
        return Result(case.id, "cp", False, [], {"limit": str(cut), "seconds": round(deadline.elapsed(), 3)})
    stats["seconds"] = round(deadline.elapsed(), 3)
    if not complete:
        stats.setdefault("limit", GRAPH_CUT)
    return Result(case.id, "cp", complete and prefix.complete, outcomes, stats, decisions=reports)


def _optimize_after(case: Case, objective: Objective, prefix: Prefix, search: Search, chooser: str | None,
                    fields: Iterable[str] | None, deadline: Deadline, max_nodes: int | None) -> Result:
    """:func:`cp_optimize` with the rules engine continuing after the step: the step's distinct
    states after it (no-goods over everything the state after the step is made of), then
    solver.cp.optimum."""
    try:
        search.distinct()
    except Cut:
        return Result(case.id, "cp", False, [], {"solves": search.solves, "limit": SOLVING_CUT,
                                                  "seconds": round(deadline.elapsed(), 3)})
    outcomes, complete, extra = optimize_after(case, objective, prefix, search.outcomes, chooser, fields,
                                               deadline, max_nodes)
    stats: dict[str, Any] = {"solves": search.solves, **extra, "seconds": round(deadline.elapsed(), 3)}
    return Result(case.id, "cp", complete and prefix.complete, outcomes, stats)

