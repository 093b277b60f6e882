"""Mana of the chosen colour (CR 614.1c, 605.1a, 106.7): "As this enters, choose a color." is done
before the case for a permanent already on the battlefield, so the case gives ``chosen_color:``;
"{T}: Add one mana of the chosen color." adds that colour, with no choice, and could produce it
alone."""

from __future__ import annotations

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face
from tests.helpers import outcome_set, problems

HEART = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: heart, card: Coldsteel Heart, controller: you, chosen_color: blue}
"""


def test_605_1a_chosen_color_mana_is_read() -> None:
    reading = read_face(find("Sol Grail").face)
    assert reading.understood
    assert reading.abilities == [{"mana": "chosen_color", "cost": ["T"]}]


def test_614_1c_tapping_adds_the_chosen_color_only() -> None:
    """Coldsteel Heart with blue chosen: one outcome, {U}, no choice of colour."""
    assert outcome_set(HEART + "actions:\n  - tap_for_mana: heart\n", "you.mana", "heart.tapped") == {(("U",), True)}


def test_106_7_it_could_produce_the_chosen_color() -> None:
    assert outcome_set(HEART + "actions:\n  - could_produce: heart\n", "heart.could_produce") == {(("U",),)}


def test_614_1c_the_chosen_color_is_required() -> None:
    got = problems(HEART.replace(", chosen_color: blue", "") + "actions:\n  - tap_for_mana: heart\n")
    assert any(p == "battlefield[0].chosen_color" and "required" in r for p, r in got), got


def test_614_1c_a_chosen_color_nothing_reads_is_an_error() -> None:
    got = problems(HEART.replace("card: Coldsteel Heart", "card: Grizzly Bears"))
    assert any(p == "battlefield[0].chosen_color" and "nothing" in r for p, r in got), got


def test_605_1a_choose_must_be_the_chosen_color() -> None:
    """``tap_for_mana: {id, choose: R}`` names a colour it can't produce: an engine error, not a guess."""
    import pytest

    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.model.errors import EngineError
    from tests.helpers import case_from

    with pytest.raises(EngineError, match="can't produce"):
        enumerate_outcomes(case_from(HEART + "actions:\n  - tap_for_mana: {id: heart, choose: R}\n"), engine="graph")
