"""Planning: can the CP model express the case's last step, and what it needs (events, shields,
riders, triggers, combat assignments), or the reason it can't; the estimate ``auto`` uses."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from model.effects import CountOf, EffectKind, is_all
from model.expr import Expr, expr_vars
from model.types import LIFE_GAIN_KINDS, Case

from ..amounts import Add, AmountRule, Multiply, rule_of
from ..combat import (
    LethalIf,
    assign_options,
    damage_recipients,
    lethal_conditions,
    start_step,
    trample_beyond,
)
from ..engine import final_fields
from ..limits import Deadline, LimitReached, as_deadline
from ..results import cant_gain_life as _cant_gain_life
from ..results import cant_lose_life, fewer_counters, life_floor, no_loss_for_0_life
from ..rules import (
    Instance,
    affected_player,
    applicable_effects,
    can_be_dealt,
    effect_name,
    effects_in_force,
    start_batch,
    unpreventable,
)
from ..sba import attachment_kind
from ..sba import multiplayer as sba_multiplayer
from ..select import View, has_keyword, is_player, matches
from ..state import Event, GameState, Table
from ..triggers import watchers
from .prefix import MAX_STARTS, NO_BATCH, PREFIX_NODES, Prefix, expand, script_left, tail_end
from .trees import TREE_LIMIT, Tree, event_tree

# engine="auto" compares the two engines' estimated CPU seconds for the step (a pure function of
# the plans; calibrated on bench/family.py): the graph's cost follows its distinct states, CP's is
# a start-up (loading OR-Tools, ~0.4 s) plus a little per event of each model
GRAPH_STATE_COST = 5e-6  # seconds per estimated distinct state of the choice graph
CP_START_COST = 0.4  # seconds: importing OR-Tools and the first model
CP_EVENT_COST = 0.01  # seconds per event of each CP model (tables or block encoding, solving)


_ORDERED = ("shield", "prevent", "protection", "multiply", "add", "cap", "halve", "redirect")


_PREVENTION = ("shield", "prevent", "protection")


# effect kinds that never touch this batch's damage (no targeting, no mana here)
_INERT = ("cant_be_prevented", "cant_gain_life", "hexproof", "shroud", "replace_mana", "multiply_mana")


# effects the CP model declines, with the reason (the graph engine applies them)
_DECLINED = {
    "damage_to_counters": "damage replaced by counters (\"put that many +1/+1 counters on it instead\", CR 614.1a) is not modelled",
    "exile_instead": "\"exile it instead\" of dying (CR 614.1a) is not modelled",
}


# effects on characteristics (613): fixed at the step's start (the prefix applied them), read
# there through solver.characteristics / solver.select by the tables, the model and solver.sba
_CHARACTERISTICS = {"pt": "a power/toughness change (CR 613.4c)", "grant": "a keyword granted by an effect (CR 613.1f)",
                    "becomes_color": "a colour change (CR 105.3, 613.1e)"}


def _characteristics_problem(state: GameState, table: Table, inst: Instance) -> str | None:
    """Why a power/toughness, keyword or colour change (613.1e-f, 613.4c) could change during the
    step or its state-based actions, or None: the model reads characteristics once, at the
    step's start. A life condition is read again after the damage; a static ability of a
    creature or an Aura that reaches more than its own permanent or host ends when its source
    dies (704.5g, 704.5m), which changes who dies at the next check (704.3); so does a condition
    on what its controller controls."""
    spec = inst.spec
    what = _CHARACTERISTICS[spec.kind]
    if spec.if_life_at_most is not None:
        return f"{inst.key}: {what} with a life condition (read again after the damage) is not modelled"
    if spec.if_you_control is not None:
        return f"{inst.key}: {what} with a condition on what its controller controls is not modelled"
    if inst.state_id is None and inst.view.self_id is not None and (spec.to is None or spec.to.kind not in ("self", "equipped", "enchanted")):
        perm = state.perm(inst.view.self_id)
        if perm is not None and ("creature" in table.perm_specs[perm.spec].types or attachment_kind(table, perm) == "aura"):
            return f"{inst.key}: {what} by a static ability of a permanent that can die in the step is not modelled"
    return None


# effects on life totals and losing (CR 119.7-8, 704.5a; Worship's floor, 614.1a): read at the
# step's start through solver.results, as the graph engine reads them while the damage is dealt
_LIFE = ("cant_lose_life", "life_cant_change", "no_loss_for_0_life", "life_floor")


def _life_problem(table: Table, inst: Instance) -> str | None:
    """Why a life effect could change within the step, or None. A life condition changes with the
    damage; a condition on what its controller controls changes as creatures die, which "don't
    lose for 0 life" meets at the next state-based check (704.3). A floor on a team's shared
    life (810.9) is declined."""
    spec = inst.spec
    if spec.if_life_at_most is not None:
        return f"{inst.key}: a {spec.kind} effect with a life condition (read again after the damage) is not modelled"
    if spec.kind == "no_loss_for_0_life" and spec.if_you_control is not None:
        return f"{inst.key}: a no_loss_for_0_life effect with a condition on what its controller controls is not modelled"
    if spec.kind == "life_floor" and table.two_headed:
        return f"{inst.key}: a life floor on a team's shared life (CR 810.9) is not modelled"
    return None


# triggers no damage batch and its aftermath (riders, state-based actions) can fire: nothing
# enters, is cast, is tapped for mana, and no end step begins
_QUIET = ("end_step", "enters", "cast", "tapped_for_mana")
# damage triggers the CP model declines, with the reason (the graph engine runs them)
_TRIGGERS_DECLINED = {
    "deals_damage": ("deals_damage triggers are not modelled (CR 603.2, 603.10: the amount is what the source "
                     "dealt after replacement and prevention; the triggered action resolves after state-based "
                     "actions, one at a time in an order its controller chooses, 603.3b, 704.3)"),
    "dealt_damage": ("dealt_damage triggers are not modelled (CR 603.2, 603.10: the amount is what was dealt to "
                     "the permanent or player after replacement and prevention, per source with a threshold; the "
                     "triggered action resolves after state-based actions, one at a time, 603.3b, 704.3)"),
    "damage_prevented": ("damage_prevented triggers are not modelled (CR 615.13: one per prevention effect, with "
                         "the amount it prevented across the batch)"),
}


# riders the CP model declines, with the reason
_RIDERS_DECLINED = {
    "put_counters": ("a put_counters rider is not modelled (CR 615.5: counters put before state-based actions "
                     "change the creature's toughness, 613.4c, and so its lethal damage, 704.5g)"),
    "remove_counters": ("a remove_counters rider is not modelled (CR 615.5: +1/+1 counters removed before "
                        "state-based actions lower the creature's toughness, 613.4c, 704.5f-g)"),
}


_SOURCE_KEYWORDS_OK = {"lifelink", "infect", "wither", "deathtouch"}


# what a time limit cut (stats["limit"] of a partial answer, from LimitReached.phase)
_PLANNING = "planning the CP model"


@dataclass
class _PEvent:
    """One event of the batch with the effects that apply to it (CR 616.1)."""

    index: int  # in the batch
    ev: Event
    chooser: str
    effects: list[Instance]  # modelled: their order and shares are choices
    noops: list[Instance]  # applicable but change nothing (prevention vs 615.12)
    assigned: bool = False  # combat damage whose amount is a division choice (510.1c-d); ev.amount is its maximum
    # a redirection applies (614.9): its choices walked by the graph engine's rules (solver.cp.trees)
    tree: Tree | None = None


@dataclass(frozen=True)
class _Assign:
    """One combatant's combat damage assignment choice (CR 510.1): its options, each a tuple of
    ``(recipient, amount)`` as the graph engine lists them (:func:`solver.combat.assign_options`)."""

    creature: str
    controller: str
    options: tuple[tuple[tuple[str, int], ...], ...]

    def label(self, k: int) -> str:
        return ",".join(f"{r}:{n}" for r, n in self.options[k]) or "none"


@dataclass(frozen=True)
class _Rider:
    """A prevention effect's ``then:`` (CR 615.5), done with the amount it prevented."""

    key: str
    kind: str  # deal | gain_life | lose_life | draw
    amount: tuple[int, int]  # coef * prevented + const (when anything was prevented)
    source: str
    recipients: tuple[str, ...]
    # a deal rider's damage is a new event (615.5): the one effect that modifies it, if any, per
    # recipient (its affected player has no choice to make with one effect, 616.1)
    modified: tuple[tuple[str, AmountRule], ...] = ()
    # a gain_life rider for its controller ("you gain that much life"): part of the same modified
    # event, a life floor counts it (solver.damage._rider_gains, CR 120.4 example)
    own_gain: bool = False


