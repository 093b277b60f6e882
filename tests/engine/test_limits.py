"""Limits hold in every phase: ``--timeout`` bounds planning, table building, solving and the
graph's expansion, and the CP engine's group tables stay within a memory bound (a cross product
too big is refused before it is formed). No timing assertions: calls are counted instead."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import mtg_outcomes as solver
import mtg_outcomes.cp  # noqa: F401
import mtg_outcomes.cp.choosers  # noqa: F401
import mtg_outcomes.cp.costs  # noqa: F401
import mtg_outcomes.cp.plan  # noqa: F401
import mtg_outcomes.cp.sums  # noqa: F401
import mtg_outcomes.cp.tables  # noqa: F401
from mtg_outcomes import enumerate_outcomes, optimize
from mtg_outcomes.cp import cp_outcomes, cp_supported
from mtg_outcomes.graph import build_graph
from mtg_outcomes.limits import Deadline, LimitReached
from mtg_outcomes.model import parse_case
from mtg_outcomes.model.objective import parse_objective
from mtg_outcomes.model.types import Case

from ..conftest import CASES, ROOT
from ..cp.test_cp import assert_same

# Three attackers (1, 2, 3) into four "prevent the next N" shields (3, 4, 5, 6) under two
# Dictates of the Twin Gods: every event has 6! orders and many shares (CR 616.1, 615.7), and the
# group table merging the three events once formed a cross product of gigabytes.
SHIELDS_AND_DOUBLERS = textwrap.dedent("""\
    id: limits-three-attackers-four-shields
    title: "Three attackers (1, 2, 3) into four shields (3, 4, 5, 6) under two Dictates of the Twin Gods"
    source: "a limits case: the CP group table is large; the answer must respect --timeout in bounded memory"
    format: standard
    players:
      - {name: A}
      - {name: you, life: 40}
    battlefield:
      - {id: d1, card: Dictate of the Twin Gods, controller: A}
      - {id: d2, card: Dictate of the Twin Gods, controller: A}
      - {id: a1, name: Raider 1, controller: A, types: [creature], power: 1, toughness: 1, attacking: you}
      - {id: a2, name: Raider 2, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}
      - {id: a3, name: Raider 3, controller: A, types: [creature], power: 3, toughness: 3, attacking: you}
    effects:
      - {id: s3, shield: 3, to: you, controller: you}
      - {id: s4, shield: 4, to: you, controller: you}
      - {id: s5, shield: 5, to: you, controller: you}
      - {id: s6, shield: 6, to: you, controller: you}
    actions:
      - combat: {}
    """)

# small enough for the graph: two attackers, two shields and a doubler (graph == CP checkable)
SMALL = textwrap.dedent("""\
    id: limits-small-group
    players:
      - {name: A}
      - {name: you}
    battlefield:
      - {id: d1, card: Dictate of the Twin Gods, controller: A}
      - {id: a1, name: Raider 1, controller: A, types: [creature], power: 1, toughness: 1, attacking: you}
      - {id: a2, name: Raider 2, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}
      - {id: a3, name: Raider 3, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}
    effects:
      - {id: s1, shield: 2, to: you, controller: you}
      - {id: s2, shield: 3, to: you, controller: you}
    actions:
      - combat: {}
    """)

_LIMITED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
from mtg_outcomes.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _case(text: str) -> Case:
    import yaml

    return parse_case(yaml.safe_load(text))


def test_shields_and_doublers_answer_in_bounded_memory(tmp_path: Path) -> None:
    """The repro: ``enumerate --engine cp --timeout 5`` in a 2 GiB address space exits normally
    (the old merge formed a 1.6 GB product and died of a MemoryError) and says whether it is
    complete."""
    path = tmp_path / "case.yaml"
    path.write_text(SHIELDS_AND_DOUBLERS, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", _LIMITED, "enumerate", str(path), "--engine", "cp",
                           "--timeout", "5", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["engine"] == "cp" and isinstance(doc["complete"], bool)
    if doc["complete"]:
        assert len(doc["outcomes"]) == 534
    else:
        assert "time limit" in doc["stats"]["limit"]  # where the limit cut it


def test_the_repro_is_complete_without_a_limit() -> None:
    case = _case(SHIELDS_AND_DOUBLERS)
    res = cp_outcomes(case, fields=["you.life", "s3.remaining", "s4.remaining", "s5.remaining", "s6.remaining"])
    assert res.complete
    # 6 damage, doubled twice; shields applied before the doublers prevent four times their
    # share, and applied after them 18 of the 24: you are dealt 0 to 6 (CR 616.1, 615.7)
    assert {o.values["you.life"] for o in res.outcomes} == set(range(34, 41))


def test_a_merge_above_the_bound_is_refused_before_it_is_formed(monkeypatch: pytest.MonkeyPatch) -> None:
    """With CROSS_LIMIT small, no merge step is handed a product above it: the group's events
    get a table each, and the answers are still the graph's."""
    case = _case(SMALL)
    assert cp_supported(case) is None
    full = cp_outcomes(case)
    assert full.stats["tables"] == 1  # one group table for the three events
    sizes: list[int] = []
    step = solver.cp.tables.sum_step

    def spy(a: Any, b: Any, *rest: Any) -> Any:
        sizes.append(len(a) * len(b))
        return step(a, b, *rest)

    monkeypatch.setattr(solver.cp.tables, "sum_step", spy)
    monkeypatch.setattr(solver.cp.tables, "CROSS_LIMIT", 200)  # the group's steps form up to ~400 pairs
    assert assert_same(case) > 0
    cut = cp_outcomes(case)
    assert cut.stats["tables"] == 3  # the fallback: one table per event
    assert sizes and max(sizes) <= 200
    assert {o.state for o in cut.outcomes} == {o.state for o in full.outcomes}


