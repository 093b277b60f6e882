"""Cast triggers on any player's spells and on a spell's colour (CR 601.2i, 603.2, 105.2)."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.errors import EngineError

from ..helpers import both_engines

_BASE = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: firewalker, card: Kor Firewalker, controller: you}
"""


def test_only_red_spells_trigger_it() -> None:
    # Giant Growth is green: no trigger; you may gain 1 only for the red Shock
    text = _BASE + """  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2}
actions:
  - cast: {card: Giant Growth, controller: A, target: bear}
  - cast: {card: Shock, controller: A, target: you}
"""
    assert both_engines(text, "you.life") == {(18,), (19,)}


def test_entering_without_saying_whether_it_was_cast_is_an_error() -> None:
    """enter: doesn't say whether the red creature was cast (601.2i): said, not guessed."""
    from mtg_outcomes import enumerate_outcomes

    from ..helpers import case_from
    text = _BASE + """actions:
  - enter: {id: goblin, name: Test Goblin, controller: A, types: [creature], colors: [red], power: 1, toughness: 1}
"""
    with pytest.raises(EngineError, match="whether it was cast"):
        enumerate_outcomes(case_from(text))
