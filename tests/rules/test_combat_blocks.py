"""Blocks as a choice (CR 509.1): ``combat: {blocks: choose}`` and ``blocking: choose``.

Each defending player's declaration is one decision with one option per legal declaration;
flying / reach (702.9b, 702.17b), menace (702.111b), tapped creatures (509.1a) and protection
from a player (702.16k) restrict it; the blocks chosen give the state the same blocks written
with ``blocking:`` give; ``optimize`` picks among declarations. The counts below are by hand.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from mtg_outcomes import enumerate_outcomes, optimize
from mtg_outcomes.cp import cp_supported
from mtg_outcomes.engine import Decision, advance
from mtg_outcomes.model import load_case, parse_case
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.objective import parse_objective_text
from mtg_outcomes.state import initial_state

from ..conftest import CASES
from ..helpers import case_from, outcome_set, problems

HEAD = """\
id: inline
players:
  - {name: A}
  - {name: you}
"""
GIANT = "  - {id: giant, name: Hill Giant, controller: A, types: [creature], power: 3, toughness: 3, attacking: you}\n"
HAWK = "  - {id: hawk, name: Hawk, controller: A, types: [creature], power: 1, toughness: 1, keywords: [flying], attacking: you}\n"
BRUTE = "  - {id: brute, name: Brute, controller: A, types: [creature], power: 3, toughness: 2, keywords: [menace], attacking: you}\n"
BEAR = "  - {id: bear, card: Grizzly Bears, controller: you}\n"
SPIDER = "  - {id: spider, name: Spider, controller: you, types: [creature], power: 2, toughness: 4, keywords: [reach]}\n"
WALL = "  - {id: wall, name: Wall, controller: you, types: [creature], power: 0, toughness: 4}\n"
ELF = "  - {id: elf, card: Llanowar Elves, controller: you}\n"
CHOOSE = "actions:\n  - combat: {blocks: choose}\n"


def first_decision(text: str) -> Decision:
    state, table = initial_state(case_from(text))
    res = advance(state, table)
    assert isinstance(res, Decision)
    return res


def picks(text: str) -> list[str]:
    d = first_decision(text)
    assert (d.kind, d.at) == ("block", "declare blockers")
    return [o.picked for o in d.options]




# ---- legal declarations -----------------------------------------------------------------------


def test_flying_can_be_blocked_only_by_flying_or_reach_and_tapped_creatures_dont_block() -> None:
    """Bears: none or the Giant; the reach Spider: none, Giant or Hawk (702.9b, 702.17b); the
    tapped Elves can't block (509.1a): 2 x 3 = 6 declarations, named by blocker id."""
    text = HEAD + "battlefield:\n" + GIANT + HAWK + BEAR + SPIDER + ELF.replace("}", ", tapped: true}") + CHOOSE
    assert picks(text) == [
        "bear->none; spider->none", "bear->none; spider->giant", "bear->none; spider->hawk",
        "bear->giant; spider->none", "bear->giant; spider->giant", "bear->giant; spider->hawk",
    ]
    # the Bears never take the Hawk's damage: it dies only to the Spider
    assert (1, False) not in outcome_set(text, "bear.damage", "spider.damage")


def test_menace_needs_two_or_more_blockers() -> None:
    """Three possible blockers on one creature with menace: 2^3 = 8 subsets, less the 3 single
    blocks (702.111b) = 5 declarations."""
    text = HEAD + "battlefield:\n" + BRUTE + BEAR + ELF + WALL + CHOOSE
    assert picks(text) == [
        "bear->none; elf->none; wall->none", "bear->none; elf->brute; wall->brute",
        "bear->brute; elf->none; wall->brute", "bear->brute; elf->brute; wall->none",
        "bear->brute; elf->brute; wall->brute",
    ]


def test_no_potential_blocker_is_a_forced_step() -> None:
    text = HEAD + "battlefield:\n" + GIANT + WALL.replace("}", ", tapped: true}") + CHOOSE
    result = enumerate_outcomes(case_from(text), engine="graph")
    (only,) = result.outcomes
    assert only.values["you.life"] == 17
    from mtg_outcomes.explain import replay

    steps = [(s.kind, s.words) for s in replay(case_from(text), only).steps]
    assert ("forced", "you declare no blockers: the only legal option") in steps