@pytest.mark.parametrize(("bound", "value"), [("GROUP_LIMIT", 10), ("LAYERS_LIMIT", 15)])
def test_a_group_table_with_too_many_rows_falls_back(monkeypatch: pytest.MonkeyPatch, bound: str, value: int) -> None:
    """Too many distinct sums in one layer, or too many rows kept over the layers: the group is
    split, an event whose own table is too big takes the slot encoding, and graph == CP."""
    case = _case(SMALL)
    monkeypatch.setattr(solver.cp.tables, bound, value)
    assert assert_same(case) > 0
    stats = cp_outcomes(case).stats
    assert stats["tables"] + stats["slot_events"] == 3 and stats["slot_events"] >= 1


@pytest.mark.parametrize("packed", [True, False])
def test_chunked_merges_give_the_same_table(monkeypatch: pytest.MonkeyPatch, packed: bool) -> None:
    """A merge formed a few rows at a time (and deduplicated by packed keys or by rows) gives the
    outcomes and witnesses of the graph."""
    case = _case(SMALL)
    monkeypatch.setattr(solver.cp.sums, "CHUNK", 7)
    monkeypatch.setattr(solver.cp.sums, "DENSE_LIMIT", 0)  # the hash table's way (tests/cp/test_cp_tables.py: each way)
    if not packed:
        monkeypatch.setattr(solver.cp.sums, "PACK_BITS", 0)
    assert assert_same(case) > 0
    assert cp_outcomes(case).stats["tables"] == 1


