"""Validation as a whole: every problem of a file reported, at the file's own paths; keywords
written among abilities; keywords accepted without effect (a warning, not an error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtg_outcomes.cli import main
from mtg_outcomes.model.errors import CaseErrors
from tests.helpers import case_from, outcome_set, problems

HEAD = """\
id: inline
players:
  - {name: A}
  - {name: you}
"""




def run_validate(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["validate", str(path)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    prefix = f"{path}: "
    return code, [line[len(prefix):] if line.startswith(prefix) else line for line in captured.out.splitlines() if line.strip()]


# ---- item: every problem is reported ---------------------------------------------------------

EVERY_PROBLEM = HEAD + """\
battlefield:
  - {id: giant, name: Hill Giant, controller: A, types: [creature], power: three, toughness: 3, attacking: you}
  - {id: w1, name: Wall, controller: you, types: [creature], power: 0, toughness: 4, blocking: nope}
  - {id: w2, name: Wall, controller: you, types: [creature], power: 0, toughness: 4, blocking: nope}
"""


def test_a_type_error_does_not_hide_reference_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run_validate(tmp_path, EVERY_PROBLEM, capsys)
    assert code == 2
    assert len(lines) == 3, lines
    assert lines[0].startswith("battlefield[0].power: ")
    assert lines[1:] == ["battlefield[1].blocking: unknown id 'nope'", "battlefield[2].blocking: unknown id 'nope'"]


def test_a_broken_player_still_counts_as_a_player() -> None:
    text = HEAD.replace("{name: you}", "{name: you, life: lots}") + """\
battlefield:
  - {id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2}
effects:
  - {id: s1, shield: 1, to: you, controller: you, source: ghost}
"""
    got = problems(text)
    assert [p for p, _ in got] == ["players[1].life", "effects[0].source"], got


def test_a_bad_top_level_value_does_not_hide_the_rest() -> None:
    text = HEAD + """\
format: modern
effects:
  - {id: s1, shield: 1, to: you, controller: you, source: ghost}
expect: {outcomes: [{you.life: 20}], exhaustive: true}
"""
    got = problems(text)
    assert [p for p, _ in got] == ["format", "expect.exhaustive", "effects[0].source"], got


# ---- item: error paths are the file's own ----------------------------------------------------

PATH_CASES = [
    ("static filter", "abilities: [{prevent: 1, to: you, from: ghost}]", "battlefield[0].abilities[0].from"),
    ("static rider", "abilities: [{prevent: 1, to: you, then: {deal: prevented, to: ghost}}]",
     "battlefield[0].abilities[0].then.to"),
    ("trigger do", "abilities: [{trigger: deals_damage, do: {deal: 1, to: ghost}}]", "battlefield[0].abilities[0].do.to"),
    ("trigger do may", "abilities: [{trigger: deals_damage, do: {may: {lose_life: 1, who: ghost}}}]",
     "battlefield[0].abilities[0].do.may.who"),
    ("trigger do source", "abilities: [{trigger: deals_damage, do: {deal: 1, to: A, from: ghost}}]",
     "battlefield[0].abilities[0].do.from"),
    ("activated", "abilities: [{activated: {shield: 1, to: ghost}}]", "battlefield[0].abilities[0].activated.to"),
    ("activated rider", "abilities: [{activated: {shield: X, to: you, then: {deal: prevented, to: ghost}}}]",
     "battlefield[0].abilities[0].activated.then.to"),
    ("activated one-shot", "abilities: [{activated: {deal: 1, to: ghost}, cost: [T]}]",
     "battlefield[0].abilities[0].activated.to"),
    ("selector list", "abilities: [{prevent: 1, to: [you, {types: [creature], colors: [purple]}]}]",
     "battlefield[0].abilities[0].to[1].colors"),
    ("condition", "abilities: [{prevent: all, to: you, if_you_control: [creatures, ghost]}]",
     "battlefield[0].abilities[0].if_you_control"),
    ("mana ability", "abilities: [{mana: {any_type_of: [lands, ghost]}, cost: [T]}]",
     "battlefield[0].abilities[0].mana.any_type_of"),
    ("keyword after a string keyword", "abilities: [lifelink, {prevent: 1, to: you, from: ghost}]",
     "battlefield[0].abilities[1].from"),
]


@pytest.mark.parametrize(("shape", "abilities", "path"), PATH_CASES, ids=[c[0] for c in PATH_CASES])
def test_error_paths_are_the_files_own(shape: str, abilities: str, path: str) -> None:
    text = HEAD + f"battlefield:\n  - {{id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2, {abilities}}}\n"
    got = problems(text)
    assert [p for p, _ in got] == [path], got


@pytest.mark.parametrize(("blocking", "want"), [
    ("[3]", [("battlefield[1].blocking[0]", "expected a valid string (got 3)")]),
    ("3", [("battlefield[1].blocking", "expected text or a list, got 3")]),
])
def test_union_errors_name_no_branch(blocking: str, want: list[tuple[str, str]]) -> None:
    """``blocking: <id> | [<ids>]``: the path never names a pydantic branch (``.constrained-str``),
    and the problem is one line."""
    text = HEAD + f"""\
