"""Effects met on loyalty lines (CR 606) read for every spell and activation
(model/recognise/loyalty.py): each reading, its vocabulary valid, and real cards run."""

from __future__ import annotations

from typing import Any

import pytest

from mtg_outcomes.model.recognise import read_text
from mtg_outcomes.model.vocab import parse_ability
from tests.helpers import both_engines, reading


def _read(text: str, types: tuple[str, ...]) -> list[Any]:
    lines = read_text(text, "Test Walker", types, ()).lines
    assert len(lines) == 1 and lines[0].status == "understood", lines
    for i, ab in enumerate(lines[0].abilities):
        parse_ability(ab, f"[{i}]")  # every derived ability is valid vocabulary
    return list(lines[0].abilities)


@pytest.mark.parametrize("text,types,expected", [
    # 122.1, 608.2c, 115.10: a counter on each permanent of the group as it resolves, no target
    ("[\u22121]: Put a +1/+1 counter on each creature you control.", ("planeswalker",),
     [{"activated": {"put_counters": {"+1/+1": 1}, "to": "creatures you control"}, "cost": [{"loyalty": -1}]}]),
    ("Put two -1/-1 counters on each creature.", ("sorcery",), [{"spell": {"put_counters": {"-1/-1": 2}, "to": "creatures"}}]),
    ("{2}{G}{W}, {T}: Put a +1/+1 counter on each other creature you control.", ("land",),
     [{"activated": {"put_counters": {"+1/+1": 1}, "to": "other creatures you control"}, "cost": [2, "G", "W", "T"]}]),
])
def test_counters_on_each(text: str, types: tuple[str, ...], expected: list[Any]) -> None:
    assert _read(text, types) == expected


@pytest.mark.parametrize("text", [
    "Put a +1/+1 counter on each creature and each opponent.",  # a player gets no +1/+1 counter
    "Put a +1/+1 counter on each green you control.",  # neither a group of the table nor a subtype
])
def test_counters_on_each_refused(text: str) -> None:
    assert read_text(text, "Test", ("sorcery",), ()).lines[0].status == "not understood"


def test_gavony_township_counters_then_pyroclasm() -> None:
    """Gavony Township's {2}{G}{W}, {T}: a +1/+1 counter on each creature you control (your
    Bears, 3/3), none on A's; Pyroclasm's 2 to each creature (120.2) kills A's Bears only
    (704.5g: 2 is lethal to a 2/2, not to a 3/3)."""
    reading("Gavony Township")
    got = both_engines("""
players: [{name: you}, {name: A}]
active: you
battlefield:
  - {id: town, card: Gavony Township, controller: you}
  - {id: mine, card: Grizzly Bears, controller: you}
  - {id: theirs, card: Grizzly Bears, controller: A}
actions:
  - activate: {id: town, ability: 1}
  - cast: {card: Pyroclasm, controller: you}
""", "mine.dies", "mine.counters.+1/+1", "mine.damage", "theirs.dies", "theirs.counters.+1/+1")
    assert got == {(False, 1, 2, True, 0)}, got


_RIPOSTE = """
players: [{name: you}, {name: A}]
active: you
battlefield:
  - {id: tapped, card: Hill Giant, controller: A, tapped: true}
  - {id: ready, card: Hill Giant, controller: A}
actions:
  - may: {cast: {card: Deadly Riposte, controller: you, target: TARGET}}
    by: you
"""


def test_target_tapped_creature() -> None:
    """"target tapped creature" (701.26a, 115.1): the tapped giant may be its target (3 damage,
    lethal; 2 life gained), the untapped one may not (601.2c: the cast is not a legal choice, so
    only not casting remains)."""
    assert read_text("Destroy target tapped creature.", "T", ("instant",), ()).lines[0].abilities == (
        {"spell": {"destroy": "target"}, "target": {"types": ["creature"], "tapped": True}},)
    fields = ("tapped.dies", "ready.dies", "you.life")
    assert both_engines(_RIPOSTE.replace("TARGET", "tapped"), *fields) == {(True, False, 22), (False, False, 20)}
    assert both_engines(_RIPOSTE.replace("TARGET", "ready"), *fields) == {(False, False, 20)}


def test_tapped_selector_key() -> None:
    from mtg_outcomes.model.selectors import SelectorError, parse_selector

    sel = parse_selector({"types": ["creature"], "tapped": False})
    assert (sel.tapped, str(sel)) == (False, "untapped creatures")
    with pytest.raises(SelectorError, match="tapped must be true"):
        parse_selector({"types": ["creature"], "tapped": "yes"})


@pytest.mark.parametrize("text,expected", [
    ("Destroy all creatures.", {"spell": {"destroy": "creatures"}}),
    ("Exile all creatures you don't control.", {"spell": {"exile": "creatures you don't control"}}),
    ("Return all creatures to their owners' hands.", {"spell": {"return_to_hand": "creatures"}}),
    ("Destroy all artifacts, creatures, and enchantments.", {"spell": {"destroy": ["artifacts", "creatures", "enchantments"]}}),
])
def test_all_of_a_group(text: str, expected: Any) -> None:
    assert _read(text, ("sorcery",)) == [expected]