def test_a_timeout_during_the_build_answers_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limit covers the build: once it has passed no further event is tabled, and the answer
    is partial with the phase named (the old engine started its clock after building)."""
    case = _case(SHIELDS_AND_DOUBLERS)
    calls: list[int] = []
    results = solver.cp.tables.event_rows
    clock = Deadline(3600.0)

    def slow(plan: Any, pe: Any, limit: Any = None, deadline: Any = None, memo: Any = None) -> Any:
        calls.append(1)
        out = results(plan, pe, limit, deadline, memo)
        clock.seconds = 0.0  # the limit passes while the first event is tabled
        return out

    monkeypatch.setattr(solver.cp.tables, "event_rows", slow)
    res = cp_outcomes(case, timeout=clock)
    assert not res.complete and not res.outcomes
    assert "building" in res.stats["limit"] and res.stats["solves"] == 0
    assert len(calls) == 1


def test_auto_turns_to_the_graph_when_the_cp_build_overruns(monkeypatch: pytest.MonkeyPatch) -> None:
    """engine="auto" gives the CP build a share of the limit; past it the graph answers."""
    case = _case(SHIELDS_AND_DOUBLERS)
    assert solver.cp.prefer_cp(case)
    results = solver.cp.tables.event_rows
    clock = Deadline(3600.0)

    def overrun(plan: Any, pe: Any, limit: Any = None, deadline: Any = None, memo: Any = None) -> Any:
        out = results(plan, pe, limit, deadline, memo)
        assert deadline is not None and deadline is not clock  # the build has its own share
        deadline.seconds = 0.0  # the build's share is gone
        return out

    monkeypatch.setattr(solver.cp.tables, "event_rows", overrun)
    res = enumerate_outcomes(case, timeout=clock, max_nodes=2_000)
    assert res.engine == "graph" and not res.complete and res.outcomes


@pytest.mark.parametrize("command", ["enumerate", "optimize"])
def test_auto_planning_takes_a_share_of_the_limit(monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """engine="auto" plans its estimate in a share of the limit: choices before the step that a
    player can repeat without end (a creature that deals the damage it is dealt back to itself)
    make the planning as long as the graph's own walk, and a cut planning leaves the graph the
    rest, not an answer the estimate used up (it gave none: 0 outcomes)."""
    case = _case(SHIELDS_AND_DOUBLERS)
    assert solver.cp.prefer_cp(case)
    plans = solver.cp.plan.step_plans
    clock = Deadline(3600.0)
    shares: list[Any] = []

    def slow(case: Any, deadline: Any = None, max_nodes: Any = None) -> Any:
        assert deadline is not None and deadline is not clock  # planning has its own share
        shares.append(deadline)
        deadline.seconds = 0.0  # planning's share is gone
        return plans(case, deadline, max_nodes)

    monkeypatch.setattr(solver.cp.costs, "step_plans", slow)
    monkeypatch.setattr(solver.cp.choosers, "step_plans", slow)
    if command == "enumerate":
        res: Any = enumerate_outcomes(case, timeout=clock, max_nodes=2_000)
        assert res.engine == "graph"
    else:
        res = optimize(case, parse_objective({"you": ["maximize you.life"]}), timeout=clock, max_nodes=2_000)
        assert res.engine == "graph"
    assert shares and res.outcomes and not clock.expired()


def test_cp_supported_and_estimate_paths_keep_a_limit() -> None:
    """Asking whether CP can model a case plans its step (the choices before it expanded): with
    ``timeout`` that planning stops at it, as every phase does."""
    case = _case(SHIELDS_AND_DOUBLERS)
    for ask in (solver.cp.cp_supported, solver.cp.estimate_paths):
        with pytest.raises(LimitReached):
            ask(case, timeout=Deadline(0.0))
    assert solver.cp.cp_supported(case, timeout=60.0) is None and (solver.cp.estimate_paths(case, timeout=60.0) or 0) > 0


def test_graph_timeout_is_honoured() -> None:
    """A tiny timeout on the wide bench case: the expansion stops, marks what it left, and the
    outcomes found so far come back marked partial."""
    from mtg_outcomes.model import load_case

    case = load_case(CASES / "bench" / "wide-combat.yaml")
    res = enumerate_outcomes(case, engine="graph", timeout=0.5)
    assert res.complete is False
    assert isinstance(res.outcomes, list)
    cg = build_graph(case, timeout=0.5)
    assert not cg.complete
    assert any(d.get("truncated") for _, d in cg.graph.nodes(data=True))


def test_a_division_too_large_to_enumerate_is_refused_before_it_is_built() -> None:
    """510.1c: a 60-power attacker blocked by eight creatures has 869,648,208 ways to divide its
    damage; the tool says so (EngineError, exit 2 in the CLI) instead of building them."""
    import pytest

    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.model import EngineError, parse_case

    walls = [{"id": f"w{i}", "name": "Wall", "controller": "you", "types": ["creature"], "power": 0,
              "toughness": 9, "blocking": "big"} for i in range(8)]
    case = parse_case({"id": "big", "players": [{"name": "A"}, {"name": "you"}],
                       "battlefield": [{"id": "big", "name": "Colossus", "controller": "A", "types": ["creature"],
                                        "power": 60, "toughness": 60, "attacking": "you"}, *walls],
                       "actions": [{"combat": {}}]})
    with pytest.raises(EngineError, match="869648208 ways"):
        enumerate_outcomes(case, engine="graph")


@pytest.mark.parametrize("ns", [1, 3, 6, 7])
def test_vectorised_dominance_drops_the_rows_the_plain_one_drops(ns: int) -> None:
    """The merge's vectorised dominance (flag sets as bits, up to six shields; the plain one past
    that) drops exactly the rows :func:`solver.cp.tables.undominated` drops: another row with the
    same sums took all it was offered wherever this one did (615.7)."""
    import numpy as np

    rng = np.random.default_rng(ns)
    for _ in range(10):
        sums = rng.integers(0, 3, (6, 3 + ns))[rng.integers(0, 6, 150)]  # damage x2, shares, prevented
        rows = np.unique(np.concatenate([sums[:, :2 + ns], rng.integers(0, 2, (150, ns)), sums[:, 2 + ns:]], axis=1),
                         axis=0)
        keys = [tuple(r) for r in rows.tolist()]
        kept = solver.cp.tables.undominated(dict.fromkeys(keys), ns, 2)
        assert solver.cp.tables.dominated(rows, ns, 2).tolist() == [k not in kept for k in keys]
        assert 0 < len(kept) < len(keys)


def _board(cards: str, effects: str = "", actions: str = "") -> Case:
    return parse_case(__import__("yaml").safe_load(f"""
