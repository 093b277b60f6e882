"""Templates added for the coverage of real cards, each with a real card's Oracle text (from the
card data) and the abilities expected written by hand (tests/model/test_recognise.py's style)."""

from __future__ import annotations

from tests.helpers import reading

# --- discards (hands aren't tracked, CR 701.9) ----------------------------------------------------

def test_a_trigger_that_only_discards_is_ignored() -> None:
    """Abyssal Specter: "Flying" / "Whenever this creature deals damage to a player, that player discards a card.\""""
    r = reading("Abyssal Specter")
    assert r.abilities == [] and r.keywords == ["flying"]
    assert r.lines[1].status == "ignored" and "hands aren't tracked" in r.lines[1].reason


def test_then_discard_after_a_draw_is_dropped() -> None:
    """Senate Guildmage: "{W}, {T}: You gain 2 life." / "{U}, {T}: Draw a card, then discard a card.\""""
    r = reading("Senate Guildmage")
    assert r.abilities == [{"activated": {"gain_life": 2, "who": "you"}, "cost": ["W", "T"]},
                           {"activated": {"draw": 1, "who": "you"}, "cost": ["U", "T"]}]
    assert "then discard a card" in r.lines[1].reason


def test_if_you_do_discard_is_dropped() -> None:
    """Jeskai Elder: prowess / "Whenever this creature deals combat damage to a player, you may
    draw a card. If you do, discard a card.\""""
    r = reading("Jeskai Elder")
    assert r.abilities == [{"trigger": "cast", "spells": "noncreature", "do": {"pt": [1, 1], "to": "self"}},
                           {"trigger": "combat_damage_to_player", "do": {"may": {"draw": 1, "who": "you"}}}]


def test_a_spell_that_loots() -> None:
    """Broadside Barrage: "Broadside Barrage deals 5 damage to target creature or planeswalker. Draw a card, then discard a card.\""""
    assert reading("Broadside Barrage").abilities == [
        {"spell": {"deal": 5, "to": "target"}, "target": ["creatures", "planeswalkers"]},
        {"spell": {"draw": 1, "who": "you"}}]


# --- sacrificing itself (CR 701.21a) ----------------------------------------------------------------

def test_sacrifice_at_the_end_step() -> None:
    """Ball Lightning: "Trample" / "Haste" / "At the beginning of the end step, sacrifice Ball Lightning.\""""
    r = reading("Ball Lightning")
    assert r.abilities == [{"trigger": "end_step", "do": {"sacrifice": "self"}}]
    assert r.keywords == ["trample", "haste"]


def test_sacrifice_after_an_activation() -> None:
    """Goblin Cannon: "{2}: This artifact deals 1 damage to any target. Sacrifice this artifact.\""""
    assert reading("Goblin Cannon").abilities == [
        {"activated": [{"deal": 1, "to": "target"}, {"sacrifice": "self"}], "target": "any", "cost": [2]}]


def test_sacrificing_ignores_indestructible_and_fires_dies_triggers() -> None:
    """Goblin Boom Keg at your upkeep: sacrificed (701.21a), its "put into a graveyard" trigger deals 3."""
    from tests.helpers import outcome_set

    got = outcome_set("""
players: [{name: you}, {name: A}]
battlefield:
  - {id: keg, card: Goblin Boom Keg, controller: you, keywords: [indestructible]}
actions:
  - upkeep: {}
""", "keg.dies", "A.life", "you.life")
    assert got == {(True, 17, 20), (True, 20, 17)}


def test_sacrifice_names_only_itself() -> None:
    import pytest

    from mtg_outcomes.model.errors import CaseError
    from mtg_outcomes.model.vocab import parse_one_shot

    with pytest.raises(CaseError):
        parse_one_shot({"sacrifice": "creatures"}, "x")


# --- exile, return to hand, tap (400.7, 701.26a) -----------------------------------------------------

def test_exile_target_and_gain() -> None:
    """Vraska's Contempt: "Exile target creature or planeswalker. You gain 2 life.\""""
    assert reading("Vraska's Contempt").abilities == [
        {"spell": {"exile": "target"}, "target": ["creatures", "planeswalkers"]},
        {"spell": {"gain_life": 2, "who": "you"}}]


def test_return_to_owners_hand() -> None:
    """Witch Hunter: "{T}: ... 1 damage to target player or planeswalker." / "{1}{W}{W}, {T}: Return
    target creature an opponent controls to its owner's hand.\""""
    assert reading("Witch Hunter").abilities[1] == {
        "activated": {"return_to_hand": "target"}, "target": "creatures an opponent controls", "cost": [1, "W", "W", "T"]}


