"""Planning one CP step (docs/engines.md): what the model needs of the rules from the state the
step starts at, or the :class:`~solver.cp.refusal.Refusal` saying which rule it can't express.
In named steps: what the rules engine continues after the step (solver.cp.suffix), each effect
in force (616.1 and the rules in solver.cp.declines), the opened batch or declaration of blockers
(509.1, 510.1), the planned events (616.1, 615.12), the riders (615.5: solver.cp.riders), the
triggers (603.2, 615.13) and what the step's check reads (119.7, 119.8, 704.5a)."""

from __future__ import annotations

from dataclasses import replace

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.kinds import ActionKind
from mtg_outcomes.model.types import LIFE_GAIN_KINDS

from ..engine import final_fields
from ..limits import Deadline
from ..results import cant_gain_life as _cant_gain_life
from ..results import cant_lose_game, cant_lose_life, fewer_counters, life_floor, no_loss_for_0_life
from ..rules.effects import (
    PREVENTION_KINDS,
    Instance,
    affected_player,
    applicable_effects,
    effect_name,
    effects_in_force,
)
from ..sba import attachment_kind
from ..sba import multiplayer as sba_multiplayer
from ..state import GameState, Table
from .assign import open_batch
from .blocks import BlockPlan, deferred_blocks, deferred_problem, is_block_start, open_blocks
from .declines import annihilation, effect_problem, life_effect_ending
from .events import one_instance_events, partial_redirect, redirection_trees
from .prefix import follows
from .refusal import Refusal
from .riders import (
    combat_draw_triggers,
    counters_instead,
    counters_problem,
    counters_put,
    planned_prevention_triggers,
    planned_riders,
    suffix_problem,
    watching_triggers,
)
from .step import Assign, PlannedEvent, PlannedRider, PlannedTrigger, StepPlan, Trample

# what a time limit cut (stats["limit"] of a partial answer, from LimitReached.phase)
PLANNING = "planning the CP model"

Opened = tuple[GameState, BlockPlan | None, list[Assign], list[Trample], GameState | None, set[tuple[str, str]]]


def plan_one_step(start: GameState, table: Table, step: int | None,
                  deadline: Deadline | None = None) -> StepPlan | Refusal:
    """Check that the CP model can express the step that starts at ``start`` (the last damage
    batch, open in ``start``, with what follows it in the same resolution, solver.cp.prefix; or
    combat damage step ``step``: 0 the only one, 2 the regular one after the first-strike step,
    CR 510.4) and collect what it needs (or a reason). Raises :class:`LimitReached` when
    ``deadline`` passes."""
    state0 = replace(start, queue=(), batch=None)  # (the step's own batch or task is opened below)
    crown = next((p.name for p in state0.players if p.monarch), None)
    after = follows(start, table)
    continued = _continued(state0, table, after)
    if isinstance(continued, Refusal):
        return continued
    later, insts, pairs_off = continued
    for inst in insts:
        if (problem := effect_problem(state0, table, inst, insts, later)) is not None:
            return problem
    opened = _opened(start, state0, table, step)
    if isinstance(opened, Refusal):
        return opened
    state, blocks, assigns, trample, assigning, varying = opened
    events = _planned_events(state, table, varying, deadline)
    if isinstance(events, Refusal):
        return events
    if crown is not None:
        # 724.2: "Whenever a creature deals combat damage to the monarch, its controller becomes
        # the monarch" (solver.results.deal puts it on the stack after state-based actions), and
        # 724.4: a monarch who leaves the game passes it on (solver.sba): the rules engine
        # continues after the step, reading each source's combat damage to each player and who
        # lost, which the solutions are told apart by (solver.cp.tally.state_after)
        later.append(f"the monarch {crown} (CR 724.2, 724.4)")
    tracked_trees = bool(later)  # (a rider left to the rules engine may make a suffix below)
    if (problem := redirection_trees(state, table, insts, events, assigns, deadline, tracked_trees)) is not None:
        return problem
    names = {inst.key: effect_name(inst, table, state) for inst in insts}
    converted = one_instance_events(insts, events)
    if isinstance(converted, Refusal):
        return converted
    insts, once = converted
    draft = StepPlan(table, state, {}, events, _shields(state, insts), [], [], sba_multiplayer(state, table), frozenset(),
                     names, assigns, trample, once, assigning, blocks=blocks)
    return _completed(draft, start, after, state0, insts, later, pairs_off, tracked_trees)


