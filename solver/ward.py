"""Ward (CR 702.21a): "Whenever this permanent becomes the target of a spell or ability an opponent
controls, counter that spell or ability unless that player pays [cost]."

A spell (``cast:``), an activated ability (``activate:``) or a triggered ability put on the stack
(603.3d) that targets a permanent with ward controlled by an opponent of its controller triggers
that ward ability, once per ward permanent targeted (a spell targeting two of them triggers both;
each must be paid). The trigger goes on the stack above what it counters and resolves first. A
``responses:`` list beside it is refused: whether each response is made before the ward trigger
resolves or after it (117.3b: either player may act with it on the stack) is a choice the case
format doesn't say and the tool doesn't enumerate. As it resolves, the targeting player chooses to pay or not (118.12);
unpaid, the spell or ability is countered (701.6a: removed from the stack, none of it happens, its
costs stay paid). A life payment needs that much life (119.4); mana isn't tracked, so a mana cost
can always be paid. A spell that can't be countered is not countered (101.2): the trigger does
nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.kinds import AbilityKind, DecisionKind
from mtg_outcomes.model.types import Ability

from .costs import life_cost, life_payment_problem
from .decision import NOT_DONE, Decision, Option, note, says
from .results import change_life
from .state import GameState, ItemKind, StackItem, Table, TaskKind, replace
from .triggers import ward_triggers

__all__ = ["with_ward", "resolve_ward", "on_stack"]


def with_ward(state: GameState, table: Table, item: StackItem, targets: Iterable[str | None]) -> GameState:
    """``state`` with the ward triggers ``item`` fires waiting to be put on the stack (603.3)."""
    new = ward_triggers(state, table, item, targets)
    if not new:
        return state
    at = next((k for k, t in enumerate(state.queue) if t[0] == TaskKind.RESOLVE and t[1] == item), None)
    if at is not None and any(t[0] == TaskKind.ACT for t in state.queue[:at]):
        raise EngineError(f"{item.label} ({item.source}) targets {new[0].source}, which has ward: its responses: "
                          "may be made before or after the ward trigger resolves (CR 117.3b, 702.21a), "
                          "a timing the case doesn't give; not modelled")
    return replace(state, pending=state.pending + new)


def on_stack(state: GameState, item: StackItem) -> bool:
    """Whether ``item`` is still waiting to resolve: a triggered ability on the stack, or a spell or
    activated ability the timeline will resolve."""
    return item in state.stack or any(t[0] == TaskKind.RESOLVE and t[1] == item for t in state.queue)


def _countered(state: GameState, item: StackItem) -> GameState:
    """701.6a: the spell or ability leaves the stack; none of its instructions happen (a spell's
    later parts, queued as ``part`` tasks, go with it)."""
    if item in state.stack:
        i = max(k for k, s in enumerate(state.stack) if s == item)
        return replace(state, stack=state.stack[:i] + state.stack[i + 1:])
    i = next(k for k, t in enumerate(state.queue) if t[0] == TaskKind.RESOLVE and t[1] == item)
    gone = {i, *(state.spell_parts(item) if item.kind is ItemKind.SPELL else ())}
    return replace(state, queue=tuple(t for k, t in enumerate(state.queue) if k not in gone))


def _cost_words(ab: Ability) -> str:
    mana = "".join(f"{{{c}}}" for c in ab.cost if isinstance(c, str))
    life = life_cost(ab.cost)
    return " and ".join(w for w in (mana, f"{life} life" if life else "") if w)


def resolve_ward(state: GameState, table: Table, item: StackItem, ab: Ability) -> GameState | Decision:
    """The ward trigger resolves (702.21a, 118.12): the player who controls the targeting spell or
    ability pays the cost or lets it be countered, their choice; one who can't pay can't choose to."""
    target = item.countering
    assert target is not None
    what = f"{target.label} ({target.source})" if target.kind == ItemKind.SPELL else f"{target.label}'s ability ({target.source})"
    ward = f"{item.label}'s ward ({item.source})"
    if not on_stack(state, target):
        return note(state, f"{ward} does nothing: {what} is no longer on the stack", NOT_DONE)
    x = dict(target.values).get("X", 0)
    if target.kind == ItemKind.SPELL and any(a.kind == AbilityKind.CANT_BE_COUNTERED and (a.x_at_least is None or x >= a.x_at_least)
                                             for a in table.abilities_of(state, target.source)):
        return note(state, f"{ward} does nothing: {what} can't be countered (101.2)", NOT_DONE)
    payer = target.controller
    cost = _cost_words(ab)
    countered = _countered(state, target)
    problem = life_payment_problem(state, table, payer, life_cost(ab.cost))
    if problem is not None:
        return note(countered, f"{payer} {problem} for {ward}, so {what} is countered (702.21a, 701.6a)")
    paid = change_life(state, table, payer, -life_cost(ab.cost))
    return Decision(payer, DecisionKind.WARD, f"{item.source} ward", (
        Option("pay", f"{says(payer, 'pays')} {cost} for {ward}", paid),
        Option("don't pay", f"{says(payer, 'declines')} to pay {cost} for {ward}: {what} is countered (701.6a)", countered)))
