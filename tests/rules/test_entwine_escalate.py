"""Entwine (CR 702.42) and escalate (702.120): a modal spell whose caster may choose all its modes
paying the entwine cost (702.42a), its modes then followed in the order written (702.42b); an
escalate mana cost per extra mode changes nothing computed here (mana spent isn't tracked)."""

from __future__ import annotations

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face, read_text
from tests.helpers import outcome_set, problems

BOARD = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: giant, card: Hill Giant, controller: A}
"""


def test_702_42a_entwine_is_read_with_the_modes() -> None:
    """Barbed Lightning: "Choose one — • ... 3 damage to target creature. • ... 3 damage to target
    player or planeswalker. Entwine {2}"."""
    reading = read_face(find("Barbed Lightning").face)
    assert reading.understood
    assert reading.abilities == [
        {"modes": 1, "entwine": True},
        {"spell": {"deal": 3, "to": "target"}, "target": "creature", "mode": 1},
        {"spell": {"deal": 3, "to": "target"}, "target": ["each player", "planeswalkers"], "mode": 2},
    ]
    assert [r.template for r in reading.lines][-1] == "entwine"


def test_702_42a_entwine_needs_understood_modes() -> None:
    text = "Choose one —\n• Test Spell deals 2 damage to any target.\n• Counter target spell.\nEntwine {2}"
    assert not read_text(text, "Test Spell", ("instant",)).understood


def test_702_42a_the_caster_may_choose_all_modes_with_entwine() -> None:
    """You cast Barbed Lightning at A's Hill Giant (3/3): mode 1 kills the Giant; mode 2 deals 3 to
    A or to you; entwined, the Giant dies and A or you take 3. Derived by hand: five outcomes."""
    got = outcome_set(BOARD + "actions:\n  - cast: {card: Barbed Lightning, controller: you}\n",
                      "giant.dies", "A.life", "you.life")
    assert got == {(True, 20, 20), (False, 17, 20), (False, 20, 17), (True, 17, 20), (True, 20, 17)}


def test_702_42b_entwined_modes_announced() -> None:
    got = outcome_set(BOARD + "actions:\n  - cast: {card: Barbed Lightning, controller: you, modes: [1, 2], targets: [giant, A]}\n",
                      "giant.dies", "A.life")
    assert got == {(True, 17)}


def test_700_2d_without_entwine_two_modes_are_an_error() -> None:
    got = problems(BOARD + "actions:\n  - cast: {card: Abrade, controller: you, modes: [1, 2]}\n")
    assert any(p == "actions[0].cast.modes" and "modes 1 to 2, of which 1 are chosen" in r for p, r in got), got


def test_702_42a_entwine_must_be_true() -> None:
    text = BOARD + """
sources:
  - {id: s, name: Test Spell, controller: you, types: [instant],
     abilities: [{modes: 1, entwine: 2}, {spell: {gain_life: 1, who: you}, mode: 1}, {spell: {gain_life: 2, who: you}, mode: 2}]}
actions:
  - cast: s
"""
    assert any("entwine: true" in r for _, r in problems(text))


def test_702_120a_escalate_mana_cost_is_ignored_with_its_modes_read() -> None:
    """Borrowed Hostility: "Escalate {3}", "Choose one or both — • Target creature gets +3/+0 until
    end of turn. • Target creature gains first strike until end of turn.\""""
    reading = read_face(find("Borrowed Hostility").face)
    assert reading.understood
    assert reading.lines[0].status == "ignored" and "702.120a" in reading.lines[0].reason
    assert reading.abilities[0] == {"modes": {"min": 1, "max": 2}}


def test_702_120a_escalate_with_a_discard_is_not_understood() -> None:
    """Collective Brutality's "Escalate—Discard a card.": whether a card can be discarded isn't known."""
    reading = read_face(find("Collective Brutality").face)
    assert reading.lines[0].status == "not understood"
