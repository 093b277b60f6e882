"""Closing the aimed enumeration by ranges (solver.cp.ranges): after a sweep, the proof that no
other outcome exists is asked per group of the other fields (the least and the most of the line
field, each value between). With the aims turned off, the ranges must find every outcome
themselves: the same set as the runs alone, on the bench board and on every shipped case
whose runs hand over to a sweep (tests/cp/test_cp_sweep.swept)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import mtg_outcomes as solver
import mtg_outcomes.cp.ranges  # noqa: F401
import mtg_outcomes.cp.search  # noqa: F401
from bench.gen import large_enumeration
from mtg_outcomes.cp import cp_outcomes
from mtg_outcomes.model import load_case, parse_case

from .test_cp import assert_same
from .test_cp_sweep import FIELDS, SUPPORTED, swept


@contextmanager
def ranges_only() -> Iterator[list[bool]]:
    """Every run hands over at its first solution, every aim finds nothing, and the run after a
    sweep has no time of its own: what the first run missed, the ranges must find. Yields what
    each close() returned."""
    search = solver.cp.search.Search
    saved_aimed, saved_close = search.aimed, solver.cp.search.close
    closed: list[bool] = []

    def aimed(self: Any, key: tuple[int, ...], hint: list[int], *dtime: float) -> tuple[Any, bool]:
        return None, False

    def close(s: Any) -> bool:
        closed.append(saved_close(s))
        return closed[-1]

    with swept():
        search.aimed = aimed  # type: ignore[method-assign]
        solver.cp.search.close, solver.cp.search.RUN_BUDGET = close, 0.0
        try:
            yield closed
        finally:
            search.aimed = saved_aimed  # type: ignore[method-assign]
            solver.cp.search.close, solver.cp.search.RUN_BUDGET = saved_close, solver.cp.ranges.RUN_BUDGET


@pytest.mark.parametrize("size", [(4, 3), (8, 4)])  # (10 x 5 took minutes to test the same paths; make hunt goes further)
def test_ranges_alone_find_every_outcome_of_the_bench_board(size: tuple[int, int]) -> None:
    """The runs alone, then one run's first solution and the ranges: the same outcomes, and the
    ranges proved them complete (no run after them)."""
    case = parse_case(large_enumeration(*size))
    plain = cp_outcomes(case, fields=FIELDS)
    with ranges_only() as closed:
        ranged = cp_outcomes(case, fields=FIELDS)
    assert plain.complete and ranged.complete
    assert closed == [True]
    assert {o.state for o in ranged.outcomes} == {o.state for o in plain.outcomes}
    assert len(ranged.outcomes) > 1


MANY = [p for p in SUPPORTED if p.parent.name in ("seeds", "cards")][:60]


@pytest.mark.parametrize("path", MANY, ids=[p.name for p in MANY])
def test_ranges_alone_on_shipped_cases_graph_equals_cp(path: Path) -> None:
    with ranges_only():
        assert_same(load_case(path))


def test_too_many_groups_leave_it_to_the_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no group allowed the ranges don't apply: the runs prove it, the same outcomes."""
    monkeypatch.setattr(solver.cp.ranges, "MAX_GROUPS", 0)
    case = parse_case(large_enumeration(4, 3))
    with ranges_only() as closed:
        res = cp_outcomes(case, fields=FIELDS)
    assert res.complete and closed and not any(closed)
    assert {o.state for o in res.outcomes} == {o.state for o in cp_outcomes(case, fields=FIELDS).outcomes}


def test_a_gap_at_1_is_asked_after_the_least_end_is_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outcomes at line values 0 and 2: after the ends are proved (0 and 2), the value 1 between
    them must still be asked. (Proved ends and gaps were once kept under keys that collide at
    1 and -1: the gap was taken as proved and the set marked complete unasked.)"""
    asked: list[Any] = []

    class Model:
        def has_objective(self) -> bool:
            return False

    class Fake:
        found = {(0,): None, (2,): None}
        watch = ["life"]
        built = type("Built", (), {"model": Model()})()

        def lit(self, i: int, v: int) -> tuple[int, int]:
            return (i, v)

    monkeypatch.setattr(solver.cp.ranges, "_extreme", lambda s, fixed, line, sense, known: (None, known))
    monkeypatch.setattr(solver.cp.ranges, "_solution", lambda s, assumptions, lp_search=False: asked.append(assumptions))
    monkeypatch.setattr(solver.cp.ranges, "reach", lambda s, aim: None)  # (no model to aim in)
    assert solver.cp.ranges.close(Fake())  # type: ignore[arg-type]
    assert asked == [[(0, 1)]]
