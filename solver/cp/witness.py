"""Reading a solution: the outcome and a witness in the graph engine's labels."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.kinds import DecisionKind
from mtg_outcomes.model.outcome import Witness

from ..combat import run_task
from ..damage import batch_step, next_event
from ..decision import Decision, says
from ..results import gain_event, gain_life
from ..rules.effects import Instance, event_label
from ..rules.stack_order import stack_order
from ..state import CombatStage, GameState, TaskKind, Trigger, replace
from ..triggers import trigger_names
from .blocks import declaration_of, drive_declaration
from .step import PlannedEvent, StepPlan, apply_rule, effect_rule
from .tables import DECLINED, Seq, is_const
from .trees import Slot
from .units import BuiltModel, sequences

if TYPE_CHECKING:
    from .cptypes import Expr, Lit, Solution


def solved_value(solver: Solution, kind: str, expr: Expr) -> int:
    """An output's value in a solution: a bool for a ``bool`` output (its expression a literal),
    else an int."""
    if kind == "bool":
        return bool(expr) if isinstance(expr, bool) else bool(solver.boolean_value(cast("Lit", expr)))
    return int(expr) if is_const(expr) else int(solver.value(expr))


def witness_of(plan: StepPlan, built: BuiltModel, solver: Solution) -> tuple[tuple[Witness, ...], tuple[str, ...]]:
    """Replay the solution's orders and shares through the graph engine's decision rules."""
    if plan.blocks is not None or any(u.hits is not None for u in built.units):
        return _driven(plan, built, solver)
    steps: list[Witness] = []
    words: list[str] = []
    remaining = dict(plan.shields)
    # 510.1: the assignments come first, in the order the graph engine asks for them
    for a, lits in zip(plan.assigns, built.picks, strict=True):
        if len(lits) > 1:
            k = next(i for i, lit in enumerate(lits) if solver.boolean_value(lit))
            steps.append(Witness(a.controller, DecisionKind.ASSIGN, a.creature, a.label(k)))
            words.append(f"{says(a.controller, 'assigns')} {a.creature}'s damage: {a.label(k)}")
    amounts = {}
    for unit in built.units:
        if unit.slots is not None and plan.events[unit.events[0]].assigned:
            amounts[unit.events[0]] = solved_value(solver, "int", unit.enter)
    happen = [pos for pos, pe in enumerate(plan.events) if amounts.get(pos, pe.ev.amount) > 0]
    last = happen[-1] if happen else -1  # an assignment of 0 makes no event (120.8)
    chosen_by_event = _chosen(plan, built, solver)
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
            if not _live(plan, inst, applied, remaining, amount):
                continue  # a used-up shield is no longer in force
            alone, asked = _asked(plan, pe, pool, inst, applied, remaining, amount, others_open)
            kind = inst.spec.kind
            took = None
            declined = how == "cp" and share == DECLINED
            if declined:
                pass  # considered once, changes nothing (614.5, solver.damage._decline)
            elif kind == EffectKind.SHIELD:
                took = int(share or 0)
                remaining[inst.key] -= took
                amount -= took
            elif how == "cp":
                if inst.key in plan.once:
                    took = amount  # a shield of "all" takes the whole event (615.8)
                amount = apply_rule(plan, inst, amount)
            elif inst.key in plan.once:
                took = 0  # damage that can't be prevented (615.12)
            applied.add(inst.key)
            own = inst.spec.may and inst.view.controller == pe.chooser  # its "no" is an option of the order
            name = plan.names.get(inst.key, inst.key)
            on = f"{pe.ev.source}'s damage to {pe.ev.recipient}"
            if asked:
                picked = inst.key if took is None else f"{inst.key}:{took}"
                picked = f"{inst.key}:no" if declined and own else picked
                kind_of = "order" if not alone else "may" if inst.spec.may else "split"
                steps.append(Witness(pe.chooser, kind_of, event_label(pe.ev), picked))
                text = f"{says(pe.chooser, 'declines' if declined and own else 'applies')} {name} {'for' if declined and own else 'to'} {on}"
                words.append(text if took is None else f"{text}: it prevents {took}")
            if inst.spec.may and not own:  # its controller decides (solver.damage._ask_optional)
                who = inst.view.controller
                steps.append(Witness(who, DecisionKind.MAY, event_label(pe.ev), "no" if declined else "yes"))
                words.append(f"{says(who, 'declines')} {name} for {on}" if declined else
                             f"{says(who, 'chooses')} to apply {name} to {on}")
    _gain_steps(plan, built, solver, steps, words)
    if not plan.suffix:  # else the rules engine puts them on the stack with the rest (solver.cp.suffix)
        _trigger_steps(plan, built, solver, steps, words)
    return tuple(steps), tuple(words)


def _asked(plan: StepPlan, pe: PlannedEvent, pool: list[Instance], inst: Instance, applied: set[str],
           remaining: dict[str, int], amount: int, others_open: bool) -> tuple[bool, bool]:
    """Whether ``inst`` is the only effect of ``pool`` in force, and whether the affected player
    is asked about it: when another effect is in force too (616.1) or this one has more than one
    answer: apply or decline it, or how much of a shield to take (615.7)."""
    in_force = 0  # (up to 2: whether another is)
    for i in pool:
        if _live(plan, i, applied, remaining, amount):
            in_force += 1
            if in_force > 1:
                break
    alone = in_force == 1
    open_ = others_open and not pe.ev.unpreventable
    asked = not alone or (
        (inst.spec.may and inst.view.controller == pe.chooser)  # apply it or decline it (solver.damage.batch_step)
        or (inst.spec.kind == EffectKind.SHIELD and open_)  # how much of what is left (its rest is > 0 here)
        or (inst.key in plan.once and open_))  # a shield of "all": all of it or none (solver.damage.shield_takes)
    return alone, asked


def _live(plan: StepPlan, inst: Instance, applied: set[str], remaining: dict[str, int], amount: int) -> bool:
    """Whether ``inst`` is still to be applied to an event with ``amount`` left: not applied yet
    (614.5), and a shield with some left, or an effect whose rule applies to that amount."""
    return inst.key not in applied and (
        remaining[inst.key] > 0 if inst.spec.kind == EffectKind.SHIELD else effect_rule(plan, inst).applies(amount))


def _gain_steps(plan: StepPlan, built: BuiltModel, solver: Solution, steps: list[Witness], words: list[str]) -> None:
    """616.1: the gaining player orders the life-gain replacements of each lifelink gain event
    (702.15e: one per source, in the model's order of them, the graph's), after the batch's
    choices, redirected or not: the graph engine's own rules (solver.results.gain_life, which
    makes no event of 0 or for a player who can't gain life, 119.9, 119.7; gain_event, which
    asks while more than one effect is left), each decision answered with the solution's order."""
    table = plan.table
    for who, src, total, keys, orders in built.gains:
        chosen = [keys[k] for k in next(o for o, lit in orders if _solved_bool(solver, lit))]
        state = gain_life(replace(plan.state, queue=()), table, who, solved_value(solver, "int", total), src)
        while state.queue and state.queue[0][0] == TaskKind.GAIN:
            task = state.queue[0]
            res = gain_event(replace(state, queue=state.queue[1:]), table, task)
            if not isinstance(res, Decision):
                break
            key = next(k for k in chosen if k not in task[4])  # the solution's next effect (614.5: each once)
            opt = next(o for o in res.options if o.picked == key)
            steps.append(Witness(res.chooser, res.kind, res.at, opt.picked))
            words.append(opt.words)
            state = opt.state