def test_day_of_judgment_spares_the_indestructible() -> None:
    """Day of Judgment's "Destroy all creatures." (701.8a): every creature at once, an
    indestructible one isn't destroyed (701.8b); the land is no creature."""
    reading("Day of Judgment")
    got = both_engines("""
players: [{name: you}, {name: A}]
active: you
battlefield:
  - {id: bears, card: Grizzly Bears, controller: A}
  - {id: myr, card: Darksteel Myr, controller: A}
  - {id: giant, card: Hill Giant, controller: you}
  - {id: land, card: Mountain, controller: you}
actions:
  - cast: {card: Day of Judgment, controller: you}
""", "bears.dies", "myr.dies", "giant.dies", "land.dies")
    assert got == {(True, False, True, False)}, got


def test_power_read_as_it_resolves() -> None:
    """Elspeth, Sun's Champion's −3 (208.1, 613.4c): Giant Growth's +3/+3 makes the Bears 5/5
    before it resolves, so they are destroyed; without it, not. Exile target creature with power 4
    or greater reads the same bound as a target requirement (115.1)."""
    reading("Elspeth, Sun's Champion")
    text = """
players: [{name: you}, {name: A}]
active: you
battlefield:
  - {id: elspeth, card: "Elspeth, Sun's Champion", controller: you}
  - {id: bears, card: Grizzly Bears, controller: A}
actions:
  - may: {cast: {card: Giant Growth, controller: A, target: bears}}
    by: A
  - activate: {id: elspeth, ability: 1}
"""
    assert both_engines(text, "bears.dies", "elspeth.loyalty") == {(True, 1), (False, 1)}
    assert _read("[\u22122]: Exile target creature with power 4 or greater.", ("planeswalker",)) == [
        {"activated": {"exile": "target"}, "target": {"types": ["creature"], "power_at_least": 4}, "cost": [{"loyalty": -2}]}]


def test_power_in_a_continuous_effects_selector_is_refused() -> None:
    """613.8: a P/T effect on creatures chosen by their power would depend on itself; refused."""
    from mtg_outcomes.model.errors import CaseError

    with pytest.raises(CaseError, match="613.8"):
        parse_ability({"pt": [1, 1], "to": {"types": ["creature"], "power_at_least": 4}}, "x")


_UNMAKING = """
players: [{name: you}, {name: A}]
active: you
battlefield:
  - {id: giant, card: Hill Giant, controller: A}
  - {id: land, card: Mountain, controller: A}
actions:
  - cast: {card: Anguished Unmaking, controller: you, target: TARGET}
"""


def test_target_nonland_permanent() -> None:
    """Anguished Unmaking's "Exile target nonland permanent. You lose 3 life." (205.4b, 406.2,
    119.3): the Hill Giant may be its target (exiled, not dying, 400.7); the Mountain may not
    (115.1, 601.2c: it can't be cast, so nothing happens)."""
    reading("Anguished Unmaking")
    assert both_engines(_UNMAKING.replace("TARGET", "giant"), "giant.dies", "you.life") == {(False, 17)}
    assert both_engines(_UNMAKING.replace("TARGET", "land"), "land.dies", "you.life") == {(False, 20)}


def test_all_creatures_target_player_controls() -> None:
    """"Destroy all creatures target opponent controls." (115.1, 608.2h, 701.8a): A's creatures,
    not yours; and "Put a +1/+1 counter on each Bear you control." (205.3) on your Bears only."""
    [ab] = _read("Destroy all creatures target opponent controls.", ("sorcery",))
    [cats] = _read("Put a +1/+1 counter on each Bear you control.", ("sorcery",))
    got = both_engines(f"""
players: [{{name: you}}, {{name: A}}]
active: you
battlefield:
  - {{id: theirs, card: Grizzly Bears, controller: A}}
  - {{id: mine, card: Grizzly Bears, controller: you}}
  - {{id: giant, card: Hill Giant, controller: you}}
sources:
  - {{id: wrath, name: Wrath Test, types: [sorcery], controller: you, abilities: [{ab}]}}
  - {{id: bears, name: Bear Test, types: [sorcery], controller: you, abilities: [{cats}]}}
actions:
  - cast: {{id: wrath, target: A}}
  - cast: {{id: bears}}
""", "theirs.dies", "mine.dies", "mine.counters.+1/+1", "giant.counters.+1/+1")
    assert got == {(True, False, 1, 0)}, got


def test_vraska_relic_seeker_minus_three() -> None:
    """Vraska, Relic Seeker's −3 "Destroy target artifact, creature, or enchantment. Create a
    Treasure token." (115.1, 701.8a, 111.10a): the Hill Giant is destroyed, a Treasure is created,
    her loyalty 6 -> 3 (606.4)."""
    reading("Vraska, Relic Seeker")
    got = both_engines("""
players: [{name: you}, {name: A}]
active: you
battlefield:
  - {id: vraska, card: "Vraska, Relic Seeker", controller: you}
  - {id: giant, card: Hill Giant, controller: A}
actions:
  - activate: {id: vraska, ability: 1, target: giant}
""", "giant.dies", "vraska.loyalty")
    assert got == {(True, 3)}, got
