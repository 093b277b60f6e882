"""Modal spells (CR 700.2): recognising "Choose one —" with its bullets, and casting one, the
caster choosing the modes (700.2a, 601.2b), a mode without legal targets unavailable (700.2a),
modes chosen at most once (700.2d), the chosen modes' instructions in printed order (608.2c)."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face, read_text
from tests.helpers import outcome_set, problems


def abilities(name: str) -> list[object]:
    reading = read_face(find(name).face)
    assert reading.understood, [r.text for r in reading.not_understood]
    return reading.abilities


def test_choose_one_reads_each_bullet_as_a_mode() -> None:
    """Abrade: "Choose one — • Abrade deals 3 damage to target creature. • Destroy target artifact.\""""
    assert abilities("Abrade") == [
        {"modes": 1},
        {"spell": {"deal": 3, "to": "target"}, "target": "creature", "mode": 1},
        {"spell": {"destroy": "target"}, "target": "artifact", "mode": 2},
    ]


def test_choose_one_with_an_untargeted_mode() -> None:
    """Umezawa's Charm: "Choose one — • Target creature gets +2/+2 until end of turn. • Target
    creature gets -1/-1 until end of turn. • You gain 2 life.\""""
    assert abilities("Umezawa's Charm") == [
        {"modes": 1},
        {"spell": {"pt": [2, 2], "to": "target"}, "target": "creature", "mode": 1},
        {"spell": {"pt": [-1, -1], "to": "target"}, "target": "creature", "mode": 2},
        {"spell": {"gain_life": 2, "who": "you"}, "mode": 3},
    ]


def test_choose_one_or_both() -> None:
    text = "Choose one or both —\n• Test Spell deals 1 damage to each opponent.\n• You gain 2 life."
    assert read_text(text, "Test Spell", ("instant",)).abilities == [
        {"modes": {"min": 1, "max": 2}},
        {"spell": {"deal": 1, "to": "opponents"}, "mode": 1},
        {"spell": {"gain_life": 2, "who": "you"}, "mode": 2},
    ]


@pytest.mark.parametrize("text,types", [
    # one bullet not understood: none of the lines is (a mode left out would remove a choice)
    ("Choose one —\n• Test Spell deals 2 damage to any target.\n• Counter target spell.", ("instant",)),
    # a mode with two targets of its own: not modelled
    ("Choose two —\n• Test Spell deals 2 damage to any target. Target player gains 3 life.\n• Draw a card.\n"
     "• You gain 1 life.", ("instant",)),
    # a permanent's "choose one" isn't a spell's
    ("Choose one —\n• You gain 2 life.\n• Draw a card.", ("enchantment",)),
])
def test_modal_lines_all_or_nothing(text: str, types: tuple[str, ...]) -> None:
    reading = read_text(text, "Test Spell", types)
    assert [r.status for r in reading.lines] == ["not understood"] * len(reading.lines)


PLAYERS = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you}
"""

# an ad-hoc "Choose one or both —" spell: its modes are done in the order printed (608.2c)
BOTH = PLAYERS + """
sources:
  - id: charm
    name: Test Charm
    controller: A
    types: [instant]
    abilities:
      - {modes: {min: 1, max: 2}}
      - {spell: {deal: 2, to: target}, target: creature, mode: 1}
      - {spell: {gain_life: 3, who: you}, mode: 2}
"""


def test_one_or_both_modes_are_the_casters_choice() -> None:
    got = outcome_set(BOTH + "actions:\n  - cast: charm\n", "bears.dies", "A.life")
    assert got == {(True, 20), (False, 23), (True, 23)}


def test_announced_modes_are_one_cast() -> None:
    got = outcome_set(BOTH + "actions:\n  - cast: {id: charm, modes: [2]}\n", "bears.dies", "A.life")
    assert got == {(False, 23)}


def test_a_mode_without_a_legal_target_cant_be_chosen() -> None:
    """700.2a: with no creature, only the life-gain mode can be chosen, alone."""
    text = BOTH.replace("  - {id: bears, card: Grizzly Bears, controller: you}\n", "  []\n").replace("battlefield:\n  []", "battlefield: []")
    assert outcome_set(text + "actions:\n  - cast: charm\n", "A.life") == {(23,)}


def test_the_real_card_is_cast_with_its_modes() -> None:
    """Abrade at a 2/2 with no artifact around: mode 1 only, the Bears die."""
    assert outcome_set(PLAYERS + "actions:\n  - cast: {card: Abrade, controller: A}\n", "bears.dies") == {(True,)}




@pytest.mark.parametrize("cast,path,reason", [
    ("{id: charm, modes: [3]}", "actions[0].cast.modes", "modes 1 to 2"),
    ("{id: charm, modes: [1, 1]}", "actions[0].cast.modes", "distinct"),
    ("{card: Lightning Bolt, controller: A, modes: [1]}", "actions[0].cast.modes", "not modal"),
])
def test_bad_modes_are_errors(cast: str, path: str, reason: str) -> None:
    got = problems(BOTH + f"actions:\n  - cast: {cast}\n")
    assert any(p == path and reason in r for p, r in got), got


def test_a_spell_part_outside_the_modes_is_an_error() -> None:
    text = BOTH.replace("{spell: {gain_life: 3, who: you}, mode: 2}", "{spell: {gain_life: 3, who: you}}")
    got = problems(text + "actions:\n  - cast: charm\n")
    assert any("every spell part in a mode" in r for _, r in got), got