def test_protection_from_a_player_forbids_that_players_blockers() -> None:
    """702.16k: a creature with protection from you (its controller's opponents) can't be blocked by
    creatures you control."""
    text = HEAD + "battlefield:\n" + GIANT.replace("}", ", abilities: [{protection: {from_player: opponents}, to: self}]}") \
        + BEAR + CHOOSE
    state, table = initial_state(case_from(text))
    res = advance(state, table)
    assert not isinstance(res, Decision)  # only "no blockers": a forced step, not a decision
    assert outcome_set(text, "you.life", "bear.damage") == {(17, 0)}


def test_blocking_choose_chooses_only_that_creature() -> None:
    """The Wall blocks the Thief as written; only the Bears' block is chosen: none, Giant or Thief."""
    text = HEAD + "battlefield:\n" + GIANT + "  - {id: thief, card: Scroll Thief, controller: A, attacking: you}\n" \
        + BEAR.replace("}", ", blocking: choose}") + WALL.replace("}", ", blocking: thief}") + "actions:\n  - combat: {}\n"
    d = first_decision(text)
    assert [o.picked for o in d.options] == ["bear->none", "bear->giant", "bear->thief"]
    for o in d.options:
        wall = o.state.perm("wall")
        assert wall is not None and wall.blocking == ("thief",)
    # the Thief is blocked in every outcome: A never draws
    assert {v for (v,) in outcome_set(text, "A.cards_drawn")} == {0}
    assert outcome_set(text, "you.life") == {(17,), (20,)}


def test_a_written_block_on_menace_forces_the_chosen_one() -> None:
    path = CASES / "rulings" / "boggart-brute-menace-chosen-second-blocker.yaml"
    state, table = initial_state(load_case(path))
    res = advance(state, table)
    assert isinstance(res, Decision) and res.kind == "assign"  # the block was no decision
    assert any("you block Boggart Brute with Grizzly Bears: the only legal option" in s.words for s in res.log)


def test_each_defending_player_declares_in_apnap_order() -> None:
    """Multiplayer: A attacks you and B; each blocks only what attacks them (509.1a), you first."""
    text = """\
id: inline
players:
  - {name: A}
  - {name: you}
  - {name: B}
battlefield:
  - {id: giant, name: Hill Giant, controller: A, types: [creature], power: 3, toughness: 3, attacking: you}
  - {id: ogre, name: Ogre, controller: A, types: [creature], power: 2, toughness: 2, attacking: B}
  - {id: bear, card: Grizzly Bears, controller: you}
  - {id: wall, name: Wall, controller: B, types: [creature], power: 0, toughness: 4}
actions:
  - combat: {blocks: choose}
"""
    d = first_decision(text)
    assert d.chooser == "you" and [o.picked for o in d.options] == ["bear->none", "bear->giant"]
    state, table = initial_state(case_from(text))
    nxt = advance(d.options[0].state, table)
    assert isinstance(nxt, Decision) and nxt.chooser == "B" and [o.picked for o in nxt.options] == ["wall->none", "wall->ogre"]
    assert outcome_set(text, "you.life", "B.life") == {(17, 18), (17, 20), (20, 18), (20, 20)}


def test_two_headed_giant_team_declares_together() -> None:
    """810.7: a defending team's creatures block any creature attacking that team; one decision."""
    text = """\
id: inline
format: two-headed-giant
players:
  - {name: A, team: 1}
  - {name: C, team: 1}
  - {name: you, team: 2}
  - {name: B, team: 2}
battlefield:
  - {id: giant, name: Hill Giant, controller: A, types: [creature], power: 3, toughness: 3, attacking: you}
  - {id: bear, card: Grizzly Bears, controller: you}
  - {id: wall, name: Wall, controller: B, types: [creature], power: 0, toughness: 4}
actions:
  - combat: {blocks: choose}
"""
    d = first_decision(text)
    assert d.chooser == "you"
    assert [o.picked for o in d.options] == ["bear->none; wall->none", "bear->none; wall->giant",
                                             "bear->giant; wall->none", "bear->giant; wall->giant"]
    assert outcome_set(text, "team2.life") == {(27,), (30,)}


