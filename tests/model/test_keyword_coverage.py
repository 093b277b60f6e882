"""Keyword lines of real cards read for coverage (CR 702): keywords that can't change anything a
case computes, ignored with their reason, and keywords with an effect (each test names its rule)."""

from __future__ import annotations

import pytest

from ..helpers import outcome_set, problems, reading

# --- keywords of casting costs and of cards in hand, graveyard or exile ------------------------------

@pytest.mark.parametrize("name, line, rule", [
    ("Lens Flare", "Affinity for artifacts", "702.41"),          # a reduction of its cost
    ("Charging Binox", "Assist", "702.132"),                    # another player helps pay its cost
    ("Ninja of the Deep Hours", "Ninjutsu {1}{U}", "702.49a"),  # functions only in a hand
    ("Fiery Temper", "Madness {R}", "702.35a"),                 # acts as the card is discarded
    ("Searing Touch", "Buyback {4}", "702.27a"),                # an additional cost; the spell goes to hand
    ("Hellspark Elemental", "Unearth {1}{R}", "702.84a"),       # an ability of a card in a graveyard
    ("Rift Bolt", "Suspend 1—{R}", "702.62a"),                  # an ability of a card in hand or exile
    ("Exalted Angel", "Morph {2}{W}{W}", "702.37"),             # face-down cards and permanents only
    ("Direct Current", "Jump-start", "702.133"),                # cast from a graveyard, the same effect
    ("Flame Jab", "Retrace", "702.81"),                         # cast from a graveyard, the same effect
    ("Body of Jukai", "Soulshift 8", "702.46a"),                # a dies trigger moving a card graveyard -> hand
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


# --- Vehicles, afterlife, keywords that act as a permanent enters -----------------------------------

def test_702_122a_crew_a_crewed_vehicle_is_written_an_artifact_creature() -> None:
    """Crew is ignored (its reason says how a crewed Vehicle is written); uncrewed, the Vehicle is
    no creature, so writing it attacking is an error, never a silent attacker."""
    r = reading("Thundering Chariot")
    (crew,) = [x for x in r.lines if x.text.startswith("Crew 1")]
    assert crew.status == "ignored" and "CR 702.122a" in crew.reason and "types: [artifact, creature]" in crew.reason
    text = ATTACK.format(card="Thundering Chariot", combat="{}")
    (path, reason), *_ = problems(text)
    assert path == "battlefield[0].attacking" and "not a creature" in reason
    crewed = text.replace("card: Thundering Chariot,", "card: Thundering Chariot, types: [artifact, creature],")
    assert outcome_set(crewed, "A.life") == {(17,)}  # the 3/3 unblocked


def test_702_135a_afterlife_is_a_dies_trigger_creating_spirits() -> None:
    spirit = {"types": ["creature"], "subtypes": ["Spirit"], "colors": ["white", "black"], "power": 1, "toughness": 1,
              "keywords": ["flying"]}
    assert reading("Orzhov Racketeers").abilities[-1] == {"trigger": "dies", "do": {"create_tokens": 2, "token": spirit}}


@pytest.mark.parametrize("name, line, rule", [
    ("Blood Ogre", "Bloodthirst 1", "702.54a"),
    ("Steampath Charger", "Offspring {2}", "702.175a"),
    ("Splatter Thug", "Unleash", "702.98a"),
    ("Angel of Invention", "Fabricate 2", "702.123a"),
    ("Caldera Hellion", "Devour 1", "702.82a"),
    ("Batterbone", "Living weapon", "702.92a"),
])
def test_keywords_acting_as_it_enters_are_over_on_the_battlefield_and_refused_entering(name: str, line: str,
                                                                                          rule: str) -> None:
    """On a permanent already on the battlefield what they did as it entered is over (its counters
    are written); a permanent entering during the case with one is refused, naming the line."""
    r = reading(name)
    (got,) = [x for x in r.lines if x.text.startswith(line)]
    assert got.status == "ignored" and got.on_entering and f"CR {rule}" in got.reason
    text = f"players:\n  - {{name: you}}\nactions:\n  - enter: {{id: it, card: {name}, controller: you}}\n"
    (path, reason), *_ = problems(text)
    assert "not understood as it enters" in reason and line in reason


def test_702_98a_unleash_cant_block_refuses_chosen_blocks() -> None:
    """Unleash's "can't block as long as it has a +1/+1 counter on it" is a block restriction."""
    text = """players:
  - {name: A}
  - {name: you}
battlefield:
  - {id: bear, card: Grizzly Bears, controller: A, attacking: you}
  - {id: thug, card: Splatter Thug, controller: you}
actions:
  - combat: {blocks: choose}
"""
    (path, reason), *_ = problems(text)
    assert path == "battlefield[1].card" and "restricts attacks or blocks" in reason


def test_614_1c_enters_the_battlefield_tapped_is_the_old_wording_of_enters_tapped() -> None:
    """Madlands: "Madlands enters the battlefield tapped." is "enters tapped": over on the
    battlefield (tapped: gives it), not understood for a land entering during the case."""
    (line,) = [x for x in reading("Madlands").lines if "enters the battlefield tapped" in x.text]
    assert line.status == "ignored" and line.on_entering


def test_402_2_no_maximum_hand_size_is_ignored() -> None:
    r = reading("Reliquary Tower")
    assert r.lines[0].status == "ignored" and "CR 402.2" in r.lines[0].reason
