"""Inputs that must be refused with a message (issue 48): API arguments, YAML 1.1 numbers, huge
integers, --objective's size and aliases, control and bidi characters in error lines."""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest

from mtg_outcomes.api import MAX_WORKERS, enumerate_outcomes
from mtg_outcomes.batch import analyze
from mtg_outcomes.check import check
from mtg_outcomes.cli import main
from mtg_outcomes.model.errors import CaseError, CaseErrors, printable
from mtg_outcomes.model.load import load_case
from mtg_outcomes.model.objective import MAX_OBJECTIVE_TEXT, parse_objective_text
from mtg_outcomes.optimize import optimize

from ..conftest import ROOT

CASE = ROOT / "cases" / "cards" / "black-knight-cant-be-blocked-by-white.yaml"
GOAL = ["A: maximize A.life"]


@pytest.mark.parametrize(("call", "words"), [
    (lambda c: enumerate_outcomes(None), "case must be a Case"),  # type: ignore[arg-type]
    (lambda c: optimize(c, None), "objective must be an Objective"),  # type: ignore[arg-type]
    (lambda c: check(None), "case must be a Case"),  # type: ignore[arg-type]
    (lambda c: enumerate_outcomes(c, timeout=math.nan), "timeout must be a number of seconds >= 0"),
    (lambda c: optimize(c, parse_objective_text(GOAL), timeout=math.nan), "timeout must be"),
    (lambda c: check(c, timeout=math.nan), "timeout must be"),
    (lambda c: enumerate_outcomes(c, timeout=-1), "timeout must be a number of seconds >= 0"),
    (lambda c: enumerate_outcomes(c, timeout="5"), "timeout must be a number of seconds or None"),  # type: ignore[arg-type]
    (lambda c: enumerate_outcomes(c, engine="cp", workers=10**6), f"from 1 to {MAX_WORKERS}, got 1000000"),
    (lambda c: enumerate_outcomes(c, max_nodes=0), "max_nodes must be a whole number of at least 1"),
])
def test_api_refuses_bad_arguments_with_a_message(call, words: str) -> None:  # type: ignore[no-untyped-def]
    case = load_case(CASE)
    with pytest.raises(ValueError) as err:
        call(case)
    assert words in str(err.value)


def test_infinite_timeout_is_no_limit() -> None:
    assert enumerate_outcomes(load_case(CASE), timeout=math.inf).complete


def test_cli_refuses_nan_negative_timeouts_and_huge_workers(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--timeout", "nan"], ["--timeout", "-1"], ["--workers", "1000000"]):
        with pytest.raises(SystemExit) as ex:
            main(["enumerate", str(CASE), *argv])
        assert ex.value.code == 2
        assert "Traceback" not in capsys.readouterr().err


def _with_life(tmp_path: Path, life: str) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(CASE.read_text(encoding="utf-8").replace("{name: A}", f"{{name: A, life: {life}}}"), encoding="utf-8")
    return path


@pytest.mark.parametrize(("life", "words"), [
    ("1:20", "'1:20' is a base-60 number in YAML 1.1"),
    ("0x14", "'0x14' is a hexadecimal number in YAML 1.1; write integers in base 10"),
    ("020", "'020' is an octal (a leading 0) number"),
    ("0b10100", "is a binary number"),
    ("20_000", "without '_' separators"),
    ("9" * 4301, "an integer of 4301 digits; at most 100 are accepted"),
])
def test_numbers_are_base_10_and_bounded(tmp_path: Path, life: str, words: str) -> None:
    path = _with_life(tmp_path, life)
    with pytest.raises(CaseErrors) as err:
        load_case(path)
    assert str(err.value) == f"{path}: players[1].life: {err.value.errors[0].reason}"
    assert words in str(err.value)
    rec = analyze(str(path))  # in batch: bad input, not an analysis failure
    assert rec["status"] == "ERROR" and rec["failure"] == "input"


def test_objective_text_is_linear_bounded_and_alias_safe() -> None:
    n = 4000
    goals = "A: [" + ", ".join(f"maximize p{i}.life" for i in range(n)) + "]"
    t0 = time.perf_counter()
    assert len(parse_objective_text([goals]).goals[0][1]) == n
    assert time.perf_counter() - t0 < 2.0
    with pytest.raises(CaseError, match=f"longer than {MAX_OBJECTIVE_TEXT} characters"):
        parse_objective_text(["A: [" + "maximize a.life, " * 10_000 + "]"])
    bomb = "A: [&a [maximize a.b], " + ", ".join(["*a"] * 300) + "]"
    with pytest.raises(CaseError, match="too many YAML aliases"):
        parse_objective_text([bomb])


def test_error_lines_escape_control_and_bidi_characters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert printable("a\u202eb\x1b[0m\u2028c") == "a\\u202eb\\x1b[0m\\u2028c"
    assert printable("naïve — fine") == "naïve — fine"
    path = tmp_path / "bidi.yaml"
    path.write_text("id: x\nplayers: [{name: you}, {name: A}]\nbattlefield:\n"
                    '  - {id: a, card: Grizzly Bears, controller: you, "pow\\u202eer": 3}\nactions: []\n',
                    encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    cap = capsys.readouterr()
    err = cap.out + cap.err
    assert "\u202e" not in err and "battlefield[0].pow\\u202eer: " in err
