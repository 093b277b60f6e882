"""A mana ability with "Activate only once each turn." (CR 602.5b, 605.1a): ``once: true``."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.recognise import read_text
from tests.helpers import outcome_set


def test_recognised() -> None:
    r = read_text("{1}: Add one mana of any color. Activate only once each turn.", "Test Card", ("artifact",))
    assert r.understood and r.abilities == [{"mana": "any_color", "cost": [1], "once": True}]


@pytest.mark.parametrize("once,expected", [(True, {(19, ("C",))}), (False, {(18, ("C", "C"))})])
def test_second_activation_is_not_made(once: bool, expected: set[tuple[int, tuple[str, ...]]]) -> None:
    case = f"""
players: [{{name: you}}, {{name: A}}]
battlefield:
  - {{id: t, name: Translator, controller: you, types: [artifact],
     abilities: [{{mana: [C], cost: [{{pay_life: 1}}], once: {str(once).lower()}}}]}}
actions:
  - tap_for_mana: {{id: t}}
  - tap_for_mana: {{id: t}}
"""
    got = outcome_set(case, "you.life", "you.mana")
    assert {(life, tuple(m)) for life, m in got} == expected
