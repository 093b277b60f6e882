"""The CP model's solution hints (solver.cp.hints): the greedy one at the least damage, and the
far one at the most (a seed for the aimed enumeration's sweep). A hint changes no answer; these
check that each is a legal choice, and the far one a choice giving the most damage the graph
engine finds where its greedy is exact."""

from __future__ import annotations

from typing import Any

import pytest
from ortools.sat.python import cp_model as cp

import mtg_outcomes as solver
import mtg_outcomes.cp.search  # noqa: F401
from bench.gen import large_enumeration
from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.cp.answer import prepared_searches
from mtg_outcomes.cp.hints import far_hint
from mtg_outcomes.limits import as_deadline
from mtg_outcomes.model import parse_case

from .test_cp import assert_same, blocks_only
from .test_cp_sweep import FIELDS, swept


def _fixed_to(search: Any, pairs: list[tuple[Any, int]]) -> Any:
    """A solve of ``search``'s model with every hinted variable fixed to its hint: a hint that
    breaks a constraint is infeasible."""
    model = search.built.model.clone()
    model.clear_hints()
    for var, value in pairs:
        model.add_hint(var, value)
    solver = cp.CpSolver()
    solver.parameters.fix_variables_to_their_hinted_value = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 60
    return solver, solver.solve(model)


def test_the_far_hint_is_the_most_damage_where_zeroing_an_event_wastes_a_prevention() -> None:
    """Three attackers (5 and 1 black, 6 red under a doubler) into a 7-point shield, with a
    prevent-1 for each source (Guardian Seraph): the most damage (10) puts the shield first on
    both black creatures' damage, so the prevent-1 finds 0 there (120.8) and is wasted, and
    its last point after the doubling of the red one's 12 (615.7, 616.1). The far hint is that
    choice: a legal one, and the graph engine's least life."""
    case = parse_case(large_enumeration(3, 1))
    least = min(dict(o.state)["you.life"] for o in enumerate_outcomes(case, engine="graph", fields=FIELDS).outcomes)
    with blocks_only():
        _, searches = prepared_searches(case, FIELDS, as_deadline(60.0))
    search = searches[0]
    pairs = far_hint(search.plan, search.built.units)
    assert pairs
    solver, status = _fixed_to(search, pairs)
    assert status in (cp.OPTIMAL, cp.FEASIBLE)
    assert solver.value(search.watch[0]) == least == 390


def test_the_far_hint_is_legal_on_the_bench_board() -> None:
    """Twenty attackers into six shields, half of them for one colour: the hint is a legal
    choice (every variable fixed to it, the model is feasible) with more damage than the greedy
    hint at the least."""
    case = parse_case(large_enumeration(20, 6))
    with blocks_only():
        _, searches = prepared_searches(case, FIELDS, as_deadline(60.0))
    search = searches[0]
    far_solver, far = _fixed_to(search, far_hint(search.plan, search.built.units))
    own = search.built.model.proto.solution_hint
    near_solver, near = _fixed_to(search, [(search.built.model.get_int_var_from_proto_index(v), x)
                                           for v, x in zip(own.vars, own.values, strict=True)])
    assert far in (cp.OPTIMAL, cp.FEASIBLE) and near in (cp.OPTIMAL, cp.FEASIBLE)
    assert far_solver.value(search.watch[0]) < near_solver.value(search.watch[0])


def test_a_sweep_seeded_at_the_far_end_gives_the_graphs_outcomes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The far seed's outcome and what the sweep reaches from it are the graph's, each witness
    replayed: the bench board at four attackers and two shields projected on life and cards,
    and at four and one on every field, block encoding, every run handing over to the sweep,
    which is given the far seed once."""
    seeds: list[Any] = []
    far_seed = solver.cp.search.far_seed

    def counted(search: Any) -> Any:
        seeds.append(far_seed(search))
        return seeds[-1]

    monkeypatch.setattr(solver.cp.search, "far_seed", counted)
    with blocks_only(), swept() as counts:
        assert assert_same(parse_case(large_enumeration(4, 2)), fields=FIELDS) > 1
        assert assert_same(parse_case(large_enumeration(4, 1))) > 1  # every field: the witnesses replayed
    assert counts[0] > 0 and len(seeds) == 2 and all(s is not None for s in seeds)
