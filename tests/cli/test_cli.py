"""The command line: validate, enumerate (text, --json, --fields, --graph), check, python -m mtg_outcomes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mtg_outcomes.cli import main

from ..conftest import ROOT

CASES = ROOT / "cases"
DICTATE = CASES / "rulings" / "dictate-of-the-twin-gods-griffin-order.yaml"
BAD = ROOT / "tests" / "bad_inputs"

INCOMPLETE_CASE = """\
id: dictate-griffin-incomplete
title: "Dictate of the Twin Gods and a Griffin shield, with only one of the two orders"
source: "tests/cli/test_cli.py: deliberately incomplete ruling"
format: standard
players:
  - {name: A}
  - {name: you, life: 20}
battlefield:
  - {id: dictate, card: Dictate of the Twin Gods, controller: A}
  - {id: griffin, card: Decorated Griffin, controller: you}
  - {id: giant, name: Hill Giant, controller: A, types: [creature], colors: [red], power: 3, toughness: 3}
effects:
  - {id: g1, shield: 1, to: you, combat: true, controller: you, source: griffin}
actions:
  - damage: [{from: giant, to: you, amount: 3, combat: true}]
expect:
  complete: true
  outcomes:
    - {you.life: 16}
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_validate_shipped_cases(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "validate", str(CASES))
    assert code == 0, out + err
    assert "valid" in out


def test_enumerate_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "enumerate", str(DICTATE))
    assert code == 0
    assert "2 distinct outcomes" in out
    assert "you.life=16" in out and "you.life=15" in out


def test_enumerate_json_shape_and_determinism(capsys: pytest.CaptureFixture[str]) -> None:
    code, first, _ = run(capsys, "enumerate", "--json", str(DICTATE))
    assert code == 0
    code2, second, _ = run(capsys, "enumerate", "--json", str(DICTATE))
    assert code2 == 0
    assert first == second, "enumerate --json must be byte-identical across runs"
    data = json.loads(first)
    assert set(data) == {"case", "engine", "complete", "outcomes", "stats", "rules_version", "card_data_version"}
    assert data["case"] == "dictate-of-the-twin-gods-griffin-order"
    assert data["complete"] is True
    assert len(data["outcomes"]) == 2
    for outcome in data["outcomes"]:
        assert {"state", "paths", "witness"} <= set(outcome)
        assert isinstance(outcome["paths"], int) and outcome["paths"] >= 1
        assert list(outcome["state"]) == sorted(outcome["state"])
        assert outcome["witness"], "each outcome here needs one choice"
        for step in outcome["witness"]:
            assert set(step) == {"chooser", "kind", "at", "picked"}
    assert sorted(o["state"]["you.life"] for o in data["outcomes"]) == [15, 16]


def test_enumerate_fields_projects(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "enumerate", "--fields", "you.life", str(DICTATE))
    assert code == 0
    assert "you.life=15" in out and "you.life=16" in out
    assert "g1.remaining" not in out and "you.life_lost" not in out

    code, out, _ = run(capsys, "enumerate", "--json", "--fields", "you.life", str(DICTATE))
    assert code == 0
    states = [o["state"] for o in json.loads(out)["outcomes"]]
    assert sorted(states, key=lambda s: s["you.life"]) == [{"you.life": 15}, {"you.life": 16}]


