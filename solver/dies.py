"""Dying (CR 700.4): a permanent put into a graveyard from the battlefield, by a state-based action or
sacrificed (701.21a), its "When this dies" abilities triggering (603.6c, 603.10a) — unless an
effect exiles it instead (614.1a)."""

from __future__ import annotations

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.kinds import AbilityKind, TriggerEvent

from .characteristics import leave
from .rules.effects import effects_in_force
from .select import View, matches
from .state import (
    GameState,
    PermState,
    Table,
    Trigger,
    replace,
)


def put_into_graveyard(state: GameState, table: Table, perms: list[PermState]) -> GameState:
    """``perms`` die (700.4: put into a graveyard from the battlefield, by a state-based action or
    sacrificed, 701.21a). Their "When this dies" abilities trigger, looking back in time: the
    permanent as it last existed on the battlefield, its controller then (603.6c, 603.10a)."""
    new: list[Trigger] = []
    before = state  # 603.10a: leaves-the-battlefield abilities look back, to the game before the event
    watching = [(q, j, ab) for q in before.perms if q.present
                for j, ab in enumerate(table.perm_specs[q.spec].abilities)
                if ab.kind == AbilityKind.TRIGGER and ab.trigger == TriggerEvent.DIES and ab.trigger_from is not None]
    # 614.1a: "if it would die, exile it instead": it leaves, it doesn't die, nothing triggers
    dying = [perm for perm in perms if not _exiled_instead(before, table, perm)]
    state = leave(state, table, perms, frozenset(p.id for p in dying))
    for perm in dying:
        spec = table.perm_specs[perm.spec]
        new += [Trigger(perm.controller, perm.id, j, (), label=spec.name)
                for j, ab in enumerate(spec.abilities) if ab.kind == AbilityKind.TRIGGER and ab.trigger == TriggerEvent.DIES and ab.trigger_from is None]
        # "Whenever a creature dealt damage by this creature this turn dies" (603.6c, 603.10a): the
        # watchers there before the event (one dying with it too), the creature as it last existed
        for q, j, ab in watching:
            view = View(q.controller, q.id, None, q.chosen)
            if matches(ab.trigger_from, perm.id, before, table, view):
                new.append(Trigger(q.controller, q.id, j, (), label=table.perm_specs[q.spec].name))
    return replace(state, pending=state.pending + tuple(new)) if new else state


def _exiled_instead(state: GameState, table: Table, perm: PermState) -> bool:
    return any(inst.spec.kind == EffectKind.EXILE_INSTEAD and inst.spec.value
               and matches(inst.spec.to, perm.id, state, table, inst.view, default=False)
               for inst in effects_in_force(state, table))
