"""The CP-SAT engine: one damage batch's choices as a constraint model (design.md, "Choice graph
and CP model"). The only module that imports ortools, and only when a model is built, so
:func:`cp_supported` stays cheap.

Each damage event's choices (the affected player's order of the applicable effects, CR 616.1,
and each shield's share of the event, CR 615.7) are encoded one of two ways:

* a **table**: every distinct result of the event (damage dealt, each shield's share and
  whether it took all it was offered, damage prevented by effects with riders) is enumerated
  over all orders and shares (120.8: nothing applies once the amount is 0), and events whose
  results only matter through their sums (same recipient, same lifelink controller, infect,
  wither, deathtouch, no draw trigger watching them) share one table of summed results (a DP
  over the group, with back pointers for the witness);
* **blocks** (events with too many orders): the non-shield effects' order as slot booleans
  (a permutation matrix), the amount as linear integer stages (x2, +N, min, halving through
  division constraints, "+N only on a positive amount"), and each shield placed in one of the
  blocks between them or after the amount reached 0.

Combat damage division (510.1c-d) is one literal per option of each creature's assignment (the
options the graph engine offers); a (creature, recipient) pair's amount is then a linear sum of
them and its event takes the block encoding with that variable amount (0: no event, 120.8).
Trample's condition is checked on the whole assignment (702.19b, 510.1e): a trampler's literal
"assigns to the player" forces each of its blockers to be assigned lethal damage in total.

A shield prevents min(remaining, damage offered where it was applied) (615.7): either it is
used up, or at every event it was applied to it took all it was offered. Results (life,
poison, marked damage, -1/-1 counters, lifelink per source, riders, draw triggers, state-based
actions) are linear expressions and reified comparisons. Distinct outcomes on a projection are
enumerated in runs: a run enumerates solutions (enumerate_all_solutions) and keeps up to
``PER_RUN`` new projections, each is then forbidden by a clause that some projected field must
differ (a no-good over shared "field == value" literals), and the next run starts, until a run
finds nothing or sees every solution left.

``Outcome.paths`` is 0 for this engine: raw choice paths are not counted (the point of the engine
is not to walk them). Each outcome's witness is a legal choice sequence in the graph engine's
labels (``at`` = ``source->recipient``, ``picked`` = ``key`` or ``key:amount``); the tests replay
it through the graph engine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from itertools import permutations
from typing import Any

from model.errors import EngineError
from model.expr import Expr
from model.objective import Goal, Objective
from model.outcome import Outcome, Witness
from model.types import Case, CombatAction, DamageAction

from .api import Result
from .combat import assign_options, damage_recipients, lethal_damage, start_step
from .decision import Decision, says
from .engine import advance, final_fields
from .results import cant_gain_life as _cant_gain_life
from .rules import (
    Instance,
    affected_player,
    applicable_effects,
    effect_name,
    effects_in_force,
    event_label,
    start_batch,
)
from .select import View, controller_of, has_keyword, is_player, matches
from .state import Event, GameState, Table, initial_state
from .values import evaluate

__all__ = ["cp_supported", "cp_outcomes", "cp_optimizable", "cp_optimize", "estimate_paths", "prefer_cp",
           "AUTO_THRESHOLD"]

AUTO_THRESHOLD = 20_000
# one worker and a fixed seed: the same input gives the same outcomes and witnesses
# one worker and a fixed seed: the same input gives the same outcomes and witnesses; the model
# is solved hundreds of times, so presolve is kept short (symmetry and probing off)
_PARAMS: dict[str, Any] = {"num_workers": 1, "random_seed": 0, "symmetry_level": 0,
                           "cp_model_probing_level": 0, "max_presolve_iterations": 1}  # engine="auto" picks CP above this many estimated raw choice paths
_ORDERED = ("shield", "prevent", "multiply", "add", "cap")
_PREVENTION = ("shield", "prevent")
# effect kinds that never touch this batch's damage (no targeting, no mana here)
_INERT = ("cant_be_prevented", "cant_gain_life", "hexproof", "shroud", "replace_mana", "multiply_mana")
_SOURCE_KEYWORDS_OK = {"lifelink", "infect", "wither", "deathtouch"}


# ---------------------------------------------------------------------------------------------
# the plan: everything about the batch that doesn't depend on a choice


@dataclass
class _PEvent:
    """One event of the batch with the effects that apply to it (CR 616.1)."""

    index: int  # in the batch
    ev: Event
    chooser: str
    effects: list[Instance]  # modelled: their order and shares are choices
    noops: list[Instance]  # applicable but change nothing (prevention vs 615.12)
    assigned: bool = False  # combat damage whose amount is a division choice (510.1c-d); ev.amount is its maximum


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
    # trample (702.19b): (trampler, defending player, blocker, lethal damage with nothing else assigned)
    trample: list[tuple[str, str, str, int]] = field(default_factory=list)


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


def _open_batch(action: Any, state: GameState, table: Table) -> tuple[GameState, list[_Assign], list[tuple[str, str, str, int]]] | str:
    """The state with the final action's batch open (CR 510.2 for combat, 120 for damage), the
    combat damage assignment choices, and the trample conditions on them.

    With blockers, every (creature, recipient) pair some assignment uses becomes an event at its
    largest amount; the model makes its amount the chosen assignment's (0: no event, 120.8).
    """
    if isinstance(action, DamageAction):
        batch = [Event(d.source, d.to, evaluate(d.amount, {}), d.combat) for d in action.events]
        return start_batch(state, table, batch), [], []
    for p in state.perms:
        if not p.present or (p.attacking is None and not p.blocking):
            continue
        kws = table.perm_specs[p.spec].keywords
        if "first strike" in kws or "double strike" in kws or has_keyword(state, table, p.id, "first strike") \
                or has_keyword(state, table, p.id, "double strike"):
            return "first or double strike (two damage steps) is not modelled"
        if p.attacking is not None and not is_player(table, p.attacking):
            return "attacking a planeswalker or battle is not modelled"
    state = start_step(state, table, 0)
    task, state = state.queue[0], replace(state, queue=state.queue[1:])
    assert task[:2] == ("combat", "assign")
    assigns: list[_Assign] = []
    events: list[Event] = []
    trample: list[tuple[str, str, str, int]] = []
    for pid in task[3]:
        perm = state.perm(pid)
        assert perm is not None
        options = tuple(assign_options(state, table, pid))
        assigns.append(_Assign(pid, perm.controller, options))
        creatures, defended = damage_recipients(state, table, perm)
        most: dict[str, int] = {}
        for opt in options:
            for r, n in opt:
                most[r] = max(most.get(r, 0), n)
        events.extend(Event(pid, r, most[r], True) for r in [*creatures, defended] if r is not None and most.get(r, 0) > 0)
        if defended is not None and most.get(defended, 0) > 0 and perm.blocked:
            trample.extend((pid, defended, c, lethal_damage(state, table, c, pid, 0)) for c in creatures)
    return start_batch(state, table, events), assigns, trample


def _plan(case: Case) -> _Plan | str:
    """Check that the CP model can express ``case`` and collect what it needs (or a reason)."""
    if case.format != "standard":
        return "Two-Headed Giant is not modelled"
    if not case.actions or not isinstance(case.actions[-1], DamageAction | CombatAction):
        return "the last action must be a damage: or combat: action"
    start, table = initial_state(case)
    # the actions before it (create, activate, ...) must involve no choice: run them as the
    # graph engine does, state-based actions included (704.3)
    ran = advance(replace(start, queue=start.queue[:-1]), table)
    if isinstance(ran, Decision) or ran.dead:
        return "the actions before the last one involve choices"
    state0 = ran
    last = case.actions[-1]
    if isinstance(last, DamageAction) and any(d.excess_to is not None for d in last.events):
        return "excess damage dealt to another permanent or player (CR 120.4a) is not modelled"
    if isinstance(last, CombatAction) and (last.choose_blocks or any(p.present and p.choosing_block for p in state0.perms)):
        return "chosen blocks (a declare blockers choice, CR 509.1) are not modelled"
    for perm in state0.perms:
        if not perm.present:
            continue
        for ab in table.perm_specs[perm.spec].abilities:
            if ab.kind == "static" and ab.effect is not None and ab.effect.kind == "shield":
                return f"{perm.id}: a static shield ability is not modelled"
            if ab.kind != "trigger":
                continue
            if ab.trigger == "end_step":
                continue  # no end step in a single damage action
            if ab.trigger != "combat_damage_to_player":
                return f"{perm.id}: {ab.trigger} triggers are not modelled"
            shot = ab.action
            if shot is None or shot.kind != "draw" or shot.may or shot.to.kind in ("target", "any", "choice"):
                return f"{perm.id}: only combat damage triggers that draw cards are modelled"
            if _linear(shot.amount, "damage_dealt") is None:
                return f"{perm.id}: the trigger's amount is not linear in damage_dealt"
    insts = effects_in_force(state0, table)
    for inst in insts:
        spec = inst.spec
        if spec.kind in _INERT:
            continue
        if spec.kind not in _ORDERED:
            return f"{inst.key}: {spec.kind} effects are not modelled"
        if spec.next_time or spec.source_choice is not None:
            return f"{inst.key}: next-time and source-of-your-choice shields are not modelled"
        if spec.kind == "shield" and (spec.value == "all" or inst.state_id is None):
            return f"{inst.key}: only numeric created shields are modelled"
        if spec.kind == "prevent" and isinstance(spec.value, tuple) and spec.value[0] not in ("int", "all_but", "count"):
            return f"{inst.key}: prevention by an expression is not modelled"
        if spec.then is not None:
            if spec.kind not in _PREVENTION:
                return f"{inst.key}: a rider on a {spec.kind} effect is not modelled"
            if spec.then.kind not in ("deal", "gain_life", "lose_life", "draw"):
                return f"{inst.key}: a {spec.then.kind} rider is not modelled"
            if _linear(spec.then.amount, "prevented") is None:
                return f"{inst.key}: the rider's amount is not linear in prevented"
    opened = _open_batch(case.actions[-1], state0, table)
    if isinstance(opened, str):
        return opened
    state, assigns, trample = opened
    varying = {(a.creature, r) for a in assigns if len(a.options) > 1 for opt in a.options for r, _ in opt}
    events: list[_PEvent] = []
    batch_events = state.batch.events if state.batch is not None else ()
    order = table.apnap(table.order)
    for i, ev in enumerate(batch_events):
        if not is_player(table, ev.recipient):
            hurt = state.perm(ev.recipient)
            assert hurt is not None
            types = table.perm_specs[hurt.spec].types
            if "planeswalker" in types or "battle" in types:
                return "damage to planeswalkers and battles is not modelled"
        if getattr(table.spec_of(state, ev.source), "toxic", 0):
            return f"{ev.source}: toxic is not modelled"  # 702.164: poison on combat damage
        apps = applicable_effects(state, table, ev)
        modelled = [a for a in apps if not (ev.unpreventable and a.spec.kind in _PREVENTION)]
        noops = [a for a in apps if ev.unpreventable and a.spec.kind in _PREVENTION]
        events.append(_PEvent(i, ev, affected_player(state, ev.recipient), modelled, noops,
                              (ev.source, ev.recipient) in varying))
    events.sort(key=lambda pe: (order.index(pe.chooser) if pe.chooser in order else 99, pe.index))
    shields = {}
    names = {}
    for inst in insts:
        names[inst.key] = effect_name(inst, table, state)
        if inst.spec.kind == "shield":
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
            recipients = tuple(t for t in (inst.view.target,) if t is not None and not (
                is_player(table, t) and state.player(t).left))  # 800.4a
        else:
            recipients = _players_matching(sel, state, table, inst.view)
            if rider.kind == "deal" and any(p.present and matches(sel, p.id, state, table, inst.view) for p in state.perms):
                return f"{inst.key}: a rider dealing damage to a permanent is not modelled"
        if any(not is_player(table, r) for r in recipients):
            return f"{inst.key}: a rider dealing damage to a permanent is not modelled"
        if rider.kind == "deal":
            for r in recipients:
                if applicable_effects(state, table, Event(source, r, 1, False)):
                    return f"{inst.key}: effects apply to the rider's damage to {r} (a second batch of choices)"
            if getattr(table.spec_of(state, source), "toxic", 0):
                return f"{source}: toxic is not modelled"
        amount = _linear(rider.amount, "prevented")
        assert amount is not None
        riders.append(_Rider(inst.key, rider.kind, amount, source, recipients))
    riders.sort(key=lambda r: r.key)
    triggers = []
    pairs = sorted({(pe.ev.source, pe.ev.recipient) for pe in events if pe.ev.combat and is_player(table, pe.ev.recipient)})
    for p in state.perms:
        card = table.perm_specs[p.spec]
        for j, ab in enumerate(card.abilities):
            if ab.kind != "trigger" or ab.trigger != "combat_damage_to_player" or ab.action is None:
                continue
            view = View(p.controller, p.id, None, p.chosen)
            for s, r in pairs:
                ok = matches(ab.trigger_from, s, state, table, view) if ab.trigger_from else s == p.id
                if ok and ab.trigger_to is not None:
                    ok = matches(ab.trigger_to, r, state, table, view)
                if ok:
                    draws = _linear(ab.action.amount, "damage_dealt")
                    assert draws is not None
                    who = _players_matching(ab.action.to, state, table, view)
                    triggers.append(_Trigger(p.id, p.controller, j, s, r, draws, who, card.name))
    multiplayer = len(state.players) > 2
    cant = frozenset(p.name for p in state.players if _cant_gain_life(state, table, p.name))
    base = final_fields(state0, table)
    return _Plan(table, state, base, events, shields, riders, triggers, multiplayer, cant, names, assigns, trample)


def cp_supported(case: Case) -> str | None:
    """None when the CP model can express ``case``, else a short reason.

    The subset: one ``damage:`` batch or one ``combat: {}`` step (blocked or not, damage
    division and trample included; no first or double strike); shields (CR 615.7), static and created prevention (615.1, 615.10, 615.12),
    multiply / add / cap replacements (614.1a); riders (615.5) whose damage meets no further
    choices; lifelink, infect, wither, deathtouch; "deals combat damage to a player" triggers
    that draw cards.
    """
    plan = _plan(case)
    return plan if isinstance(plan, str) else None


def _upper(amount: int, effects: list[Instance]) -> int:
    add = sum(int(i.spec.value) for i in effects if i.spec.kind == "add")
    mul = math.prod(int(i.spec.value) for i in effects if i.spec.kind == "multiply")
    return (amount + add) * mul


def estimate_paths(case: Case) -> int | None:
    """A rough count of the graph engine's raw choice paths (orders times shield shares), or
    None when the CP model can't express the case."""
    plan = _plan(case)
    if isinstance(plan, str):
        return None
    total = math.prod(len(a.options) for a in plan.assigns)  # damage divisions (510.1c-d)
    for pe in plan.events:
        ub = _upper(pe.ev.amount, pe.effects)
        total *= math.factorial(len(pe.effects) + len(pe.noops))
        for inst in pe.effects:
            if inst.spec.kind == "shield":
                total *= min(plan.shields[inst.key], ub) + 1
    return total


