"""The CP-SAT model of one step: tables or block encodings per event, combat division and
trample, results (solver.results), state-based actions (solver.sba), draw triggers."""

from __future__ import annotations

import math
from itertools import permutations
from typing import Any

from mtg_outcomes.model.kinds import ActionKind

from ..amounts import Multiply
from ..limits import Deadline
from ..results import Part, event_results, floored_loss, gain_replacements, gain_rule
from ..sba import attachment_kind, loss_literal
from ..sba import dies as sba_dies
from ..sba import lethal as lethal_thresholds
from ..select import controller_of, has_keyword
from ..state import Event
from . import tables
from .assign import _assignments
from .bounds import fits as _fits
from .encodings import _encode_blocks, _encode_tables, _encode_tree
from .hints import _greedy_hint
from .lifept import reached, toughness_shift
from .literals import _and_not, _at_least, _at_most, _either, _floor0
from .step import _Plan, _upper, shield_groups
from .tables import Rows, _is_const
from .units import _Built, _Unit

_BUILDING = "building the CP model"


def _last_standing(m: Any, state: Any, lost: dict[str, Any]) -> Any:
    """A literal for solver.sba.last_standing after the step's check: at most one of the players
    in the game at its start is still in it (104.2a); False when no one lost (the game went on)."""
    staying = [lost[p.name] for p in state.players if not p.left and not p.lost]
    lits = [x for x in staying if not isinstance(x, bool)]
    if not lits:
        return sum(1 for x in staying if x is False) <= 1 and any(x is True for x in staying)
    return _at_most(m, sum(1 for x in staying if x is False) + len(lits) - sum(lits), 1)


