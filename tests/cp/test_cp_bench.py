"""The bench's large enumeration (bench/gen.py: large_enumeration, the hundred-attacker board of
the large optimisation without its objective) at sizes the choice graph finishes: the CP engine
gives the graph's outcome set, in the table encoding and in the block encoding the hundred
attackers take (each event there has more effects than a table allows), projected on the bench
row's fields and on every field."""

from __future__ import annotations

import json

import pytest

import mtg_outcomes as solver
import mtg_outcomes.cp.tables  # noqa: F401
from bench.gen import large_enumeration
from mtg_outcomes.cp import cp_outcomes
from mtg_outcomes.model import parse_case

from .test_cp import assert_same

FIELDS = ["you.life", "A.cards_drawn"]


def test_large_enumeration_board_is_the_large_optimisations() -> None:
    """The generator's first n attackers and k shields are those of cases/bench/large-optimisation.yaml."""
    import random

    from bench.gen import SEED, large_optimisation

    full = large_optimisation(random.Random(f"{SEED}:large-optimisation"))
    small = large_enumeration(3, 2)
    assert "objective" not in small and small["id"] == "bench-large-enumeration-3x2"
    assert small["battlefield"][:3] == full["battlefield"][:3]
    assert small["battlefield"][3:] == full["battlefield"][100:]
    assert small["effects"] == full["effects"][:2]


@pytest.mark.parametrize("blocks", [False, True], ids=["tables", "blocks"])
@pytest.mark.parametrize(("attackers", "shields"), [(3, 2), (3, 3)])
@pytest.mark.parametrize("fields", [FIELDS, None], ids=["projected", "every-field"])
def test_large_enumeration_graph_equals_cp(attackers: int, shields: int, blocks: bool, fields: list[str] | None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """615.7 (shield shares), 616.1 (the order of the doubler and the prevent-1), 510.3a (the
    drawer's trigger): the same distinct outcomes from both engines, each CP witness replaying
    through the graph engine's decisions (every field)."""
    case = parse_case(large_enumeration(attackers, shields))
    if blocks:
        monkeypatch.setattr(solver.cp.tables, "event_rows", lambda *a, **k: None)
    assert assert_same(case, fields) > 0
    stats = cp_outcomes(case, fields=fields).stats
    assert (stats["slot_events"] == attackers) if blocks else (stats["slot_events"] == 0)


@pytest.mark.parametrize("blocks", [False, True], ids=["tables", "blocks"])
def test_two_cp_sat_workers_give_the_same_outcome_set(blocks: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """--workers 2 (CP-SAT's parallel search) gives the graph's outcome set and one worker's,
    in enumeration and in optimisation (the optimum and its ties); each witness still replays."""
    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.cp import cp_optimize
    from mtg_outcomes.model.objective import parse_objective

    from .test_cp import replay

    if blocks:
        monkeypatch.setattr(solver.cp.tables, "event_rows", lambda *a, **k: None)
    case = parse_case(large_enumeration(3, 3))
    graph = {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}
    one, two = cp_outcomes(case, workers=1), cp_outcomes(case, workers=2)
    assert one.complete and two.complete
    assert [o.state for o in two.outcomes] == [o.state for o in one.outcomes] and set(graph) == {o.state for o in two.outcomes}
    for o in two.outcomes:
        assert tuple(sorted(replay(case, o).items())) == o.state
    projected = cp_outcomes(case, fields=FIELDS, workers=2)
    assert [o.state for o in projected.outcomes] == [o.state for o in cp_outcomes(case, fields=FIELDS).outcomes]
    objective = parse_objective({"you": ["maximize you.life", "minimize A.cards_drawn"]})
    best1, best2 = cp_optimize(case, objective), cp_optimize(case, objective, workers=2)
    assert best2.complete and best2.stats["optimum"] == best1.stats["optimum"]
    assert [o.state for o in best2.outcomes] == [o.state for o in best1.outcomes]


def test_workers_are_cp_sats_only() -> None:
    """The graph engine has no parallel search: asking it for workers is an error, not ignored;
    fewer than one worker is an error."""
    from mtg_outcomes import enumerate_outcomes

    case = parse_case(large_enumeration(3, 2))
    with pytest.raises(ValueError, match="graph engine"):
        enumerate_outcomes(case, engine="graph", workers=2)
    with pytest.raises(ValueError, match="at least 1"):
        cp_outcomes(case, workers=0)


def test_cli_workers_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """--workers 2 prints the same outcomes as the default; with --engine graph it is one line and
    exit 2; 0 workers is a usage error."""
    from mtg_outcomes.cli import main

    from ..conftest import CASES

    path = str(CASES / "bench" / "wide-combat.yaml")
    outs = []
    for extra in ([], ["--workers", "2"]):
        assert main(["enumerate", path, "--fields", "you.life,A.cards_drawn", "--json", *extra]) == 0
        outs.append([o["state"] for o in json.loads(capsys.readouterr().out)["outcomes"]])
    assert len(outs[0]) > 1 and outs[0] == outs[1]
    assert main(["enumerate", path, "--engine", "graph", "--workers", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--workers: the graph engine has no parallel search" in err[0]
    with pytest.raises(SystemExit):
        main(["optimize", path, "--workers", "0"])
