"""What happens beside the CP step's damage: prevention riders (615.5; 615.12 on damage that
can't be prevented), +1/+1 counters a rider puts or removes and damage put as counters instead
(614.1a), the "whenever damage is prevented" triggers it fires (615.13), and, when the rules
engine continues after the step (solver.cp.suffix), which triggers it leaves to it (603.2,
603.3b) and what would make two states after the step look alike to the model."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.kinds import AbilityKind, ActionKind, TriggerEvent
from mtg_outcomes.model.types import Ability

from ..damage import rider_shot
from ..granted import granted_watchers  # (the triggers effects grant: Virulent Sliver)
from ..next_time import one_instance
from ..oneshot import shot_recipients
from ..persource import per_source
from ..results import (
    fewer_counters,
)
from ..rules.amounts import AmountRule, rule_of
from ..rules.effects import (
    PREVENTION_KINDS,
    Instance,
    applicable_effects,
    can_be_dealt,
    unpreventable,
    would_prevent,
)
from ..select import View, effects_in_force, is_player, matches
from ..state import Event, GameState, Table
from ..triggers import watchers
from .declines import (
    COUNTER_RIDERS,
    ORDERED,
    QUIET,
    TRIGGERS_DECLINED,
    players_matching,
)
from .lifept import life_pt_problem
from .refusal import Refusal
from .step import (
    PlannedEvent,
    PlannedRider,
    PlannedTrigger,
    counted_at_start,
    linear_in,
    rider_amount,
)


def applied_unpreventable(state: GameState, inst: Instance, events: list[PlannedEvent],
                           reads: bool) -> tuple[tuple[int, int], ...] | Refusal:
    """The events of damage that can't be prevented a prevention with a rider is applied to, when
    its rider ``reads`` that (it takes place anyway, or reads "that damage", 615.12): each with
    what it would have prevented there (solver.rules.effects.would_prevent); or why the model can't say.
    The model takes it as applied when nothing else applies to the event (its amount is then
    the event's, and no order can bring it to 0 first, 120.8)."""
    if not reads:
        return ()
    out = []
    for pos, pe in enumerate(events):
        if pe.tree is not None and pe.ev.unpreventable and any(i.key == inst.key for i in pe.tree.applied):
            return (Refusal(f"{inst.key}: a rider that reads damage that can't be prevented (CR 615.12) on a redirected "
                    "event (614.9) is not modelled", "615.12"))
        if inst not in pe.noops:
            continue
        if pe.effects:
            return (Refusal(f"{inst.key}: a rider applied to damage that can't be prevented (CR 615.12) beside other effects "
                    "on that event (whether it applies, and to how much, is their order, 616.1) is not modelled", "615.12"))
        if pe.assigned:
            return (Refusal(f"{inst.key}: a rider applied to damage that can't be prevented (CR 615.12) whose amount is a "
                    "combat damage division choice is not modelled", "615.12"))
        if inst.spec.kind == EffectKind.SHIELD and any(inst in q.effects for q in events):
            return (Refusal(f"{inst.key}: a shield's rider reading damage that can't be prevented (CR 615.12) while the "
                    "shield also prevents other damage of the step (its room there is a choice) is not modelled", "615.12"))
        out.append((pos, would_prevent(state, inst, pe.ev)))
    return tuple(out)


def _prevention_trigger_problem(pid: str, ab: Ability) -> Refusal | None:
    """Why the model can't take a "whenever damage is prevented" trigger (615.13), or None: it
    takes one that draws cards or gains life, linear in the amount prevented, for players it
    names, with no threshold, intervening if, target or choice."""
    shot = ab.action
    if ab.trigger_min is not None or ab.trigger_if is not None:
        return Refusal(f"{pid}: damage_prevented triggers with a threshold or an intervening if (CR 603.4) are not modelled", "603.4")
    if shot is None or shot.kind not in (ActionKind.DRAW, ActionKind.GAIN_LIFE) or shot.may or ab.more or ab.target is not None \
            or shot.to.kind in ("target", "any", "choice"):
        return Refusal(f"{pid}: only damage_prevented triggers that draw cards or gain life for players they name are modelled", "615.13")
    if linear_in(shot.amount, "prevented") is None:
        return Refusal(f"{pid}: the damage_prevented trigger's amount is not linear in prevented", "615.13")
    return None


def planned_prevention_triggers(state: GameState, table: Table, insts: tuple[Instance, ...],
                         events: list[PlannedEvent]) -> list[PlannedTrigger] | Refusal:
    """The "whenever damage is prevented" triggers the step can fire (CR 615.13, solver.triggers.
    prevention_triggers): one per prevention effect that prevented damage in the batch, per
    recipient of the events it was applied to, for each watcher it matches (603.2: ``to``, else its
    controller), reading what that effect prevented across the batch. The model takes an effect
    that can apply to one recipient only (then it was applied to it whenever it prevented anything)."""
    found = watchers(state, table, TriggerEvent.DAMAGE_PREVENTED)
    if not found:
        return []
    if any(pe.tree is not None for pe in events):
        return Refusal("a damage_prevented trigger (CR 615.13) in a step with a redirection (614.9) is not modelled", "615.13")
    out = []
    for inst in insts:
        if inst.spec.kind not in PREVENTION_KINDS:
            continue
        whose = sorted({pe.ev.recipient for pe in events if inst in pe.effects})
        if len(whose) > 1:
            return (Refusal(f"{inst.key}: a prevention effect applicable to damage to {len(whose)} recipients with a "
                    "damage_prevented trigger (CR 615.13: one per recipient it was applied to) is not modelled", "615.13"))
        for r in whose:
            for pid, ctrl, j, ab in found:
                p = state.perm(pid)
                assert p is not None and ab.action is not None
                view = View(ctrl, p.id, None, p.chosen)
                if not (matches(ab.trigger_to, r, state, table, view) if ab.trigger_to else r == ctrl):
                    continue
                amount = linear_in(ab.action.amount, "prevented")
                assert amount is not None
                who = players_matching(ab.action.to, state, table, view)
                out.append(PlannedTrigger(p.id, ctrl, j, inst.key, r, amount, who, table.perm_specs[p.spec].name,
                                    ab.action.kind, inst.key))
    return out


def counters_instead(insts: tuple[Instance, ...], events: list[PlannedEvent]) -> dict[str, tuple[str, str]] | Refusal:
    """Each effect that puts damage as counters instead (614.1a) with the one permanent whose
    damage it replaces in the step (the model keeps one amount per effect) and the kind of
    counter, or why it can't."""
    out: dict[str, tuple[str, str]] = {}
    for inst in insts:
        if inst.spec.kind != EffectKind.DAMAGE_TO_COUNTERS:
            continue
        hit = [pe for pe in events if inst in pe.effects]
        if any(pe.tree is not None for pe in hit):
            return Refusal(f"{inst.key}: damage replaced by counters (CR 614.1a) on a redirected event (614.9) is not modelled", "614.1a")
        whose = sorted({pe.ev.recipient for pe in hit})
        if len(whose) > 1:
            return Refusal(f"{inst.key}: damage replaced by counters on {len(whose)} permanents in one step is not modelled", "614.1a")
        if whose:
            out[inst.key] = (whose[0], str(inst.spec.value))
    return out


def counters_problem(state: GameState, table: Table, insts: tuple[Instance, ...], riders: list[PlannedRider],
                      to_counters: dict[str, tuple[str, str]]) -> Refusal | None:
    """Why the model can't follow the +1/+1 counters the step puts or removes (615.5, 614.1a), or
    None: a replacement of how many are put (614.1a) applies to each event; one without any that
    gets some put and some removed may end with the kind at 0, a field the model doesn't show.
    (One that gets them beside -1/-1 counters loses pairs of them after the step, 704.5q:
    :func:`counters_put`, solver.cp.plan.)"""
    kinds: dict[str, set[str]] = {}
    for key, (pid, counter) in to_counters.items():
        if fewer_counters(state, table, pid, counter):
            return Refusal(f"{key}: fewer {counter} counters put on {pid} (CR 614.1a) is not modelled", "614.1a")
        if counter == "+1/+1":
            kinds.setdefault(pid, set()).add("put_counters")
    for rd in riders:
        if rd.kind in COUNTER_RIDERS and rd.counter == "-1/-1":
            for pid in rd.recipients:  # each putting is an event of its own that it would replace
                if fewer_counters(state, table, pid, "-1/-1"):
                    return Refusal(f"{rd.key}: fewer -1/-1 counters put on {pid} (CR 614.1a) is not modelled", "614.1a")
        elif rd.kind in COUNTER_RIDERS:
            for pid in rd.recipients:
                kinds.setdefault(pid, set()).add(rd.kind)
                if fewer_counters(state, table, pid, "+1/+1"):
                    return Refusal(f"{rd.key}: fewer +1/+1 counters put on {pid} (CR 614.1a) is not modelled", "614.1a")
    for pid, k in sorted(kinds.items()):
        perm = state.perm(pid)
        if len(k) > 1 and perm is not None and "+1/+1" not in dict(perm.counters):
            return Refusal(f"{pid}: +1/+1 counters both put and removed on a permanent without any is not modelled", "122.1")
    return None


def counters_put(riders: list[PlannedRider], to_counters: dict[str, tuple[str, str]], counter: str = "+1/+1") -> tuple[str, ...]:
    """The permanents the step may put ``counter`` counters on (riders, 615.5: Phyrexian Hydra's
    -1/-1; damage put as counters instead, 614.1a)."""
    put = [pid for pid, kind in to_counters.values() if kind == counter] + \
        [pid for rd in riders if rd.kind == ActionKind.PUT_COUNTERS and rd.counter == counter for pid in rd.recipients]
    return tuple(dict.fromkeys(put))


def rider_effects(state: GameState, table: Table, inst: Instance, source: str, recipients: tuple[str, ...],
                   floors: dict[str, int], on_life: str | None) -> list[tuple[str, AmountRule]] | Refusal:
    """The one effect that modifies a deal rider's damage to each recipient (its affected player
    has no order to choose with one, 616.1), or why its damage is a batch of its own the model
    doesn't take: choices (optional effects, a next-time prevention, several effects), a life
    floor on the recipient (a second floored batch), a life condition read again after the batch."""
    modified: list[tuple[str, AmountRule]] = []
    for r in recipients:
        if r in floors:
            return Refusal(f"{inst.key}'s rider: its damage to {r}, whose life has a floor (a second floored batch)", "615.5")
        if on_life is not None:
            return Refusal(f"{inst.key}'s rider: its damage after the batch, with {on_life}'s life condition read again then", "615.5")
        probe = unpreventable(state, table, Event(source, r, 1, False))
        # 615.12: a prevention without a rider does nothing to damage that can't be prevented
        apps = [a for a in applicable_effects(state, table, probe, any_amount=True)
                if not (probe.unpreventable and a.spec.kind in PREVENTION_KINDS and a.spec.then is None)]
        if not apps:
            continue
        if any(a.spec.may for a in apps):
            return Refusal(f"{inst.key}'s rider: an optional effect could apply to its damage to {r} (a second batch of choices)", "615.5")
        if any(one_instance(a.spec) for a in apps):
            return Refusal(f"{inst.key}'s rider: a next-time prevention (CR 615.8) could apply to its damage to {r}", "615.8")
        rule = rule_of(apps[0].spec) if len(apps) == 1 and apps[0].spec.then is None else None
        if rule is None or apps[0].spec.kind not in ORDERED or counted_at_start(apps[0]):
            return Refusal(f"{inst.key}'s rider: effects apply to its damage to {r} (a second batch of choices)", "615.5")
        modified.append((r, rule))
    return modified


def suffix_problem(state: GameState, table: Table, events: list[PlannedEvent], tracked_trees: bool) -> Refusal | None:
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
                     if i.spec.kind == EffectKind.PREVENT and i.spec.next_time), None)
        if once is not None:
            return Refusal(f"{once}: a next-time prevention (CR 615.8) of a redirected event, with a rider's batch of choices after the step, is not modelled", "615.8")
    # a redirection moves damage between recipients inside its tree, which the step's solutions
    # are not told apart by per source and recipient: a trigger reading "dealt damage by"
    # (120.9, solver.triggers) could then be continued from the wrong state
    if redirected:
        for p in state.perms:
            for ab in table.perm_specs[p.spec].abilities if p.present else ():
                if ab.kind == AbilityKind.TRIGGER and ab.trigger == TriggerEvent.DEALT_DAMAGE and ab.trigger_from is not None \
                        and ab.trigger_min is None:
                    return (Refusal(f"{p.id}: a dealt_damage trigger with from: in a step with a redirection (614.9), "
                            "followed by the rules engine, is not modelled", "614.9"))
    return None


