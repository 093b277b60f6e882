"""A timeline action in words, for a ``may`` choice (CR 603.5: the optional action is offered by
name): the object it is about and what it does."""

from __future__ import annotations

from typing import Any

from mtg_outcomes.model.expr import expr_str
from mtg_outcomes.model.kinds import ActionKind
from mtg_outcomes.model.types import (
    ActivateAction,
    DamageAction,
    LeaveAction,
    LifeAction,
    OneShotAction,
    TapForManaAction,
)

__all__ = ["describe", "named_object"]


def named_object(action: Any) -> str | None:
    """The object an action is about: the permanent activated, tapped or leaving, a damage source."""
    if isinstance(action, ActivateAction | TapForManaAction | LeaveAction):
        return action.id
    if isinstance(action, DamageAction):
        return action.events[0].source
    if isinstance(action, OneShotAction | LifeAction):
        return action.action.source if isinstance(action, OneShotAction) else action.source
    return None


def describe(action: Any) -> str:
    """An action in words, for a ``may`` choice: "activate pyro's ability", "tap forest for mana"."""
    if isinstance(action, ActivateAction):
        return f"activate {action.id}'s ability"
    if isinstance(action, TapForManaAction):
        return f"tap {action.id} for mana"
    if isinstance(action, OneShotAction):
        shot = action.action
        src = f" from {shot.source}" if shot.source else ""
        if shot.kind == ActionKind.DEAL:
            return f"deal {expr_str(shot.amount)} damage{src} to {shot.to}" + "".join(
                f" and {expr_str(a)} to {to}" for a, to in shot.also)
        if shot.kind == ActionKind.PUT_COUNTERS:
            return f"put {expr_str(shot.amount)} {shot.counter} counter(s) on {shot.to}"
        if shot.kind == ActionKind.REMOVE_COUNTERS:
            return f"remove {expr_str(shot.amount)} {shot.counter} counter(s) from {shot.to}"
        if shot.kind == ActionKind.DESTROY:
            return f"destroy {shot.to}"
        if shot.kind == ActionKind.FIGHT:
            return f"have {shot.source or shot.by or 'it'} fight {shot.to}"
        if shot.kind in (ActionKind.SACRIFICE, ActionKind.EXILE, ActionKind.TAP, ActionKind.UNTAP):
            return f"{shot.kind} {shot.to}"
        if shot.kind == ActionKind.RETURN_TO_BATTLEFIELD:
            return f"return {shot.to} to the battlefield with a {shot.counter} counter"
        if shot.kind == ActionKind.RETURN_TO_HAND:
            return f"return {shot.to} to its owner's hand"
        if shot.kind == ActionKind.SET_LIFE:
            return f"have {shot.to}'s life total become {expr_str(shot.amount)}"
        if shot.kind == ActionKind.CREATE_TOKENS:
            return f"create {expr_str(shot.amount)} {shot.token.name if shot.token else 'token'}(s)"
        verb = {"lose_life": "lose {} life", "gain_life": "gain {} life", "draw": "draw {}",
                "get_energy": "get {} energy", "mill": "mill {}", "monstrosity": "monstrosity {}",
                "get_poison": "get {} poison counter(s)"}[shot.kind]
        return f"have {shot.to} " + verb.format(expr_str(shot.amount))
    if isinstance(action, DamageAction):
        return "deal " + ", ".join(f"{expr_str(d.amount)} damage from {d.source} to {d.to}" for d in action.events)
    return f"do the {action.kind.replace('_', ' ')} action"
