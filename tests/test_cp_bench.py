"""The bench's large enumeration (bench/gen.py: large_enumeration, the hundred-attacker board of
the large optimisation without its objective) at sizes the choice graph finishes: the CP engine
gives the graph's outcome set, in the table encoding and in the block encoding the hundred
attackers take (each event there has more effects than a table allows), projected on the bench
row's fields and on every field."""

from __future__ import annotations

import pytest

import solver.cp.tables
from bench.gen import large_enumeration
from model import parse_case
from solver.cp import cp_outcomes

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
        monkeypatch.setattr(solver.cp.tables, "_results", lambda *a, **k: None)
    assert assert_same(case, fields) > 0
    stats = cp_outcomes(case, fields=fields).stats
    assert (stats["slot_events"] == attackers) if blocks else (stats["slot_events"] == 0)