def _chosen(plan: StepPlan, built: BuiltModel, solver: Solution) -> dict[int, Seq]:
    """Each tabled or block-encoded event's sequence of ``(effect index, share)`` in the solution
    (a share of ``DECLINED``: an optional effect its controller declined, 616.1)."""
    chosen_by_event: dict[int, Seq] = {}
    for unit in built.units:
        if unit.hits is not None:
            continue
        if unit.slots is not None:
            effs = plan.events[unit.events[0]].effects
            k = len(unit.plain)
            order = [unit.plain[q] for b in range(k) for q in range(k) if solver.boolean_value(unit.slots[b][q])]
            # each shield is in one block or in none (encodings.encode_slots: exactly one)
            blocks: list[list[tuple[bool, int]]] = [[] for _ in range(k + 1)]
            unplaced = []
            for j, y, _none, w in unit.placed:
                b = next((b for b, lit in enumerate(y) if solver.boolean_value(lit)), None)
                if b is None:
                    unplaced.append(j)
                else:
                    blocks[b].append((solver.boolean_value(w), j))
            steps_of: list[tuple[int, int | None]] = []
            for b in range(k + 1):  # a block's shields, the one that reaches 0 last
                steps_of.extend((j, int(solver.value(unit.shares[effs[j].key]))) for _, j in sorted(blocks[b]))
                if b < k:
                    use = unit.uses.get(effs[order[b]].key)
                    steps_of.append((order[b], None if use is None or solver.boolean_value(use) else DECLINED))
            steps_of.extend((j, 0) for j in unplaced)
            chosen_by_event[unit.events[0]] = tuple(steps_of)
        else:
            chosen_by_event.update(sequences(unit, tuple(int(solver.value(c)) for c in unit.columns)))
    return chosen_by_event