@dataclass(frozen=True)
class _Trigger:
    """A "deals combat damage to a player" trigger that draws cards (CR 603.2, 510.2)."""

    watcher: str
    controller: str
    ability: int
    source: str
    player: str
    amount: tuple[int, int]  # coef * damage_dealt + const
    who: tuple[str, ...]
    label: str


@dataclass
class _Plan:
    table: Table
    state: GameState  # with the batch open
    base: dict[str, Any]  # every field before the batch
    events: list[_PEvent]  # in the graph engine's processing order (APNAP, then batch order)
    shields: dict[str, int]  # key -> remaining before the batch
    riders: list[_Rider]
    triggers: list[_Trigger]
    multiplayer: bool
    cant_gain: frozenset[str]
    names: dict[str, str] = field(default_factory=dict)  # effect key -> display name
    assigns: list[_Assign] = field(default_factory=list)  # in the order the graph asks (510.1)
    # trample (702.19b): (trampler, defending player, blocker, when lethal damage is assigned to it)
    trample: list[tuple[str, str, str, tuple[LethalIf, ...]]] = field(default_factory=list)
    # one-instance shields ("prevent that damage" the next time, CR 615.8), modelled as prevent-all
    # on the one event they can apply to; their prevention is tracked (used up once it prevents)
    once: frozenset[str] = frozenset()
    # combat: the state with the damage assignment to choose (510.1), before the batch opens
    assigning: GameState | None = None
    # players who lose no life (119.8), who don't lose for 0 life (704.5a), and life floors
    cant_lose: frozenset[str] = frozenset()
    no_loss: frozenset[str] = frozenset()
    floors: dict[str, int] = field(default_factory=dict)
    fewer: dict[str, int] = field(default_factory=dict)  # permanent -> fewer -1/-1 counters per event (614.1a)


