"""Planning: can the CP model express the case's last step, and what it needs (events, shields,
riders, triggers, combat assignments), or the reason it can't; the estimate ``auto`` uses."""

from __future__ import annotations

from dataclasses import dataclass, replace

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.kinds import ActionKind, TriggerEvent
from mtg_outcomes.model.types import LIFE_GAIN_KINDS, Case

from ..damage import rider_shot
from ..engine import final_fields
from ..limits import Deadline, as_deadline
from ..next_time import one_instance
from ..oneshot import shot_recipients
from ..persource import per_source
from ..results import cant_gain_life as _cant_gain_life
from ..results import cant_lose_game, cant_lose_life, fewer_counters, life_floor, no_loss_for_0_life
from ..rules import (
    PREVENTION_KINDS,
    affected_player,
    applicable_effects,
    can_be_dealt,
    effect_name,
    effects_in_force,
)
from ..sba import attachment_kind
from ..sba import multiplayer as sba_multiplayer
from ..select import View, is_player, matches
from ..state import GameState, Table
from ..triggers import watchers
from .assign import _open_batch
from .blocks import BlockPlan, deferred_blocks, deferred_problem, is_block_start, open_blocks
from .declines import (
    _CHARACTERISTICS,
    _COUNTER_RIDERS,
    _DECLINED,
    _INERT,
    _LIFE,
    _ORDERED,
    _RIDER_KINDS,
    _RIDERS_DECLINED,
    _annihilation,
    _characteristics_ending,
    _characteristics_problem,
    _gain_problem,
    _life_effect_ending,
    _life_problem,
    _players_matching,
)
from .events import (
    _one_instance_events,
    _partial,
    _trees,
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
from .riders import (
    _DEFERRED_KINDS,
    _applied_unpreventable,
    _can_prevent_none,
    _counters_problem,
    _counters_put,
    _deferred_problem,
    _draws,
    _movable_problem,
    _prevention_triggers,
    _rider_effects,
    _suffix_problem,
    _to_counters,
    _watching,
)
from .step import (
    Trample,
    _Assign,
    _linear,
    _PEvent,
    _Plan,
    _Rider,
    _rider_amount,
    _Trigger,
)

# what a time limit cut (stats["limit"] of a partial answer, from LimitReached.phase)
_PLANNING = "planning the CP model"


@dataclass
class StepPlans:
    """The CP answer's parts: the expansion of the choices before the CP step (solver.cp.prefix)
    and one plan per distinct state at its start (parallel to ``prefix.starts``); the case and
    the node limit they were planned with (an answer from them is that case's only)."""

    prefix: Prefix
    plans: list[_Plan]
    case: Case
    max_nodes: int | None

    def problem(self, case: Case, max_nodes: int | None) -> str | None:
        """Why these plans can't answer ``case`` with ``max_nodes`` (None: they can): another
        case's plans would answer for it, and a prefix its node limit cut, for that limit only."""
        if self.case is not case and self.case != case:
            return f"planned= holds the plans of {self.case.id}, not of {case.id}"
        if not self.prefix.complete and self.max_nodes != max_nodes:
            return (f"planned= was cut at max_nodes={self.max_nodes} before the step; "
                    f"plan again with max_nodes={max_nodes}")
        return None


def _plans(case: Case, deadline: Deadline | None = None, max_nodes: int | None = None) -> StepPlans | str:
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
    if missing == NO_BATCH and prefix.complete and not prefix.starts and prefix.ended:
        # no damage batch, so no step for CP-SAT: the expansion went to the end of every
        # branch, and its end states (equal ones merged) are the answer, exact
        return StepPlans(prefix, [], case, max_nodes)
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
    return StepPlans(prefix, plans, case, max_nodes)


def plan_step(case: Case, timeout: float | Deadline | None = None, max_nodes: int | None = None) -> StepPlans | str:
    """The CP step planned: the choices before it expanded (at most ``max_nodes`` states) and a
    plan of it from each distinct state they reach, or the reason CP can't model ``case`` (as
    :func:`cp_supported` says it). Past ``timeout`` it raises :class:`LimitReached`. Give it to
    :func:`~solver.cp.cp_outcomes` or :func:`~solver.cp.cp_optimize` as ``planned=`` (with the
    same ``max_nodes``) so that they don't plan the step again."""
    return _plans(case, as_deadline(timeout), max_nodes)


def _plan_step(start: GameState, table: Table, step: int | None,
               deadline: Deadline | None = None) -> _Plan | str:
    """Check that the CP model can express the step that starts at ``start`` (the last damage
    batch, open in ``start``, with what follows it in the same resolution, solver.cp.prefix; or
    combat damage step ``step``: 0 the only one, 2 the regular one after the first-strike step,
    CR 510.4) and collect what it needs (or a reason). Raises :class:`LimitReached` when
    ``deadline`` passes."""
    state0 = replace(start, queue=(), batch=None)  # (the step's own batch or task is opened below)
    crown = next((p.name for p in state0.players if p.monarch), None)
    # what follows the step that the rules engine continues (solver.cp.suffix), first first: a
    # later instruction or action, the end of the combat damage step, triggers the step fires
    after = follows(start, table)
    later = [after] if isinstance(after, str) else []
    watching = _watching(state0, table)  # (permanent, trigger) the step can fire, left to the rules engine
    if isinstance(watching, str):
        return watching
    if sba_multiplayer(state0, table):
        aura = next((p for p in state0.perms if p.present and p.attached_to is not None
                     and attachment_kind(table, p) == "aura"), None)
        if aura is not None:  # the model's check doesn't follow it: the rules engine's checks do
            later.append(f"{aura.id}: an Aura in a multiplayer game (its owner or its host's leaving the game, "
                         "CR 800.4a, and 704.5m after it)")
    insts = effects_in_force(state0, table)
    pairs_off = _annihilation(state0, table, insts)  # 704.5q: the rules engine's, after the step
    if pairs_off is not None:
        later.append(pairs_off)
    later.extend(f"{pid}'s {ab.trigger} trigger (603.2, 603.3b)" for pid, ab in watching)
    for inst in insts:
        spec = inst.spec
        if spec.kind == EffectKind.AS_UNBLOCKED:
            continue  # 510.1b: the assignment's options, solver.combat.assign_options (_open_batch)
        if spec.kind in _INERT:
            continue
        if spec.kind == EffectKind.FEWER_COUNTERS:  # on the batch's -1/-1 counters (solver.results.fewer_counters)
            if spec.if_life_at_most is not None:
                return f"{inst.key}: a fewer_counters effect with a life condition is not modelled"
            continue
        if spec.kind in LIFE_GAIN_KINDS:  # lifelink's gain events, ordered by the gaining player (616.1)
            if (problem := _gain_problem(inst, insts)) is not None:
                return problem
            continue
        if spec.kind == EffectKind.AS_THOUGH:
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
            ending = _characteristics_ending(state0, table, inst)
            if ending is not None:  # the rules engine does the checks after the step's first
                later.append(ending)
            continue
        if spec.kind == EffectKind.DAMAGE_TO_COUNTERS:  # Phytohydra (614.1a): solver.amounts.ToCounters
            if spec.may:
                return f"{inst.key}: an optional replacement of damage by counters is not modelled"
            if str(spec.value) not in ("+1/+1", "-1/-1"):
                return f"{inst.key}: damage replaced by {spec.value} counters is not modelled (only +1/+1 and -1/-1, 613.4c)"
            continue
        if spec.kind in _REPLACING_DESTRUCTION:
            # "exile it instead" (614.1a) and a regeneration shield (701.19a, 614.8) replace what
            # the step's state-based actions do to a creature (704.5g-h), which the damage marked
            # on it decides: the solutions are told apart by each batch's damage per recipient and
            # deathtouch (solver.cp.encode._state_after), and the rules engine, replaying each,
            # applies the replacement (solver.cp.suffix)
            later.append(f"{inst.key}'s {_REPLACING_DESTRUCTION[spec.kind]}")
            continue
        if spec.kind not in _ORDERED:
            return f"{inst.key}: {_DECLINED.get(spec.kind, f'{spec.kind} effects are not modelled')}"
        if spec.may and (spec.kind not in (EffectKind.PREVENT, EffectKind.MULTIPLY, EffectKind.ADD, EffectKind.SUBTRACT, EffectKind.CAP, EffectKind.HALVE) or spec.then is not None
                         or one_instance(spec)):
            return f"{inst.key}: optional effects (\"you may prevent\", a choice of their controller, CR 616.1) are not modelled"
        # a source of your choice (615.9) is a filter solver.rules re-checks at every event
        if spec.kind == EffectKind.SHIELD and inst.state_id is None:
            return f"{inst.key}: only created shields are modelled"
        if spec.kind == EffectKind.REDIRECT and spec.shield is not None and inst.state_id is None:
            return f"{inst.key}: only created partial redirections are modelled"
        if spec.kind == EffectKind.PREVENT and isinstance(spec.value, tuple) and spec.value[0] != "int":
            return f"{inst.key}: prevention by an expression is not modelled"
        if spec.then is not None:
            if spec.kind not in PREVENTION_KINDS:
                return f"{inst.key}: a rider on a {spec.kind} effect is not modelled"
            if spec.then.kind not in _RIDER_KINDS:
                return f"{inst.key}: {_RIDERS_DECLINED.get(spec.then.kind, f'a {spec.then.kind} rider is not modelled')}"
            if spec.then.kind in _COUNTER_RIDERS and spec.then.counter != "+1/+1" and \
                    (spec.then.kind, spec.then.counter) != (ActionKind.PUT_COUNTERS, "-1/-1"):
                return (f"{inst.key}: a {spec.then.kind} rider of {spec.then.counter} counters is not modelled "
                        "(only +1/+1 counters and -1/-1 counters put, which change toughness, 613.4c)")
            read = _rider_amount(spec.then.amount)
            if read is None:
                return (f"{inst.key}: the rider's amount is not linear in prevented and that_damage, or reads "
                        "another value (X, a life total) the model doesn't hold")
            if read[2] and not spec.then.if_prevented and _can_prevent_none(spec):
                return (f"{inst.key}: a rider that takes place whenever its prevention is applied (CR 615.12) on a "
                        "prevention that can prevent none of some damage (half rounded down of 1, all but N) is not "
                        "modelled (the model reads that it was applied from what it prevented)")
    blocks: BlockPlan | None = None
    assigns: list[_Assign]
    trample: list[Trample]
    assigning: GameState | None
    if is_block_start(start) or deferred_blocks(start):  # the declaration of blockers is the model's (509.1, solver.cp.blocks)
        if (problem := deferred_problem(start)) is not None:
            return problem
        state, blocks = open_blocks(start, table)
        assigns, trample, assigning = [], [], state
        varying = {(ev.source, ev.recipient) for ev in state.batch.events} if state.batch is not None else set()
    else:
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
        apps = applicable_effects(state, table, ev, any_amount=True)
        modelled = [a for a in apps if not (ev.unpreventable and a.spec.kind in PREVENTION_KINDS)]
        noops = [a for a in apps if ev.unpreventable and a.spec.kind in PREVENTION_KINDS]
        if any(a.spec.may for a in noops):
            return f"{noops[0].key}: an optional prevention of damage that can't be prevented (CR 615.12) is not modelled"
        events.append(_PEvent(i, ev, affected_player(state, ev.recipient), modelled, noops,
                              (ev.source, ev.recipient) in varying))
    events.sort(key=lambda pe: (order.index(pe.chooser) if pe.chooser in order else 99, pe.index))
    if crown is not None:
        # 724.2: "Whenever a creature deals combat damage to the monarch, its controller becomes
        # the monarch" (solver.results.deal puts it on the stack after state-based actions), and
        # 724.4: a monarch who leaves the game passes it on (solver.sba): the rules engine
        # continues after the step, reading each source's combat damage to each player and who
        # lost, which the solutions are told apart by (solver.cp.encode._state_after)
        later.append(f"the monarch {crown} (CR 724.2, 724.4)")
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
        if inst.spec.kind == EffectKind.SHIELD or _partial(inst):
            eff = state.effect(inst.state_id)
            assert eff is not None  # (a shield is a created effect, 615.7)
            shields[inst.key] = int(eff.remaining or 0)
    live = [p.name for p in state.players if not p.left]
    floors = {n: f for n in live if (f := life_floor(state, table, n)) is not None}
    on_life = next((i.key for i in insts if i.spec.kind == EffectKind.AS_THOUGH and i.spec.if_life_at_most is not None), None)
    riders = []
    deferred: list[str] = []  # riders whose damage is a second batch of choices: the rules engine's (615.5)
    for inst in insts:
        rider = inst.spec.then
        if rider is None or not any(inst in pe.effects or inst in pe.noops for pe in events):
            continue
        source = inst.view.self_id or inst.view.controller
        sel = rider.to
        if rider.kind in _DEFERRED_KINDS or per_source(inst.spec):  # (solver.persource: the rules engine's)
            # 111.1, 615.5: tokens created right after the prevention, before state-based actions,
            # are permanents the model doesn't have: the rules engine creates them after the step's
            # choices, from what the prevention prevented (which the solutions are told apart by)
            problem = _deferred_problem(state, inst, events)
            if problem is not None:
                return problem
            deferred.append(inst.key)
            later.append(f"{inst.key}'s {rider.kind} rider (615.5, 111.1)")
            continue
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
            if rider.kind == ActionKind.DEAL:  # and the permanents it names that can be dealt damage (120.1a)
                recipients += tuple(p.id for p in state.perms if p.present and matches(sel, p.id, state, table, inst.view)
                                    and can_be_dealt(state, table, p.id))
        if rider.kind not in (ActionKind.DEAL, *_COUNTER_RIDERS) and any(not is_player(table, r) for r in recipients):
            return f"{inst.key}: a {rider.kind} rider for a permanent is not modelled"
        modified = _rider_effects(state, table, inst, source, recipients, floors, on_life) if rider.kind == ActionKind.DEAL else []
        if isinstance(modified, str):
            # its damage meets choices of its own (616.1, 615.7) or is read again: the rider happens
            # after the step's choices, before state-based actions, with the amount the model
            # prevented (615.5): the rules engine does it, as it does what follows the step
            problem = _deferred_problem(state, inst, events)
            if problem is not None:
                return problem
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
                             rider.kind == ActionKind.GAIN_LIFE and (sel is None or sel.kind == "you"), b,
                             not rider.if_prevented, applied, rider.counter or "+1/+1"))
    if deferred and riders:
        # riders happen one after another right after the batch (615.5; solver.damage._finish_batch:
        # in the order of their effects' keys, whatever the choices): with one of them done by the
        # rules engine after the step, it does them all, each from what its effect prevented
        problem = next((why for rd in riders if (why := _movable_problem(insts, rd)) is not None), None)
        if problem is not None:
            return problem
        deferred.extend(rd.key for rd in riders)
        later.extend(f"{rd.key}'s rider (615.5)" for rd in riders)
        riders = []
    riders.sort(key=lambda r: r.key)  # the graph engine's order (solver.damage._finish_batch)
    to_counters = _to_counters(insts, events)
    if isinstance(to_counters, str):
        return to_counters
    problem = _counters_problem(state, table, insts, riders, to_counters)
    if problem is not None:
        return problem
    if pairs_off is None:
        pairs_off = _annihilation(state, table, insts, _counters_put(riders, to_counters),
                                  _counters_put(riders, to_counters, "-1/-1"))
        if pairs_off is not None:
            later.append(pairs_off)
    triggers = []
    pairs = sorted({(pe.ev.source, pe.ev.recipient) for pe in events if pe.ev.combat and is_player(table, pe.ev.recipient)}
                   | {(pe.ev.source, r) for pe in events if pe.tree is not None and pe.ev.combat
                      for _, r in pe.tree.columns if is_player(table, r)})
    # the watchers on the battlefield as the damage is dealt (603.2; one that left before the
    # step, say died in the first-strike step, watches nothing: solver.triggers.watchers)
    for pid, ctrl, j, ab in watchers(state, table, TriggerEvent.COMBAT_DAMAGE_TO_PLAYER):
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
    gaining_trigger = next((t for t in triggers if t.kind == ActionKind.GAIN_LIFE), None)
    if gaining is not None and gaining_trigger is not None:
        return (f"{gaining}: a life-gain replacement with {gaining_trigger.watcher}'s trigger gaining life (a choice "
                "of order as it resolves, 616.1) is not modelled")
    # an effect that may end in the step's check (its permanent dies): the model reads it at that
    # check, where it still applies (704.3), and the rules engine does what follows, the next
    # check and the triggers' gains, from each solution's state (solver.cp.suffix)
    ending = _life_effect_ending(state, table, insts, events, assigns, riders, any(t.kind == ActionKind.GAIN_LIFE for t in triggers))
    if ending is not None:
        later.append(ending)
    problem = _suffix_problem(state, table, events, tracked_trees) if later else None
    if problem is not None:
        return problem
    if later and blocks is not None and deferred_blocks(start):  # (the rules engine replays the step from its start)
        return f"{later[0]} after a combat damage step whose blocks the model chooses after a first-strike step's"
    return _Plan(table, state, base, events, shields, riders, triggers, multiplayer, cant, names, assigns, trample,
                 once, assigning, frozenset(n for n in live if cant_lose_life(state, table, n)),
                 frozenset(n for n in live if no_loss_for_0_life(state, table, n)), floors,
                 {p.id: k for p in state.perms if p.present and (k := fewer_counters(state, table, p.id, "-1/-1"))},
                 to_counters, frozenset(t.prevention for t in triggers if t.prevention is not None),
                 tuple(later), frozenset(deferred), unbeaten=frozenset(n for n in live if cant_lose_game(state, table, n)),
                 blocks=blocks)


# replacements of a creature's dying or destruction, applied by the rules engine after the step
_REPLACING_DESTRUCTION = {"exile_instead": "\"exile it instead\" (CR 614.1a)",
                          "regenerate": "regeneration shield (CR 701.19a, 614.8)"}


def cp_supported(case: Case, timeout: float | Deadline | None = None) -> str | None:
    """None when the CP model can express ``case``, else a short reason. Finding out plans the
    step, expanding the choices before it (at most ``PREFIX_NODES`` states, which a loop of
    choices can make long): past ``timeout`` it raises :class:`LimitReached`.

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
    of the step's distinct results (solver.cp.suffix); a timeline with no damage batch has no step:
    the same expansion to the end of every branch is the answer. The step is then modelled from each distinct state reached, at most
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
    plans = _plans(case, as_deadline(timeout))
    return plans if isinstance(plans, str) else None


