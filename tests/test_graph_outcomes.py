"""The pass that reads the distinct outcomes off the choice graph (solver.graph.graph_outcomes):
the same outcomes, path counts and first witnesses as walking every choice path, in time and
memory bounded by the graph and the limits, never by outcomes x depth unchecked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import networkx as nx
import pytest

import solver.limits
from model import load_case, parse_case
from model.outcome import Witness, sort_key
from solver import enumerate_outcomes
from solver.graph import ChoiceGraph, build_graph, graph_outcomes
from solver.limits import Deadline

from .conftest import CASES

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
