"""When an ability may be activated: "as a sorcery" (307.1, 602.5d) and a loyalty ability's own
timing (606.3): why not now, or None."""

from __future__ import annotations

from .costs import loyalty_change
from .rules.team import team_names
from .state import GameState, PermState, StackItem, Table, TaskKind

__all__ = ["loyalty_timing", "sorcery_timing"]


def loyalty_timing(state: GameState, table: Table, perm: PermState) -> str | None:
    """606.3: a loyalty ability is activated only during its controller's turn with the stack
    empty (sorcery timing; the case's actions are in a main phase unless in combat), and only if
    no loyalty ability of that permanent was activated this turn; why not, or None."""
    if any(loyalty_change(table.abilities_of(state, perm.id)[k].cost) is not None for k in perm.activated_once
           if k < len(table.abilities_of(state, perm.id))):
        return "a loyalty ability of it was already activated this turn (606.3)"
    if state.turn_player not in team_names(state, table, perm.controller):  # (in Two-Headed Giant a turn is the team's, 810.2, 805)
        return f"it is {state.turn_player}'s turn, and a loyalty ability is activated only during its controller's turn (606.3)"
    waiting = any(t[0] in (TaskKind.RESOLVE, TaskKind.PART) and isinstance(t[1], StackItem) for t in state.queue)
    if state.stack or waiting:
        return "the stack isn't empty, and a loyalty ability is activated only when it is (606.3)"
    why = sorcery_timing(state, table, perm.controller)
    return None if why is None else f"{why}, and a loyalty ability is activated only as a sorcery (606.3, 307.1)"


def sorcery_timing(state: GameState, table: Table, player: str) -> str | None:
    """307.1 (what "as a sorcery" means, 602.5d): only in a main phase of ``player``'s turn with the
    stack empty; why not now, or None. The case's actions are in a main phase unless creatures are
    in combat (before its combat: action, 506.1) or an end_step: / upkeep: action began that step."""
    if state.turn_player not in team_names(state, table, player):  # (a team's turn in Two-Headed Giant, 810.2)
        return f"it is {state.turn_player}'s turn"
    waiting = any(t[0] in (TaskKind.RESOLVE, TaskKind.PART) and isinstance(t[1], StackItem) for t in state.queue)
    if state.stack or waiting:
        return "the stack isn't empty"
    if state.step:
        return f"it is the {state.step}, not a main phase"
    if any(p.present and (p.attacking is not None or p.blocking) for p in state.perms):
        return "it is the combat phase (creatures are attacking), not a main phase"
    return None
