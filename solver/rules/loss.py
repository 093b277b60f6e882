"""A player loses the game (CR 704.5a, 704.5c, 704.6b): one definition, two forms.

704.5a: a player with 0 or less life loses (unless an effect says that player doesn't lose for
it, 104.3b); 704.5c: ten or more poison counters; 704.6b: fifteen for a Two-Headed Giant team's
shared count (810.8c-d: a team loses together). :func:`player_loses` is the concrete form (the
state-based check, solver.sba), :func:`loss_literal` its constraint form (the CP model,
solver.cp.encode).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["poison_limit", "player_loses", "loss_literal"]


def poison_limit(two_headed: bool) -> int:
    """704.5c: ten or more poison counters; 704.6b: fifteen for a Two-Headed Giant team's shared
    count (810.8c-d: a team loses together)."""
    return 15 if two_headed else 10


def player_loses(life: int, poison: int, two_headed: bool, spared_at_0: bool) -> bool:
    """704.5a (0 or less life, unless an effect says that player doesn't lose for it) and 704.5c /
    704.6b (poison): the concrete form; :func:`loss_literal` is its constraint form."""
    return (life <= 0 and not spared_at_0) or poison >= poison_limit(two_headed)


def loss_literal(m: Any, at_most: Callable[[Any, Any, int], Any], at_least: Callable[[Any, Any, int], Any],
                 either: Callable[[Any, list[Any]], Any], life: Any, poison: Any, two_headed: bool,
                 spared_at_0: bool) -> Any:
    """The constraint form of :func:`player_loses` on a CP-SAT model ``m`` (the CP wing's reified
    comparisons ``at_most(m, expr, k)``, ``at_least(m, expr, k)`` and disjunction ``either``)."""
    dead = [] if spared_at_0 else [at_most(m, life, 0)]
    return either(m, [*dead, at_least(m, poison, poison_limit(two_headed))])