def one_instance(spec: Any) -> bool:
    """An effect used up by the one event it prevents damage from (CR 615.8): a shield of "all"
    (``next_time: true`` with ``prevent: all``) or a next-time prevention ("prevent half", Dark
    Sphere); solver.damage applies them (``used`` once they prevented something)."""
    return (spec.kind == "shield" and is_all(spec.value)) or (spec.kind == "prevent" and bool(spec.next_time))


def tracked(plan: _Plan, inst: Instance) -> bool:
    """A prevention whose amount prevented the model keeps: a rider's (615.5) or a one-instance shield's."""
    return inst.spec.kind == "prevent" and (inst.spec.then is not None or inst.key in plan.once)


def _linear(node: Expr, var: str) -> tuple[int, int] | None:
    """``node`` as ``coef * var + const``, or None when it isn't of that shape (or reads the
    player's life lost or gained this turn, which a trigger reads as it resolves, 608.2h)."""
    tag = node[0]
    if tag == "int":
        return 0, int(node[1])
    if tag == "var":
        if node[1] in ("life_lost_this_turn", "life_gained_this_turn"):
            return None
        return (1, 0) if node[1] == var else (0, 0)  # other variables read 0 here
    if tag == "add":
        a, b = _linear(node[1], var), _linear(node[2], var)
        return None if a is None or b is None else (a[0] + b[0], a[1] + b[1])
    if tag == "mul":
        a, b = _linear(node[1], var), _linear(node[2], var)
        if a is None or b is None or (a[0] and b[0]):
            return None
        return a[0] * b[1] + b[0] * a[1], a[1] * b[1]
    return None