# triggers the step can fire that the rules engine puts on the stack and resolves after it
# (603.3b, solver.cp.suffix): what they read (each batch's damage per source and recipient, 603.2,
# 603.10; who died, 603.6c; each life-gain event, 119.9; each player's life lost in the batch, one
# life-loss event per player, 120.3a) is among what the model's solutions differ by
_CONTINUED = (TriggerEvent.DEALS_DAMAGE, TriggerEvent.DEALT_DAMAGE, TriggerEvent.COMBAT_DAMAGE_TO_PLAYER, TriggerEvent.DIES,
              TriggerEvent.GAIN_LIFE, TriggerEvent.LOSE_LIFE)


def draws_cards(ab: Ability) -> bool:
    """A "deals combat damage to a player" trigger the model applies itself: it draws cards, no
    choice, no threshold or intervening if (603.4), one instruction."""
    shot = ab.action
    return shot is not None and shot.kind == ActionKind.DRAW and not shot.may and shot.to.kind not in ("target", "any", "choice") \
        and not ab.more and ab.target is None and ab.trigger_min is None and ab.trigger_if is None


# riders the rules engine always does after the step's choices (solver.cp.suffix)
DEFERRED_KINDS = (ActionKind.CREATE_TOKENS,)


def deferred_rider_problem(state: GameState, inst: Instance, events: list[PlannedEvent]) -> Refusal | None:
    """Why a rider the rules engine does after the step (615.5) may not follow from what the
    solutions are told apart by, or None: whether it was applied to damage that can't be
    prevented (615.12) must be fixed by the step's start (:func:`applied_unpreventable`),
    and "that damage" (what it was applied to, not what it prevented) is not among them."""
    rider = inst.spec.then
    assert rider is not None
    read = rider_amount(rider.amount)
    assert read is not None
    if read[1]:
        return (Refusal(f"{inst.key}: a rider reading that_damage (what its prevention was applied to, CR 615.12) done "
                "after the step by the rules engine is not modelled", "615.12"))
    applied = applied_unpreventable(state, inst, events, not rider.if_prevented and read[2] != 0)
    return applied if isinstance(applied, Refusal) else None