id: limits
players: [{{name: A}}, {{name: you}}]
battlefield: {cards}
sources: [{{id: bolt, name: Bolt, controller: A, types: [instant], colors: [red]}}]
effects: {effects or "[]"}
actions: {actions}
"""))


def test_planning_a_10000_power_trampler_keeps_the_limit() -> None:
    # its ~10^4 division options were compared with each other before the deadline was read
    case = _board("[{id: wurm, name: Wurm, controller: A, types: [creature], power: 10000, toughness: 5, "
                  "keywords: [trample], attacking: you}, {id: bear, name: Bear, controller: you, types: [creature], "
                  "power: 2, toughness: 2, blocking: wurm}]", actions="[{combat: {}}]")
    res = enumerate_outcomes(case, engine="cp", timeout=1.0)
    assert not res.complete and "time limit" in str(res.stats.get("limit"))


def test_amounts_past_64_bits_are_refused_by_cp_and_left_to_the_graph_by_auto() -> None:
    furnaces = "[" + ", ".join(f"{{id: f{i}, card: Furnace of Rath, controller: A}}" for i in range(44)) + "]"
    case = _board(furnaces, actions="[{damage: [{from: bolt, to: you, amount: 1000000}]}]")
    with pytest.raises(solver.cp.bounds.ModelTooLarge, match="more than the CP model holds"):
        cp_outcomes(case)


def test_sixty_riders_keep_the_models_bounds_small() -> None:
    # each rider's bound was the sum of the ones before it, doubled: 2^60 overflowed CP-SAT's domains
    shields = "[" + ", ".join(f"{{id: s{i}, shield: 1, to: you, controller: you, source: archon, "
                              "then: {deal: prevented, to: A}}" for i in range(60)) + "]"
    case = _board("[{id: archon, card: Vengeful Archon, controller: you}]", shields,
                  "[{damage: [{from: bolt, to: you, amount: 3}]}]")
    res = cp_outcomes(case, fields=["you.life", "A.life"], timeout=60)
    assert {tuple(dict(o.state).values()) for o in res.outcomes} == {(17, 20)}


def test_more_life_gain_replacements_than_cp_orders_are_declined() -> None:
    boons = "[" + ", ".join(f"{{id: b{i}, card: Boon Reflection, controller: A}}" for i in range(7)) + \
        ", {id: lion, name: Lion, controller: A, types: [creature], power: 1, toughness: 1, keywords: [lifelink], attacking: you}]"
    case = _board(boons, actions="[{combat: {}}]")
    assert "7 life-gain replacements" in (cp_supported(case) or "")
    assert {o.values["A.life"] for o in enumerate_outcomes(case).outcomes} == {20 + 128}


def test_mana_replacement_orders_past_the_limit_are_an_error() -> None:
    from mtg_outcomes.model.errors import EngineError

    effects = "[" + ", ".join(f"{{id: g{i}, controller: A, replace_mana: R, mana: G, to: lands}}, "
                              f"{{id: b{i}, controller: A, multiply_mana: 2, mana: B, to: lands}}" for i in range(13)) + "]"
    case = _board("[{id: forest, card: Forest, controller: you}, {id: contamination, card: Contamination, controller: A}]",
                  effects, "[{could_produce: forest}, {tap_for_mana: forest}]")
    with pytest.raises(EngineError, match="more than 10,000 ways to order them"):
        enumerate_outcomes(case)
