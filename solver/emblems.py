"""Emblems with a triggered ability (CR 114): "[−7]: You get an emblem with "Whenever you cast a
spell, this emblem deals 5 damage to any target."" (Chandra, Torch of Defiance). The emblem is an
object in its owner's command zone (114.1) for the rest of the game (114.4; nothing removes it);
its ability works from there (113.6p) and it is the source of what it does (it has no colour or
other characteristics, 114.3). A state lists the emblems there are (``GameState.emblems``); their
characteristics are kept in ``Table.emblem_specs`` by id, the id made from the ability that made it
and the state's order, so equal paths make equal states."""

from __future__ import annotations

from mtg_outcomes.model.kinds import AbilityKind
from mtg_outcomes.model.types import Ability, SourceSpec

from .decision import event, says
from .state import GameState, StackItem, Table, replace

__all__ = ["make_emblem", "emblem_watchers"]


def make_emblem(state: GameState, table: Table, item: StackItem, ability: Ability) -> GameState:
    """``item``'s controller gets the emblem (114.1, 114.2: its owner and controller)."""
    eid = f"{item.source}_emblem{state.next_order}"
    maker = table.spec_of(state, item.source)
    name = f"{maker.name if maker is not None else item.source}'s emblem"
    table.emblem_specs.setdefault(eid, SourceSpec(eid, name, item.controller, item.controller, types=("emblem",),
                                                  abilities=(ability,)))
    state = replace(state, emblems=state.emblems + (eid,), next_order=state.next_order + 1)
    return event(state, f"{says(item.controller, 'gets')} an emblem ({name})", "114.1")


def emblem_watchers(state: GameState, table: Table, trigger: str) -> list[tuple[str, str, int, Ability]]:
    """The emblems' triggered abilities of this kind (114.4), as solver.triggers.watchers lists a
    permanent's."""
    out = []
    for eid in state.emblems:
        spec = table.emblem_specs[eid]
        for j, ab in enumerate(spec.abilities):
            if ab.kind == AbilityKind.TRIGGER and ab.trigger == trigger:
                out.append((eid, spec.controller, j, ab))
    return out