def movable_problem(insts: Sequence[Instance], rd: PlannedRider) -> Refusal | None:
    """Why a rider the model would do can't be left to the rules engine beside one it does
    (615.5), or None: what its effect prevented must be among what the solutions are told apart
    by (a prevention's amount, tracked; a shield's remaining), and not "that damage"."""
    inst = next(i for i in insts if i.key == rd.key)
    if inst.spec.kind not in (EffectKind.PREVENT, EffectKind.SHIELD) or rd.that:
        return (Refusal(f"{rd.key}: a {inst.spec.kind} effect's rider reading {'that_damage' if rd.that else 'what it prevented'} "
                "beside a rider the rules engine does after the step (615.5) is not modelled", "615.5"))
    return None


def watching_triggers(state: GameState, table: Table) -> list[tuple[str, Ability]] | Refusal:
    """The triggered abilities on the battlefield the step's damage and its aftermath can fire
    that the rules engine resolves after the step (603.2, 603.3b, solver.cp.suffix), or why the
    model can't take one: those none of it can fire (:data:`QUIET`), "whenever damage is
    prevented" (615.13) and plain combat-damage draws are the model's own; a static shield is
    declined."""
    watching: list[tuple[str, Ability]] = []
    if (conditioned := life_pt_problem(state, table)) is not None:  # (solver.cp.lifept)
        return conditioned
    for eid in state.emblems:  # (114.4: an emblem's trigger on what a step can do: the rules engine's)
        if any(ab.kind == AbilityKind.TRIGGER and ab.trigger not in QUIET for ab in table.emblem_specs[eid].abilities):
            return Refusal(f"{eid}: an emblem's triggered ability on damage or its aftermath is not modelled (CR 114.4)", "114.4")
    # a permanent's own triggered abilities, and those an effect grants it (613.1f: Virulent Sliver)
    owned = [(perm.id, ab) for perm in state.perms if perm.present for ab in table.perm_specs[perm.spec].abilities]
    for pid, ab in owned + [(pid, ab) for pid, _, _, ab in granted_watchers(state, table, None)]:
        if ab.kind == AbilityKind.STATIC and ab.effect is not None and ab.effect.kind == EffectKind.SHIELD:
            return Refusal(f"{pid}: a static shield ability is not modelled", "615.7")
        if ab.kind != AbilityKind.TRIGGER or ab.trigger in QUIET:
            continue  # nothing in a damage batch and its aftermath can trigger it
        if ab.trigger == TriggerEvent.DAMAGE_PREVENTED:
            problem = _prevention_trigger_problem(pid, ab)
            if problem is not None:
                return problem
            continue
        if ab.trigger == TriggerEvent.DRAWS:
            # 121.2: the model draws itself only for a plain combat-damage draw trigger or a
            # draw rider (615.5); any other draw is the rules engine's, after the step
            if _model_draws(state, table):
                return Refusal(f"{pid}: a draws trigger beside cards the model draws in its step is not modelled", "121.2")
            continue
        if ab.trigger == TriggerEvent.COMBAT_DAMAGE_TO_PLAYER and ab.action is not None and draws_cards(ab):
            if linear_in(ab.action.amount, "damage_dealt") is None:
                return Refusal(f"{pid}: the trigger's amount is not linear in damage_dealt", "603.2")
            continue
        if ab.trigger not in _CONTINUED:
            return Refusal(f"{pid}: {TRIGGERS_DECLINED.get(str(ab.trigger), f'{ab.trigger} triggers are not modelled')}", "603.2")
        watching.append((pid, ab))
    return watching