def test_too_many_declarations_is_an_error_not_a_hang() -> None:
    attackers = "".join(f"  - {{id: a{i}, name: Ogre, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}}\n"
                        for i in range(6))
    blockers = "".join(f"  - {{id: b{i}, card: Grizzly Bears, controller: you}}\n" for i in range(7))
    text = HEAD + "battlefield:\n" + attackers + blockers + CHOOSE
    with pytest.raises(EngineError, match="823543 block declarations"):
        enumerate_outcomes(case_from(text), engine="graph")


# ---- the chosen state is the written state ----------------------------------------------------


def _written(data: dict[str, Any], blocks: dict[str, str]) -> dict[str, Any]:
    """The same case with ``blocks`` written as blocking: and a plain combat: {}."""
    out = copy.deepcopy(data)
    for perm in out["battlefield"]:
        perm.pop("blocking", None)
        if perm["id"] in blocks:
            perm["blocking"] = blocks[perm["id"]]
    out["actions"] = [{"combat": {}} if "combat" in a else a for a in out["actions"]]
    out.pop("expect", None)
    out.pop("objective", None)
    return out


@pytest.mark.parametrize("name", ["giant-spider-reach-blocks-flyer", "boggart-brute-menace-two-blockers",
                                  "healing-salve-block-the-thief"])
def test_chosen_blocks_equal_written_blocks_on_both_engines(name: str) -> None:
    """Each declaration's state is the written case's initial state (blocking, blocked), and the
    graph's outcomes with the choice are the union, over the declarations, of the CP engine's
    outcomes for the blocks written (CP doesn't express the choice itself)."""
    path = CASES / "rulings" / f"{name}.yaml"
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    case = load_case(path)
    state, table = initial_state(case)
    d = advance(state, table)
    assert isinstance(d, Decision)
    fields = sorted({k for o in case.expect.outcomes for k, _ in o})  # type: ignore[union-attr]
    union: set[tuple[Any, ...]] = set()
    for opt in d.options:
        blocks = {b: a for b, a in (p.split("->") for p in opt.picked.split("; ")) if a != "none"}
        written = parse_case(_written(data, blocks), "<written>")
        wstate, _ = initial_state(written)
        assert opt.state.perms == wstate.perms
        assert cp_supported(written) is None
        res = enumerate_outcomes(written, engine="cp", fields=fields)
        union |= {tuple(o.values.get(f) for f in fields) for o in res.outcomes}
    graph = enumerate_outcomes(case, engine="graph", fields=fields)
    assert {tuple(o.values.get(f) for f in fields) for o in graph.outcomes} == union


def test_cp_solves_the_damage_step_after_each_block_declaration_and_auto_uses_the_graph() -> None:
    """509.1: the declaration is a choice before the damage step; the CP engine solves the step
    from each declaration's state (solver.cp.prefix), so it finds the graph's outcomes, each
    witness starting with the declaration. The step is small: auto keeps the graph."""
    case = load_case(CASES / "rulings" / "healing-salve-block-the-thief.yaml")
    assert cp_supported(case) is None
    cp = enumerate_outcomes(case, engine="cp")
    graph = enumerate_outcomes(case, engine="graph")
    assert cp.complete and {o.state for o in cp.outcomes} == {o.state for o in graph.outcomes}
    assert all(o.witness and o.witness[0].kind == "block" for o in cp.outcomes)
    assert enumerate_outcomes(case, engine="auto").engine == "graph"


def test_identical_blockers_are_not_merged_but_a_projection_merges_their_outcomes() -> None:
    """Two Grizzly Bears: swapping them is a different declaration (their ids are in the outcome),
    so both are offered; on fields that name neither, the outcomes coincide."""
    text = HEAD + "battlefield:\n" + GIANT + BEAR + BEAR.replace("bear", "bear2") + CHOOSE
    assert len(picks(text)) == 4  # none, one or the other, both
    full = enumerate_outcomes(case_from(text), engine="graph")
    assert len(full.outcomes) > len(enumerate_outcomes(case_from(text), engine="graph", fields=["you.life"]).outcomes)
    assert outcome_set(text, "you.life") == {(17,), (20,)}


