"""The step's state-based check and what resolves after it, on the CP model's variables: each
player's totals and whether they lose (CR 810.9, 704.5a, 704.5c: solver.rules.team,
solver.rules.loss), whether the game is over (104.2a), the triggers that draw or gain life after
the check (603.3b, 615.13, 510.3a), and each permanent's damage, counters and death (704.5f-i,
704.5m, 704.5v: solver.sba's thresholds), read from the :class:`~solver.cp.tally.Tally`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtg_outcomes.model.kinds import ActionKind

from ..results import Part
from ..rules.loss import loss_literal
from ..rules.team import team_members, team_sum
from ..sba import attachment_kind
from ..sba import dies as sba_dies
from ..sba import lethal as lethal_thresholds
from ..state import GameState, PermState
from .lifept import reached, toughness_shift
from .literals import and_not, at_least, at_most, either, floor0
from .tables import is_const
from .tally import Sums, Tally

if TYPE_CHECKING:
    from .cptypes import Expr, Lit, Model
    from .units import Output

Outputs = dict[str, "Output"]


def players(t: Tally, outputs: Outputs) -> dict[str, Lit]:
    """Each player's life, poison and counts after the step, and whether they lose the game at
    its check: 810.9, each player's damage, life loss and gain are applied to the team's shared
    total; 704.5a, 704.5c (solver.rules.loss.player_loses, in its constraint form)."""
    m, plan = t.m, t.plan
    lost: dict[str, Lit] = {}
    two_headed = plan.table.two_headed
    for p in plan.state.players:
        team = team_members(plan.state.players, two_headed, p)
        life = plan.base[f"{p.name}.life"] - team_sum(t.loss, team) + team_sum(t.gain, team)
        pois = plan.base[f"{p.name}.poison"] + team_sum(t.poison, team)
        outputs[f"{p.name}.life"] = ("int", life)
        t.at_check[p.name] = life  # (what a life condition reads at the check, 704.3: solver.cp.lifept)
        outputs[f"{p.name}.poison"] = ("int", pois)
        outputs[f"{p.name}.life_lost"] = ("int", plan.base[f"{p.name}.life_lost"] + sum(t.loss.get(p.name, [])))
        outputs[f"{p.name}.life_gained"] = ("int", plan.base[f"{p.name}.life_gained"] + sum(t.gain.get(p.name, [])))
        outputs[f"{p.name}.damage_taken"] = ("int", plan.base[f"{p.name}.damage_taken"] + sum(t.taken.get(p.name, [])))
        lost[p.name] = True if p.lost else False if p.name in plan.unbeaten else \
            loss_literal(m, at_most, at_least, either, life, pois, two_headed, p.name in plan.no_loss)
        outputs[f"{p.name}.lost"] = ("bool", lost[p.name])
        if p.team is not None:
            outputs[f"team{p.team}.life"] = ("int", life)
            outputs[f"team{p.team}.poison"] = ("int", pois)
    return lost


def _last_standing(m: Model, state: GameState, lost: dict[str, Lit]) -> Lit:
    """A literal for solver.sba.last_standing after the step's check: at most one of the players
    in the game at its start is still in it (104.2a); False when no one lost (the game went on)."""
    staying = [lost[p.name] for p in state.players if not p.left and not p.lost]
    lits = [x for x in staying if not isinstance(x, bool)]
    if not lits:
        return sum(1 for x in staying if x is False) <= 1 and any(x is True for x in staying)
    return at_most(m, sum(1 for x in staying if x is False) + len(lits) - sum(lits), 1)


def game_over(t: Tally, lost: dict[str, Lit]) -> Lit:
    """Whether the game ended at the step's check: a player lost a two-player game (104.2a,
    engine.game_over), or at most one player is left in a multiplayer one (104.2a, 104.4a:
    solver.sba.last_standing)."""
    return _last_standing(t.m, t.plan.state, lost) if t.plan.multiplayer else either(t.m, list(lost.values()))


def triggers(t: Tally, outputs: Outputs, lost: dict[str, Lit], over: Lit,
             combat_sum: dict[tuple[str, str], Expr]) -> list[Expr]:
    """The triggers that draw cards or gain life, resolving after state-based actions: the amount
    each reads (it triggers when at least 1), their draws and gains into the outputs. A player
    who left draws nothing (800.4a), and after a player loses a two-player game nothing resolves
    at all (104.2a, engine.game_over). ``combat_sum``: each source's combat damage to each player."""
    m, plan = t.m, t.plan
    late_gain: Sums = {}  # life gained as triggers resolve, after the check (615.13)
    fired: list[Expr] = []
    for tr in plan.triggers:
        # what the watched prevention effect prevented across the batch (615.13), or the combat
        # damage the source dealt the player (510.3a)
        reads = sum(t.prevented.get(tr.prevention, [])) if tr.prevention is not None else combat_sum.get((tr.source, tr.player), 0)
        fired.append(reads)
        fire = at_least(m, reads, 1)
        into = t.drawn if tr.kind == ActionKind.DRAW else late_gain
        coef, const = tr.amount
        amount = coef * reads + (const * fire if not is_const(fire) else const * int(fire))
        # a trigger whose controller lost a multiplayer game ceases to exist with them (800.4a)
        ctrl_left = lost.get(tr.controller, False) if plan.multiplayer else False
        for q in tr.who:
            if tr.kind == ActionKind.GAIN_LIFE and q in plan.cant_gain:
                continue  # 119.7 (solver.results.gain_life)
            left = either(m, [lost[q], ctrl_left, over]) if plan.multiplayer else over
            if is_const(left) and not left:
                into.setdefault(q, []).append(amount)
            elif not is_const(left):
                z = m.new_int_var(0, t.big * max(coef, 1) + const, f"{tr.kind}_{tr.watcher}_{q}")
                m.add(z == amount).only_enforce_if(~left)
                m.add(z == 0).only_enforce_if(left)
                into.setdefault(q, []).append(z)
    _after_check(t, outputs, late_gain)
    return fired