@dataclass(frozen=True)
class Deferred:
    """A rider the rules engine does after the step (615.5), and why, in words."""

    words: str


def planned_riders(state: GameState, table: Table, insts: tuple[Instance, ...], events: list[PlannedEvent],
                   floors: dict[str, int], later: list[str]) -> tuple[list[PlannedRider], list[str]] | Refusal:
    """The riders the model does (615.5: right after the prevention, before state-based actions),
    in the graph engine's order (solver.damage._finish_batch: by their effects' keys), and the
    keys of those the rules engine does after the step (their words to ``later``); or why the
    model can't."""
    on_life = next((i.key for i in insts if i.spec.kind == EffectKind.AS_THOUGH and i.spec.if_life_at_most is not None), None)
    riders = []
    deferred: list[str] = []  # riders whose damage is a second batch of choices: the rules engine's (615.5)
    for inst in insts:
        rider = inst.spec.then
        if rider is None or not any(inst in pe.effects or inst in pe.noops for pe in events):
            continue
        if rider.kind in DEFERRED_KINDS or per_source(inst.spec):  # (solver.persource: the rules engine's)
            # 111.1, 615.5: tokens created right after the prevention, before state-based actions,
            # are permanents the model doesn't have: the rules engine creates them after the step's
            # choices, from what the prevention prevented (which the solutions are told apart by)
            if (problem := deferred_rider_problem(state, inst, events)) is not None:
                return problem
            deferred.append(inst.key)
            later.append(f"{inst.key}'s {rider.kind} rider (615.5, 111.1)")
            continue
        planned = _planned_rider(state, table, inst, events, floors, on_life)
        if isinstance(planned, Deferred):
            # its damage meets choices of its own (616.1, 615.7) or is read again: the rider happens
            # after the step's choices, before state-based actions, with the amount the model
            # prevented (615.5): the rules engine does it, as it does what follows the step
            if (problem := deferred_rider_problem(state, inst, events)) is not None:
                return problem
            deferred.append(inst.key)
            later.append(planned.words)
            continue
        if isinstance(planned, Refusal):
            return planned
        riders.append(planned)
    if deferred and riders:
        # riders happen one after another right after the batch (615.5; solver.damage._finish_batch:
        # in the order of their effects' keys, whatever the choices): with one of them done by the
        # rules engine after the step, it does them all, each from what its effect prevented
        problem = next((why for rd in riders if (why := movable_problem(insts, rd)) is not None), None)
        if problem is not None:
            return problem
        deferred.extend(rd.key for rd in riders)
        later.extend(f"{rd.key}'s rider (615.5)" for rd in riders)
        riders = []
    riders.sort(key=lambda r: r.key)  # the graph engine's order (solver.damage._finish_batch)
    return riders, deferred


