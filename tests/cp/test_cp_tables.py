"""The CP group table's merge (solver.cp.tables._merge) against a plain reference: every sum of one
row per member, shares within their shields, each settled shield used up or never short (CR
615.7), the dominated flag patterns dropped. The fast merge (packed keys, pruning, layers kept as
arrays and searched) must give the same table on generated families, and its back pointers must
lead from every row of the table through one row per member back to nothing."""

from __future__ import annotations

from typing import Any

import pytest

import mtg_outcomes as solver
import mtg_outcomes.cp.sums  # noqa: F401
import mtg_outcomes.cp.tables  # noqa: F401
from bench.family import family_case
from mtg_outcomes.cp import cp_outcomes
from mtg_outcomes.cp.step import PlannedEvent
from mtg_outcomes.cp.tables import undominated
from mtg_outcomes.model import parse_case


def _to_layout(pe: PlannedEvent, row: tuple[int, ...], shields: list[str], riders: list[str],
               width: int = 1, column: int = 0) -> tuple[int, ...]:
    """An event's result in its table's columns, one row at a time (solver.cp.tables._laid_out
    does all at once): damage per column of damage (this event's in ``column``), shares...,
    took-all..., prevented...."""
    t = dict.fromkeys(shields, 0)
    full = dict.fromkeys(shields, 1)
    p = dict.fromkeys(riders, 0)
    i = 1
    for inst in pe.effects:
        if inst.spec.kind == "shield":
            t[inst.key], full[inst.key] = row[i], row[i + 1]
            i += 2
        elif inst.key in p:
            p[inst.key] = row[i]
            i += 1
    dealt = [0] * width
    dealt[column] = row[0]
    return (*dealt, *t.values(), *full.values(), *p.values())


def _used_up(row: tuple[int, ...], caps: list[int], dealt: int) -> tuple[int, ...]:
    """``row`` with the took-all flag set for each shield its share uses up: no other event can
    then get any of it, so the shield prevents as much as it can (615.7) whatever they offer."""
    ns = len(caps)
    if not any(row[dealt + i] == c for i, c in enumerate(caps)):
        return row
    flags = tuple(1 if row[dealt + i] == c else row[dealt + ns + i] for i, c in enumerate(caps))
    return (*row[:dealt + ns], *flags, *row[dealt + 2 * ns:])


def _reference(plan: Any, members: list[Any], rows: list[Any], shields: list[str], riders: list[str],
               columns: list[int], decided: frozenset[str]) -> set[tuple[int, ...]]:
    """The group table by definition, one member at a time in plain Python (the dominated flag
    patterns are dropped per layer: a dominated sum stays dominated whatever is added to it)."""
    width, ns = 1 + max(columns, default=0), len(shields)
    caps = [plan.shields[k] for k in shields]
    states = {(*([0] * width), *([0] * ns), *([1] * ns), *([0] * len(riders)))}
    for pe, own, c in zip(members, rows, columns, strict=True):
        mine = {_used_up(_to_layout(pe, r, shields, riders, width, c), caps, width) for r in own}
        new: set[tuple[int, ...]] = set()
        for s in states:
            for r in mine:
                row = [x + y for x, y in zip(s, r, strict=True)]
                for i in range(ns):
                    row[width + ns + i] = min(s[width + ns + i], r[width + ns + i])
                    if row[width + i] == caps[i]:
                        row[width + ns + i] = 1  # used up: it can't fall short any more
                if all(row[width + i] <= caps[i] for i in range(ns)):
                    new.add(tuple(row))
        states = set(undominated(dict.fromkeys(new), ns, width))
    settled = [k in decided for k in shields]
    final = {s for s in states if all(s[width + ns + i] == 1 for i in range(ns) if settled[i])}
    keep = [c for c in range(width + 2 * ns + len(riders))
            if not (width + ns <= c < width + 2 * ns and settled[c - width - ns])]
    return {tuple(s[c] for c in keep) for s in undominated(dict.fromkeys(final), ns, width)}


CASES = [("family-3x2", family_case(3, 2)), ("family-4x3", family_case(4, 3)), ("family-5x2", family_case(5, 2)),
         ("family-6x3", family_case(6, 3)),
         ("family-8x3", family_case(8, 3))]


