"""Lethal damage (CR 120.6, 702.2c): how much more damage is lethal for a creature, read by combat
damage assignment (510.1c-d, trample 702.19b) and by excess damage (120.4a)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..characteristics import toughness
from ..select import has_keyword
from ..state import GameState, Table


def _needed(state: GameState, table: Table, blocker: str) -> int:
    """The damage still lethal for ``blocker``: its toughness less damage already marked (120.4a,
    702.19b). Damage a deathtouch source dealt it earlier counts only as marked damage: deathtouch
    makes 1 lethal only for the source now dealing or assigning it (120.4a, 702.2c), and one that
    survived the state-based check since (indestructible, 702.12b) is not doomed by it (704.5h)."""
    perm = state.perm(blocker)
    assert perm is not None
    return max(0, toughness(table, perm, state) - perm.damage)


def lethal_damage(state: GameState, table: Table, blocker: str, source: str, assigned_by_others: int) -> int:
    """How much more damage from ``source`` is lethal for ``blocker`` (120.6, 702.19b): what is
    still needed less ``assigned_by_others``; from a deathtouch source any nonzero amount is
    (702.2c), unless the rest is lethal already."""
    rest = max(0, _needed(state, table, blocker) - assigned_by_others)
    if has_keyword(state, table, source, "deathtouch"):
        return min(rest, 1)
    return rest


@dataclass(frozen=True)
class LethalIf:
    """``blocker`` has been assigned lethal damage once ``sources`` (None: every creature) assign
    it ``at_least`` in total this step (702.19b)."""

    sources: frozenset[str] | None
    at_least: int


def lethal_conditions(state: GameState, table: Table, blocker: str, sources: Iterable[str]) -> tuple[LethalIf, ...]:
    """702.19b, 702.2c: lethal damage is assigned to ``blocker`` when all the damage assigned to it
    this step (counting damage already marked) reaches its toughness, or when any of ``sources``
    with deathtouch assigns it a nonzero amount. The graph engine checks these on an assignment,
    the CP model on its variables (one definition)."""
    out = [LethalIf(None, _needed(state, table, blocker))]
    deadly = frozenset(s for s in sources if has_keyword(state, table, s, "deathtouch"))
    if deadly:
        out.append(LethalIf(deadly, 1))
    return tuple(out)


def lethal_assigned(state: GameState, table: Table, blocker: str, assigned: dict[str, int]) -> bool:
    """Whether ``assigned`` (source -> damage assigned to ``blocker``) meets :func:`lethal_conditions`."""
    return any(sum(n for src, n in assigned.items() if c.sources is None or src in c.sources) >= c.at_least
               for c in lethal_conditions(state, table, blocker, assigned))


def lethal_constraint(m: Any, at_least: Callable[[Any, int], Any], to_blocker: Callable[[frozenset[str] | None], Any],
                      conditions: Iterable[LethalIf], when: Iterable[Any]) -> None:
    """The constraint form of :func:`lethal_assigned` (702.19b, over the whole assignment: 510.1e)
    on a CP-SAT model ``m``: when every literal of ``when`` holds, one of ``conditions`` is met.
    ``to_blocker(sources)``: the damage those sources (None: every creature) assign the blocker, a
    linear expression; ``at_least(expr, k)``: a literal for ``expr >= k`` (or a bool)."""
    met = [at_least(to_blocker(c.sources), c.at_least) for c in conditions]
    guard = [x for x in when if x is not True]
    if any(x is True for x in met) or any(x is False for x in guard):
        return
    lits = [x for x in met if x is not False]
    if lits:
        m.add_bool_or(lits).only_enforce_if(guard)
    elif guard:
        m.add_bool_or([~x for x in guard])
    else:
        m.add_bool_or([False])  # the trampler can't assign to the player at all
