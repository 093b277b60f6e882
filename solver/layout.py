"""A layered drawing of a DAG (Sugiyama style), in pure Python: no Graphviz needed.

1. Layers by longest path from the sources, so every edge points downward; an edge spanning
   several layers gets a dummy point in each layer it crosses.
2. Order within each layer by barycentre sweeps (down, then up), keeping the order with the
   fewest crossings seen.
3. x coordinates: each node pulled towards the mean of its neighbours in the previous (or next)
   layer, with the order and the gaps between boxes kept (the mean of the leftmost and the
   rightmost placement that respect them).

Everything is deterministic: ties are broken by the order in which nodes and edges are given.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

__all__ = ["Layout", "layered_layout"]

Point = tuple[float, float]


@dataclass
class Layout:
    """Centre ``x`` and top ``y`` of every node, its layer, and each edge's route (points from the
    bottom of its tail to the top of its head)."""

    x: dict[Hashable, float] = field(default_factory=dict)
    y: dict[Hashable, float] = field(default_factory=dict)
    layer: dict[Hashable, int] = field(default_factory=dict)
    routes: dict[tuple[Hashable, Hashable], list[Point]] = field(default_factory=dict)
    width: float = 0.0
    height: float = 0.0


@dataclass(frozen=True)
class _Dummy:
    edge: int
    k: int


def layered_layout(nodes: Sequence[tuple[Hashable, float, float]], edges: Sequence[tuple[Hashable, Hashable]],
                   hgap: float = 28.0, vgap: float = 64.0, margin: float = 16.0, sweeps: int = 12) -> Layout:
    """Lay out ``nodes`` (``(id, width, height)``) joined by ``edges`` (``(tail, head)``, a DAG)."""
    size = {n: (w, h) for n, w, h in nodes}
    order_in = {n: i for i, (n, _, _) in enumerate(nodes)}
    succ: dict[Hashable, list[Hashable]] = {n: [] for n in size}
    pred: dict[Hashable, list[Hashable]] = {n: [] for n in size}
    edge_list = [(a, b) for a, b in dict.fromkeys(edges) if a in size and b in size and a != b]
    for a, b in edge_list:
        succ[a].append(b)
        pred[b].append(a)
    layer = _longest_path_layers(list(size), succ, pred, order_in)

    # dummies: an edge over k layers becomes a chain through k-1 small points
    chain: dict[tuple[Hashable, Hashable], list[Hashable]] = {}
    lsucc: dict[Hashable, list[Hashable]] = {n: [] for n in size}
    lpred: dict[Hashable, list[Hashable]] = {n: [] for n in size}
    lay = dict(layer)
    for i, (a, b) in enumerate(edge_list):
        points: list[Hashable] = [a]
        for k in range(layer[a] + 1, layer[b]):
            d = _Dummy(i, k)
            lay[d] = k
            size[d] = (6.0, 0.0)
            lsucc[d], lpred[d] = [], []
            points.append(d)
        points.append(b)
        chain[(a, b)] = points
        for u, v in zip(points, points[1:], strict=False):
            lsucc[u].append(v)
            lpred[v].append(u)

    depth = max(lay.values(), default=-1) + 1
    layers: list[list[Hashable]] = [[] for _ in range(depth)]
    for n in _dfs_order(list(layer), lsucc, lpred, order_in):
        layers[lay[n]].append(n)
    layers = _minimise_crossings(layers, lsucc, lpred, sweeps)

    x = _coordinates(layers, size, lsucc, lpred, hgap)
    out = Layout()
    tops: list[float] = []
    y = margin
    for row in layers:
        tops.append(y)
        y += max((size[n][1] for n in row), default=0.0) + vgap
    out.height = y - vgap + margin
    left = min((x[n] - size[n][0] / 2 for n in x), default=0.0)
    shift = margin - left
    for row_i, row in enumerate(layers):
        row_h = max((size[n][1] for n in row), default=0.0)
        for n in row:
            x[n] += shift
            if not isinstance(n, _Dummy):
                out.x[n] = x[n]
                out.y[n] = tops[row_i] + (row_h - size[n][1]) / 2
                out.layer[n] = row_i
    out.width = max((x[n] + size[n][0] / 2 for n in x), default=0.0) + margin
    mid = {i: tops[i] + max((size[n][1] for n in row), default=0.0) / 2 for i, row in enumerate(layers)}
    for (a, b), points in chain.items():
        route = [(out.x[a], out.y[a] + size[a][1])]
        route += [(x[d], mid[lay[d]]) for d in points[1:-1]]
        route.append((out.x[b], out.y[b]))
        out.routes[(a, b)] = route
    return out


def _longest_path_layers(nodes: list[Hashable], succ: dict[Hashable, list[Hashable]],
                         pred: dict[Hashable, list[Hashable]], order_in: dict[Hashable, int]) -> dict[Hashable, int]:
    indeg = {n: len(pred[n]) for n in nodes}
    ready = sorted((n for n in nodes if indeg[n] == 0), key=order_in.__getitem__)
    layer = {n: 0 for n in nodes}
    seen = 0
    while ready:
        n = ready.pop(0)
        seen += 1
        for m in succ[n]:
            layer[m] = max(layer[m], layer[n] + 1)
            indeg[m] -= 1
            if indeg[m] == 0:
                ready.append(m)
    if seen != len(nodes):
        raise ValueError("layered_layout needs a DAG: the edges form a cycle")
    return layer


def _dfs_order(nodes: list[Hashable], succ: dict[Hashable, list[Hashable]], pred: dict[Hashable, list[Hashable]],
               order_in: dict[Hashable, int]) -> list[Hashable]:
    """Nodes in depth-first order from the sources, children in edge order: the starting order."""
    seen: set[Hashable] = set()
    out: list[Hashable] = []
    roots = sorted((n for n in nodes if not pred[n]), key=order_in.__getitem__)
    for r in roots:
        stack = [r]
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            out.append(n)
            stack.extend(reversed(succ[n]))
    return out


def _crossings(upper: list[Hashable], lower: list[Hashable], succ: dict[Hashable, list[Hashable]]) -> int:
    pos = {n: i for i, n in enumerate(lower)}
    ends = [pos[m] for n in upper for m in succ[n] if m in pos]
    # inversions among the heads, taken in the tails' order (merge-sort count)
    return _inversions(ends)


def _inversions(seq: list[int]) -> int:
    if len(seq) < 2:
        return 0
    mid = len(seq) // 2
    left, right = seq[:mid], seq[mid:]
    count = _inversions(left) + _inversions(right)
    left.sort()
    right.sort()
    j = 0
    for v in left:
        while j < len(right) and right[j] < v:
            j += 1
        count += j
    return count


def _total_crossings(layers: list[list[Hashable]], succ: dict[Hashable, list[Hashable]]) -> int:
    return sum(_crossings(layers[i], layers[i + 1], succ) for i in range(len(layers) - 1))


def _minimise_crossings(layers: list[list[Hashable]], succ: dict[Hashable, list[Hashable]],
                        pred: dict[Hashable, list[Hashable]], sweeps: int) -> list[list[Hashable]]:
    best = [list(r) for r in layers]
    best_count = _total_crossings(best, succ)
    cur = [list(r) for r in layers]
    for s in range(sweeps):
        down = s % 2 == 0
        rng = range(1, len(cur)) if down else range(len(cur) - 2, -1, -1)
        for i in rng:
            ref = cur[i - 1] if down else cur[i + 1]
            nbrs = pred if down else succ
            pos = {n: j for j, n in enumerate(ref)}
            here = {n: j for j, n in enumerate(cur[i])}

            def key(n: Hashable, pos: dict[Hashable, int] = pos, here: dict[Hashable, int] = here,
                    nbrs: dict[Hashable, list[Hashable]] = nbrs) -> tuple[float, int]:
                ps = [pos[m] for m in nbrs[n] if m in pos]
                return (sum(ps) / len(ps) if ps else float(here[n]), here[n])

            cur[i] = sorted(cur[i], key=key)
        count = _total_crossings(cur, succ)
        if count < best_count:
            best, best_count = [list(r) for r in cur], count
    return best


def _coordinates(layers: list[list[Hashable]], size: dict[Hashable, tuple[float, float]],
                 succ: dict[Hashable, list[Hashable]], pred: dict[Hashable, list[Hashable]],
                 hgap: float) -> dict[Hashable, float]:
    x: dict[Hashable, float] = {}
    for row in layers:
        at = 0.0
        for n in row:
            x[n] = at + size[n][0] / 2
            at += size[n][0] + hgap
    for it in range(8):
        down = it % 2 == 0
        rng = range(1, len(layers)) if down else range(len(layers) - 2, -1, -1)
        for i in rng:
            row = layers[i]
            nbrs = pred if down else succ
            want = []
            for n in row:
                xs = [x[m] for m in nbrs[n]]
                want.append(sum(xs) / len(xs) if xs else x[n])
            for n, v in zip(row, _place(row, want, size, hgap), strict=True):
                x[n] = v
    return x


def _place(row: list[Hashable], want: list[float], size: dict[Hashable, tuple[float, float]],
           hgap: float) -> list[float]:
    """Positions as close to ``want`` as the order and the gaps allow: the mean of the leftmost
    and the rightmost such placements (each keeps every gap, so their mean does)."""
    sep = [(size[a][0] + size[b][0]) / 2 + hgap for a, b in zip(row, row[1:], strict=False)]
    left = list(want)
    for i in range(1, len(row)):
        left[i] = max(want[i], left[i - 1] + sep[i - 1])
    right = list(want)
    for i in range(len(row) - 2, -1, -1):
        right[i] = min(want[i], right[i + 1] - sep[i])
    return [(a + b) / 2 for a, b in zip(left, right, strict=True)]
