"""The command line: validate, enumerate (text, --json, --fields, --graph), check, python -m solver."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver.cli import main

ROOT = Path(__file__).parents[1]
CASES = ROOT / "cases"
DICTATE = CASES / "rulings" / "dictate-of-the-twin-gods-griffin-order.yaml"
BAD = ROOT / "tests" / "bad_inputs"

INCOMPLETE_CASE = """\
id: dictate-griffin-incomplete
title: "Dictate of the Twin Gods and a Griffin shield, with only one of the two orders"
source: "tests/test_cli.py: deliberately incomplete ruling"
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
    assert set(data) == {"case", "engine", "complete", "outcomes", "stats"}
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


def test_check_directory(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", str(CASES / "rulings"))
    assert code == 0, out + err
    assert "OK" in out
    assert "cases)" in out.splitlines()[-1]  # the summary line, e.g. "46 OK (46 cases)"


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
    proc = subprocess.run([sys.executable, "-m", "solver", "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "validate" in proc.stdout and "enumerate" in proc.stdout and "check" in proc.stdout
