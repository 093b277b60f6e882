"""One step of a group table's merge (solver.cp.tables._merge): the distinct sums of a row of the
states so far and a row of the next event's table, shares within their shields' remaining (CR
615.7), formed a chunk of the product at a time so memory stays bounded whatever its size."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from ..limits import Deadline

if TYPE_CHECKING:
    from .cptypes import Array

BUILDING_TABLES = "building the CP model's tables"


CHUNK = 1 << 18  # cross-product rows formed at once by a merge step (tens of MB: memory stays bounded)


PACK_BITS = 62  # a merge packs a row into one int64 key when its columns fit in this many bits


DENSE_LIMIT = 1 << 23  # sums a merge step can form (its columns' ranges multiplied) up to which it marks them in an array (32 MB)


DENSE_PER_PAIR = 4  # ... and per pair of the product: an array far larger than the product costs more than hashing it


def _guard_field(cap: int) -> tuple[int, int]:
    """A share's field in a packed sum: its width in bits and the bias added to one side so that
    its top bit (the guard) is set exactly when the two shares pass ``cap`` (615.7). Each side is
    at most ``cap``, so the biased sum stays within the field."""
    bits = int(cap).bit_length() + 1
    return bits, (1 << (bits - 1)) - 1 - int(cap)


def sum_step(a: Array, b: Array, cap: Array, ns: int, deadline: Deadline | None, dealt: int,
              most: int) -> tuple[Array, Array] | None:
    """The distinct rows ``a[i] + b[j]`` (took-all-offered columns: the minimum) whose shares
    stay within ``cap`` (615.7), each with the first flat index ``i * len(b) + j`` giving it;
    None above ``most`` distinct rows.

    The product is formed ``CHUNK`` rows at a time and each chunk's distinct rows are merged into
    those found so far, so memory stays within a few chunks whatever the product's size. When
    the sums' space is small, :func:`_dense_step` marks them in an array; otherwise, when
    the columns fit in ``PACK_BITS`` bits, each row of ``a`` and ``b`` is packed into one integer
    (column 0 most significant, so sorted keys are sorted rows) and a pair costs a few integer
    operations: one addition sums every column at once, each share's field carries a bias so
    that a guard bit is set exactly when the share passes its shield's remaining, and the
    took-all-offered flags are and-ed."""
    import numpy as np

    width = a.shape[1]  # ``dealt`` columns of damage, then shares, took-all flags, prevented
    shares = range(dealt, dealt + ns)
    flags = range(dealt + ns, dealt + 2 * ns)
    dense = _dense_step(a, b, cap, ns, deadline, dealt, most)
    if dense is not False:
        return dense
    top = a.max(axis=0) + b.max(axis=0)
    bits = [int(v).bit_length() for v in top]  # summed columns: damage and prevented damage
    for i, c in enumerate(shares):
        bits[c] = _guard_field(cap[i])[0]  # the share (at most its cap on each side) and a guard bit
    for c in flags:
        bits[c] = 1
    packed = sum(bits) <= PACK_BITS and all(
        int(x[:, c].max()) <= int(cap[i]) for x in (a, b) for i, c in enumerate(shares))
    seen = np.empty(0, dtype=np.int64) if packed else np.empty((0, width), dtype=np.int64)
    seen_at = np.empty(0, dtype=np.int64)
    if packed:
        shift = [sum(bits[c + 1:]) for c in range(width)]
        summed = [c for c in range(width) if c not in flags]
        bias = sum(_guard_field(cap[i])[1] << shift[c] for i, c in enumerate(shares))
        guard = sum(1 << (shift[c] + bits[c] - 1) for c in shares)

        def pack(x: Array, cols: Iterable[int]) -> Array:
            out = np.zeros(len(x), dtype=np.int64)
            for c in cols:
                out += x[:, c] << shift[c]
            return out

        ka, kb = pack(a, summed) + bias, pack(b, summed)
        fa, fb = pack(a, flags), pack(b, flags)
    per_chunk = max(1, CHUNK // len(b))
    for lo in range(0, len(a), per_chunk):
        if deadline is not None:
            deadline.check(BUILDING_TABLES)
        if packed:
            total = ka[lo:lo + per_chunk, None] + kb[None, :]  # every summed column at once
            ok = np.flatnonzero((total & guard) == 0)  # 615.7: no share above what the shield has left
            keys = total.ravel()[ok] - bias + (fa[lo:lo + per_chunk, None] & fb[None, :]).ravel()[ok]
            seen, seen_at = _first_seen(seen, seen_at, keys, ok + lo * len(b))
        else:
            part = a[lo:lo + per_chunk]
            both = part[:, None, :] + b[None, :, :]  # sums of damage, shares and prevented damage
            fl = slice(dealt + ns, dealt + 2 * ns)
            both[:, :, fl] = np.minimum(part[:, None, fl], b[None, :, fl])
            flat = both.reshape(-1, width)
            ok = np.nonzero(np.all(flat[:, dealt:dealt + ns] <= cap, axis=1))[0]
            at = np.concatenate([seen_at, ok + lo * len(b)])
            seen, first = np.unique(np.concatenate([seen, flat[ok]]), axis=0, return_index=True)
            seen_at = at[first]
        if len(seen) > most:  # before _merge drops the states no choice completes
            return None
    if packed:
        order = np.argsort(seen, kind="stable")  # distinct keys: sorted keys are sorted rows
        seen, seen_at = seen[order], seen_at[order]
        seen = np.stack([(seen >> shift[c]) & ((1 << bits[c]) - 1) for c in range(width)], axis=1)
    return seen, seen_at


def _dense_step(a: Array, b: Array, cap: Array, ns: int, deadline: Deadline | None, dealt: int, most: int) -> tuple[Array, Array] | Literal[False] | None:
    """:func:`sum_step` by direct addressing, or False when the sums' space is above
    ``DENSE_LIMIT``. Each column's sums lie in a known range (a share's up to its shield's
    remaining), so a row's columns but its took-all flags are a number in a mixed radix, with the
    flags as its last ``ns`` bits: a sum of two rows is the sum of their numbers with the flag
    bits and-ed, and the first index giving each is kept in an array indexed by it (no hashing;
    reading it in order gives the distinct rows). A share's guard is a field as in
    :func:`sum_step`, above the number's bits in the same integer: one addition sums both, and
    a pair with a guard bit set is at or past ``size``, where the array holds a sink."""
    import numpy as np

    width = a.shape[1]
    shares = range(dealt, dealt + ns)
    flags = range(dealt + ns, dealt + 2 * ns)
    lo = a.min(axis=0) + b.min(axis=0)
    hi = a.max(axis=0) + b.max(axis=0)
    over = [i for i, c in enumerate(shares) if int(hi[c]) > int(cap[i])]  # pairs can pass these shields' remaining
    for i, c in enumerate(shares):
        hi[c] = min(int(hi[c]), int(cap[i]))
    summed = [c for c in range(width) if c not in flags]
    span = {c: int(hi[c]) - int(lo[c]) + 1 for c in summed}
    if min(span.values(), default=1) < 1:  # even the least shares pass a shield's remaining: no pair is legal
        return np.empty((0, width), dtype=np.int64), np.empty(0, dtype=np.int64)
    stride, size = {}, 1 << ns
    for c in reversed(summed):
        stride[c], size = size, size * span[c]
    if size > min(DENSE_LIMIT, DENSE_PER_PAIR * len(a) * len(b)):
        return False
    zero_a, zero_b = np.zeros(len(a), dtype=np.int64), np.zeros(len(b), dtype=np.int64)
    na = sum(((a[:, c] - int(lo[c])) * stride[c] for c in summed), zero_a)  # the least sum is 0
    na += sum((a[:, c] << i for i, c in enumerate(flags)), zero_a)
    nb = sum((b[:, c] * stride[c] for c in summed), zero_b)
    flag_bits = (1 << ns) - 1
    fb = sum((b[:, c] << i for i, c in enumerate(flags)), zero_b)
    if over:  # a guard bit per shield, set exactly when the share passes its remaining
        bits, biases = zip(*(_guard_field(cap[i]) for i in over), strict=True)
        shift = [sum(bits[k + 1:]) for k in range(len(over))]
        ga = sum((a[:, dealt + i] + bias << s for i, bias, s in zip(over, biases, shift, strict=True)), zero_a)
        gb = sum((b[:, dealt + i] << s for i, s in zip(over, shift, strict=True)), zero_b)
        guard = sum(1 << (s + n - 1) for n, s in zip(bits, shift, strict=True))
    kind = np.int32 if len(a) * len(b) < np.iinfo(np.int32).max else np.int64  # a flat index into the product
    none = np.iinfo(kind).max
    low = size.bit_length()  # the numbers' bits; a shield's guard fields lie above them
    keep = ~(flag_bits & ~fb)  # a flag stays set only where both rows took all offered
    if over:
        if low + sum(bits) > PACK_BITS:  # no room for the guards: hashed (sum_step)
            return False
        na += ga << low
        nb += gb << low
        keep &= (1 << low) - 1 | guard << low
    first = np.full(size + 1, none, dtype=kind)
    met = np.zeros(size + 1, dtype=np.bool_)  # the numbers given so far: read per pair, a quarter of first's bytes
    met[size] = True  # where a pair past a shield's remaining points: never new
    found = 0
    per_chunk = max(1, CHUNK // len(b))
    for start in range(0, len(a), per_chunk):
        if deadline is not None:
            deadline.check(BUILDING_TABLES)
        part = slice(start, start + per_chunk)
        number = na[part, None] + nb[None, :]
        number &= keep[None, :]
        number = number.ravel()
        if over:  # any guard bit set (a share past its shield's remaining) puts it at or past size
            np.minimum(number, size, out=number)
        new = np.flatnonzero(~met[number])
        number = number[new]
        at = (new + start * len(b)).astype(kind)
        np.minimum.at(first, number, at)
        met[number] = True
        found += int(np.count_nonzero(first[number] == at))
        if found > most:  # before _merge drops the states no choice completes
            return None
    seen = np.flatnonzero(met[:size])
    return _decoded(seen, width, flags, summed, span, lo), first[seen].astype(np.int64)


def _decoded(seen: Array, width: int, flags: range, summed: list[int], span: dict[int, int], lo: Array) -> Array:
    """The rows whose mixed-radix numbers are ``seen`` (:func:`_dense_step`): the columns of
    ``summed`` as digits (the last column's least significant, each from its least ``lo``), the
    took-all flags (columns ``flags``) the last bits."""
    import numpy as np

    rows = np.empty((len(seen), width), dtype=np.int64)
    rest = seen >> len(flags)  # the mixed-radix digits, the last column's least significant
    for c in reversed(summed):
        rest, rows[:, c] = np.divmod(rest, span[c])
        rows[:, c] += int(lo[c])
    for i, c in enumerate(flags):
        rows[:, c] = seen >> i & 1
    return rows


def _first_seen(seen: Array, seen_at: Array, keys: Array, at: Array) -> tuple[Array, Array]:
    """``seen`` (distinct packed keys, each with the first index ``seen_at`` giving it) with the
    ``keys`` it hasn't got appended, each with its first index in ``at`` (``at`` rises, and every
    index in it is above those in ``seen_at``). A hash table (pandas, which OR-Tools depends on)
    marks the repeats in one pass: no sort per chunk of the product, only one of the distinct
    keys at the end."""
    import numpy as np
    import pandas as pd

    both = np.concatenate([seen, keys])
    new = np.flatnonzero(~pd.Series(both).duplicated(keep="first").to_numpy()[len(seen):])
    return np.concatenate([seen, keys[new]]), np.concatenate([seen_at, at[new]])
