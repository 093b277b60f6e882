"""Planning: can the CP model express the case's last step, and what it needs (events, shields,
riders, triggers, combat assignments), or the reason it can't; the estimate ``auto`` uses."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from model.effects import EffectKind
from model.types import LIFE_GAIN_KINDS, Case

from ..amounts import AmountRule, rule_of
from ..combat import assign_options, damage_recipients, start_step, trample_beyond
from ..damage import rider_shot
from ..engine import final_fields
from ..lethal import LethalIf, lethal_conditions
from ..limits import Deadline
from ..oneshot import shot_recipients
from ..results import cant_gain_life as _cant_gain_life
from ..results import (
    cant_lose_life,
    fewer_counters,
    life_floor,
    no_loss_for_0_life,
)
from ..rules import (
    Instance,
    affected_player,
    applicable_effects,
    can_be_dealt,
    effect_name,
    effects_in_force,
    start_batch,
    unpreventable,
    would_prevent,
)
from ..sba import attachment_kind
from ..sba import multiplayer as sba_multiplayer
from ..select import View, is_player, matches
from ..state import Event, GameState, Table
from ..triggers import watchers
from .declines import (
    _CHARACTERISTICS,
    _COUNTER_RIDERS,
    _DECLINED,
    _INERT,
    _LIFE,
    _ORDERED,
    _PREVENTION,
    _QUIET,
    _RIDER_KINDS,
    _RIDERS_DECLINED,
    _TRIGGERS_DECLINED,
    _annihilation_problem,
    _characteristics_problem,
    _life_problem,
    _players_matching,
)
from .prefix import (
    END,
    FIRST,
    LAST,
    MAX_STARTS,
    NO_BATCH,
    PREFIX_NODES,
    Prefix,
    expand,
    follows,
    script_left,
)
from .step import (
    _Assign,
    _counted,
    _linear,
    _PEvent,
    _Plan,
    _Rider,
    _rider_amount,
    _Trigger,
    one_instance,
)
from .trees import TREE_LIMIT, event_tree

# what a time limit cut (stats["limit"] of a partial answer, from LimitReached.phase)
_PLANNING = "planning the CP model"


def _open_batch(start: GameState, state: GameState, table: Table, step: int | None) -> tuple[GameState, list[_Assign], list[tuple[str, str, str, tuple[LethalIf, ...]]], GameState | None] | str:
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
    assert task[:2] == ("combat", "assign")
    assigns: list[_Assign] = []
    events: list[Event] = []
    trample: list[tuple[str, str, str, tuple[LethalIf, ...]]] = []
    for pid in task[3]:
        perm = state.perm(pid)
        assert perm is not None
        options = tuple(assign_options(state, table, pid))
        assigns.append(_Assign(pid, perm.controller, options))
        creatures, defended = damage_recipients(state, table, perm)
        # 702.19c: past a planeswalker (trample over planeswalkers) to its controller
        beyond = trample_beyond(state, table, perm, defended)
        most: dict[str, int] = {}
        for opt in options:
            for r, n in opt:
                most[r] = max(most.get(r, 0), n)
        events.extend(Event(pid, r, most[r], True) for r in [*creatures, defended, beyond]
                      if r is not None and most.get(r, 0) > 0)
        for past in (defended, beyond):
            if past is not None and most.get(past, 0) > 0 and perm.blocked:
                trample.extend((pid, past, c, lethal_conditions(state, table, c, task[3])) for c in creatures)
        if beyond is not None and defended is not None and most.get(beyond, 0) > 0:
            # the planeswalker's controller only past damage equal to its loyalty assigned to it
            # by all the attackers together (solver.combat._valid_trample, 510.1e)
            walker = state.perm(defended)
            assert walker is not None
            trample.append((pid, beyond, defended, (LethalIf(None, walker.loyalty),)))
    return start_batch(state, table, events), assigns, trample, assigning


@dataclass
class _Plans:
    """The CP answer's parts: the expansion of the choices before the CP step (solver.cp.prefix)
    and one plan per distinct state at its start (parallel to ``prefix.starts``)."""

    prefix: Prefix
    plans: list[_Plan]


def _plans(case: Case, deadline: Deadline | None = None, max_nodes: int | None = None) -> _Plans | str:
    """The prefix before the CP step and a plan of the step from each distinct state it reaches,
    or the reason the CP engine can't answer. ``max_nodes`` below :data:`PREFIX_NODES` cuts the
    prefix (``prefix.complete`` False); a prefix larger than that is declined. Raises
    :class:`LimitReached` when ``deadline`` passes."""
    if not case.actions:
        return NO_BATCH
    limit = PREFIX_NODES if max_nodes is None else min(max_nodes, PREFIX_NODES)
    # the step with nothing after it but what the model applies; else a step the rules engine
    # continues after (solver.cp.suffix): the last batch no damage action follows, else the first
    for mode in (END, LAST, FIRST):
        prefix = expand(case, deadline, limit, mode)
        if not prefix.complete and limit == PREFIX_NODES:
            return f"the choices before the last damage step reach more than {PREFIX_NODES} states"
        missing = prefix.no_step()
        if missing is None or (missing == NO_BATCH and mode != LAST):
            break
    if missing is not None:
        return missing
    if len(prefix.starts) > MAX_STARTS:
        return (f"the choices before the last damage step reach {len(prefix.starts)} distinct states "
                f"(one CP model each; at most {MAX_STARTS})")
    plans = []
    for start in prefix.starts:
        if case.choices and script_left(case, start.state):
            return "choices: scripts a decision of the last damage step (the CP model replays no script)"
        plan = _plan_step(start.state, prefix.table, prefix.step(start), deadline)
        if isinstance(plan, str):
            return plan
        plans.append(plan)
    return _Plans(prefix, plans)


def _plan_step(start: GameState, table: Table, step: int | None,
               deadline: Deadline | None = None) -> _Plan | str:
    """Check that the CP model can express the step that starts at ``start`` (the last damage
    batch, open in ``start``, with what follows it in the same resolution, solver.cp.prefix; or
    combat damage step ``step``: 0 the only one, 2 the regular one after the first-strike step,
    CR 510.4) and collect what it needs (or a reason). Raises :class:`LimitReached` when
    ``deadline`` passes."""
    state0 = replace(start, queue=(), batch=None)  # (the step's own batch or task is opened below)
    crown = next((p.name for p in state0.players if p.monarch), None)
    if crown is not None:
        return (f"{crown} is the monarch: its trigger on combat damage to the monarch (CR 724.2, a new monarch "
                "after state-based actions) is not modelled")
    # what follows the step that the rules engine continues (solver.cp.suffix), first first: a
    # later instruction or action, the end of the combat damage step, triggers the step fires
    after = follows(start, table)
    later = [after] if isinstance(after, str) else []
    watching: list[tuple[str, Any]] = []  # (permanent, trigger) the step can fire, left to the rules engine
    for perm in state0.perms:
        if not perm.present:
            continue
        for ab in table.perm_specs[perm.spec].abilities:
            if ab.kind == "static" and ab.effect is not None and ab.effect.kind == "shield":
                return f"{perm.id}: a static shield ability is not modelled"
            if ab.kind != "trigger":
                continue
            if ab.trigger in _QUIET:
                continue  # nothing in a damage batch and its aftermath can trigger it
            if ab.trigger == "damage_prevented":
                problem = _prevention_trigger_problem(perm.id, ab)
                if problem is not None:
                    return problem
                continue
            if ab.trigger == "combat_damage_to_player" and ab.action is not None and _draws(ab):
                if _linear(ab.action.amount, "damage_dealt") is None:
                    return f"{perm.id}: the trigger's amount is not linear in damage_dealt"
                continue
            if ab.trigger not in _CONTINUED:
                return f"{perm.id}: {_TRIGGERS_DECLINED.get(str(ab.trigger), f'{ab.trigger} triggers are not modelled')}"
            watching.append((perm.id, ab))
    if sba_multiplayer(state0, table):
        aura = next((p for p in state0.perms if p.present and p.attached_to is not None
                     and attachment_kind(table, p) == "aura"), None)
        if aura is not None:
            return (f"{aura.id}: an Aura in a multiplayer game (its owner or its host's leaving the game, "
                    "CR 800.4a, and 704.5m after it) is not modelled")
    insts = effects_in_force(state0, table)
    problem = _annihilation_problem(state0, table, insts)
    if problem is not None:
        return problem
    later.extend(f"{pid}'s {ab.trigger} trigger (603.2, 603.3b)" for pid, ab in watching)
    for inst in insts:
        spec = inst.spec
        if spec.kind in _INERT:
            continue
        if spec.kind == "fewer_counters":  # on the batch's -1/-1 counters (solver.results.fewer_counters)
            if spec.if_life_at_most is not None:
                return f"{inst.key}: a fewer_counters effect with a life condition is not modelled"
            continue
        if spec.kind in LIFE_GAIN_KINDS:  # lifelink's gain events, ordered by the gaining player (616.1)
            if spec.if_life_at_most is not None:
                return f"{inst.key}: a life-gain replacement with a life condition is not modelled"
            continue
        if spec.kind == "as_though":
            continue  # "as though it had infect" (Phyrexian Unlife): solver.results.event_results reads it
        if spec.kind in _LIFE:
            problem = _life_problem(table, inst)
            if problem is not None:
                return problem
            continue
        if spec.kind in _CHARACTERISTICS:
            problem = _characteristics_problem(state0, table, inst)
            if problem is not None:
                return problem
            continue
        if spec.kind == "damage_to_counters":  # Phytohydra (614.1a): solver.amounts.ToCounters
            if spec.may:
                return f"{inst.key}: an optional replacement of damage by counters is not modelled"
            if str(spec.value) != "+1/+1":
                return f"{inst.key}: damage replaced by {spec.value} counters is not modelled (only +1/+1, 613.4c)"
            continue
        if spec.kind not in _ORDERED:
            return f"{inst.key}: {_DECLINED.get(spec.kind, f'{spec.kind} effects are not modelled')}"
        if spec.may and (spec.kind not in ("prevent", "multiply", "add", "cap", "halve") or spec.then is not None
                         or one_instance(spec)):
            return f"{inst.key}: optional effects (\"you may prevent\", a choice of their controller, CR 616.1) are not modelled"
        # a source of your choice (615.9) is a filter solver.rules re-checks at every event
        if spec.kind == "shield" and inst.state_id is None:
            return f"{inst.key}: only created shields are modelled"
        if spec.kind == "redirect" and spec.shield is not None and inst.state_id is None:
            return f"{inst.key}: only created partial redirections are modelled"
        if spec.kind == "prevent" and isinstance(spec.value, tuple) and spec.value[0] != "int":
            return f"{inst.key}: prevention by an expression is not modelled"
        if spec.then is not None:
            if spec.kind not in _PREVENTION:
                return f"{inst.key}: a rider on a {spec.kind} effect is not modelled"
            if spec.then.kind not in _RIDER_KINDS:
                return f"{inst.key}: {_RIDERS_DECLINED.get(spec.then.kind, f'a {spec.then.kind} rider is not modelled')}"
            if spec.then.kind in _COUNTER_RIDERS and spec.then.counter != "+1/+1":
                return (f"{inst.key}: a {spec.then.kind} rider of {spec.then.counter} counters is not modelled "
                        "(only +1/+1 counters, which change toughness, 613.4c)")
            read = _rider_amount(spec.then.amount)
            if read is None:
                return f"{inst.key}: the rider's amount is not linear in prevented or that_damage"
            if read[2] and not spec.then.if_prevented and _can_prevent_none(spec):
                return (f"{inst.key}: a rider that takes place whenever its prevention is applied (CR 615.12) on a "
                        "prevention that can prevent none of some damage (half rounded down of 1, all but N) is not "
                        "modelled (the model reads that it was applied from what it prevented)")
    opened = _open_batch(start, state0, table, step)
    if isinstance(opened, str):
        return opened
    state, assigns, trample, assigning = opened
    varying = {(a.creature, r) for a in assigns if len(a.options) > 1 for opt in a.options for r, _ in opt}
    events: list[_PEvent] = []
    batch_events = state.batch.events if state.batch is not None else ()
    order = table.apnap(table.order)
    for i, ev in enumerate(batch_events):
        if deadline is not None:
            deadline.check(_PLANNING)
        apps = applicable_effects(state, table, ev)
        modelled = [a for a in apps if not (ev.unpreventable and a.spec.kind in _PREVENTION)]
        noops = [a for a in apps if ev.unpreventable and a.spec.kind in _PREVENTION]
        if any(a.spec.may for a in noops):
            return f"{noops[0].key}: an optional prevention of damage that can't be prevented (CR 615.12) is not modelled"
        events.append(_PEvent(i, ev, affected_player(state, ev.recipient), modelled, noops,
                              (ev.source, ev.recipient) in varying))
    events.sort(key=lambda pe: (order.index(pe.chooser) if pe.chooser in order else 99, pe.index))
    tracked_trees = bool(later)  # (a rider left to the rules engine may make a suffix below)
    problem = _trees(state, table, insts, events, assigns, deadline, tracked_trees)
    if problem is not None:
        return problem
    names = {inst.key: effect_name(inst, table, state) for inst in insts}
    converted = _one_instance_events(insts, events)
    if isinstance(converted, str):
        return converted
    insts, once = converted
    shields = {}
    for inst in insts:
        if inst.spec.kind == "shield" or _partial(inst):
            eff = next(e for e in state.effects if e.id == inst.state_id)
            shields[inst.key] = int(eff.remaining or 0)
    live = [p.name for p in state.players if not p.left]
    floors = {n: f for n in live if (f := life_floor(state, table, n)) is not None}
    on_life = next((i.key for i in insts if i.spec.kind == "as_though" and i.spec.if_life_at_most is not None), None)
    riders = []
    deferred: list[str] = []  # riders whose damage is a second batch of choices: the rules engine's (615.5)
    for inst in insts:
        rider = inst.spec.then
        if rider is None or not any(inst in pe.effects or inst in pe.noops for pe in events):
            continue
        source = inst.view.self_id or inst.view.controller
        sel = rider.to
        if rider.kind in _COUNTER_RIDERS:
            # the permanents it puts counters on or removes them from (solver.damage.run_rider)
            recipients: tuple[str, ...] = tuple(r for r in shot_recipients(state, table, rider_shot(inst, 1), inst.view)
                                                if not is_player(table, r))
        elif sel is None:
            recipients = (inst.view.controller,)
        elif sel.kind in ("target", "any", "choice"):
            # 800.4a: a player who left is dealt none; 120.1a: nor a permanent that can't be dealt
            # damage (a planeswalker or creature target can: 120.3c, 120.3e)
            recipients = tuple(t for t in (inst.view.target,) if t is not None and can_be_dealt(state, table, t))
        else:
            recipients = _players_matching(sel, state, table, inst.view)
            if rider.kind == "deal":  # and the permanents it names that can be dealt damage (120.1a)
                recipients += tuple(p.id for p in state.perms if p.present and matches(sel, p.id, state, table, inst.view)
                                    and can_be_dealt(state, table, p.id))
        if rider.kind not in ("deal", *_COUNTER_RIDERS) and any(not is_player(table, r) for r in recipients):
            return f"{inst.key}: a {rider.kind} rider for a permanent is not modelled"
        modified = _rider_effects(state, table, inst, source, recipients, floors, on_life) if rider.kind == "deal" else []
        if isinstance(modified, str):
            # its damage meets choices of its own (616.1, 615.7) or is read again: the rider happens
            # after the step's choices, before state-based actions, with the amount the model
            # prevented (615.5): the rules engine does it, as it does what follows the step
            deferred.append(inst.key)
            later.append(modified)
            continue
        read = _rider_amount(rider.amount)
        assert read is not None
        a, b, c = read
        applied = _applied_unpreventable(state, inst, events, not rider.if_prevented and c != 0 or b != 0)
        if isinstance(applied, str):
            return applied
        riders.append(_Rider(inst.key, rider.kind, (a, c), source, recipients, tuple(modified),
                             rider.kind == "gain_life" and (sel is None or sel.kind == "you"), b,
                             not rider.if_prevented, applied))
    if deferred and len(riders) + len(deferred) > 1:
        # riders happen one after another (615.5) in the order their effects first prevented
        # damage: with one of them a batch of choices, that order is part of the state
        return (f"{deferred[0]}: a rider whose damage is a second batch of choices, with other riders in the step "
                "(the order they happen in), is not modelled")
    riders.sort(key=lambda r: r.key)  # the graph engine's order (solver.damage._finish_batch)
    to_counters = _to_counters(insts, events)
    if isinstance(to_counters, str):
        return to_counters
    problem = _counters_problem(state, table, insts, riders, to_counters)
    if problem is not None:
        return problem
    triggers = []
    pairs = sorted({(pe.ev.source, pe.ev.recipient) for pe in events if pe.ev.combat and is_player(table, pe.ev.recipient)}
                   | {(pe.ev.source, r) for pe in events if pe.tree is not None and pe.ev.combat
                      for _, r in pe.tree.columns if is_player(table, r)})
    # the watchers on the battlefield as the damage is dealt (603.2; one that left before the
    # step, say died in the first-strike step, watches nothing: solver.triggers.watchers)
    for pid, ctrl, j, ab in watchers(state, table, "combat_damage_to_player"):
        p = state.perm(pid)
        assert p is not None
        shot = ab.action
        if shot is None or not _draws(ab):
            continue  # the rules engine puts it on the stack and resolves it after the step (solver.cp.suffix)
        card = table.perm_specs[p.spec]
        view = View(ctrl, p.id, None, p.chosen)
        for s, r in pairs:
            ok = matches(ab.trigger_from, s, state, table, view) if ab.trigger_from else s == p.id
            if ok and ab.trigger_to is not None:
                ok = matches(ab.trigger_to, r, state, table, view)
            if ok:
                draws = _linear(shot.amount, "damage_dealt")
                assert draws is not None
                who = _players_matching(shot.to, state, table, view)
                triggers.append(_Trigger(p.id, ctrl, j, s, r, draws, who, card.name))
    found = _prevention_triggers(state, table, insts, events)
    if isinstance(found, str):
        return found
    triggers.extend(found)
    multiplayer = sba_multiplayer(state, table)  # 800.4: not Two-Headed Giant (two teams)
    # no life gain for a player who can't gain life (119.7), nor for one who left the game
    # (800.4a: say, lost to a choice before the step), as solver.results.gain_life says
    cant = frozenset(p.name for p in state.players if p.left or _cant_gain_life(state, table, p.name))
    # what follows the batch in its resolution (608.2c: a fixed draw, life gain or loss) is done
    # on the state before it: its results don't depend on the batch's (solver.cp.prefix.tail_end);
    # with more after the step, the rules engine does it all (solver.cp.suffix)
    base = final_fields(after if isinstance(after, GameState) else state0, table)
    gaining = next((i.key for i in insts if i.spec.kind in LIFE_GAIN_KINDS), None)
    if gaining is not None and (riders or deferred):
        return (f"{gaining}: a life-gain replacement with a prevention rider in the step (its events come between "
                "the gain events, CR 615.5) is not modelled")
    gaining_trigger = next((t for t in triggers if t.kind == "gain_life"), None)
    if gaining is not None and gaining_trigger is not None:
        return (f"{gaining}: a life-gain replacement with {gaining_trigger.watcher}'s trigger gaining life (a choice "
                "of order as it resolves, 616.1) is not modelled")
    problem = _suffix_problem(state, table, events, tracked_trees) if later else None
    if problem is not None:
        return problem
    return _Plan(table, state, base, events, shields, riders, triggers, multiplayer, cant, names, assigns, trample,
                 once, assigning, frozenset(n for n in live if cant_lose_life(state, table, n)),
                 frozenset(n for n in live if no_loss_for_0_life(state, table, n)), floors,
                 {p.id: k for p in state.perms if p.present and (k := fewer_counters(state, table, p.id, "-1/-1"))},
                 to_counters, frozenset(t.prevention for t in triggers if t.prevention is not None),
                 tuple(later), frozenset(deferred))


def _can_prevent_none(spec: Any) -> bool:
    """A prevention that, applied to some damage that can be prevented, may prevent none of it:
    half rounded down of 1, all but N of N or less, prevent 0 (solver.amounts); a shield that
    takes none of an event must be used up elsewhere (615.7), so it prevents something."""
    rule = rule_of(spec, 1)
    return any(rule is not None and rule.prevents and rule.apply(n) == n for n in range(1, 4))


def _applied_unpreventable(state: GameState, inst: Instance, events: list[_PEvent],
                           reads: bool) -> tuple[tuple[int, int], ...] | str:
    """The events of damage that can't be prevented a prevention with a rider is applied to, when
    its rider ``reads`` that (it takes place anyway, or reads "that damage", 615.12): each with
    what it would have prevented there (solver.rules.would_prevent); or why the model can't say.
    The model takes it as applied when nothing else applies to the event (its amount is then
    the event's, and no order can bring it to 0 first, 120.8)."""
    if not reads:
        return ()
    out = []
    for pos, pe in enumerate(events):
        if pe.tree is not None and pe.ev.unpreventable and any(i.key == inst.key for i in pe.tree.applied):
            return (f"{inst.key}: a rider that reads damage that can't be prevented (CR 615.12) on a redirected "
                    "event (614.9) is not modelled")
        if inst not in pe.noops:
            continue
        if pe.effects:
            return (f"{inst.key}: a rider applied to damage that can't be prevented (CR 615.12) beside other effects "
                    "on that event (whether it applies, and to how much, is their order, 616.1) is not modelled")
        if pe.assigned:
            return (f"{inst.key}: a rider applied to damage that can't be prevented (CR 615.12) whose amount is a "
                    "combat damage division choice is not modelled")
        if inst.spec.kind == "shield" and any(inst in q.effects for q in events):
            return (f"{inst.key}: a shield's rider reading damage that can't be prevented (CR 615.12) while the "
                    "shield also prevents other damage of the step (its room there is a choice) is not modelled")
        out.append((pos, would_prevent(state, inst, pe.ev)))
    return tuple(out)


def _prevention_trigger_problem(pid: str, ab: Any) -> str | None:
    """Why the model can't take a "whenever damage is prevented" trigger (615.13), or None: it
    takes one that draws cards or gains life, linear in the amount prevented, for players it
    names, with no threshold, intervening if, target or choice."""
    shot = ab.action
    if ab.trigger_min is not None or ab.trigger_if is not None:
        return f"{pid}: damage_prevented triggers with a threshold or an intervening if (CR 603.4) are not modelled"
    if shot is None or shot.kind not in ("draw", "gain_life") or shot.may or ab.more or ab.target is not None \
            or shot.to.kind in ("target", "any", "choice"):
        return f"{pid}: only damage_prevented triggers that draw cards or gain life for players they name are modelled"
    if _linear(shot.amount, "prevented") is None:
        return f"{pid}: the damage_prevented trigger's amount is not linear in prevented"
    return None


def _prevention_triggers(state: GameState, table: Table, insts: tuple[Instance, ...],
                         events: list[_PEvent]) -> list[_Trigger] | str:
    """The "whenever damage is prevented" triggers the step can fire (CR 615.13, solver.triggers.
    prevention_triggers): one per prevention effect that prevented damage in the batch, per
    recipient of the events it was applied to, for each watcher it matches (603.2: ``to``, else its
    controller), reading what that effect prevented across the batch. The model takes an effect
    that can apply to one recipient only (then it was applied to it whenever it prevented anything)."""
    found = watchers(state, table, "damage_prevented")
    if not found:
        return []
    if any(pe.tree is not None for pe in events):
        return "a damage_prevented trigger (CR 615.13) in a step with a redirection (614.9) is not modelled"
    out = []
    for inst in insts:
        if inst.spec.kind not in _PREVENTION:
            continue
        whose = sorted({pe.ev.recipient for pe in events if inst in pe.effects})
        if len(whose) > 1:
            return (f"{inst.key}: a prevention effect applicable to damage to {len(whose)} recipients with a "
                    "damage_prevented trigger (CR 615.13: one per recipient it was applied to) is not modelled")
        for r in whose:
            for pid, ctrl, j, ab in found:
                p = state.perm(pid)
                assert p is not None and ab.action is not None
                view = View(ctrl, p.id, None, p.chosen)
                if not (matches(ab.trigger_to, r, state, table, view) if ab.trigger_to else r == ctrl):
                    continue
                amount = _linear(ab.action.amount, "prevented")
                assert amount is not None
                who = _players_matching(ab.action.to, state, table, view)
                out.append(_Trigger(p.id, ctrl, j, inst.key, r, amount, who, table.perm_specs[p.spec].name,
                                    str(ab.action.kind), inst.key))
    return out


def _to_counters(insts: tuple[Instance, ...], events: list[_PEvent]) -> dict[str, str] | str:
    """Each effect that puts damage as +1/+1 counters instead (614.1a) with the one permanent whose
    damage it replaces in the step (the model keeps one amount per effect), or why it can't."""
    out: dict[str, str] = {}
    for inst in insts:
        if inst.spec.kind != "damage_to_counters":
            continue
        hit = [pe for pe in events if inst in pe.effects]
        if any(pe.tree is not None for pe in hit):
            return f"{inst.key}: damage replaced by counters (CR 614.1a) on a redirected event (614.9) is not modelled"
        whose = sorted({pe.ev.recipient for pe in hit})
        if len(whose) > 1:
            return f"{inst.key}: damage replaced by counters on {len(whose)} permanents in one step is not modelled"
        if whose:
            out[inst.key] = whose[0]
    return out


def _counters_problem(state: GameState, table: Table, insts: tuple[Instance, ...], riders: list[_Rider],
                      to_counters: dict[str, str]) -> str | None:
    """Why the model can't follow the +1/+1 counters the step puts or removes (615.5, 614.1a), or
    None: a replacement of how many are put (614.1a) applies to each event; one that gets them
    beside -1/-1 counters would lose pairs of them (704.5q); one without any that gets some put
    and some removed may end with the kind at 0, a field the model doesn't show."""
    kinds: dict[str, set[str]] = {}
    for key, pid in to_counters.items():
        kinds.setdefault(pid, set()).add("put_counters")
        if fewer_counters(state, table, pid, "+1/+1"):
            return f"{key}: fewer +1/+1 counters put on {pid} (CR 614.1a) is not modelled"
    for rd in riders:
        if rd.kind in _COUNTER_RIDERS:
            for pid in rd.recipients:
                kinds.setdefault(pid, set()).add(rd.kind)
                if fewer_counters(state, table, pid, "+1/+1"):
                    return f"{rd.key}: fewer +1/+1 counters put on {pid} (CR 614.1a) is not modelled"
    put = tuple(pid for pid, k in kinds.items() if "put_counters" in k)
    problem = _annihilation_problem(state, table, insts, put)
    if problem is not None:
        return problem
    for pid, k in sorted(kinds.items()):
        perm = state.perm(pid)
        if len(k) > 1 and perm is not None and "+1/+1" not in dict(perm.counters):
            return f"{pid}: +1/+1 counters both put and removed on a permanent without any is not modelled"
    return None


def _rider_effects(state: GameState, table: Table, inst: Instance, source: str, recipients: tuple[str, ...],
                   floors: dict[str, int], on_life: str | None) -> list[tuple[str, AmountRule]] | str:
    """The one effect that modifies a deal rider's damage to each recipient (its affected player
    has no order to choose with one, 616.1), or why its damage is a batch of its own the model
    doesn't take: choices (optional effects, a next-time prevention, several effects), a life
    floor on the recipient (a second floored batch), a life condition read again after the batch."""
    modified: list[tuple[str, AmountRule]] = []
    for r in recipients:
        if r in floors:
            return f"{inst.key}'s rider: its damage to {r}, whose life has a floor (a second floored batch)"
        if on_life is not None:
            return f"{inst.key}'s rider: its damage after the batch, with {on_life}'s life condition read again then"
        probe = unpreventable(state, table, Event(source, r, 1, False))
        # 615.12: a prevention without a rider does nothing to damage that can't be prevented
        apps = [a for a in applicable_effects(state, table, probe)
                if not (probe.unpreventable and a.spec.kind in _PREVENTION and a.spec.then is None)]
        if not apps:
            continue
        if any(a.spec.may for a in apps):
            return f"{inst.key}'s rider: an optional effect could apply to its damage to {r} (a second batch of choices)"
        if any(one_instance(a.spec) for a in apps):
            return f"{inst.key}'s rider: a next-time prevention (CR 615.8) could apply to its damage to {r}"
        rule = rule_of(apps[0].spec) if len(apps) == 1 and apps[0].spec.then is None else None
        if rule is None or apps[0].spec.kind not in _ORDERED or _counted(apps[0]):
            return f"{inst.key}'s rider: effects apply to its damage to {r} (a second batch of choices)"
        modified.append((r, rule))
    return modified


def _suffix_problem(state: GameState, table: Table, events: list[_PEvent], tracked_trees: bool) -> str | None:
    """Why the state after the step is not one the model's solutions determine, when the rules
    engine continues after it (solver.cp.suffix), or None. The solutions are told apart by every
    result the model has (solver.cp.encode: each batch's damage per source and recipient, each
    prevention's amount, shields, deathtouch), which is what the triggers and riders after the
    step read, except: the first source that dealt damage to a recipient, when a redirection can
    change which events reach it (a dealt_damage trigger's ``from:`` without a threshold reads
    it); whether a next-time prevention (615.8) of a redirected event was used, when its tree was
    walked before a rider's batch of choices made the step one the rules engine continues."""
    redirected = any(pe.tree is not None for pe in events)
    if redirected and not tracked_trees:
        once = next((i.key for pe in events if pe.tree is not None for i in pe.effects
                     if i.spec.kind == "prevent" and i.spec.next_time), None)
        if once is not None:
            return f"{once}: a next-time prevention (CR 615.8) of a redirected event, with a rider's batch of choices after the step, is not modelled"
    # which event reached a recipient first is the model's only when each source deals each
    # recipient one event and no redirection moves events between recipients
    if redirected or len({(pe.ev.source, pe.ev.recipient) for pe in events}) < len(events):
        for p in state.perms:
            for ab in table.perm_specs[p.spec].abilities if p.present else ():
                if ab.kind == "trigger" and ab.trigger == "dealt_damage" and ab.trigger_from is not None \
                        and ab.trigger_min is None:
                    return (f"{p.id}: a dealt_damage trigger with from: in a step with a redirection (614.9) or two "
                            "events from one source to one recipient, followed by the rules engine, is not modelled")
    return None


# triggers the step can fire that the rules engine puts on the stack and resolves after it
# (603.3b, solver.cp.suffix): what they read (each batch's damage per source and recipient, 603.2,
# 603.10; who died, 603.6c; each life-gain event, 119.9) is among what the model's solutions differ by
_CONTINUED = ("deals_damage", "dealt_damage", "combat_damage_to_player", "dies", "gain_life")


def _draws(ab: Any) -> bool:
    """A "deals combat damage to a player" trigger the model applies itself: it draws cards, no
    choice, no threshold or intervening if (603.4), one instruction."""
    shot = ab.action
    return shot is not None and shot.kind == "draw" and not shot.may and shot.to.kind not in ("target", "any", "choice") \
        and not ab.more and ab.target is None and ab.trigger_min is None and ab.trigger_if is None


def _partial(inst: Instance) -> bool:
    """A partial redirection ("the next N damage ... is dealt to ... instead"): it depletes like a
    shield, its share of each event a choice (615.7 applied to a redirection, 614.9)."""
    return inst.spec.kind == "redirect" and inst.spec.shield is not None


def _trees(state: GameState, table: Table, insts: tuple[Instance, ...], events: list[_PEvent],
           assigns: list[_Assign], deadline: Deadline | None, suffix: bool = False) -> str | None:
    """The events a redirection applies to (CR 614.9): each gets its tree of results, walked by
    the graph engine's rules (solver.cp.trees), and as its effects every effect applicable
    anywhere in it (the new recipient's too, 616.1f); or the reason the model can't take them.
    With ``suffix`` (the rules engine continues after the step) a next-time prevention's
    prevention is kept too: whether it was used up (615.8) is part of the state after the step."""
    redirected = [pe for pe in events if any(i.spec.kind == "redirect" for i in (*pe.effects, *pe.noops))]
    if redirected and any(i.spec.may for i in insts):
        # the tree walk asks no optional effect's controller (solver.damage's may decisions)
        return "an optional effect (\"you may\", CR 616.1) in a step with a redirection (614.9) is not modelled"
    shields = {i.key for i in insts if (i.spec.kind == "shield" and not one_instance(i.spec)) or _partial(i)}
    settle = {i.key for i in insts if i.spec.kind == "shield" and one_instance(i.spec)}
    # what a prevention with a rider prevented (615.5; a shield's is its share), and a one-instance shield's
    kept = {i.key for i in insts if i.spec.kind in _PREVENTION and (i.spec.then is not None or (suffix and i.spec.next_time))} \
        - shields | settle
    options = {(a.creature, r): {sum(n for rr, n in opt if rr == r) for opt in a.options}
               for a in assigns for opt in a.options for r, _ in opt}
    for pe in events:
        if not any(i.spec.kind == "redirect" for i in (*pe.effects, *pe.noops)):
            continue
        amounts = sorted(options.get((pe.ev.source, pe.ev.recipient), {pe.ev.amount})) if pe.assigned else [pe.ev.amount]
        tree = event_tree(state, table, pe.index, amounts, shields, kept, settle, deadline=deadline)
        if tree is None:
            return (f"{pe.ev.source}->{pe.ev.recipient}: a redirected event with more than {TREE_LIMIT} "
                    "distinct results is not modelled")
        pe.tree, pe.effects, pe.noops = tree, list(tree.applied), []
    return None


def _one_instance_events(insts: tuple[Instance, ...], events: list[_PEvent]) -> tuple[tuple[Instance, ...], frozenset[str]] | str:
    """One-instance shields and next-time preventions (CR 615.8) that can apply to at most one
    event of the step: there they are a plain prevention (a shield of "all" prevents all of it,
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
        hits = sum(1 for pe in events if any(i.key == inst.key for i in (*pe.effects, *pe.noops)))
        if hits > 1:
            return (f"{inst.key}: a next-time prevention (CR 615.8) that could apply to {hits} events of the step "
                    "(which one uses it is a choice across events) is not modelled")
        if inst.spec.kind == "shield":
            swap[inst.key] = replace(inst, spec=replace(inst.spec, kind=EffectKind.PREVENT))
            once.add(inst.key)
    if not swap:
        return insts, frozenset()
    for pe in events:
        pe.effects = [swap.get(i.key, i) for i in pe.effects]
        pe.noops = [swap.get(i.key, i) for i in pe.noops]
    return tuple(swap.get(i.key, i) for i in insts), frozenset(once)


def cp_supported(case: Case) -> str | None:
    """None when the CP model can express ``case``, else a short reason.

    The CP model solves one step: the last combat damage step of a ``combat: {}`` action that
    ends the timeline (blocked or not, damage division and trample included; with first or
    double strike the regular step, CR 510.4), else the timeline's last damage batch, whatever
    action, spell, ability or trigger opened it, with later instructions of its resolution that
    draw or gain or lose a fixed amount (608.2c). Everything before it (earlier actions and
    their choices, targets and divisions, trigger order, declared blocks, the first-strike
    damage step with its state-based actions and triggers) is expanded by the graph engine's
    rules, equal states merged (solver.cp.prefix); everything after it (later actions and
    instructions, the end of the combat damage step, the triggers the step fires and their
    damage, a rider whose damage is a batch of choices) is continued by the same rules from each
    of the step's distinct results (solver.cp.suffix); a timeline with no damage batch is declined
    (:data:`~solver.cp.prefix.NO_BATCH`). The step is then modelled from each distinct state reached, at most
    ``MAX_STARTS`` of them. In the step: shields (615.7), static and created prevention (615.1,
    615.10, 615.12), multiply / add / cap replacements in every order (614.1a, 616.1); riders
    (615.5) whose damage meets no further choices; redirection, whole or partial (614.9, walked
    by the graph engine's rules: solver.cp.trees); attacks on planeswalkers and battles, trample
    over planeswalkers (506.3, 702.19c), loyalty and defense removed (120.3c, 120.3h, 704.5i,
    704.5v); a rider's damage to a permanent; lifelink, infect, wither, deathtouch;
    "deals combat damage to a player" triggers that draw cards; "whenever damage is prevented"
    triggers that draw or gain life (615.13); +1/+1 counters a rider puts or removes and damage
    put as +1/+1 counters instead (615.5, 614.1a: toughness, 613.4c); riders on damage that
    can't be prevented (615.12); shields of a source of your
    choice (615.9) and next-time shields that can apply to one event of the step (615.8). An Aura
    on a creature that dies in the step dies too (704.5m, solver.sba); an Aura in a multiplayer
    game is declined.
    """
    plans = _plans(case)
    return plans if isinstance(plans, str) else None


