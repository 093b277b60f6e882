"""Every shipped case file is a regression test: its ``expect:`` must hold exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtg_outcomes.check import case_files, check
from mtg_outcomes.model import load_case

from .conftest import CASES

FILES = [p for p in case_files([CASES]) if "bench" not in p.parts]


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CASES)) for p in FILES])
def test_case_expectation_holds(path: Path) -> None:
    case = load_case(path)
    assert case.expect is not None, f"{path}: every shipped ruling needs expect:"
    report = check(case, engine="graph")
    assert report.status == "OK", "\n".join(report.detail)


def test_there_are_seed_and_ruling_cases() -> None:
    assert any("rulings" in p.parts for p in FILES)
