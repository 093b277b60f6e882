"""Regeneration (CR 701.19): a shield a resolving spell or ability creates for one permanent, a
replacement effect of its next destruction this turn (614.8): instead all damage marked on it is
removed, it is tapped and, attacking or blocking, removed from combat (506.4)."""

from __future__ import annotations

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.errors import EngineError

from .decision import note
from .rules.effects import Instance, effects_in_force
from .select import matches
from .state import GameState, PermState, Table, replace

__all__ = ["destroy_or_regenerate"]


def _shield(state: GameState, table: Table, perm: PermState) -> Instance | None:
    """The regeneration shield that replaces ``perm``'s destruction, or None. Several are the same
    replacement ("regenerate it", each for this turn), so which one is used can't change anything
    but which is left; the oldest is used."""
    shields = [i for i in effects_in_force(state, table) if i.spec.kind == EffectKind.REGENERATE
               and matches(i.spec.to, perm.id, state, table, i.view, default=False)]
    if not shields:
        return None
    if any(i.spec.kind == EffectKind.EXILE_INSTEAD and i.spec.value and matches(i.spec.to, perm.id, state, table, i.view, default=False)
           for i in effects_in_force(state, table)):
        # 616.1: its controller would choose which replacement applies first
        raise EngineError(f"{perm.id}: a regeneration shield and \"exile it instead\" both apply to its destruction; "
                          "the choice between them (CR 616.1) is not modelled")
    return shields[0]


def destroy_or_regenerate(state: GameState, table: Table, perms: list[PermState]) -> tuple[GameState, list[PermState]]:
    """``perms`` would be destroyed (701.8a; by lethal or deathtouch damage, 704.5g-h): each with a
    regeneration shield is regenerated instead (701.19a, the shield used up); the others are
    returned, still to be put into the graveyard."""
    left: list[PermState] = []
    for perm in perms:
        inst = _shield(state, table, perm)
        if inst is None:
            left.append(perm)
            continue
        now = state.perm(perm.id)
        assert now is not None
        # 701.19a: remove all damage (and so deathtouch damage, 704.5h), tap it, remove it from combat
        # (an attacker it blocked stays blocked, 506.4, 509.1h)
        state = state.set_perm(replace(now, damage=0, deathtouched=False, tapped=True, attacking=None, blocking=(),
                                       choosing_block=False))
        state = replace(state, effects=tuple(replace(e, used=True) if e.id == inst.state_id else e for e in state.effects))
        state = note(state, f"{table.perm_specs[now.spec].name} ({now.id}) is regenerated instead of destroyed: its damage "
                            "removed, tapped, out of combat (701.19a)")
    return state, left