def test_tap_target() -> None:
    """Rishadan Port: "{T}: Add {C}." / "{1}, {T}: Tap target land.\""""
    assert reading("Rishadan Port").abilities == [
        {"mana": ["C"], "cost": ["T"]}, {"activated": {"tap": "target"}, "target": "land", "cost": [1, "T"]}]


def test_tapped_by_an_ability_cant_pay_its_tap_cost() -> None:
    """A tapped Prodigal Pyromancer can't activate its {T} ability (602.2, 107.5)."""
    from tests.helpers import outcome_set

    got = outcome_set("""
players: [{name: you}, {name: A}]
battlefield:
  - {id: port, card: Rishadan Port, controller: you}
  - {id: pyro, name: Test Pinger, controller: A, types: [land], abilities: [{activated: {deal: 1, to: opponents}, cost: [T]}]}
actions:
  - activate: {id: port, target: pyro}
  - activate: {id: pyro}
""", "you.life")
    assert got == {(20,)}


def test_exile_and_bounce_leave_without_dying() -> None:
    from tests.helpers import outcome_set

    base = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: fiend, card: Footlight Fiend, controller: you}
actions:
  - cast: {card: CARD, controller: A, target: fiend}
"""
    # no dies trigger: nobody is dealt 1; Vraska's Contempt gains A 2, Unsummon nothing
    assert outcome_set(base.replace("CARD", "Vraska's Contempt"), "fiend.dies", "A.life", "you.life") == {(False, 22, 20)}
    assert outcome_set(base.replace("CARD", "Unsummon"), "fiend.dies", "A.life", "you.life") == {(False, 20, 20)}


def test_milling_is_ignored() -> None:
    """Excavation Mole: "Trample" / "When this creature enters, mill three cards." (libraries and
    graveyards' contents aren't tracked, CR 701.17)."""
    r = reading("Excavation Mole")
    assert r.abilities == [] and r.keywords == ["trample"]
    assert r.lines[1].status == "ignored" and "mill" in r.lines[1].reason


# --- "during your turn" (611.3a, 500.1) -------------------------------------------------------------

def test_during_your_turn_first_strike() -> None:
    """Duelist of Deep Faith: "Toxic 1" / "During your turn, this creature has first strike.\""""
    r = reading("Duelist of Deep Faith")
    assert r.abilities == [{"grant": ["first strike"], "to": "self", "if_your_turn": True}]
    assert r.keywords == ["toxic 1"]


def test_during_your_turn_equipment() -> None:
    """Knife: "During your turn, equipped creature gets +1/+0 and has first strike." / "{2}, Sacrifice
    this Equipment: Draw a card." / "Equip {2}\""""
    assert reading("Knife").abilities == [
        {"pt": [1, 0], "grant": ["first strike"], "to": "equipped creature", "if_your_turn": True},
        {"activated": {"draw": 1, "who": "you"}, "cost": [2, {"sacrifice": "self"}]}]


def test_not_on_an_opponents_turn() -> None:
    """A's turn: the Duelist blocks A's Bears without first strike; both die."""
    from tests.helpers import outcome_set

    base = """
players: [{name: you}, {name: A}]
active: ACTIVE
battlefield:
  - {id: duelist, card: Duelist of Deep Faith, controller: you, blocking: bears}
  - {id: bears, card: Grizzly Bears, controller: A, attacking: you}
actions:
  - combat: {}
"""
    assert outcome_set(base.replace("ACTIVE", "A"), "duelist.dies", "bears.dies") == {(True, True)}


# --- more target phrases (115.1) --------------------------------------------------------------------

def test_target_creature_or_planeswalker_an_opponent_controls() -> None:
    """Careless Celebrant: "When this creature dies, it deals 2 damage to target creature or
    planeswalker an opponent controls.\""""
    assert reading("Careless Celebrant").abilities == [
        {"trigger": "dies", "target": ["creatures an opponent controls", "planeswalkers an opponent controls"],
         "do": {"deal": 2, "to": "target"}}]


def test_destroy_target_nonbasic_land() -> None:
    """Wasteland: "{T}: Add {C}." / "{T}, Sacrifice this land: Destroy target nonbasic land.\""""
    assert reading("Wasteland").abilities == [
        {"mana": ["C"], "cost": ["T"]},
        {"activated": {"destroy": "target"}, "target": "nonbasic lands", "cost": ["T", {"sacrifice": "self"}]}]