def test_a_scripted_block_replays_one_declaration() -> None:
    text = (CASES / "rulings" / "healing-salve-block-the-thief.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    data["choices"] = {"you": ["bear->giant"]}
    result = enumerate_outcomes(parse_case(data, "<inline>"), engine="graph", fields=["bear.dies", "you.life"])
    assert [o.values for o in result.outcomes] == [{"bear.dies": True, "you.life": 20}]


# ---- optimize ---------------------------------------------------------------------------------


def test_optimize_blocks_the_small_attacker_and_says_the_block_matters() -> None:
    """Healing Salve's shield covers the Giant's 3, so the best block is the Thief, not the
    biggest attacker: no life lost, no card, the Bears live."""
    case = load_case(CASES / "rulings" / "healing-salve-block-the-thief.yaml")
    assert case.objective is not None
    best = optimize(case, case.objective, engine="graph", fields=["you.life", "A.cards_drawn", "bear.dies"])
    assert [o.values for o in best.outcomes] == [{"A.cards_drawn": 0, "bear.dies": False, "you.life": 20}]
    block = best.decisions[0]
    assert (block.chooser, block.kind, block.at) == ("you", "block", "declare blockers")
    assert block.best == ["bear->thief"] and block.matters
    assert block.options == ["bear->none", "bear->giant", "bear->thief"]
    # with life alone, chumping the Giant is as good: the Bears' survival is what decides
    life = optimize(case, parse_objective_text(["you: maximize you.life"]), engine="graph")
    assert life.decisions[0].best == ["bear->giant", "bear->thief"]


def test_the_attacker_divides_after_the_defender_blocks() -> None:
    """Objectives per player: you block to keep the Bears, A divides to kill them."""
    case = load_case(CASES / "rulings" / "boggart-brute-menace-two-blockers.yaml")
    obj = parse_objective_text(["you: [maximize you.life, minimize bear.dies]", "A: maximize bear.dies"])
    best = optimize(case, obj, engine="graph", fields=["you.life", "bear.dies", "brute.dies"])
    assert [o.values for o in best.outcomes] == [{"bear.dies": True, "brute.dies": True, "you.life": 20}]
    kinds = [(d.chooser, d.kind) for d in best.decisions]
    assert kinds[0] == ("you", "block") and ("A", "assign") in kinds


# ---- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(("combat", "path", "reason"), [
    ("{blocks: all}", "actions[0].combat.blocks", "blocks: takes only choose"),
    ("{blocks: choose, order: 1}", "actions[0].combat.order", "unknown key"),
    ("[choose]", "actions[0].combat", "expected combat: {} or combat: {blocks: choose}"),
])
def test_combat_options_are_checked(combat: str, path: str, reason: str) -> None:
    ((p, r),) = problems(HEAD + "battlefield:\n" + GIANT + BEAR + f"actions:\n  - combat: {combat}\n")
    assert p == path and reason in r


def test_written_blocks_are_checked_against_flying_and_menace() -> None:
    flyer = HEAD + "battlefield:\n" + HAWK + BEAR.replace("}", ", blocking: hawk}") + "actions:\n  - combat: {}\n"
    ((p, r),) = problems(flyer)
    assert p == "battlefield[1].blocking" and "702.9b" in r
    reach = HEAD + "battlefield:\n" + HAWK + SPIDER.replace("}", ", blocking: hawk}") + "actions:\n  - combat: {}\n"
    assert outcome_set(reach, "hawk.dies") == {(True,)}
    one = HEAD + "battlefield:\n" + BRUTE + BEAR.replace("}", ", blocking: brute}") + "actions:\n  - combat: {}\n"
    ((p, r),) = problems(one)
    assert p == "battlefield[1].blocking" and "702.111b" in r
    # with another creature's block still to choose, the whole declaration is checked when it is
    # made: the Elves must join the Bears (the only legal option, a forced step)
    chosen = HEAD + "battlefield:\n" + BRUTE + BEAR.replace("}", ", blocking: brute}") + ELF.replace("}", ", blocking: choose}") \
        + "actions:\n  - combat: {}\n"
    state, table = initial_state(case_from(chosen))
    res = advance(state, table)
    assert isinstance(res, Decision) and res.kind == "assign"
    assert [s.words for s in res.log if s.kind != "event"] == ["you block Brute with Llanowar Elves: the only legal option"]