def _players_matching(sel: Any, state: GameState, table: Table, inst_view: Any) -> tuple[str, ...]:
    return tuple(p.name for p in state.players if not p.left and matches(sel, p.name, state, table, inst_view))


def _annihilation_problem(state: GameState, table: Table, insts: Any) -> str | None:
    """704.5q (+1/+1 and -1/-1 counters on one permanent remove each other) is not encoded: decline
    a case where a creature with +1/+1 counters could get -1/-1 counters from wither or infect."""
    plus = [p.id for p in state.perms if p.present and p.counter("+1/+1") > 0]
    if not plus:
        return None
    sources = [p.id for p in state.perms if p.present] + list(table.sources)
    wither = any(has_keyword(state, table, s, k) for s in sources for k in ("wither", "infect")) or \
        any(i.spec.kind == "as_though" for i in insts)
    if wither:
        return f"{plus[0]}: +1/+1 and -1/-1 counters removing each other (CR 704.5q) are not modelled"
    return None


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
    prefix = expand(case, deadline, limit)
    if not prefix.complete and limit == PREFIX_NODES:
        return f"the choices before the last damage step reach more than {PREFIX_NODES} states"
    missing = prefix.no_step()
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
            if ab.trigger != "combat_damage_to_player":
                return f"{perm.id}: {_TRIGGERS_DECLINED.get(str(ab.trigger), f'{ab.trigger} triggers are not modelled')}"
            if ab.trigger_min is not None or ab.trigger_if is not None:
                return f"{perm.id}: triggers with a damage threshold or an intervening if (CR 603.4) are not modelled"
            shot = ab.action
            if shot is None or shot.kind != "draw" or shot.may or shot.to.kind in ("target", "any", "choice") \
                    or ab.more or ab.target is not None:
                return f"{perm.id}: only combat damage triggers that draw cards are modelled"
            if _linear(shot.amount, "damage_dealt") is None:
                return f"{perm.id}: the trigger's amount is not linear in damage_dealt"
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
            if spec.then.kind not in ("deal", "gain_life", "lose_life", "draw"):
                return f"{inst.key}: {_RIDERS_DECLINED.get(spec.then.kind, f'a {spec.then.kind} rider is not modelled')}"
            if _linear(spec.then.amount, "prevented") is None or "that_damage" in expr_vars(spec.then.amount):
                return f"{inst.key}: the rider's amount is not linear in prevented"
            if not spec.then.if_prevented and (_linear(spec.then.amount, "prevented") or (0, 0))[1] != 0:
                return f"{inst.key}: a rider that takes place when nothing is prevented (CR 615.12) is not modelled"
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
    problem = _trees(state, table, insts, events, assigns, deadline)
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
    riders = []
    for inst in insts:
        rider = inst.spec.then
        if rider is None or not any(inst in pe.effects for pe in events):
            continue
        source = inst.view.self_id or inst.view.controller
        sel = rider.to
        if sel is None:
            recipients: tuple[str, ...] = (inst.view.controller,)
        elif sel.kind in ("target", "any", "choice"):
            # 800.4a: a player who left is dealt none; 120.1a: nor a permanent that can't be dealt
            # damage (a planeswalker or creature target can: 120.3c, 120.3e)
            recipients = tuple(t for t in (inst.view.target,) if t is not None and can_be_dealt(state, table, t))
        else:
            recipients = _players_matching(sel, state, table, inst.view)
            if rider.kind == "deal":  # and the permanents it names that can be dealt damage (120.1a)
                recipients += tuple(p.id for p in state.perms if p.present and matches(sel, p.id, state, table, inst.view)
                                    and can_be_dealt(state, table, p.id))
        if rider.kind != "deal" and any(not is_player(table, r) for r in recipients):
            return f"{inst.key}: a {rider.kind} rider for a permanent is not modelled"
        modified: list[tuple[str, AmountRule]] = []
        if rider.kind == "deal":
            for r in recipients:
                probe = unpreventable(state, table, Event(source, r, 1, False))
                # 615.12: a prevention without a rider does nothing to damage that can't be prevented
                apps = [a for a in applicable_effects(state, table, probe)
                        if not (probe.unpreventable and a.spec.kind in _PREVENTION and a.spec.then is None)]
                if not apps:
                    continue
                if any(a.spec.may for a in apps):
                    return f"{inst.key}: an optional effect could apply to the rider's damage to {r} (a second batch of choices)"
                if any(one_instance(a.spec) for a in apps):
                    return f"{inst.key}: a next-time prevention (CR 615.8) could apply to the rider's damage to {r}"
                rule = rule_of(apps[0].spec) if len(apps) == 1 and apps[0].spec.then is None else None
                if rule is None or apps[0].spec.kind not in _ORDERED or _counted(apps[0]):
                    return f"{inst.key}: effects apply to the rider's damage to {r} (a second batch of choices)"
                modified.append((r, rule))  # one effect: no order to choose (616.1)
        amount = _linear(rider.amount, "prevented")
        assert amount is not None
        riders.append(_Rider(inst.key, rider.kind, amount, source, recipients, tuple(modified),
                             rider.kind == "gain_life" and (sel is None or sel.kind == "you")))
    riders.sort(key=lambda r: r.key)
    triggers = []
    pairs = sorted({(pe.ev.source, pe.ev.recipient) for pe in events if pe.ev.combat and is_player(table, pe.ev.recipient)}
                   | {(pe.ev.source, r) for pe in events if pe.tree is not None and pe.ev.combat
                      for _, r in pe.tree.columns if is_player(table, r)})
    # the watchers on the battlefield as the damage is dealt (603.2; one that left before the
    # step, say died in the first-strike step, watches nothing: solver.triggers.watchers)
    for pid, ctrl, j, ab in watchers(state, table, "combat_damage_to_player"):
        p = state.perm(pid)
        assert p is not None
        if ab.action is None:
            continue
        card = table.perm_specs[p.spec]
        view = View(ctrl, p.id, None, p.chosen)
        for s, r in pairs:
            ok = matches(ab.trigger_from, s, state, table, view) if ab.trigger_from else s == p.id
            if ok and ab.trigger_to is not None:
                ok = matches(ab.trigger_to, r, state, table, view)
            if ok:
                draws = _linear(ab.action.amount, "damage_dealt")
                assert draws is not None
                who = _players_matching(ab.action.to, state, table, view)
                triggers.append(_Trigger(p.id, ctrl, j, s, r, draws, who, card.name))
    multiplayer = sba_multiplayer(state, table)  # 800.4: not Two-Headed Giant (two teams)
    # no life gain for a player who can't gain life (119.7), nor for one who left the game
    # (800.4a: say, lost to a choice before the step), as solver.results.gain_life says
    cant = frozenset(p.name for p in state.players if p.left or _cant_gain_life(state, table, p.name))
    # what follows the batch in its resolution (608.2c: a fixed draw, life gain or loss) is done
    # on the state before it: its results don't depend on the batch's (solver.cp.prefix.tail_end)
    after = tail_end(start, table) if start.batch is not None else state0
    assert isinstance(after, GameState)
    base = final_fields(after, table)
    live = [p.name for p in state.players if not p.left]
    floors = {n: f for n in live if (f := life_floor(state, table, n)) is not None}
    gaining = next((i.key for i in insts if i.spec.kind in LIFE_GAIN_KINDS), None)
    if gaining is not None and riders:
        return (f"{gaining}: a life-gain replacement with a prevention rider in the step (its events come between "
                "the gain events, CR 615.5) is not modelled")
    on_life = next((i.key for i in insts if i.spec.kind == "as_though" and i.spec.if_life_at_most is not None), None)
    for rd in riders:
        hit = next((r for r in rd.recipients if r in floors), None) if rd.kind == "deal" else None
        if hit is not None:
            return f"{rd.key}: a rider's damage to {hit}, whose life has a floor (a second floored batch), is not modelled"
        if rd.kind == "deal" and on_life is not None:
            return (f"{rd.key}: a rider's damage after the batch, with {on_life}'s life condition read again then, "
                    "is not modelled")
    return _Plan(table, state, base, events, shields, riders, triggers, multiplayer, cant, names, assigns, trample,
                 once, assigning, frozenset(n for n in live if cant_lose_life(state, table, n)),
                 frozenset(n for n in live if no_loss_for_0_life(state, table, n)), floors,
                 {p.id: k for p in state.perms if p.present and (k := fewer_counters(state, table, p.id, "-1/-1"))})


