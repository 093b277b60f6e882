""""You may have this creature assign its combat damage as though it weren't blocked" (CR 510.1c,
510.1b): ``{as_unblocked: true, to: self}``; its controller chooses as it assigns: to its
blockers as usual, or all of it as an unblocked creature would — never split between them."""

from __future__ import annotations

import pytest

from tests.helpers import outcome_set, reading


def test_510_1c_as_unblocked_reading() -> None:
    """Thorn Elemental; Indomitable Might: "Enchanted creature gets +3/+3." / "Enchanted
    creature's controller may have it assign its combat damage as though it weren't blocked.\""""
    assert reading("Thorn Elemental").abilities == [{"as_unblocked": True, "to": "self"}]
    assert reading("Indomitable Might").abilities == [
        {"pt": [3, 3], "to": "enchanted creature"}, {"as_unblocked": True, "to": "enchanted creature"}]


COMBAT = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: wolf, card: Lone Wolf, controller: you, attacking: A}
  - {id: b1, card: Grizzly Bears, controller: A, blocking: wolf}
  - {id: b2, card: Llanowar Elves, controller: A, blocking: wolf}
actions:
  - MORE
  - combat: {}
"""


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_510_1c_blockers_or_the_player_never_split(engine: str) -> None:
    """Lone Wolf (2/2) blocked by the Bears and the Elves: 2 among the blockers as usual (three
    ways), or 2 to A; never 1 to A."""
    text = COMBAT.replace("  - MORE\n", "")
    got = outcome_set(text, "A.life", "b1.damage", "b2.damage", engine=engine)
    assert got == {(20, 2, 0), (20, 1, 1), (20, 0, 2), (18, 0, 0)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_510_1c_no_blocker_left_it_may_still_hit_the_player(engine: str) -> None:
    """Both blockers leave before combat damage: blocked, it assigns none (510.1c) or, as though
    unblocked, 2 to A."""
    text = COMBAT.replace("  - MORE\n", "  - leave: b1\n  - leave: b2\n")
    assert outcome_set(text, "A.life", engine=engine) == {(20,), (18,)}


def test_510_1c_without_the_ability_only_the_blockers() -> None:
    text = COMBAT.replace("  - MORE\n", "").replace("card: Lone Wolf", "card: Grizzly Bears")
    assert {a for a, *_ in outcome_set(text, "A.life", "b1.damage")} == {20}


def test_702_19b_a_trampler_as_though_unblocked_needs_no_lethal_to_blockers() -> None:
    """An ad hoc 4/4 trampler with the ability, blocked by Hill Giant (3/3): trample gives 3+ to
    the Giant and the rest to A (3/1, 4/0), or all 4 to A as though unblocked."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: t, name: Test Trampler, controller: you, types: [creature], power: 4, toughness: 4, keywords: [trample],
     attacking: A, abilities: [{as_unblocked: true, to: self}]}
  - {id: giant, card: Hill Giant, controller: A, blocking: t}
actions:
  - combat: {}
"""
    assert outcome_set(text, "A.life", "giant.damage") == {(19, 3), (20, 4), (16, 0)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_indomitable_might_on_the_host(engine: str) -> None:
    """Grizzly Bears with Indomitable Might (5/5) blocked by Hill Giant: 5 to the Giant or 5 to A."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you, attacking: A}
  - {id: might, card: Indomitable Might, controller: you, attached_to: bears}
  - {id: giant, card: Hill Giant, controller: A, blocking: bears}
actions:
  - combat: {}
"""
    assert outcome_set(text, "A.life", "giant.dies", engine=engine) == {(20, True), (15, False)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
@pytest.mark.parametrize("keyword", ["trample", "trample over planeswalkers"])
def test_702_19c_trample_over_planeswalkers_is_trample_for_the_as_unblocked_choice(keyword: str, engine: str) -> None:
    """Trample over planeswalkers is a variant of trample (702.19c): attacking a player, the
    trampler's options are trample's or all to the player as though unblocked. CP's lethal
    condition binds only an assignment that gives its blockers some damage (it once took the
    variant for a plain creature and found 1 to the Giant and 3 to A, which 702.19b forbids;
    then it declined the mix)."""
    text = f"""
players: [{{name: you}}, {{name: A}}]
battlefield:
  - {{id: t, name: Test Trampler, controller: you, types: [creature], power: 4, toughness: 4, keywords: [{keyword}],
     attacking: A, abilities: [{{as_unblocked: true, to: self}}]}}
  - {{id: giant, card: Hill Giant, controller: A, blocking: t}}
actions:
  - combat: {{}}
"""
    assert outcome_set(text, "A.life", "giant.damage", engine=engine) == {(19, 3), (20, 4), (16, 0)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_510_1c_no_blocker_left_and_a_redirection(engine: str) -> None:
    """The same with damage creatures would deal A dealt to you instead (614.9): none (510.1c),
    or 2 as though unblocked, dealt to you instead. CP's witness of "none" follows the engine's
    assignment and meets no batch (it used to fail an assertion there)."""
    text = COMBAT.replace("  - MORE\n", "  - leave: b1\n  - leave: b2\n").replace(
        "actions:", "sources: [{id: sp, name: Spell, controller: you, types: [instant]}]\n"
                    "effects: [{id: r, controller: you, source: sp, to: A, redirect: you, from: creatures}]\nactions:")
    assert outcome_set(text, "A.life", "you.life", engine=engine) == {(20, 20), (20, 18)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_702_19c_as_though_unblocked_at_a_planeswalker_past_its_loyalty(engine: str) -> None:
    """A blocked 5/5 with trample over planeswalkers and the ability, attacking a 3-loyalty
    planeswalker, blocked by Grizzly Bears: trample's assignments (2+ to the Bears first, the
    walker's controller only past its loyalty: none is left for A) or, as though unblocked, 5 to
    the walker or 4/1, 3/2 between it and A (510.1b with 702.19c). Both engines once refused the
    mix (cases/rulings/thorn-elemental-trample-over-planeswalkers.yaml lists the outcomes)."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: walker, name: Walker, controller: A, types: [planeswalker], loyalty: 3}
  - {id: t, name: Test Thorn, controller: you, types: [creature], power: 5, toughness: 5,
     keywords: [trample over planeswalkers], attacking: walker, abilities: [{as_unblocked: true, to: self}]}
  - {id: bears, card: Grizzly Bears, controller: A, blocking: t}
actions:
  - combat: {}
"""
    assert outcome_set(text, "A.life", "bears.damage", "walker.loyalty", engine=engine) == {
        (20, 5, 3), (20, 4, 2), (20, 3, 1), (20, 2, 0), (20, 0, 0), (19, 0, 0), (18, 0, 0)}
