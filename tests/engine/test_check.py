"""check, optimize and scripted choices, end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtg_outcomes import check, enumerate_outcomes, optimize
from mtg_outcomes.model import load_case
from mtg_outcomes.model.errors import CaseError
from mtg_outcomes.model.objective import parse_objective_text

from ..conftest import ROOT
from ..helpers import case_from

INCOMPLETE = ROOT / "examples" / "incomplete" / "dictate-griffin-one-order.yaml"
THIEF = ROOT / "cases" / "seeds" / "vengeful-archon-scroll-thief-combat.yaml"


def test_ruling_with_one_order_is_incomplete_with_witness() -> None:
    report = check(load_case(INCOMPLETE))
    assert report.status == "INCOMPLETE"
    assert [o.values["you.life"] for o in report.missing] == [15]
    words = report.missing[0].words
    assert any("Dictate of the Twin Gods first" in w for w in words)


def test_unreachable_expectation_names_closest(tmp_path: Path) -> None:
    text = INCOMPLETE.read_text(encoding="utf-8").replace("{you.life: 16}", "{you.life: 14}")
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    report = check(load_case(path))
    assert report.status.startswith("INCOMPLETE") and "UNREACHABLE" in report.status
    assert report.unreachable == [{"you.life": 14}]
    assert {c["you.life"] for c in report.closest} <= {15, 16}


def test_optimize_defender_prevents_thief_damage_first() -> None:
    objective = parse_objective_text(["you: [maximize you.life, minimize A.cards_drawn]"])
    res = optimize(load_case(THIEF), objective)
    assert [(o.values["you.life"], o.values["A.cards_drawn"]) for o in res.outcomes] == [(19, 0)]
    assert res.outcomes[0].witness[0].picked == "s1:1"
    assert any(d.matters for d in res.decisions)


def test_optimize_reports_orders_that_commute() -> None:
    # two static "prevent 1" effects commute: the order decision doesn't matter
    res = optimize(case_from("""
players: [{name: you}, {name: A}]
battlefield:
  - {id: p1, name: Ward One, controller: you, types: [enchantment], abilities: [{prevent: 1, to: you}]}
  - {id: p2, name: Ward Two, controller: you, types: [enchantment], abilities: [{prevent: 1, to: you}]}
sources: [{id: s, name: Shock, controller: A, types: [instant]}]
actions: [{damage: [{from: s, to: you, amount: 3}]}]
"""), parse_objective_text(["you: maximize you.life"]))
    assert [o.values["you.life"] for o in res.outcomes] == [19]
    assert res.decisions and not any(d.matters for d in res.decisions)


def test_scripted_choices_replay_one_branch(tmp_path: Path) -> None:
    text = THIEF.read_text(encoding="utf-8").split("expect:")[0] + 'choices:\n  you: ["s1:0"]\n'
    path = tmp_path / "scripted.yaml"
    path.write_text(text, encoding="utf-8")
    result = enumerate_outcomes(load_case(path), engine="graph")
    assert [o.values["A.cards_drawn"] for o in result.outcomes] == [1]


def test_scripted_choice_that_is_not_an_option_is_an_error(tmp_path: Path) -> None:
    text = THIEF.read_text(encoding="utf-8").split("expect:")[0] + 'choices:\n  you: ["s1:9"]\n'
    path = tmp_path / "scripted.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseError, match=r"choices\.you\[0\]"):
        enumerate_outcomes(load_case(path), engine="graph")


def test_check_and_batch_say_what_the_case_accepts_without_acting_on(tmp_path: Path) -> None:
    """A keyword without effect here is a warning (not an error): ``check`` and every batch line
    carry it, as ``validate`` and ``enumerate`` do, so a batch run never hides it."""
    import json

    from mtg_outcomes.batch import analyze
    from mtg_outcomes.cli import main

    text = THIEF.read_text(encoding="utf-8").replace("card: Scroll Thief,", "card: Scroll Thief, keywords: [vigilance],", 1)
    assert text != THIEF.read_text(encoding="utf-8")
    path = tmp_path / "vigilant.yaml"
    path.write_text(text, encoding="utf-8")
    report = check(load_case(path))
    assert report.status == "OK"
    assert any("'vigilance' has no effect in this tool" in w for w in report.warnings)
    assert report.as_dict()["warnings"] == report.warnings
    for mode in ("enumerate", "check"):
        rec = analyze(str(path), mode)
        assert any("'vigilance'" in w for w in rec["warnings"]), mode
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(path), "--out", str(out), "--no-progress"]) == 0
    assert any("'vigilance'" in w for w in json.loads(out.read_text().splitlines()[0])["warnings"])
