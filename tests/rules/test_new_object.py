"""400.7: a permanent that leaves and returns is a new object; 609.7a: a source of your choice
is chosen among objects that exist as the effect is created."""

from __future__ import annotations

from mtg_outcomes import enumerate_outcomes

from ..helpers import case_from

BOARD = """
players:
  - {name: A}
  - {name: B}
battlefield:
  - {id: bears, card: Grizzly Bears, controller: A}
sources:
  - {id: salve, name: Salve, controller: A, types: [instant], colors: [white]}
  - {id: spark, name: Spark, controller: B, types: [instant], colors: [red]}
effects: %s
actions:
%s  - damage: [{from: spark, to: bears, amount: 3}]
"""
SHIELD = "{id: s, shield: 3, to: bears, controller: A, source: salve}"
BACK = "  - leave: bears\n  - enter: {id: bears, card: Grizzly Bears, controller: A}\n"


def _outcomes(text: str, *fields: str, engine: str = "graph") -> set[tuple[object, ...]]:
    result = enumerate_outcomes(case_from(text), engine=engine)
    assert result.complete
    return {tuple(o.values.get(f) for f in fields) for o in result.outcomes}


def test_400_7_a_shield_on_a_permanent_that_returned_doesnt_apply() -> None:
    for engine in ("graph", "cp"):
        assert _outcomes(BOARD % (f"[{SHIELD}]", BACK), "bears.dies", "s.remaining", engine=engine) == {(True, 3)}
        assert _outcomes(BOARD % (f"[{SHIELD}]", ""), "bears.dies", "s.remaining", engine=engine) == {(False, 0)}


def test_400_7_an_effect_created_after_the_return_applies() -> None:
    assert _outcomes(BOARD % ("[]", BACK + f"  - create: {SHIELD}\n"), "bears.dies", "s.remaining") == {(False, 0)}


CIRCLE = """
players:
  - {name: B}
  - {name: A}
battlefield:
  - {id: cop, card: "Circle of Protection: Red", controller: A}
actions:
%s
"""


def test_609_7a_a_spell_is_a_source_choice_only_while_on_the_stack() -> None:
    before = "  - activate: {id: cop}\n  - cast: {card: Lightning Bolt, controller: B, target: A}"
    during = "  - cast: {card: Lightning Bolt, controller: B, target: A, responses: [{activate: {id: cop}}]}"
    after = "  - cast: {card: Lightning Bolt, controller: B, target: A}\n  - activate: {id: cop}"
    assert _outcomes(CIRCLE % before, "A.life") == {(17,)}
    assert _outcomes(CIRCLE % during, "A.life") == {(20,)}
    assert _outcomes(CIRCLE % after, "A.life") == {(17,)}


def test_609_7a_naming_a_spell_not_yet_cast_as_the_source_is_an_error() -> None:
    import pytest

    from mtg_outcomes.model.errors import EngineError

    text = CIRCLE % "  - activate: {id: cop, source: bolt}\n  - cast: {id: bolt, target: A}"
    text = text.replace("actions:", "sources:\n  - {id: bolt, card: Lightning Bolt, controller: B}\nactions:")
    with pytest.raises(EngineError, match="a spell is a choice only while on the stack"):
        enumerate_outcomes(case_from(text))