@pytest.mark.parametrize("data", [d for _, d in CASES], ids=[n for n, _ in CASES])
def test_the_merge_gives_the_reference_table_and_its_back_pointers_lead_home(
        monkeypatch: pytest.MonkeyPatch, data: dict[str, Any]) -> None:
    merges: list[tuple[tuple[Any, ...], Any]] = []
    merge = solver.cp.tables._merge

    def spy(*args: Any) -> Any:
        got = merge(*args)
        merges.append((args, got))
        return got

    monkeypatch.setattr(solver.cp.tables, "_merge", spy)
    res = cp_outcomes(parse_case(data))
    assert res.complete and res.outcomes
    assert merges and all(got is not None for _, got in merges)
    for (plan, members, rows, shields, riders, _deadline, columns, decided), (layers, table) in merges:
        assert set(table) == _reference(plan, members, rows, shields, riders, columns, decided)
        assert len(layers) == len(members)
        width, ns = 1 + max(columns), len(shields)
        zero = (*([0] * width), *([0] * ns), *([1] * ns), *([0] * len(riders)))
        for top in table.values():  # each table row's state in the last layer, back to the start
            key = top
            for pos in range(len(members) - 1, -1, -1):
                key, own = layers[pos][key]
                assert own in rows[pos]
            assert key == zero
        with pytest.raises(KeyError):
            layers[-1][tuple(-1 for _ in top)]


@pytest.mark.parametrize("pack_bits", [62, 0], ids=["packed", "rows"])
def test_a_layer_finds_each_of_its_states_and_no_other(monkeypatch: pytest.MonkeyPatch, pack_bits: int) -> None:
    """A merge layer's look-up (solver.cp.tables._Layer), over packed keys or, where the rows
    don't fit ``PACK_BITS``, over the rows: each state gives its own back pointers; a row that
    is not a state (a value outside a column's range, or between states) is a KeyError."""
    import random

    import numpy as np

    monkeypatch.setattr(solver.cp.tables, "PACK_BITS", pack_bits)
    rng = random.Random(7)
    rows = sorted({(rng.randint(0, 9), rng.randint(3, 5), rng.randint(0, 300)) for _ in range(200)})
    states = np.array(rows, dtype=np.int64)
    before = np.arange(len(rows) * 2, dtype=np.int64).reshape(len(rows), 2)
    layer = solver.cp.tables._Layer(states, before, np.arange(len(rows))[::-1], [(i,) for i in range(len(rows))],
                                    np.arange(len(rows)))
    for i, row in enumerate(rows):
        assert layer[row] == (tuple(before[len(rows) - 1 - i].tolist()), (i,))
    for missing in [(0, 2, 0), (10, 3, 0), (0, 3, 301), (0, 3, -1), (0, 3), next(
            (x, y, z) for x in range(10) for y in range(3, 6) for z in range(301) if (x, y, z) not in set(rows))]:
        with pytest.raises(KeyError):
            layer[missing]


@pytest.mark.parametrize("seed", range(30))
def test_a_layer_keeps_each_distinct_row_once_less_the_dominated(seed: int) -> None:
    """What a merge layer keeps (solver.cp.tables._kept, one packing for both): the first of
    each distinct row, in order, less a row when another has the same sums and a strict superset
    of its took-all flags (615.7); by definition, row by row."""
    import random

    import numpy as np

    rng = random.Random(seed)
    ns, dealt, riders = rng.randint(0, 7), rng.randint(1, 2), rng.randint(0, 2)
    n = rng.randint(1, 60)
    rows = np.array([[rng.randint(0, 3) for _ in range(dealt + ns)] + [rng.randint(0, 1) for _ in range(ns)]
                     + [rng.randint(0, 2) for _ in range(riders)] for _ in range(n)],
                    dtype=np.int64).reshape(n, dealt + 2 * ns + riders)
    listed = [tuple(r) for r in rows.tolist()]
    first = {r: listed.index(r) for r in sorted(set(listed))}

    def dominated(r: tuple[int, ...]) -> bool:
        fl = slice(dealt + ns, dealt + 2 * ns)
        sums = r[:dealt + ns] + r[dealt + 2 * ns:]
        return any(o != r and o[:dealt + ns] + o[dealt + 2 * ns:] == sums and all(x <= y for x, y in zip(r[fl], o[fl], strict=True))
                   for o in first)

    assert solver.cp.tables._kept(rows, ns, dealt).tolist() == [i for r, i in first.items() if not dominated(r)]


def test_first_seen_keeps_each_key_once_with_its_first_index() -> None:
    """The chunked product's repeats (solver.cp.sums._first_seen): a key already seen keeps its
    earlier index, a key repeated within the chunk its first, new keys are appended in order."""
    import numpy as np

    seen, at = solver.cp.sums._first_seen(np.array([7, 3]), np.array([0, 2]),
                                            np.array([5, 3, 5, 9, 7, 9]), np.array([4, 5, 6, 7, 8, 9]))
    assert seen.tolist() == [7, 3, 5, 9]
    assert at.tolist() == [0, 2, 4, 7]