# --- untap (701.26b), no untap step in a case (502.3) -------------------------------------------------

def test_untap_self_and_no_untap_step() -> None:
    """Basalt Monolith: "This artifact doesn't untap during your untap step." / "{T}: Add {C}{C}{C}." /
    "{3}: Untap this artifact.\""""
    r = reading("Basalt Monolith")
    assert r.lines[0].status == "ignored" and "no untap step" in r.lines[0].reason
    assert r.abilities == [{"mana": ["C", "C", "C"], "cost": ["T"]}, {"activated": {"untap": "self"}, "cost": [3]}]


def test_untap_target_land() -> None:
    """Deserted Temple: "{T}: Add {C}." / "{1}, {T}: Untap target land.\""""
    assert reading("Deserted Temple").abilities == [
        {"mana": ["C"], "cost": ["T"]}, {"activated": {"untap": "target"}, "target": "land", "cost": [1, "T"]}]


def test_untapped_can_pay_its_tap_cost_again() -> None:
    """A tapped pinger untapped by Deserted Temple can activate its {T} ability."""
    from tests.helpers import outcome_set

    got = outcome_set("""
players: [{name: you}, {name: A}]
battlefield:
  - {id: temple, card: Deserted Temple, controller: A}
  - {id: pyro, name: Test Pinger, controller: A, types: [land], tapped: true, abilities: [{activated: {deal: 1, to: opponents}, cost: [T]}]}
actions:
  - activate: {id: temple, target: pyro}
  - activate: {id: pyro}
""", "you.life")
    assert got == {(19,)}


# --- "It ..." after a spell's target is that target (608.2c) ------------------------------------------

def test_it_after_a_target_is_the_target() -> None:
    """Essence Infusion: "Put two +1/+1 counters on target creature. It gains lifelink until end of
    turn." ("It" is the target creature, never the spell itself)."""
    assert reading("Essence Infusion").abilities == [
        {"spell": {"put_counters": {"+1/+1": 2}, "to": "target"}, "target": "creature"},
        {"spell": {"grant": ["lifelink"], "to": "target"}}]
    from tests.helpers import outcome_set

    got = outcome_set("""
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you, attacking: A}
actions:
  - cast: {card: Essence Infusion, controller: you, target: bears}
  - combat: {}
""", "A.life", "you.life")
    assert got == {(16, 24)}


# --- redirection to the creature an Aura or Equipment is attached to (CR 614.9) --------------------

def test_redirect_to_enchanted_or_equipped_creature() -> None:
    """Pariah: "All damage that would be dealt to you is dealt to enchanted creature instead."
    Pariah's Shield: the same to equipped creature (its "Equip {3}" is ignored: attached_to: says it)."""
    assert reading("Pariah").abilities == [{"redirect": "enchanted creature", "to": "you"}]
    shield = reading("Pariah's Shield")
    assert shield.abilities == [{"redirect": "equipped creature", "to": "you"}]
    assert shield.lines[1].status == "ignored"


def test_next_time_damage_to_it_is_dealt_to_any_target() -> None:
    """Mirrorwood Treefolk: "{2}{R}{W}: The next time damage would be dealt to this creature this
    turn, that damage is dealt to any target instead." (a next-time redirection from any source)."""
    assert reading("Mirrorwood Treefolk").abilities == [
        {"activated": {"redirect": "target", "next_time": True, "to": "self"}, "cost": [2, "R", "W"], "target": "any"}]


def test_next_time_damage_to_it_or_you_is_dealt_to_any_target() -> None:
    """Glarecaster: "{5}{W}: The next time damage would be dealt to this creature and/or you this
    turn, that damage is dealt to any target instead." (both recipients, one next time)."""
    assert reading("Glarecaster").abilities == [
        {"activated": {"redirect": "target", "next_time": True, "to": ["self", "you"]}, "cost": [5, "W"], "target": "any"}]


# --- a source of your choice (CR 609.7a, 615.1a, 615.8) ----------------------------------------------

def test_prevent_all_damage_a_source_of_your_choice_would_deal() -> None:
    """Pay No Heed: "Prevent all damage a source of your choice would deal this turn." Not a
    next-time shield: every damage of the chosen source this turn, to anything."""
    assert reading("Pay No Heed").abilities == [
        {"spell": {"prevent": "all", "source_choice": "chosen_source", "duration": "turn"}}]


