"""One instance of damage (CR 615.8, solver.next_time): a next-time prevention prevents all the
damage its source deals at once, to every recipient it covers, and is used up when that batch is
dealt; later damage from the source is dealt normally. Outcomes derived by hand; both engines."""

from __future__ import annotations

import pytest

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.model.errors import EngineError
from tests.helpers import both_engines, case_from, outcome_set

SWEEP = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2}
  - {id: elf, name: Elf, controller: A, types: [creature], power: 1, toughness: 1}
sources:
  - {id: clasm, name: Clasm, controller: A, types: [sorcery], colors: [red]}
  - {id: ward, name: Ward, controller: you, types: [instant], colors: [white]}
effects:
  - {id: w, shield: all, next_time: true, from: clasm, controller: you, source: ward}
actions:
  - damage: [{from: clasm, to: bear, amount: 2}, {from: clasm, to: elf, amount: 2}, {from: clasm, to: you, amount: 2}]
"""


def test_615_8_the_instance_is_all_damage_its_source_deals_at_once() -> None:
    """Clasm's 2 to the Bear, the Elf and you are one instance: none of it is dealt, whoever the
    affected player of each event is, and the shield is used up once."""
    assert both_engines(SWEEP, "bear.damage", "elf.damage", "you.life", "w.remaining") == {(0, 0, 20, 0)}


def test_615_8_the_next_batch_is_dealt_normally() -> None:
    text = SWEEP + "  - damage: [{from: clasm, to: you, amount: 3}, {from: clasm, to: elf, amount: 1}]\n"
    assert both_engines(text, "elf.dies", "you.life", "w.remaining") == {(True, 17, 0)}


def test_615_8_a_recipient_it_does_not_cover_is_dealt_its_damage() -> None:
    """"... would deal damage to you": the Bear's and the Elf's 2 are dealt; yours is prevented."""
    text = SWEEP.replace("from: clasm, controller", "from: clasm, to: you, controller")
    assert both_engines(text, "bear.damage", "elf.dies", "you.life") == {(2, True, 20)}


def test_615_8_a_shield_of_no_one_source_takes_one_sources_instance() -> None:
    """Bound to no source and met by two at once (615.7's choice): you pick whose damage is its
    instance, and all of that source's damage to you is prevented, none of the other's."""
    text = SWEEP.replace("from: clasm, controller", "to: you, controller").replace(
        "{from: clasm, to: you, amount: 2}]",
        "{from: clasm, to: you, amount: 2}, {from: clasm, to: you, amount: 1}, {from: elf, to: you, amount: 1}]")
    assert outcome_set(text, "you.life") == {(19,), (17,)}


def test_615_8_half_of_one_sources_damage_to_two_recipients_is_refused() -> None:
    """"Prevent half that damage" over an instance dealt to two recipients: half of each or of
    their total isn't settled, so the case is refused rather than answered one way."""
    text = SWEEP.replace("shield: all, next_time: true", "prevent: half_down, next_time: true").replace(
        "amount: 2}, {from: clasm, to: elf, amount: 2}", "amount: 3}, {from: clasm, to: elf, amount: 3}")
    with pytest.raises(EngineError, match="half of each or of all"):
        enumerate_outcomes(case_from(text), engine="graph")


def test_615_8_part_of_two_sources_damage_at_once_is_refused() -> None:
    """"The next time damage would be dealt to you, prevent 1 of it" met by two sources' damage at
    once: the rules give no choice of which is its next time, and the batch's order would pick one."""
    text = SWEEP.replace("shield: all, next_time: true, from: clasm", "prevent: 1, next_time: true, to: you").replace(
        "{from: clasm, to: you, amount: 2}]", "{from: clasm, to: you, amount: 2}, {from: elf, to: you, amount: 1}]")
    with pytest.raises(EngineError, match="2 damage events dealt at once"):
        enumerate_outcomes(case_from(text), engine="graph")
