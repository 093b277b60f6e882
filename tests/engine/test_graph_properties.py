"""Property tests of the choice graph on random situations: invariants the rules guarantee whatever
the players choose (CR 615.7: shields always prevent as much as they can; 615.5: riders use the
amount prevented), checked against arithmetic computed independently of the engine."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.model import parse_case

from ..conftest import ROOT

amounts = st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=3)
shields = st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=2)


def _case(damage: list[int], shield_sizes: list[int], rider: bool) -> dict:
    return {
        "id": "prop",
        "players": [{"name": "you"}, {"name": "A"}],
        "sources": [{"id": f"s{i}", "name": f"Spark {i}", "controller": "A", "types": ["instant"]}
                    for i in range(len(damage))],
        "effects": [{"id": f"sh{j}", "shield": n, "to": "you", "controller": "you",
                     **({"then": {"deal": "prevented", "to": "A"}} if rider else {})}
                    for j, n in enumerate(shield_sizes)],
        "actions": [{"damage": [{"from": f"s{i}", "to": "you", "amount": a} for i, a in enumerate(damage)]}],
    }


@settings(max_examples=150, deadline=None)
@given(amounts, shields, st.booleans())
def test_shields_prevent_as_much_as_they_can(damage: list[int], shield_sizes: list[int], rider: bool) -> None:
    result = enumerate_outcomes(parse_case(_case(damage, shield_sizes, rider)), engine="graph")
    assert result.complete and result.outcomes
    prevented = min(sum(damage), sum(shield_sizes))
    for o in result.outcomes:
        v = o.values
        assert v["you.life"] == 20 - (sum(damage) - prevented)
        remaining = sum(v[f"sh{j}.remaining"] for j in range(len(shield_sizes)))
        assert remaining == sum(shield_sizes) - prevented
        # riders deal exactly what was prevented (615.5), and nothing without riders
        assert v["A.life"] == 20 - (prevented if rider else 0)
        assert o.paths >= 1


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=5), st.integers(min_value=0, max_value=5))
def test_616_doubler_and_shield_orders(amount: int, shield: int) -> None:
    """A doubler and a shield on one event: exactly the two orders' results (CR 616.1)."""
    data = _case([amount], [shield], False)
    data["battlefield"] = [{"id": "d", "card": "Furnace of Rath", "controller": "A"}]
    result = enumerate_outcomes(parse_case(data), engine="graph")
    shield_first = 2 * max(0, amount - shield)
    double_first = max(0, 2 * amount - shield)
    lives = {o.values["you.life"] for o in result.outcomes}
    assert lives == {20 - shield_first, 20 - double_first}


def test_two_options_to_one_state_are_two_paths() -> None:
    """Two copies of Furnace of Rath: applying either first gives the same state, so the graph
    has one edge, but two choice paths lead to the outcome and the witness names the first."""

    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.model import load_case

    case = load_case(ROOT / "cases" / "rulings" / "furnace-of-rath-two-copies.yaml")
    [outcome] = enumerate_outcomes(case, engine="graph").outcomes
    assert outcome.paths == 2
    assert [w.picked for w in outcome.witness] == ["f1"]


attackers = st.lists(st.tuples(st.integers(1, 4), st.integers(1, 4), st.sampled_from(["", "menace", "flying", "trample", "deathtouch"])),
                     min_size=1, max_size=3)


@settings(max_examples=60, deadline=None)
@given(attackers, st.integers(2, 3), st.tuples(st.integers(0, 3), st.integers(1, 3)), st.booleans())
def test_merging_identical_blockers_keeps_every_projected_outcome(atk: list[tuple[int, int, str]], copies: int,
                                                                  pt: tuple[int, int], other: bool) -> None:
    """Blocks merged up to swaps of identical blockers (solver.symmetry) reach exactly the
    outcomes the unmerged declarations reach, projected on fields that don't name them."""
    bf: list[dict] = [{"id": f"a{i}", "name": f"Attacker {i}", "controller": "A", "types": ["creature"], "power": p,
                       "toughness": t, "keywords": [k] if k else [], "attacking": "you"} for i, (p, t, k) in enumerate(atk)]
    bf += [{"id": f"b{j}", "name": "Soldier", "controller": "you", "types": ["creature"], "power": pt[0],
            "toughness": pt[1]} for j in range(copies)]
    if other:
        bf.append({"id": "wall", "name": "Wall", "controller": "you", "types": ["creature"], "power": 0, "toughness": 4})
    case = parse_case({"id": "sym", "players": [{"name": "A"}, {"name": "you"}], "battlefield": bf,
                       "actions": [{"combat": {"blocks": "choose"}}]})
    fields = ["you.life", *(f"a{i}.dies" for i in range(len(atk))), *(f"a{i}.damage" for i in range(len(atk)))]
    merged = enumerate_outcomes(case, engine="graph", fields=fields)
    full = enumerate_outcomes(case, engine="graph")
    assert merged.complete and full.complete
    assert {o.state for o in merged.outcomes} == {tuple(sorted((f, o.values[f]) for f in fields)) for o in full.outcomes}
