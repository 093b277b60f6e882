"""Aimed enumeration: when a run of the solution stream is mostly repeats (a big model whose
solutions differ in choices no projected field sees), the distinct outcomes are sought directly.

From each outcome found, each neighbour (one projected field one step up or down) not yet found
is aimed at: one short solve with the neighbour's values as assumptions, hinted with the
outcome's own solution, presolve and the LP off, cut at a deterministic time (the same input
gives the same answer on every run). Most aims that find one need little (on the 100-attacker
bench board 99% under 0.04 units), so the first try is short; an aim that stays unanswered is
tried once more, longer, from another neighbour's solution (another hint). An aim that finds
nothing proves nothing: when no neighbour is left, every outcome found is forbidden (the
no-goods of ``Search.distinct``) and its next run looks for any other: its outcomes are swept
from like the first, none proves the set complete (that run does, or, when it takes too long,
solver.cp.ranges, which first aims from the neighbours not yet tried: :func:`reach`). A value of
a field that no outcome has and that aims proved empty a few times (one card more than the
attackers can draw) is not aimed at again. The outcomes' solutions are kept (solver.cp.kept)
for those later aims.

On the 100-attacker bench board (projected on life and cards) 1566 outcomes in 300 s against
1419 with every try at 0.5 units (the first sweep's unanswered aims cost half its time, ~1 s
each, and most were found by the second try from another neighbour). At 10 x 5 (79 outcomes,
two intervals of life) 15 s where the runs alone take 20 s.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .cut import Cut
from .hints import far_hint

if TYPE_CHECKING:
    from .search import Search

Seed = tuple[tuple[int, ...], list[int]]  # an outcome found and a solution of the model giving it

# deterministic time (CP-SAT's unit; ~2 s of CPU per unit here) of an aim's first try, and of
# each later one: on the 100-attacker bench board 99% of the aims that found an outcome needed
# under 0.04 units, the rest up to 0.3
AIM_DTIMES = (0.05, 0.5)
AIM_TRIES = len(AIM_DTIMES)  # the sweep's tries per aim, each from another neighbour
DEAD_AFTER = 3  # aims proved empty at a field's value no outcome has, after which it isn't aimed at
AIM_PARAMS: dict[str, int | float | bool] = {"linearization_level": 0, "cp_model_presolve": False,
                              "max_deterministic_time": AIM_DTIMES[-1]}


def sweep(search: Search, seeds: list[Seed]) -> None:
    """Add to ``search`` the outcomes reached from ``seeds`` (outcomes found, each with a solution
    of the model giving it) by aimed solves at neighbours not yet found (``search.found``, which
    this extends), and their neighbours in turn. Raises search's Cut when the time limit passes."""
    for key, values in seeds:
        search.kept.put(key, values)
    stack = [key for key, _ in seeds]
    live = {(i, v) for key in search.found for i, v in enumerate(key)}  # values some outcome has
    while stack:
        key = stack.pop()
        for i, aim in _neighbours(search, key):
            tried = search.tried.get(aim, ())
            if aim in search.found or aim in search.empty or len(tried) >= AIM_TRIES:
                continue  # (an aim that found nothing is left to the runs and the ranges)
            if (i, aim[i]) not in live and search.dead.get((i, aim[i]), 0) >= DEAD_AFTER:
                continue  # a value no outcome has, proved out of reach from several of them
            got = _aim(search, aim, key, AIM_DTIMES[len(tried)])
            if got:
                live.update(enumerate(aim))
                stack.append(aim)
            elif got is None:
                search.dead[(i, aim[i])] = search.dead.get((i, aim[i]), 0) + 1


def reach(search: Search, aim: tuple[int, ...]) -> Seed | None:
    """An outcome at ``aim`` (recorded, as a seed), aimed at from each found neighbour whose
    solution is kept and that has not tried yet, each for the longer time; None when none finds
    one (which proves nothing, unless an aim proved it empty). solver.cp.ranges asks this before
    a proof's solve: the outcome next to others that the sweep's two tries missed is most often
    found so in a second, where a proof's solve took 10-190 s to find it. Raises search's Cut
    when the time limit passes."""
    if aim in search.found or aim in search.empty or not all(
            lo <= v <= hi for v, (lo, hi) in zip(aim, search.span, strict=True)):
        return None
    for _, near in _neighbours(search, aim):
        if near in search.kept and near not in search.tried.get(aim, ()):
            got = _aim(search, aim, near, AIM_DTIMES[-1])
            if got:
                values = search.kept.get(aim)
                assert values is not None
                return aim, values
            if got is None:
                return None
    return None


def _neighbours(search: Search, key: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...]]]:
    """The keys one projected field one step from ``key`` within its range, with that field."""
    for i in range(len(key)):
        for step in (1, -1):
            lo, hi = search.span[i]
            if lo <= key[i] + step <= hi:
                yield i, (*key[:i], key[i] + step, *key[i + 1:])


def _aim(search: Search, aim: tuple[int, ...], near: tuple[int, ...], dtime: float) -> bool | None:
    """One aimed solve at ``aim`` hinted with the kept solution of ``near`` (a found outcome),
    cut at ``dtime``: True when it found one (recorded and kept), None when it proved there is
    none, False when it ended unanswered."""
    search.tried.setdefault(aim, []).append(near)
    solver, none = search.aimed(aim, search.kept.get(near) or [], dtime)
    if solver is not None:
        search.record(solver)
        search.found[aim] = None
        search.kept.put(aim, solver.response_proto.solution)
        return True
    if none:
        search.empty.add(aim)
        return None
    return False


def far_seed(search: Search) -> Seed | None:
    """A solution near the most damage (solver.cp.hints.far_hint), recorded when its projection
    is new, as a seed for the sweep; None when the short solve finds none. The runs and the
    model's own hint start at the least damage and the aims walk out from there a step at a
    time, so the outcomes at the far end (the most damage, for each value of the other fields)
    were the last found, each by a run. Raises search's Cut on the time limit."""
    pairs = far_hint(search.plan, search.built.units)
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
            raise Cut
        return None
    key = search.key_of(solver)
    if key not in search.found:
        search.record(solver)
        search.found[key] = None
    return key, list(solver.response_proto.solution)