def prefer_cp(case: Case, threshold: int = AUTO_THRESHOLD) -> bool:
    """engine="auto": CP when the case is expressible and the graph would be large."""
    n = estimate_paths(case)
    return n is not None and n > threshold


# ---------------------------------------------------------------------------------------------
# the model


Seq = tuple[tuple[int, int | None], ...]  # (effect index, share) in the order applied
Rows = dict[tuple[int, ...], Seq]  # an event's distinct results, each with one sequence


@dataclass
class _Unit:
    """Events encoded together: one event as a slot permutation, or a group of events whose
    results only matter through their sums, as a table of their distinct summed results."""

    events: list[int]  # indices into plan.events
    final: Any  # the damage dealt (summed over the group)
    shares: dict[str, Any] = field(default_factory=dict)  # shield key -> damage it prevented
    full: dict[str, Any] = field(default_factory=dict)  # shield key -> took all it was offered
    prevented: dict[str, Any] = field(default_factory=dict)  # prevention with a rider -> amount
    slots: list[list[Any]] | None = None  # block mode: x[b][q], slot b holds non-shield q
    plain: list[int] = field(default_factory=list)  # block mode: the non-shield effects' indices
    placed: list[tuple[int, list[Any], Any, Any]] = field(default_factory=list)  # (j, y[b], none, w)
    columns: list[Any] = field(default_factory=list)  # table mode: the table's variables
    layers: list[dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]] = field(default_factory=list)
    rows: list[Rows] = field(default_factory=list)  # per member: its own results
    enter: Any = 0  # block mode: the amount the event starts with (a variable for a division choice)


