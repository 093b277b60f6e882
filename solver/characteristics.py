"""A permanent's power, toughness and keywords as continuous effects change them (CR 613).

Printed values and keywords come from the case (or the card); ``pt`` effects add to power and
toughness (613.4c, layer 7c, with +1/+1 and -1/-1 counters: all additions, so their order doesn't
matter) and ``grant`` effects add keywords (613.1f, layer 6): static abilities ("Equipped creature
gets +2/+2 and has first strike") and effects created by spells and abilities ("target creature
gains lifelink until end of turn": ``duration: turn``, the whole case being one turn). Effects that
*set* power or toughness (7b) aren't in the vocabulary; ``lose`` effects remove keywords (613.1f,
"loses infect": Melira). Keywords granted to
permanents chosen by their keywords (613.8 dependencies) are refused when the case is read.
"""

from __future__ import annotations

# what a selector reads and what effects in force change are one recursion (a selector reads
# keywords, an effect's condition reads a selector): solver.select computes them
from .select import NO_CHANGE as _NONE
from .select import changes, has_keyword, keywords_of, power, toughness
from .state import GameState, PermState, Table, replace

__all__ = ["changes", "power", "toughness", "keywords_of", "has_keyword", "leave"]


def leave(state: GameState, table: Table, perms: list[PermState], died: frozenset[str] = frozenset()) -> GameState:
    """``perms`` leave the battlefield at once, each keeping its characteristics as it last existed
    there (113.7a, 608.2h), read on the state before any of them left: the bonus of an Equipment
    that becomes unattached after (704.5n), of a lord leaving with it. Those in ``died`` are put
    into a graveyard (700.4)."""
    before = changes(state, table)
    for perm in perms:
        now = state.perm(perm.id) or perm
        state = state.set_perm(replace(now, present=False, last=before.get(perm.id, _NONE), died=now.died or perm.id in died))
    return state
