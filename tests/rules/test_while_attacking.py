"""Static abilities that apply only while their creature is attacking (CR 506.4, 611.3a):
``if_attacking: true`` on a ``grant:``/``pt:`` to itself. Outcomes derived by hand."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face

from ..helpers import outcome_set, problems

KNIGHT = ("{id: knight, name: Test Knight, controller: %s, types: [creature], power: 3, toughness: 1, %s"
          "abilities: [{grant: [first strike], to: self, if_attacking: true}]}")
BEAR = "{id: bear, name: Test Bear, controller: %s, types: [creature], power: 2, toughness: 2, %s}"


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_506_4_first_strike_as_long_as_it_is_attacking(engine: str) -> None:
    """Attacking, the 3/1 has first strike: it kills the blocking 2/2 first and survives (702.7b);
    blocking an attacking 2/2 it has none: both are dealt damage at once and both die."""
    attack = f"""players:
  - {{name: you}}
  - {{name: A}}
battlefield:
  - {KNIGHT % ("you", "attacking: A, ")}
  - {BEAR % ("A", "blocking: knight")}
actions:
  - combat: {{}}
"""
    assert outcome_set(attack, "knight.dies", "bear.dies", engine=engine) == {(False, True)}
    block = f"""players:
  - {{name: A}}
  - {{name: you}}
battlefield:
  - {BEAR % ("A", "attacking: you")}
  - {KNIGHT % ("you", "blocking: bear, ")}
actions:
  - combat: {{}}
"""
    assert outcome_set(block, "knight.dies", "bear.dies", engine=engine) == {(True, True)}


def test_if_attacking_is_about_the_permanent_itself() -> None:
    text = """players:
  - {name: you}
battlefield:
  - {id: lord, name: Test Lord, controller: you, types: [creature], power: 1, toughness: 1,
     abilities: [{grant: [first strike], to: creatures you control, if_attacking: true}]}
"""
    assert problems(text)[0][0] == "battlefield[0].abilities[0].if_attacking"
    shield = text.replace("grant: [first strike]", "prevent: 1")
    assert problems(shield)[0][0] == "battlefield[0].abilities[0].if_attacking"


@pytest.mark.parametrize("name", ["Kor Scythemaster", "Soltari Lancer", "Thorned Moloch"])
def test_506_4_real_cards_first_strike_while_attacking(name: str) -> None:
    r = read_face(find(name).face)
    assert r.understood, [x.text for x in r.not_understood]
    assert {"grant": ["first strike"], "to": "self", "if_attacking": True} in r.abilities


# --- "as though it weren't blocked" (510.1b instead of 510.1c) --------------------------------------

def _attack(power: int, keywords: str, blockers: int) -> str:
    text = f"""players:
  - {{name: you}}
  - {{name: A}}
battlefield:
  - {{id: wolf, name: Test Wolf, controller: you, types: [creature], power: {power}, toughness: 9, attacking: A,
     keywords: [{keywords}], abilities: [{{as_unblocked: true, to: self}}]}}
"""
    for i in range(1, blockers + 1):
        text += f"  - {{id: b{i}, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2, blocking: wolf}}\n"
    return text + "actions:\n  - combat: {}\n"


def test_510_1b_as_though_unblocked_all_to_the_player_or_divided_among_the_blockers() -> None:
    """A 3/9 blocked by two 2/2s: divided among them (510.1c: 3-0 or 2-1 kills one, never both) or
    all 3 to A (510.1b) — never some to each (A at 19 or 18 can't happen)."""
    assert outcome_set(_attack(3, "", 2), "A.life", "b1.dies", "b2.dies") == {
        (20, True, False), (20, False, True), (17, False, False)}


def test_510_1b_as_though_unblocked_with_trample() -> None:
    """A 5/9 trampler blocked by a 2/2: lethal 2 or more to it and the rest to A (702.19b), or all 5
    to A as though unblocked, the blocker then dealt nothing."""
    assert outcome_set(_attack(5, "trample", 1), "A.life", "b1.dies") == {
        (15, False), (17, True), (18, True), (19, True), (20, True)}


@pytest.mark.parametrize("keyword", ["", "trample"])
@pytest.mark.parametrize("blockers", [1, 2])
def test_cp_answers_as_though_unblocked(blockers: int, keyword: str) -> None:
    """The CP engine reads the assignment's options from solver.combat.assign_options (510.1b or
    510.1c): the graph engine's outcomes; with trample too, its lethal condition binds only an
    assignment that gives the blockers some damage (it used to decline that by name)."""
    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.cp import cp_supported

    from ..helpers import case_from

    case = case_from(_attack(5 if keyword else 3, keyword, blockers))
    assert cp_supported(case) is None
    graph = {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}
    assert {o.state for o in enumerate_outcomes(case, engine="cp").outcomes} == graph


@pytest.mark.parametrize("name", ["Thorn Elemental", "Lone Wolf", "Pride of Lions"])
def test_510_1b_real_cards_as_though_unblocked(name: str) -> None:
    r = read_face(find(name).face)
    assert r.understood, [x.text for x in r.not_understood]
    assert {"as_unblocked": True, "to": "self"} in r.abilities
