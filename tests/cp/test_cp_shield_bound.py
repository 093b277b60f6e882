"""A shield the amounts prove used up (615.7), or what they bound it to keep, is said so in the
CP model (solver.cp.step.shortfall): only where the rules leave no other result, checked
against the graph."""

from __future__ import annotations

from typing import Any

import pytest

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.cp.plan import step_plans
from mtg_outcomes.cp.refusal import Refusal
from mtg_outcomes.cp.step import shield_groups, shortfall
from mtg_outcomes.model import parse_case


def _case(amounts: list[int], shields: list[int], extra: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "id": "bound",
        "players": [{"name": "you"}, {"name": "A"}],
        "battlefield": [{"id": f"a{i}", "name": f"Raider {i}", "controller": "A", "types": ["creature"],
                         "colors": ["red"], "power": n, "toughness": n, "attacking": "you"}
                        for i, n in enumerate(amounts)] + (extra or []),
        "effects": [{"id": f"s{j}", "shield": r, "to": "you", "controller": "you"} for j, r in enumerate(shields)],
        "actions": [{"combat": {}}],
    }


def _proved(data: dict[str, Any]) -> list[bool]:
    plans = step_plans(parse_case(data))
    assert not isinstance(plans, Refusal), plans
    plan = plans.plans[0]
    return [shortfall(plan, key) == 0 for key in sorted(plan.shields)]


DOUBLER = {"id": "dictate", "card": "Dictate of the Twin Gods", "controller": "A"}
SERAPH = {"id": "seraph", "name": "Test Seraph", "controller": "you", "types": ["creature"], "power": 1,
          "toughness": 1, "abilities": [{"prevent": 1, "to": "you", "from": "sources an opponent controls"}]}
HALVER = {"id": "halver", "name": "Test Halver", "controller": "you", "types": ["enchantment"],
          "abilities": [{"prevent": "half_down", "to": "you"}]}


@pytest.mark.parametrize(("amounts", "shields", "extra", "proved"), [
    ([5], [3], [], [True]),  # 5 to remove, 3 the shield can take: it ends used up
    ([2], [3], [], [False]),  # 2 damage: it takes all and 1 point is left
    ([5], [3, 3], [], [False, False]),  # 6 points for 5 damage: either may be left with some
    ([7], [3, 3], [], [True, True]),
    ([3], [3], [DOUBLER], [True]),  # a doubler only raises the amount (614.1a)
    ([3, 1], [3], [SERAPH], [False]),  # prevent 1 of each (2 in all) with 3: 4 < 3 + 2
    ([4, 1], [3], [SERAPH], [True]),
    ([9], [3], [HALVER], [False]),  # half of it prevented: no fixed size, no proof
])
def test_615_7_used_up_only_when_the_amounts_prove_it(amounts: list[int], shields: list[int],
                                                      extra: list[dict[str, Any]], proved: list[bool]) -> None:
    data = _case(amounts, shields, extra)
    assert _proved(data) == proved
    case = parse_case(data)
    graph = {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}
    cp = {o.state for o in enumerate_outcomes(case, engine="cp").outcomes}
    assert graph == cp
    for key, surely in zip(sorted(f"s{j}" for j in range(len(shields))), proved, strict=True):
        if surely:  # every legal result has it used up
            assert all(dict(s)[f"{key}.remaining"] == 0 for s in graph)


@pytest.mark.parametrize(("amounts", "shields", "extra", "short"), [
    ([5], [3], [], [0]),
    ([2], [3], [], [1]),  # 2 damage to take: 1 point kept at most
    ([5], [3, 3], [], [1, 1]),  # 6 points over 5 damage: between them they keep at most 1
    ([3], [3], [DOUBLER], [0]),
    ([3, 1], [3], [SERAPH], [1]),  # 3 + 2 of the Seraph's over 4
    ([9], [3], [HALVER], [None]),
])
def test_615_7_what_a_shield_can_keep_is_bounded_by_the_amounts(
        amounts: list[int], shields: list[int], extra: list[dict[str, Any]], short: list[int | None]) -> None:
    plans = step_plans(parse_case(_case(amounts, shields, extra)))
    assert not isinstance(plans, Refusal), plans
    plan = plans.plans[0]
    assert [shortfall(plan, key) for key in sorted(plan.shields)] == short


def test_615_7_a_filtered_shield_may_keep_points_where_the_others_zero_its_events() -> None:
    """A green shield (3) and an unfiltered one (3) against a green 4 and a red 2: the green
    one can keep at most 6 - 4 = 2 points, and only by ending the green damage at 0
    (the unfiltered shield takes 3 of it, the green one 1 and keeps 2; the red 2 is dealt).
    The model's bounds (kept <= 2, and keeping any means no green damage) keep every outcome."""
    data = _case([4, 2], [3, 3])
    data["battlefield"][0]["colors"] = ["green"]
    data["effects"][0]["from"] = "green sources"
    case = parse_case(data)
    plans = step_plans(case)
    assert not isinstance(plans, Refusal), plans
    assert shortfall(plans.plans[0], "s0") == 2
    groups = shield_groups(plans.plans[0], ["s0", "s1"])
    # the unfiltered one can't keep any: keeping some would end both events (6) at 0 with 6 points
    assert [(members, short) for members, _, short in groups] == [(["s0"], 2), (["s1"], 0)]
    graph = {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}
    cp = {o.state for o in enumerate_outcomes(case, engine="cp").outcomes}
    assert graph == cp
    # the unfiltered shield (used up) gives g of its 3 to the green 4 and 3 - g to the red 2
    # (g >= 1); the green one takes the rest of the green damage and keeps g - 1; the red takes
    # 2 - (3 - g): g = 1, 2, 3 give (kept, life) (0, 20), (1, 19), (2, 18)
    assert {(dict(s)["s0.remaining"], dict(s)["you.life"]) for s in graph} == {(0, 20), (1, 19), (2, 18)}
