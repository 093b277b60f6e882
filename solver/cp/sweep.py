"""Aimed enumeration: when a run of the solution stream is mostly repeats (a big model whose
solutions differ in choices no projected field sees), the distinct outcomes are sought directly.

From each outcome found, each neighbour (one projected field one step up or down) not yet found
is aimed at: one short solve with the neighbour's values as assumptions, hinted with the
outcome's own solution, presolve and the LP off, cut at a deterministic time (the same input
gives the same answer on every run); an aim cut by that limit may be tried once more from
another seed, whose solution is another hint. An aim that finds nothing proves nothing: when no
neighbour is left, every outcome found is forbidden (the no-goods of ``_Search.distinct``) and
its next run looks for any other: its outcomes are swept from like the first, none proves the
set complete (that run does, or, when it takes too long, solver.cp.ranges). A value of a field that no outcome has and that aims proved empty a few times (one
card more than the attackers can draw) is not aimed at again.

On the 100-attacker bench board (projected on life and cards; 600 s) the first sweep found ~1400
outcomes in ~250 s, ~0.2 s each, where the runs alone found 215 in all; the runs after it find
the last ones slowly (1485 in all, not complete; 1445 with one try per aim, same machine). At
10 x 5 (79 outcomes, two intervals of life) 15 s where the runs alone take 20 s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .hints import _far_hint

if TYPE_CHECKING:
    from .search import _Search

# deterministic time (CP-SAT's unit; 0.2-0.7 s of CPU measured) of one aimed solve: every aim
# that found an outcome on the 100-attacker bench board needed less (99% under 0.3, which found
# fewer outcomes in 600 s: 1402 against 1445, same run)
AIM_DTIME = 0.5
AIM_TRIES = 2  # an aim cut by its limit is tried once more from another seed (another hint)
DEAD_AFTER = 3  # aims proved empty at a field's value no outcome has, after which it isn't aimed at
AIM_PARAMS: dict[str, Any] = {"linearization_level": 0, "cp_model_presolve": False,
                              "max_deterministic_time": AIM_DTIME}


def sweep(search: _Search, seeds: list[tuple[tuple[int, ...], list[int]]]) -> None:
    """Add to ``search`` the outcomes reached from ``seeds`` (outcomes found, each with a solution
    of the model giving it) by aimed solves at neighbours not yet found (``search.found``, which
    this extends), and their neighbours in turn. Raises search's _Cut when the time limit passes."""
    stack = list(seeds)
    live = {(i, v) for key in search.found for i, v in enumerate(key)}  # values some outcome has
    while stack:
        key, hint = stack.pop()
        for i in range(len(key)):
            for step in (1, -1):
                aim = (*key[:i], key[i] + step, *key[i + 1:])
                lo, hi = search.span[i]
                if not lo <= aim[i] <= hi or aim in search.found or search.aims.get(aim, 0) >= AIM_TRIES:
                    continue  # (an aim that found nothing is left to the runs)
                if (i, aim[i]) not in live and search.dead.get((i, aim[i]), 0) >= DEAD_AFTER:
                    continue  # a value no outcome has, proved out of reach from several of them
                search.aims[aim] = search.aims.get(aim, 0) + 1
                solver, none = search.aimed(aim, hint)
                if solver is not None:
                    search.record(solver)
                    search.found[aim] = None
                    live.update(enumerate(aim))
                    stack.append((aim, list(solver.response_proto.solution)))
                elif none:
                    search.aims[aim] = AIM_TRIES  # proved empty: never again
                    search.dead[(i, aim[i])] = search.dead.get((i, aim[i]), 0) + 1


def far_seed(search: _Search) -> tuple[tuple[int, ...], list[int]] | None:
    """A solution near the most damage (solver.cp.hints._far_hint), recorded when its projection
    is new, as a seed for the sweep; None when the short solve finds none. The runs and the
    model's own hint start at the least damage and the aims walk out from there a step at a
    time, so the outcomes at the far end (the most damage, for each value of the other fields)
    were the last found, each by a run. Raises search's _Cut on the time limit."""
    from .search import _Cut

    pairs = _far_hint(search.plan, search.built.units)
    if not pairs:
        return None
    cp, m = search.cp, search.built.model
    solver = search.solver(AIM_PARAMS)
    m.clear_hints()
    for var, value in pairs:
        m.add_hint(var, value)
    try:
        status = solver.solve(m)
    finally:
        m.clear_hints()
    search.solves += 1
    if status not in (cp.OPTIMAL, cp.FEASIBLE):
        if search.deadline.expired():
            raise _Cut
        return None
    key = search.key_of(solver)
    if key not in search.found:
        search.record(solver)
        search.found[key] = None
    return key, list(solver.response_proto.solution)