@pytest.mark.parametrize(("battlefield", "path", "reason"), [
    (GIANT.replace("}", ", keywords: [defender]}"), "battlefield[0].attacking", "702.3b"),
    ("  - {id: aura, name: Aura, controller: you, types: [enchantment], blocking: choose}\n",
     "battlefield[0].blocking", "is not a creature and can't block"),
    (GIANT + BEAR.replace("}", ", blocking: [choose, giant]}"), "battlefield[1].blocking[0]", "choose stands alone"),
    (GIANT + BEAR.replace("}", ", attacking: A, blocking: choose}"), "battlefield[1].blocking", "both attack and block"),
])
def test_blocking_vocabulary_is_checked(battlefield: str, path: str, reason: str) -> None:
    found = problems(HEAD + "battlefield:\n" + battlefield + "actions:\n  - combat: {}\n")
    assert any(p == path and reason in r for p, r in found), found


def test_blocks_choose_with_a_written_block_is_an_error() -> None:
    ((p, r),) = problems(HEAD + "battlefield:\n" + GIANT + BEAR.replace("}", ", blocking: giant}") + CHOOSE)
    assert p == "battlefield[1].blocking" and "actions[0].combat: combat: {blocks: choose} chooses every block" in r


def test_a_block_of_a_creature_attacking_someone_else_is_an_error() -> None:
    text = """\
id: inline
players:
  - {name: A}
  - {name: you}
  - {name: B}
battlefield:
  - {id: giant, name: Hill Giant, controller: A, types: [creature], power: 3, toughness: 3, attacking: you}
  - {id: wall, name: Wall, controller: B, types: [creature], power: 0, toughness: 4, blocking: giant}
actions:
  - combat: {}
"""
    ((p, r),) = problems(text)
    assert p == "battlefield[1].blocking" and "509.1a" in r


def test_an_entering_creature_is_not_written_blocking() -> None:
    text = HEAD + "battlefield:\n" + GIANT + "actions:\n  - enter: {id: bear, card: Grizzly Bears, controller: you, blocking: giant}\n" \
        "  - combat: {}\n"
    ((p, r),) = problems(text)
    assert p == "actions[0].enter.blocking" and "blocking: choose" in r
    # but its block may be chosen: it is on the battlefield when blockers are declared
    chosen = text.replace("blocking: giant", "blocking: choose")
    assert outcome_set(chosen, "you.life") == {(17,), (20,)}


def test_a_creature_attacking_your_planeswalker_can_be_blocked_by_your_creature() -> None:
    """506.2, 509.1a: you defend your planeswalker; the block saves its loyalty."""
    text = HEAD + "battlefield:\n" \
        "  - {id: jaya, name: Jaya, controller: you, types: [planeswalker], loyalty: 5}\n" \
        + GIANT.replace("attacking: you", "attacking: jaya") + BEAR + CHOOSE
    assert picks(text) == ["bear->none", "bear->giant"]
    assert outcome_set(text, "jaya.loyalty", "bear.dies") == {(2, False), (5, True)}


def test_a_chosen_first_strike_blocker_makes_two_damage_steps() -> None:
    """510.4 is read after blockers are declared: a first-strike blocker kills the 2/2 first."""
    text = HEAD + "battlefield:\n" \
        "  - {id: ogre, name: Ogre, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}\n" \
        "  - {id: knight, name: Knight, controller: you, types: [creature], power: 2, toughness: 2, keywords: [first strike]}\n" \
        + CHOOSE
    assert outcome_set(text, "you.life", "ogre.dies", "knight.dies") == {(18, False, False), (20, True, False)}


