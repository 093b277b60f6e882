"""Which effects the CP step's events meet, beyond the plain ones: a redirected event's tree of
results (614.9, solver.cp.trees) and the one-instance shields and next-time preventions that can
apply to one event only (615.8)."""

from __future__ import annotations

from dataclasses import replace

from mtg_outcomes.model.effects import EffectKind

from ..limits import Deadline
from ..next_time import one_instance
from ..rules.effects import (
    PREVENTION_KINDS,
    Instance,
)
from ..state import GameState, Table
from .refusal import Refusal
from .step import (
    Assign,
    PlannedEvent,
)
from .trees import TREE_LIMIT, event_tree


def partial_redirect(inst: Instance) -> bool:
    """A partial redirection ("the next N damage ... is dealt to ... instead"): it depletes like a
    shield, its share of each event a choice (615.7 applied to a redirection, 614.9)."""
    return inst.spec.kind == EffectKind.REDIRECT and inst.spec.shield is not None


def redirection_trees(state: GameState, table: Table, insts: tuple[Instance, ...], events: list[PlannedEvent],
           assigns: list[Assign], deadline: Deadline | None, suffix: bool = False) -> Refusal | None:
    """The events a redirection applies to (CR 614.9): each gets its tree of results, walked by
    the graph engine's rules (solver.cp.trees), and as its effects every effect applicable
    anywhere in it (the new recipient's too, 616.1f); or the reason the model can't take them.
    With ``suffix`` (the rules engine continues after the step) a next-time prevention's
    prevention is kept too: whether it was used up (615.8) is part of the state after the step."""
    redirected = [pe for pe in events if any(i.spec.kind == EffectKind.REDIRECT for i in (*pe.effects, *pe.noops))]
    if redirected and any(i.spec.may for i in insts):
        # the tree walk asks no optional effect's controller (solver.damage's may decisions)
        return Refusal("an optional effect (\"you may\", CR 616.1) in a step with a redirection (614.9) is not modelled", "616.1")
    shields = {i.key for i in insts if (i.spec.kind == EffectKind.SHIELD and not one_instance(i.spec)) or partial_redirect(i)}
    settle = {i.key for i in insts if i.spec.kind == EffectKind.SHIELD and one_instance(i.spec)}
    # what a prevention with a rider prevented (615.5; a shield's is its share), and a one-instance shield's
    kept = {i.key for i in insts if i.spec.kind in PREVENTION_KINDS and (i.spec.then is not None or (suffix and i.spec.next_time))} \
        - shields | settle
    # each (attacker, recipient): the amounts its division options give that recipient (0 where
    # an option gives it none); one pass over the options (a 10000-power trampler has ~10^4)
    options: dict[tuple[str, str], set[int]] = {}
    for a in assigns:
        recipients = sorted({r for opt in a.options for r, _ in opt})
        for opt in a.options:
            if deadline is not None:
                deadline.check("the time limit was reached while planning the CP model")
            given = dict.fromkeys(recipients, 0)
            for r, n in opt:
                given[r] += n
            for r, n in given.items():
                options.setdefault((a.creature, r), set()).add(n)
    for pe in events:
        if not any(i.spec.kind == EffectKind.REDIRECT for i in (*pe.effects, *pe.noops)):
            continue
        amounts = sorted(options.get((pe.ev.source, pe.ev.recipient), {pe.ev.amount})) if pe.assigned else [pe.ev.amount]
        tree = event_tree(state, table, pe.index, amounts, shields, kept, settle, deadline=deadline)
        if tree is None:
            return (Refusal(f"{pe.ev.source}->{pe.ev.recipient}: a redirected event with more than {TREE_LIMIT} "
                    "distinct results is not modelled", None))
        pe.tree, pe.effects, pe.noops = tree, list(tree.applied), []
    return None


def one_instance_events(insts: tuple[Instance, ...], events: list[PlannedEvent]) -> tuple[tuple[Instance, ...], frozenset[str]] | Refusal:
    """One-instance shields and next-time preventions (CR 615.8) that can apply to at most one
    event of the step, or a shield to events of one source alone (one instance of damage,
    solver.next_time): there they are a plain prevention (a shield of "all" prevents all of it,
    its share is no choice: taking 0 leaves it unused, an illegal branch, 615.7), so the shield
    becomes ``prevent: all`` in ``insts`` and the events, its key in the returned set (its use is
    tracked). Damage that can't be prevented (615.12) doesn't use it: those events don't count.
    Applicable to more events, which one uses it is a cross-event dependency: declined."""
    swap: dict[str, Instance] = {}
    once: set[str] = set()
    for inst in insts:
        if not one_instance(inst.spec):
            continue
        # an event it can't prevent (615.12) counts too: the graph offers it there only while unused
        met = [pe for pe in events if any(i.key == inst.key for i in (*pe.effects, *pe.noops))]
        if len(met) > 1 and (inst.spec.kind != EffectKind.SHIELD or len({pe.ev.source for pe in met}) > 1
                             or any(pe.tree is not None for pe in met)):
            return (Refusal(f"{inst.key}: a next-time prevention (CR 615.8) that could apply to {len(met)} events of the step "
                    "(which one uses it is a choice across events) is not modelled", "615.8"))
        # several events of one source are one instance of damage: it prevents each (solver.next_time)
        if inst.spec.kind == EffectKind.SHIELD:
            swap[inst.key] = replace(inst, spec=replace(inst.spec, kind=EffectKind.PREVENT))
            once.add(inst.key)
    if not swap:
        return insts, frozenset()
    for pe in events:
        pe.effects = [swap.get(i.key, i) for i in pe.effects]
        pe.noops = [swap.get(i.key, i) for i in pe.noops]
    return tuple(swap.get(i.key, i) for i in insts), frozenset(once)