@dataclass
class _Built:
    model: Any
    units: list[_Unit]
    combat_to: dict[tuple[str, str], Any]  # (source, player) -> combat damage dealt
    outputs: dict[str, tuple[str, Any]]  # field -> ("int" | "opt" | "bool", expr or constant)
    bound: int  # every output lies in [-bound, bound]
    picks: list[list[Any]] = field(default_factory=list)  # per plan.assigns: a literal per option
    over: Any = False  # the game ended at the step's state-based actions (104.2a)


class _TooBig(Exception):
    pass


class _Cut(Exception):
    """The time limit cut the enumeration."""


PER_RUN = 100  # distinct outcomes one enumeration run collects before they are forbidden
REPEATS = 20  # solutions in a row with known projections after which a run stops (they're forbidden next)
TABLE_LIMIT = 20_000  # distinct results of one event above which it gets the slot encoding


def _results(plan: _Plan, pe: _PEvent, limit: int | None = None) -> Rows | None:
    """Every distinct result of one event over all orders and shares (CR 616.1, 615.7), each
    with one sequence of ``(effect index, share)`` producing it; None when there are too many.

    A result is ``(damage, then per shield: share, took-all-offered, per rider prevention:
    amount prevented)``. Once the amount is 0 nothing further applies (120.8).
    """
    limit = TABLE_LIMIT if limit is None else limit
    effs = pe.effects
    n = len(effs)
    if n > 8:
        return None  # 8! orders and more: leave it to the slot encoding
    every = (1 << n) - 1
    shield = [i.spec.kind == "shield" for i in effs]
    rider = [i.spec.kind == "prevent" and i.spec.then is not None for i in effs]
    memo: dict[tuple[int, int], dict[tuple[Any, ...], tuple[tuple[int, int | None], ...]]] = {}
    work = [0]

    def rec(mask: int, amount: int) -> dict[tuple[Any, ...], tuple[tuple[int, int | None], ...]]:
        got = memo.get((mask, amount))
        if got is not None:
            return got
        out: dict[tuple[Any, ...], tuple[tuple[int, int | None], ...]] = {}
        if amount <= 0 or mask == every:
            rest = tuple(None if mask >> j & 1 else (0, 1) if shield[j] else 0 if rider[j] else None for j in range(n))
            out[(amount, *rest)] = ()
        else:
            for j in range(n):
                if mask >> j & 1:
                    continue
                options: Iterable[int | None] = range(min(plan.shields[effs[j].key], amount), -1, -1) if shield[j] else (None,)
                for take in options:
                    if take is None:
                        new = _apply(plan, effs[j], amount)
                        entry: Any = amount - new if rider[j] else None
                    else:
                        new, entry = amount - take, (take, int(take == amount))
                    for suffix, seq in rec(mask | 1 << j, new).items():
                        work[0] += 1
                        key = (*suffix[:1 + j], entry, *suffix[2 + j:])
                        if key not in out:
                            out[key] = ((j, take), *seq)
                    if len(out) > limit or work[0] > 5 * limit:
                        raise _TooBig
        memo[(mask, amount)] = out
        return out

    try:
        found = rec(0, pe.ev.amount)
    except _TooBig:
        return None
    flat: dict[tuple[int, ...], tuple[tuple[int, int | None], ...]] = {}
    for key, seq in found.items():
        row = [key[0]]
        for j in range(n):
            if shield[j]:
                row.extend(key[1 + j])
            elif rider[j]:
                row.append(key[1 + j])
        flat[tuple(row)] = seq
    return flat


def _is_const(x: Any) -> bool:
    return isinstance(x, int)


GROUP_LIMIT = 50_000  # summed results of a group above which its events are tabled one by one


def _layout(plan: _Plan, members: list[_PEvent]) -> tuple[list[str], list[str]]:
    shields = sorted({i.key for pe in members for i in pe.effects if i.spec.kind == "shield"})
    riders = sorted({i.key for pe in members for i in pe.effects if i.spec.kind == "prevent" and i.spec.then is not None})
    return shields, riders


def _to_layout(pe: _PEvent, row: tuple[int, ...], shields: list[str], riders: list[str]) -> tuple[int, ...]:
    """An event's result in its group's columns: (damage, shares..., took-all..., prevented...)."""
    t = dict.fromkeys(shields, 0)
    full = dict.fromkeys(shields, 1)
    p = dict.fromkeys(riders, 0)
    i = 1
    for inst in pe.effects:
        if inst.spec.kind == "shield":
            t[inst.key], full[inst.key] = row[i], row[i + 1]
            i += 2
        elif inst.spec.kind == "prevent" and inst.spec.then is not None:
            p[inst.key] = row[i]
            i += 1
    return (row[0], *t.values(), *full.values(), *p.values())


