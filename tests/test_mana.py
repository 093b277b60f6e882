"""Mana: what a permanent could produce (CR 106.7, 605, 616.1, 614.5, 302.6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from model.load import load_case
from solver.cli import main
from solver.mana import could_produce, could_produce_action, could_produce_all, why
from solver.state import GameState, Table, initial_state

HEAD = "id: t\ntitle: t\nformat: standard\nplayers:\n  - {name: you}\n  - {name: A}\n"


def _state(tmp_path: Path, body: str) -> tuple[GameState, Table]:
    f = tmp_path / "case.yaml"
    f.write_text(HEAD + body)
    return initial_state(load_case(f))


def test_cr_106_7_undefined_type_reflecting_pool_alone(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: pool, card: Reflecting Pool, controller: you}\n")
    assert could_produce(s, t, "pool") == ()
    assert any("undefined" in line for line in why(s, t, "pool"))


def test_cr_106_7_least_fixed_point_two_pools(tmp_path: Path) -> None:
    pools = ("battlefield:\n  - {id: p1, card: Reflecting Pool, controller: you}\n"
             "  - {id: p2, card: Reflecting Pool, controller: you}\n")
    s, t = _state(tmp_path, pools)
    assert could_produce_all(s, t) == {"p1": frozenset(), "p2": frozenset()}
    s, t = _state(tmp_path, pools + "  - {id: f, card: Forest, controller: you, tapped: true}\n")
    # a tapped Forest still could produce G: costs are ignored (106.7)
    assert could_produce(s, t, "p1") == ("G",) and could_produce(s, t, "p2") == ("G",)


def test_cr_106_7_exotic_orchard_sees_only_opponents_colors(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: o, card: Exotic Orchard, controller: you}\n"
                            "  - {id: mine, card: Forest, controller: you}\n"
                            "  - {id: w, name: Wastes, controller: A, types: [land], abilities: [{mana: [C], cost: [T]}]}\n"
                            "  - {id: i, name: Island, controller: A, types: [land], abilities: [{mana: [U], cost: [T]}]}\n")
    assert could_produce(s, t, "o") == ("U",)


def test_cr_616_1_replacements_in_any_order(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: f, card: Forest, controller: you}\n"
                            "  - {id: c, card: Contamination, controller: A}\n"
                            "effects:\n  - {id: r, controller: A, replace_mana: R, to: lands}\n")
    assert could_produce(s, t, "f") == ("B", "R")  # last applied wins; G never
    lines = why(s, t, "f")
    assert sum("order" in line for line in lines) == 2


def test_cr_614_5_and_pale_moon_nonbasic_only(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: f, card: Forest, controller: you}\n"
                            "  - {id: pool, card: Reflecting Pool, controller: you}\n"
                            "effects:\n  - {id: pm, controller: A, replace_mana: C, to: nonbasic lands}\n")
    assert could_produce(s, t, "f") == ("G",)
    assert could_produce(s, t, "pool") == ("C",)


def test_multiply_mana_changes_amount_not_type(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: f, card: Forest, controller: you}\n"
                            "  - {id: m, card: Mana Reflection, controller: you}\n"
                            "  - {id: c, card: Contamination, controller: A}\n")
    assert could_produce(s, t, "f") == ("B",)
    text = "\n".join(why(s, t, "f"))
    # replace_mana keeps the amount (Contamination's "and amount" is not modelled): x2 in both orders
    assert text.count("[B] x2") == 2


def test_cr_302_6_summoning_sick_creature_could_still_produce(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: e, card: Llanowar Elves, controller: you, summoning_sick: true}\n")
    assert could_produce(s, t, "e") == ("G",)  # 106.7: ignore whether costs could be paid
    assert any("302.6" in line for line in why(s, t, "e"))


def test_cr_605_replacement_needs_tap_for_mana(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: l, name: Untapped Land, controller: you, types: [land], "
                            "abilities: [{mana: [W], cost: [{pay_life: 1}]}]}\n"
                            "  - {id: c, card: Contamination, controller: A}\n")
    assert could_produce(s, t, "l") == ("W",)  # not tapped for mana: Contamination doesn't apply


def test_could_produce_action_records_sorted(tmp_path: Path) -> None:
    s, t = _state(tmp_path, "battlefield:\n  - {id: z, card: Forest, controller: you}\n"
                            "  - {id: a, card: Llanowar Elves, controller: you}\n"
                            "  - {id: c, card: Contamination, controller: A}\n")
    s2 = could_produce_action(s, t, "all")
    assert s2.mana == (("a", ("G",)), ("z", ("B",)))
    assert could_produce_action(s, t, "z").mana == (("z", ("B",)),)


def test_cli_mana(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parent.parent
    assert main(["mana", str(root / "cases/seeds/mana-contamination-any-order.yaml"), "--json"]) == 0
    assert '"could_produce": ["B", "R"]' in capsys.readouterr().out
    assert main(["mana", str(root / "cases/seeds/mana-two-reflecting-pools.yaml"), "--permanent", "pool1"]) == 0
    assert "could produce []" in capsys.readouterr().out