def test_a_chosen_block_with_nothing_to_block_says_so() -> None:
    """Multiplayer: B is not attacked, so B's creature blocks nothing (509.1a), a forced step."""
    text = """\
id: inline
players:
  - {name: A}
  - {name: you}
  - {name: B}
battlefield:
  - {id: giant, name: Hill Giant, controller: A, types: [creature], power: 3, toughness: 3, attacking: you}
  - {id: wall, name: Wall, controller: B, types: [creature], power: 0, toughness: 4, blocking: choose}
actions:
  - combat: {}
"""
    result = enumerate_outcomes(case_from(text), engine="graph")
    (only,) = result.outcomes
    from mtg_outcomes.explain import replay

    words = [s.words for s in replay(case_from(text), only).steps]
    assert "Wall blocks nothing: no creature attacks B or what they control (509.1a)" in words
    # the active player's creatures declare no blocks at all: an error
    bad = text.replace("controller: B, types: [creature], power: 0", "controller: A, types: [creature], power: 0")
    ((p, r),) = problems(bad)
    assert p == "battlefield[1].blocking" and "A is the active player" in r


def test_509_1_a_real_cards_block_restriction_refuses_chosen_blocks() -> None:
    """Goblin Raider's "This creature can't block." is ignored while blocks are written, but a
    case that lets its blocks be chosen would offer it as a blocker: refused, naming the line."""
    import pytest

    from mtg_outcomes.model import CaseErrors, parse_case

    data = {"id": "raider", "players": [{"name": "A"}, {"name": "you"}],
            "battlefield": [{"id": "bear", "card": "Grizzly Bears", "controller": "A", "attacking": "you"},
                            {"id": "raider", "card": "Goblin Raider", "controller": "you"}],
            "actions": [{"combat": {"blocks": "choose"}}]}
    with pytest.raises(CaseErrors, match="Goblin Raider: \"This creature can't block.\" restricts attacks or blocks"):
        parse_case(data)
    written = {**data, "actions": [{"combat": {}}]}
    assert parse_case(written).id == "raider"  # blocks as written: nothing to honour


# ------------------------------------------------------------- interchangeable blockers (solver.symmetry)

SOLDIERS = "".join(f"  - {{id: s{i}, name: Soldier, controller: you, types: [creature], power: 1, toughness: 1}}\n"
                   for i in range(4))


def _soldiers_case(extra: str = "") -> Any:
    return case_from(HEAD + "battlefield:\n" + GIANT + BRUTE + HAWK + SOLDIERS + extra
                     + "actions:\n  - combat: {blocks: choose}\n")


def _projected(case: Any, fields: list[str]) -> set[tuple[Any, ...]]:
    """The outcomes of the unmerged graph (every field), projected on ``fields`` by hand."""
    full = enumerate_outcomes(case, engine="graph")
    return {tuple(o.values.get(f) for f in fields) for o in full.outcomes}


def test_identical_blockers_are_merged_on_fields_that_cant_tell_them_apart() -> None:
    """Four identical 1/1s against a 3/3, a menace 3/2 and a flier: 3^4 = 81 ways to assign them
    (none, giant, brute; nobody can block the flier), of which the menace rule (702.111b) leaves
    81 - 4·2^3 = 49 (exactly one on the brute is illegal); up to swaps of the soldiers that is
    the multisets of size 4 over {none, giant, brute} with the brute's count not 1: 15 - 4 = 11.
    The outcomes on fields that name no soldier are the same either way."""
    case = _soldiers_case()
    fields = ["you.life", "giant.dies", "brute.dies", "giant.damage", "brute.damage"]
    merged = enumerate_outcomes(case, engine="graph", fields=fields)
    assert {tuple(o.values[f] for f in fields) for o in merged.outcomes} == _projected(case, fields)
    _, table = initial_state(case)
    table.interchangeable = (("s0", "s1", "s2", "s3"),)
    state, _ = initial_state(case)
    res = advance(state, table)
    assert isinstance(res, Decision) and len(res.options) == 11
    res_all = advance(*initial_state(case))
    assert isinstance(res_all, Decision) and len(res_all.options) == 49


