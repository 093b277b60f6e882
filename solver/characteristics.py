"""A permanent's power, toughness and keywords as continuous effects change them (CR 613).

Printed values and keywords come from the case (or the card); ``pt`` effects add to power and
toughness (613.4c, layer 7c, with +1/+1 and -1/-1 counters: all additions, so their order doesn't
matter) and ``grant`` effects add keywords (613.1f, layer 6): static abilities ("Equipped creature
gets +2/+2 and has first strike") and effects created by spells and abilities ("target creature
gains lifelink until end of turn": ``duration: turn``, the whole case being one turn). Effects that
*set* power or toughness (7b) or remove abilities aren't in the vocabulary. Keywords granted to
permanents chosen by their keywords (613.8 dependencies) are refused when the case is read.
"""

from __future__ import annotations

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.types import with_pt_counters

from .rules import effects_in_force, reads_life
from .select import matches
from .state import GameState, PermState, Table, replace

__all__ = ["changes", "power", "toughness", "keywords_of", "has_keyword", "leave"]

# (power change, toughness change, keywords granted, keywords removed: 613.1f "loses infect")
Change = tuple[int, int, frozenset[str], frozenset[str]]
_NONE: Change = (0, 0, frozenset(), frozenset())


def changes(state: GameState, table: Table) -> dict[str, Change]:
    """Each permanent's (power change, toughness change, granted keywords), for those with any."""
    key = ("pt_grant", id(state.perms), id(state.effects))
    hit = table.memo.get(key)
    # an effect with a life condition (Honor Troll) changes with the life totals (solver.lifecond)
    if hit is not None and hit[0] is state.perms and hit[1] is state.effects and (hit[3] is None or hit[3] == _lives(state)):
        return hit[2]
    if table.memo.get("pt_grant_busy"):
        raise EngineError("an effect's condition reads keywords that a keyword grant changes (CR 613.8): not modelled")
    table.memo["pt_grant_busy"] = True
    try:
        insts = [i for i in effects_in_force(state, table) if i.spec.kind in (EffectKind.PT, EffectKind.GRANT, EffectKind.LOSE)]
        out: dict[str, Change] = {}
        for perm in state.perms:
            if not perm.present:
                # as it last existed on the battlefield (113.7a; set by :func:`leave`)
                if perm.last is not None and perm.last != _NONE:
                    out[perm.id] = perm.last
                continue
            if not insts:
                continue
            p = t = 0
            kws: set[str] = set()
            lost: set[str] = set()
            for inst in insts:
                if matches(inst.spec.to, perm.id, state, table, inst.view, default=False):
                    dp, dt, granted = inst.spec.value
                    p, t = p + dp, t + dt
                    (lost if inst.spec.kind == EffectKind.LOSE else kws).update(granted)
            if kws & lost:
                # 613.7: which applies last depends on their timestamps, not modelled
                raise EngineError(f"{perm.id} both gains and loses {sorted(kws & lost)[0]} (CR 613.7 timestamps): not modelled")
            if p or t or kws or lost:
                out[perm.id] = (p, t, frozenset(kws), frozenset(lost))
    finally:
        table.memo["pt_grant_busy"] = False
    table.memo[key] = (state.perms, state.effects, out, _lives(state) if reads_life(state, table) else None)
    return out


def _lives(state: GameState) -> tuple[int, ...]:
    return tuple(p.life for p in state.players)


def power(table: Table, perm: PermState, state: GameState) -> int:
    """Printed power, counters (122.1a) and ``pt`` effects (613.4c)."""
    return with_pt_counters(table.perm_specs[perm.spec].power, perm.counter) + changes(state, table).get(perm.id, _NONE)[0]


def toughness(table: Table, perm: PermState, state: GameState) -> int:
    """Printed toughness, counters (122.1a) and ``pt`` effects (613.4c)."""
    return with_pt_counters(table.perm_specs[perm.spec].toughness, perm.counter) + changes(state, table).get(perm.id, _NONE)[1]


def keywords_of(state: GameState, table: Table, oid: str) -> frozenset[str]:
    """An object's keywords: its own and those ``grant`` effects give it, less those ``lose``
    effects remove (613.1f)."""
    spec = table.spec_of(state, oid)
    if spec is None:
        return frozenset()
    ch = changes(state, table).get(oid, _NONE)
    return (frozenset(spec.keywords) | ch[2]) - ch[3]


def has_keyword(state: GameState, table: Table, oid: str, kw: str) -> bool:
    return kw in keywords_of(state, table, oid)


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
