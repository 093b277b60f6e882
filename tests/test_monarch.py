"""The monarch (CR 724): becoming it, its end-step draw and combat damage taking it (724.2),
one monarch at a time (724.3), the monarch leaving the game (724.4)."""

from __future__ import annotations

import pytest

from model.carddata import find
from model.errors import CaseErrors
from model.recognise import read_face

from .helpers import case_from, outcome_set

BASE = """
players:
  - {name: A}
  - {name: you}
  - {name: B}
battlefield:
  - {id: bear, name: Bear, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}
"""


def test_724_2_combat_damage_to_the_monarch_takes_it_and_the_end_step_draws() -> None:
    text = BASE + """
actions:
  - {become_monarch: you}
  - end_step: {}
  - combat: {}
  - end_step: {}
"""
    # A's turn: the first end step isn't the monarch's (you), the second is A's after the Bear took it
    assert outcome_set(text, "you.monarch", "A.monarch", "you.cards_drawn", "A.cards_drawn") == {(False, True, 0, 1)}


def test_724_3_one_monarch_at_a_time() -> None:
    text = BASE.replace("{name: B}", "{name: B, monarch: true}") + """
actions:
  - {become_monarch: A}
"""
    assert outcome_set(text, "A.monarch", "B.monarch", "you.monarch") == {(True, False, False)}
    with pytest.raises(CaseErrors, match="only one player can be the monarch"):
        case_from(BASE.replace("{name: B}", "{name: B, monarch: true}").replace("{name: A}", "{name: A, monarch: true}"))


def test_724_4_the_monarch_leaving_passes_it_to_the_active_player() -> None:
    text = BASE.replace("{name: B}", "{name: B, monarch: true}") + """
actions:
  - leave_game: B
"""
    assert outcome_set(text, "A.monarch", "B.monarch") == {(True, False)}


def test_cp_declines_a_step_with_a_monarch() -> None:
    from solver.cp import cp_supported

    reason = cp_supported(case_from(BASE.replace("{name: you}", "{name: you, monarch: true}") + "actions:\n  - combat: {}\n"))
    assert reason is not None and "monarch" in reason


def test_recognised_monarch_lines() -> None:
    """Thorn of the Black Rose: "Deathtouch" / "When this creature enters, you become the
    monarch."; Throne of the High City: "{T}: Add {C}." / "{4}, {T}, Sacrifice this land: You
    become the monarch.\""""
    thorn = read_face(find("Thorn of the Black Rose").face)
    assert thorn.understood and thorn.abilities == [{"trigger": "enters", "do": {"become_monarch": "you"}}]
    throne = read_face(find("Throne of the High City").face)
    assert throne.understood and throne.abilities == [
        {"mana": ["C"], "cost": ["T"]},
        {"activated": {"become_monarch": "you"}, "cost": [4, "T", {"sacrifice": "self"}]}]
