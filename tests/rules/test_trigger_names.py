"""603.3b: a player puts their triggers on the stack in any order, and a witness must say which
trigger went where. One creature's combat damage to two players is two triggers of the same
ability (510.3a, 603.2c) that read different amounts: their names and words tell them apart
(solver.triggers.trigger_names), so every witness, the graph's and CP's, replays to its outcome."""

from __future__ import annotations

import pytest

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.state import MONARCH, Trigger, initial_state
from mtg_outcomes.triggers import trigger_names
from tests.cp.test_cp import replay
from tests.helpers import case_from

# c0 deals 1 combat damage to A (at 2 life) and 2 to you at once; each of its two abilities
# triggers once per player. B orders the four triggers; the first "1 damage to each opponent"
# to resolve kills A (704.5a), who leaves the game (800.4a) and draws nothing more. A's cards:
# the draw triggers that resolved before it, 0, 1, 2 or 1 + 2.
CASE = """
players: [{name: you}, {name: A, life: 2}, {name: B}]
active: B
battlefield:
  - id: c0
    name: Twin Striker
    controller: B
    types: [creature]
    power: 3
    toughness: 3
    abilities:
      - {trigger: combat_damage_to_player, do: {draw: damage_dealt, who: A}}
      - {trigger: combat_damage_to_player, do: {deal: 1, to: opponents}}
actions:
  - damage:
      - {from: c0, to: A, amount: 1, combat: true}
      - {from: c0, to: you, amount: 2, combat: true}
"""


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_603_3b_each_witness_names_the_trigger_it_puts_on_the_stack(engine: str) -> None:
    case = case_from(CASE)
    res = enumerate_outcomes(case, engine=engine, fields=None)
    assert res.complete
    assert {dict(o.state)["A.cards_drawn"] for o in res.outcomes} == {0, 1, 2, 3}
    for o in res.outcomes:
        assert tuple(sorted(replay(case, o).items())) == o.state
    said = {w for o in res.outcomes for w in o.words if "trigger" in w}
    assert "B puts Twin Striker's trigger (ability 1, damage_dealt=2) on the stack" in said


def test_trigger_names_tell_alike_triggers_apart() -> None:
    """The name tells apart what the words do, the words also say which ability of a source with
    several (the name has it as #ability)."""
    state, table = initial_state(case_from(CASE))
    one = Trigger("B", "c0", 0, (("damage_dealt", 1),), label="Twin Striker")
    two = Trigger("B", "c0", 0, (("damage_dealt", 2),), label="Twin Striker")
    other = Trigger("B", "c0", 1, (("damage_dealt", 1),), label="Twin Striker")
    assert trigger_names(state, table, [one, two, other]) == {
        one: ("c0#0[damage_dealt=1]", ", ability 1, damage_dealt=1"),
        two: ("c0#0[damage_dealt=2]", ", ability 1, damage_dealt=2"),
        other: ("c0#1", ", ability 2")}
    # the monarch's triggers for two players' creatures: told apart by the player (724.2)
    a = Trigger("you", MONARCH, 1, player="A")
    b = Trigger("you", MONARCH, 1, player="B")
    assert {name for name, _ in trigger_names(state, table, [a, b]).values()} == {f"{MONARCH}#1@A", f"{MONARCH}#1@B"}
