"""What the recogniser ignores because it can't change a damage answer (hidden zones, casting
costs, attack and block restrictions where blocks are written), and what it must not ignore."""

from __future__ import annotations

from mtg_outcomes.model.recognise import read_text

from ..helpers import problems


def _statuses(text: str, types: list[str]) -> list[str]:
    return [r.status for r in read_text(text, "Foo", types).lines]


def test_untargeted_hidden_zone_sentences_are_dropped() -> None:
    r = read_text("Foo deals 2 damage to any target. Each player discards a card.", "Foo", ["sorcery"]).lines[0]
    assert r.status == "understood" and "hands and graveyards aren't tracked" in r.reason
    assert _statuses("When Foo enters, return target creature card from your graveyard to your hand.", ["creature"]) == ["ignored"]
    assert _statuses("When Foo dies, search your library for a basic land card, reveal it, put it into your hand, "
                     "then shuffle.", ["creature"]) == ["ignored"]


def test_what_can_change_an_answer_is_not_ignored() -> None:
    # to the battlefield: a creature enters
    assert _statuses("When Foo enters, return target creature card from your graveyard to the battlefield.",
                     ["creature"]) == ["not understood"]
    # a targeted graveyard sentence beside damage: the spell's resolution depends on its targets (608.2b)
    assert _statuses("Foo deals 2 damage to any target. Return target creature card from your graveyard to your hand.",
                     ["sorcery"]) == ["not understood"]
    # dash returns the creature to a hand at the end step: it leaves the battlefield
    assert _statuses("Dash {2}{R}", ["creature"]) == ["not understood"]


def test_cost_keywords() -> None:
    assert _statuses("Spectacle {R}", ["sorcery"]) == ["ignored"]
    assert _statuses("Escape—{R}{R}, Exile eight other cards from your graveyard.", ["creature"]) == ["ignored"]
    evoke = read_text("Evoke—Exile a red card from your hand.", "Foo", ["creature"]).lines[0]
    assert evoke.status == "ignored" and evoke.on_entering  # its sacrifice trigger, for one entering


def test_a_block_restriction_is_refused_when_blocks_are_chosen() -> None:
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: beast, card: Questing Beast, controller: you, attacking: A}
  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2, blocking: choose}
actions:
  - combat: {}
"""
    assert any("can't be blocked by creatures with power 2 or less" in reason for _, reason in problems(text))
