"""Blocks inside the CP model (solver.cp.blocks, CR 509.1): the declaration of blockers as the
model's literals, and with first or double strike the blocks the first-strike step reads
declared before it (510.4). Graph == CP on random combats with chosen blocks (flying, reach,
menace, protection, trample, deathtouch, lifelink, first and double strike, a shield on the
defending player), on the shipped cases with chosen blocks, and witnesses replayed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.check import case_files
from mtg_outcomes.cp import cp_outcomes
from mtg_outcomes.cp.plan import step_plans
from mtg_outcomes.cp.refusal import Refusal
from mtg_outcomes.model import parse_case

from ..conftest import CASES
from .test_cp import assert_same, cp_paths

_KEYWORDS = ["flying", "reach", "menace", "trample", "deathtouch", "lifelink", "first strike", "double strike"]


def _creature(cid: str, controller: str, power: int, toughness: int, keywords: list[str], colors: list[str],
              attacking: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"id": cid, "name": cid.title(), "controller": controller, "types": ["creature"],
                           "colors": colors, "power": power, "toughness": toughness, "keywords": keywords}
    if attacking:
        out["attacking"] = "you"
    return out


@st.composite
def combats(draw: st.DrawFn) -> dict[str, Any]:
    """A combat with the blocks chosen: 1-3 attackers into 1-3 potential blockers."""
    perms = []
    for side, n in (("a", draw(st.integers(1, 3))), ("b", draw(st.integers(1, 3)))):
        for i in range(n):
            kws = draw(st.lists(st.sampled_from(_KEYWORDS), max_size=2, unique=True))
            colors = [draw(st.sampled_from(["red", "green", "white"]))]
            perms.append(_creature(f"{side}{i}", "A" if side == "a" else "you", draw(st.integers(0, 4)),
                                   draw(st.integers(1, 4)), kws, colors, side == "a"))
    case: dict[str, Any] = {"id": "random-blocks", "players": [{"name": "A"}, {"name": "you"}], "battlefield": perms,
                            "actions": [{"combat": {"blocks": "choose"}}]}
    if draw(st.booleans()):  # protection from a color on one attacker (702.16f)
        color = draw(st.sampled_from(["red", "green", "white"]))
        case["effects"] = [{"id": "pro", "protection": {"from": f"{color} sources"}, "to": "a0", "controller": "A"}]
    if draw(st.booleans()):  # a shield on the defending player (615.7)
        case.setdefault("effects", []).append({"id": "s1", "shield": draw(st.integers(1, 3)), "to": "you",
                                               "controller": "you"})
    return case


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(combats())
def test_random_chosen_blocks_graph_equals_cp(data: dict[str, Any]) -> None:
    case = parse_case(data)
    if cp_paths(case) is not None:  # (CP models it)
        assert_same(case, limited=True)


def test_the_declaration_is_in_the_model() -> None:
    """One model for every declaration of a combat without first strike (not one per declaration)."""
    case = parse_case({"id": "blocks-in-the-model", "players": [{"name": "A"}, {"name": "you"}],
                       "battlefield": [_creature("a0", "A", 3, 3, [], ["red"], True),
                                       _creature("a1", "A", 2, 2, ["trample"], ["red"], True),
                                       _creature("b0", "you", 2, 2, [], ["green"], False),
                                       _creature("b1", "you", 1, 4, ["reach"], ["green"], False)],
                       "actions": [{"combat": {"blocks": "choose"}}]})
    plans = step_plans(case)
    assert not isinstance(plans, Refusal)
    assert len(plans.plans) == 1 and plans.plans[0].blocks is not None
    assert assert_same(case) > 1


def test_first_strike_blocks_are_declared_before_the_step() -> None:
    """A double striker: its blocks are the prefix's, the others the regular step's model's; the
    witness names the whole declaration as the graph engine makes it (509.1)."""
    case = parse_case({"id": "double-strike-blocks", "players": [{"name": "A"}, {"name": "you"}],
                       "battlefield": [_creature("a0", "A", 2, 3, ["double strike"], ["red"], True),
                                       _creature("a1", "A", 3, 3, [], ["red"], True),
                                       _creature("b0", "you", 2, 2, [], ["green"], False),
                                       _creature("b1", "you", 3, 1, [], ["green"], False)],
                       "effects": [{"id": "s1", "shield": 3, "to": "you", "controller": "you"}],
                       "actions": [{"combat": {"blocks": "choose"}}]})
    plans = step_plans(case)
    assert not isinstance(plans, Refusal)
    assert any(p.blocks is not None and p.blocks.step == 2 for p in plans.plans)
    assert assert_same(case) > 1
    for o in cp_outcomes(case).outcomes:
        blocks = [w for w in o.witness if w.kind == "block"]
        assert len(blocks) == 1 and "later" not in blocks[0].picked


BLOCK_CASES = [p for p in case_files([CASES]) if "blocks: choose" in p.read_text()]


@pytest.mark.parametrize("path", BLOCK_CASES, ids=[p.stem for p in BLOCK_CASES])
def test_shipped_chosen_blocks_are_answered_by_cp(path: Any) -> None:
    """Every shipped case with ``combat: {blocks: choose}`` is answered by CP, equal to the graph."""
    from mtg_outcomes.model import load_case

    case = load_case(path)
    cp = enumerate_outcomes(case, engine="cp")
    graph = enumerate_outcomes(case, engine="graph")
    assert {o.state for o in cp.outcomes} == {o.state for o in graph.outcomes}
