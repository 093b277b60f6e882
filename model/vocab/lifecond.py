"""Conditions on a life total (CR 119.1, 611.3a): "as long as you have N or less life" (Phyrexian
Unlife, Fateful hour), "as long as you have N or more life" (Honor Troll, Serra Ascendant), and
"as long as you have at least N life more than your starting life total" (Leyline of Hope; the
starting life total is the one the player began the game with, 103.4, which the case must say).

Case-file forms: ``if_life_at_most: 5``, ``if_life_at_least: 25``, ``if_life_at_least:
{starting_plus: 7}`` (the controller's life at least their ``starting_life:`` plus 7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..effects import EffectKind
from ..errors import CaseError
from .common import _kind

__all__ = ["LifeCondition", "parse_life_condition"]

# the effects whose life condition the engines read wherever they read the effect: "at most" on
# any kind (Phyrexian Unlife's as_though, since before), "at least" on a static power/toughness or
# keyword change (613.4c, 613.1f)
_AT_LEAST_KINDS = (EffectKind.PT, EffectKind.GRANT)


@dataclass(frozen=True)
class LifeCondition:
    at_most: int | None = None
    at_least: int | None = None
    from_start: bool = False  # at_least counts from the controller's starting life total (103.4)


def _whole(raw: Any, path: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise CaseError(path, f"expected a whole number (a life total), got {_kind(raw)}")
    return raw


def parse_life_condition(m: Mapping[str, Any], path: str, kind: EffectKind) -> LifeCondition:
    """The effect's life condition (both keys may be given: a range), or an error naming the key."""
    at_most = _whole(m["if_life_at_most"], f"{path}.if_life_at_most") if "if_life_at_most" in m else None
    if "if_life_at_least" not in m:
        return LifeCondition(at_most)
    kpath = f"{path}.if_life_at_least"
    if kind not in _AT_LEAST_KINDS:
        raise CaseError(kpath, f"if_life_at_least goes with a pt: or grant: (\"as long as you have N or more life\"), not {kind}")
    raw = m["if_life_at_least"]
    if isinstance(raw, Mapping):
        if set(raw) != {"starting_plus"}:
            raise CaseError(kpath, "expected a life total or {starting_plus: N} (at least N life more than the starting "
                                   "life total, CR 103.4)")
        if at_most is not None:
            raise CaseError(kpath, "if_life_at_least: {starting_plus: N} doesn't go with if_life_at_most")
        return LifeCondition(None, _whole(raw["starting_plus"], f"{kpath}.starting_plus"), True)
    return LifeCondition(at_most, _whole(raw, kpath))


def needs_starting_life(at_least_from_start: bool, players: Any, path: str) -> CaseError | None:
    """103.4: an effect counting from the starting life total needs every player's ``starting_life:``
    (the case's life totals are where the game is now, not where it began: 20, 30 in Two-Headed
    Giant, 40 in Commander ...); an error naming the first player without it, else None."""
    if not at_least_from_start:
        return None
    for i, p in enumerate(players):
        if p.starting_life is None:
            return CaseError(f"players[{i}].starting_life", f"{path} counts from the starting life total (CR 103.4): "
                                                             "say each player's starting_life:")
    return None