def _trigger_steps(plan: StepPlan, built: BuiltModel, solver: Solution, steps: list[Witness], words: list[str]) -> None:
    """The draw triggers' stack order (603.3b): APNAP order, each player ordering their own."""
    pending: dict[str, list[Trigger]] = {}
    for tr, dealt in zip(plan.triggers, built.fired, strict=True):
        dealt = dealt if is_const(dealt) else int(solver.value(dealt))
        if _solved_bool(solver, built.over):
            break  # the game is over: no trigger is put on the stack (104.2a)
        if dealt > 0 and not (plan.multiplayer and solved_value(solver, "bool", built.outputs[f"{tr.controller}.lost"][1])):
            # a player who lost a multiplayer game left; their triggers ceased (800.4a); what
            # each reads, as the rules engine has it (solver.results.deal, triggers.prevention_triggers)
            read = "prevented" if tr.prevention is not None else "damage_dealt"
            pending.setdefault(tr.controller, []).append(
                Trigger(tr.controller, tr.watcher, tr.ability, ((read, int(dealt)),), label=tr.label))
    for who in plan.table.apnap(list(pending)):
        mine = pending[who]
        while mine:
            distinct = stack_order(mine)
            if len(distinct) > 1:
                first = distinct[0]
                name, said = trigger_names(plan.state, plan.table, distinct)[first]
                steps.append(Witness(who, DecisionKind.STACK_ORDER, "triggers", name))
                words.append(f"{says(who, 'puts')} {first.label}'s trigger ({first.source}{said}) on the stack")
            mine.remove(distinct[0])


def _solved_bool(solver: Solution, lit: Lit) -> bool:
    return bool(lit) if isinstance(lit, bool) else bool(solver.boolean_value(lit))


Planned = tuple[str, "int | str | None"]  # (effect key, share; "all": a one-instance shield takes the whole event)


def _driven(plan: StepPlan, built: BuiltModel, solver: Solution) -> tuple[tuple[Witness, ...], tuple[str, ...]]:
    """The witness of a step with redirected events (614.9): the graph engine's own decisions
    (solver.combat.run_task for the damage assignment, solver.damage.batch_step for the batch,
    its events in the order :func:`solver.damage.next_event` takes them), each answered with
    the solution's pick. A redirection can change an event's affected player and so when its
    remaining choices are made (616.1), and a partial one splits off a new event: following the
    engine gives its exact sequence of decisions."""
    table = plan.table
    steps: list[Witness] = []
    words: list[str] = []
    state = plan.state
    if plan.assigning is not None:  # 510.1: the assignments, in the order the engine asks for them
        labels = {a.creature: a.label(next(k for k, lit in enumerate(lits) if _solved_bool(solver, lit)))
                  for a, lits in zip(plan.assigns, built.picks, strict=True)}
        state = plan.assigning
        if plan.blocks is not None:  # 509.1: the declaration first, then the divisions it leaves
            state, step, said = drive_declaration(plan.blocks, table, declaration_of(plan.blocks, built.declared, solver))
            steps.append(step)
            words.append(said)
        while state.batch is None and state.queue and state.queue[0][:2] == (TaskKind.COMBAT, CombatStage.ASSIGN):
            res = run_task(replace(state, queue=state.queue[1:]), table, state.queue[0])
            if isinstance(res, Decision):
                if plan.blocks is not None:
                    want = _divided(built, solver, res.at)
                    opt = next(o for o in res.options if _division(o.state, res.at) == want)
                else:
                    opt = next(o for o in res.options if o.picked == labels[res.at])
                steps.append(Witness(res.chooser, res.kind, res.at, opt.picked))
                words.append(opt.words)
                res = opt.state
            state = res
        # (no batch: every assignment was of no damage, as a creature whose blocker has gone may
        # make, 510.1c; only a division choice's amount can have come to nothing)
        assert state.batch is not None or all(pe.assigned or not pe.ev.amount for pe in plan.events)
    if state.batch is not None:
        state = _batch_choices(plan, built, solver, state, steps, words)
    _gain_steps(plan, built, solver, steps, words)
    if not plan.suffix:  # else the rules engine puts them on the stack with the rest (solver.cp.suffix)
        _trigger_steps(plan, built, solver, steps, words)
    return tuple(steps), tuple(words)


