"""One rule, two forms (solver.rules): each rule's constraint form, solved by CP-SAT, allows exactly
what its concrete form allows, on every small case."""

from __future__ import annotations

import itertools

import pytest
from ortools.sat.python import cp_model

from mtg_outcomes.cp.literals import at_least, at_most, either
from mtg_outcomes.rules import shields
from mtg_outcomes.rules.loss import loss_literal, player_loses, poison_limit
from mtg_outcomes.rules.team import team_members, team_sum
from mtg_outcomes.state import PlayerState


class _All(cp_model.CpSolverSolutionCallback):
    def __init__(self, variables: list[cp_model.IntVar]) -> None:
        super().__init__()
        self.variables = variables
        self.found: set[tuple[int, ...]] = set()

    def on_solution_callback(self) -> None:
        self.found.add(tuple(self.value(v) for v in self.variables))


def _solutions(m: cp_model.CpModel, variables: list[cp_model.IntVar]) -> set[tuple[int, ...]]:
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    collect = _All(variables)
    assert solver.solve(m, collect) in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return collect.found


@pytest.mark.parametrize("remaining", range(4))
def test_shield_shares_two_forms(remaining: int) -> None:
    """615.7 on two events: the shares the constraint form allows (share_constraint per event,
    used_up_constraint over both) are exactly those the graph engine keeps (shares from room,
    then falls_short drops a result where the shield took less than offered and isn't used up)."""
    for offered in itertools.product(range(4), repeat=2):
        concrete = {takes for takes in itertools.product(*(shields.shares(shields.room(remaining, o)) for o in offered))
                    if sum(takes) <= remaining and not shields.falls_short(
                        all(shields.took_all(t, o) for t, o in zip(takes, offered, strict=True)), remaining - sum(takes))}
        m = cp_model.CpModel()
        takes_vars = [m.new_int_var(0, shields.room(remaining, o), f"t{i}") for i, o in enumerate(offered)]
        fulls = []
        for i, (t, o) in enumerate(zip(takes_vars, offered, strict=True)):
            full = m.new_bool_var(f"f{i}")
            shields.share_constraint(m, t, o, full, m.new_int_var(0, 3, f"after{i}"))
            fulls.append(full)
        total = sum(takes_vars)
        m.add(total <= remaining)
        shields.used_up_constraint(m, total, remaining, fulls, at_least)
        assert _solutions(m, takes_vars) == concrete, (remaining, offered)
        assert concrete  # a shield can always prevent as much as it can


@pytest.mark.parametrize("two_headed", [False, True])
@pytest.mark.parametrize("spared", [False, True])
def test_loss_two_forms(two_headed: bool, spared: bool) -> None:
    """704.5a, 704.5c, 704.6b: loss_literal on fixed totals is player_loses."""
    for life, poison in itertools.product(range(-2, 3), range(poison_limit(two_headed) - 2, poison_limit(two_headed) + 2)):
        m = cp_model.CpModel()
        lit = loss_literal(m, at_most, at_least, either, m.new_int_var(life, life, "life"),
                           m.new_int_var(poison, poison, "poison"), two_headed, spared)
        lost = m.new_bool_var("lost")
        m.add(lost == lit)
        assert _solutions(m, [lost]) == {(int(player_loses(life, poison, two_headed, spared)),)}, (life, poison)


def test_team_total_two_forms() -> None:
    """810.9: in Two-Headed Giant a change to one player is every member's (team_members), and
    the constraint form's total of a player sums every member's changes (team_sum)."""
    players = [PlayerState("you", 30, "a"), PlayerState("ally", 30, "a"), PlayerState("B", 30, "b")]
    assert team_members(players, True, players[0]) == ["you", "ally"]
    assert team_members(players, False, players[0]) == ["you"]
    loss = {"you": [3], "ally": [2, 1], "B": [7]}
    assert team_sum(loss, team_members(players, True, players[1])) == 6
    assert team_sum(loss, team_members(players, True, players[2])) == 7
    assert team_sum(loss, team_members(players, False, players[1])) == 3
