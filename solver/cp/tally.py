"""What the step's damage does, on the CP model's variables: the results of each event (CR 120.3,
solver.results.event_results), lifelink's gain events (702.15e, 616.1), the riders of the
preventions (615.5) and a floor on a player's life loss (solver.results.floored_loss), summed
per player and per permanent in a :class:`Tally` that solver.cp.checks then reads (the players'
totals, 704.5a/c, 810.9; the permanents' deaths, 704.5f-v; triggers, 603)."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from typing import TYPE_CHECKING

from mtg_outcomes.model.kinds import ActionKind

from ..results import Part, event_results, floored_loss, gain_replacements, gain_rule
from ..rules.amounts import Multiply
from ..state import Event
from .bounds import fits as _fits
from .literals import at_least, at_most, floor0
from .step import PlannedRider, StepPlan
from .tables import is_const
from .units import Unit

if TYPE_CHECKING:
    from .cptypes import Expr, Lit, Model
    from .units import GainEvent, Output

Sums = dict[str, list["Expr"]]  # a player or permanent -> the amounts summed into one of its fields


@dataclass
class Tally:
    """The step's results as the model builds them: per part of 120.3 (solver.results.Part), the
    amounts each player or permanent gets, and ``big``, a bound on every amount so far (the
    variables' domains, solver.cp.bounds)."""

    m: Model
    plan: StepPlan
    big: int
    prevented: Sums  # each prevention's (a shield's share, a tracked prevention's) amounts
    loss: Sums = field(default_factory=dict)
    gain: Sums = field(default_factory=dict)
    poison: Sums = field(default_factory=dict)
    taken: Sums = field(default_factory=dict)
    drawn: Sums = field(default_factory=dict)
    marked: Sums = field(default_factory=dict)
    counters: Sums = field(default_factory=dict)
    deathtouch: Sums = field(default_factory=dict)
    loyalty: Sums = field(default_factory=dict)
    defense: Sums = field(default_factory=dict)
    combat_to: dict[tuple[str, str], list[Expr]] = field(default_factory=dict)
    linked: dict[tuple[str, str], list[Expr]] = field(default_factory=dict)  # (source, its controller) -> lifelink gain (702.15e)
    batch_loss: Sums = field(default_factory=dict)  # the step's own batch's life loss (a floor's, solver.results.deal)
    floor_gain: Sums = field(default_factory=dict)  # its riders' life gain for their controller (the same event)
    by_pair: dict[tuple[str, str, str, bool], list[Expr]] = field(default_factory=dict)  # (batch, source, recipient, combat) -> damage
    plus_ops: dict[str, list[tuple[str, Expr]]] = field(default_factory=dict)  # permanent -> +1/+1 counters put or removed, in order
    minus_ops: Sums = field(default_factory=dict)  # permanent -> -1/-1 counters riders put
    at_check: dict[str, Expr] = field(default_factory=dict)  # each player's life at the check (704.3: solver.cp.lifept)

    def bucket(self, part: Part) -> Sums:
        return {Part.DAMAGE_TAKEN: self.taken, Part.LIFE_LOSS: self.loss, Part.POISON: self.poison, Part.MARKED: self.marked,
                Part.MINUS_COUNTERS: self.counters, Part.DEATHTOUCHED: self.deathtouch, Part.LOYALTY_LOSS: self.loyalty,
                Part.DEFENSE_LOSS: self.defense}[part]

    def hit(self, source: str, recipient: str, amount: Expr, combat: bool, batch: bool = False, tag: str = "") -> None:
        """The results of one event of ``amount`` damage (120.3): the parts results.event_results
        names, on the model's variables (a part's ``once`` counts only if damage is dealt).
        ``tag`` names the batch (the step's own: "", a rider's: its effect's key)."""
        plan = self.plan
        self.by_pair.setdefault((tag, source, recipient, combat), []).append(amount)
        dealt: Lit | None = None
        for r in event_results(plan.state, plan.table, Event(source, recipient, 1, combat)):
            value = r.per_point * amount
            if r.once:
                if dealt is None:
                    dealt = at_least(self.m, amount, 1)
                value = value + r.once * dealt
            if r.part is Part.COMBAT_TO_PLAYER:
                self.combat_to.setdefault((source, r.who), []).append(value)
            elif r.part is Part.LIFELINK:
                if r.who not in plan.cant_gain:
                    self.linked.setdefault((source, r.who), []).append(value)
            elif r.part is Part.LIFE_LOSS and batch:
                self.batch_loss.setdefault(r.who, []).append(value)
            else:
                self.bucket(r.part).setdefault(r.who, []).append(value)


def batch_results(t: Tally, units: list[Unit]) -> None:
    """The results of the step's own batch (120.3): each event's final damage, to its recipient
    (a redirected event's, to each final recipient, 614.9)."""
    for unit in units:
        if unit.hits is not None:  # each final event of a redirected one, to its recipient
            for e, recipient, amount in unit.hits:
                ev = t.plan.events[e].ev
                t.hit(ev.source, recipient, amount, ev.combat, True)  # the batch's own event (a floor applies)
            continue
        for e, amount in unit.dealt or [(unit.events[0], unit.final)]:
            ev = t.plan.events[e].ev
            t.hit(ev.source, ev.recipient, amount, ev.combat, True)


def gain_events(t: Tally) -> list[GainEvent]:
    """Lifelink's gain, one event per source (702.15e), into ``t.gain``; an event that life-gain
    replacement effects modify (solver.results.gain_replacements) gets one literal per order of
    them, the gaining player's choice (616.1), each applied by its rule (results.gain_rule; 0
    stays 0: gaining 0 is no event, 119.9). In sorted (source, player) order, as the graph asks."""
    m, plan = t.m, t.plan
    out = []
    for (src, who), values in sorted(t.linked.items()):
        total = sum(values)
        reps = gain_replacements(plan.state, plan.table, who, src)
        if not reps:
            t.gain.setdefault(who, []).append(total)
            continue
        rules = [gain_rule(i) for i in reps]
        hi = t.big
        for r in sorted(rules, key=lambda r: isinstance(r, Multiply)):
            hi = r.upper(hi)
        final = m.new_int_var(0, hi, f"gain_{src}_{who}")
        orders: list[tuple[tuple[int, ...], Lit]] = []
        for order in permutations(range(len(reps))):
            lit = m.new_bool_var(f"gorder_{src}_{who}_{''.join(map(str, order))}")
            now: Expr = m.new_constant(int(total)) if is_const(total) else total
            for k in order:
                nxt = m.new_int_var(0, hi, "")
                rules[k].encode(m, now, nxt, f"g{src}{who}{k}")
                now = nxt
            m.add(final == now).only_enforce_if(lit)
            orders.append((order, lit))
        m.add_exactly_one([lit for _, lit in orders])
        t.gain.setdefault(who, []).append(final)
        out.append((who, src, total, tuple(i.key for i in reps), orders))
    t.linked.clear()
    return out


def counters_instead(t: Tally) -> None:
    """Damage put as counters instead (614.1a) goes on as the batch is dealt (solver.results.deal)."""
    for key, (pid, counter) in sorted(t.plan.to_counters.items()):
        if key in t.prevented and counter == "-1/-1":
            t.minus_ops.setdefault(pid, []).append(sum(t.prevented[key]))
        elif key in t.prevented:
            t.plus_ops.setdefault(pid, []).append(("put_counters", sum(t.prevented[key])))


def _rider_amount(t: Tally, rd: PlannedRider) -> tuple[Expr, int, int]:
    """A rider's amount as it takes place (615.5): ``a * prevented + b * that_damage + c`` when
    it does (solver.damage._rider_happens), with its coefficient on what was prevented and its
    constant. That damage is what it prevented and what it would have prevented where the damage
    can't be (615.12; those events are constants, solver.cp.riders.applied_unpreventable)."""
    m = t.m
    done = sum(t.prevented.get(rd.key, []))
    a, const = rd.amount
    coef, const = a + rd.that, const + rd.that * sum(w for _, w in rd.noops)
    if rd.always and rd.noops:  # applied to damage that can't be prevented: it takes place (615.12)
        then: Expr = coef * done + const
    elif const:
        pos = m.new_bool_var(f"rp_{rd.key}")
        m.add(done >= 1).only_enforce_if(pos)
        m.add(done == 0).only_enforce_if(~pos)
        then = coef * done + const * pos
    else:
        then = coef * done
    return then, coef, const


def riders(t: Tally) -> None:
    """Each prevention's rider (615.5), right after the prevention, before state-based actions:
    damage (its own event, modified by its one effect), counters, life lost or gained, cards."""
    m, plan = t.m, t.plan
    dealt_bound = t.big  # what the batch's events can deal: no rider prevents more (615.5)
    for rd in plan.riders:
        then, coef, const = _rider_amount(t, rd)
        bound = dealt_bound * max(coef, 1) + const  # (not the riders' before it: 60 riders made 2^60)
        t.big += bound
        _fits(t.big)
        rules = dict(rd.modified)
        for who in rd.recipients:
            if rd.kind == ActionKind.DEAL:
                to_who = then
                if who in rules:  # the rider's own event, modified by its one effect
                    to_who = m.new_int_var(0, rules[who].upper(bound), f"rd_{rd.key}_{who}")
                    rules[who].encode(m, then, to_who, f"rd_{rd.key}_{who}")
                    t.big += rules[who].upper(bound)
                t.hit(rd.source, who, to_who, False, tag=rd.key)
                for (_src, ctrl), values in t.linked.items():  # (a rider's own lifelink: no replacement in force)
                    t.gain.setdefault(ctrl, []).extend(values)
                t.linked.clear()
            elif rd.kind == ActionKind.PUT_COUNTERS and rd.counter == "-1/-1":
                t.minus_ops.setdefault(who, []).append(then)  # its own event (solver.results.put_counters)
            elif rd.kind in (ActionKind.PUT_COUNTERS, ActionKind.REMOVE_COUNTERS):
                t.plus_ops.setdefault(who, []).append((rd.kind, then))
            elif rd.kind == ActionKind.LOSE_LIFE:
                t.loss.setdefault(who, []).append(then)
            elif rd.kind == ActionKind.GAIN_LIFE:
                if who not in plan.cant_gain:
                    t.gain.setdefault(who, []).append(then)
                if rd.own_gain:
                    t.floor_gain.setdefault(who, []).append(then)
            else:
                t.drawn.setdefault(who, []).append(then)


def floored_losses(t: Tally) -> None:
    """The batch's life loss of each player, past a floor on it when one applies
    (solver.results.floored_loss: all of it when the life is already below the floor, else at
    most the room above it), into ``t.loss``; 119.8: a player who can't lose life loses none."""
    m, plan = t.m, t.plan
    for name in sorted(t.batch_loss):
        n = sum(t.batch_loss[name])
        if name in plan.floors:  # solver.results.floored_loss: n below the floor, else min(n, room)
            room = plan.state.player(name).life + sum(t.floor_gain.get(name, [])) - plan.floors[name]
            if is_const(n) and is_const(room):
                n = floored_loss(int(n), int(room))
            else:
                below = at_most(m, room, -1)  # already below the floor: it doesn't apply
                if below is not True:
                    capped = m.new_int_var(0, t.big, f"floored_{name}")
                    m.add_min_equality(capped, [n, floor0(m, room, t.big + abs(plan.state.player(name).life), f"room_{name}")])
                    if below is False:
                        n = capped
                    else:
                        kept = m.new_int_var(0, t.big, f"kept_{name}")
                        m.add(kept == n).only_enforce_if(below)
                        m.add(kept == capped).only_enforce_if(~below)
                        n = kept
        t.loss.setdefault(name, []).append(n)
    for name in plan.cant_lose:  # 119.8: the loss doesn't happen (solver.results.change_life)
        t.loss.pop(name, None)


def state_after(t: Tally, gains: list[GainEvent]) -> dict[str, Output]:
    """What, beside the outputs, the state after the step is made of, when the rules engine
    continues from it (solver.cp.suffix): the damage of each batch (the step's, each rider's)
    per source, recipient and combat or not (what deals_damage, dealt_damage and combat damage
    triggers read, 603.2, 603.10, solver.results.deal), what each prevention prevented (its
    rider's amount, 615.5; a next-time prevention used up, 615.8), which permanents were dealt
    damage by a deathtouch source (702.2b: read again at later checks), and each life-gain
    event's amount after its replacements (616.1; gain_life triggers read it). Two solutions
    that agree on these and on the outputs reach the same state (solver.cp.search enumerates
    solutions distinct on both)."""
    hidden: dict[str, Output] = {}
    for (tag, src, rcp, combat), values in sorted(t.by_pair.items()):
        hidden[f"dealt:{tag}:{src}>{rcp}:{int(combat)}"] = ("int", sum(values))
    for key, values in sorted(t.prevented.items()):
        hidden[f"prevented:{key}"] = ("int", sum(values))
    for cid, values in sorted(t.deathtouch.items()):
        perm = t.plan.state.perm(cid)
        assert perm is not None
        hidden[f"deathtouched:{cid}"] = ("bool", at_least(t.m, int(perm.deathtouched) + sum(values), 1))
    for who, src, _total, _keys, orders in gains:
        for order, lit in orders:
            hidden[f"gain_order:{src}>{who}:{''.join(map(str, order))}"] = ("bool", lit)
    return hidden