def _partial(inst: Instance) -> bool:
    """A partial redirection ("the next N damage ... is dealt to ... instead"): it depletes like a
    shield, its share of each event a choice (615.7 applied to a redirection, 614.9)."""
    return inst.spec.kind == "redirect" and inst.spec.shield is not None


def _trees(state: GameState, table: Table, insts: tuple[Instance, ...], events: list[_PEvent],
           assigns: list[_Assign], deadline: Deadline | None) -> str | None:
    """The events a redirection applies to (CR 614.9): each gets its tree of results, walked by
    the graph engine's rules (solver.cp.trees), and as its effects every effect applicable
    anywhere in it (the new recipient's too, 616.1f); or the reason the model can't take them."""
    redirected = [pe for pe in events if any(i.spec.kind == "redirect" for i in (*pe.effects, *pe.noops))]
    if redirected and any(i.spec.may for i in insts):
        # the tree walk asks no optional effect's controller (solver.damage's may decisions)
        return "an optional effect (\"you may\", CR 616.1) in a step with a redirection (614.9) is not modelled"
    shields = {i.key for i in insts if (i.spec.kind == "shield" and not one_instance(i.spec)) or _partial(i)}
    settle = {i.key for i in insts if i.spec.kind == "shield" and one_instance(i.spec)}
    # what a prevention with a rider prevented (615.5; a shield's is its share), and a one-instance shield's
    kept = {i.key for i in insts if i.spec.kind in _PREVENTION and i.spec.then is not None} - shields | settle
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
    rules, equal states merged (solver.cp.prefix); a timeline with no damage batch is declined
    (:data:`~solver.cp.prefix.NO_BATCH`). The step is then modelled from each distinct state reached, at most
    ``MAX_STARTS`` of them. In the step: shields (615.7), static and created prevention (615.1,
    615.10, 615.12), multiply / add / cap replacements in every order (614.1a, 616.1); riders
    (615.5) whose damage meets no further choices; redirection, whole or partial (614.9, walked
    by the graph engine's rules: solver.cp.trees); attacks on planeswalkers and battles, trample
    over planeswalkers (506.3, 702.19c), loyalty and defense removed (120.3c, 120.3h, 704.5i,
    704.5v); a rider's damage to a permanent; lifelink, infect, wither, deathtouch;
    "deals combat damage to a player" triggers that draw cards; shields of a source of your
    choice (615.9) and next-time shields that can apply to one event of the step (615.8). An Aura
    on a creature that dies in the step dies too (704.5m, solver.sba); an Aura in a multiplayer
    game is declined.
    """
    plans = _plans(case)
    return plans if isinstance(plans, str) else None


def _counted(inst: Instance) -> bool:
    """A prevention whose X is counted when its batch begins (615.10): not modelled for riders."""
    return isinstance(inst.spec.value, CountOf)


def _upper(amount: int, effects: list[Instance]) -> int:
    """The most damage an event can become in any order of its effects: every increase applies,
    the additions first (prevention, caps and shields only lower it; solver.amounts)."""
    rules = [r for r in (rule_of(i.spec) for i in effects) if isinstance(r, Add | Multiply)]
    for r in sorted(rules, key=lambda r: isinstance(r, Multiply)):
        amount = r.upper(amount)
    return amount


def estimate_paths(case: Case) -> int | None:
    """A rough count of the graph engine's raw choice paths in the CP step (orders times shield
    shares), summed over the distinct states the choices before it reach, or None when the CP
    model can't express the case."""
    plans = _plans(case)
    return None if isinstance(plans, str) else sum(_paths(p) for p in plans.plans)


