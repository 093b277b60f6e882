"""601.2i: once a spell is cast, its caster's "whenever you cast" abilities trigger, and they
resolve before it, however its targets were chosen (one target, one or more of one requirement
with divided damage, two targets of their own requirements, a target per chosen mode, kicked).
Guttersnipe: "Whenever you cast an instant or sorcery spell, this creature deals 2 damage to
each opponent." Outcomes derived by hand: A starts at 20 and takes Guttersnipe's 2 as well as
the spell's damage."""

from __future__ import annotations

import pytest

from tests.helpers import outcome_set

BOARD = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: snipe, card: Guttersnipe, controller: you}
  - {id: bears, card: Grizzly Bears, controller: A}
  - {id: drake, card: Wind Drake, controller: A}
actions:
  - cast: CAST
"""

# (the cast, A's life, whether the Bears die, whether the Drake dies)
SPELLS = [
    ("{card: Shock, controller: you, target: A}", 16, False, False),
    # 601.2d: 2 damage divided between two targets, at least 1 each: 1 and 1
    ("{card: Forked Bolt, controller: you, targets: [A, bears]}", 17, False, False),
    ("{card: Forked Bolt, controller: you, targets: [A]}", 16, False, False),
    ("{card: Lunge, controller: you, targets: [bears, A]}", 16, True, False),
    ("{card: Branching Bolt, controller: you, modes: [1, 2], targets: [drake, bears]}", 18, True, True),
    ("{card: Burst Lightning, controller: you, target: A, kicked: true}", 14, False, False),
]


@pytest.mark.parametrize("engine", ["graph", "cp"])
@pytest.mark.parametrize(("cast", "life", "bears", "drake"), SPELLS)
def test_601_2i_a_cast_trigger_whatever_the_targets(engine: str, cast: str, life: int, bears: bool, drake: bool) -> None:
    got = outcome_set(BOARD.replace("CAST", cast), "A.life", "bears.dies", "drake.dies", engine=engine)
    assert got == {(life, bears, drake)}


def test_601_2i_the_cast_trigger_resolves_before_the_spell() -> None:
    """The trigger is put on the stack above Forked Bolt and resolves first: A, at 2 life, loses
    to Guttersnipe's 2 (704.5a) and the game ends (104.2a) before the Bolt deals the Bears
    anything. Had the Bolt resolved first, the Bears would have been dealt 2."""
    text = BOARD.replace("CAST", "{card: Forked Bolt, controller: you, targets: [bears]}").replace("{name: A}", "{name: A, life: 2}")
    assert outcome_set(text, "A.life", "A.lost", "bears.damage") == {(0, True, 0)}