def _planned_rider(state: GameState, table: Table, inst: Instance, events: list[PlannedEvent], floors: dict[str, int],
                   on_life: str | None) -> PlannedRider | Refusal | Deferred:
    """One rider as the model does it (615.5), or why it can't, or, in words, why the rules engine
    does it after the step (its damage meets choices of its own: solver.cp.riders.rider_effects)."""
    rider = inst.spec.then
    assert rider is not None
    source = inst.view.self_id or inst.view.controller
    sel = rider.to
    recipients = _rider_recipients(state, table, inst)
    if rider.kind not in (ActionKind.DEAL, *COUNTER_RIDERS) and any(not is_player(table, r) for r in recipients):
        return Refusal(f"{inst.key}: a {rider.kind} rider for a permanent is not modelled", "615.5")
    modified = rider_effects(state, table, inst, source, recipients, floors, on_life) if rider.kind == ActionKind.DEAL else []
    if isinstance(modified, Refusal):
        return Deferred(modified.reason)
    read = rider_amount(rider.amount)
    assert read is not None
    a, b, c = read
    applied = applied_unpreventable(state, inst, events, not rider.if_prevented and c != 0 or b != 0)
    if isinstance(applied, Refusal):
        return applied
    return PlannedRider(inst.key, rider.kind, (a, c), source, recipients, tuple(modified),
                        rider.kind == ActionKind.GAIN_LIFE and (sel is None or sel.kind == "you"), b,
                        not rider.if_prevented, applied, rider.counter or "+1/+1")