def _paths(plan: _Plan) -> int:
    total = math.prod(len(a.options) for a in plan.assigns)  # damage divisions (510.1c-d)
    for pe in plan.events:
        ub = _upper(pe.ev.amount, pe.effects)
        total *= math.factorial(len(pe.effects) + len(pe.noops))
        for inst in pe.effects:
            if inst.spec.kind == "shield":
                total *= min(plan.shields[inst.key], ub) + 1
    return total


def _states(plan: _Plan) -> int:
    """A rough count of the choice graph's distinct states in the step (it merges equal states):
    per event, its orders (616.1) times the ways the shields seen so far can have been split
    over the events they applied to (615.7: compositions of at most the shield's remaining over
    those events, at most the product of their shares), summed over the events, times the
    damage divisions (510.1c-d). Raw paths multiply the shares of every event; states don't."""
    total = 0
    spread: dict[str, tuple[int, int]] = {}  # shield -> (events it applies to so far, product of shares)
    for pe in plan.events:
        ub = _upper(pe.ev.amount, pe.effects)
        for inst in pe.effects:
            if inst.spec.kind == "shield":
                k, prod = spread.get(inst.key, (0, 1))
                spread[inst.key] = (k + 1, prod * (min(ub, plan.shields[inst.key]) + 1))
        ways = math.prod(min(prod, math.comb(k + plan.shields[key], k)) for key, (k, prod) in spread.items())
        total += math.factorial(len(pe.effects) + len(pe.noops)) * ways
    return total * math.prod(len(a.options) for a in plan.assigns)


