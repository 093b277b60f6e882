"""A prevention's rider for each source whose damage it prevented (615.5): Comeuppance's "that
much damage to that creature" / "to the source's controller", read from the real card; outcomes
derived by hand, both engines (the CP model leaves the rider to the rules engine after its step)."""

from __future__ import annotations

from tests.helpers import both_engines, problems, reading


def test_comeuppance_is_read() -> None:
    assert reading("Comeuppance").abilities == [{"spell": {
        "prevent": "all", "to": ["you", "planeswalkers you control"], "from": "sources you don't control",
        "duration": "turn", "then": {"deal": "prevented", "to": "that creature or the source's controller",
                                     "if_prevented": True}}}]


CHOSEN = """
players: [{name: you}, {name: A}]
active: A
battlefield:
  - {id: wurm, name: Test Trampler, controller: A, types: [creature], power: 6, toughness: 6, keywords: [trample], attacking: you}
  - {id: wall, name: Test Wall, controller: you, types: [creature], power: 0, toughness: 4, blocking: wurm}
actions:
  - cast: {id: comeuppance, card: Comeuppance, controller: you}
  - combat: {}
"""


def test_615_5_each_sources_own_amount_back_to_it() -> None:
    """The trampler assigns 4 (lethal) to the Wall and 2 to you, or 5/1, or 6/0 (702.19b, A's
    choice): the damage to you is prevented and dealt back to the trampler; the Wall's isn't (it
    isn't you or a planeswalker you control)."""
    got = both_engines(CHOSEN, "you.life", "wurm.damage", "wall.dies")
    assert got == {(20, 2, True), (20, 1, True), (20, 0, True)}


def test_a_noncreature_source_and_the_rider_elsewhere() -> None:
    text = """
players: [{name: you}, {name: A}]
actions:
  - cast: {id: comeuppance, card: Comeuppance, controller: you}
  - cast: {id: b1, card: Lightning Bolt, controller: A, target: you}
  - cast: {id: b2, card: Shock, controller: A, target: you}
"""
    assert both_engines(text, "you.life", "A.life") == {(20, 15)}
    bad = problems("""
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you}
actions:
  - {deal: 2, to: "that creature or the source's controller", from: bears}
""")
    assert bad[0][0] == "actions[0]" and "CR 615.5" in bad[0][1]
