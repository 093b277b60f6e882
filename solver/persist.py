"""Persist and undying (CR 702.79a, 702.93a): "When this creature dies, if it had no -1/-1
(+1/+1) counters on it, return it to the battlefield under its owner's control with a -1/-1
(+1/+1) counter on it."

The intervening "if" (603.4) reads the creature as it last existed on the battlefield (603.10a),
both as it dies and as the ability resolves. The creature that returns is a new object (400.7):
no damage, none of its old counters or effects, its "When this enters" abilities trigger again
(603.6a), and it enters with the one counter (614.1c). A token that died has ceased to exist
(111.7, 704.5d) and can't return; nor can a card that has already left the graveyard (an object
with its id is on the battlefield again: 400.7)."""

from __future__ import annotations

from mtg_outcomes.model.kinds import TriggerEvent

from .enters import enters_with
from .results import put_counters
from .state import GameState, PermState, Table, replace
from .triggers import collect_triggers

__all__ = ["return_to_battlefield", "created_token"]


def created_token(table: Table, spec: int) -> bool:
    """Whether permanent spec ``spec`` is of a token an effect created (111.1)."""
    return any(isinstance(k, tuple) and k and k[0] == "token" and v == spec for k, v in table.memo.items())


def return_to_battlefield(state: GameState, table: Table, pid: str | None, counter: str) -> GameState:
    """The persist or undying return of ``pid`` (the trigger's own object) with one ``counter``."""
    old = state.perm(pid) if pid is not None else None
    if old is None or old.present or not old.died or old.counter(counter) > 0 or created_token(table, old.spec):
        return state  # not in the graveyard, or it had such a counter as it last existed (603.4)
    spec = table.perm_specs[old.spec]
    counters, loyalty = enters_with(spec, 0)
    new = PermState(id=old.id, spec=old.spec, controller=spec.owner, counters=tuple(sorted(counters)),
                    loyalty=loyalty, defense=spec.defense)
    state = replace(state, perms=state.perms + (new,))
    # it enters with the counter (122.6: "put" on it as it enters), so an effect on counters put on
    # it applies: Melira's "can't have -1/-1 counters put on them", Vizier of Remedies' one fewer
    state = put_counters(state, table, old.id, counter, 1)
    return collect_triggers(state, table, TriggerEvent.ENTERS, [(old.id, {"X": 0})])
