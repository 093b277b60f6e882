"""The CP-SAT engine: one damage batch's choices as a constraint model (design.md, "Choice graph
and CP model"). The only module that imports ortools, and only when a model is built, so
:func:`cp_supported` stays cheap.

The model encodes, for each damage event of the batch, the affected player's order of the
applicable effects (a permutation matrix of slot booleans, CR 616.1), each shield's share of the
event (an integer, CR 615.7), the amount as a chain of integer stages (x2, +N, min, halving), and
the results (life, poison, marked damage, lifelink, riders, draw triggers) as linear expressions.
Distinct outcomes on a projection are enumerated by solving, forbidding the projected values of
that solution (a no-good), and solving again until the model is infeasible.

``Outcome.paths`` is 0 for this engine: raw choice paths are not counted (the point of the engine
is not to walk them). Each outcome's witness is a legal choice sequence in the graph engine's
labels (``at`` = ``source->recipient``, ``picked`` = ``key`` or ``key:amount``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from model.errors import EngineError
from model.expr import Expr
from model.outcome import Outcome, Witness
from model.types import Case, CombatAction, DamageAction

from .api import Result
from .combat import run_task, start_step
from .engine import Decision, advance, final_fields, says
from .engine import cant_gain_life as _cant_gain_life
from .rules import (
    Instance,
    affected_player,
    applicable_effects,
    effect_name,
    effects_in_force,
    event_label,
    start_batch,
)
from .select import View, has_keyword, is_player, matches
from .state import Event, GameState, Table, initial_state
from .values import evaluate

__all__ = ["cp_supported", "cp_outcomes", "estimate_paths", "prefer_cp", "AUTO_THRESHOLD"]

AUTO_THRESHOLD = 20_000  # engine="auto" picks CP above this many estimated raw choice paths
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


def _linear(node: Expr, var: str) -> tuple[int, int] | None:
    """``node`` as ``coef * var + const``, or None when it isn't of that shape."""
    tag = node[0]
    if tag == "int":
        return 0, int(node[1])
    if tag == "var":
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


def _open_batch(action: Any, state: GameState, table: Table) -> GameState | str:
    """The state with the final action's batch open (CR 510.2 for combat, 120 for damage)."""
    if isinstance(action, DamageAction):
        events = [Event(d.source, d.to, evaluate(d.amount, {}), d.combat) for d in action.events]
        return start_batch(state, table, events)
    for p in state.perms:
        if p.blocking:
            return "blockers (damage assignment) are not modelled"
        kws = table.perm_specs[p.spec].keywords
        if p.attacking is not None and ("first strike" in kws or "double strike" in kws):
            return "first or double strike (two damage steps) is not modelled"
        if p.attacking is not None and not is_player(table, p.attacking):
            return "attacking a planeswalker or battle is not modelled"
    state = start_step(state, table, 0)
    while state.batch is None and state.queue and state.queue[0][0] == "combat":
        task, state = state.queue[0], replace(state, queue=state.queue[1:])
        res = run_task(state, table, task)
        if isinstance(res, Decision) or res.dead:
            return "combat damage assignment choices are not modelled"
        state = res
    return state


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
    state = opened
    events: list[_PEvent] = []
    batch_events = state.batch.events if state.batch is not None else ()
    order = table.apnap(table.order)
    for i, ev in enumerate(batch_events):
        if not is_player(table, ev.recipient):
            perm = state.perm(ev.recipient)
            assert perm is not None
            types = table.perm_specs[perm.spec].types
            if "planeswalker" in types or "battle" in types:
                return "damage to planeswalkers and battles is not modelled"
        spec = table.spec_of(state, ev.source)
        kws = set(getattr(spec, "keywords", ()) or ())
        if kws & {"toxic"} or getattr(spec, "toxic", 0):
            return f"{ev.source}: toxic is not modelled"
        apps = applicable_effects(state, table, ev)
        modelled = [a for a in apps if not (ev.unpreventable and a.spec.kind in _PREVENTION)]
        noops = [a for a in apps if ev.unpreventable and a.spec.kind in _PREVENTION]
        events.append(_PEvent(i, ev, affected_player(state, ev.recipient), modelled, noops))
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
        spec = table.perm_specs[p.spec]
        for j, ab in enumerate(spec.abilities):
            if ab.kind != "trigger" or ab.trigger != "combat_damage_to_player" or ab.action is None:
                continue
            view = View(p.controller, p.id, None, p.chosen)
            for s, r in pairs:
                ok = matches(ab.trigger_from, s, state, table, view) if ab.trigger_from else s == p.id
                if ok and ab.trigger_to is not None:
                    ok = matches(ab.trigger_to, r, state, table, view)
                if ok:
                    amount = _linear(ab.action.amount, "damage_dealt")
                    assert amount is not None
                    who = _players_matching(ab.action.to, state, table, view)
                    triggers.append(_Trigger(p.id, p.controller, j, s, r, amount, who, spec.name))
    multiplayer = len(state.players) > 2
    cant = frozenset(p.name for p in state.players if _cant_gain_life(state, table, p.name))
    base = final_fields(state0, table)
    return _Plan(table, state, base, events, shields, riders, triggers, multiplayer, cant, names)