battlefield:
  - {{id: bear, name: Bear, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}}
  - {{id: wall, name: Wall, controller: you, types: [creature], power: 0, toughness: 4, blocking: {blocking}}}
"""
    assert problems(text) == want


def test_one_shot_action_may_path() -> None:
    text = HEAD + """\
battlefield:
  - {id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2}
actions:
  - may: {deal: 1, to: ghost, from: bear}
"""
    assert [p for p, _ in problems(text)] == ["actions[0].may.to"]


# ---- item: numbers, ids and impossible states ------------------------------------------------

@pytest.mark.parametrize(("change", "path", "reason"), [
    ("actions: [{damage: [{from: bear, to: you, amount: '2'}]}]", "actions[0].damage[0].amount", "without quotes"),
    ("effects: [{id: s1, shield: '2', to: you, controller: you}]", "effects[0].shield", "without quotes"),
    ("effects: [{id: s1, shield: 2, to: you, controller: you, source: 4}]", "effects[0].source", "got 4"),
    ("effects: [{id: s1, shield: 2, to: you, controller: you, source: false}]", "effects[0].source", "got false"),
    ("actions: [{gain_life: {amount: 1, who: you, from: 2}}]", "actions[0].gain_life.from", "got 2"),
    ("actions: [{gain_life: {amount: 1, who: you, from: ghost}}]", "actions[0].gain_life.from", "unknown id 'ghost'"),
    ("actions: [{activate: {id: bear, source: 3}}]", "actions[0].activate.source", "got 3"),
    ("expect: {outcomes: [{you.life: '20'}]}", "expect.outcomes[0].you.life", "without quotes"),
    ("expect: {outcomes: [{bear.dies: 'no'}]}", "expect.outcomes[0].bear.dies", "true or false"),
])
def test_loose_types_are_errors(change: str, path: str, reason: str) -> None:
    text = HEAD + "battlefield:\n  - {id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2}\n" + change + "\n"
    got = problems(text)
    assert [p for p, _ in got] == [path], got
    assert reason in got[0][1]


def test_toughness_with_counters_and_entering_zero_toughness() -> None:
    """A 0/0 with +1/+1 counters is a legal starting state, and a 0/0 may enter during the actions
    (it then dies to state-based actions, 704.5f); only the starting battlefield is past them."""
    text = HEAD + """\
battlefield:
  - {id: ballista, card: Walking Ballista, controller: you, counters: {+1/+1: 2}}
actions:
  - enter: {id: b2, card: Walking Ballista, controller: you}
"""
    assert outcome_set(text, "ballista.dies", "b2.dies") == {(False, True)}
    with pytest.raises(CaseErrors) as exc:
        case_from(HEAD + "battlefield:\n  - {id: ballista, card: Walking Ballista, controller: you}\n")
    assert [(e.path, "704.5f" in e.reason) for e in exc.value.errors] == [("battlefield[0].card", True)]


def test_a_creature_needs_its_toughness() -> None:
    """No silent 0: an ad-hoc creature without toughness: would be a 0-toughness creature."""
    text = HEAD + "battlefield:\n  - {id: bear, name: Bear, controller: you, types: [creature], power: 2}\n"
    ((path, reason),) = problems(text)
    assert path == "battlefield[0]" and "704.5f" in reason and "give its toughness" in reason


# ---- item: keywords written among abilities --------------------------------------------------

def test_a_keyword_string_in_abilities_is_that_keyword() -> None:
    text = HEAD + """\
