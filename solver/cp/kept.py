"""The solutions of the outcomes an aimed enumeration found, kept as hints for later aims
(solver.cp.sweep: an aim from another neighbour, the ranges' aims before a proof).

Kept compressed: a hundred-attacker model's solution is ~12,500 integers (100 KB as 64-bit
values) and a sweep finds ~1,600 outcomes; the values are mostly 0 and 1, so each compresses to
~4 KB (0.2 ms).
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Sequence


class Kept:
    """One solution per outcome (the first given for it), by its projection's key."""

    def __init__(self) -> None:
        self._packed: dict[tuple[int, ...], bytes] = {}

    def put(self, key: tuple[int, ...], values: Sequence[int]) -> None:
        if key not in self._packed:
            self._packed[key] = zlib.compress(array("q", values).tobytes(), 1)

    def get(self, key: tuple[int, ...]) -> list[int] | None:
        packed = self._packed.get(key)
        if packed is None:
            return None
        values = array("q")
        values.frombytes(zlib.decompress(packed))
        return values.tolist()

    def __contains__(self, key: object) -> bool:
        return key in self._packed
