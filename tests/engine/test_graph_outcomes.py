"""The passes that read the outcomes off the choice graph (solver.graph.graph_outcomes; the
optimal lines': solver.optimize.witnesses): the same outcomes, path counts and first witnesses
as walking every choice path, in time and memory bounded by the graph and the limits, never by
outcomes x depth unchecked."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

import mtg_outcomes as solver
import mtg_outcomes.limits  # noqa: F401
from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.graph import ChoiceGraph, build_graph, graph_outcomes
from mtg_outcomes.limits import Deadline
from mtg_outcomes.model import EngineError, load_case, parse_case
from mtg_outcomes.model.objective import parse_objective_text
from mtg_outcomes.model.outcome import Witness, sort_key
from mtg_outcomes.optimize import induce, optimize, witnesses

from ..conftest import CASES

SMALL = [CASES / "seeds" / "vengeful-archon-scroll-thief-split.yaml", CASES / "seeds" / "vengeful-archon-two-shields.yaml",
         CASES / "rulings" / "boros-reckoner-two-blockers.yaml", CASES / "rulings" / "boros-reckoner-dictate.yaml"]


def _every_path(cg: ChoiceGraph, fields: list[str] | None) -> dict[tuple[Any, ...], tuple[int, list[Witness]]]:
    """Every outcome's path count and first witness by walking every choice path in option order
    (exponential: only for small graphs), independently of the pass under test."""
    g: nx.DiGraph = cg.graph
    found: dict[tuple[Any, ...], tuple[int, list[Witness]]] = {}

    def walk(nid: int, times: int, wit: list[Witness]) -> None:
        if g.nodes[nid].get("kind") == "leaf":
            values = cg.leaves[nid]
            key = tuple(sorted(({f: values.get(f) for f in fields} if fields else values).items()))
            paths, first = found.get(key, (0, wit))
            found[key] = (paths + times, first)
            return
        data = g.nodes[nid]
        for _, child, d in sorted(g.out_edges(nid, data=True), key=lambda e: e[2]["order"]):
            step = Witness(data.get("chooser", ""), data.get("kind", ""), data.get("at", ""), d["picked"])
            walk(child, times * d.get("count", 1), [*wit, step])

    walk(cg.root, 1, [])
    return found


@pytest.mark.parametrize("path", SMALL, ids=[p.stem for p in SMALL])
@pytest.mark.parametrize("fields", [None, ["you.life"]])
def test_outcomes_match_every_choice_path(path: Path, fields: list[str] | None) -> None:
    cg = build_graph(load_case(path))
    outcomes, cut = graph_outcomes(cg, fields)
    assert cut is None
    walked = _every_path(cg, fields)
    assert [o.state for o in outcomes] == sorted(walked, key=sort_key)
    for o in outcomes:
        paths, first = walked[o.state]
        assert o.paths == paths
        assert list(o.witness) == first


# A rider whose damage the same prevention meets again, tripled first or not (616.1): every link
# of the chain is a choice with an end state beside it, so the witnesses together grow with the
# square of the graph (outcomes x depth)
CHAIN: dict[str, Any] = {
    "id": "chain",
    "players": [{"name": "you"}, {"name": "A"}],
    "battlefield": [
        {"id": "c0", "name": "Critter", "controller": "A", "types": ["creature"], "colors": ["red"],
         "power": 0, "toughness": 30},
        {"id": "e1", "name": "Tripler", "controller": "A", "types": ["enchantment"],
         "abilities": [{"multiply": 3, "to": "creatures"}]},
    ],
    "sources": [{"id": "sp", "name": "Spell", "controller": "A", "types": ["instant"], "colors": ["white"]}],
    "effects": [{"id": "s0", "controller": "A", "source": "sp", "prevent": {"all_but": 2}, "to": "creatures",
                 "then": {"deal": "prevented", "to": "c0"}}],
    "actions": [{"damage": [{"from": "sp", "to": "c0", "amount": 3}]}],
}


def test_witnesses_past_their_bound_cut_the_answer_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    case = parse_case(CHAIN)
    whole = enumerate_outcomes(case, engine="graph", max_nodes=600)
    assert whole.stats.get("limit") is None  # (cut by the node limit only)
    steps = sum(len(o.witness) for o in whole.outcomes)
    assert steps > 20_000  # the chain: ~300 outcomes, witnesses up to ~300 choices long
    monkeypatch.setattr(solver.limits, "WITNESS_STEPS", 10_000)
    cut = enumerate_outcomes(case, engine="graph", max_nodes=600)
    assert not cut.complete
    assert "witnesses hold more than 10000 choices" in cut.stats["limit"]
    assert sum(len(o.witness) for o in cut.outcomes) <= 10_000
    # the outcomes listed are the first ones, each with its witness, as without the bound
    assert cut.outcomes == whole.outcomes[:len(cut.outcomes)] and cut.outcomes


def test_a_passed_deadline_cuts_the_pass_saying_so() -> None:
    cg = build_graph(parse_case(CHAIN), max_nodes=200)
    outcomes, cut = graph_outcomes(cg, None, Deadline(0))
    assert outcomes == [] and cut is not None and "time limit" in cut


# ---------------------------------------------------------------------------------------------
# the same pass over the optimal lines (solver.optimize.witnesses) and backward induction's bound


def _every_kept_path(cg: ChoiceGraph, chosen: dict[int, list[tuple[int, str, str]]], keys: list[Any],
                     results: dict[int, frozenset[int]]) -> dict[Any, list[Witness]]:
    """Every outcome of optimal play and its first path over the kept options (exponential)."""
    g: nx.DiGraph = cg.graph
    found: dict[Any, list[Witness]] = {}

    def walk(nid: int, wit: list[Witness]) -> None:
        if g.nodes[nid].get("kind") == "leaf":
            for k in results.get(nid, ()):
                found.setdefault(keys[k], wit)
            return
        data = g.nodes[nid]
        for child, picked, _ in chosen.get(nid, ()):
            walk(child, [*wit, Witness(data.get("chooser", ""), data.get("kind", ""), data.get("at", ""), picked)])

    walk(cg.root, [])
    return found


@pytest.mark.parametrize("objective", ["you: [maximize you.life]", "A: [minimize A.life]"])
@pytest.mark.parametrize("path", SMALL, ids=[p.stem for p in SMALL])
def test_optimal_witnesses_match_every_kept_path(path: Path, objective: str) -> None:
    cg = build_graph(load_case(path))
    ind = induce(cg, parse_objective_text([objective]))
    outcomes, cut = witnesses(cg, ind, cg.root)
    assert cut is None
    walked = _every_kept_path(cg, ind.chosen, ind.keys, ind.results)
    assert sorted(o.state for o in outcomes) == sorted(walked)
    for o in outcomes:
        assert list(o.witness) == walked[o.state]


def test_backward_induction_past_its_bound_is_an_error_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chooser with no objective keeps every option, so on the chain every decision's set holds
    every outcome below it (outcomes x depth in all): past OUTCOME_SETS it is an error, said."""
    case = parse_case(CHAIN)
    objective = parse_objective_text(["you: [maximize you.life]"])
    assert len(optimize(case, objective, max_nodes=600, engine="graph").outcomes) > 100
    monkeypatch.setattr(importlib.import_module("mtg_outcomes.optimize"), "OUTCOME_SETS", 5_000)  # (the package re-exports the function)
    with pytest.raises(EngineError, match="outcome sets hold more than 5000 entries"):
        optimize(case, objective, max_nodes=600, engine="graph")
