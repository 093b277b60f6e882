""""Whenever ~ is dealt damage by <sources>" (``{trigger: dealt_damage, from: ...}``, no
``min_damage``): once for the batch when any source it names dealt the watched object damage,
reading only the damage those sources dealt (CR 120.9, 603.2) — never only the first source to
reach it."""

from __future__ import annotations

import pytest

from mtg_outcomes.cp import cp_supported
from tests.helpers import case_from, outcome_set

CASE = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: wall, name: Test Wall, controller: you, types: [creature], power: 0, toughness: 9,
     abilities: [{trigger: dealt_damage, from: creatures, do: {gain_life: damage_dealt, who: you}}]}
  - {id: bear, card: Grizzly Bears, controller: A}
  - {id: ox, name: Test Ox, controller: A, types: [creature], power: 3, toughness: 3}
sources:
  - {id: sp, name: Spark, controller: A, types: [instant], colors: [red]}
actions:
  - damage: DAMAGE
"""


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_120_9_a_matching_source_after_one_that_does_not(engine: str) -> None:
    """The Spark (an instant) reaches the Wall first, the Bears with it: the trigger fires,
    reading the Bears' 2 only (120.9), not the Spark's 1."""
    text = CASE.replace("DAMAGE", "[{from: sp, to: wall, amount: 1}, {from: bear, to: wall, amount: 2}]")
    assert outcome_set(text, "you.life", "wall.damage", engine=engine) == {(22, 3)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_120_9_two_matching_sources_trigger_once_with_their_total(engine: str) -> None:
    text = CASE.replace("DAMAGE", "[{from: bear, to: wall, amount: 2}, {from: ox, to: wall, amount: 3}, "
                                  "{from: sp, to: wall, amount: 1}]")
    assert outcome_set(text, "you.life", engine=engine) == {(25,)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_603_2_no_matching_source_no_trigger(engine: str) -> None:
    text = CASE.replace("DAMAGE", "[{from: sp, to: wall, amount: 4}]")
    assert outcome_set(text, "you.life", engine=engine) == {(20,)}


def test_614_9_with_a_redirection_cp_declines_it_by_name() -> None:
    """Inside a redirection's tree the step's solutions are not told apart by what each source
    dealt each final recipient, which such a trigger reads: CP declines it (a random timeline
    case once found a CP witness that replayed to another state); the graph answers."""
    text = CASE.replace("DAMAGE", "[{from: bear, to: wall, amount: 2}]").replace(
        "sources:", "  - {id: deflect, name: Test Deflector, controller: A, types: [enchantment], "
                    "abilities: [{redirect: ox, to: wall}]}\nsources:")
    reason = cp_supported(case_from(text))
    assert reason is not None and "redirection (614.9)" in reason
    assert outcome_set(text, "you.life", "ox.damage") == {(20, 2)}