def _after_check(t: Tally, outputs: Outputs, late_gain: Sums) -> None:
    """The cards drawn, and the life the triggers gained after the check, in the outputs (810.9:
    a team's shared total)."""
    plan = t.plan
    for p in plan.state.players:
        outputs[f"{p.name}.cards_drawn"] = ("int", plan.base[f"{p.name}.cards_drawn"] + sum(t.drawn.get(p.name, [])))
        if late_gain:
            more = team_sum(late_gain, team_members(plan.state.players, plan.table.two_headed, p))
            outputs[f"{p.name}.life"] = ("int", outputs[f"{p.name}.life"][1] + more)
            outputs[f"{p.name}.life_gained"] = ("int", outputs[f"{p.name}.life_gained"][1] + sum(late_gain.get(p.name, [])))
            if p.team is not None:
                outputs[f"team{p.team}.life"] = outputs[f"{p.name}.life"]


def _plus_counters(t: Tally, cid: str, perm: PermState) -> Expr:
    """The +1/+1 counters on ``cid`` after the riders that put and remove them, in their order
    (solver.results.put_counters, remove_counters: never below none)."""
    plus: Expr = perm.counter("+1/+1")
    for kind, n in t.plus_ops.get(cid, []):
        if kind == ActionKind.PUT_COUNTERS:
            plus = plus + n
        else:
            plus = floor0(t.m, plus - n, t.big + perm.counter("+1/+1"), f"plus_{cid}")
    return plus


def _minus_counters(t: Tally, cid: str, perm: PermState) -> Expr:
    """The -1/-1 counters on ``cid`` after the step: its damage's as one event per permanent
    (solver.results.deal; Vizier of Remedies: max(0, n - k), results.fewer_counters), then the
    riders'."""
    put: Expr = sum(t.counters.get(cid, []))
    if t.plan.fewer.get(cid):
        put = floor0(t.m, put - t.plan.fewer[cid], t.big, f"fewer_{cid}")
    return perm.counter("-1/-1") + put + sum(t.minus_ops.get(cid, []))


