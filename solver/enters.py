"""What a permanent enters the battlefield with: its counters and loyalty (CR 614.1c, 614.12,
306.5b), for a permanent resolving (solver.engine) and one returned by persist or undying
(solver.persist)."""

from __future__ import annotations

from mtg_outcomes.model.kinds import AbilityKind
from mtg_outcomes.model.types import PermanentSpec

from .values import evaluate

__all__ = ["enters_with"]


def enters_with(spec: PermanentSpec, x: int) -> tuple[tuple[tuple[str, int], ...], int]:
    """The counters (and loyalty) a permanent enters with (614.1c, 614.12).

    ``x`` is the X of the spell that became the permanent: an "enters with" replacement effect
    reads it (107.3m, the exception to 107.3i), though the permanent's own X is 0.
    """
    counters = dict(spec.counters)
    loyalty = spec.loyalty
    for ab in spec.abilities:
        if ab.kind != AbilityKind.ENTERS_WITH:
            continue
        for kind, expr in ab.counters:
            n = evaluate(expr, {"X": x})
            if kind == "loyalty":
                loyalty += n  # loyalty counters are the permanent's loyalty (306.5b)
            else:
                counters[kind] = counters.get(kind, 0) + n
    return tuple(sorted(counters.items())), loyalty