def estimate_costs(plans: _Plans) -> tuple[float, float]:
    """The estimated CPU seconds of the step for the graph engine (its distinct states, summed
    over the states at the step's start) and for the CP engine (a start-up, then per event of
    each model): what ``engine="auto"`` compares."""
    graph = GRAPH_STATE_COST * sum(_states(p) for p in plans.plans)
    cp = CP_START_COST + CP_EVENT_COST * sum(len(p.events) for p in plans.plans)
    return graph, cp


def prefer_cp(case: Case, timeout: float | Deadline | None = None) -> bool:
    """engine="auto": CP when the case is expressible and CP's estimated cost of the step is below
    the graph's (:func:`estimate_costs`). The CP answer is then built with at most
    ``AUTO_BUILD_SHARE`` of the time left (``build_share`` of :func:`cp_outcomes`): a build that
    can't finish in it gives way to the graph."""
    deadline = as_deadline(timeout)
    try:
        plans = _plans(case, deadline)
    except LimitReached:
        return False
    if isinstance(plans, str):
        return False
    graph, cp = estimate_costs(plans)
    return graph > cp


def _rule(plan: _Plan, inst: Instance) -> AmountRule:
    """``inst``'s amount rule (solver.amounts), its count read when the batch began (615.10)."""
    counts = dict(plan.state.batch.counts) if plan.state.batch is not None else {}
    rule = rule_of(inst.spec, counts.get(inst.key))
    assert rule is not None, inst.spec.kind
    return rule


def _apply(plan: _Plan, inst: Instance, amount: int) -> int:
    return _rule(plan, inst).apply(amount)