def _permanent(t: Tally, outputs: Outputs, cid: str, doomed: set[str], conditioned: set[str]) -> Lit:
    """One permanent's damage, counters, loyalty and defense after the step, in the outputs, and
    whether it dies at the check: the graph engine's rule, solver.sba.lethal's thresholds on the
    results (704.5f-h; the toughness counts the +1/+1 counters put, 613.4c), 0 loyalty (704.5i) or
    defense (704.5v)."""
    m, plan = t.m, t.plan
    table, state = plan.table, plan.state
    perm = state.perm(cid)
    assert perm is not None
    plus = _plus_counters(t, cid, perm)
    if cid in t.plus_ops:
        outputs[f"{cid}.counters.+1/+1"] = ("opt" if "+1/+1" not in dict(perm.counters) else "int", plus)
    grown = plus - perm.counter("+1/+1")
    dmg = perm.damage + sum(t.marked.get(cid, []))
    minus = _minus_counters(t, cid, perm)
    outputs[f"{cid}.damage"] = ("int", dmg)
    if cid in t.counters or cid in t.minus_ops or "-1/-1" in dict(perm.counters):
        outputs[f"{cid}.counters.-1/-1"] = ("opt" if "-1/-1" not in dict(perm.counters) else "int", minus)
    have = {Part.MARKED: dmg, Part.MINUS_COUNTERS: minus,
            Part.DEATHTOUCHED: int(perm.deathtouched) + sum(t.deathtouch.get(cid, []))}
    # (a planeswalker or battle doomed as the step begins can't be saved by it; a creature's
    # thresholds below read the counters the step may put on it)
    early = cid in doomed and "creature" not in table.perm_specs[perm.spec].types
    # a toughness change with a life condition, read on the life totals at the check (solver.cp.lifept)
    shift, now = toughness_shift(m, state, table, perm, t.at_check) if cid in conditioned else (0, 0)
    reasons = [bool(plan.base[f"{cid}.dies"]) or early] + [  # the graph engine's rule: sba.lethal
        at_least(m, sum(have[p] for p in th.parts) - (grown + shift if th.toughness else 0), th.at_least - (now if th.toughness else 0))
        for th in lethal_thresholds(table, perm, state)]
    if cid in t.loyalty:
        loyal = floor0(m, perm.loyalty - sum(t.loyalty[cid]), perm.loyalty, f"loyalty_{cid}")
        outputs[f"{cid}.loyalty"] = ("int", loyal)
        reasons.append(at_most(m, loyal, 0))
    if cid in t.defense:
        defended = floor0(m, perm.defense - sum(t.defense[cid]), perm.defense, f"defense_{cid}")
        outputs[f"{cid}.defense"] = ("int", defended)
        reasons.append(at_most(m, defended, 0))
    return either(m, reasons)


def permanents(t: Tally, outputs: Outputs) -> dict[str, Lit]:
    """Every permanent the step changes, and whether it dies at its check (:func:`_permanent`):
    creatures' marked damage and -1/-1 counters (704.5f-h), planeswalkers' loyalty and battles'
    defense removed (120.3c, 120.3h). A permanent already lethally damaged as the step begins (an
    earlier instruction of the same resolution dealt it damage: no state-based action in
    between, 608.2c, 704.3) dies at the step's check too."""
    plan, state = t.plan, t.plan.state
    dying: dict[str, Lit] = {}  # permanent -> whether it dies at the step's check (its .dies output)
    doomed = {p.id for p in state.perms if p.present and not plan.base.get(f"{p.id}.dies") and sba_dies(plan.table, p, state)}
    changed = set(t.marked) | set(t.counters) | set(t.deathtouch) | set(t.loyalty) | set(t.defense) | set(t.plus_ops) \
        | set(t.minus_ops) | doomed
    conditioned = reached(state, plan.table)  # toughness with a life condition (solver.cp.lifept)
    for cid in sorted(changed | conditioned):
        dying[cid] = _permanent(t, outputs, cid, doomed, conditioned)
        outputs[f"{cid}.dies"] = ("bool", dying[cid])
    return dying


def auras(t: Tally, outputs: Outputs, dying: dict[str, Lit], over: Lit) -> None:
    """704.5m: an Aura on a creature that dies goes to its owner's graveyard at the next check,
    unless the game ended at this one (104.2a; a multiplayer game with Auras is declined by
    solver.cp.plan); an Equipment only becomes unattached (704.5n), which no field shows."""
    plan = t.plan
    for aura in plan.state.perms:
        host = aura.attached_to
        if not aura.present or host is None or attachment_kind(plan.table, aura) != "aura" or host not in dying:
            continue
        gone = and_not(t.m, dying[host], over)
        dying[aura.id] = either(t.m, [dying.get(aura.id, bool(plan.base[f"{aura.id}.dies"])), gone])
        outputs[f"{aura.id}.dies"] = ("bool", dying[aura.id])