def _plain_sums(a: Any, b: Any, cap: list[int], ns: int, dealt: int) -> dict[tuple[int, ...], int]:
    """Every ``a[i] + b[j]`` (took-all flags and-ed) whose shares stay within ``cap``, each with
    the first flat index ``i * len(b) + j`` giving it: the merge step by definition."""
    out: dict[tuple[int, ...], int] = {}
    for i, x in enumerate(a.tolist()):
        for j, y in enumerate(b.tolist()):
            row = [p + q for p, q in zip(x, y, strict=True)]
            for k in range(dealt + ns, dealt + 2 * ns):
                row[k] = x[k] & y[k]
            if all(row[dealt + k] <= cap[k] for k in range(ns)):
                out.setdefault(tuple(row), i * len(b) + j)
    return out


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("way", ["dense", "packed", "rows"])
def test_each_way_of_a_merge_step_gives_the_plain_sums(monkeypatch: pytest.MonkeyPatch, seed: int, way: str) -> None:
    """solver.cp.sums._sum_step by direct addressing (a small space of sums), by packed keys
    and a hash table, and by rows: the same distinct sums, each with the first pair giving it,
    shares past a shield's remaining dropped (615.7), formed a few rows at a time."""
    import random

    import numpy as np

    rng = random.Random(seed)
    ns, dealt = rng.randint(0, 3), rng.randint(1, 2)
    cap = [rng.randint(1, 5) for _ in range(ns)]
    riders = rng.randint(0, 2)

    def rows(n: int) -> Any:
        return np.array([[rng.randint(0, 6) for _ in range(dealt)] + [rng.randint(0, c) for c in cap]
                         + [rng.randint(0, 1) for _ in range(ns)] + [rng.randint(0, 3) for _ in range(riders)]
                         for _ in range(n)], dtype=np.int64).reshape(n, dealt + 2 * ns + riders)

    a, b = rows(rng.randint(1, 30)), rows(rng.randint(1, 30))
    monkeypatch.setattr(solver.cp.sums, "CHUNK", 16)
    if way == "dense":
        monkeypatch.setattr(solver.cp.sums, "DENSE_PER_PAIR", 10**6)
    else:
        monkeypatch.setattr(solver.cp.sums, "DENSE_LIMIT", 0)
    if way == "rows":
        monkeypatch.setattr(solver.cp.sums, "PACK_BITS", 0)
    else:
        monkeypatch.setattr(solver.cp.sums, "_dense_step", _spy_dense(way == "dense"))
    got = solver.cp.sums.sum_step(a, b, np.array(cap, dtype=np.int64), ns, None, dealt, 10**6)
    assert got is not None
    seen, at = got
    assert len(seen) == len(set(map(tuple, seen.tolist())))
    assert dict(zip(map(tuple, seen.tolist()), at.tolist(), strict=True)) == _plain_sums(a, b, cap, ns, dealt)


def _spy_dense(used: bool) -> Any:
    """solver.cp.sums._dense_step, asserting that it answered (``used``) or declined."""
    dense = solver.cp.sums._dense_step

    def spy(*args: Any) -> Any:
        got = dense(*args)
        assert (got is not False) == used
        return got

    return spy


@pytest.mark.parametrize("data", [family_case(4, 3), family_case(8, 3)], ids=["family-4x3", "family-8x3"])
def test_events_sharing_a_memo_get_the_tables_they_get_alone(
        monkeypatch: pytest.MonkeyPatch, data: dict[str, Any]) -> None:
    """What follows an amount depends only on the effects (616.1, 615.7): an event's table read
    partly from another event's memo is the table (and sequences) it gets alone."""
    calls: list[tuple[Any, Any, Any]] = []
    results = solver.cp.tables.event_rows

    def spy(plan: Any, pe: Any, limit: Any = None, deadline: Any = None, memo: Any = None) -> Any:
        calls.append((plan, pe, memo))
        return results(plan, pe, limit, deadline, memo)

    monkeypatch.setattr(solver.cp.tables, "event_rows", spy)
    assert cp_outcomes(parse_case(data)).complete
    shared = [(plan, pe) for plan, pe, memo in calls if memo is not None]
    amounts = {pe.ev.amount for _, pe in shared}
    assert len(amounts) > 1  # events of different amounts met one memo
    for order in (shared, shared[::-1]):
        memos: dict[Any, Any] = {}
        for plan, pe in order:
            memo = memos.setdefault((id(plan), tuple(i.key for i in pe.effects)), {})
            assert results(plan, pe, memo=memo) == results(plan, pe)