def _build(plan: _Plan, cp: Any, deadline: Deadline | None = None) -> _Built:
    """The CP model of the planned batch. Raises :class:`LimitReached` when ``deadline`` passes."""
    m = cp.CpModel()
    table, state = plan.table, plan.state
    big = 1
    pairs = {(tr.source, tr.player) for tr in plan.triggers}
    groups: dict[Any, list[int]] = {}
    group_rows: dict[Any, list[Rows]] = {}
    units: list[_Unit] = []
    tabled: dict[tuple[Any, ...], Rows | None] = {}
    memos: dict[tuple[str, ...], tables.Memo] = {}  # events with the same effects share what follows an amount
    picks, dealt, declared = _assignments(m, plan)
    for e, pe in enumerate(plan.events):
        if deadline is not None:
            deadline.check(_BUILDING)
        big += _upper(pe.ev.amount, pe.effects)
        _fits(big)
        if pe.tree is not None:  # a redirection applies: a table of its tree's results (614.9)
            unit = _encode_tree(m, plan, pe, e, dealt.get((pe.ev.source, pe.ev.recipient), pe.ev.amount))
            big += max(sum(row[1:1 + len(pe.tree.columns)]) for row in pe.tree.rows)
            units.append(unit)
            continue
        if pe.assigned:  # its amount is a division choice: the slot encoding takes a variable amount
            amount = dealt[(pe.ev.source, pe.ev.recipient)]
            units.append(_encode_blocks(m, plan, pe, e, _upper(pe.ev.amount, pe.effects), amount))
            continue
        same = (pe.ev.amount, tuple(i.key for i in pe.effects))  # identical events have the same results
        if same not in tabled:
            tabled[same] = tables._results(plan, pe, deadline=deadline, memo=memos.setdefault(same[1], {}))
        rows = tabled[same]
        if rows is None:
            units.append(_encode_blocks(m, plan, pe, e, _upper(pe.ev.amount, pe.effects)))
            continue
        # events whose results only matter through their sum share a table (CR 120.3, 702.15e)
        src, rcp = pe.ev.source, pe.ev.recipient
        link: Any = controller_of(state, table, src) if has_keyword(state, table, src, "lifelink") else None
        if link is not None and gain_replacements(state, table, link, src):
            link = (link, src)  # its gain is its own event, modified (702.15e, 119.10): not summed with others'
        # Two events are summed only when their results are the same (120.3, results.event_results:
        # which parts, for whom, per point; infect, wither, deathtouch and as_though included;
        # lifelink's controller is ``link``). Each source's damage is its own when triggers read
        # it per source (603.2), when the rules engine continues after the step (solver.cp.suffix),
        # and when a result counts once per event dealt (toxic's poison, 120.3g, which a sum can't
        # tell; deathtouch's flag is one either way)
        results = event_results(state, table, Event(src, rcp, 1, pe.ev.combat))
        counted = any(r.once for r in results if r.part is not Part.DEATHTOUCHED)
        shape = tuple((r.part, r.who, r.per_point, r.once) for r in results if r.part is not Part.LIFELINK)
        sig = (rcp, link, shape, (src, pe.ev.combat) if (src, rcp) in pairs or plan.suffix or counted else None)
        groups.setdefault(sig, []).append(e)
        group_rows.setdefault(sig, []).append(rows)
    for memo in memos.values():  # freed now: tables._results' recursive closure holds it in a cycle
        memo.clear()
    if groups:
        units.extend(_encode_tables(m, plan, list(groups.values()), list(group_rows.values()), deadline))
    if deadline is not None:
        deadline.check(_BUILDING)
    _greedy_hint(m, plan, units)
    prevented: dict[str, list[Any]] = {}
    for unit in units:
        for key, amount in [*unit.shares.items(), *unit.prevented.items()]:
            prevented.setdefault(key, []).append(amount)
    outputs: dict[str, tuple[str, Any]] = {}
    # 615.7: a shield prevents as much as it can, min(remaining, damage where it was applied):
    # either it is used up, or it took all it was offered at every event it was applied to
    # (a table settles this itself for the shields applied to its events alone: no flag then)
    totals: dict[str, Any] = {}
    for key, r in plan.shields.items():
        if not any(key in u.shares for u in units):
            continue
        total = sum(u.shares[key] for u in units if key in u.shares)
        if not _is_const(total):
            m.add(total <= r)
            totals[key] = total
        outputs[f"{key}.remaining"] = ("int", r - total)
        fulls = [u.full[key] for u in units if key in u.full]
        used_up = _at_least(m, total, r) if fulls else True
        for full in fulls:
            lits = [lit for lit in (full, used_up) if lit is not False]
            if not any(lit is True for lit in lits):
                m.add_bool_or(lits)
    _shield_bounds(m, plan, units, totals)
    # a one-instance shield is used up once it prevented damage (615.8; solver.damage.apply_effect)
    for key in sorted(plan.once):
        if key in prevented:
            outputs[f"{key}.remaining"] = ("int", 1 - _at_least(m, sum(prevented[key]), 1))
    # results (120.3, 120.4c); lifelink is one life-gain event per source (702.15e)
    loss: dict[str, list[Any]] = {}
    gain: dict[str, list[Any]] = {}
    poison: dict[str, list[Any]] = {}
    taken: dict[str, list[Any]] = {}
    drawn: dict[str, list[Any]] = {}
    marked: dict[str, list[Any]] = {}
    counters: dict[str, list[Any]] = {}
    deathtouch: dict[str, list[Any]] = {}
    loyalty: dict[str, list[Any]] = {}
    defense: dict[str, list[Any]] = {}
    combat_to: dict[tuple[str, str], list[Any]] = {}

    buckets = {Part.DAMAGE_TAKEN: taken, Part.LIFE_LOSS: loss, Part.POISON: poison, Part.MARKED: marked,
               Part.MINUS_COUNTERS: counters, Part.DEATHTOUCHED: deathtouch, Part.LOYALTY_LOSS: loyalty,
               Part.DEFENSE_LOSS: defense}

    linked: dict[tuple[str, str], list[Any]] = {}  # (source, its controller) -> lifelink gain (702.15e)
    batch_loss: dict[str, list[Any]] = {}  # the step's own batch's life loss (a floor's, solver.results.deal)
    floor_gain: dict[str, list[Any]] = {}  # its riders' life gain for their controller (the same event)

    by_pair: dict[tuple[str, str, str, bool], list[Any]] = {}  # (batch, source, recipient, combat) -> damage

    def hit(source: str, recipient: str, amount: Any, combat: bool, batch: bool = False, tag: str = "") -> None:
        """The results of one event of ``amount`` damage (120.3): the parts results.event_results
        names, on the model's variables (a part's ``once`` counts only if damage is dealt).
        ``tag`` names the batch (the step's own: "", a rider's: its effect's key)."""
        by_pair.setdefault((tag, source, recipient, combat), []).append(amount)
        dealt: Any = None
        for r in event_results(state, table, Event(source, recipient, 1, combat)):
            value = r.per_point * amount
            if r.once:
                if dealt is None:
                    dealt = _at_least(m, amount, 1)
                value = value + r.once * dealt
            if r.part is Part.COMBAT_TO_PLAYER:
                combat_to.setdefault((source, r.who), []).append(value)
            elif r.part is Part.LIFELINK:
                if r.who not in plan.cant_gain:
                    linked.setdefault((source, r.who), []).append(value)
            elif r.part is Part.LIFE_LOSS and batch:
                batch_loss.setdefault(r.who, []).append(value)
            else:
                buckets[r.part].setdefault(r.who, []).append(value)

    for unit in units:
        if unit.hits is not None:  # each final event of a redirected one, to its recipient
            for e, recipient, amount in unit.hits:
                ev = plan.events[e].ev
                hit(ev.source, recipient, amount, ev.combat, True)  # the batch's own event (a floor applies)
            continue
        for e, amount in unit.dealt or [(unit.events[0], unit.final)]:
            ev = plan.events[e].ev
            hit(ev.source, ev.recipient, amount, ev.combat, True)
    gains = _gain_events(m, plan, linked, gain, big)
    # riders happen right after the prevention, before state-based actions (615.5)
    plus_ops: dict[str, list[tuple[str, Any]]] = {}  # permanent -> +1/+1 counters put or removed, in order
    minus_ops: dict[str, list[Any]] = {}  # permanent -> -1/-1 counters riders put
    # damage put as counters instead (614.1a) goes on as the batch is dealt (solver.results.deal)
    for key, (pid, counter) in sorted(plan.to_counters.items()):
        if key in prevented and counter == "-1/-1":
            minus_ops.setdefault(pid, []).append(sum(prevented[key]))
        elif key in prevented:
            plus_ops.setdefault(pid, []).append(("put_counters", sum(prevented[key])))
    dealt_bound = big  # what the batch's events can deal: no rider prevents more (615.5)
    for rd in plan.riders:
        done = sum(prevented.get(rd.key, []))
        # a * prevented + b * that_damage + c, when it takes place (solver.damage._rider_happens):
        # that damage is what it prevented and what it would have prevented where the damage
        # can't be (615.12; those events are constants, solver.cp.riders._applied_unpreventable)
        a, const = rd.amount
        coef, const = a + rd.that, const + rd.that * sum(w for _, w in rd.noops)
        if rd.always and rd.noops:  # applied to damage that can't be prevented: it takes place (615.12)
            then: Any = coef * done + const
        elif const:
            pos = m.new_bool_var(f"rp_{rd.key}")
            m.add(done >= 1).only_enforce_if(pos)
            m.add(done == 0).only_enforce_if(~pos)
            then = coef * done + const * pos
        else:
            then = coef * done
        bound = dealt_bound * max(coef, 1) + const  # (not the riders' before it: 60 riders made 2^60)
        big += bound
        _fits(big)
        rules = dict(rd.modified)
        for who in rd.recipients:
            if rd.kind == ActionKind.DEAL:
                dealt = then
                if who in rules:  # the rider's own event, modified by its one effect
                    dealt = m.new_int_var(0, rules[who].upper(bound), f"rd_{rd.key}_{who}")
                    rules[who].encode(m, then, dealt, f"rd_{rd.key}_{who}")
                    big += rules[who].upper(bound)
                hit(rd.source, who, dealt, False, tag=rd.key)
                for (_src, ctrl), values in linked.items():  # (a rider's own lifelink: no replacement in force)
                    gain.setdefault(ctrl, []).extend(values)
                linked.clear()
            elif rd.kind == ActionKind.PUT_COUNTERS and rd.counter == "-1/-1":
                minus_ops.setdefault(who, []).append(then)  # its own event (solver.results.put_counters)
            elif rd.kind in (ActionKind.PUT_COUNTERS, ActionKind.REMOVE_COUNTERS):
                plus_ops.setdefault(who, []).append((rd.kind, then))
            elif rd.kind == ActionKind.LOSE_LIFE:
                loss.setdefault(who, []).append(then)
            elif rd.kind == ActionKind.GAIN_LIFE:
                if who not in plan.cant_gain:
                    gain.setdefault(who, []).append(then)
                if rd.own_gain:
                    floor_gain.setdefault(who, []).append(then)
            else:
                drawn.setdefault(who, []).append(then)
    for name in sorted(batch_loss):
        n = sum(batch_loss[name])
        if name in plan.floors:  # solver.results.floored_loss: n below the floor, else min(n, room)
            room = state.player(name).life + sum(floor_gain.get(name, [])) - plan.floors[name]
            if _is_const(n) and _is_const(room):
                n = floored_loss(int(n), int(room))
            else:
                below = _at_most(m, room, -1)  # already below the floor: it doesn't apply
                if below is not True:
                    capped = m.new_int_var(0, big, f"floored_{name}")
                    m.add_min_equality(capped, [n, _floor0(m, room, big + abs(state.player(name).life), f"room_{name}")])
                    if below is False:
                        n = capped
                    else:
                        kept = m.new_int_var(0, big, f"kept_{name}")
                        m.add(kept == n).only_enforce_if(below)
                        m.add(kept == capped).only_enforce_if(~below)
                        n = kept
        loss.setdefault(name, []).append(n)
    for name in plan.cant_lose:  # 119.8: the loss doesn't happen (solver.results.change_life)
        loss.pop(name, None)
    combat_sum = {k: sum(v) for k, v in combat_to.items()}
    lost: dict[str, Any] = {}
    at_check: dict[str, Any] = {}
    two_headed = plan.table.two_headed
    for p in state.players:
        # 810.9: each player's damage, life loss and gain are applied to the team's shared total
        team = [q.name for q in state.players if q.team == p.team] if two_headed and p.team is not None else [p.name]
        base_life = plan.base[f"{p.name}.life"]
        life = base_life - sum(x for q in team for x in loss.get(q, [])) + sum(x for q in team for x in gain.get(q, []))
        pois = plan.base[f"{p.name}.poison"] + sum(x for q in team for x in poison.get(q, []))
        outputs[f"{p.name}.life"] = ("int", life)
        at_check[p.name] = life  # (what a life condition reads at the check, 704.3: solver.cp.lifept)
        outputs[f"{p.name}.poison"] = ("int", pois)
        outputs[f"{p.name}.life_lost"] = ("int", plan.base[f"{p.name}.life_lost"] + sum(loss.get(p.name, [])))
        outputs[f"{p.name}.life_gained"] = ("int", plan.base[f"{p.name}.life_gained"] + sum(gain.get(p.name, [])))
        outputs[f"{p.name}.damage_taken"] = ("int", plan.base[f"{p.name}.damage_taken"] + sum(taken.get(p.name, [])))
        # 704.5a, 704.5c (solver.sba's player_loses, in its constraint form)
        lost[p.name] = True if p.lost else False if p.name in plan.unbeaten else \
            loss_literal(m, _at_most, _at_least, _either, life, pois, two_headed, p.name in plan.no_loss)
        outputs[f"{p.name}.lost"] = ("bool", lost[p.name])
        if p.team is not None:
            outputs[f"team{p.team}.life"] = ("int", life)
            outputs[f"team{p.team}.poison"] = ("int", pois)
    # draw triggers resolve after state-based actions; a player who left draws nothing (800.4a),
    # and after a player loses a two-player game nothing resolves at all (104.2a, engine.game_over)
    # (a multiplayer game is over once at most one player is left in it, 104.2a, 104.4a:
    # solver.sba.last_standing)
    over = _last_standing(m, state, lost) if plan.multiplayer else _either(m, list(lost.values()))
    late_gain: dict[str, list[Any]] = {}  # life gained as triggers resolve, after the check (615.13)
    fired: list[Any] = []  # the amount each trigger reads (it triggers when at least 1)
    for tr in plan.triggers:
        # what the watched prevention effect prevented across the batch (615.13), or the combat
        # damage the source dealt the player (510.3a)
        dealt = sum(prevented.get(tr.prevention, [])) if tr.prevention is not None else combat_sum.get((tr.source, tr.player), 0)
        fired.append(dealt)
        fire = _at_least(m, dealt, 1)
        into = drawn if tr.kind == ActionKind.DRAW else late_gain
        coef, const = tr.amount
        amount = coef * dealt + (const * fire if not _is_const(fire) else const * int(fire))
        # a trigger whose controller lost a multiplayer game ceases to exist with them (800.4a)
        ctrl_left = lost.get(tr.controller, False) if plan.multiplayer else False
        for q in tr.who:
            if tr.kind == ActionKind.GAIN_LIFE and q in plan.cant_gain:
                continue  # 119.7 (solver.results.gain_life)
            left = _either(m, [lost[q], ctrl_left, over]) if plan.multiplayer else over
            if _is_const(left) and not left:
                into.setdefault(q, []).append(amount)
            elif not _is_const(left):
                z = m.new_int_var(0, big * max(coef, 1) + const, f"{tr.kind}_{tr.watcher}_{q}")
                m.add(z == amount).only_enforce_if(~left)
                m.add(z == 0).only_enforce_if(left)
                into.setdefault(q, []).append(z)
    for p in state.players:
        outputs[f"{p.name}.cards_drawn"] = ("int", plan.base[f"{p.name}.cards_drawn"] + sum(drawn.get(p.name, [])))
        if late_gain:  # 810.9: a team's shared total
            team = [q.name for q in state.players if q.team == p.team] if two_headed and p.team is not None else [p.name]
            more = sum(x for q in team for x in late_gain.get(q, []))
            outputs[f"{p.name}.life"] = ("int", outputs[f"{p.name}.life"][1] + more)
            outputs[f"{p.name}.life_gained"] = ("int", outputs[f"{p.name}.life_gained"][1] + sum(late_gain.get(p.name, [])))
            if p.team is not None:
                outputs[f"team{p.team}.life"] = outputs[f"{p.name}.life"]
    # creatures: marked damage, -1/-1 counters, and dying (704.5f, 704.5g, 704.5h); planeswalkers
    # and battles: loyalty and defense removed (120.3c, 120.3h), and dying at 0 (704.5i, 704.5v)
    # a permanent already lethally damaged as the step begins (an earlier instruction of the same
    # resolution dealt it damage: no state-based action in between, 608.2c, 704.3) dies at the
    # step's check too
    doomed = {p.id for p in state.perms if p.present and not plan.base.get(f"{p.id}.dies") and sba_dies(table, p, state)}
    conditioned = reached(state, table)  # toughness with a life condition (solver.cp.lifept)
    for cid in sorted(set(marked) | set(counters) | set(deathtouch) | set(loyalty) | set(defense) | set(plus_ops) | set(minus_ops)
                      | doomed | conditioned):
        perm = state.perm(cid)
        assert perm is not None
        # +1/+1 counters put and removed by riders, in their order (solver.results.put_counters,
        # remove_counters: never below none); the toughness thresholds count them (613.4c)
        plus: Any = perm.counter("+1/+1")
        for kind, n in plus_ops.get(cid, []):
            if kind == ActionKind.PUT_COUNTERS:
                plus = plus + n
            else:
                plus = _floor0(m, plus - n, big + perm.counter("+1/+1"), f"plus_{cid}")
        if cid in plus_ops:
            outputs[f"{cid}.counters.+1/+1"] = ("opt" if "+1/+1" not in dict(perm.counters) else "int", plus)
        grown = plus - perm.counter("+1/+1")
        dmg = perm.damage + sum(marked.get(cid, []))
        put: Any = sum(counters.get(cid, []))  # one event per permanent (solver.results.deal)
        if plan.fewer.get(cid):  # Vizier of Remedies: max(0, n - k) (results.fewer_counters)
            put = _floor0(m, put - plan.fewer[cid], big, f"fewer_{cid}")
        minus = perm.counter("-1/-1") + put + sum(minus_ops.get(cid, []))
        outputs[f"{cid}.damage"] = ("int", dmg)
        if cid in counters or cid in minus_ops or "-1/-1" in dict(perm.counters):
            outputs[f"{cid}.counters.-1/-1"] = ("opt" if "-1/-1" not in dict(perm.counters) else "int", minus)
        have = {Part.MARKED: dmg, Part.MINUS_COUNTERS: minus,
                Part.DEATHTOUCHED: int(perm.deathtouched) + sum(deathtouch.get(cid, []))}
        # (a planeswalker or battle doomed as the step begins can't be saved by it; a creature's
        # thresholds below read the counters the step may put on it)
        early = cid in doomed and "creature" not in table.perm_specs[perm.spec].types
        shift, now = toughness_shift(m, state, table, perm, at_check) if cid in conditioned else (0, 0)
        reasons = [bool(plan.base[f"{cid}.dies"]) or early] + [  # the graph engine's rule: sba.lethal
            _at_least(m, sum(have[p] for p in th.parts) - (grown + shift if th.toughness else 0), th.at_least - (now if th.toughness else 0))
            for th in lethal_thresholds(table, perm, state)]
        if cid in loyalty:
            left = _floor0(m, perm.loyalty - sum(loyalty[cid]), perm.loyalty, f"loyalty_{cid}")
            outputs[f"{cid}.loyalty"] = ("int", left)
            reasons.append(_at_most(m, left, 0))
        if cid in defense:
            left = _floor0(m, perm.defense - sum(defense[cid]), perm.defense, f"defense_{cid}")
            outputs[f"{cid}.defense"] = ("int", left)
            reasons.append(_at_most(m, left, 0))
        outputs[f"{cid}.dies"] = ("bool", _either(m, reasons))
    # 704.5m: an Aura on a creature that dies goes to its owner's graveyard at the next check,
    # unless the game ended at this one (104.2a; a multiplayer game with Auras is declined by
    # solver.cp.plan); an Equipment only becomes unattached (704.5n), which no field shows
    for aura in state.perms:
        host = aura.attached_to
        if not aura.present or host is None or attachment_kind(table, aura) != "aura" or f"{host}.dies" not in outputs:
            continue
        gone = _and_not(m, outputs[f"{host}.dies"][1], over)
        before = outputs.get(f"{aura.id}.dies", ("bool", bool(plan.base[f"{aura.id}.dies"])))[1]
        outputs[f"{aura.id}.dies"] = ("bool", _either(m, [before, gone]))
    bound = big * 4 + sum(abs(v) for v in plan.base.values() if isinstance(v, int)) + 16
    # every other variable is a function of the tables' rows (docs/design.md): at most their product
    solutions = None if any(u.slots is not None for u in units) or any(len(p) > 1 for p in picks) else \
        math.prod(len(u.top) for u in units)
    hidden = _state_after(m, plan, by_pair, prevented, deathtouch, gains) if plan.suffix else {}
    built = _Built(m, units, combat_sum, outputs, bound, picks, over, solutions, gains, fired, hidden)
    if plan.blocks is not None:  # what the witness reads of the declaration and the divisions
        built.declared, built.divided = declared, dealt
    return built