battlefield:
  - {id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2,
     abilities: [lifelink, toxic 2, {trigger: deals_damage, do: {draw: 1}}]}
  - {id: cub, name: Cub, controller: you, types: [creature], power: 2, toughness: 2, keywords: [lifelink, toxic 2]}
"""
    case = case_from(text)
    bear, cub = case.permanents
    assert bear.keywords == cub.keywords == ("lifelink", "toxic")
    assert bear.toxic == cub.toxic == 2
    assert [ab.kind for ab in bear.abilities] == ["keyword", "keyword", "trigger"]


def test_a_keyword_string_in_abilities_acts() -> None:
    """The lifelink written in abilities: gains life (702.15b), and the ability index after it is
    the file's own (``ability: 1``)."""
    text = HEAD + """\
battlefield:
  - id: pyro
    name: Pyromancer
    controller: you
    types: [creature]
    power: 1
    toughness: 1
    abilities: [lifelink, {activated: {deal: 1, to: target}, target: player, cost: [T]}]
actions:
  - activate: {id: pyro, ability: 1, target: A}
"""
    assert outcome_set(text, "A.life", "you.life") == {(19, 21)}


def test_an_unknown_keyword_string_lists_the_known_ones() -> None:
    text = HEAD + "battlefield:\n  - {id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2, abilities: [lifelnk]}\n"
    ((path, reason),) = problems(text)
    assert path == "battlefield[0].abilities[0]"
    assert "unknown keyword 'lifelnk'" in reason
    assert "lifelink" in reason and "toxic N" in reason and "first strike" in reason
    assert "accepted without effect: flash, vigilance" in reason
    # blocks are chosen and checked (CR 509.1): flying, reach, menace and defender have an effect
    assert "flying, haste" in reason and "menace, reach" in reason and "defender" in reason


# ---- item: keywords without effect here ------------------------------------------------------

FLYER = HEAD + """\
battlefield:
  - {id: hawk, name: Hawk, controller: A, types: [creature], power: 1, toughness: 1, keywords: [vigilance, lifelink, flying],
     abilities: [flash, menace], attacking: you}
  - {id: dictate, card: Dictate of the Twin Gods, controller: you}
actions:
  - combat: {}
"""


def test_validate_warns_of_keywords_without_effect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run_validate(tmp_path, FLYER, capsys)
    assert code == 0
    # the file's own vigilance and flash; not the library Dictate's flash, and not flying or
    # menace, which decide which blocks are legal (CR 702.9b, 702.111b)
    assert lines[:2] == [
        "battlefield[0].keywords[0]: warning: 'vigilance' has no effect in this tool; attacking doesn't tap creatures "
        "in this tool (CR 702.20)",
        "battlefield[0].abilities[0]: warning: 'flash' has no effect in this tool; when spells are cast isn't "
        "modelled (CR 702.8)",
    ]
    assert lines[2:] == ["1 case file valid"]


def test_enumerate_prints_the_warning_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "case.yaml"
    path.write_text(FLYER, encoding="utf-8")
    assert main(["enumerate", "--fields", "you.life,A.life", str(path)]) == 0
    captured = capsys.readouterr()
    assert "you.life=18" in captured.out and "warning" not in captured.out  # (Dictate doubles the 1)
    assert [line.split(": ")[1] for line in captured.err.splitlines()] == ["battlefield[0].keywords[0]", "battlefield[0].abilities[0]"]


def test_a_keyword_a_selector_reads_has_an_effect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A selector's ``without: flying`` ("each creature without flying") reads flying: no warning,
    and it matters."""
    text = HEAD + """\
battlefield:
  - {id: hawk, name: Hawk, controller: A, types: [creature], power: 1, toughness: 1, keywords: [flying]}
  - {id: bear, name: Bear, controller: A, types: [creature], power: 2, toughness: 2}
sources:
  - {id: quake, name: Quake, controller: you, types: [sorcery]}
effects:
  - {id: fog, prevent: all, to: {types: [creature], without: flying}, controller: A}
actions:
  - damage: [{from: quake, to: hawk, amount: 1}, {from: quake, to: bear, amount: 1}]
"""
    code, lines = run_validate(tmp_path, text, capsys)
    assert (code, lines) == (0, ["1 case file valid"])
    assert case_from(text).warnings == ()
    assert outcome_set(text, "hawk.dies", "bear.dies") == {(True, False)}