def _continued(state0: GameState, table: Table, after: GameState | Refusal) -> tuple[list[str], tuple[Instance, ...], str | None] | Refusal:
    """What the rules engine continues after the step (solver.cp.suffix), first first: a later
    instruction or action, the end of the combat damage step (``after``, when it isn't the state
    after the step), triggers the step fires, an Aura in a multiplayer game (800.4a, 704.5m after
    it), +1/+1 and -1/-1 counters annihilating (704.5q); with the effects in force, and the
    annihilation's words when it is one."""
    later = [after.reason] if isinstance(after, Refusal) else []
    watching = watching_triggers(state0, table)  # (permanent, trigger) the step can fire, left to the rules engine
    if isinstance(watching, Refusal):
        return watching
    if sba_multiplayer(state0, table):
        aura = next((p for p in state0.perms if p.present and p.attached_to is not None
                     and attachment_kind(table, p) == "aura"), None)
        if aura is not None:  # the model's check doesn't follow it: the rules engine's checks do
            later.append(f"{aura.id}: an Aura in a multiplayer game (its owner or its host's leaving the game, "
                         "CR 800.4a, and 704.5m after it)")
    insts = effects_in_force(state0, table)
    pairs_off = annihilation(state0, table, insts)  # 704.5q: the rules engine's, after the step
    if pairs_off is not None:
        later.append(pairs_off)
    later.extend(f"{pid}'s {ab.trigger} trigger (603.2, 603.3b)" for pid, ab in watching)
    return later, insts, pairs_off


def _opened(start: GameState, state0: GameState, table: Table, step: int | None) -> Opened | Refusal:
    """The step's batch opened: the declaration of blockers, when the model makes it (509.1,
    solver.cp.blocks), or the combat damage assignment's options (510.1, solver.cp.assign); and
    the (source, recipient) pairs whose amount is a choice."""
    if is_block_start(start) or deferred_blocks(start):  # the declaration of blockers is the model's (509.1, solver.cp.blocks)
        if (undecided := deferred_problem(start)) is not None:
            return Refusal(undecided, "510.4")
        state, blocks = open_blocks(start, table)
        varying = {(ev.source, ev.recipient) for ev in state.batch.events} if state.batch is not None else set()
        return state, blocks, [], [], state, varying
    opened = open_batch(start, state0, table, step)
    if isinstance(opened, Refusal):
        return opened
    state, assigns, trample, assigning = opened
    varying = {(a.creature, r) for a in assigns if len(a.options) > 1 for opt in a.options for r, _ in opt}
    return state, None, assigns, trample, assigning, varying


def _planned_events(state: GameState, table: Table, varying: set[tuple[str, str]],
                    deadline: Deadline | None) -> list[PlannedEvent] | Refusal:
    """The batch's events with the effects that may apply to each (616.1; those that can't
    prevent damage that can't be prevented, 615.12, apart), in the order the affected players
    make their choices (APNAP, 101.4)."""
    events: list[PlannedEvent] = []
    batch_events = state.batch.events if state.batch is not None else ()
    order = table.apnap(table.order)
    for i, ev in enumerate(batch_events):
        if deadline is not None:
            deadline.check(PLANNING)
        apps = applicable_effects(state, table, ev, any_amount=True)
        modelled = [a for a in apps if not (ev.unpreventable and a.spec.kind in PREVENTION_KINDS)]
        noops = [a for a in apps if ev.unpreventable and a.spec.kind in PREVENTION_KINDS]
        if any(a.spec.may for a in noops):
            return Refusal(f"{noops[0].key}: an optional prevention of damage that can't be prevented (CR 615.12) is not modelled", "615.12")
        events.append(PlannedEvent(i, ev, affected_player(state, ev.recipient), modelled, noops,
                                   (ev.source, ev.recipient) in varying))
    events.sort(key=lambda pe: (order.index(pe.chooser) if pe.chooser in order else 99, pe.index))
    return events


def _shields(state: GameState, insts: tuple[Instance, ...]) -> dict[str, int]:
    """What each shield and partial redirection has left as the step begins (615.7)."""
    shields = {}
    for inst in insts:
        if inst.spec.kind == EffectKind.SHIELD or partial_redirect(inst):
            eff = state.effect(inst.state_id)
            assert eff is not None  # (a shield is a created effect, 615.7)
            shields[inst.key] = int(eff.remaining or 0)
    return shields


