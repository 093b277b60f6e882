"""Optimal play with the blocks chosen and other players choosing after them (solver.cp.declared):
the CP models bound the declarations of blockers (CR 509.1), the choice graph values each one by
backward induction. Graph == CP on random combats with two players' objectives, zero-sum and not:
the same outcomes of optimal play and the same optimal declarations."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtg_outcomes import optimize, parse_objective_text
from mtg_outcomes.cp.choosers import declarations_optimizable
from mtg_outcomes.cp.plan import step_plans
from mtg_outcomes.cp.refusal import Refusal
from mtg_outcomes.graph import build_graph
from mtg_outcomes.model import parse_case
from mtg_outcomes.model.objective import Objective
from mtg_outcomes.optimize import induce

from .test_cp_blocks import combats

OBJECTIVES = [
    ["you: [maximize you.life]", "A: [minimize you.life]"],  # zero-sum: the question
    ["you: [maximize you.life, minimize A.life]", "A: [maximize A.life]"],  # not zero-sum, two levels
    ["you: [minimize A.life]", "A: [minimize you.life]"],
]


def _declared_applies(case: Any, objective: Objective) -> bool:
    plans = step_plans(case)
    return not isinstance(plans, Refusal) and declarations_optimizable(plans, objective) is None


def _optimal_declarations(case: Any, objective: Objective) -> set[str]:
    """The graph engine's optimal declarations, every one: an option whose state equals another's
    is an edge's ``also`` (networkx keeps one edge per pair of nodes), valued as that edge."""
    cg = build_graph(case)
    ind = induce(cg, objective)
    root = cg.graph.nodes[cg.root]
    assert root["kind"] == "block"
    worth = {}
    for _, child, d in cg.graph.out_edges(cg.root, data=True):
        for label in (d["picked"], *d.get("also", ())):
            worth[label] = ind.worst(root["chooser"], ind.results.get(child, frozenset()))
    top = max(w for w in worth.values() if w is not None)
    return {label for label, w in worth.items() if w == top}


def assert_same_optimum(case: Any, objective: Objective) -> None:
    graph = optimize(case, objective, engine="graph", timeout=120)
    cp = optimize(case, objective, engine="cp", timeout=120)
    assert graph.complete and cp.complete
    assert sorted(o.state for o in cp.outcomes) == sorted(o.state for o in graph.outcomes)
    if "declarations_valued" in cp.stats:  # (else one chooser in the step: solver.cp.optimum's own way)
        graph_best, cp_best = _optimal_declarations(case, objective), set(cp.decisions[0].best)
        if len(step_plans(case).prefix.starts) == 1:  # type: ignore[union-attr]
            assert cp_best == graph_best
        else:
            # with first or double strike, a block the regular step's model chooses is of an
            # attacker still there (509.1h): one that died in the first-strike step is blocked
            # by nothing new, the same outcome as no block, and that declaration is not listed
            assert cp_best <= graph_best
        assert cp.stats["declarations_optimal"] == len(cp.decisions[0].best)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(combats(), st.sampled_from(OBJECTIVES))
def test_random_chosen_blocks_optimum_graph_equals_cp(data: dict[str, Any], texts: list[str]) -> None:
    case = parse_case(data)
    objective = parse_objective_text(texts)
    if _declared_applies(case, objective):
        assert_same_optimum(case, objective)


def _creature(cid: str, controller: str, power: int, toughness: int, keywords: list[str],
              attacking: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"id": cid, "name": cid.title(), "controller": controller, "types": ["creature"],
                           "colors": ["green"], "power": power, "toughness": toughness, "keywords": keywords}
    if attacking:
        out["attacking"] = "you"
    return out


@pytest.mark.parametrize("strike", [[], ["double strike"]])
def test_a_trampler_and_a_shield(strike: list[str]) -> None:
    """A trampler and a second attacker into two blockers, a shield of 2 on you: the attacking
    player pushes trample damage through (702.19b) after each declaration; with double strike the
    first-strike blocks are declared before its step and the rest in the regular step's model."""
    case = parse_case({"id": "declared-trample", "players": [{"name": "A"}, {"name": "you", "life": 5}],
                       "battlefield": [_creature("a0", "A", 5, 5, ["trample"], True),
                                       _creature("a1", "A", 3, 3, strike, True),
                                       _creature("b0", "you", 2, 2, [], False),
                                       _creature("b1", "you", 1, 4, [], False)],
                       "effects": [{"id": "s1", "shield": 2, "to": "you", "controller": "you"}],
                       "actions": [{"combat": {"blocks": "choose"}}]})
    objective = parse_objective_text(OBJECTIVES[0])
    assert _declared_applies(case, objective)
    assert_same_optimum(case, objective)
    cp = optimize(case, objective, engine="cp", timeout=120)
    assert cp.engine == "cp" and "declarations_valued" in cp.stats


def test_without_the_declarers_objective_the_graph_answers() -> None:
    """The declaring player without an objective keeps every declaration: nothing to bound."""
    case = parse_case({"id": "declared-no-objective", "players": [{"name": "A"}, {"name": "you"}],
                       "battlefield": [_creature("a0", "A", 3, 3, ["trample"], True),
                                       _creature("b0", "you", 2, 2, [], False),
                                       _creature("b1", "you", 1, 1, [], False)],
                       "actions": [{"combat": {"blocks": "choose"}}]})
    objective = parse_objective_text(["A: [minimize you.life]"])
    plans = step_plans(case)
    assert not isinstance(plans, Refusal)
    assert "without an objective" in (declarations_optimizable(plans, objective) or "")


def test_triggers_after_the_step_go_to_the_graph() -> None:
    """Your Blood Artist gains you life as creatures die after the step (603.2): the rules engine's,
    after the model's outcomes, so the models can't bound a declaration's worth; the graph engine
    answers (you end at 24, not the 23 a bound without the triggers would keep)."""
    case = parse_case({"id": "declared-suffix", "players": [{"name": "A"}, {"name": "you"}],
                       "battlefield": [{"id": "wurm", "card": "Craw Wurm", "controller": "A", "attacking": "you"},
                                       {"id": "giant", "card": "Hill Giant", "controller": "A", "attacking": "you"},
                                       _creature("trampler", "A", 4, 4, ["trample"], True),
                                       {"id": "artist", "card": "Blood Artist", "controller": "you"},
                                       {"id": "elves", "card": "Llanowar Elves", "controller": "you"},
                                       {"id": "bears", "card": "Grizzly Bears", "controller": "you"},
                                       {"id": "spider", "card": "Giant Spider", "controller": "you"}],
                       "actions": [{"combat": {"blocks": "choose"}}]})
    objective = parse_objective_text(OBJECTIVES[0])
    plans = step_plans(case)
    assert not isinstance(plans, Refusal)
    assert "continues after" in (declarations_optimizable(plans, objective) or "")
    auto = optimize(case, objective, fields=["you.life", "A.life"], timeout=300)
    graph = optimize(case, objective, engine="graph", fields=["you.life", "A.life"], timeout=300)
    assert [o.state for o in auto.outcomes] == [o.state for o in graph.outcomes]
    assert [dict(o.state)["you.life"] for o in auto.outcomes] == [24]