def _merge(plan: _Plan, members: list[_PEvent], rows: list[Rows], shields: list[str],
           riders: list[str]) -> list[dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]] | None:
    """The distinct summed results of a group, layer by layer with back pointers (a DP over its
    events); shares above a shield's remaining are dropped. None when there are too many."""
    import numpy as np

    ns = len(shields)
    cap = np.array([plan.shields[k] for k in shields], dtype=np.int64)
    zero = (0, *([0] * ns), *([1] * ns), *([0] * len(riders)))
    states: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {zero: (zero, ())}
    layers = []
    for pe, own in zip(members, rows, strict=True):
        converted = _undominated({_to_layout(pe, r, shields, riders): r for r in own}, ns)
        left = list(states)
        right = list(converted)
        a, b = np.array(left, dtype=np.int64), np.array(right, dtype=np.int64)
        both = a[:, None, :] + b[None, :, :]  # sums of damage, shares and prevented damage
        both[:, :, 1 + ns:1 + 2 * ns] = np.minimum(a[:, None, 1 + ns:1 + 2 * ns], b[None, :, 1 + ns:1 + 2 * ns])
        flat = both.reshape(-1, both.shape[2])
        ok = np.all(flat[:, 1:1 + ns] <= cap, axis=1)  # 615.7: no more than it has left
        where = np.nonzero(ok)[0]
        unique, first = np.unique(flat[where], axis=0, return_index=True)
        if len(unique) > GROUP_LIMIT:
            return None
        new: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        for row, i in zip(unique.tolist(), where[first].tolist(), strict=True):
            new[tuple(row)] = (left[i // len(right)], converted[right[i % len(right)]])
        new = _undominated(new, ns)
        layers.append(new)
        states = new
    return layers


def _undominated(rows: dict[tuple[int, ...], Any], ns: int) -> dict[tuple[int, ...], Any]:
    """Drop a result when another has the same sums and took all it was offered wherever this
    one did: it allows every completion this one allows, with the same outcome (615.7)."""
    if ns == 0:
        return rows
    by_sums: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for key in rows:
        by_sums.setdefault(key[:1 + ns] + key[1 + 2 * ns:], []).append(key[1 + ns:1 + 2 * ns])
    keep: dict[tuple[int, ...], Any] = {}
    for key, value in rows.items():
        mine = key[1 + ns:1 + 2 * ns]
        others = by_sums[key[:1 + ns] + key[1 + 2 * ns:]]
        if not any(o != mine and all(a >= b for a, b in zip(o, mine, strict=True)) for o in others):
            keep[key] = value
    return keep


def _encode_group(m: Any, plan: _Plan, idx: list[int], rows: list[Rows], ub: int) -> list[_Unit]:
    """Table the summed results of events that differ only in how much they deal."""
    members = [plan.events[i] for i in idx]
    shields, riders = _layout(plan, members)
    layers = _merge(plan, members, rows, shields, riders)
    if layers is None:
        if len(idx) == 1:
            return [_encode_blocks(m, plan, members[0], idx[0], _upper(members[0].ev.amount, members[0].effects))]
        return [u for i, r in zip(idx, rows, strict=True) for u in _encode_group(m, plan, [i], [r], ub)]
    last = layers[-1]
    unit = _Unit(list(idx), 0, layers=layers, rows=rows)
    ns = len(shields)
    if len(last) == 1:
        row = next(iter(last))  # no choice changes anything here: constants
        unit.final = row[0]
        for i, key in enumerate(shields):
            unit.shares[key], unit.full[key] = row[1 + i], bool(row[1 + ns + i])
        for i, key in enumerate(riders):
            unit.prevented[key] = row[1 + 2 * ns + i]
        return [unit]
    tag = f"g{idx[0]}"
    unit.final = m.new_int_var(0, ub, f"d{tag}")
    cols = [unit.final]
    for key in shields:
        unit.shares[key] = m.new_int_var(0, plan.shields[key], f"t{tag}_{key}")
        cols.append(unit.shares[key])
    for key in shields:
        unit.full[key] = m.new_bool_var(f"f{tag}_{key}")
        cols.append(unit.full[key])
    for key in riders:
        unit.prevented[key] = m.new_int_var(0, ub, f"p{tag}_{key}")
        cols.append(unit.prevented[key])
    m.add_allowed_assignments(cols, sorted(last))
    unit.columns = cols
    return [unit]


def _sequences(unit: _Unit, values: tuple[int, ...]) -> dict[int, Seq]:
    """Each member event's sequence for the group result ``values`` (following back pointers)."""
    out: dict[int, Seq] = {}
    key = values if unit.columns else next(iter(unit.layers[-1]))
    for pos in range(len(unit.events) - 1, -1, -1):
        prev, own = unit.layers[pos][key]
        out[unit.events[pos]] = unit.rows[pos][own]
        key = prev
    return out


def _encode_blocks(m: Any, plan: _Plan, pe: _PEvent, e: int, ub: int, amount: Any = None) -> _Unit:
    """An event with too many orders to table: the non-shield effects' order as a slot
    permutation (slot b holds effect q when x[b][q], CR 616.1), and each shield placed in one
    of the blocks between them, or after the damage reached 0 (then it never applies, 120.8).

    Shields only subtract, so their order inside a block changes nothing but who "took all it
    was offered": a shield applied while damage is left either uses itself up overall, or is
    the one shield that brings the event to 0 (it goes last in its block) (615.7).
    """
    effs = pe.effects
    plain = [j for j, i in enumerate(effs) if i.spec.kind != "shield"]
    shields = [j for j, i in enumerate(effs) if i.spec.kind == "shield"]
    k = len(plain)
    first = pe.ev.amount if amount is None else amount  # a division choice's amount (510.1c)
    enter: list[Any] = [first] + [m.new_int_var(0, ub, f"u{e}_{b + 1}") for b in range(k)]
    leave: list[Any] = [m.new_int_var(0, ub, f"v{e}_{b}") for b in range(k + 1)]
    x = [[m.new_bool_var(f"x{e}_{b}_{q}") for q in range(k)] for b in range(k)]
    for b in range(k):
        m.add_exactly_one(x[b])
        m.add_exactly_one([x[bb][b] for bb in range(k)])
    out = _Unit([e], leave[k], slots=x, plain=plain, enter=first)
    for q, j in enumerate(plain):
        inst = effs[j]
        vin = m.new_int_var(0, ub, f"in{e}_{j}")
        vout = m.new_int_var(0, ub, f"out{e}_{j}")
        _transform(m, plan, inst, vin, vout, ub, out, f"{e}_{j}")
        for b in range(k):
            m.add(vin == leave[b]).only_enforce_if(x[b][q])
            m.add(enter[b + 1] == vout).only_enforce_if(x[b][q])
        if inst.spec.kind == "prevent" and inst.spec.then is not None:
            out.prevented[inst.key] = vin - vout
    # identical effects without riders commute: fix their relative order (symmetry)
    for q1 in range(k):
        for q2 in range(q1 + 1, k):
            a, c = effs[plain[q1]].spec, effs[plain[q2]].spec
            if a.then is None and c.then is None and (a.kind, a.value) == (c.kind, c.value):
                m.add(sum(b * x[b][q1] for b in range(k)) < sum(b * x[b][q2] for b in range(k)))
    parts: list[list[Any]] = [[] for _ in range(k + 1)]
    zeroing = []
    for j in shields:
        key = effs[j].key
        cap = min(plan.shields[key], ub)
        y = [m.new_bool_var(f"y{e}_{j}_{b}") for b in range(k + 1)]
        none, w = m.new_bool_var(f"n{e}_{j}"), m.new_bool_var(f"w{e}_{j}")
        m.add_exactly_one([*y, none])
        t = m.new_int_var(0, cap, f"t{e}_{j}")
        share = [m.new_int_var(0, cap, f"t{e}_{j}_{b}") for b in range(k + 1)]
        m.add(sum(share) == t)
        for b in range(k + 1):
            m.add(share[b] == 0).only_enforce_if(~y[b])
            m.add(enter[b] >= 1).only_enforce_if(y[b])  # applied only while damage is left
            m.add(leave[b] == 0).only_enforce_if([w, y[b]])  # the zeroing shield
            parts[b].append(share[b])
        m.add(t == 0).only_enforce_if(none)
        m.add(leave[k] == 0).only_enforce_if(none)  # never applied: the damage reached 0
        m.add_implication(w, ~none)
        zeroing.append(w)
        out.shares[key] = t
        out.full[key] = _either(m, [none, w])
        out.placed.append((j, y, none, w))
    if len(zeroing) > 1:
        m.add_at_most_one(zeroing)
    for b in range(k + 1):
        m.add(leave[b] == enter[b] - sum(parts[b]))
    floor = _floor_without_shields(plan, pe, plain) if amount is None else None
    if floor is not None and shields and floor > 0:
        # a redundant cut that shows the LP what a point of shield is worth, so optima are
        # proved (the 100-attacker bench case): every other effect but +N is monotone and
        # changes a difference by at most its factor (x2: 2, the rest: 1), so t prevented
        # anywhere lowers the damage dealt by at most t times the product of the multipliers
        lip = math.prod(int(effs[j].spec.value) for j in plain if effs[j].spec.kind == "multiply")
        m.add(leave[k] >= floor - lip * sum(out.shares.values()))
    return out


def _floor_without_shields(plan: _Plan, pe: _PEvent, plain: list[int]) -> int | None:
    """The least damage any order of the event's non-shield effects leaves (CR 616.1), or None
    when that isn't a valid floor to cut with (+N jumps at 0, 120.8) or too costly to find."""
    effs = pe.effects
    if len(plain) > 6 or any(effs[j].spec.kind == "add" for j in plain):
        return None
    best = None
    for order in permutations(plain):
        amount = pe.ev.amount
        for j in order:
            if amount <= 0:
                break
            amount = _apply(plan, effs[j], amount)
        best = amount if best is None else min(best, amount)
    return best


def _greedy_hint(m: Any, plan: _Plan, units: list[_Unit]) -> None:
    """Hint the block encodings with a legal choice (effects in listed order, every shield first
    and taking all it can, as the graph engine forces on the last event): the first solve then
    starts from a solution, which matters when a hundred events share twenty shields."""
    remaining = dict(plan.shields)
    block_units = {u.events[0]: u for u in units if u.slots is not None}
    for e, pe in enumerate(plan.events):
        unit = block_units.get(e)
        if unit is None or unit.slots is None or pe.assigned:
            continue
        amount = pe.ev.amount
        for j, y, none, w in unit.placed:
            key = pe.effects[j].key
            take = min(remaining[key], amount)
            remaining[key] -= take
            for b, lit in enumerate(y):
                m.add_hint(lit, b == 0 and amount > 0)
            m.add_hint(none, amount <= 0)
            m.add_hint(w, amount > 0 and take == amount and remaining[key] > 0)
            m.add_hint(unit.shares[key], take)
            amount -= take
        for b, row in enumerate(unit.slots):
            for q, lit in enumerate(row):
                m.add_hint(lit, b == q)


def _build(plan: _Plan, cp: Any) -> _Built:
    m = cp.CpModel()
    table, state = plan.table, plan.state
    big = 1
    pairs = {(tr.source, tr.player) for tr in plan.triggers}
    groups: dict[Any, list[int]] = {}
    group_rows: dict[Any, list[Rows]] = {}
    units: list[_Unit] = []
    picks, dealt = _assignments(m, plan)
    for e, pe in enumerate(plan.events):
        big += _upper(pe.ev.amount, pe.effects)
        if pe.assigned:  # its amount is a division choice: the slot encoding takes a variable amount
            amount = dealt[(pe.ev.source, pe.ev.recipient)]
            units.append(_encode_blocks(m, plan, pe, e, _upper(pe.ev.amount, pe.effects), amount))
            continue
        rows = _results(plan, pe)
        if rows is None:
            units.append(_encode_blocks(m, plan, pe, e, _upper(pe.ev.amount, pe.effects)))
            continue
        # events whose results only matter through their sum share a table (CR 120.3, 702.15e)
        src, rcp = pe.ev.source, pe.ev.recipient
        link = controller_of(state, table, src) if has_keyword(state, table, src, "lifelink") else None
        sig = (rcp, link, tuple(has_keyword(state, table, src, k) for k in ("infect", "wither", "deathtouch")),
               (src, pe.ev.combat) if (src, rcp) in pairs else None)
        groups.setdefault(sig, []).append(e)
        group_rows.setdefault(sig, []).append(rows)
    for sig, idx in groups.items():
        ub = sum(_upper(plan.events[i].ev.amount, plan.events[i].effects) for i in idx)
        units.extend(_encode_group(m, plan, idx, group_rows[sig], ub))
    _greedy_hint(m, plan, units)
    prevented: dict[str, list[Any]] = {}
    for unit in units:
        for key, amount in [*unit.shares.items(), *unit.prevented.items()]:
            prevented.setdefault(key, []).append(amount)
    outputs: dict[str, tuple[str, Any]] = {}
    # 615.7: a shield prevents as much as it can, min(remaining, damage where it was applied):
    # either it is used up, or it took all it was offered at every event it was applied to
    for key, r in plan.shields.items():
        fulls = [u.full[key] for u in units if key in u.full]
        if not fulls:
            continue
        total = sum(u.shares[key] for u in units if key in u.shares)
        if not _is_const(total):
            m.add(total <= r)
        used_up = _at_least(m, total, r)
        outputs[f"{key}.remaining"] = ("int", r - total)
        for full in fulls:
            lits = [lit for lit in (full, used_up) if lit is not False]
            if not any(lit is True for lit in lits):
                m.add_bool_or(lits)
    # results (120.3, 120.4c); lifelink is one life-gain event per source (702.15e)
    loss: dict[str, list[Any]] = {}
    gain: dict[str, list[Any]] = {}
    poison: dict[str, list[Any]] = {}
    taken: dict[str, list[Any]] = {}
    drawn: dict[str, list[Any]] = {}
    marked: dict[str, list[Any]] = {}
    counters: dict[str, list[Any]] = {}
    deathtouch: dict[str, list[Any]] = {}
    combat_to: dict[tuple[str, str], list[Any]] = {}

    def hit(source: str, recipient: str, amount: Any, combat: bool) -> None:
        infect = has_keyword(state, table, source, "infect")
        if is_player(table, recipient):
            taken.setdefault(recipient, []).append(amount)
            (poison if infect else loss).setdefault(recipient, []).append(amount)
            if combat:
                combat_to.setdefault((source, recipient), []).append(amount)
        else:
            wither = has_keyword(state, table, source, "wither")
            (counters if infect or wither else marked).setdefault(recipient, []).append(amount)
            if has_keyword(state, table, source, "deathtouch"):
                deathtouch.setdefault(recipient, []).append(amount)
        if has_keyword(state, table, source, "lifelink"):
            ctrl = controller_of(state, table, source)
            if ctrl is not None and ctrl not in plan.cant_gain:
                gain.setdefault(ctrl, []).append(amount)

    for unit in units:
        ev = plan.events[unit.events[0]].ev
        hit(ev.source, ev.recipient, unit.final, ev.combat)
    # riders happen right after the prevention, before state-based actions (615.5)
    for rd in plan.riders:
        done = sum(prevented.get(rd.key, []))
        coef, const = rd.amount
        if const:
            pos = m.new_bool_var(f"rp_{rd.key}")
            m.add(done >= 1).only_enforce_if(pos)
            m.add(done == 0).only_enforce_if(~pos)
            then: Any = coef * done + const * pos
        else:
            then = coef * done
        big += big * max(coef, 1) + const
        for who in rd.recipients:
            if rd.kind == "deal":
                hit(rd.source, who, then, False)
            elif rd.kind == "lose_life":
                loss.setdefault(who, []).append(then)
            elif rd.kind == "gain_life":
                if who not in plan.cant_gain:
                    gain.setdefault(who, []).append(then)
            else:
                drawn.setdefault(who, []).append(then)
    combat_sum = {k: sum(v) for k, v in combat_to.items()}
    lost: dict[str, Any] = {}
    for p in state.players:
        base_life = plan.base[f"{p.name}.life"]
        life = base_life - sum(loss.get(p.name, [])) + sum(gain.get(p.name, []))
        pois = plan.base[f"{p.name}.poison"] + sum(poison.get(p.name, []))
        outputs[f"{p.name}.life"] = ("int", life)
        outputs[f"{p.name}.poison"] = ("int", pois)
        outputs[f"{p.name}.life_lost"] = ("int", plan.base[f"{p.name}.life_lost"] + sum(loss.get(p.name, [])))
        outputs[f"{p.name}.life_gained"] = ("int", plan.base[f"{p.name}.life_gained"] + sum(gain.get(p.name, [])))
        outputs[f"{p.name}.damage_taken"] = ("int", plan.base[f"{p.name}.damage_taken"] + sum(taken.get(p.name, [])))
        # 704.5a, 704.5c
        lost[p.name] = True if p.lost else _either(m, [_at_most(m, life, 0), _at_least(m, pois, 10)])
        outputs[f"{p.name}.lost"] = ("bool", lost[p.name])
        if p.team is not None:
            outputs[f"team{p.team}.life"] = ("int", life)
            outputs[f"team{p.team}.poison"] = ("int", pois)
    # draw triggers resolve after state-based actions; a player who left draws nothing (800.4a),
    # and after a player loses a two-player game nothing resolves at all (104.2a, engine.game_over)
    over = False if plan.multiplayer else _either(m, list(lost.values()))
    for tr in plan.triggers:
        dealt = combat_sum.get((tr.source, tr.player), 0)
        fire = _at_least(m, dealt, 1)
        coef, const = tr.amount
        amount = coef * dealt + (const * fire if not _is_const(fire) else const * int(fire))
        # a trigger whose controller lost a multiplayer game ceases to exist with them (800.4a)
        ctrl_left = lost.get(tr.controller, False) if plan.multiplayer else False
        for q in tr.who:
            left = _either(m, [lost[q], ctrl_left]) if plan.multiplayer else over
            if _is_const(left) and not left:
                drawn.setdefault(q, []).append(amount)
            elif not _is_const(left):
                z = m.new_int_var(0, big * max(coef, 1) + const, f"draw_{tr.watcher}_{q}")
                m.add(z == amount).only_enforce_if(~left)
                m.add(z == 0).only_enforce_if(left)
                drawn.setdefault(q, []).append(z)
    for p in state.players:
        outputs[f"{p.name}.cards_drawn"] = ("int", plan.base[f"{p.name}.cards_drawn"] + sum(drawn.get(p.name, [])))
    # creatures: marked damage, -1/-1 counters, and dying (704.5f, 704.5g, 704.5h)
    for cid in sorted(set(marked) | set(counters) | set(deathtouch)):
        perm = state.perm(cid)
        assert perm is not None
        spec = table.perm_specs[perm.spec]
        dmg = perm.damage + sum(marked.get(cid, []))
        minus = perm.counter("-1/-1") + sum(counters.get(cid, []))
        tough = spec.toughness + perm.counter("+1/+1")
        outputs[f"{cid}.damage"] = ("int", dmg)
        if cid in counters or "-1/-1" in dict(perm.counters):
            outputs[f"{cid}.counters.-1/-1"] = ("opt" if "-1/-1" not in dict(perm.counters) else "int", minus)
        reasons = [bool(plan.base[f"{cid}.dies"]), _at_least(m, minus, tough)]
        if "indestructible" not in spec.keywords:
            reasons.append(_at_least(m, dmg + minus, tough))
            reasons.extend(_at_least(m, d, 1) for d in deathtouch.get(cid, []))
        outputs[f"{cid}.dies"] = ("bool", _either(m, reasons))
    bound = big * 4 + sum(abs(v) for v in plan.base.values() if isinstance(v, int)) + 16
    return _Built(m, units, combat_sum, outputs, bound, picks, over)


def _assignments(m: Any, plan: _Plan) -> tuple[list[list[Any]], dict[tuple[str, str], Any]]:
    """Combat damage division (CR 510.1c-d): one literal per option of each combatant (exactly one
    holds), the amount each (creature, recipient) pair is assigned, and trample's condition on
    the whole assignment (702.19b, 510.1e): a trampler assigns to the player only if each of its
    blockers is assigned lethal damage in total (deathtouch: 1), damage already marked counted."""
    picks: list[list[Any]] = []
    dealt: dict[tuple[str, str], Any] = {}
    for a in plan.assigns:
        lits = [m.new_bool_var(f"assign_{a.creature}_{k}") for k in range(len(a.options))] if len(a.options) > 1 else [True]
        if len(lits) > 1:
            m.add_exactly_one(lits)
        picks.append(lits)
        for lit, opt in zip(lits, a.options, strict=True):
            for r, n in opt:
                dealt[(a.creature, r)] = dealt.get((a.creature, r), 0) + (n * lit if lit is not True else n)
    for trampler, player, blocker, lethal in plan.trample:
        to_player = dealt.get((trampler, player), 0)
        if _is_const(to_player) or lethal <= 0:
            continue
        tramples = _at_least(m, to_player, 1)
        total = sum(v for (_src, r), v in dealt.items() if r == blocker)
        m.add(total >= lethal).only_enforce_if(tramples)
    return picks, dealt


def _at_least(m: Any, expr: Any, k: int) -> Any:
    """A literal equivalent to ``expr >= k`` (or a Python bool when ``expr`` is constant)."""
    if _is_const(expr):
        return int(expr) >= k
    b = m.new_bool_var("")
    m.add(expr >= k).only_enforce_if(b)
    m.add(expr <= k - 1).only_enforce_if(~b)
    return b


def _at_most(m: Any, expr: Any, k: int) -> Any:
    if _is_const(expr):
        return int(expr) <= k
    b = m.new_bool_var("")
    m.add(expr <= k).only_enforce_if(b)
    m.add(expr >= k + 1).only_enforce_if(~b)
    return b


def _either(m: Any, lits: list[Any]) -> Any:
    """A literal equivalent to the disjunction of ``lits`` (Python bools fold away)."""
    if any(lit is True for lit in lits):
        return True
    lits = [lit for lit in lits if lit is not False]
    if not lits:
        return False
    if len(lits) == 1:
        return lits[0]
    b = m.new_bool_var("")
    m.add_bool_or(lits).only_enforce_if(b)
    for lit in lits:
        m.add_implication(lit, b)
    return b


def _transform(m: Any, plan: _Plan, inst: Instance, vin: Any, vout: Any, ub: int,
               out: _Unit, tag: str) -> None:
    """``vout`` = the amount after ``inst`` applies to ``vin`` (0 stays 0: CR 120.8)."""
    spec = inst.spec
    kind, value = spec.kind, spec.value
    if kind == "multiply":  # 614.1a
        m.add(vout == int(value) * vin)
    elif kind == "add":  # nothing is added to 0 damage (120.8, 614.7a)
        pos = m.new_bool_var(f"pos{tag}")
        m.add(vin >= 1).only_enforce_if(pos)
        m.add(vin == 0).only_enforce_if(~pos)
        m.add(vout == vin + int(value) * pos)
    elif kind == "cap":
        m.add_min_equality(vout, [vin, int(value)])
    elif kind == "shield":  # 615.7: the affected player chooses the share
        t = m.new_int_var(0, min(plan.shields[inst.key], ub), f"t{tag}")
        full = m.new_bool_var(f"f{tag}")
        m.add(t <= vin)
        m.add(t == vin).only_enforce_if(full)
        m.add(t <= vin - 1).only_enforce_if(~full)
        m.add(vout == vin - t)
        out.shares[inst.key], out.full[inst.key] = t, full
    elif value == "all":
        m.add(vout == 0)
    elif value == "half_up":  # prevent half, rounded up: floor(in / 2) is left
        m.add_division_equality(vout, vin, 2)
    elif value == "half_down":  # prevent half, rounded down: ceil(in / 2) is left
        m.add_division_equality(vout, vin + 1, 2)
    elif value[0] == "all_but":
        m.add_min_equality(vout, [vin, int(value[1])])
    else:  # prevent N, or prevent X read before the batch is dealt (615.10)
        n = dict(plan.state.batch.counts).get(inst.key, 0) if value[0] == "count" else int(value[1])  # type: ignore[union-attr]
        m.add_max_equality(vout, [vin - n, 0])


# ---------------------------------------------------------------------------------------------
# reading a solution: the outcome and a witness in the graph engine's labels


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
                    steps_of.append((order[b], None))
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
                if i.spec.kind == "shield" and others_open and not pe.ev.unpreventable:
                    options += min(remaining[i.key], amount) + 1
                else:
                    options += 1
            kind = inst.spec.kind
            took = None
            if kind == "shield":
                took = int(share or 0)
                remaining[inst.key] -= took
                amount -= took
            elif how == "cp":
                amount = _apply(plan, inst, amount)
            applied.add(inst.key)
            if options > 1:
                picked = inst.key if took is None else f"{inst.key}:{took}"
                steps.append(Witness(pe.chooser, "order" if len(live) > 1 else "split", event_label(pe.ev), picked))
                text = f"{says(pe.chooser, 'applies')} {plan.names.get(inst.key, inst.key)} to {pe.ev.source}'s damage to {pe.ev.recipient}"
                words.append(text if took is None else f"{text}: it prevents {took}")
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


def _apply(plan: _Plan, inst: Instance, amount: int) -> int:
    spec = inst.spec
    kind, value = spec.kind, spec.value
    if kind == "multiply":
        return amount * int(value)
    if kind == "add":
        return amount + int(value)
    if kind == "cap":
        return min(amount, int(value))
    if value == "all":
        return 0
    if value == "half_up":
        return amount // 2
    if value == "half_down":
        return amount - amount // 2
    if value[0] == "all_but":
        return min(amount, int(value[1]))
    n = dict(plan.state.batch.counts).get(inst.key, 0) if value[0] == "count" else int(value[1])  # type: ignore[union-attr]
    return max(0, amount - n)


def _sort_key(state: tuple[tuple[str, Any], ...]) -> tuple[Any, ...]:
    from .graph import _sort_key as graph_sort_key

    return graph_sort_key(state)


class _Search:
    """Solves of one built model: distinct projected outcomes by no-goods, and lexicographic
    optimisation of linear objectives over the same model (design.md, "Choice graph and CP model")."""

    def __init__(self, case: Case, plan: _Plan, built: _Built, fields: Iterable[str] | None,
                 timeout: float | None, cp: Any) -> None:
        self.case, self.plan, self.built, self.cp = case, plan, built, cp
        self.start = time.perf_counter()
        self.timeout = timeout
        self.wanted = list(fields) if fields is not None else None
        self.outcomes: list[Outcome] = []
        self.solves = 0
        self.best: Any = None  # the incumbent when a time limit cut an optimisation
        m = built.model
        names = self.wanted if self.wanted is not None else list(plan.base) + [k for k in built.outputs if k not in plan.base]
        # one integer variable per projected field that can vary; a solution's projection is
        # then forbidden as one tuple (a no-good), so the next solve must find a new outcome
        self.watch: list[Any] = []
        for f in dict.fromkeys(names):
            kind, expr = built.outputs.get(f, ("int", 0))
            if isinstance(expr, bool | int):
                continue
            if kind != "bool":
                var = m.new_int_var(-built.bound, built.bound, f"y_{f}")
                m.add(var == expr)
                expr = var
            self.watch.append(expr)
        self.eq: dict[tuple[int, int], Any] = {}

    def lit(self, i: int, v: int) -> Any:
        """The literal ``watch[i] == v`` (made once, reused by every later solve)."""
        got = self.eq.get((i, v))
        if got is None:
            m = self.built.model
            got = self.eq[(i, v)] = m.new_bool_var("")
            m.add(self.watch[i] == v).only_enforce_if(got)
            m.add(self.watch[i] != v).only_enforce_if(~got)
        return got

    def record(self, solver: Any) -> None:
        plan, built = self.plan, self.built
        values = dict(plan.base)
        for f, (kind, expr) in built.outputs.items():
            v = _value(solver, kind, expr)
            if kind != "opt" or v > 0:
                values[f] = v
        wanted = self.wanted
        state = tuple(sorted(values.items())) if wanted is None else tuple(sorted((f, values.get(f)) for f in wanted))
        witness, words = _witness(plan, built, solver)
        self.outcomes.append(Outcome(state, witness, 0, words))

    def distinct(self, per_run: int = PER_RUN) -> None:
        """Every distinct projected outcome, a run at a time: a run enumerates solutions and
        keeps those with a new projection (at most ``per_run``), then each is forbidden by a
        no-good (a clause: some field takes another value) and the next run starts. A run that
        ends by itself has seen every solution left; a run with no solution proves there is no
        other outcome. Far fewer solves than one per outcome, the same outcomes."""
        m, cp = self.built.model, self.cp
        if not self.watch:  # every projected field is fixed: one solution says it all
            solver = self.solve()
            if solver is not None:
                self.record(solver)
            return
        search = self
        callback: Any = cp.CpSolverSolutionCallback

        class Collect(callback):
            def __init__(self) -> None:
                super().__init__()
                self.new: list[tuple[int, ...]] = []
                self.keys: set[tuple[int, ...]] = set()
                self.calls = 0  # solutions since the last new projection
                self.stopped = False

            def on_solution_callback(self) -> None:
                self.calls += 1
                key = tuple(int(self.value(v)) for v in search.watch)
                if key not in self.keys:
                    self.keys.add(key)
                    self.new.append(key)
                    self.calls = 0
                    search.record(self)
                if len(self.new) >= per_run or self.calls >= REPEATS:
                    self.stopped = True  # enough for this run (or too many repeats): forbid and go on
                    self.stop_search()

        while True:
            collect = Collect()
            status = self.solve(collect)
            for key in collect.new:
                m.add_bool_or([~self.lit(i, v) for i, v in enumerate(key)])
            if status is None or (status == cp.OPTIMAL and not collect.stopped):
                return  # nothing left, or the run saw every solution

    def solve(self, collect: Any = None) -> Any:
        """One run. Without ``collect``: a solver holding a solution (optimal when the model has
        an objective), None when there is none. With ``collect`` (a solution callback): every
        solution goes to it (enumerate_all_solutions); returns the status, None when
        infeasible. Raises _Cut on the time limit (after keeping the best solution in
        ``self.best`` when optimising)."""
        cp, m = self.cp, self.built.model
        solver = cp.CpSolver()
        for key, value in _PARAMS.items():
            setattr(solver.parameters, key, value)
        if self.timeout is not None:
            left = self.timeout - (time.perf_counter() - self.start)
            if left <= 0:
                raise _Cut
            solver.parameters.max_time_in_seconds = left
        if collect is not None:
            solver.parameters.enumerate_all_solutions = True
            status = solver.solve(m, collect)
        else:
            status = solver.solve(m)
        self.solves += 1
        if status == cp.INFEASIBLE:
            return None
        if status == cp.MODEL_INVALID:
            raise EngineError(f"{self.case.id}: invalid CP model: {m.validate()}")
        if collect is not None:
            if status == cp.OPTIMAL or (status == cp.FEASIBLE and collect.stopped):
                return status
            raise _Cut  # the time limit ended the run; what it collected is recorded
        if status == cp.FEASIBLE and m.has_objective():
            self.best = solver  # the limit cut the proof of optimality
            raise _Cut
        if status not in (cp.OPTIMAL, cp.FEASIBLE):
            raise _Cut
        return solver

    def optimise(self, levels: list[Any]) -> list[int] | None:
        """Maximise each level in turn, fixing it at its optimum before the next (lexicographic);
        the optimal values, or None when the model has no solution."""
        m = self.built.model
        best: list[int] = []
        for expr in levels:
            if _is_const(expr):
                best.append(int(expr))
                continue
            m.maximize(expr)
            solver = self.solve()
            if solver is None:
                return None
            value = int(round(solver.objective_value))
            best.append(value)
            m.clear_objective()
            m.add(expr == value)
        return best

    def result(self, complete: bool, extra: dict[str, Any] | None = None) -> Result:
        self.outcomes.sort(key=lambda o: _sort_key(o.state))
        built = self.built
        stats = {"solves": self.solves, "tables": sum(bool(u.columns) for u in built.units),
                 "slot_events": sum(u.slots is not None for u in built.units), **(extra or {}),
                 "seconds": round(time.perf_counter() - self.start, 3)}
        return Result(self.case.id, "cp", complete, self.outcomes, stats)


def _prepared(case: Case, fields: Iterable[str] | None, timeout: float | None,
              objective: Objective | None = None) -> _Search:
    """The case's plan and built model, ready to solve (EngineError when CP can't answer)."""
    plan = _plan(case)
    if isinstance(plan, str):
        raise EngineError(f"{case.id}: the CP engine can't model this case: {plan}")
    reason = _optimizable(plan, objective) if objective is not None else None
    if reason is not None:
        raise EngineError(f"{case.id}: the CP engine can't optimise this case: {reason}")
    from ortools.sat.python import cp_model as cp

    return _Search(case, plan, _build(plan, cp), fields, timeout, cp)


def cp_outcomes(case: Case, fields: Iterable[str] | None = None, timeout: float | None = None) -> Result:
    """Every distinct outcome of ``case`` (projected on ``fields``) by CP-SAT with no-goods.

    Raises :class:`~model.errors.EngineError` when :func:`cp_supported` says the model can't
    express the case. ``complete`` is False when ``timeout`` (seconds) cut the enumeration.
    ``paths`` is 0 on every outcome: this engine doesn't count raw choice paths.
    """
    search = _prepared(case, fields, timeout)
    complete = True
    try:
        search.distinct()
    except _Cut:
        complete = False
    return search.result(complete)


def _choosers(plan: _Plan) -> list[str]:
    """The players with a choice in the step: combat damage division (510.1c-d) and the affected
    players of events that effects apply to (CR 616.1, 615.7). Ordering draw triggers (603.3b)
    changes no outcome here."""
    return sorted({pe.chooser for pe in plan.events
                   if len(pe.effects) + len(pe.noops) > 1 or any(i.spec.kind == "shield" for i in pe.effects)}
                  | {a.controller for a in plan.assigns if len(a.options) > 1})


def cp_optimizable(case: Case, objective: Objective) -> str | None:
    """None when :func:`cp_optimize` gives the graph's backward-induction answer, else a reason.

    The CP model has no move order, so it answers when at most one player chooses in the step:
    with one chooser, backward induction keeps exactly the outcomes with the best lexicographic
    score (every decision is theirs), and a chooser without an objective may pick anything.
    """
    plan = _plan(case)
    if isinstance(plan, str):
        return plan
    return _optimizable(plan, objective)


def _optimizable(plan: _Plan, objective: Objective) -> str | None:
    choosers = _choosers(plan)
    if len(choosers) > 1 and any(objective.of(c) is not None for c in choosers):
        return f"{' and '.join(choosers)} all choose in this step: backward induction needs the move order"
    for c in choosers:
        for goal in objective.of(c) or ():
            for _, f in goal.terms:
                if not isinstance(plan.base.get(f, 0), bool | int | None):
                    return f"{f} is not a number"
    return None


def _level(plan: _Plan, built: _Built, goal: Goal) -> Any:
    """``goal`` as an expression to maximise: sense times the sum of its terms (a field the
    case doesn't have counts as 0, as :meth:`Goal.score` does)."""
    total: Any = 0
    for coef, f in goal.terms:
        _, expr = built.outputs.get(f, ("int", plan.base.get(f, 0)))
        if expr is None or isinstance(expr, bool):
            expr = int(bool(expr))
        total = total + coef * expr
    return goal.sense * total


def cp_optimize(case: Case, objective: Objective, fields: Iterable[str] | None = None,
                timeout: float | None = None) -> Result:
    """The outcomes of optimal play by CP-SAT: each level of the chooser's lexicographic
    objective is maximised and fixed in turn, then every distinct outcome (projected on
    ``fields``) reaching the optimum is enumerated with no-goods, each with a witness.

    Raises :class:`~model.errors.EngineError` when :func:`cp_optimizable` gives a reason.
    ``complete`` is False when ``timeout`` cut the search; the best outcome found so far is then
    the only one listed. ``stats["optimum"]`` holds each level's proved optimal value (per
    chooser), present when every level was proved even if listing the tied outcomes was cut.
    """
    search = _prepared(case, fields, timeout, objective)
    plan, built = search.plan, search.built
    chooser = next((c for c in _choosers(plan) if objective.of(c) is not None), None)
    goals = objective.of(chooser) if chooser is not None else None
    levels = [_level(plan, built, g) for g in goals or ()]
    optimum: list[int] | None = []
    complete = True
    try:
        optimum = search.optimise(levels)
        if optimum is not None:
            search.distinct()
    except _Cut:
        complete = False
        if search.best is not None and not search.outcomes:
            search.record(search.best)
    extra: dict[str, Any] = {}
    if chooser is not None and goals and optimum is not None and len(optimum) == len(goals):
        # each level's proved optimal value, as the goal's expression reads (not negated)
        extra["optimum"] = {chooser: [g.sense * v for g, v in zip(goals, optimum, strict=True)]}
    return search.result(complete, extra)
