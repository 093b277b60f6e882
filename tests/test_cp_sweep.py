"""The aimed enumeration (solver.cp.sweep): after a run stopped by repeats, each found outcome's
neighbours are aimed at directly, and the next run is the proof. Forced here on small models (a
run hands over at its first solution, no single-run shortcut) it must give the graph engine's
outcomes with witnesses that replay on every shipped case CP answers (tests/test_cp.assert_same),
the same set as the runs alone on the bench board, the same witnesses on every run, and an
answer cut by the time limit; and the model keeps its own hint for the runs after a sweep."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import solver.cp.search
from bench.gen import large_enumeration
from model import load_case, parse_case
from solver.cp import cp_outcomes, cp_supported
from solver.limits import as_deadline

from .test_cp import FILES, assert_same

FIELDS = ["you.life", "A.cards_drawn"]  # the bench's projection


@contextmanager
def swept() -> Iterator[list[int]]:
    """Every run hands over to the sweep at its first solution; yields [aims, aims that found one]."""
    search = solver.cp.search._Search
    saved = (solver.cp.search.ONE_RUN, solver.cp.search.REPEATS, search.aimed)
    counts = [0, 0]

    def aimed(self: Any, key: tuple[int, ...], hint: list[int]) -> tuple[Any, bool]:
        got, none = saved[2](self, key, hint)
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
    search = solver.cp.search._prepared(case, FIELDS, as_deadline(60.0))[1][0]
    hint = search.built.model.proto.solution_hint
    own = (list(hint.vars), list(hint.values))
    assert own[0]  # (the build's greedy hint)
    key = (0,) * len(search.watch)
    with search.hint_kept():
        search.aimed(key, [])
        assert not list(search.built.model.proto.solution_hint.vars)  # the aim cleared it
    after = search.built.model.proto.solution_hint
    assert (list(after.vars), list(after.values)) == own
