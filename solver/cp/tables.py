"""Per-event result tables: every distinct result of an event over its orders and shield shares
(616.1, 615.7), and group tables of events whose results only matter through their sums,
merged under explicit size bounds (checked before anything is allocated)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from mtg_outcomes.model.effects import EffectKind

from ..limits import Deadline
from ..rules import shields as shield_rule
from .step import PlannedEvent, StepPlan, apply_rule, effect_rule, tracked

if TYPE_CHECKING:
    from typing_extensions import TypeIs

    from .cptypes import Array, Mask

from .sums import BUILDING_TABLES, PACK_BITS, sum_step

Seq = tuple[tuple[int, int | None], ...]  # (effect index, share) in the order applied
DECLINED = -1  # the share of an optional effect its controller declined (a riderless non-shield)


Chain = tuple[Any, ...]  # a sequence as nested pairs (step, rest), () at its end: shared, not copied per result


Rows = dict[tuple[int, ...], Chain]  # an event's distinct results, each with one sequence (:func:`unchain` reads it)


def unchain(seq: Chain) -> Seq:
    """A sequence kept as nested pairs, as a tuple of its steps: only a witness's rows are read."""
    steps = []
    while seq:
        steps.append(seq[0])
        seq = seq[1]
    return tuple(steps)


class _TooBig(Exception):
    pass


TABLE_LIMIT = 20_000  # distinct results of one event above which it gets the slot encoding


Memo = dict[tuple[int, int], dict[tuple[Any, ...], Chain]]  # (effects applied, amount) -> the results from there


def event_rows(plan: StepPlan, pe: PlannedEvent, limit: int | None = None, deadline: Deadline | None = None,
             memo: Memo | None = None) -> Rows | None:
    """Every distinct result of one event over all orders and shares (CR 616.1, 615.7), each
    with one sequence of ``(effect index, share)`` producing it (as a :data:`Chain`); None when there are too many
    (at most ``limit`` results and five times as many steps: time and memory stay bounded).
    Raises :class:`LimitReached` when ``deadline`` passes.

    What follows an amount depends only on the effects and what of them is applied, not on the
    event: events of different amounts with the same effects may share ``memo`` (the caller
    clears it), so a smaller event's table is mostly read from a larger one's.

    A result is ``(damage, then per shield: share, took-all-offered, per rider prevention:
    amount prevented)``. Once the amount is 0 nothing further applies (120.8).
    """
    limit = TABLE_LIMIT if limit is None else limit
    effs = pe.effects
    n = len(effs)
    if n > 8:
        return None  # 8! orders and more: leave it to the slot encoding
    shield = [i.spec.kind == EffectKind.SHIELD for i in effs]
    rider = [tracked(plan, i) for i in effs]
    # whether each would apply at an amount (a cap only above its N, 616.1f); a shield at any
    applies = [(lambda a: True) if shield[j] else effect_rule(plan, effs[j]).applies for j in range(n)]
    own = memo is None
    memo = {} if memo is None else memo
    work = 0

    def rec(mask: int, amount: int) -> dict[tuple[Any, ...], Chain]:
        nonlocal work
        got = memo.get((mask, amount))
        if got is not None:
            return got
        out: dict[tuple[Any, ...], Chain] = {}
        now = [j for j in range(n) if not mask >> j & 1 and applies[j](amount)]
        if amount <= 0 or not now:  # none left that would now apply (616.1f, 120.8)
            rest = tuple(None if mask >> j & 1 else (0, 1) if shield[j] else 0 if rider[j] else None for j in range(n))
            out[(amount, *rest)] = ()
        else:
            for j in now:
                options: Iterable[int | None] = shield_rule.shares(shield_rule.room(plan.shields[effs[j].key], amount)) if shield[j] else \
                    (None, DECLINED) if effs[j].spec.may else (None,)
                for take in options:
                    entry: Any = None
                    if take == DECLINED:  # "you may": its controller doesn't apply it (616.1, solver.damage._decline)
                        new = amount
                        entry = 0 if rider[j] else None  # it prevented nothing (no 615.13 trigger)
                    elif take is None:
                        new = apply_rule(plan, effs[j], amount)
                        entry = amount - new if rider[j] else None
                    else:
                        new, entry = amount - take, (take, shield_rule.took_all(take, amount))
                    child = rec(mask | 1 << j, new)
                    work += len(child)
                    if deadline is not None:
                        deadline.check(BUILDING_TABLES)
                    step, cut, mid = (j, take), 1 + j, (entry,)
                    for suffix, seq in child.items():
                        key = suffix[:cut] + mid + suffix[cut + 1:]
                        if key not in out:
                            out[key] = (step, seq)
                    if len(out) > limit or work > 5 * limit:
                        raise _TooBig
        memo[(mask, amount)] = out
        return out

    try:
        found = rec(0, pe.ev.amount)
    except _TooBig:
        return None
    finally:
        if own:  # ``rec`` refers to itself (a cycle holding ``memo``): freed now, not at the next full collection
            memo.clear()
    return _flat_rows(found, shield, rider)


