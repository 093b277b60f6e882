"""Triggered abilities granted by an effect (613.1f): Virulent Sliver's "All Sliver creatures have
poisonous 1." (702.70a), one instance per effect (702.70b): readings and outcomes by hand, both
engines."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.errors import CaseError
from mtg_outcomes.model.vocab import parse_ability
from tests.helpers import both_engines, reading


def test_virulent_sliver_is_read() -> None:
    assert reading("Virulent Sliver").abilities == [{"grant_trigger": {
        "trigger": "combat_damage_to_player", "do": {"get_poison": 1, "who": "that player"}}, "to": "sliver creatures"}]


def test_grant_trigger_vocabulary() -> None:
    with pytest.raises(CaseError, match="grant_trigger needs to:"):
        parse_ability({"grant_trigger": {"trigger": "dies", "do": {"gain_life": 1}}}, "p")
    with pytest.raises(CaseError, match="a triggered ability"):
        parse_ability({"grant_trigger": {"spell": {"gain_life": 1}}, "to": "creatures"}, "p")


SLIVERS = """
players: [{name: you}, {name: A, poison: 5}]
battlefield:
  - {id: s1, card: Virulent Sliver, controller: you, attacking: A}
  - {id: bear, name: Test Sliver Bear, controller: you, types: [creature], subtypes: [Sliver], power: 2, toughness: 2, attacking: A}
  - {id: plain, card: Grizzly Bears, controller: you, attacking: A}
MORE
actions:
  - combat: {}
"""


@pytest.mark.parametrize(("more", "poison"), [
    ("", 5 + 2),  # each Sliver dealing combat damage to A: one trigger (the Bears aren't a Sliver)
    ("  - {id: s2, card: Virulent Sliver, controller: A}", 5 + 4),  # A's too: "All Sliver creatures", twice each
])
def test_702_70b_each_grant_is_an_instance(more: str, poison: int) -> None:
    got = both_engines(SLIVERS.replace("MORE", more), "A.poison", "A.life")
    assert got == {(poison, 20 - 1 - 2 - 2)}
