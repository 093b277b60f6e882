"""Triggered abilities granted by an effect (CR 613.1f): "All Sliver creatures have poisonous 1."
(Virulent Sliver; 702.70a). Each permanent the effect names has the ability while the effect
applies (611.3a), its ``self`` that permanent; each effect granting it is an instance of its own,
so two Virulent Slivers give each Sliver two triggers (702.70b). A granted ability is numbered
below zero on its permanent (``Table.granted``, ``Table.ability_at``), so a trigger put on the
stack keeps it even if the effect ends before it resolves (113.7a: it exists on its own)."""

from __future__ import annotations

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.types import Ability

from .select import effects_in_force, matches
from .state import GameState, Table

__all__ = ["granted_watchers", "granted_index"]


def granted_index(table: Table, ab: Ability) -> int:
    """The (negative) number of granted ability ``ab`` (the same object, the same number)."""
    for k, known in enumerate(table.granted):
        if known is ab:
            return -1 - k
    table.granted.append(ab)
    return -len(table.granted)


def granted_watchers(state: GameState, table: Table, trigger: str | None) -> list[tuple[str, str, int, Ability]]:
    """(permanent, controller, number, ability) for each granted trigger of this kind (None: of
    any kind), once for each effect granting it (702.70b), as solver.triggers.watchers lists a
    permanent's own."""
    out = []
    for inst in effects_in_force(state, table):
        if inst.spec.kind != EffectKind.GRANT_TRIGGER or trigger not in (None, inst.spec.value.trigger):
            continue
        ab: Ability = inst.spec.value
        for p in state.perms:
            if p.present and matches(inst.spec.to, p.id, state, table, inst.view, default=False):
                out.append((p.id, p.controller, granted_index(table, ab), ab))
    return out