def _flat_rows(found: dict[tuple[Any, ...], Chain], shield: list[bool], rider: list[bool]) -> Rows:
    """:func:`event_rows`' results as table rows: the damage, then per shield its share and
    took-all flag, per tracked prevention its amount (the other effects' entries dropped)."""
    flat: Rows = {}
    for key, seq in found.items():
        row = [key[0]]
        for j in range(len(shield)):
            if shield[j]:
                row.extend(key[1 + j])
            elif rider[j]:
                row.append(key[1 + j])
        flat[tuple(row)] = seq
    return flat


def is_const(x: object) -> TypeIs[int]:
    """Whether a model's amount or literal is a Python constant (an int or bool), folded away."""
    return isinstance(x, int)


GROUP_LIMIT = 50_000  # states of one merge step above which its groups (then events) are tabled one by one


CROSS_LIMIT = 64_000_000  # rows of one merge step's cross product (a second or two) above which its groups (then events) are tabled one by one


LAYERS_LIMIT = 400_000  # rows a group's merge keeps over all its layers (back pointers as arrays: ~50 MB) before it gives up


def table_layout(plan: StepPlan, members: list[PlannedEvent]) -> tuple[list[str], list[str]]:
    shields = sorted({i.key for pe in members for i in pe.effects if i.spec.kind == EffectKind.SHIELD})
    riders = sorted({i.key for pe in members for i in pe.effects if tracked(plan, i)})
    return shields, riders


def _laid_out(pe: PlannedEvent, own: Rows, shields: list[str], riders: list[str], cap: Array, width: int,
              column: int) -> tuple[Array, list[tuple[int, ...]]]:
    """An event's rows in its table's columns (damage in ``column``, then shares, took-all flags, prevented), each shield its
    share uses up flagged as having taken all it was offered, the dominated
    rows dropped (:func:`undominated`): an array of distinct rows in the order first met and,
    for each, the event's own row giving it (the last such, as a dict built from ``own`` keeps)."""
    import numpy as np

    ns, src = len(shields), list(own)
    out = np.zeros((len(src), width + 2 * ns + len(riders)), dtype=np.int64)
    if not src:
        return out, []
    arr = np.array(src, dtype=np.int64).reshape(len(src), -1)
    out[:, width + ns:width + 2 * ns] = 1
    out[:, column] = arr[:, 0]
    i = 1
    for inst in pe.effects:
        if inst.spec.kind == EffectKind.SHIELD:
            at = shields.index(inst.key)
            out[:, width + at], out[:, width + ns + at] = arr[:, i], arr[:, i + 1]
            i += 2
        elif inst.key in riders:
            out[:, width + 2 * ns + riders.index(inst.key)] = arr[:, i]
            i += 1
    flags = out[:, width + ns:width + 2 * ns]
    flags[shield_rule.used_up(out[:, width:width + ns], cap)] = 1  # nothing can make it fall short (615.7)
    group = unique_rows(out, inverse=True)[1].reshape(-1)
    index = np.arange(len(src))
    first = np.full(int(group.max()) + 1, len(src))
    last = np.zeros(len(first), dtype=np.int64)
    np.minimum.at(first, group, index)
    np.maximum.at(last, group, index)
    order = np.argsort(first, kind="stable")
    out, mine = out[first[order]], [src[j] for j in last[order].tolist()]
    if ns > 6:
        kept = undominated(dict(zip(map(tuple, out.tolist()), mine, strict=True)), ns, width)
        return np.array(list(kept), dtype=np.int64).reshape(len(kept), out.shape[1]), list(kept.values())
    keep = np.flatnonzero(~dominated(out, ns, width))
    return out[keep], [mine[j] for j in keep.tolist()]


