"""Every shipped case file is a regression test, in one place: its ``expect:`` holds exactly
(the graph engine), and the CP engine answers it with the same outcomes (enumerate, and optimize
with objectives drawn for it), each over the same parametrised list of files."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtg_outcomes.check import case_files, check
from mtg_outcomes.contract import Status
from mtg_outcomes.cp import cp_outcomes, cp_supported
from mtg_outcomes.model import EngineError, load_case
from mtg_outcomes.model.objective import parse_objective

from ..conftest import CASES
from ..cp.test_cp import assert_same, assert_same_optimum, blocks_only

FILES = [p for p in case_files([CASES]) if "bench" not in p.parts]
# every shipped case, by its path under cases/ (the one parametrisation of the tests below)
SHIPPED = pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CASES)) for p in FILES])


@SHIPPED
def test_case_expectation_holds(path: Path) -> None:
    case = load_case(path)
    assert case.expect is not None, f"{path}: every shipped ruling needs expect:"
    report = check(case, engine="graph")
    assert report.status == Status.OK, "\n".join(report.detail)


def test_there_are_seed_and_ruling_cases() -> None:
    assert any("rulings" in p.parts for p in FILES)


# ---------------------------------------------------------------------------------------------
# (a) every shipped case the CP model can express


@SHIPPED
def test_shipped_case_graph_equals_cp(path: Path) -> None:
    case = load_case(path)
    reason = cp_supported(case)
    if reason is not None:
        with pytest.raises(EngineError):
            cp_outcomes(case)
        pytest.skip(reason)
    assert_same(case)
    with blocks_only():
        assert_same(case)


def test_some_shipped_cases_are_supported() -> None:
    # 102 since choices before the last damage step and first-strike steps are expanded by the
    # graph engine's rules (solver.cp.prefix): 88 before; 132 since the step is the timeline's
    # last damage batch whatever opened it (a spell, an ability, a trigger): 109 before
    # 623 of 645 since -1/-1 counters instead of damage (614.1a) and one source's damage as
    # one instance of a next-time shield (615.8) are modelled; all since effects that may end in
    # the step's check are read there and the rules engine does the next (704.3, solver.cp.suffix)
    # and upkeep triggers are known not to fire in a step (503.1a)
    declined = {str(p.relative_to(CASES)): r for p in FILES if (r := cp_supported(load_case(p))) is not None}
    assert not declined, declined
    for name in ("cards/boros-swiftblade-double-strike.yaml", "rulings/first-strike-kills-blocker-first.yaml",
                 "seeds/guardian-archon-secret-choice.yaml", "rulings/healing-salve-block-the-thief.yaml",
                 "cards/thorn-of-the-black-rose-monarch.yaml", "rulings/soul-scar-mage-brash-taunter.yaml",
                 "rulings/xmage-shadowbane-famine.yaml", "rulings/platinum-angel-dies-with-you-at-zero.yaml",
                 "rulings/in-step-walker-anthem.yaml", "rulings/in-step-mp-aura-leaves.yaml"):
        assert cp_supported(load_case(CASES / name)) is None, name


@SHIPPED
def test_shipped_case_optimum_graph_equals_cp(path: Path) -> None:
    case = load_case(path)
    if cp_supported(case) is not None:
        pytest.skip("not a CP case")
    players = [p.name for p in case.players]
    for objective in (parse_objective({players[-1]: [f"maximize {players[-1]}.life", f"minimize {players[0]}.cards_drawn"]}),
                      parse_objective({players[0]: f"maximize {players[0]}.life - {players[-1]}.life"})):
        assert_same_optimum(case, objective)
    if case.objective is not None:
        assert_same_optimum(case, case.objective)
