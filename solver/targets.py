"""Targets: what is a legal target (115, 601.2c, 608.2b; hexproof, shroud, protection 702.11, 702.18, 702.16)."""

from __future__ import annotations

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.selectors import Selector, SelectorKind

from .characteristics import keywords_of
from .rules.effects import (
    effects_in_force,
    protected_from,
)
from .select import View, is_player, matches, opponents
from .state import (
    GameState,
    Table,
)

__all__ = ['legal_target', 'target_candidates']


def legal_target(state: GameState, table: Table, target: str | None, requirement: Selector | None, controller: str,
                 source: str, that_player: str | None = None) -> bool:
    """Whether ``target`` meets ``requirement`` for a spell or ability of ``controller`` from
    ``source`` (``that_player``: a trigger's player, "target planeswalker that player controls")."""
    if target is None:
        return False
    if is_player(table, target):
        p = state.player(target)
        if p.left:
            return False
    else:
        perm = state.perm(target)
        if perm is None or not perm.present:
            return False
    view = View(controller, source, that_player=that_player)
    if requirement is not None:
        if requirement.kind == SelectorKind.ANY:
            if not is_player(table, target):
                types = table.perm_specs[state.perm(target).spec].types  # type: ignore[union-attr]
                if not set(types) & {"creature", "planeswalker", "battle"}:
                    return False
        elif not matches(requirement, target, state, table, view):
            return False
    # hexproof / shroud (702.11, 702.18) and protection (702.16b, 702.16k)
    if not is_player(table, target):
        tctrl = state.perm(target).controller  # type: ignore[union-attr]
        kws = keywords_of(state, table, target)  # granted ones too (613.1f)
        if "shroud" in kws:
            return False
        if "hexproof" in kws and controller in opponents(table, state, tctrl):
            return False
    else:
        tctrl = target
    for inst in effects_in_force(state, table):
        kind = inst.spec.kind
        if kind in (EffectKind.HEXPROOF, EffectKind.SHROUD) and inst.spec.value and matches(inst.spec.to, target, state, table, inst.view):
            if kind == EffectKind.SHROUD or controller in opponents(table, state, tctrl):
                return False
        if kind == EffectKind.PROTECTION and matches(inst.spec.to, target, state, table, inst.view) and \
                protected_from(inst, source, controller, state, table):
            return False  # 702.16b: nor by a spell with the quality, nor an ability from a source with it
    return True


def target_candidates(state: GameState, table: Table, requirement: Selector | None, controller: str, source: str,
                      that_player: str | None = None) -> list[str]:
    things = [p.name for p in state.players if not p.left] + [p.id for p in state.perms if p.present]
    return [t for t in things if legal_target(state, table, t, requirement, controller, source, that_player)]
