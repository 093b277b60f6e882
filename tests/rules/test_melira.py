"""Melira, Sylvok Outcast's lines (122.1, 122.6, 613.1f): keywords removed by an effect, -1/-1
counters that can't be put (by wither and infect damage, by an instruction, as a creature enters
with one: persist), and Vizier of Remedies' one fewer on persist's return: readings of the real
cards, outcomes derived by hand, both engines."""

from __future__ import annotations

import pytest

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.model import EngineError
from mtg_outcomes.model.errors import CaseError
from mtg_outcomes.model.vocab import parse_ability
from tests.helpers import both_engines, case_from, outcome_set, reading


def test_melira_is_read_in_full() -> None:
    assert reading("Melira, Sylvok Outcast").abilities == [
        {"cant_get_poison": "you"}, {"fewer_counters": {"-1/-1": "all"}, "to": "creatures you control"},
        {"lose": ["infect"], "to": "creatures an opponent controls"}]


def test_lose_vocabulary() -> None:
    ab = parse_ability({"lose": ["infect"], "to": "creatures an opponent controls"}, "p")
    assert ab.effect is not None and ab.effect.value == (0, 0, ("infect",))
    with pytest.raises(CaseError, match="lose needs to:"):
        parse_ability({"lose": ["infect"]}, "p")
    with pytest.raises(CaseError, match="lose\\[0\\]"):
        parse_ability({"lose": ["banding"], "to": "creatures"}, "p")


INFECT = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: melira, card: "Melira, Sylvok Outcast", controller: you}
  - {id: elf, card: Glistener Elf, controller: A, attacking: you}
  - {id: bears, card: Grizzly Bears, controller: you, blocking: elf}
  - {id: ours, name: Test Infect Bear, controller: you, types: [creature], power: 2, toughness: 2, keywords: [infect]}
actions:
  - combat: {}
  - {deal: 2, to: A, from: ours}
"""


def test_613_1f_opponents_creatures_lose_infect_yours_keep_it() -> None:
    # the Elf's 1 to the Bears is marked damage (no infect: no counter); the Bears' 2 kill it;
    # your own infect creature keeps infect: its 2 to A are poison (120.3b)
    assert both_engines(INFECT, "bears.damage", "bears.counters.-1/-1", "elf.dies", "A.poison", "A.life") == {
        (1, 0, True, 2, 20)}


def test_613_7_a_keyword_both_granted_and_lost_is_refused() -> None:
    text = INFECT.replace("actions:\n", "effects:\n  - {id: g, controller: A, grant: [infect], to: elf}\nactions:\n")
    with pytest.raises(EngineError, match="613.7"):
        enumerate_outcomes(case_from(text), engine="graph")


PERSIST = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: keeper, card: "KEEPER", controller: you}
  - {id: finks, card: Kitchen Finks, controller: you}
actions:
  - cast: {id: s1, card: Lightning Bolt, controller: A, target: finks}
  - cast: {id: s2, card: Lightning Bolt, controller: A, target: finks}
"""


@pytest.mark.parametrize("keeper", ["Melira, Sylvok Outcast", "Vizier of Remedies"])
def test_122_6_persist_returns_without_its_counter(keeper: str) -> None:
    """Each Bolt kills the Finks; it returns each time with no -1/-1 counter (122.6: entering with
    one is putting it; none can be put, or one fewer), so it persists again: you gain 2 three times
    (it entered from neither, 20 + 2 + 2)."""
    got = outcome_set(PERSIST.replace("KEEPER", keeper), "you.life", "finks.counters.-1/-1")
    assert got == {(24, 0)}