def _state_after(m: Any, plan: _Plan, by_pair: dict[tuple[str, str, str, bool], list[Any]],
                 prevented: dict[str, list[Any]], deathtouch: dict[str, list[Any]],
                 gains: list[Any]) -> dict[str, tuple[str, Any]]:
    """What, beside the outputs, the state after the step is made of, when the rules engine
    continues from it (solver.cp.suffix): the damage of each batch (the step's, each rider's)
    per source, recipient and combat or not (what deals_damage, dealt_damage and combat damage
    triggers read, 603.2, 603.10, solver.results.deal), what each prevention prevented (its
    rider's amount, 615.5; a next-time prevention used up, 615.8), which permanents were dealt
    damage by a deathtouch source (702.2b: read again at later checks), and each life-gain
    event's amount after its replacements (616.1; gain_life triggers read it). Two solutions
    that agree on these and on the outputs reach the same state (solver.cp.search enumerates
    solutions distinct on both)."""
    hidden: dict[str, tuple[str, Any]] = {}
    for (tag, src, rcp, combat), values in sorted(by_pair.items()):
        hidden[f"dealt:{tag}:{src}>{rcp}:{int(combat)}"] = ("int", sum(values))
    for key, values in sorted(prevented.items()):
        hidden[f"prevented:{key}"] = ("int", sum(values))
    for cid, values in sorted(deathtouch.items()):
        perm = plan.state.perm(cid)
        assert perm is not None
        hidden[f"deathtouched:{cid}"] = ("bool", _at_least(m, int(perm.deathtouched) + sum(values), 1))
    for who, src, _total, _keys, orders in gains:
        for order, lit in orders:
            hidden[f"gain_order:{src}>{who}:{''.join(map(str, order))}"] = ("bool", lit)
    return hidden


