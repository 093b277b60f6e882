"""A prevention's rider done for each source whose damage it prevented (CR 615.5): Comeuppance's
"If damage from a creature source is prevented this way, ~ deals that much damage to that creature.
If damage from a noncreature source is prevented this way, ~ deals that much damage to the source's
controller." (``then: {deal: prevented, to: that creature or the source's controller}``). The batch
keeps what the effect prevented of each source's damage (``Batch.prevented_from``); once the batch
is dealt, the rider deals each source's amount, all at once (one batch, 120.2, as one rider of a
group prevention does its total), right after the prevention and before state-based actions. "That creature" is the source if it is a creature
then (a source that has left the battlefield is dealt nothing, 120.1a); a noncreature source's
controller (as it last existed, 608.2h). The CP model leaves these riders to the rules engine after
its step (solver.cp.plan)."""

from __future__ import annotations

from dataclasses import replace as dc_replace

from mtg_outcomes.model.selectors import Selector, SelectorKind
from mtg_outcomes.model.types import EffectSpec, OneShot

from .select import controller_of
from .state import GameState, Table

__all__ = ["per_source", "by_source", "to_sources"]


def per_source(spec: EffectSpec) -> bool:
    return spec.then is not None and spec.then.to is not None and spec.then.to.kind == SelectorKind.PREVENTED_SOURCE


def by_source(got: tuple[tuple[str, str, int], ...], key: str, source: str, amount: int) -> tuple[tuple[str, str, int], ...]:
    """``got`` with ``amount`` more prevented by ``key`` of ``source``'s damage (nothing kept for ``""``)."""
    if not source:
        return got
    totals = {(k, s): n for k, s, n in got}
    totals[(key, source)] = totals.get((key, source), 0) + amount
    return tuple(sorted((k, s, n) for (k, s), n in totals.items()))


def _recipient(state: GameState, table: Table, source: str) -> str | None:
    """That creature (the source, a creature on the battlefield now), or a noncreature source's
    controller; None when the creature has left (120.1a: nothing to deal it to)."""
    spec = table.spec_of(state, source)
    perm = state.perm(source)
    if spec is not None and "creature" in spec.types and perm is not None:
        return source if perm.present else None
    return controller_of(state, table, source)


def to_sources(state: GameState, table: Table, shot: OneShot, each: tuple[tuple[str, int], ...]) -> OneShot:
    """The rider's deal as one batch (120.2): each source's prevented amount to its recipient."""
    parts = [(("int", n), Selector(SelectorKind.REF, name=r)) for src, n in each if (r := _recipient(state, table, src)) is not None]
    if not parts:
        return dc_replace(shot, amount=("int", 0))
    (first, to), rest = parts[0], parts[1:]
    return dc_replace(shot, amount=first, to=to, also=tuple(rest))
