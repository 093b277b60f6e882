"""One instance of damage (CR 615.8): what a next-time prevention prevents.

"The next time [a source] would deal damage ..., prevent that damage" prevents the next
*instance* of damage from that source, however much it is; damage a source deals to several
recipients at once is one instance (120.2, 510.2: Famine to each player and creature,
a Craw Wurm's combat damage to both its blockers). So within a batch the effect is committed to
the source of the first event it prevents damage from, applies to each of that source's events
of the batch it meets, and is used up when the batch is dealt. The affected player may let it
pass an event only for another source's instance (a shield not bound to one source, 615.7's
choice); passing one of the very source it then prevents leaves a branch the rules forbid.
"""

from __future__ import annotations

from typing import Any

from mtg_outcomes.model.effects import EffectKind, is_all

from .rules import shields
from .state import Batch, GameState, replace

__all__ = ["one_instance", "committed", "commit", "pass_over", "fell_short", "end_instances"]


def one_instance(spec: Any) -> bool:
    """An effect used up by the one instance of damage it prevents (CR 615.8): a shield of "all"
    (``next_time: true`` with ``prevent: all``) or a next-time prevention ("prevent half", Dark
    Sphere)."""
    return (spec.kind == EffectKind.SHIELD and is_all(spec.value)) or (spec.kind == EffectKind.PREVENT and bool(spec.next_time))


def committed(batch: Batch | None, key: str) -> str | None:
    """The source whose instance of damage effect ``key`` prevents in this batch, if any yet."""
    if batch is None:
        return None
    return next((src for k, src in batch.instances if k == key), None)


def commit(batch: Batch, key: str, source: str) -> Batch:
    """Effect ``key`` prevented damage from ``source``: this batch's damage from it is its instance."""
    if committed(batch, key) is not None:
        return batch
    return replace(batch, instances=(*batch.instances, (key, source)))


def pass_over(batch: Batch, key: str, source: str) -> Batch:
    """The affected player let the effect pass an event of ``source`` it could have prevented."""
    return replace(batch, skipped=batch.skipped | {key}, passed=batch.passed | {(key, source)})


def fell_short(state: GameState, keys: Any) -> bool:
    """Whether one of the one-instance shields ``keys`` broke 615.7/615.8 in the open batch: it
    let an event pass and prevented no instance at all (a shield prevents all it can), or it let
    an event of the very source whose instance it then prevented pass (that damage is part of the
    instance)."""
    batch = state.batch
    assert batch is not None
    for e in state.effects:
        if e.id not in keys or e.id not in batch.skipped:
            continue
        src = committed(batch, e.id)
        # 615.7 (its instance, not an amount, is what it has to prevent: unused, it has one left)
        if (src is None and shields.falls_short(False, 0 if e.used else 1)) or (src is not None and (e.id, src) in batch.passed):
            return True
    return False


def end_instances(state: GameState) -> GameState:
    """The batch is dealt: each committed effect has prevented its instance and is used up (615.8)."""
    batch = state.batch
    assert batch is not None
    done = {k for k, _ in batch.instances}
    if not done:
        return state
    return replace(state, effects=tuple(replace(e, used=True) if e.id in done else e for e in state.effects))