def _completed(draft: StepPlan, start: GameState, after: GameState | Refusal, state0: GameState,
               insts: tuple[Instance, ...], later: list[str], pairs_off: str | None, tracked_trees: bool) -> StepPlan | Refusal:
    """The plan's riders (615.5), counters (614.1a, 704.5q), triggers (603.2, 615.13) and what the
    step's check reads (119.7, 119.8, 704.5a, 810.9 floors), or why the model can't take them."""
    state, table, events = draft.state, draft.table, draft.events
    live = [p.name for p in state.players if not p.left]
    floors = {n: f for n in live if (f := life_floor(state, table, n)) is not None}
    planned = planned_riders(state, table, insts, events, floors, later)
    if isinstance(planned, Refusal):
        return planned
    riders, deferred = planned
    to_counters = counters_instead(insts, events)
    if isinstance(to_counters, Refusal):
        return to_counters
    if (problem := counters_problem(state, table, insts, riders, to_counters)) is not None:
        return problem
    if pairs_off is None:
        pairs_off = annihilation(state, table, insts, counters_put(riders, to_counters),
                                 counters_put(riders, to_counters, "-1/-1"))
        if pairs_off is not None:
            later.append(pairs_off)
    triggers = combat_draw_triggers(state, table, events)
    found = planned_prevention_triggers(state, table, insts, events)
    if isinstance(found, Refusal):
        return found
    triggers.extend(found)
    if (problem := _life_problem(state, table, insts, riders, deferred, triggers, draft, later, tracked_trees)) is not None:
        return problem
    if later and draft.blocks is not None and deferred_blocks(start):  # (the rules engine replays the step from its start)
        return Refusal(f"{later[0]} after a combat damage step whose blocks the model chooses after a first-strike step's", "510.4")
    # no life gain for a player who can't gain life (119.7), nor for one who left the game
    # (800.4a: say, lost to a choice before the step), as solver.results.gain_life says
    cant = frozenset(p.name for p in state.players if p.left or _cant_gain_life(state, table, p.name))
    # what follows the batch in its resolution (608.2c: a fixed draw, life gain or loss) is done
    # on the state before it: its results don't depend on the batch's (solver.cp.prefix.tail_end);
    # with more after the step, the rules engine does it all (solver.cp.suffix)
    base = final_fields(after if isinstance(after, GameState) else state0, table)
    return replace(draft, base=base, riders=riders, triggers=triggers, cant_gain=cant,
                   cant_lose=frozenset(n for n in live if cant_lose_life(state, table, n)),
                   no_loss=frozenset(n for n in live if no_loss_for_0_life(state, table, n)), floors=floors,
                   fewer={p.id: k for p in state.perms if p.present and (k := fewer_counters(state, table, p.id, "-1/-1"))},
                   to_counters=to_counters, watched=frozenset(t.prevention for t in triggers if t.prevention is not None),
                   later=tuple(later), deferred=frozenset(deferred),
                   unbeaten=frozenset(n for n in live if cant_lose_game(state, table, n)))


def _life_problem(state: GameState, table: Table, insts: tuple[Instance, ...], riders: list[PlannedRider],
                  deferred: list[str], triggers: list[PlannedTrigger], draft: StepPlan, later: list[str],
                  tracked_trees: bool) -> Refusal | None:
    """Why the model can't order the step's life-gain events (616.1) or read an effect on life
    that may end at its check, or None; such an effect goes to ``later``: the model reads it at
    that check, where it still applies (704.3), and the rules engine does what follows, the next
    check and the triggers' gains, from each solution's state (solver.cp.suffix)."""
    gaining = next((i.key for i in insts if i.spec.kind in LIFE_GAIN_KINDS), None)
    if gaining is not None and (riders or deferred):
        return (Refusal(f"{gaining}: a life-gain replacement with a prevention rider in the step (its events come between "
                "the gain events, CR 615.5) is not modelled", "615.5"))
    gaining_trigger = next((t for t in triggers if t.kind == ActionKind.GAIN_LIFE), None)
    if gaining is not None and gaining_trigger is not None:
        return (Refusal(f"{gaining}: a life-gain replacement with {gaining_trigger.watcher}'s trigger gaining life (a choice "
                "of order as it resolves, 616.1) is not modelled", "616.1"))
    ending = life_effect_ending(state, table, insts, draft.events, draft.assigns, riders,
                                any(t.kind == ActionKind.GAIN_LIFE for t in triggers))
    if ending is not None:
        later.append(ending)
    return suffix_problem(state, table, draft.events, tracked_trees) if later else None