@pytest.mark.parametrize("suffix", [".dot", ".graphml"])
def test_enumerate_graph_export(suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / f"out{suffix}"
    code, _, _ = run(capsys, "enumerate", "--graph", str(target), str(DICTATE))
    assert code == 0
    assert target.is_file() and target.stat().st_size > 0
    text = target.read_text(encoding="utf-8")
    assert ("digraph" in text) if suffix == ".dot" else ("<graphml" in text)


def test_check_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A directory is every case file in it, with a summary line. (Three rulings: every shipped
    case's expect: is checked by tests/shipped/test_shipped.py and test_cp.py, each on its own; checking
    all 433 rulings again here took one worker minutes.)"""
    names = ("healing-salve-block-the-thief", "first-strike-kills-blocker-first", "boros-reckoner-two-blockers")
    for name in names:
        (tmp_path / f"{name}.yaml").write_bytes((CASES / "rulings" / f"{name}.yaml").read_bytes())
    code, out, err = run(capsys, "check", str(tmp_path))
    assert code == 0, out + err
    assert out.count("OK") >= 3
    assert out.splitlines()[-1] == "3 OK (3 cases)"  # the summary line


def test_check_invalid_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", str(BAD / "blocker-not-creature.yaml"))
    assert code == 2
    assert "ERROR" in out + err


def test_check_incomplete_expectation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "incomplete.yaml"
    case.write_text(INCOMPLETE_CASE, encoding="utf-8")
    code, out, err = run(capsys, "check", str(case))
    assert code == 1, out + err
    assert "INCOMPLETE" in out
    assert "you.life=15" in out  # the outcome the ruling misses


def test_python_dash_m_help() -> None:
    proc = subprocess.run([sys.executable, "-m", "mtg_outcomes", "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "validate" in proc.stdout and "enumerate" in proc.stdout and "check" in proc.stdout


# ---------------------------------------------------------------------------------------------
# no silent wrong answer: field typos, --graph with CP, --explain

SPLIT = CASES / "seeds" / "vengeful-archon-scroll-thief-split.yaml"
COMBAT = CASES / "seeds" / "vengeful-archon-scroll-thief-combat.yaml"


@pytest.mark.parametrize("command", ["enumerate", "optimize"])
def test_unknown_field_is_an_error_with_a_suggestion(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    extra = ["--objective", "you: maximize you.life"] if command == "optimize" else []
    code, out, err = run(capsys, command, str(SPLIT), "--fields", "you.lfie", *extra)
    assert code == 2 and out == ""
    assert err.strip() == (f"{SPLIT}: fields: 'you.lfie': unknown player field 'lfie' (one of life, poison, "
                           "life_lost, life_gained, cards_drawn, damage_taken, lost, mana, energy, monarch); did you mean "
                           "you.life or you.life_lost or you.lost?")


def test_unknown_objective_field_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "optimize", str(COMBAT), "--objective", "you: maximize thief.dyes")
    assert code == 2
    assert "objective: 'thief.dyes': unknown permanent field 'dyes'" in err and "did you mean thief.dies" in err


@pytest.mark.parametrize("objective, reason", [
    ("You: maximize you.life", "objective.You: 'You' is not a player (players: A, you)"),
    (": maximize you.life", "--objective: expected 'CHOOSER: maximize FIELD'"),
    ("you: [maximize you.life, ", "--objective you: expected '[maximize FIELD, ...]'"),
    ("you: " + "[" * 5000, "--objective you: expected '[maximize FIELD, ...]'"),
])
def test_a_bad_command_line_objective_is_one_line_exit_2(objective: str, reason: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # a chooser who isn't a player used to be read by no one: the other players' goals decided
    code, out, err = run(capsys, "optimize", str(COMBAT), "--objective", objective)
    assert code == 2 and reason in err and "Traceback" not in err + out


def test_an_objective_chooser_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "optimize", str(COMBAT), "--objective", "you: maximize you.life",
                       "--objective", "you: minimize you.life")
    assert code == 2 and "given twice" in err


def test_unknown_field_in_the_python_api() -> None:
    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.model import CaseErrors, load_case

    with pytest.raises(CaseErrors, match="did you mean A.cards_drawn"):
        enumerate_outcomes(load_case(SPLIT), fields=["A.cards_drawnn"])


TEN = """\
id: ten
players: [{name: A}, {name: you, life: 40}]
battlefield:
""" + "".join(f"  - {{id: b{i}, name: Bruiser, controller: A, types: [creature], power: 5, toughness: 5, attacking: you}}\n"
              for i in range(10)) + """\
effects:
  - {id: s, shield: 20, to: you, controller: you}
actions:
  - combat: {}
"""


def test_graph_is_written_when_auto_picks_cp(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "ten.yaml"
    case.write_text(TEN, encoding="utf-8")
    target = tmp_path / "g.dot"
    code, out, err = run(capsys, "enumerate", str(case), "--graph", str(target), "--max-nodes", "300")
    assert code == 0 and "(cp engine, complete)" in out
    assert "built separately by the graph engine" in err and "PARTIAL" in err
    text = target.read_text(encoding="utf-8")
    assert text.startswith("digraph") and "PARTIAL" in text and "cut here" in text


def test_graph_with_the_cp_engine_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "g.dot"
    code, out, err = run(capsys, "enumerate", str(SPLIT), "--engine", "cp", "--graph", str(target))
    assert code == 2 and out == "" and "--graph: the CP engine builds no choice graph" in err
    assert not target.exists()


def test_graph_file_is_checked_before_solving(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "enumerate", str(SPLIT), "--graph", str(tmp_path / "no" / "g.dot"))
    assert code == 2 and "is not a directory" in err and "Traceback" not in err


def test_explain_lists_forced_steps(capsys: pytest.CaptureFixture[str]) -> None:
    code, plain, _ = run(capsys, "enumerate", str(SPLIT), "--fields", "A.cards_drawn")
    assert code == 0 and "only legal option" not in plain
    code, out, _ = run(capsys, "enumerate", str(SPLIT), "--fields", "A.cards_drawn", "--explain")
    assert code == 0
    assert ("- (you apply Vengeful Archon's shield on you (2 left) to Siege Mastodon's 3 damage to you: it prevents 2: "
            "the only legal option, CR 615.7)") in out
    code, out, _ = run(capsys, "enumerate", str(SPLIT), "--fields", "A.cards_drawn", "--explain", "--json")
    explained = {o["state"]["A.cards_drawn"]: o["explain"] for o in json.loads(out)["outcomes"]}
    assert [s["kind"] for s in explained[0] if s["kind"] != "event"] == ["choice", "forced"]
    assert explained[0][[s["kind"] for s in explained[0]].index("choice")]["rule"] == "615.7"


def test_an_action_that_cant_happen_is_always_shown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "enumerate", str(CASES / "seeds" / "vengeful-archon-no-legal-target.yaml"))
    assert code == 0
    assert "- Vengeful Archon's ability can't be activated: there is no legal target (601.2c)" in out


def test_help_and_validate_load_neither_networkx_nor_ortools() -> None:
    """Start-up: the commands that solve nothing import no solver library."""
    code = ("import sys\nfrom solver.cli import main\n"
            f"assert main(['validate', {str(SPLIT)!r}]) == 0\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('networkx', 'ortools'))\n"
            "assert not heavy, heavy\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("field", "reason"), [
    ("thief.loyalty", "thief is not a planeswalker: it has no loyalty"),
    ("thief.tapped", "thief has no mana ability"),
    ("thief.power", "unknown permanent field 'power'"),
    ("archon.could_produce", "archon has no mana ability"),
])
def test_a_field_no_outcome_records_is_an_error(field: str, reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Fields the outcome record never keeps for that permanent would read None in every outcome."""
    code, out, err = run(capsys, "enumerate", str(SPLIT), "--fields", field)
    assert code == 2 and out == "" and reason in err


def test_a_library_cards_line_that_isnt_modelled_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    """Never a silent partial card: Wurmcoil Engine's death trigger isn't in the vocabulary, so a
    case naming the card gets a warning (exit 0) naming the line; giving abilities: silences it."""
    case = CASES / "rulings" / "wurmcoil-engine-shielded-blocker.yaml"
    code, out, err = run(capsys, "validate", str(case))
    assert code == 0
    assert "battlefield[0].card: warning: Wurmcoil Engine: 'When this creature dies, create" in out + err
    assert "is not modelled (no token creation on death in the vocabulary)" in out + err


def test_a_loop_with_no_choice_in_it_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A trigger that keeps triggering itself with no choice in between: said, no traceback."""
    case = tmp_path / "loop.yaml"
    case.write_text("""id: loop
players: [{name: you}, {name: A}]
battlefield:
  - {id: spring, name: Endless Spring, controller: you, types: [enchantment], abilities: [{trigger: gain_life, do: {gain_life: 1, who: you}}]}
actions:
  - gain_life: {amount: 1, who: you}
""", encoding="utf-8")
    code, out, err = run(capsys, "enumerate", str(case))
    assert code == 2 and out == "" and "did not settle" in err


LOOP_WITH_A_CHOICE = """id: loop-choice
players: [{name: you}, {name: A}]
sources:
  - {id: sp, name: Spell, controller: A, types: [instant]}
effects:
  - {id: s0, prevent: 2, controller: A, source: sp, then: {deal: prevented, to: A}}
  - {id: s1, prevent: {all_but: 2}, controller: A, source: sp}
actions:
  - damage: [{from: sp, to: A, amount: 2}]
  - damage: [{from: sp, to: you, amount: 1}]
"""


@pytest.mark.parametrize("args", [["enumerate", "--engine", "graph"], ["enumerate", "--engine", "cp"],
                                  ["optimize", "--engine", "graph", "--objective", "A: maximize A.life"]])
def test_a_loop_with_choices_in_it_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     args: list[str]) -> None:
    """s0's rider deals the damage it prevented to A, which s0 prevents again, with s1 to order
    each time: a choice leads back to the same state. The choice graph's cycle (and the CP
    engine's expansion before its step) is said in one line, not a traceback."""
    case = tmp_path / "loop.yaml"
    case.write_text(LOOP_WITH_A_CHOICE, encoding="utf-8")
    code, out, err = run(capsys, args[0], str(case), *args[1:])
    assert code == 2 and "loop forever" in err and "Traceback" not in err


def test_witnesses_past_the_time_limit_are_printed_raw_not_replayed() -> None:
    """The time limit holds while printing: putting a witness into words replays the timeline
    (about a second per outcome at 100 events), so once the limit has passed the remaining
    witnesses are the engine's raw choices, said once on stderr; each still replays."""
    import time

    from mtg_outcomes.api import enumerate_outcomes
    from mtg_outcomes.cli.outcomes import RAW_NOTE, _steps
    from mtg_outcomes.explain import replay
    from mtg_outcomes.limits import Deadline
    from mtg_outcomes.model.load import load_case

    case = load_case(ROOT / "cases/seeds/vengeful-archon-scroll-thief-split.yaml")
    outcomes = enumerate_outcomes(case, engine="graph").outcomes
    gone = Deadline(1e-9)
    time.sleep(0.001)
    for o in outcomes:
        raw = _steps(case, o, False, gone)
        assert raw == [f"[raw] {w.chooser} {w.kind} at {w.at}: {w.picked}" for w in o.witness] and raw
        fields = replay(case, o).fields  # the raw witness is the replayable one
        assert all(fields[k] == v for k, v in o.values.items())
        assert not any(line.startswith("[raw]") for line in _steps(case, o, False, Deadline(None)))
    assert "raw choices" in RAW_NOTE


def test_cp_outcomes_say_their_paths_are_not_counted(capsys: pytest.CaptureFixture[str]) -> None:
    """The CP engine doesn't walk raw choice paths (Outcome.paths is 0 there): the listing says so
    instead of printing "paths: 0", which reads as "no way to get here"."""
    path = str(ROOT / "cases/seeds/vengeful-archon-scroll-thief-split.yaml")
    assert main(["enumerate", path, "--engine", "cp", "--fields", "you.life"]) == 0
    out = capsys.readouterr().out
    assert "paths: not counted (CP engine)" in out and "paths: 0" not in out
    assert main(["enumerate", path, "--engine", "graph", "--fields", "you.life"]) == 0
    assert "paths: 2" in capsys.readouterr().out  # 1 from the Thief + 2, or 3 from the Mastodon: 19 either way


def test_a_situation_the_engine_cant_honour_names_the_case_file(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """An engine error (here: responses beside a ward trigger, 117.3b) is one line, file: reason, exit 2."""
    path = tmp_path / "ward-responses.yaml"
    path.write_text("id: wr\nplayers: [{name: you}, {name: A}]\nbattlefield:\n"
                    "  - {id: w, name: W, controller: you, types: [creature], power: 3, toughness: 3, abilities: [{ward: [2]}]}\n"
                    "actions:\n  - cast: {card: Lightning Bolt, controller: A, target: w, responses: [{leave: w}]}\n")
    assert main(["enumerate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{path}: Lightning Bolt") and "117.3b" in err


@pytest.mark.parametrize("argv, reason", [
    (["generate", "DIR/afile", "--count", "3"], "cannot write the cases"),
    (["generate", "DIR/g", "--count", "100000001"], "at most 100000 files"),
    (["generate", "DIR/g", "--count", "0"], "expected at least 1"),
    (["enumerate", str(COMBAT), "--max-nodes", "-5"], "expected at least 1"),
    (["batch", str(COMBAT), "--out", "DIR/b.jsonl", "--jobs", "0"], "expected at least 1"),
    (["check", str(COMBAT), "--timeout", "-1"], "expected seconds >= 0"),
    (["check", "DIR/empty"], "no case files"),
    (["enumerate", str(COMBAT), "--fields", ",,,"], "--fields: no field named"),
    (["optimize", str(COMBAT), "--objective", "you: maximize 99999999999 you.life"], "a weight of at most 1000000"),
])
def test_counts_and_paths_the_tool_cant_honour_are_one_line_exit_2(argv: list[str], reason: str, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "afile").write_text("")
    (tmp_path / "empty").mkdir()
    argv = [a.replace("DIR", str(tmp_path)) for a in argv]
    try:
        code, out, err = run(capsys, *argv)
    except SystemExit as exc:  # argparse's own refusal
        code, err = int(exc.code or 0), capsys.readouterr().err
    assert code == 2 and reason in err and "Traceback" not in err
    assert not (tmp_path / "g").exists()


def test_check_timeout_0_is_no_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(COMBAT), "--timeout", "0")
    assert code == 0 and "1 OK" in out
