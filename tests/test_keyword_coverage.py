"""Keyword lines of real cards read for coverage (CR 702): keywords that can't change anything a
case computes, ignored with their reason, and keywords with an effect (each test names its rule)."""

from __future__ import annotations

from typing import Any

import pytest

from model.carddata import find
from model.recognise import read_face

from .helpers import outcome_set, problems


def reading(name: str) -> Any:
    r = read_face(find(name).face)
    assert r.understood, [x.text for x in r.not_understood]
    return r


# --- keywords of casting costs and of cards in hand, graveyard or exile ------------------------------

@pytest.mark.parametrize("name, line, rule", [
    ("Lens Flare", "Affinity for artifacts", "702.41"),          # a reduction of its cost
    ("Charging Binox", "Assist", "702.132"),                    # another player helps pay its cost
    ("Ninja of the Deep Hours", "Ninjutsu {1}{U}", "702.49a"),  # functions only in a hand
    ("Fiery Temper", "Madness {R}", "702.35a"),                 # acts as the card is discarded
    ("Searing Touch", "Buyback {4}", "702.27a"),                # an additional cost; the spell goes to hand
    ("Hellspark Elemental", "Unearth {1}{R}", "702.84a"),       # an ability of a card in a graveyard
    ("Rift Bolt", "Suspend 1—{R}", "702.62a"),                  # an ability of a card in hand or exile
])
def test_keywords_of_costs_and_other_zones_are_ignored_with_their_rule(name: str, line: str, rule: str) -> None:
    r = reading(name)
    got = [x for x in r.lines if x.text.startswith(line)]
    assert len(got) == 1 and got[0].status == "ignored"
    assert f"CR {rule}" in got[0].reason


def test_the_rest_of_such_a_card_is_read_as_before() -> None:
    """Rift Bolt: "Rift Bolt deals 3 damage to any target." beside its suspend line (702.62a)."""
    assert reading("Rift Bolt").abilities == [{"spell": {"deal": 3, "to": "target"}, "target": "any"}]
    assert reading("Hellspark Elemental").keywords == ["trample", "haste"]


# --- evasion keywords: blocks as written (CR 509.1) -------------------------------------------------

ATTACK = """players:
  - {{name: you}}
  - {{name: A}}
battlefield:
  - {{id: it, card: {card}, controller: you, attacking: A}}
  - {{id: bear, card: Grizzly Bears, controller: A}}
actions:
  - combat: {combat}
"""


@pytest.mark.parametrize("card, rule, life", [("River Boa", "702.14", 18), ("Dauthi Slayer", "702.28", 18)])
def test_509_1_an_evasion_keyword_is_ignored_only_while_blocks_are_written(card: str, rule: str, life: int) -> None:
    """Islandwalk (702.14) and shadow (702.28) say which creatures can block it: with the blocks
    written there is nothing to compute (the 2-power creature unblocked: A at 18); a case that
    chooses blocks refuses the card, naming it."""
    r = reading(card)
    assert r.block_rules and f"CR {rule}" in r.block_rules[0].reason
    assert outcome_set(ATTACK.format(card=card, combat="{}"), "A.life") == {(life,)}
    (path, reason), *_ = problems(ATTACK.format(card=card, combat="{blocks: choose}"))
    assert path == "battlefield[0].card" and "restricts attacks or blocks" in reason
