"""Witnesses and their explanation: forced steps, actions that can't happen, unambiguous names.

Every outcome's witness is replayed through the rules engine (solver.explain); the forced steps
(an only legal option, CR 615.7's "prevents as much as it can") and the actions the rules forbid
(an activation without a legal target, CR 601.2c) come back in order with the choices.
"""

from __future__ import annotations

from mtg_outcomes import enumerate_outcomes, optimize
from mtg_outcomes.decision import CHOICE, EVENT, FORCED, NOT_DONE
from mtg_outcomes.explain import replay
from mtg_outcomes.model import load_case

from ..conftest import ROOT
from ..helpers import case_from

CASES = ROOT / "cases"


def test_no_legal_target_is_said_in_the_witness() -> None:
    case = load_case(CASES / "seeds" / "vengeful-archon-no-legal-target.yaml")
    [outcome] = enumerate_outcomes(case).outcomes
    steps = replay(case, outcome).steps
    assert [(s.kind, "no legal target" in s.words and "601.2c" in s.words) for s in steps if s.kind != EVENT] \
        == [(NOT_DONE, True)]


def test_forced_shield_take_is_explained_after_the_choice() -> None:
    case = load_case(CASES / "seeds" / "vengeful-archon-scroll-thief-split.yaml")
    outcomes = enumerate_outcomes(case, fields=["A.cards_drawn"]).outcomes
    by_draw = {o.values["A.cards_drawn"]: replay(case, o).steps for o in outcomes}
    no_card = by_draw[0]
    no_card = [s for s in no_card if s.kind != EVENT]
    assert [s.kind for s in no_card] == [CHOICE, FORCED]
    assert "Scroll Thief" in no_card[0].words and "prevents 1" in no_card[0].words
    # the rest of the shield must go to the Mastodon: a shield prevents as much as it can (615.7)
    assert "Siege Mastodon" in no_card[1].words and "prevents 2" in no_card[1].words
    assert no_card[1].rule == "615.7" and no_card[0].rule == "615.7" and no_card[0].who == "you"


def test_cp_witnesses_replay_with_the_same_explanation() -> None:
    case = load_case(CASES / "seeds" / "vengeful-archon-scroll-thief-split.yaml")
    graph = {o.state: replay(case, o).steps for o in enumerate_outcomes(case, engine="graph").outcomes}
    cp = {o.state: replay(case, o).steps for o in enumerate_outcomes(case, engine="cp").outcomes}
    assert graph == cp


def test_replayed_fields_are_the_outcome() -> None:
    case = load_case(CASES / "rulings" / "circle-of-protection-red-source-is-a-choice.yaml")
    for o in enumerate_outcomes(case).outcomes:
        assert tuple(sorted(replay(case, o).fields.items())) == o.state


def test_optimal_line_replays() -> None:
    from mtg_outcomes.model.objective import parse_objective_text

    case = load_case(CASES / "seeds" / "vengeful-archon-scroll-thief-combat.yaml")
    res = optimize(case, parse_objective_text(["you: [maximize you.life, minimize A.cards_drawn]"]))
    [best] = res.outcomes
    words = [s.words for s in replay(case, best).steps if s.kind == CHOICE]
    assert words == ["you apply Vengeful Archon's shield on you (3 left) to Scroll Thief's 1 damage to you: it prevents 1"]


TWO_GIANTS = """
players: [{name: A}, {name: you}]
battlefield:
  - {id: pg1, card: Palisade Giant, controller: you}
  - {id: pg2, card: Palisade Giant, controller: you}
  - {id: beast, name: Beast, controller: A, types: [creature], power: 8, toughness: 8}
actions:
  - damage: [{from: beast, to: you, amount: 8, combat: true}]
"""


def test_repeated_names_carry_the_id() -> None:
    """Two Palisade Giants: each witness says which Giant was applied first."""
    words = {w for o in enumerate_outcomes(case_from(TWO_GIANTS)).outcomes for w in o.words}
    assert words == {"you apply Palisade Giant (pg1) first to Beast's 8 damage to you",
                     "you apply Palisade Giant (pg2) first to Beast's 8 damage to you"}


def test_the_log_does_not_split_states() -> None:
    """Forced-step notes ride along the state but are not part of it: states still merge."""
    from mtg_outcomes.decision import note
    from mtg_outcomes.state import initial_state

    state, _ = initial_state(case_from(TWO_GIANTS))
    noted = note(state, "something forced")
    assert noted == state and hash(noted) == hash(state) and noted.log != state.log
