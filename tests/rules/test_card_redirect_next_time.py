""""The next time a source of your choice would deal damage ... this turn, that damage is dealt
to ... instead." (Reflect Damage, Jade Monolith, Beacon of Destiny; CR 614.9, 615.9, 609.7a): a
redirection of the chosen source's next damage, used up once it has applied; both engines, the
real cards' readings (card data), outcomes derived by hand."""

from __future__ import annotations

import pytest

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.model.errors import CaseErrors, EngineError
from tests.helpers import both_engines, case_from

BEACON = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: beacon, card: Beacon of Destiny, controller: you}
sources:
  - {id: orb, name: Orb, controller: A, types: [artifact], colors: []}
actions:
  - activate: {id: beacon, source: orb}
  - damage: [{from: orb, to: you, amount: 2}]
  - damage: [{from: orb, to: you, amount: 2}]
"""




def test_614_9_the_next_time_only() -> None:
    """Beacon of Destiny (1/3) takes the Orb's first 2 to you; the second 2 is dealt to you: the
    redirection was used up by its first time (615.8's "next instance", as for a shield)."""
    assert both_engines(BEACON, "beacon.damage", "you.life") == {(2, 18)}


def test_614_9_the_chosen_sources_damage_only() -> None:
    """Damage from another source isn't redirected and doesn't use it up (615.9)."""
    text = BEACON.replace("  - damage: [{from: orb, to: you, amount: 2}]\n  - damage",
                          "  - damage: [{from: imp, to: you, amount: 1}]\n  - damage")
    text = text.replace("sources:\n", "sources:\n  - {id: imp, name: Imp, controller: A, types: [artifact], colors: []}\n")
    assert both_engines(text, "beacon.damage", "you.life") == {(2, 19)}


def test_614_9_damage_to_several_at_once_is_refused() -> None:
    """A source of your choice dealing damage to two recipients at once: which of them is the
    redirection's next time isn't settled (one event or all of them), so it is an error, not an
    answer picked by the order the events are taken in."""
    text = BEACON.replace("  - damage: [{from: orb, to: you, amount: 2}]\n  - damage: [{from: orb, to: you, amount: 2}]",
                          "  - damage: [{from: orb, to: you, amount: 2}, {from: orb, to: A, amount: 2}]")
    text = text.replace("card: Beacon of Destiny, controller: you}",
                        "name: Opal Guard, controller: you, types: [creature], power: 1, toughness: 3, "
                        "abilities: [{activated: {redirect: self, next_time: true, source_choice: chosen_source}, cost: [T]}]}")
    for engine in ("graph", "cp"):
        with pytest.raises(EngineError, match="next-time redirection"):
            enumerate_outcomes(case_from(text), engine=engine)


def test_a_redirection_names_one_recipient_and_next_time_is_not_static() -> None:
    """A group (opponents) can't be dealt redirected damage: an error, not a redirection that
    does nothing; "the next time" on a static ability would never be used up (615.8)."""
    bad = BEACON.replace("card: Beacon of Destiny, controller: you}",
                         "name: Wall, controller: you, types: [enchantment], abilities: [{redirect: opponents}]}")
    with pytest.raises(CaseErrors, match="a redirection names the one permanent or player"):
        case_from(bad)
    static = BEACON.replace("card: Beacon of Destiny, controller: you}",
                            "name: Wall, controller: you, types: [enchantment], abilities: [{redirect: self, next_time: true}]}")
    with pytest.raises(CaseErrors, match="next_time is an effect a resolving spell or ability creates"):
        case_from(static)


GLARECASTER = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: glare, card: Glarecaster, controller: you}
sources:
  - {id: quake, name: Quake, controller: A, types: [sorcery], colors: [red]}
actions:
  - activate: {id: glare, target: A}
  - damage: [DAMAGE]
"""


def test_glarecaster_the_next_time_to_it_or_you() -> None:
    """Glarecaster ("to this creature and/or you"): damage to you alone is dealt to the target
    (A); damage to both at once would be two events its one next time meets, which is refused,
    in both engines, rather than guessed."""
    alone = GLARECASTER.replace("DAMAGE", "{from: quake, to: you, amount: 2}")
    assert both_engines(alone, "A.life", "you.life", "glare.damage") == {(18, 20, 0)}
    both = GLARECASTER.replace("DAMAGE", "{from: quake, to: you, amount: 2}, {from: quake, to: glare, amount: 2}")
    for engine in ("graph", "cp"):
        with pytest.raises(EngineError, match="next-time redirection"):
            enumerate_outcomes(case_from(both), engine=engine)
