"""The shield hull cuts (solver.cp.hulls): the most and the least damage an event can end with
for each total its shields prevent (CR 615.7, 616.1), derived by hand here; their hulls, and the
hull of several events' sums; and that the cuts keep every outcome (graph == CP, the block
encoding alone, where the cuts are all the LP sees)."""

from __future__ import annotations

from typing import Any

import pytest

import mtg_outcomes as solver
import mtg_outcomes.cp.tables  # noqa: F401
from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.cp.hulls import _convolved, _vertices, event_hull
from mtg_outcomes.cp.plan import step_plans
from mtg_outcomes.cp.refusal import Refusal
from mtg_outcomes.model import parse_case

VIOLENCE = {"id": "violence", "name": "Gratuitous Violence", "controller": "A", "types": ["enchantment"],
            "abilities": [{"multiply": 2, "from": "red creatures you control"}]}
SERAPH = {"id": "seraph", "name": "Guardian Seraph", "controller": "you", "types": ["creature"], "power": 3,
          "toughness": 4, "abilities": [{"prevent": 1, "to": "you", "from": "sources an opponent controls"}]}


def _case(attackers: list[tuple[int, str]], shields: list[int]) -> dict[str, Any]:
    return {
        "id": "hulls",
        "players": [{"name": "you", "life": 40}, {"name": "A"}],
        "battlefield": [{"id": f"a{i}", "name": f"Raider {i}", "controller": "A", "types": ["creature"],
                         "colors": [color], "power": n, "toughness": n, "attacking": "you"}
                        for i, (n, color) in enumerate(attackers)] + [VIOLENCE, SERAPH],
        "effects": [{"id": f"s{j}", "shield": r, "to": "you", "controller": "you"} for j, r in enumerate(shields)],
        "actions": [{"combat": {}}],
    }


def test_615_7_the_hulls_of_a_doubled_event_with_a_prevent_1() -> None:
    """A red 3-power attacker, doubled, "prevent 1" (the Seraph), an 8-point shield. Most: 6 - 1
    = 5 with no shield, 5 - t with the shield after both, and 0 at t = 6 (doubled, then all 6
    taken: the prevent 1 has nothing left), so the hull is the line from (0, 5) to (6, 0). Least:
    prevent 1 first, 2 doubled is 4; with t = 1 first, 3 -> 2 -> 1 -> 2; t = 2: 3 -> 1 -> 0; then
    0 to t = 6: the hull (0, 4), (2, 0), (6, 0)."""
    plans = step_plans(parse_case(_case([(3, "red")], [8])))
    assert not isinstance(plans, Refusal), plans
    plan = plans.plans[0]
    assert event_hull(plan, plan.events[0]) == (((0, 5), (6, 0)), ((0, 4), (2, 0), (6, 0)))


def test_hull_vertices_and_the_hull_of_sums() -> None:
    points = [(0, 5), (1, 4), (2, 3), (3, 2), (4, 1), (5, 0), (6, 0)]
    assert _vertices(points, upper=True) == ((0, 5), (6, 0))
    assert _vertices(points, upper=False) == ((0, 5), (5, 0), (6, 0))
    # the hull of sums against every split, for two concave functions given by their vertices
    f, g = ((0, 5), (6, 0)), ((0, 3), (1, 3), (3, 0))
    start, edges = _convolved([f, g], upper=True)

    def at(h: tuple[tuple[int, int], ...], t: float) -> float:
        for (x1, y1), (x2, y2) in zip(h, h[1:], strict=False):
            if x1 <= t <= x2:
                return y1 + (y2 - y1) * (t - x1) / (x2 - x1)
        raise ValueError(t)

    t, d = start
    vertices = [start]
    for dt, dd in edges:
        t, d = t + dt, d + dd
        vertices.append((t, d))
    for total in range(10):
        best = max(at(f, a) + at(g, total - a) for a in range(7) if 0 <= total - a <= 3)
        assert abs(at(tuple(vertices), total) - best) < 1e-9


@pytest.mark.parametrize(("attackers", "shields"), [
    ([(3, "red")], [8]), ([(3, "red"), (2, "green")], [3]), ([(1, "red"), (1, "red"), (2, "green")], [2, 3]),
    ([(4, "red"), (1, "green")], [2, 2, 5]),
])
@pytest.mark.parametrize("blocks", [False, True])
def test_615_7_the_cuts_keep_every_outcome(attackers: list[tuple[int, str]], shields: list[int], blocks: bool,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    if blocks:
        monkeypatch.setattr(solver.cp.tables, "TABLE_LIMIT", 0)
    case = parse_case(_case(attackers, shields))
    graph = {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}
    cp = {o.state for o in enumerate_outcomes(case, engine="cp").outcomes}
    assert graph == cp