def _division(state: GameState, creature: str) -> dict[str, int]:
    """What an assignment option gave ``creature``'s recipients (the assignment task it queued)."""
    out: dict[str, int] = {}
    for src, rcp, n in state.queue[0][4]:
        if src == creature and n > 0:
            out[rcp] = out.get(rcp, 0) + n
    return out


def _divided(built: BuiltModel, solver: Solution, creature: str) -> dict[str, int]:
    """What the solution assigns ``creature``'s recipients (solver.cp.blocks)."""
    out = {}
    for (src, rcp), amount in built.divided.items():
        if src == creature and (n := solved_value(solver, "int", amount)) > 0:
            out[rcp] = n
    return out


def _batch_choices(plan: StepPlan, built: BuiltModel, solver: Solution, state: GameState, steps: list[Witness],
                   words: list[str]) -> GameState:
    """Drive :func:`solver.damage.batch_step` through the batch, answering each decision with the
    next pick the solution planned for that event (a pick no longer offered, a shield used up
    elsewhere or an event already at 0, was a no-op: 120.8)."""
    table = plan.table
    batch = state.batch
    assert batch is not None
    # the solution's picks per (plan event, slot of its tree: () the event itself)
    queues: dict[tuple[int, Slot], list[Planned]] = {}
    for e, seq in _chosen(plan, built, solver).items():
        pe = plan.events[e]
        planned: list[Planned] = []
        for i in pe.noops:  # 615.12: applied, they prevent nothing (a shield's share is 0)
            planned.append((i.key, 0 if i.key in plan.shields or i.key in plan.once else None))
        for j, share in seq:
            name = pe.effects[j].key
            planned.append((name, share if name in plan.shields else "all" if name in plan.once else None))
        queues[(e, ())] = planned
    for unit in built.units:
        if unit.hits is None:
            continue
        e = unit.events[0]
        tree = plan.events[e].tree
        assert tree is not None
        row = tuple(int(solver.value(c)) for c in unit.columns) if unit.columns else next(iter(unit.top))
        for slot, name, share in tree.rows[row]:
            queues.setdefault((e, slot), []).append((name, share))
    # the batch's own events (their order in the combat batch is the assignment's): by source and recipient
    where: dict[int, tuple[int, Slot]] = {}
    for k, ev in enumerate(batch.events):
        e = next(e for e, pe in enumerate(plan.events)
                 if (pe.index == k if plan.assigning is None else (pe.ev.source, pe.ev.recipient) == (ev.source, ev.recipient)))
        where[k] = (e, ())
    while True:
        batch = state.batch
        assert batch is not None
        at = next_event(state, table)
        if at is None:
            return state
        k = at
        before = batch.events[k]
        res = batch_step(state, table)
        if isinstance(res, Decision):
            queue = queues.get(where[k], [])
            offered = {o.picked.split(":")[0] for o in res.options}
            opt = None
            while queue and opt is None:
                key, take = queue.pop(0)
                if key in before.applied or key not in offered:
                    continue  # applied already (the only option, taken by itself), or no longer in force
                label = key if take is None else f"{key}:{before.amount if take == 'all' else take}"
                opt = next((o for o in res.options if o.picked == label), None)
                assert opt is not None, (label, [o.picked for o in res.options])
            if opt is None:
                # a shield the solution uses up on other events is still in force here: it takes 0 (615.7)
                opt = next((o for o in res.options if o.picked.endswith(":0")), None)
            assert opt is not None, (res.at, [o.picked for o in res.options])
            steps.append(Witness(res.chooser, res.kind, res.at, opt.picked))
            words.append(opt.words)
            res = opt.state
        after = res.batch
        assert after is not None and not res.dead
        if len(after.events) > len(batch.events):  # a partial redirection split the event (614.9)
            (key,) = after.events[k].applied - before.applied
            e, slot = where[k]
            for n in range(len(batch.events), len(after.events)):
                where[n] = (e, (*slot, key))
        state = res