class _Layer:
    """One merge layer's back pointers, kept as arrays (a dict of tuples per state cost more than
    the sums): its states (rows, sorted and distinct), and per state the index of the state it
    came from in the previous layer's ``before`` and of the member's own row in ``mine``. Looking
    a state up is a binary search (the witnesses need a few per outcome), over the rows packed
    into one integer each where they fit (packed once, at the first look-up)."""

    __slots__ = ("_packed", "_tried", "before", "mine", "own", "prev", "states")

    def __init__(self, states: Array, before: Array, prev: Array, mine: list[tuple[int, ...]], own: Array) -> None:
        self.states, self.before, self.prev, self.mine, self.own = states, before, prev, mine, own
        self._packed: tuple[list[int], list[int], Array] | None = None
        self._tried = False  # whether _keys has packed them (or found they don't fit)

    def __len__(self) -> int:
        return len(self.states)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return iter(map(tuple, self.states.tolist()))

    def _keys(self) -> tuple[list[int], list[int], Array] | None:
        """Each column's least value and bits, and the rows packed (column 0 most significant,
        so the keys are sorted as the rows are); None when they don't fit ``PACK_BITS``."""
        if not self._tried:
            import numpy as np

            self._tried = True
            states = self.states
            lo = states.min(axis=0) if len(states) else np.zeros(states.shape[1], dtype=np.int64)
            bits = [int(v).bit_length() for v in (states.max(axis=0) - lo)] if len(states) else [0] * len(lo)
            if sum(bits) <= PACK_BITS:
                self._packed = (lo.tolist(), bits, _pack_rows(states - lo, bits))
        return self._packed

    def _find(self, key: tuple[int, ...]) -> int:
        packed = self._keys()
        states = self.states
        if packed is None:
            i = bisect_left(range(len(states)), key, key=lambda j: tuple(states[j].tolist()))
            if i == len(states) or tuple(states[i].tolist()) != key:
                raise KeyError(key)
            return i
        lo, bits, keys = packed
        if len(key) != len(bits):
            raise KeyError(key)
        k = 0
        for v, low, b in zip(key, lo, bits, strict=True):
            v -= low
            if v < 0 or v >> b:
                raise KeyError(key)
            k = k << b | v
        i = int(keys.searchsorted(k))
        if i == len(keys) or int(keys[i]) != k:
            raise KeyError(key)
        return i

    def __getitem__(self, key: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The state ``key`` came from and the member's own row that gave it."""
        i = self._find(key)
        return tuple(self.before[int(self.prev[i])].tolist()), self.mine[int(self.own[i])]


Layers = list[_Layer]


def _merge(plan: StepPlan, members: list[PlannedEvent], rows: list[Rows], shields: list[str], riders: list[str],
           deadline: Deadline | None = None, columns: list[int] | None = None,
           decided: frozenset[str] = frozenset()) -> tuple[Layers, dict[tuple[int, ...], tuple[int, ...]]] | None:
    """The distinct summed results of events tabled together, layer by layer with back pointers
    (a DP over the events, the shields' shares so far in its state); each member's damage is
    summed into its column of damage (``columns``, default all 0: one sum). Shares above a
    shield's remaining are dropped. None when there are too many: a step whose cross product
    would exceed ``CROSS_LIMIT`` rows is refused before anything is allocated, and one with more
    than ``GROUP_LIMIT`` states kept (four times that before the dead ones are dropped), or more
    than ``LAYERS_LIMIT`` rows kept over all layers, is abandoned. Raises :class:`LimitReached`
    when ``deadline`` passes.

    Returns the layers and the table: each final row, without the took-all-offered column of
    the ``decided`` shields (those applied to no event outside the members), mapped to its row
    in the last layer. 615.7 settles a decided shield here: it prevents min(remaining, damage
    offered), so either it is used up or it took all it was offered wherever it applied; a
    state where it fell short somewhere and that the later events can no longer fill up is
    dropped as soon as it is formed (their largest shares bound what they can add), and a used-up
    shield's flag is set (nothing can make it fall short any more), so the states stay few and
    the table holds only results some legal choice gives."""
    import numpy as np

    columns = [0] * len(members) if columns is None else columns
    width = 1 + max(columns, default=0)
    ns = len(shields)
    cap = np.array([plan.shields[k] for k in shields], dtype=np.int64)
    zero = (*([0] * width), *([0] * ns), *([1] * ns), *([0] * len(riders)))
    converted = _converted(members, rows, columns, shields, riders, cap, width)
    later, later_total = _still_to_come(converted, width, ns)
    settled = np.array([k in decided for k in shields], dtype=bool)
    layers: Layers = []
    kept = 0
    a = np.array([zero], dtype=np.int64)  # the states' rows (sorted, distinct: the last layer's)
    for k, (b, mine) in enumerate(converted):
        fl = slice(width + ns, width + 2 * ns)
        # a state where every shield fell short or is used up gets the same sum from results that
        # differ only in their flags (and-ed with 0, or set again below): it meets one of each
        bare = np.all((a[:, fl] == 0) | shield_rule.used_up(a[:, width:width + ns], cap), axis=1) if ns else np.zeros(len(a), dtype=bool)
        stripped = b.copy()
        stripped[:, fl] = 0
        b0, pick = unique_rows(stripped)
        parts = [(np.flatnonzero(bare), b0, pick), (np.flatnonzero(~bare), b, np.arange(len(b)))]
        if sum(len(li) * len(rb) for li, rb, _ in parts) > CROSS_LIMIT:
            return None  # its size is known before the product is formed: never an unbounded table
        found, lefts, rights = [], [], []
        for li, rb, ri in parts:
            if not len(li):
                continue
            step = sum_step(a[li], rb, cap, ns, deadline, width, 4 * GROUP_LIMIT)
            if step is None:
                return None
            found.append(step[0])
            lefts.append(li[step[1] // len(rb)])
            rights.append(ri[step[1] % len(rb)])
        unique, li_of, ri_of = np.concatenate(found), np.concatenate(lefts), np.concatenate(rights)
        if ns:
            share, flag = unique[:, width:width + ns], unique[:, fl]
            flag[shield_rule.used_up(share, cap)] = 1  # a used-up shield can't fall short any more (615.7)
            short = shield_rule.still_owed(cap, share, flag) * settled  # what a decided one must still prevent
            alive = np.all(short <= later[k], axis=1) & (short.sum(axis=1) <= later_total[k])
            unique, li_of, ri_of = unique[alive], li_of[alive], ri_of[alive]
        at = _kept(unique, ns, width)  # the parts and set flags can meet; dominated rows go
        unique, li_of, ri_of = unique[at], li_of[at], ri_of[at]
        if len(unique) > GROUP_LIMIT:
            return None
        layers.append(_Layer(unique, a, li_of, mine, ri_of))
        a = unique
        kept += len(unique)
        if kept > LAYERS_LIMIT:
            return None
    keep = [c for c in range(len(zero)) if not (width + ns <= c < width + 2 * ns and settled[c - width - ns])]
    table: dict[tuple[int, ...], tuple[int, ...]] = {}
    for row, part in zip(map(tuple, a.tolist()), a[:, keep].tolist(), strict=True):
        table.setdefault(tuple(part), row)
    return layers, table


def _converted(members: list[PlannedEvent], rows: list[Rows], columns: list[int], shields: list[str], riders: list[str],
               cap: Array, width: int) -> list[tuple[Array, list[tuple[int, ...]]]]:
    """Each member's rows in the group table's columns (:func:`_laid_out`), identical events
    sharing theirs."""
    same: dict[tuple[int | str, ...], tuple[Array, list[tuple[int, ...]]]] = {}
    converted = []
    for pe, own, c in zip(members, rows, columns, strict=True):
        key: tuple[int | str, ...] = (id(own), c, *(i.key for i in pe.effects))
        if key not in same:
            same[key] = _laid_out(pe, own, shields, riders, cap, width, c)
        converted.append(same[key])
    return converted


def _still_to_come(converted: list[tuple[Array, list[tuple[int, ...]]]], width: int, ns: int) -> tuple[list[Array], list[int]]:
    """What the events after each member can still prevent (615.7: a decided shield that fell
    short must be filled up by them): per shield, and in all (their largest rows)."""
    import numpy as np

    most = [conv[:, width:width + ns] for conv, _ in converted]
    each = [x.max(axis=0) if len(x) else np.zeros(ns, dtype=np.int64) for x in most]
    total = [int(x.sum(axis=1).max()) if len(x) and ns else 0 for x in most]
    later = [sum(each[k + 1:], np.zeros(ns, dtype=np.int64)) for k in range(len(converted))]
    later_total = [sum(total[k + 1:]) for k in range(len(converted))]
    return later, later_total


def unique_rows(rows: Array, inverse: bool = False) -> tuple[Array, Array]:
    """``np.unique(rows, axis=0, return_index=True)`` (``return_inverse`` with ``inverse``) for a
    2-D array of non-negative integers: when its columns fit in ``PACK_BITS`` bits each row is
    packed into one integer (column 0 most significant, so the order is the same) and sorted as
    one key, far faster than comparing rows."""
    import numpy as np

    bits = [max(int(v).bit_length(), 1) for v in rows.max(axis=0)] if len(rows) and rows.shape[1] else []
    if not bits or int(rows.min()) < 0 or sum(bits) > PACK_BITS:
        if inverse:
            got, back = np.unique(rows, axis=0, return_inverse=True)
            return got, back
        got, at = np.unique(rows, axis=0, return_index=True)
        return got, at
    keys = _pack_rows(rows, bits)
    if inverse:
        _, at, back = np.unique(keys, return_index=True, return_inverse=True)
        return rows[at], back
    _, at = np.unique(keys, return_index=True)
    return rows[at], at


def _pack_rows(rows: Array, bits: list[int]) -> Array:
    """Each row of non-negative integers as one int64, column ``c`` in ``bits[c]`` bits, column 0
    most significant (so the keys sort as the rows do); the caller checks that they fit."""
    import numpy as np

    keys = np.zeros(len(rows), dtype=np.int64)
    for c, b in enumerate(bits):
        keys = (keys << b) | rows[:, c]
    return keys


def _kept(rows: Array, ns: int, dealt: int) -> Array:
    """The index of each distinct row's first occurrence, in the rows' order, less the rows
    another dominates (:func:`dominated`): :func:`unique_rows` then :func:`dominated`, with
    one packing of the rows serving both where they fit."""
    import numpy as np

    bits = [max(int(v).bit_length(), 1) for v in rows.max(axis=0)] if len(rows) else []
    if not bits or not 0 < ns <= 6 or int(rows.min()) < 0 or sum(bits) > PACK_BITS:
        _, at = unique_rows(rows)
        return at[~dominated(rows[at], ns, dealt)]
    shift = [sum(bits[c + 1:]) for c in range(len(bits))]
    keys, at = np.unique(_pack_rows(rows, bits), return_index=True)
    flags = range(dealt + ns, dealt + 2 * ns)  # a took-all flag is 0 or 1: one bit each
    mask = sum((((keys >> shift[c]) & 1) << i for i, c in enumerate(flags)), np.zeros(len(keys), dtype=np.int64))
    group = np.unique(keys & ~sum(1 << shift[c] for c in flags), return_inverse=True)[1].reshape(-1)
    return at[~_flag_dominated(group, mask, ns)]


def _flag_dominated(group: Array, mask: Array, ns: int) -> Mask:
    """Whether another row of the same ``group`` (same sums) has a strict superset of the row's
    took-all flags ``mask`` (615.7: it allows every completion this one does)."""
    import numpy as np

    mask = mask.astype(np.uint64)
    present = np.zeros(int(group.max()) + 1, dtype=np.uint64)
    np.bitwise_or.at(present, group, np.left_shift(np.uint64(1), mask))
    above = np.array([sum(1 << s for s in range(1 << ns) if s != m and s & m == m) for m in range(1 << ns)], dtype=np.uint64)
    return (present[group] & above[mask]) != 0


def dominated(rows: Array, ns: int, dealt: int) -> Mask:
    """Which rows (an array) :func:`undominated` drops: another row has the same sums and a
    superset of its took-all flags. Vectorised by flag sets for up to six shields."""
    import numpy as np

    if ns == 0 or not len(rows):
        return np.zeros(len(rows), dtype=bool)
    fl = slice(dealt + ns, dealt + 2 * ns)
    if ns > 6:
        keys = [tuple(r) for r in rows.tolist()]
        kept = undominated(dict.fromkeys(keys), ns, dealt)
        return np.array([k not in kept for k in keys], dtype=bool)
    sums = np.delete(rows, fl, axis=1)
    group = unique_rows(sums, inverse=True)[1].reshape(-1)
    return _flag_dominated(group, (rows[:, fl] << np.arange(ns)).sum(axis=1), ns)


def undominated(rows: dict[tuple[int, ...], Any], ns: int, dealt: int = 1) -> dict[tuple[int, ...], Any]:
    """Drop a result when another has the same sums and took all it was offered wherever this
    one did: it allows every completion this one allows, with the same outcome (615.7)."""
    if ns == 0:
        return rows
    by_sums: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for key in rows:
        by_sums.setdefault(key[:dealt + ns] + key[dealt + 2 * ns:], []).append(key[dealt + ns:dealt + 2 * ns])
    keep: dict[tuple[int, ...], Any] = {}
    for key, value in rows.items():
        mine = key[dealt + ns:dealt + 2 * ns]
        others = by_sums[key[:dealt + ns] + key[dealt + 2 * ns:]]
        if not any(o != mine and all(a >= b for a, b in zip(o, mine, strict=True)) for o in others):
            keep[key] = value
    return keep
