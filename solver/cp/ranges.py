"""Closing an aimed enumeration by ranges: after a sweep (solver.cp.sweep) the proof that no
other outcome exists is asked as a few small questions, not as one run that must exhaust every
solution with each outcome found forbidden by a clause.

The projected fields split into a *line* (the field with the most distinct values found, life on
the bench board) and a *group* (the others: cards drawn). The outcomes found are all of them
when (1) no solution has a group none of them has, (2) within each group no solution's line
value lies below the least found or above the most (two optimisations, whose bound the linear
relaxation nearly gives: the least and the most damage for a number of cards), and (3) each
value between them that none has has no solution. Each is one solve; a solution one of them
finds is a new outcome, swept from like the others, and the questions not yet answered are
asked again. A question about one value (a step past an end, a value between) is first aimed
at from its found neighbours (solver.cp.sweep.reach): what the sweep missed next to others is
found so in a second, where the proof's solve took 10-190 s (once 695 s) to find it. A run's
no-goods, one clause per outcome, are all but invisible to the relaxation: on
`bench/gen.py large_enumeration(14, 7)` the runs found all 137 outcomes and could not prove
it in 600 s; with the ranges it is complete in 29 s (20 x 10: 167 outcomes in 63 s, where the
runs had 165 and no proof after 300 s). The run after a sweep is tried first, for
``RUN_BUDGET``: on small models it proves it sooner than the ranges' presolve would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cut import Cut
from .sweep import Seed, reach, sweep

if TYPE_CHECKING:
    from .cptypes import Var
    from .search import Search

# the proofs are few and hard, where the runs' solves are many and easy: the full linear
# relaxation bounds the line (presolve's symmetries and probing as well cost more than they
# saved: 20 x 10 in 88 s with them, 63 without; 14 x 7 33 against 29)
PROOF_PARAMS: dict[str, int | float | bool] = {"linearization_level": 2}
# deterministic time (about CPU seconds) the run after a sweep has to prove it alone: past it the
# ranges ask it. 2 against 10, in turn on one machine (CPU s, bench/gen.py large_enumeration):
# 14 x 7 31 against 49, 20 x 10 70 against 117, 30 x 12 27 against 38; 12 x 6, whose run proves
# it in under 10, 30 against 25
RUN_BUDGET = 2.0
MAX_GROUPS = 64  # groups above which the ranges aren't asked (the runs' no-goods prove it)

Proved = dict[tuple[Any, ...], int]  # ("groups",) -> how many; ("end", group, 1 | -1) -> least | most; ("gap", group, v) -> 0


class _Open(Exception):
    """The ranges don't apply, or a proof's solve ended unanswered before the time limit."""


def close(search: Search) -> bool:
    """Whether the outcomes ``search`` found are proved to be all of them, adding any a proof
    meets (each swept from). False when the ranges don't apply (too many groups) or a proof
    stays open; raises search's Cut on the time limit."""
    proved: Proved = {}
    try:
        while (met := _missing(search, proved)) is not None:
            sweep(search, [met])
    except _Open:
        return False
    return True


def _missing(search: Search, proved: Proved) -> Seed | None:
    """An outcome not found yet (a seed), None when every range is proved; raises _Open when
    the ranges don't apply."""
    keys = list(search.found)
    if not keys or search.built.model.has_objective():
        raise _Open
    n = len(search.watch)
    line = max(range(n), key=lambda i: (len({k[i] for k in keys}), -i))
    groups: dict[tuple[int, ...], set[int]] = {}
    for k in keys:
        groups.setdefault(k[:line] + k[line + 1:], set()).add(k[line])
    if len(groups) > MAX_GROUPS:
        raise _Open
    others = [i for i in range(n) if i != line]
    if others and proved.get(("groups",)) != len(groups):  # (1)
        m = search.built.model
        outside = m.new_bool_var("")
        for g in groups:
            m.add_bool_or([~search.lit(i, v) for i, v in zip(others, g, strict=True)]).only_enforce_if(outside)
        try:
            got = _solution(search, [outside])
        finally:
            m.add(outside == 0)  # (used once: left free, each later run's solutions would count twice)
        if got is not None:
            return got
        proved[("groups",)] = len(groups)
    for g, values in sorted(groups.items()):
        fixed = [search.lit(i, v) for i, v in zip(others, g, strict=True)]

        def at(v: int, g: tuple[int, ...] = g) -> tuple[int, ...]:  # the key at line value v in g
            return (*g[:line], v, *g[line:])

        for sense, known in ((1, min(values)), (-1, max(values))):  # (2)
            if proved.get(("end", g, sense)) != known:
                if (got := reach(search, at(known - sense))) is not None:
                    return got  # (a step past the end, aimed at from the neighbours first)
                got, best = _extreme(search, fixed, line, sense, known)
                proved[("end", g, sense)] = best
                if got is not None:
                    return got
        for v in range(min(values) + 1, max(values)):  # (3)
            if v not in values and ("gap", g, v) not in proved:
                if (got := reach(search, at(v))) is not None:
                    return got  # (aimed at from its neighbours first)
                if (got := _solution(search, [*fixed, search.lit(line, v)])) is not None:
                    return got
                proved[("gap", g, v)] = 0
    return None


def _extreme(search: Search, fixed: list[Var], line: int, sense: int, known: int) -> tuple[Seed | None, int]:
    """Whether a solution in the group ``fixed`` fixes has a line value past ``known`` (below it,
    ``sense`` 1; above it, -1), asked as an optimisation towards that side restricted to it (the
    outcomes already forbidden by no-goods all lie within, so they change nothing): (None,
    ``known``) when there is none, else (the optimal solution there, recorded, as a seed; its
    value, the group's proved end)."""
    m = search.built.model
    past = m.new_bool_var("")
    m.add(sense * search.watch[line] <= sense * known - 1).only_enforce_if(past)
    m.minimize(sense * search.watch[line])
    try:  # (search.solve: branching on the LP's solution, whose bound is tight here)
        got = _solution(search, [*fixed, past], lp_search=True)
    finally:
        m.clear_objective()
        m.add(past == 0)  # (used once, as ``outside`` in _missing)
    return (None, known) if got is None else (got, got[0][line])


def _solution(search: Search, assumptions: list[Var], lp_search: bool = False) -> Seed | None:
    """A solution under ``assumptions`` (optimal, when the model has an objective), recorded, as
    a seed; None when there is none. Raises search's Cut on the time limit, _Open when the
    solve ended otherwise unanswered."""
    cp = search.cp
    solver, status = search.assuming(PROOF_PARAMS, assumptions, lp_search=lp_search)
    if status == cp.INFEASIBLE:
        return None
    if status == cp.OPTIMAL or (status == cp.FEASIBLE and not search.built.model.has_objective()):
        key = search.key_of(solver)
        search.record(solver)
        search.found[key] = None
        return key, list(solver.response_proto.solution)
    if search.deadline.expired():
        raise Cut
    raise _Open
