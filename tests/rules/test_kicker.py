"""Kicker (CR 702.33): recognised on instants and sorceries as ``{kicker: true}`` with parts
``if_kicked: true | false``; the caster chooses to kick as the spell is cast (702.33a, 601.2b).
On permanents, what kicking did happened as it entered (702.33d)."""

from __future__ import annotations

import pytest
import yaml

from mtg_outcomes.model import parse_case
from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.errors import CaseErrors
from mtg_outcomes.model.recognise import read_face
from tests.helpers import outcome_set, reading


def test_kicked_amount_instead() -> None:
    """Burst Lightning: "Kicker {4}" / "Burst Lightning deals 2 damage to any target. If this
    spell was kicked, it deals 4 damage instead.\""""
    assert reading("Burst Lightning").abilities == [
        {"kicker": True},
        {"spell": {"deal": 2, "to": "target"}, "target": "any", "if_kicked": False},
        {"spell": {"deal": 4, "to": "target"}, "target": "any", "if_kicked": True},
    ]


def test_kicked_whole_instruction_instead() -> None:
    """Cinderclasm: "Kicker {R}" / "Cinderclasm deals 1 damage to each creature. If it was
    kicked, it deals 2 damage to each creature instead.\""""
    assert reading("Cinderclasm").abilities == [
        {"kicker": True},
        {"spell": {"deal": 1, "to": "creatures"}, "if_kicked": False},
        {"spell": {"deal": 2, "to": "creatures"}, "if_kicked": True},
    ]


def test_kicked_adds_an_instruction() -> None:
    """Hurloon Battle Hymn: "Kicker {W}" / "Hurloon Battle Hymn deals 4 damage to target creature
    or planeswalker. If this spell was kicked, you gain 4 life.\""""
    assert reading("Hurloon Battle Hymn").abilities == [
        {"kicker": True},
        {"spell": {"deal": 4, "to": "target"}, "target": ["creatures", "planeswalkers"]},
        {"spell": {"gain_life": 4, "who": "you"}, "if_kicked": True},
    ]


def test_a_kicked_permanent_did_it_as_it_entered() -> None:
    """Kavu Titan's "If this creature was kicked, it enters with three +1/+1 counters on it and with
    trample." gives trample for good: not ignored. Llanowar Elite's "If this creature was kicked, it
    enters with five +1/+1 counters on it." is over once it is on the battlefield (counters:),
    and not modelled for one that enters during the case."""
    titan = read_face(find("Kavu Titan").face)
    assert [r.status for r in titan.lines] == ["ignored", "not understood"]
    elite = reading("Llanowar Elite")
    assert elite.abilities == [] and elite.keywords == ["trample"]
    assert [r.on_entering for r in elite.lines] == [False, False, True]


PLAYERS = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you}
"""


def test_the_caster_chooses_to_kick() -> None:
    got = outcome_set(PLAYERS + "actions:\n  - cast: {card: Hurloon Battle Hymn, controller: A, target: bears}\n",
                      "bears.dies", "A.life")
    assert got == {(True, 20), (True, 24)}


def test_kicked_announced() -> None:
    got = outcome_set(PLAYERS + "actions:\n  - cast: {card: Burst Lightning, controller: A, target: you, kicked: false}\n",
                      "you.life")
    assert got == {(18,)}


def test_kicked_target_gone_does_nothing() -> None:
    """608.2b: the target is illegal as the kicked spell resolves: no damage, no life gained."""
    text = PLAYERS + """actions:
  - cast: {card: Hurloon Battle Hymn, controller: A, target: bears, kicked: true, responses: [{leave: bears}]}
"""
    assert outcome_set(text, "A.life") == {(20,)}


def test_kicked_on_a_spell_without_kicker_is_an_error() -> None:
    with pytest.raises(CaseErrors) as exc:
        parse_case(yaml.safe_load(PLAYERS + "actions:\n  - cast: {card: Lightning Bolt, controller: A, kicked: true}\n"), "<inline>")
    assert any(e.path == "actions[0].cast.kicked" and "no kicker" in e.reason for e in exc.value.errors)
