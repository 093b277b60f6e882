"""Optimal play when the rules engine continues after the CP step (solver.cp.suffix): CP-SAT
enumerates the distinct states after the step, the choice graph's backward induction
(solver.optimize.induce) values each one's continuation, and the step's chooser keeps the states
whose continuation is worth the most to them (lexicographic goals, each state valued by its
worst outcome of optimal play after it, as the graph values an option).

This is the graph's own answer: the step's decisions are one player's (solver.cp.search.
_optimizable), and with one chooser over a run of decisions, backward induction keeps exactly
the end points of the run whose value is the best of all of them (a decision's value is the
best of its options', so the kept options are those whose subtree holds such an end point);
the outcomes of optimal play are then the union of those end points' outcomes. A chooser
without an objective keeps every state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from model.objective import Objective
from model.outcome import Outcome, sort_key
from model.types import Case

from ..limits import Deadline, LimitReached
from .prefix import Prefix
from .suffix import SUFFIX_PHASE, after_step

__all__ = ["optimize_after"]

GRAPH_CUT = "a limit (max_nodes or the time limit) cut the choice graph after the CP step"


def optimize_after(case: Case, objective: Objective, prefix: Prefix, outcomes: list[Outcome], chooser: str | None,
                   fields: Iterable[str] | None, deadline: Deadline,
                   max_nodes: int | None) -> tuple[list[Outcome], bool, dict[str, Any]]:
    """The outcomes of optimal play (projected on ``fields``), whether the answer is complete,
    and stats, from the step's distinct solutions ``outcomes`` (their witnesses, solver.cp.
    search with a suffix) at the one state at the step's start; ``chooser`` is the step's
    player with an objective (None: nobody's choice in the step is scored)."""
    from ..graph import build_graph  # networkx is loaded only to build a graph
    from ..optimize import induce, project, witnesses

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
            found.setdefault(o.state, Outcome(o.state, root.witness + o.witness, 0, root.words + o.words))
        if cut is not None:
            break
    out = sorted(found.values(), key=lambda o: sort_key(o.state))
    if fields is not None:
        out = sorted((Outcome(o.state, o.witness, 0, o.words) for o in project(out, list(fields))),
                     key=lambda o: sort_key(o.state))
    if not cg.complete or cut is not None:
        extra["limit"] = GRAPH_CUT if not cg.complete else cut
    return out, cg.complete and cut is None, extra