def cp_supported(case: Case) -> str | None:
    """None when the CP model can express ``case``, else a short reason.

    The subset: one ``damage:`` batch or one ``combat: {}`` with unblocked attackers (no first or
    double strike); shields (CR 615.7), static and created prevention (615.1, 615.10, 615.12),
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
    total = 1
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


@dataclass
class _Built:
    model: Any
    slots: list[list[list[Any]]]  # per event: x[k][j]
    takes: list[dict[int, Any]]  # per event: effect index -> share variable (shields)
    combat_to: dict[tuple[str, str], Any]  # (source, player) -> combat damage dealt
    outputs: dict[str, tuple[str, Any]]  # field -> ("int" | "bool", expr or constant)


def _is_const(x: Any) -> bool:
    return isinstance(x, int)


def _build(plan: _Plan, cp: Any) -> _Built:
    m = cp.CpModel()
    table, state = plan.table, plan.state
    big = 1
    slots: list[list[list[Any]]] = []
    takes: list[dict[int, Any]] = []
    finals: list[Any] = []
    into: dict[str, list[Any]] = {}  # shield key -> amounts at the points it was applied
    shares: dict[str, list[Any]] = {}  # shield key -> its shares
    prevented: dict[str, list[Any]] = {}  # prevention key -> damage it prevented
    for e, pe in enumerate(plan.events):
        effs = pe.effects
        n = len(effs)
        ub = _upper(pe.ev.amount, effs)
        big += ub
        amounts: list[Any] = [pe.ev.amount] + [m.new_int_var(0, ub, f"a{e}_{k + 1}") for k in range(n)]
        x = [[m.new_bool_var(f"x{e}_{k}_{j}") for j in range(n)] for k in range(n)] if n > 1 else [[1]] * n
        if n > 1:
            for k in range(n):
                m.add_exactly_one(x[k])
                m.add_exactly_one([x[kk][k] for kk in range(n)])
        take: dict[int, Any] = {}
        for j, inst in enumerate(effs):
            vin = m.new_int_var(0, ub, f"in{e}_{j}")
            vout = m.new_int_var(0, ub, f"out{e}_{j}")
            _transform(m, plan, inst, vin, vout, ub, take, j, f"{e}_{j}")
            for k in range(n):
                if n > 1:
                    m.add(vin == amounts[k]).only_enforce_if(x[k][j])
                    m.add(amounts[k + 1] == vout).only_enforce_if(x[k][j])
                else:
                    m.add(vin == amounts[k])
                    m.add(amounts[k + 1] == vout)
            if inst.spec.kind == "shield":
                into.setdefault(inst.key, []).append(vin)
                shares.setdefault(inst.key, []).append(take[j])
            if inst.spec.kind in _PREVENTION:
                prevented.setdefault(inst.key, []).append(vin - vout)
        # identical effects without riders commute: fix their relative order (symmetry)
        if n > 1:
            for j1 in range(n):
                for j2 in range(j1 + 1, n):
                    a, b = effs[j1].spec, effs[j2].spec
                    if a.kind != "shield" and a.then is None and b.then is None and (a.kind, a.value) == (b.kind, b.value):
                        m.add(sum(k * x[k][j1] for k in range(n)) < sum(k * x[k][j2] for k in range(n)))
        slots.append(x)
        takes.append(take)
        finals.append(amounts[n])
    outputs: dict[str, tuple[str, Any]] = {}
    # 615.7: a shield prevents as much as it can: min(remaining, damage where it was applied)
    for key, r in plan.shields.items():
        if key not in shares:
            continue
        total = m.new_int_var(0, r, f"T_{key}")
        m.add(total == sum(shares[key]))
        m.add_min_equality(total, [sum(into[key]), r])
        outputs[f"{key}.remaining"] = ("int", r - total)
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
            ctrl = _controller(state, table, source)
            if ctrl is not None and ctrl not in plan.cant_gain:
                gain.setdefault(ctrl, []).append(amount)

    for pe, d in zip(plan.events, finals, strict=True):
        hit(pe.ev.source, pe.ev.recipient, d, pe.ev.combat)
    # riders happen right after the prevention, before state-based actions (615.5)
    for rd in plan.riders:
        p = sum(prevented.get(rd.key, []))
        ub_p = big
        coef, const = rd.amount
        if const:
            pos = m.new_bool_var(f"rp_{rd.key}")
            m.add(p >= 1).only_enforce_if(pos)
            m.add(p == 0).only_enforce_if(~pos)
            amount: Any = coef * p + const * pos
        else:
            amount = coef * p
        big += ub_p * max(coef, 1) + const
        for r in rd.recipients:
            if rd.kind == "deal":
                hit(rd.source, r, amount, False)
            elif rd.kind == "lose_life":
                loss.setdefault(r, []).append(amount)
            elif rd.kind == "gain_life":
                if r not in plan.cant_gain:
                    gain.setdefault(r, []).append(amount)
            else:
                drawn.setdefault(r, []).append(amount)
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
    # draw triggers resolve after state-based actions; a player who left draws nothing (800.4a)
    for tr in plan.triggers:
        dealt = combat_sum.get((tr.source, tr.player), 0)
        fire = _at_least(m, dealt, 1)
        coef, const = tr.amount
        amount = coef * dealt + (const * fire if not _is_const(fire) else const * int(fire))
        for q in tr.who:
            left = lost[q] if plan.multiplayer else 0
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
    return _Built(m, slots, takes, combat_sum, outputs)


def _controller(state: GameState, table: Table, oid: str) -> str | None:
    perm = state.perm(oid)
    if perm is not None:
        return perm.controller
    src = table.sources.get(oid)
    return src.controller if src is not None else None


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
               take: dict[int, Any], j: int, tag: str) -> None:
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
        m.add(t <= vin)
        m.add(vout == vin - t)
        take[j] = t
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
    last = len(plan.events) - 1
    events = list(enumerate(plan.events))
    for pos, (e, pe) in enumerate(events):
        effs = pe.effects
        n = len(effs)
        x = built.slots[e]
        order = [j for k in range(n) for j in range(n) if n == 1 or solver.boolean_value(x[k][j])]
        seq = [("noop", i) for i in pe.noops] + [("cp", effs[j]) for j in order]
        share = {effs[j].key: int(solver.value(t)) for j, t in built.takes[e].items()}
        amount = pe.ev.amount
        applied: set[str] = set()
        others_open = pos < last
        for how, inst in seq:
            if amount <= 0:
                break  # 120.8: nothing further applies
            live = [i for _, i in seq if i.key not in applied and
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
                took = 0 if how == "noop" else share[inst.key]
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
        if dealt > 0:
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


def cp_outcomes(case: Case, fields: Iterable[str] | None = None, timeout: float | None = None) -> Result:
    """Every distinct outcome of ``case`` (projected on ``fields``) by CP-SAT with no-goods.

    Raises :class:`~model.errors.EngineError` when :func:`cp_supported` says the model can't
    express the case. ``complete`` is False when ``timeout`` (seconds) cut the enumeration.
    ``paths`` is 0 on every outcome: this engine doesn't count raw choice paths.
    """
    start = time.perf_counter()
    plan = _plan(case)
    if isinstance(plan, str):
        raise EngineError(f"{case.id}: the CP engine can't model this case: {plan}")
    from ortools.sat.python import cp_model as cp

    built = _build(plan, cp)
    m = built.model
    wanted = list(fields) if fields is not None else None
    names = wanted if wanted is not None else list(plan.base) + [k for k in built.outputs if k not in plan.base]
    watch = [(f, *built.outputs[f]) for f in names if f in built.outputs
             and not isinstance(built.outputs[f][1], bool | int)]
    outcomes: list[Outcome] = []
    complete = True
    solves = 0
    while True:
        solver = cp.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = 0
        if timeout is not None:
            left = timeout - (time.perf_counter() - start)
            if left <= 0:
                complete = False
                break
            solver.parameters.max_time_in_seconds = left
        status = solver.solve(m)
        solves += 1
        if status == cp.INFEASIBLE:
            break
        if status == cp.MODEL_INVALID:
            raise EngineError(f"{case.id}: invalid CP model: {m.validate()}")
        if status not in (cp.OPTIMAL, cp.FEASIBLE):
            complete = False  # the time limit cut the search
            break
        values = dict(plan.base)
        for f, (kind, expr) in built.outputs.items():
            v = _value(solver, kind, expr)
            if kind == "opt":
                if v > 0:
                    values[f] = v
            else:
                values[f] = v
        state = tuple(sorted(values.items())) if wanted is None else tuple(sorted((f, values.get(f)) for f in wanted))
        witness, words = _witness(plan, built, solver)
        outcomes.append(Outcome(state, witness, 0, words))
        # a no-good: some watched field must differ from this solution
        lits = []
        for _f, kind, expr in watch:
            v = _value(solver, kind, expr)
            if kind == "bool":
                lits.append(~expr if v else expr)
            else:
                lo, hi = m.new_bool_var(""), m.new_bool_var("")
                m.add(expr <= v - 1).only_enforce_if(lo)
                m.add(expr >= v + 1).only_enforce_if(hi)
                lits.extend((lo, hi))
        if not lits:
            break
        m.add_bool_or(lits)
    outcomes.sort(key=lambda o: _sort_key(o.state))
    stats = {"solves": solves, "booleans": sum(len(x) * len(x) for x in built.slots),
             "seconds": round(time.perf_counter() - start, 3)}
    return Result(case.id, "cp", complete, outcomes, stats)
