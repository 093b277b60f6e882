"""Mana: what a permanent could produce (CR 106.7) and tapping it for mana (605, 616.1, 614.5, 302.6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtg_outcomes.api import enumerate_outcomes
from mtg_outcomes.cli import main
from mtg_outcomes.mana import could_produce, could_produce_action, could_produce_all
from mtg_outcomes.mana_why import why
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.load import load_case, parse_case
from mtg_outcomes.state import GameState, Table, initial_state

from ..conftest import ROOT

HEAD = "id: t\ntitle: t\nformat: standard\nplayers:\n  - {name: you}\n  - {name: A}\n"


def _state(tmp_path: Path, body: str) -> tuple[GameState, Table]:
    f = tmp_path / "case.yaml"
    f.write_text(HEAD + body)
    return initial_state(load_case(f))


def test_cr_106_7_undefined_type_reflecting_pool_alone(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: pool, card: Reflecting Pool, controller: you}\n")
    assert could_produce(s, t, "pool") == ()
    assert any("undefined" in line for line in why(s, t, "pool"))


def test_cr_106_7_least_fixed_point_two_pools(tmp_path: Path) -> None:
    pools = ("battlefield:\n  - {id: p1, card: Reflecting Pool, controller: you}\n"
             "  - {id: p2, card: Reflecting Pool, controller: you}\n")
    s, t = _state(tmp_path, pools)
    assert could_produce_all(s, t) == {"p1": frozenset(), "p2": frozenset()}
    s, t = _state(tmp_path, pools + "  - {id: f, card: Forest, controller: you, tapped: true}\n")
    # a tapped Forest still could produce G: costs are ignored (106.7)
    assert could_produce(s, t, "p1") == ("G",) and could_produce(s, t, "p2") == ("G",)


def test_cr_106_7_exotic_orchard_sees_only_opponents_colors(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: o, card: Exotic Orchard, controller: you}\n"
                            "  - {id: mine, card: Forest, controller: you}\n"
                            "  - {id: w, name: Wastes, controller: A, types: [land], abilities: [{mana: [C], cost: [T]}]}\n"
                            "  - {id: i, name: Island, controller: A, types: [land], abilities: [{mana: [U], cost: [T]}]}\n")
    assert could_produce(s, t, "o") == ("U",)


def test_cr_616_1_replacements_in_any_order(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: f, card: Forest, controller: you}\n"
                            "  - {id: c, card: Contamination, controller: A}\n"
                            "effects:\n  - {id: r, controller: A, replace_mana: R, to: lands}\n")
    assert could_produce(s, t, "f") == ("B", "R")  # last applied wins; G never
    lines = why(s, t, "f")
    assert sum("order" in line for line in lines) == 2


def test_cr_614_5_and_pale_moon_nonbasic_only(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: f, card: Forest, controller: you}\n"
                            "  - {id: pool, card: Reflecting Pool, controller: you}\n"
                            "effects:\n  - {id: pm, controller: A, replace_mana: C, to: nonbasic lands}\n")
    assert could_produce(s, t, "f") == ("G",)
    assert could_produce(s, t, "pool") == ("C",)


def test_multiply_mana_changes_amount_not_type(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: f, card: Forest, controller: you}\n"
                            "  - {id: m, card: Mana Reflection, controller: you}\n"
                            "  - {id: c, card: Contamination, controller: A}\n")
    assert could_produce(s, t, "f") == ("B",)
    text = "\n".join(why(s, t, "f"))
    # Contamination replaces type *and amount* (one {B}): Reflection first is undone (x1);
    # Contamination first, then Reflection doubles the {B} (x2)
    assert "order Mana Reflection then Contamination: [B] x1" in text
    assert "order Contamination then Mana Reflection: [B] x2" in text


def test_cr_302_6_summoning_sick_creature_could_still_produce(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: e, card: Llanowar Elves, controller: you, summoning_sick: true}\n")
    assert could_produce(s, t, "e") == ("G",)  # 106.7: ignore whether costs could be paid
    assert any("302.6" in line for line in why(s, t, "e"))


def test_cr_605_replacement_needs_tap_for_mana(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: l, name: Untapped Land, controller: you, types: [land], "
                            "abilities: [{mana: [W], cost: [{pay_life: 1}]}]}\n"
                            "  - {id: c, card: Contamination, controller: A}\n")
    assert could_produce(s, t, "l") == ("W",)  # not tapped for mana: Contamination doesn't apply


def test_could_produce_action_records_sorted(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: z, card: Forest, controller: you}\n"
                            "  - {id: a, card: Llanowar Elves, controller: you}\n"
                            "  - {id: c, card: Contamination, controller: A}\n")
    s2 = could_produce_action(s, t, "all")
    assert s2.mana == (("a", ("G",)), ("z", ("B",)))
    assert could_produce_action(s, t, "z").mana == (("z", ("B",)),)


def test_cli_mana(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = ROOT
    assert main(["mana", str(root / "cases/seeds/mana-contamination-any-order.yaml"), "--json"]) == 0
    assert '"could_produce": ["B", "R"]' in capsys.readouterr().out
    assert main(["mana", str(root / "cases/seeds/mana-two-reflecting-pools.yaml"), "--permanent", "pool1"]) == 0
    assert "could produce []" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------
# tapping for mana (605.3a, 302.6, 616.1, the seeds' general mana rulings)


def _outcomes(tmp_path: Path, body: str, fields: list[str]) -> list[dict[str, object]]:
    f = tmp_path / "tap.yaml"
    f.write_text(HEAD + body)
    result = enumerate_outcomes(load_case(f), engine="graph", fields=fields)
    assert result.complete
    return sorted((o.values for o in result.outcomes), key=repr)


BARBS = "  - {id: barbs, card: Manabarbs, controller: A}\n"


def test_cr_605_tapped_for_mana_means_a_t_ability(tmp_path: Path) -> None:
    body = ("battlefield:\n  - {id: f, card: Forest, controller: you}\n"
            "  - {id: w, name: Test Well, controller: you, types: [land], abilities: [{mana: [W], cost: [{pay_life: 2}]}]}\n"
            "  - {id: c, card: Contamination, controller: A}\n" + BARBS +
            "actions:\n  - tap_for_mana: w\n")
    # no {T}: Contamination and Manabarbs don't see it; the 2 life paid is life lost (119.4)
    assert _outcomes(tmp_path, body, ["you.mana", "you.life", "you.damage_taken", "w.tapped"]) == [
        {"you.mana": ("W",), "you.life": 18, "you.damage_taken": 0, "w.tapped": False}]
    body = body.replace("tap_for_mana: w", "tap_for_mana: f")
    assert _outcomes(tmp_path, body, ["you.mana", "you.life", "f.tapped"]) == [
        {"you.mana": ("B",), "you.life": 19, "f.tapped": True}]


def test_cr_119_4_cant_pay_more_life_than_you_have(tmp_path: Path) -> None:
    body = ("battlefield:\n  - {id: w, name: Test Well, controller: you, types: [land], abilities: [{mana: [W], cost: [{pay_life: 2}]}]}\n"
            "actions:\n  - tap_for_mana: w\n")
    assert _outcomes(tmp_path, body, ["you.mana"]) == [{"you.mana": ("W",)}]
    f = tmp_path / "low.yaml"
    f.write_text(HEAD.replace("{name: you}", "{name: you, life: 1}") + body)
    res = enumerate_outcomes(load_case(f), engine="graph", fields=["you.mana", "you.life"])
    assert [o.values for o in res.outcomes] == [{"you.mana": (), "you.life": 1}]


def test_seed_ruling_trigger_needs_mana_produced(tmp_path: Path) -> None:
    # Reflecting Pool alone: the cost is paid (tapped) but no mana is produced: no Manabarbs trigger
    body = "battlefield:\n  - {id: pool, card: Reflecting Pool, controller: you}\n" + BARBS + "actions:\n  - tap_for_mana: pool\n"
    assert _outcomes(tmp_path, body, ["you.mana", "you.life", "pool.tapped"]) == [
        {"you.mana": (), "you.life": 20, "pool.tapped": True}]
    # with a Forest it copies {G}: the Pool is a land tapped for mana, 1 damage
    body = body.replace(BARBS, BARBS + "  - {id: f, card: Forest, controller: you}\n")
    assert _outcomes(tmp_path, body, ["you.mana", "you.life"]) == [{"you.mana": ("G",), "you.life": 19}]


def test_that_player_is_who_tapped_and_damage_goes_through_prevention(tmp_path: Path) -> None:
    body = ("battlefield:\n  - {id: m, card: Mountain, controller: A}\n"
            "  - {id: barbs, card: Manabarbs, controller: you}\n"
            "actions:\n  - tap_for_mana: m\n")
    assert _outcomes(tmp_path, body, ["A.life", "you.life", "A.mana"]) == [
        {"A.life": 19, "you.life": 20, "A.mana": ("R",)}]
    shielded = body.replace("actions:", "effects:\n  - {id: s, shield: 1, to: A, controller: A}\nactions:")
    assert _outcomes(tmp_path, shielded, ["A.life", "s.remaining"]) == [{"A.life": 20, "s.remaining": 0}]


def test_cr_605_3a_mana_is_added_before_the_trigger_resolves(tmp_path: Path) -> None:
    f = tmp_path / "one.yaml"
    f.write_text(HEAD.replace("{name: you}", "{name: you, life: 1}") +
                 "battlefield:\n  - {id: f, card: Forest, controller: you}\n" + BARBS + "actions:\n  - tap_for_mana: f\n")
    res = enumerate_outcomes(load_case(f), engine="graph", fields=["you.mana", "you.lost"])
    assert [o.values for o in res.outcomes] == [{"you.mana": ("G",), "you.lost": True}]


def test_cr_107_5_tapped_permanent_cant_be_tapped_again(tmp_path: Path) -> None:
    body = ("battlefield:\n  - {id: f, card: Forest, controller: you}\n" + BARBS +
            "actions:\n  - tap_for_mana: f\n  - tap_for_mana: f\n")
    assert _outcomes(tmp_path, body, ["you.mana", "you.life"]) == [{"you.mana": ("G",), "you.life": 19}]


def test_cr_107_6_untap_symbol_needs_a_tapped_permanent(tmp_path: Path) -> None:
    body = ("battlefield:\n  - {id: p, card: Pili-Pala, controller: you}\n"
            "actions:\n  - tap_for_mana: {id: p, choose: R}\n")
    assert _outcomes(tmp_path, body, ["you.mana", "p.tapped"]) == [{"you.mana": (), "p.tapped": False}]
    body = body.replace("controller: you}", "controller: you, tapped: true}")
    assert _outcomes(tmp_path, body, ["you.mana", "p.tapped"]) == [{"you.mana": ("R",), "p.tapped": False}]


def test_cr_302_6_summoning_sick_creature_cant_tap_or_untap_for_mana(tmp_path: Path) -> None:
    sick = ("battlefield:\n  - {id: e, card: Llanowar Elves, controller: you, summoning_sick: true}\n"
            "  - {id: p, card: Pili-Pala, controller: you, tapped: true, summoning_sick: true}\n"
            "actions:\n  - tap_for_mana: e\n  - tap_for_mana: {id: p, choose: W}\n")
    assert _outcomes(tmp_path, sick, ["you.mana", "e.tapped", "p.tapped"]) == [
        {"you.mana": (), "e.tapped": False, "p.tapped": True}]
    # haste (702.10): it may anyway
    hasty = sick.replace("card: Llanowar Elves, controller: you,", "card: Llanowar Elves, controller: you, keywords: [haste],")
    assert _outcomes(tmp_path, hasty, ["you.mana"]) == [{"you.mana": ("G",)}]
    # a creature that entered during the actions hasn't been controlled since the turn began
    entered = ("actions:\n  - enter: {id: e, card: Llanowar Elves, controller: you}\n  - tap_for_mana: e\n")
    assert _outcomes(tmp_path, entered, ["you.mana"]) == [{"you.mana": ()}]


def test_cr_616_1_the_controller_orders_mana_replacements(tmp_path: Path) -> None:
    f = tmp_path / "order.yaml"
    f.write_text(HEAD + "battlefield:\n  - {id: f, card: Forest, controller: you}\n"
                        "  - {id: r, card: Mana Reflection, controller: you}\n"
                        "  - {id: c, card: Contamination, controller: A}\n"
                        "actions:\n  - tap_for_mana: f\n")
    res = enumerate_outcomes(load_case(f), engine="graph", fields=["you.mana"])
    got = {o.values["you.mana"]: o.witness for o in res.outcomes}
    assert set(got) == {("B",), ("B", "B")}
    assert [(w.chooser, w.kind, w.picked) for w in got[("B", "B")]] == [("you", "order", "c")]
    assert [(w.chooser, w.kind, w.picked) for w in got[("B",)]] == [("you", "order", "r")]


def test_cr_614_5_type_filter_rechecked_after_each_replacement(tmp_path: Path) -> None:
    body = ("battlefield:\n  - {id: f, card: Forest, controller: you}\n  - {id: c, card: Contamination, controller: A}\n"
            "effects:\n  - {id: gr, controller: A, replace_mana: R, mana: G, to: lands}\n"
            "actions:\n  - tap_for_mana: f\n")
    # the {G}-only effect applies to {G} but no longer once Contamination made it {B}: always {B}
    assert _outcomes(tmp_path, body, ["you.mana"]) == [{"you.mana": ("B",)}]
    # without a type filter it still applies after Contamination: {B} or {R}
    assert _outcomes(tmp_path, body.replace(" mana: G,", ""), ["you.mana"]) == [{"you.mana": ("B",)}, {"you.mana": ("R",)}]


def test_seed_ruling_amount_filter_damping_sphere(tmp_path: Path) -> None:
    body = ("battlefield:\n  - {id: f, card: Forest, controller: you}\n  - {id: d, card: Damping Sphere, controller: A}\n"
            "  - {id: t, name: Test Tron, controller: you, types: [land], abilities: [{mana: [C], amount: 3, cost: [T]}]}\n"
            "actions:\n  - tap_for_mana: f\n  - tap_for_mana: t\n")
    # one {G} is not "two or more mana"; {C}{C}{C} becomes one {C}
    assert _outcomes(tmp_path, body, ["you.mana"]) == [{"you.mana": ("G", "C")}]


def test_type_trigger_fires_on_the_mana_produced(tmp_path: Path) -> None:
    watcher = ("  - {id: v, name: Test Verdant Barbs, controller: A, types: [enchantment], "
               "abilities: [{trigger: tapped_for_mana, from: lands, mana: G, do: {lose_life: 1, who: that player}}]}\n")
    body = ("battlefield:\n  - {id: f, card: Forest, controller: you}\n  - {id: m, card: Mountain, controller: you}\n" + watcher +
            "actions:\n  - tap_for_mana: f\n  - tap_for_mana: m\n")
    assert _outcomes(tmp_path, body, ["you.mana", "you.life"]) == [{"you.mana": ("R", "G"), "you.life": 19}]
    contaminated = body.replace(watcher, watcher + "  - {id: c, card: Contamination, controller: A}\n")
    assert _outcomes(tmp_path, contaminated, ["you.mana", "you.life"]) == [{"you.mana": ("B", "B"), "you.life": 20}]


def test_choose_and_undefined_choice(tmp_path: Path) -> None:
    body = ("battlefield:\n  - {id: pool, card: Reflecting Pool, controller: you}\n  - {id: f, card: Forest, controller: you}\n"
            "  - {id: i, card: Island, controller: you}\nactions:\n  - tap_for_mana: pool\n")
    # the Pool's type is its controller's decision among what the lands could produce (106.7)
    assert _outcomes(tmp_path, body, ["you.mana"]) == [{"you.mana": ("G",)}, {"you.mana": ("U",)}]
    assert _outcomes(tmp_path, body.replace("tap_for_mana: pool", "tap_for_mana: {id: pool, choose: U}"),
                     ["you.mana"]) == [{"you.mana": ("U",)}]
    f = tmp_path / "bad.yaml"
    f.write_text(HEAD + body.replace("tap_for_mana: pool", "tap_for_mana: {id: pool, choose: R}"))
    with pytest.raises(EngineError, match="can't produce"):
        enumerate_outcomes(load_case(f), engine="graph")


def test_tapped_for_mana_triggers_before_the_last_batch_are_expanded_for_cp(tmp_path: Path) -> None:
    # nothing is tapped for mana in a damage batch: a tapped_for_mana trigger waits on the
    # battlefield through the CP step, and one that deals damage opens the timeline's last batch
    from mtg_outcomes.cp import cp_outcomes, cp_supported

    root = ROOT
    # no damage batch: no step for CP-SAT, the rules engine's expansion to the end is the answer
    pili = load_case(root / "cases/seeds/mana-untap-symbol-pili-pala.yaml")
    assert cp_supported(pili) is None and cp_outcomes(pili).stats["solves"] == 0
    f = tmp_path / "cp.yaml"
    f.write_text(HEAD + "battlefield:\n  - {id: f, card: Forest, controller: you}\n" + BARBS +
                 "  - {id: b, card: Grizzly Bears, controller: A}\n"
                 "actions:\n  - tap_for_mana: f\n  - damage: [{from: b, to: you, amount: 2}]\n")
    for case in (load_case(f), *(load_case(root / "cases/seeds" / f"{name}.yaml")
                                 for name in ("mana-manabarbs-land-tapped", "mana-type-trigger-after-replacement"))):
        assert cp_supported(case) is None, case.id
        graph = {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}
        assert {o.state for o in cp_outcomes(case).outcomes} == graph, case.id
    assert {o.values["you.life"] for o in cp_outcomes(load_case(f)).outcomes} == {17}


def test_undefined_type_ignores_choose(tmp_path: Path) -> None:
    body = ("battlefield:\n  - {id: pool, card: Reflecting Pool, controller: you}\n" + BARBS +
            "actions:\n  - tap_for_mana: {id: pool, choose: G}\n")
    assert _outcomes(tmp_path, body, ["you.mana", "you.life", "pool.tapped"]) == [
        {"you.mana": (), "you.life": 20, "pool.tapped": True}]


def test_vocab_mana_filters_and_trigger() -> None:
    from mtg_outcomes.model.vocab import parse_ability, parse_effect

    spec = parse_effect({"replace_mana": "B", "amount": 1, "to": "lands"}, "effects[0]")
    assert (spec.kind, spec.value, spec.mana_amount, spec.mana, spec.min_amount) == ("replace_mana", "B", 1, None, None)
    spec = parse_effect({"multiply_mana": 2, "mana": "G", "min_amount": 1}, "effects[0]")
    assert (spec.mana, spec.min_amount, spec.mana_amount) == ("G", 1, None)
    ab = parse_ability({"trigger": "tapped_for_mana", "from": "lands", "mana": "G",
                        "do": {"deal": 1, "to": "that player"}}, "abilities[0]")
    assert ab.trigger_mana == "G" and ab.action is not None and ab.action.to.kind == "that_player"
    ab = parse_ability({"mana": "any_color", "cost": [2, "Q"]}, "abilities[0]")
    assert ab.cost == ("2", "Q")


# ---------------------------------------------------------------------------------------------
# property: what a land "could produce" (106.7) is exactly what tapping it can produce (605)

LANDS = ["Forest", "Island", "Mountain", "Plains", "Swamp", "Reflecting Pool", "Exotic Orchard"]


@st.composite
def mana_situations(draw: st.DrawFn) -> dict[str, Any]:
    lands = [{"id": f"l{i}", "card": draw(st.sampled_from(LANDS)), "controller": draw(st.sampled_from(["you", "A"]))}
             for i in range(draw(st.integers(1, 4)))]
    lands[0]["controller"] = "you"
    effects = []
    for i in range(draw(st.integers(0, 3))):
        body: dict[str, Any] = ({"replace_mana": draw(st.sampled_from(list("WUBRGC")))} if draw(st.booleans())
                                else {"multiply_mana": draw(st.integers(2, 3))})
        body["to"] = draw(st.sampled_from(["lands", "lands you control", "nonbasic lands"]))
        if draw(st.integers(0, 2)) == 0:
            body["mana"] = draw(st.sampled_from(list("WUBRGC")))
        if "replace_mana" in body and draw(st.booleans()):
            body["amount"] = 1
        effects.append({"id": f"m{i}", "name": f"Mana Effect {i}", "controller": "you", "types": ["enchantment"],
                        "abilities": [body]})
    return {"id": "mana-property", "players": [{"name": "you"}, {"name": "A"}],
            "battlefield": lands + effects, "actions": [{"tap_for_mana": "l0"}]}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mana_situations())
def test_106_7_could_produce_is_what_tapping_can_produce(data: dict[str, Any]) -> None:
    """For an untapped land with one {T} mana ability, the types it could produce (every
    replacement order, 106.7) are the types the mana ability produces over every choice and order
    when it is actually activated (605.3a, 616.1): the two answers come from the same rules."""
    case = parse_case(data)
    state, table = initial_state(case)
    expected = set(could_produce(state, table, "l0"))
    result = enumerate_outcomes(case, engine="graph", fields=["you.mana"])
    assert result.complete
    produced = {t for o in result.outcomes for t in (o.values["you.mana"] or ())}
    assert produced == expected


def test_602_2_which_mana_ability_is_a_choice_when_several() -> None:
    """tap_for_mana: without ability: on a land with several mana abilities is its controller's
    choice among those that can be activated, not the first one (Wizards' School from the card data)."""
    from ..helpers import outcome_set

    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: school, card: "Wizards' School", controller: you}
actions:
  - tap_for_mana: school
"""
    assert outcome_set(text, "you.mana") == {(("C",),), (("U",),), (("W",),), (("B",),)}
