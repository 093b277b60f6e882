"""One deadline everywhere (issue 48): inside one block declaration of many options, inside a
chain of triggers with no choice in it, in the report's witness replay, and the node limit with
no time limit. Each repro ends within 2 s of its limit (an in-process clock: no start-up counted)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from mtg_outcomes import engine
from mtg_outcomes.api import enumerate_outcomes
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.load import load_case
from mtg_outcomes.model.objective import parse_objective_text
from mtg_outcomes.optimize import optimize
from mtg_outcomes.report import analyse

from ..conftest import ROOT

LOOP = ROOT / "cases" / "rulings" / "stuffy-doll-guilty-conscience-loop.yaml"
OVERSHOOT = 2.0

ATTACKERS = ["Grizzly Bears", "Hill Giant", "Savannah Lions", "Gray Ogre", "Craw Wurm", "Walking Corpse",
             "Centaur Courser", "Elvish Warrior"]
BLOCKERS = ["Grizzly Bears", "Hill Giant", "Gray Ogre", "Centaur Courser", "Savannah Lions"]


def _wide(tmp_path: Path) -> Path:
    """8 attackers, 5 possible blockers, blocks: choose: 9^5 = 59,049 declarations in one decision."""
    lines = ["id: wide-8x5", "players: [{name: you}, {name: A}]", "battlefield:"]
    lines += [f"  - {{id: a{i}, card: {c}, controller: you, attacking: A}}" for i, c in enumerate(ATTACKERS)]
    lines += [f"  - {{id: b{i}, card: {c}, controller: A}}" for i, c in enumerate(BLOCKERS)]
    lines += ["actions:", "  - combat: {blocks: choose}"]
    path = tmp_path / "wide.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _loop(tmp_path: Path, life: int) -> Path:
    """Stuffy Doll + Guilty Conscience with A at ``life``: a forced loop of 2 x life triggers that ends."""
    text = LOOP.read_text(encoding="utf-8").replace("life: 3}", f"life: {life}}}")
    text = text.replace("{A.life: 0, A.lost: true}", "{A.lost: true}")
    path = tmp_path / f"loop{life}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _timed(fn):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


@pytest.mark.parametrize("engine_name", ["auto", "graph"])
def test_block_declarations_stop_at_the_deadline(tmp_path: Path, engine_name: str) -> None:
    case = load_case(_wide(tmp_path))
    res, took = _timed(lambda: enumerate_outcomes(case, engine=engine_name, timeout=2.0, fields=["A.life"]))
    assert took < 2.0 + OVERSHOOT, took
    # the graph expands 59,049 declarations; auto takes CP, which declares the blocks in its model
    # (solver.cp.blocks) and answers within the limit
    assert res.complete == (engine_name == "auto"), res.stats


def test_optimize_block_declarations_stop_at_the_deadline(tmp_path: Path) -> None:
    case = load_case(_wide(tmp_path))
    res, took = _timed(lambda: optimize(case, parse_objective_text(["A: maximize A.life"]), timeout=2.0))
    assert not res.complete and took < 2.0 + OVERSHOOT, took


@pytest.mark.parametrize("engine_name", ["auto", "cp", "graph"])
def test_max_nodes_bounds_one_decision_without_a_time_limit(tmp_path: Path, engine_name: str) -> None:
    """--timeout 0 --max-nodes 1000: a declaration of 59,049 options is past the node limit at once."""
    case = load_case(_wide(tmp_path))
    res, took = _timed(lambda: enumerate_outcomes(case, engine=engine_name, timeout=None, max_nodes=1000,
                                                  fields=["A.life"]))
    assert took < 10, took
    if engine_name == "graph":
        assert not res.complete and res.outcomes == []
    else:  # the declaration is the CP model's (solver.cp.blocks): no state before the step to count
        assert res.complete and res.engine == "cp"


def test_a_trigger_loop_stops_at_the_deadline(tmp_path: Path) -> None:
    """A loop of 40,000 triggers (it ends: A loses at 0 life), --timeout 2: partial, not 20-55 s."""
    case = load_case(_loop(tmp_path, 20_000))
    res, took = _timed(lambda: enumerate_outcomes(case, timeout=2.0))
    assert not res.complete and took < 2.0 + OVERSHOOT, took


def test_the_step_bound_is_called_a_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A loop that ends past the step bound is a limit of the tool, not a loop that never ends."""
    monkeypatch.setattr(engine, "MAX_STEPS", 2000)
    case = load_case(_loop(tmp_path, 2000))
    with pytest.raises(EngineError) as err:
        enumerate_outcomes(case, engine="graph", timeout=None)
    msg = str(err.value)
    assert "a step limit of this tool" in msg and "never ends" not in msg


def test_report_holds_one_deadline(tmp_path: Path) -> None:
    """report --timeout: outcomes, witness replay, verdict, optimum and picture share one limit."""
    case = load_case(_loop(tmp_path, 2000))
    data, took = _timed(lambda: analyse(case, timeout=2.0))
    assert took < 2.0 + OVERSHOOT, took
    assert data.picture is not None and not data.picture.complete
    wide = load_case(_wide(tmp_path))
    data, took = _timed(lambda: analyse(wide, timeout=2.0, objective=parse_objective_text(["A: maximize A.life"])))
    assert took < 2.0 + OVERSHOOT, took
    assert data.optimum is not None and not data.optimum.complete


def test_enumerate_explain_replays_within_the_deadline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--explain's replay of a long witness is cut inside it: the raw witness instead, said."""
    from mtg_outcomes.cli import main

    path = _loop(tmp_path, 600)
    code, took = _timed(lambda: main(["enumerate", str(path), "--timeout", "2", "--explain"]))
    assert code == 0 and took < 2.0 + OVERSHOOT, took
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err