def _rider_recipients(state: GameState, table: Table, inst: Instance) -> tuple[str, ...]:
    """Who a rider's action is for (615.5): the permanents it puts counters on or removes them
    from (solver.damage.run_rider), its controller by default, its target, or the players (and,
    for damage, the permanents) it names."""
    rider = inst.spec.then
    assert rider is not None
    sel = rider.to
    if rider.kind in COUNTER_RIDERS:
        return tuple(r for r in shot_recipients(state, table, rider_shot(inst, 1), inst.view) if not is_player(table, r))
    if sel is None:
        return (inst.view.controller,)
    if sel.kind in ("target", "any", "choice"):
        # 800.4a: a player who left is dealt none; 120.1a: nor a permanent that can't be dealt
        # damage (a planeswalker or creature target can: 120.3c, 120.3e)
        return tuple(t for t in (inst.view.target,) if t is not None and can_be_dealt(state, table, t))
    recipients = players_matching(sel, state, table, inst.view)
    if rider.kind == ActionKind.DEAL:  # and the permanents it names that can be dealt damage (120.1a)
        recipients += tuple(p.id for p in state.perms if p.present and matches(sel, p.id, state, table, inst.view)
                            and can_be_dealt(state, table, p.id))
    return recipients


def combat_draw_triggers(state: GameState, table: Table, events: list[PlannedEvent]) -> list[PlannedTrigger]:
    """The "deals combat damage to a player" triggers the model applies itself (they draw cards:
    :func:`draws_cards`), one per (source, player) pair of the step's combat damage it watches;
    the watchers on the battlefield as the damage is dealt (603.2; one that left before the step,
    say died in the first-strike step, watches nothing: solver.triggers.watchers)."""
    triggers = []
    pairs = sorted({(pe.ev.source, pe.ev.recipient) for pe in events if pe.ev.combat and is_player(table, pe.ev.recipient)}
                   | {(pe.ev.source, r) for pe in events if pe.tree is not None and pe.ev.combat
                      for _, r in pe.tree.columns if is_player(table, r)})
    for pid, ctrl, j, ab in watchers(state, table, TriggerEvent.COMBAT_DAMAGE_TO_PLAYER):
        p = state.perm(pid)
        assert p is not None
        shot = ab.action
        if shot is None or not draws_cards(ab):
            continue  # the rules engine puts it on the stack and resolves it after the step (solver.cp.suffix)
        card = table.perm_specs[p.spec]
        view = View(ctrl, p.id, None, p.chosen)
        for s, r in pairs:
            ok = matches(ab.trigger_from, s, state, table, view) if ab.trigger_from else s == p.id
            if ok and ab.trigger_to is not None:
                ok = matches(ab.trigger_to, r, state, table, view)
            if ok:
                draws = linear_in(shot.amount, "damage_dealt")
                assert draws is not None
                who = players_matching(shot.to, state, table, view)
                triggers.append(PlannedTrigger(p.id, ctrl, j, s, r, draws, who, card.name))
    return triggers


def _model_draws(state: GameState, table: Table) -> bool:
    """Whether the CP step may draw cards itself: a plain "deals combat damage to a player, draw"
    trigger (:func:`draws_cards`) or a prevention or replacement effect with a draw rider (615.5)."""
    for perm in state.perms:
        if perm.present and any(ab.kind == AbilityKind.TRIGGER and ab.trigger == TriggerEvent.COMBAT_DAMAGE_TO_PLAYER
                                and ab.action is not None and draws_cards(ab) for ab in table.perm_specs[perm.spec].abilities):
            return True
    return any(inst.spec.then is not None and inst.spec.then.kind == ActionKind.DRAW for inst in effects_in_force(state, table))
