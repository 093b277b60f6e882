"""Unit tests of attachments' state-based actions: an illegally attached Aura is put into its
owner's graveyard (CR 704.5m, 303.4c), an illegally attached Equipment becomes unattached and
stays (704.5n, 301.5c); one rule each, named by CR number, both engines where the CP model applies."""

from __future__ import annotations

import pytest

from ..helpers import both_engines, outcome_set

PLAYERS = """
players:
  - {name: you, life: 20}
  - {name: A, life: 20}
"""

# an Aura whose effect doesn't name the enchanted creature: it visibly stops applying once it's gone
WARD = "{id: ward, name: Test Ward, controller: you, types: [enchantment], subtypes: [Aura], abilities: [{prevent: 1, to: you}], attached_to: bears}"
BEARS = "{id: bears, card: Grizzly Bears, controller: you}"


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_704_5m_aura_leaves_when_its_creature_dies(engine: str) -> None:
    """The Bolt kills the enchanted Bears; the Aura dies with them (700.4), its prevention no longer
    applies to the next damage to you (3, not 2)."""
    text = PLAYERS + f"""
battlefield:
  - {BEARS}
  - {WARD}
sources:
  - {{id: bolt, card: Lightning Bolt, controller: A}}
  - {{id: blast, name: Test Blast, controller: A, colors: [red], types: [sorcery]}}
actions:
  - damage: [{{from: bolt, to: bears, amount: 3}}]
  - damage: [{{from: blast, to: you, amount: 3}}]
"""
    assert outcome_set(text, "bears.dies", "ward.dies", "you.life", engine=engine) == {(True, True, 17)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_704_5m_aura_dies_with_its_creature_in_the_last_step(engine: str) -> None:
    """The CP model's step: the Aura on a creature that dies in it dies too."""
    text = PLAYERS + f"""
battlefield:
  - {BEARS}
  - {WARD}
  - {{id: other, card: Grizzly Bears, controller: you}}
sources:
  - {{id: bolt, card: Lightning Bolt, controller: A}}
actions:
  - damage: [{{from: bolt, to: bears, amount: 2}}, {{from: bolt, to: other, amount: 1}}]
"""
    assert outcome_set(text, "bears.dies", "ward.dies", "other.dies", engine=engine) == {(True, True, False)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_704_5m_not_after_the_game_is_over(engine: str) -> None:
    """A loses at the check that destroys the Bears: the game is over (104.2a), no further check."""
    text = """
players:
  - {name: you, life: 20}
  - {name: A, life: 2}
""" + """
battlefield:
  - {id: bears, card: Grizzly Bears, controller: A}
  - {id: ward, name: Test Ward, controller: A, types: [enchantment], subtypes: [Aura], attached_to: bears}
sources:
  - {id: quake, name: Test Quake, controller: you, colors: [red], types: [sorcery]}
actions:
  - damage: [{from: quake, to: bears, amount: 2}, {from: quake, to: A, amount: 2}]
"""
    assert outcome_set(text, "A.lost", "bears.dies", "ward.dies", engine=engine) == {(True, True, False)}


def test_704_5m_aura_on_a_player_who_leaves_the_game() -> None:
    """A Curse-like Aura of yours on B: B leaves a multiplayer game (800.4a), the Aura dies."""
    text = """
players:
  - {name: you}
  - {name: A}
  - {name: B}
battlefield:
  - {id: curse, name: Test Curse, controller: you, types: [enchantment], subtypes: [Aura], attached_to: B}
actions:
  - leave_game: B
"""
    assert outcome_set(text, "curse.dies") == {(True,)}


def test_704_5m_an_aura_in_a_multiplayer_game_in_both_engines() -> None:
    """B loses to the Bolt and leaves the game with the Bears (800.4a); your Aura on them goes to
    the graveyard at the next check (704.5m). The CP model's check doesn't follow it: the rules
    engine does the checks after the step (solver.cp.suffix), so both engines agree."""
    text = """
players:
  - {name: you}
  - {name: A}
  - {name: B, life: 3}
battlefield:
  - {id: bears, card: Grizzly Bears, controller: B}
  - {id: ward, name: Test Ward, controller: you, types: [enchantment], subtypes: [Aura], attached_to: bears}
sources:
  - {id: bolt, card: Lightning Bolt, controller: A}
actions:
  - damage: [{from: bolt, to: B, amount: 3}]
"""
    assert both_engines(text, "B.lost", "bears.dies", "ward.dies") == {(True, False, True)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_704_5n_equipment_becomes_unattached_and_stays(engine: str) -> None:
    """The Knight gains protection from you (702.16d, 702.16k): your Equipment becomes unattached
    but stays on the battlefield, and "equipped creature" is no creature: A's 3 damage isn't
    reduced by its prevention (3 marked, not 1)."""
    text = PLAYERS + """
battlefield:
  - {id: knight, name: Test Knight, controller: you, types: [creature], colors: [white], power: 5, toughness: 5}
  - {id: plate, name: Test Plate, controller: you, types: [artifact], subtypes: [Equipment], abilities: [{prevent: 2, to: equipped creature}], attached_to: knight}
sources:
  - {id: blast, name: Test Blast, controller: A, colors: [red], types: [sorcery]}
actions:
  - create: {id: prot, protection: {from_player: you}, to: knight, controller: you}
  - damage: [{from: blast, to: knight, amount: 3}]
"""
    assert outcome_set(text, "knight.damage", "plate.dies", engine=engine) == {(3, False)}
