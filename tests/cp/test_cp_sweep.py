"""The aimed enumeration (solver.cp.sweep): after a run stopped by repeats, each found outcome's
neighbours are aimed at directly, and the next run is the proof. Forced here on small models (a
run hands over at its first solution, no single-run shortcut) it must give the graph engine's
outcomes with witnesses that replay on every shipped case CP answers (tests/cp/test_cp.assert_same),
the same set as the runs alone on the bench board, the same witnesses on every run, and an
answer cut by the time limit; and the model keeps its own hint for the runs after a sweep."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import mtg_outcomes as solver
import mtg_outcomes.cp.answer  # noqa: F401
import mtg_outcomes.cp.ranges  # noqa: F401
import mtg_outcomes.cp.search  # noqa: F401
import mtg_outcomes.cp.sweep  # noqa: F401
from bench.gen import large_enumeration
from mtg_outcomes.cp import cp_outcomes, cp_supported
from mtg_outcomes.cp.sweep import reach
from mtg_outcomes.limits import as_deadline
from mtg_outcomes.model import load_case, parse_case

from ..shipped.test_shipped import FILES
from .test_cp import assert_same

FIELDS = ["you.life", "A.cards_drawn"]  # the bench's projection


@contextmanager
def swept() -> Iterator[list[int]]:
    """Every run hands over to the sweep at its first solution; yields [aims, aims that found one]."""
    search = solver.cp.search.Search
    saved = (solver.cp.search.ONE_RUN, solver.cp.search.REPEATS, search.aimed)
    counts = [0, 0]

    def aimed(self: Any, key: tuple[int, ...], hint: list[int], *dtime: float) -> tuple[Any, bool]:
        got, none = saved[2](self, key, hint, *dtime)
        counts[0] += 1
        counts[1] += got is not None
        return got, none

    solver.cp.search.ONE_RUN, solver.cp.search.REPEATS = 0, 0
    search.aimed = aimed  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        solver.cp.search.ONE_RUN, solver.cp.search.REPEATS, search.aimed = saved  # type: ignore[method-assign]


SUPPORTED = [p for p in FILES if cp_supported(load_case(p)) is None]


@pytest.mark.parametrize("path", SUPPORTED, ids=[p.name for p in SUPPORTED])
def test_swept_shipped_case_graph_equals_cp(path: Path) -> None:
    with swept():
        assert_same(load_case(path))


def test_the_sweep_and_the_runs_agree_on_the_bench_board() -> None:
    """The bench board cut to four attackers and three shields, then eight and four (bench/gen.py),
    projected on life and cards: the runs alone and the sweep give the same outcomes (at 4 x 3,
    all but the first found by aims), and the sweep gives the same witnesses twice."""
    for attackers, shields, aimed in ((4, 3, 20), (8, 4, 1)):
        case = parse_case(large_enumeration(attackers, shields))
        plain = cp_outcomes(case, fields=FIELDS)
        with swept() as counts:
            once = cp_outcomes(case, fields=FIELDS)
            again = cp_outcomes(case, fields=FIELDS)
        assert plain.complete and once.complete
        assert counts[1] >= 2 * aimed, (attackers, shields, counts)  # (both runs)
        assert [o.state for o in once.outcomes] == [o.state for o in plain.outcomes]
        assert [(o.state, o.witness) for o in once.outcomes] == [(o.state, o.witness) for o in again.outcomes]


def test_a_sweep_cut_by_the_time_limit_is_partial() -> None:
    """The hundred-attacker board can't be answered in eight seconds: the time limit cuts the
    sweep, and what it found is the answer, marked partial."""
    with swept() as counts:
        res = cp_outcomes(parse_case(large_enumeration(100, 20)), fields=FIELDS, timeout=8.0)
    assert not res.complete and res.stats["limit"] == "the time limit was reached while solving"
    assert counts[1] > 0 and len(res.outcomes) > counts[1]


def test_the_sweep_gives_the_model_its_own_hint_back() -> None:
    """An aim hints the model with its seed's solution and clears it after; the sweep puts the
    model's own hint (here the greedy one the build made for its slot-encoded events) back for
    the runs after it."""
    case = parse_case(large_enumeration(4, 12))
    search = solver.cp.answer.prepared_searches(case, FIELDS, as_deadline(60.0))[1][0]
    hint = search.built.model.proto.solution_hint
    own = (list(hint.vars), list(hint.values))
    assert own[0]  # (the build's greedy hint)
    key = (0,) * len(search.watch)
    with search.hint_kept():
        search.aimed(key, [])
        assert not list(search.built.model.proto.solution_hint.vars)  # the aim cleared it
    after = search.built.model.proto.solution_hint
    assert (list(after.vars), list(after.values)) == own


def test_reach_aims_from_each_neighbour_not_yet_tried() -> None:
    """solver.cp.sweep.reach (what the ranges ask before a proof's solve): from the kept solution
    at life 390, no card, the outcome at 391 is found (recorded, kept, a seed) and not aimed at
    again; at 400 life and a card (one card means damage dealt) the aim from 400 with no card
    proves there is none and it is not asked again; a key outside a field's range is not aimed at."""
    case = parse_case(large_enumeration(4, 3))
    search = solver.cp.answer.prepared_searches(case, FIELDS, as_deadline(60.0))[1][0]
    for key in ((390, 0), (400, 0)):
        got, _ = search.aimed(key, [])
        assert got is not None
        search.found[key] = None
        search.kept.put(key, got.response_proto.solution)
    seed = reach(search, (391, 0))
    assert seed is not None and seed[0] == (391, 0) and (391, 0) in search.found
    assert search.kept.get((391, 0)) == seed[1] and search.tried[(391, 0)] == [(390, 0)]
    assert reach(search, (391, 0)) is None and search.tried[(391, 0)] == [(390, 0)]
    assert reach(search, (400, 1)) is None and (400, 1) in search.empty and (400, 1) not in search.found
    assert reach(search, (400, 1)) is None and search.tried[(400, 1)] == [(400, 0)]
    beyond = (search.span[0][1] + 1, 0)
    assert reach(search, beyond) is None and beyond not in search.tried


def test_with_no_aim_in_the_sweep_the_ranges_aims_find_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep aims at nothing and the run after it has no time: the ranges' own aims (reach,
    a step past each end and each value between) find what the first run missed, most of it
    with no proof's solve, and the answer is the runs' own, complete."""
    case = parse_case(large_enumeration(4, 3))
    plain = cp_outcomes(case, fields=FIELDS)
    monkeypatch.setattr(solver.cp.sweep, "AIM_TRIES", 0)
    monkeypatch.setattr(solver.cp.search, "RUN_BUDGET", 0.0)
    reached: list[bool] = []

    def counted(search: Any, aim: tuple[int, ...]) -> Any:
        got = reach(search, aim)
        reached.append(got is not None)
        return got

    monkeypatch.setattr(solver.cp.ranges, "reach", counted)
    with swept():
        res = cp_outcomes(case, fields=FIELDS)
    assert res.complete and {o.state for o in res.outcomes} == {o.state for o in plain.outcomes}
    assert sum(reached) >= len(plain.outcomes) // 2, (sum(reached), len(plain.outcomes))