def test_blockers_a_field_or_the_case_names_are_not_merged() -> None:
    from mtg_outcomes.symmetry import interchangeable_blockers

    case = _soldiers_case()
    assert interchangeable_blockers(case, ["you.life"]) == (("s0", "s1", "s2", "s3"),)
    assert interchangeable_blockers(case, None) == ()  # every field: each soldier's own tell them apart
    assert interchangeable_blockers(case, ["you.life", "s2.dies"]) == (("s0", "s1", "s3"),)
    named = _soldiers_case("effects:\n  - {id: p, prevent: 1, to: s1, controller: you}\n")
    assert interchangeable_blockers(named, ["you.life"]) == (("s0", "s2", "s3"),)
    fields = ["you.life", "giant.dies", "brute.dies"]
    merged = enumerate_outcomes(named, engine="graph", fields=fields)
    assert {tuple(o.values[f] for f in fields) for o in merged.outcomes} == _projected(named, fields)


def test_optimize_merges_blockers_its_objective_and_fields_dont_name() -> None:
    case = _soldiers_case()
    objective = parse_objective_text(["you: [maximize you.life, minimize giant.damage]"])
    fields = ["you.life", "brute.dies"]
    merged = optimize(case, objective, engine="graph", fields=fields)
    full = optimize(case, objective, engine="graph")
    assert {o.state for o in merged.outcomes} == {tuple(sorted((f, o.values[f]) for f in fields)) for o in full.outcomes}
    assert merged.stats["nodes"] < full.stats["nodes"]


SIEGE = """
players:
  - {name: A}
  - {name: B}
battlefield:
  - {id: siege, name: Invasion, controller: A, %s types: [battle], subtypes: [Siege], defense: 5}
  - {id: abear, card: Grizzly Bears, controller: A, attacking: siege}
  - {id: bbear, card: Grizzly Bears, controller: B}
actions:
  - combat: {blocks: choose}
"""


def test_310_8a_a_sieges_protector_is_an_opponent_and_defends_it() -> None:
    """Its controller may attack the Siege; its protector's creatures block (506.2, 509.1a)."""
    found = dict(problems(SIEGE % ""))  # with no protector written, it would be its controller, A
    assert "310.8a" in found["battlefield[0].protector"] and "508.1b" in found["battlefield[1].attacking"]
    [(path, reason)] = problems(SIEGE % "protector: Zed,")
    assert path == "battlefield[0].protector" and "not a player" in reason
    got = outcome_set(SIEGE % "protector: B,", "siege.defense", "abear.dies", "bbear.dies")
    assert got == {(3, False, False), (5, True, True)}


def test_508_1b_a_creature_cant_attack_what_its_controller_defends() -> None:
    text = """
players:
  - {name: A}
  - {name: B}
battlefield:
  - {id: walker, name: Walker, controller: A, types: [planeswalker], loyalty: 3}
  - {id: bear, card: Grizzly Bears, controller: A, attacking: walker}
actions:
  - combat: {}
"""
    [(path, reason)] = problems(text)
    assert path == "battlefield[1].attacking" and "508.1b" in reason


def test_510_1a_a_creature_may_assign_damage_by_its_toughness() -> None:
    """Doran's "each creature assigns combat damage equal to its toughness": the opponent's
    blocker too; the graph and CP agree (CP reads the division before its batch)."""
    text = """
players:
  - {name: A}
  - {name: B}
battlefield:
  - {id: doran, name: Doran, controller: A, types: [creature], power: 0, toughness: 5, abilities: [{assigns_by_toughness: true, to: creatures}], attacking: B}
  - {id: wall, name: Wall, controller: B, types: [creature], power: 0, toughness: 4, keywords: [defender]}
  - {id: bear, card: Grizzly Bears, controller: A, attacking: B}
actions:
  - combat: {blocks: choose}
"""
    for engine in ("graph", "cp"):
        got = outcome_set(text, "B.life", "wall.dies", "doran.damage", "bear.dies", engine=engine)
        assert got == {(13, False, 0, False), (15, False, 0, True), (18, True, 4, False)}
