"""Excess damage dealt to another object instead (CR 120.4a), the first step of processing
damage: both the engine's damage actions and a one-shot's "excess to its controller" read it."""

from __future__ import annotations

from .rules.lethal import lethal_damage
from .state import Event, GameState, Table, replace

__all__ = ["excess_split"]


def excess_split(state: GameState, table: Table, events: list[Event], excess_to: list[str | None]) -> list[Event]:
    """120.4a, the first step of processing damage: an event whose effect says excess damage is
    dealt to another permanent or player instead becomes two, what is lethal for the permanent and
    the excess. Lethal counts damage already marked and the other damage dealt to it at the same
    time, deathtouch (1 is lethal, 702.2c), a planeswalker's loyalty and a battle's defense (the
    greatest excess where it has several of those types), but no replacement or prevention effect
    (they apply afterwards, 120.4b) and not indestructible (Flame Spill rulings, 2020-04-17)."""
    out: list[Event] = []
    for i, (ev, other) in enumerate(zip(events, excess_to, strict=True)):
        perm = state.perm(ev.recipient)
        if other is None or perm is None or not perm.present:
            out.append(ev)
            continue
        at_once = sum(e.amount for k, e in enumerate(events) if k != i and e.recipient == ev.recipient)
        types = table.perm_specs[perm.spec].types
        room = []
        if "creature" in types:
            room.append(lethal_damage(state, table, perm.id, ev.source, at_once))
        if "planeswalker" in types:
            room.append(max(0, perm.loyalty - at_once))
        if "battle" in types:
            room.append(max(0, perm.defense - at_once))
        kept = min([ev.amount, *room])
        out.extend(e for e in (replace(ev, amount=kept), replace(ev, recipient=other, amount=ev.amount - kept)) if e.amount > 0)
    return out
