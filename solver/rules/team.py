"""Two-Headed Giant's shared totals (CR 810.9, 810.10): one definition, two forms.

810.9a: a team has a single life total; 810.9: each member's damage, life loss and life gain are
applied to it; 810.10: poison counters likewise. Every member's ``life`` and ``poison`` hold the
team's total, so a change to one player is made to each member (:func:`team_names`, the concrete
form: solver.results.change_life, add_poison), and the CP model's total of a player is its base
plus the changes of every member (:func:`team_sum`, the constraint form: solver.cp.encode).
Outside Two-Headed Giant a player's team is that player alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..state import GameState, PlayerState, Table

__all__ = ["team_members", "team_names", "team_sum"]


def team_members(players: Iterable[PlayerState], two_headed: bool, me: PlayerState) -> list[str]:
    """The players sharing ``me``'s life total and poison (810.9a, 810.10), in seat order: their
    team in Two-Headed Giant, else ``me`` alone."""
    if two_headed and me.team is not None:
        return [p.name for p in players if p.team == me.team]
    return [me.name]


def team_names(state: GameState, table: Table, name: str) -> list[str]:
    """:func:`team_members` of ``name`` in ``state``: each gets a change made to ``name``'s total."""
    return team_members(state.players, table.two_headed, state.player(name))


def team_sum(changes: Mapping[str, Sequence[Any]], team: Sequence[str]) -> Any:
    """The constraint form: the change to a shared total, every member's ``changes`` (player ->
    amounts: numbers or linear expressions) summed (810.9)."""
    return sum(x for q in team for x in changes.get(q, []))
