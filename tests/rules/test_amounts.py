"""solver.rules.amounts: each amount rule once, its concrete form and its CP-SAT form agree.

For every rule and every amount 0..40, CP-SAT given ``vin`` finds exactly one ``vout``, and it is
``rule.apply(vin)``; ``upper`` bounds every result. 0 damage stays 0 (CR 120.8, 614.7a).
"""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from mtg_outcomes.model.vocab import parse_effect
from mtg_outcomes.rules.amounts import (
    Add,
    AmountRule,
    Cap,
    Halve,
    Multiply,
    PreventAll,
    PreventAllBut,
    PreventHalf,
    PreventN,
    Subtract,
    rule_of,
)

RULES = [PreventAll(), PreventHalf(True), PreventHalf(False), PreventAllBut(2), PreventN(3), PreventN(0),
         Multiply(2), Multiply(3), Add(2), Subtract(2), Cap(4), Halve(False), Halve(True)]


class _Collect(cp_model.CpSolverSolutionCallback):
    def __init__(self, var: cp_model.IntVar) -> None:
        super().__init__()
        self.var = var
        self.seen: list[int] = []

    def on_solution_callback(self) -> None:
        self.seen.append(self.value(self.var))


@pytest.mark.parametrize("rule", RULES, ids=repr)
def test_cp_encoding_is_the_rule(rule: AmountRule) -> None:
    for amount in range(41):
        m = cp_model.CpModel()
        vin = m.new_int_var(amount, amount, "in")
        vout = m.new_int_var(-1000, 1000, "out")
        rule.encode(m, vin, vout, "t")
        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        collect = _Collect(vout)
        solver.solve(m, collect)
        assert collect.seen == [rule.apply(amount)], (rule, amount, collect.seen)
        assert rule.apply(amount) <= rule.upper(40)


@pytest.mark.parametrize("rule", RULES, ids=repr)
def test_zero_stays_zero(rule: AmountRule) -> None:
    assert rule.apply(0) == 0


def test_halving_is_a_replacement_not_a_prevention() -> None:
    """615.12 stops prevention, not replacement: Ghosts of the Innocent halves unpreventable damage."""
    assert PreventHalf(True).prevents and not Halve(False).prevents
    assert [Halve(False).apply(n) for n in range(6)] == [PreventHalf(True).apply(n) for n in range(6)]


def test_subtracting_is_a_replacement_never_below_zero() -> None:
    """Lashknife Barrier's "that much damage minus 1" (614.1a) prevents nothing (615.12 doesn't
    stop it) and leaves 0 of 1, which is no damage (120.8)."""
    assert not Subtract(1).prevents
    assert [Subtract(1).apply(n) for n in range(4)] == [0, 0, 1, 2]


def test_a_cap_applies_only_above_its_n() -> None:
    """616.1f offers only the effects that would now apply: a cap at 3 doesn't apply to 3 or less
    (it would change nothing, and it must not be used up there before a doubling, 614.5); every
    other rule applies to any damage (0 is no damage, 120.8)."""
    assert Cap(3).least == 4 and not Cap(3).applies(3) and Cap(3).applies(4)
    assert all(r.least == 1 for r in (PreventAll(), PreventN(2), Multiply(2), Add(1), Halve(True), PreventAllBut(1)))


@pytest.mark.parametrize(("text", "rule"), [
    ({"prevent": "all"}, PreventAll()), ({"prevent": "half_up"}, PreventHalf(True)),
    ({"prevent": "half_down"}, PreventHalf(False)), ({"prevent": {"all_but": 1}}, PreventAllBut(1)),
    ({"prevent": 2}, PreventN(2)), ({"multiply": 2}, Multiply(2)), ({"add": 2}, Add(2)), ({"cap": 3}, Cap(3)), ({"subtract": 1}, Subtract(1)),
    ({"halve": "down"}, Halve(False)), ({"halve": "up"}, Halve(True)),
    ({"shield": 3}, None), ({"redirect": "you"}, None),
])
def test_rule_of_each_effect_kind(text: dict[str, object], rule: AmountRule | None) -> None:
    assert rule_of(parse_effect(text, "effect")) == rule


def test_counted_prevention_reads_the_count() -> None:
    spec = parse_effect({"prevent": {"count": "creatures you control"}}, "effect")
    assert rule_of(spec, 3) == PreventN(3) and rule_of(spec, None) == PreventN(0)
