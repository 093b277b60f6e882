"""Modal triggered abilities (CR 700.2b, 603.3c): "When ~ enters, choose one —", the mode chosen
as the trigger is put on the stack; the recogniser's reading of real cards (hand-written)."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.errors import CaseErrors
from mtg_outcomes.model.recognise import read_face, read_text

from ..helpers import case_from, outcome_set

CASE = """
players:
  - {name: you}
  - {name: A}
battlefield:
  - {id: bear, name: Bear, controller: A, types: [creature], power: 2, toughness: 2}
actions:
  - enter:
      id: thing
      name: Thing
      controller: you
      types: [creature]
      power: 1
      toughness: 1
      abilities:
        - {trigger: enters, choose_one: [{do: {deal: 2, to: target}, target: creature}, {do: {gain_life: 3, who: you}}]}
"""


def test_700_2b_the_mode_is_chosen_as_the_trigger_is_put_on_the_stack() -> None:
    # mode 1 at the Bear (its only legal creature target other than Thing itself), at Thing, or mode 2
    assert outcome_set(CASE, "you.life", "bear.dies", "thing.dies") == {
        (20, True, False), (20, False, True), (23, False, False)}


def test_603_3c_a_mode_without_a_legal_target_can_t_be_chosen() -> None:
    text = CASE.replace("target: creature}", "target: {types: [creature], controller: opponents, with: [flying]}}")
    assert outcome_set(text, "you.life", "bear.dies") == {(23, False)}


def test_choose_one_errors() -> None:
    with pytest.raises(CaseErrors, match="a modal trigger's do: and target: are its modes'"):
        case_from(CASE.replace("choose_one:", "do: {draw: 1}, choose_one:"))
    with pytest.raises(CaseErrors, match="two or more modes"):
        case_from(CASE.replace("choose_one: [{do: {deal: 2, to: target}, target: creature}, ", "choose_one: ["))


def test_recognised_modal_enters_trigger() -> None:
    """Knight of Autumn: "When this creature enters, choose one —" / "• Put two +1/+1 counters on
    this creature." / "• Destroy target artifact or enchantment." / "• You gain 4 life.\""""
    r = read_face(find("Knight of Autumn").face)
    assert r.understood
    assert r.abilities == [{"trigger": "enters", "choose_one": [
        {"do": {"put_counters": {"+1/+1": 2}, "to": "self"}},
        {"do": {"destroy": "target"}, "target": ["artifacts", "enchantments"]},
        {"do": {"gain_life": 4, "who": "you"}}]}]


def test_a_mode_not_understood_leaves_every_line_not_understood() -> None:
    """Dawnbringer Cleric's third mode exiles a card from a graveyard: not in the vocabulary."""
    r = read_face(find("Dawnbringer Cleric").face)
    assert [x.status for x in r.lines] == ["not understood"] * 4
    r = read_text("When this creature enters, choose one —\n• You gain 2 life.", "X", ["creature"])
    assert not r.understood  # one mode is no choice


def test_recognised_modes_with_counters_on_a_creature_you_control() -> None:
    """Apothecary Stomper: "When this creature enters, choose one —" / "• Put two +1/+1 counters
    on target creature you control." / "• You gain 4 life.\""""
    r = read_face(find("Apothecary Stomper").face)
    assert r.understood
    assert r.abilities == [{"trigger": "enters", "choose_one": [
        {"do": {"put_counters": {"+1/+1": 2}, "to": "target"}, "target": "creatures you control"},
        {"do": {"gain_life": 4, "who": "you"}}]}]
