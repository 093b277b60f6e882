"""The CP step's combat damage assignments (510.1, 702.19): the batch opened with an event per
(creature, recipient) pair some assignment uses, each attacker's assignment options, and the
trample conditions on them, every option and condition from the rules engine's
(solver.combat, solver.rules.lethal)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..combat import (
    as_unblocked,
    assign_options,
    damage_recipients,
    has_trample,
    start_step,
    trample_beyond,
)
from ..rules.effects import start_batch
from ..rules.lethal import LethalIf, lethal_conditions, lethal_constraint
from ..state import CombatStage, Event, GameState, Table, TaskKind, replace
from .blocks import encode_blocks
from .literals import assigned_to, at_least
from .refusal import Refusal
from .step import Assign, StepPlan, Trample
from .tables import is_const

if TYPE_CHECKING:
    from .cptypes import Expr, Lit, Model

__all__ = ["open_batch", "combat_assignments"]


def open_batch(start: GameState, state: GameState, table: Table, step: int | None) -> tuple[GameState, list[Assign], list[Trample], GameState | None] | Refusal:
    """The state with the step's batch open (the damage batch ``start`` stopped at, 120; or
    combat damage step ``step``'s, CR 510.2, opened from ``state``), the combat damage assignment
    choices, the trample conditions on them, and (combat) the state where the assignment is
    chosen.

    With blockers, every (creature, recipient) pair some assignment uses becomes an event at its
    largest amount; the model makes its amount the chosen assignment's (0: no event, 120.8).
    """
    if start.batch is not None:
        return replace(state, batch=start.batch), [], [], None
    state = start_step(state, table, step or 0)  # 510.4: in the regular step, creatures without first strike and double strikers
    assigning = state
    task, state = state.queue[0], replace(state, queue=state.queue[1:])
    match task:
        case (TaskKind.COMBAT, CombatStage.ASSIGN, _, todo, _):
            assigners: tuple[str, ...] = todo  # the creatures yet to assign (510.1)
        case _:
            raise TypeError(f"not a combat damage assignment: {task!r}")
    assigns: list[Assign] = []
    events: list[Event] = []
    trample: list[Trample] = []
    for pid in assigners:
        perm = state.perm(pid)
        assert perm is not None
        options = tuple(assign_options(state, table, pid))
        assigns.append(Assign(pid, perm.controller, options))
        creatures, defended = damage_recipients(state, table, perm)
        # 702.19c: past a planeswalker (trample over planeswalkers) to its controller
        beyond = trample_beyond(state, table, perm, defended)
        # "as though it weren't blocked" (510.1b): its options (solver.combat.assign_options) are
        # the blocked ones and all to what it attacks, no blocker then needing lethal damage: a
        # trampler's lethal condition holds only when it assigns some damage to its blockers
        unblocked_too = perm.blocked and as_unblocked(state, table, pid)
        mode = tuple(creatures) if unblocked_too else ()
        most: dict[str, int] = {}
        for opt in options:
            for r, n in opt:
                most[r] = max(most.get(r, 0), n)
        events.extend(Event(pid, r, most[r], True) for r in [*creatures, defended, beyond]
                      if r is not None and most.get(r, 0) > 0)
        tramples = not unblocked_too or has_trample(state, table, pid)  # (else never both at once)
        for past in (defended, beyond):
            if past is not None and most.get(past, 0) > 0 and perm.blocked and tramples:
                trample.extend((pid, past, c, lethal_conditions(state, table, c, assigners), mode) for c in creatures)
        if beyond is not None and defended is not None and most.get(beyond, 0) > 0:
            # the planeswalker's controller only past damage equal to its loyalty assigned to it
            # by all the attackers together (solver.combat._valid_trample, 510.1e), in either mode
            walker = state.perm(defended)
            assert walker is not None
            trample.append((pid, beyond, defended, (LethalIf(None, walker.loyalty),), ()))
    return start_batch(state, table, events), assigns, trample, assigning


def combat_assignments(m: Model, plan: StepPlan) -> tuple[list[list[Lit]], dict[tuple[str, str], Expr], dict[tuple[str, str], Lit]]:
    """Combat damage division (CR 510.1c-d): one literal per option of each combatant (exactly one
    holds), the amount each (creature, recipient) pair is assigned, and trample's condition on
    the whole assignment (702.19b, 510.1e): a trampler assigns to the player only if each of its
    blockers is assigned lethal damage in total (deathtouch: 1), damage already marked counted."""
    picks: list[list[Lit]] = []
    dealt: dict[tuple[str, str], Expr]
    if plan.blocks is not None:  # the declaration of blockers too (509.1): solver.cp.blocks
        dealt, declared = encode_blocks(m, plan.blocks)
        return picks, dealt, declared
    dealt = {}
    for a in plan.assigns:
        lits: list[Lit] = [m.new_bool_var(f"assign_{a.creature}_{k}") for k in range(len(a.options))] if len(a.options) > 1 else [True]
        if len(lits) > 1:
            m.add_exactly_one(lits)
        picks.append(lits)
        for lit, opt in zip(lits, a.options, strict=True):
            for r, n in opt:
                dealt[(a.creature, r)] = dealt.get((a.creature, r), 0) + (n * lit if lit is not True else n)
    for trampler, player, blocker, conditions, mode in plan.trample:
        to_player = dealt.get((trampler, player), 0)
        if is_const(to_player):
            continue
        # 702.19b: damage to the player needs lethal damage assigned to the blocker (solver.rules.lethal)
        when = [at_least(m, to_player, 1)]
        if mode:  # it may assign as though unblocked (510.1b): only assigning to its blockers binds it
            when.append(at_least(m, sum(dealt.get((trampler, b), 0) for b in mode), 1))
        lethal_constraint(m, lambda e, k: at_least(m, e, k), assigned_to(dealt, blocker), conditions, when)
    return picks, dealt, {}

