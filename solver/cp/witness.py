"""Reading a solution: the outcome and a witness in the graph engine's labels."""

from __future__ import annotations

from typing import Any

from model.outcome import Witness

from ..decision import says
from ..rules import (
    event_label,
)
from .encode import _Built, _sequences
from .plan import _apply, _Plan
from .tables import DECLINED, Seq, _is_const


def _value(solver: Any, kind: str, expr: Any) -> Any:
    if kind == "bool":
        return bool(expr) if isinstance(expr, bool) else bool(solver.boolean_value(expr))
    return int(expr) if _is_const(expr) else int(solver.value(expr))


def _witness(plan: _Plan, built: _Built, solver: Any) -> tuple[tuple[Witness, ...], tuple[str, ...]]:
    """Replay the solution's orders and shares through the graph engine's decision rules."""
    steps: list[Witness] = []
    words: list[str] = []
    remaining = dict(plan.shields)
    # 510.1: the assignments come first, in the order the graph engine asks for them
    for a, lits in zip(plan.assigns, built.picks, strict=True):
        if len(lits) > 1:
            k = next(i for i, lit in enumerate(lits) if solver.boolean_value(lit))
            steps.append(Witness(a.controller, "assign", a.creature, a.label(k)))
            words.append(f"{says(a.controller, 'assigns')} {a.creature}'s damage: {a.label(k)}")
    amounts = {}
    for unit in built.units:
        if unit.slots is not None and plan.events[unit.events[0]].assigned:
            amounts[unit.events[0]] = _value(solver, "int", unit.enter)
    happen = [pos for pos, pe in enumerate(plan.events) if amounts.get(pos, pe.ev.amount) > 0]
    last = happen[-1] if happen else -1  # an assignment of 0 makes no event (120.8)
    chosen_by_event: dict[int, Seq] = {}
    for unit in built.units:
        if unit.slots is not None:
            effs = plan.events[unit.events[0]].effects
            k = len(unit.plain)
            order = [unit.plain[q] for b in range(k) for q in range(k) if solver.boolean_value(unit.slots[b][q])]
            steps_of: list[tuple[int, int | None]] = []
            for b in range(k + 1):  # a block's shields, the one that reaches 0 last
                block = [(solver.boolean_value(w), j) for j, y, _n, w in unit.placed if solver.boolean_value(y[b])]
                steps_of.extend((j, int(solver.value(unit.shares[effs[j].key]))) for _, j in sorted(block))
                if b < k:
                    use = unit.uses.get(effs[order[b]].key)
                    steps_of.append((order[b], None if use is None or solver.boolean_value(use) else DECLINED))
            steps_of.extend((j, 0) for j, _y, none, _w in unit.placed if solver.boolean_value(none))
            chosen_by_event[unit.events[0]] = tuple(steps_of)
        else:
            chosen_by_event.update(_sequences(unit, tuple(int(solver.value(c)) for c in unit.columns)))
    for pos, pe in enumerate(plan.events):
        if pos not in happen:
            continue
        effs = pe.effects
        chosen = chosen_by_event[pos]
        seq = [("noop", i, 0) for i in pe.noops] + [("cp", effs[j], t) for j, t in chosen]
        pool = pe.noops + effs
        amount = amounts.get(pos, pe.ev.amount)
        applied: set[str] = set()
        others_open = pos < last
        for how, inst, share in seq:
            if amount <= 0:
                break  # 120.8: nothing further applies
            live = [i for i in pool if i.key not in applied and
                    (i.spec.kind != "shield" or remaining[i.key] > 0)]
            if inst not in live:
                continue  # a used-up shield is no longer in force
            options = 0
            for i in live:
                if i.spec.may and i.view.controller == pe.chooser:
                    options += 2  # apply it or decline it (solver.damage.batch_step)
                elif i.spec.kind == "shield" and others_open and not pe.ev.unpreventable:
                    options += min(remaining[i.key], amount) + 1
                elif i.key in plan.once and others_open and not pe.ev.unpreventable:
                    options += 2  # a shield of "all": all of it or none (solver.damage._takes)
                else:
                    options += 1
            kind = inst.spec.kind
            took = None
            declined = how == "cp" and share == DECLINED
            if declined:
                pass  # considered once, changes nothing (614.5, solver.damage._decline)
            elif kind == "shield":
                took = int(share or 0)
                remaining[inst.key] -= took
                amount -= took
            elif how == "cp":
                if inst.key in plan.once:
                    took = amount  # a shield of "all" takes the whole event (615.8)
                amount = _apply(plan, inst, amount)
            elif inst.key in plan.once:
                took = 0  # damage that can't be prevented (615.12)
            applied.add(inst.key)
            own = inst.spec.may and inst.view.controller == pe.chooser  # its "no" is an option of the order
            name = plan.names.get(inst.key, inst.key)
            on = f"{pe.ev.source}'s damage to {pe.ev.recipient}"
            if options > 1:
                picked = inst.key if took is None else f"{inst.key}:{took}"
                picked = f"{inst.key}:no" if declined and own else picked
                kind_of = "order" if len(live) > 1 else "may" if inst.spec.may else "split"
                steps.append(Witness(pe.chooser, kind_of, event_label(pe.ev), picked))
                text = f"{says(pe.chooser, 'declines' if declined and own else 'applies')} {name} {'for' if declined and own else 'to'} {on}"
                words.append(text if took is None else f"{text}: it prevents {took}")
            if inst.spec.may and not own:  # its controller decides (solver.damage._ask_optional)
                who = inst.view.controller
                steps.append(Witness(who, "may", event_label(pe.ev), "no" if declined else "yes"))
                words.append(f"{says(who, 'declines')} {name} for {on}" if declined else
                             f"{says(who, 'chooses')} to apply {name} to {on}")
    # 616.1: the gaining player orders the life-gain replacements of each lifelink gain event
    # (solver.results.gain_event asks for each but the last, in the model's order of the events)
    for who, src, total, keys, orders in built.gains:
        if _value(solver, "int", total) <= 0:
            continue  # gaining 0 is no event (119.9)
        chosen_order = next(o for o, lit in orders if solver.boolean_value(lit))
        for k in chosen_order[:-1]:
            steps.append(Witness(who, "order", f"{who} gains life", keys[k]))
            words.append(f"{says(who, 'applies')} {plan.names.get(keys[k], keys[k])} to {who}'s life gain from {src}")
    # 603.3b: triggers go on the stack in APNAP order, each player ordering their own
    pending: dict[str, list[tuple[str, int, int]]] = {}
    for tr in plan.triggers:
        dealt = built.combat_to.get((tr.source, tr.player), 0)
        dealt = dealt if _is_const(dealt) else int(solver.value(dealt))
        if _solved_bool(solver, built.over):
            break  # the game is over: no trigger is put on the stack (104.2a)
        if dealt > 0 and not (plan.multiplayer and _solved_bool(solver, built.outputs[f"{tr.controller}.lost"][1])):
            # a player who lost a multiplayer game left; their triggers ceased (800.4a)
            pending.setdefault(tr.controller, []).append((tr.watcher, tr.ability, dealt))
    labels = {(tr.watcher, tr.ability): tr.label for tr in plan.triggers}
    for who in plan.table.apnap(list(pending)):
        mine = pending[who]
        while mine:
            distinct = sorted(set(mine))
            if len(distinct) > 1:
                w, j, _ = distinct[0]
                steps.append(Witness(who, "stack_order", "triggers", f"{w}#{j}"))
                words.append(f"{says(who, 'puts')} {labels[(w, j)]}'s trigger ({w}) on the stack")
            mine.remove(distinct[0])
    return tuple(steps), tuple(words)


def _solved_bool(solver: Any, lit: Any) -> bool:
    return bool(lit) if isinstance(lit, bool) else bool(solver.boolean_value(lit))
