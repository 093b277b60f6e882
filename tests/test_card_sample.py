"""A fixed-seed random sample of real cards the recogniser understands, each with the abilities
expected written by hand from its Oracle text (not copied from the recogniser's output).

Drawn once with ``random.Random(20261201).sample(names, 70)`` from the sorted names of the
single-faced, damage-relevant cards outside the hand-written library that the recogniser fully
understood when it was written (1,009 cards); the table is fixed here, so new templates don't
change the sample. 70 cards.
"""

from __future__ import annotations

from typing import Any

import pytest

from model.carddata import find
from model.recognise import read_face

T = "T"
ANY = {"target": "any"}


def bolt(n: int, target: Any = "any") -> dict[str, Any]:
    return {"spell": {"deal": n, "to": "target"}, "target": target}


def ping(n: int, cost: list[Any]) -> dict[str, Any]:
    return {"activated": {"deal": n, "to": "target"}, "target": "any", "cost": cost}


def one_of(*syms: str) -> dict[str, Any]:
    return {"mana": {"one_of": list(syms)}, "cost": [T]}


def gain_on_enter(n: int) -> dict[str, Any]:
    return {"trigger": "enters", "do": {"gain_life": n, "who": "you"}}


# name -> (keywords, abilities)
EXPECTED: dict[str, tuple[list[str], list[Any]]] = {
    "Cinder Storm": ([], [bolt(7)]),
    "Unfriendly Fire": ([], [bolt(4)]),
    "Wizards' School": ([], [{"mana": ["C"], "cost": [T]}, {"mana": ["U"], "cost": [1, T]},
                             {"mana": {"one_of": ["W", "B"]}, "cost": [2, T]}]),
    "Ethereal Champion": ([], [{"activated": {"shield": 1, "to": "self"}, "cost": [{"pay_life": 1}]}]),
    "Cleansing Screech": ([], [bolt(4)]),
    "Eldrazi Devastator": (["trample"], []),
    "Deadeye Duelist": (["reach"], [{"activated": {"deal": 1, "to": "target"}, "target": "opponent", "cost": [1, T]}]),
    "Copper Myr": ([], [{"mana": ["G"], "cost": [T]}]),
    "Beast in Show": (["trample"], []),
    "Truck Toss": ([], [bolt(4)]),
    "Viashino Fangtail": ([], [ping(1, [T])]),
    "Blisterstick Shaman": ([], [{"trigger": "enters", "do": {"deal": 1, "to": "any"}}]),
    "Earthshaking Si": (["trample"], []),
    "Choked Estuary": ([], [one_of("U", "B")]),
    "Goblin Deathraiders": (["trample"], []),
    "Welder Automaton": ([], [{"activated": {"deal": 1, "to": "opponents"}, "cost": [3, "R"]}]),
    "Tremor": ([], [{"spell": {"deal": 1, "to": {"types": ["creature"], "without": "flying"}}}]),
    "Archweaver": (["reach", "trample"], []),
    "Sundown Pass": ([], [one_of("R", "W")]),
    "Lightning Hounds": (["first strike"], []),
    "TCRI Building": ([], [gain_on_enter(1), one_of("U", "R")]),
    "Daggerback Basilisk": (["deathtouch"], []),
    "Ramirez DePietro": (["first strike"], []),
    "Rootwater Hunter": ([], [ping(1, [T])]),
    "Boltwave": ([], [{"spell": {"deal": 3, "to": "opponents"}}]),
    "Game-Trail Changeling": (["trample"], []),
    "Spiked Baloth": (["trample"], []),
    "Copper Host Crusher": (["trample", "hexproof"], []),
    "Thran Dynamo": ([], [{"mana": ["C", "C", "C"], "cost": [T]}]),
    "Nightveil Predator": (["flying", "deathtouch", "hexproof"], []),
    "Prodigal Sorcerer": ([], [ping(1, [T])]),
    "Oona's Gatewarden": (["defender", "flying", "wither"], []),
    "Wild Elephant": (["trample"], []),
    "Rhox War Monk": (["lifelink"], []),
    "Golden-Tail Disciple": (["lifelink"], []),
    "Port Town": ([], [one_of("W", "U")]),
    "Obelisk of Grixis": ([], [one_of("U", "B", "R")]),
    "Taiga Stadium": ([], [one_of("R", "G")]),
    "Shadowblood Ridge": ([], [{"mana": ["B", "R"], "cost": [1, T]}]),
    "Explosive Shot": ([], [bolt(4, "creature")]),
    "Illegitimate Business": ([], [gain_on_enter(1), one_of("B", "G")]),
    "Vault of Champions": ([], [one_of("W", "B")]),
    "Loxodon Anchorite": ([], [{"activated": {"shield": 2, "to": "target"}, "target": "any", "cost": [T]}]),
    "Quaketusk Boar": (["reach", "trample", "haste"], []),
    "Peculiar Lighthouse": ([], [one_of("U", "R")]),
    "Phyrexian Juggernaut": (["infect"], []),
    "Boros Swiftblade": (["double strike"], []),
    "Morphic Pool": ([], [one_of("U", "B")]),
    "Heart of Light": ([], [{"prevent": "all", "to": "enchanted creature"}, {"prevent": "all", "from": "enchanted creature"}]),
    "Oasis Gardener": ([], [gain_on_enter(2), {"mana": "any_color", "cost": [T]}]),
    "Koskun Keep": ([], [{"mana": ["C"], "cost": [T]}, {"mana": ["R"], "cost": [1, T]},
                         {"mana": {"one_of": ["B", "G"]}, "cost": [2, T]}]),
    "Angel's Mercy": ([], [{"spell": {"gain_life": 7, "who": "you"}}]),
    "Shambling Attendants": (["deathtouch"], []),
    "Shimmering Grotto": ([], [{"mana": ["C"], "cost": [T]}, {"mana": "any_color", "cost": [1, T]}]),
    "Fiendish Duo": (["first strike"], [{"multiply": 2, "to": "opponents"}]),
    "Ghostfire Slice": ([], [bolt(4)]),
    "Thunder Spirit": (["flying", "first strike"], []),
    "Darksteel Gargoyle": (["flying", "indestructible"], []),
    "Triskelion": ([], [{"enters_with": {"+1/+1": 3}},
                        {"activated": {"deal": 1, "to": "target"}, "target": "any", "cost": [{"remove_counters": {"+1/+1": 1}}]}]),
    "Kamahl, Pit Fighter": (["haste"], [ping(3, [T])]),
    "Arborback Stomper": (["trample"], [gain_on_enter(5)]),
    "Inferno Jet": ([], [bolt(6, ["opponents", "planeswalkers"])]),
    "Rakdos Guildgate": ([], [one_of("B", "R")]),
    "Greed": ([], [{"activated": {"draw": 1, "who": "you"}, "cost": ["B", {"pay_life": 2}]}]),
    "Darkmoss Bridge": (["indestructible"], [one_of("B", "G")]),
    "Gargantuan Leech": (["lifelink"], []),
    "Martyrs' Tomb": ([], [{"activated": {"shield": 1, "to": "target"}, "target": "creature", "cost": [{"pay_life": 2}]}]),
    "Cao Ren, Wei Commander": ([], [{"trigger": "enters", "do": {"lose_life": 3, "who": "you"}}]),
    "Colossadactyl": (["reach", "trample"], []),
    "Moldering Karok": (["trample", "lifelink"], []),
}


def test_the_sample_is_seventy_cards() -> None:
    assert len(EXPECTED) == 70


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sampled_card(name: str) -> None:
    keywords, abilities = EXPECTED[name]
    reading = read_face(find(name).face)
    assert reading.understood, [r.text for r in reading.not_understood]
    assert reading.abilities == abilities
    assert sorted(reading.keywords) == sorted(keywords)
