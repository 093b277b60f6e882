"""Damage that can't be dealt instead to another permanent or player (614.9) and can't be
prevented (615.12), for the recipients named: Lava Burst's rider, read from the real card, against
redirection and prevention; outcomes by hand, both engines."""

from __future__ import annotations

from tests.helpers import both_engines, reading


def test_lava_burst_is_read_with_its_rider() -> None:
    assert reading("Lava Burst").abilities == [
        {"spell": {"cant_be_prevented": True, "from": "self", "to": "creatures", "duration": "turn"}},
        {"spell": {"cant_be_redirected": True, "from": "self", "to": "creatures", "duration": "turn"}},
        {"spell": {"deal": "X", "to": "target"}, "target": "any"}]


BURST = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: giant, card: Hill Giant, controller: A}
  - {id: bears, card: Grizzly Bears, controller: you}
effects:
  - {id: turn, controller: A, redirect: bears, to: giant}
  - {id: fog, controller: A, prevent: all, to: [giant, A]}
actions:
  - cast: {id: burst, card: Lava Burst, controller: you, target: TARGET, x: 3}
"""


def test_614_9_a_redirection_doesnt_apply_to_a_creatures_damage() -> None:
    """A's effects: the Giant's damage dealt to your Bears instead, all damage to the Giant and A
    prevented. Lava Burst's 3 to the Giant is neither (it dies); its 3 to A is prevented."""
    assert both_engines(BURST.replace("TARGET", "giant"), "giant.dies", "bears.dies", "A.life") == {(True, False, 20)}
    assert both_engines(BURST.replace("TARGET", "A"), "giant.dies", "bears.dies", "A.life") == {(False, False, 20)}


def test_without_the_rider_the_redirection_applies() -> None:
    text = BURST.replace("card: Lava Burst, controller: you, ", "").replace("actions:", "sources:\n  - {id: burst, name: Test Burst, "
                         "controller: you, types: [sorcery], colors: [red], abilities: [{spell: {deal: X, to: target}, "
                         "target: any}]}\nactions:")
    # A orders the two effects on Test Burst's 3 to the Giant (616.1): prevented first, nothing is
    # dealt; redirected first (614.9), the Bears are dealt 3 (the prevention no longer applies) and die
    assert both_engines(text.replace("TARGET", "giant"), "giant.dies", "bears.dies", "A.life") == {
        (False, False, 20), (False, True, 20)}