def test_prevent_all_damage_a_red_source_of_your_choice_would_deal() -> None:
    """Burrenton Forge-Tender: "Sacrifice this creature: Prevent all damage a red source of your
    choice would deal this turn." (its first line, protection from red, is a keyword)."""
    assert reading("Burrenton Forge-Tender").abilities[-1] == {
        "activated": {"prevent": "all", "source_choice": "chosen_source", "duration": "turn", "from": "red sources"},
        "cost": [{"sacrifice": "self"}]}


def test_prevent_all_damage_dealt_to_you_by_a_source_of_your_choice() -> None:
    """Consulate Surveillance: "Pay {E}{E}: Prevent all damage that would be dealt to you this turn
    by a source of your choice.\""""
    assert reading("Consulate Surveillance").abilities[-1] == {
        "activated": {"prevent": "all", "source_choice": "chosen_source", "duration": "turn", "to": "you"},
        "cost": [{"pay_energy": 2}]}


def test_next_time_a_black_or_red_source_either_colour() -> None:
    """Greater Realm of Preservation: "a black or red source of your choice": either colour."""
    assert reading("Greater Realm of Preservation").abilities == [
        {"activated": {"shield": "all", "next_time": True, "from": ["black sources", "red sources"],
                       "source_choice": "chosen_source", "to": "you"}, "cost": [1, "W"]}]


def test_next_time_a_red_source_without_to_you_is_damage_to_anything() -> None:
    """Pilgrim of Justice: "{W}, Sacrifice this creature: The next time a red source of your choice
    would deal damage this turn, prevent that damage." (no recipient: any)."""
    assert reading("Pilgrim of Justice").abilities[-1] == {
        "activated": {"shield": "all", "next_time": True, "from": "red sources", "source_choice": "chosen_source"},
        "cost": ["W", {"sacrifice": "self"}]}


def test_next_time_an_artifact_source() -> None:
    """Circle of Protection: Artifacts: "an artifact source of your choice" is a type, not a colour."""
    assert reading("Circle of Protection: Artifacts").abilities == [
        {"activated": {"shield": "all", "next_time": True, "from": {"types": ["artifact"]},
                       "source_choice": "chosen_source", "to": "you"}, "cost": [2]}]


def test_next_time_prevent_half_rounded_down() -> None:
    """Dark Sphere: "... prevent half that damage, rounded down." is a next-time prevention of half."""
    assert reading("Dark Sphere").abilities == [
        {"activated": {"next_time": True, "to": "you", "source_choice": "chosen_source", "prevent": "half_down"},
         "cost": ["T", {"sacrifice": "self"}]}]


# --- damage that can't be prevented (CR 615.12) ------------------------------------------------------

def test_a_spells_closing_the_damage_cant_be_prevented() -> None:
    """Combust: "Combust deals 5 damage to target white or blue creature. The damage can't be
    prevented." The effect comes before the damage, so it applies to it."""
    assert reading("Combust").abilities == [
        {"cant_be_countered": True},
        {"spell": {"cant_be_prevented": True, "from": "self", "duration": "turn"}},
        {"spell": {"deal": 5, "to": "target"}, "target": {"types": ["creature"], "colors": ["white", "blue"]}}]


def test_combat_damage_cant_be_prevented() -> None:
    """Everlasting Torment's "Damage can't be prevented." and Questing Beast's "Combat damage that
    would be dealt by creatures you control can't be prevented.\""""
    assert {"cant_be_prevented": True} in reading("Everlasting Torment").abilities
    from mtg_outcomes.model.carddata import find
    from mtg_outcomes.model.recognise import read_face

    beast = read_face(find("Questing Beast").face)  # (its evasion and trigger lines aren't read)
    assert {"cant_be_prevented": True, "combat": True, "from": "creatures you control"} in beast.abilities


def test_prevent_all_damage_to_creatures_and_to_attacking_creatures_you_control() -> None:
    """Bubble Matrix: "Prevent all damage that would be dealt to creatures."; Dolmen Gate: "Prevent
    all combat damage that would be dealt to attacking creatures you control.\""""
    assert reading("Bubble Matrix").abilities == [{"prevent": "all", "to": "creatures"}]
    assert reading("Dolmen Gate").abilities == [
        {"prevent": "all", "to": {"controller": "you", "types": ["creature"], "in_combat": ["attacking"]}, "combat": True}]