def _gain_events(m: Any, plan: _Plan, linked: dict[tuple[str, str], list[Any]], gain: dict[str, list[Any]],
                 big: int) -> list[tuple[str, str, Any, tuple[str, ...], list[tuple[tuple[int, ...], Any]]]]:
    """Lifelink's gain, one event per source (702.15e), into ``gain``; an event that life-gain
    replacement effects modify (solver.results.gain_replacements) gets one literal per order of
    them, the gaining player's choice (616.1), each applied by its rule (results.gain_rule; 0
    stays 0: gaining 0 is no event, 119.9). In sorted (source, player) order, as the graph asks."""
    out = []
    for (src, who), values in sorted(linked.items()):
        total = sum(values)
        reps = gain_replacements(plan.state, plan.table, who, src)
        if not reps:
            gain.setdefault(who, []).append(total)
            continue
        rules = [gain_rule(i) for i in reps]
        hi = big
        for r in sorted(rules, key=lambda r: isinstance(r, Multiply)):
            hi = r.upper(hi)
        final = m.new_int_var(0, hi, f"gain_{src}_{who}")
        orders = []
        for order in permutations(range(len(reps))):
            lit = m.new_bool_var(f"gorder_{src}_{who}_{''.join(map(str, order))}")
            now: Any = m.new_constant(int(total)) if _is_const(total) else total
            for k in order:
                nxt = m.new_int_var(0, hi, "")
                rules[k].encode(m, now, nxt, f"g{src}{who}{k}")
                now = nxt
            m.add(final == now).only_enforce_if(lit)
            orders.append((order, lit))
        m.add_exactly_one([lit for _, lit in orders])
        gain.setdefault(who, []).append(final)
        out.append((who, src, total, tuple(i.key for i in reps), orders))
    linked.clear()
    return out


def _shield_bounds(m: Any, plan: _Plan, units: list[_Unit], totals: dict[str, Any]) -> None:
    """What the rules imply of the shields' totals (``totals``: what each prevented), said for
    the relaxation (solver.cp.step._shortfall): what the shields with the same events can keep
    between them; and keeping any ends each of those events at 0 (615.7), so ``short * hit +
    most * kept <= most * short``, ``hit`` the damage of the units holding only those events
    and ``most`` the most it can be."""
    for members, events, short in shield_groups(plan, list(totals)):
        kept = sum(plan.shields[k] for k in members) - sum(totals[k] for k in members)
        m.add(kept <= short)
        inside = [u for u in units if u.hits is None and u.events and set(u.events) <= events]
        hit = sum(sum(d for _, d in u.dealt) if u.dealt else u.final for u in inside)
        most = sum(_upper(plan.events[e].ev.amount, plan.events[e].effects) for u in inside for e in u.events)
        if short > 0 and most > 0 and not _is_const(hit):
            m.add(short * hit + most * kept <= most * short)
