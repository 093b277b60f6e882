"""What happens beside the CP step's damage: prevention riders (615.5; 615.12 on damage that
can't be prevented), +1/+1 counters a rider puts or removes and damage put as counters instead
(614.1a), the "whenever damage is prevented" triggers it fires (615.13), and, when the rules
engine continues after the step (solver.cp.suffix), which triggers it leaves to it (603.2,
603.3b) and what would make two states after the step look alike to the model."""

from __future__ import annotations

from typing import Any

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.kinds import AbilityKind, ActionKind, TriggerEvent

from ..amounts import AmountRule, rule_of
from ..granted import granted_watchers  # (the triggers effects grant: Virulent Sliver)
from ..next_time import one_instance
from ..results import (
    fewer_counters,
)
from ..rules import (
    PREVENTION_KINDS,
    Instance,
    applicable_effects,
    unpreventable,
    would_prevent,
)
from ..select import View, matches
from ..state import Event, GameState, Table
from ..triggers import watchers
from .declines import (
    _COUNTER_RIDERS,
    _ORDERED,
    _QUIET,
    _TRIGGERS_DECLINED,
    _players_matching,
)
from .lifept import life_pt_problem
from .step import (
    _counted,
    _linear,
    _PEvent,
    _Rider,
    _rider_amount,
    _Trigger,
)


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
        if inst.spec.kind == EffectKind.SHIELD and any(inst in q.effects for q in events):
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
    if shot is None or shot.kind not in (ActionKind.DRAW, ActionKind.GAIN_LIFE) or shot.may or ab.more or ab.target is not None \
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
    found = watchers(state, table, TriggerEvent.DAMAGE_PREVENTED)
    if not found:
        return []
    if any(pe.tree is not None for pe in events):
        return "a damage_prevented trigger (CR 615.13) in a step with a redirection (614.9) is not modelled"
    out = []
    for inst in insts:
        if inst.spec.kind not in PREVENTION_KINDS:
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
                                    ab.action.kind, inst.key))
    return out


def _to_counters(insts: tuple[Instance, ...], events: list[_PEvent]) -> dict[str, tuple[str, str]] | str:
    """Each effect that puts damage as counters instead (614.1a) with the one permanent whose
    damage it replaces in the step (the model keeps one amount per effect) and the kind of
    counter, or why it can't."""
    out: dict[str, tuple[str, str]] = {}
    for inst in insts:
        if inst.spec.kind != EffectKind.DAMAGE_TO_COUNTERS:
            continue
        hit = [pe for pe in events if inst in pe.effects]
        if any(pe.tree is not None for pe in hit):
            return f"{inst.key}: damage replaced by counters (CR 614.1a) on a redirected event (614.9) is not modelled"
        whose = sorted({pe.ev.recipient for pe in hit})
        if len(whose) > 1:
            return f"{inst.key}: damage replaced by counters on {len(whose)} permanents in one step is not modelled"
        if whose:
            out[inst.key] = (whose[0], str(inst.spec.value))
    return out


def _counters_problem(state: GameState, table: Table, insts: tuple[Instance, ...], riders: list[_Rider],
                      to_counters: dict[str, tuple[str, str]]) -> str | None:
    """Why the model can't follow the +1/+1 counters the step puts or removes (615.5, 614.1a), or
    None: a replacement of how many are put (614.1a) applies to each event; one without any that
    gets some put and some removed may end with the kind at 0, a field the model doesn't show.
    (One that gets them beside -1/-1 counters loses pairs of them after the step, 704.5q:
    :func:`_counters_put`, solver.cp.plan.)"""
    kinds: dict[str, set[str]] = {}
    for key, (pid, counter) in to_counters.items():
        if fewer_counters(state, table, pid, counter):
            return f"{key}: fewer {counter} counters put on {pid} (CR 614.1a) is not modelled"
        if counter == "+1/+1":
            kinds.setdefault(pid, set()).add("put_counters")
    for rd in riders:
        if rd.kind in _COUNTER_RIDERS and rd.counter == "-1/-1":
            for pid in rd.recipients:  # each putting is an event of its own that it would replace
                if fewer_counters(state, table, pid, "-1/-1"):
                    return f"{rd.key}: fewer -1/-1 counters put on {pid} (CR 614.1a) is not modelled"
        elif rd.kind in _COUNTER_RIDERS:
            for pid in rd.recipients:
                kinds.setdefault(pid, set()).add(rd.kind)
                if fewer_counters(state, table, pid, "+1/+1"):
                    return f"{rd.key}: fewer +1/+1 counters put on {pid} (CR 614.1a) is not modelled"
    for pid, k in sorted(kinds.items()):
        perm = state.perm(pid)
        if len(k) > 1 and perm is not None and "+1/+1" not in dict(perm.counters):
            return f"{pid}: +1/+1 counters both put and removed on a permanent without any is not modelled"
    return None


def _counters_put(riders: list[_Rider], to_counters: dict[str, tuple[str, str]], counter: str = "+1/+1") -> tuple[str, ...]:
    """The permanents the step may put ``counter`` counters on (riders, 615.5: Phyrexian Hydra's
    -1/-1; damage put as counters instead, 614.1a)."""
    put = [pid for pid, kind in to_counters.values() if kind == counter] + \
        [pid for rd in riders if rd.kind == ActionKind.PUT_COUNTERS and rd.counter == counter for pid in rd.recipients]
    return tuple(dict.fromkeys(put))


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
        apps = [a for a in applicable_effects(state, table, probe, any_amount=True)
                if not (probe.unpreventable and a.spec.kind in PREVENTION_KINDS and a.spec.then is None)]
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
                     if i.spec.kind == EffectKind.PREVENT and i.spec.next_time), None)
        if once is not None:
            return f"{once}: a next-time prevention (CR 615.8) of a redirected event, with a rider's batch of choices after the step, is not modelled"
    # a redirection moves damage between recipients inside its tree, which the step's solutions
    # are not told apart by per source and recipient: a trigger reading "dealt damage by"
    # (120.9, solver.triggers) could then be continued from the wrong state
    if redirected:
        for p in state.perms:
            for ab in table.perm_specs[p.spec].abilities if p.present else ():
                if ab.kind == AbilityKind.TRIGGER and ab.trigger == TriggerEvent.DEALT_DAMAGE and ab.trigger_from is not None \
                        and ab.trigger_min is None:
                    return (f"{p.id}: a dealt_damage trigger with from: in a step with a redirection (614.9), "
                            "followed by the rules engine, is not modelled")
    return None


# triggers the step can fire that the rules engine puts on the stack and resolves after it
# (603.3b, solver.cp.suffix): what they read (each batch's damage per source and recipient, 603.2,
# 603.10; who died, 603.6c; each life-gain event, 119.9; each player's life lost in the batch, one
# life-loss event per player, 120.3a) is among what the model's solutions differ by
_CONTINUED = (TriggerEvent.DEALS_DAMAGE, TriggerEvent.DEALT_DAMAGE, TriggerEvent.COMBAT_DAMAGE_TO_PLAYER, TriggerEvent.DIES,
              TriggerEvent.GAIN_LIFE, TriggerEvent.LOSE_LIFE)


def _draws(ab: Any) -> bool:
    """A "deals combat damage to a player" trigger the model applies itself: it draws cards, no
    choice, no threshold or intervening if (603.4), one instruction."""
    shot = ab.action
    return shot is not None and shot.kind == ActionKind.DRAW and not shot.may and shot.to.kind not in ("target", "any", "choice") \
        and not ab.more and ab.target is None and ab.trigger_min is None and ab.trigger_if is None


# riders the rules engine always does after the step's choices (solver.cp.suffix)
_DEFERRED_KINDS = (ActionKind.CREATE_TOKENS,)


def _deferred_problem(state: GameState, inst: Instance, events: list[_PEvent]) -> str | None:
    """Why a rider the rules engine does after the step (615.5) may not follow from what the
    solutions are told apart by, or None: whether it was applied to damage that can't be
    prevented (615.12) must be fixed by the step's start (:func:`_applied_unpreventable`),
    and "that damage" (what it was applied to, not what it prevented) is not among them."""
    rider = inst.spec.then
    assert rider is not None
    read = _rider_amount(rider.amount)
    assert read is not None
    if read[1]:
        return (f"{inst.key}: a rider reading that_damage (what its prevention was applied to, CR 615.12) done "
                "after the step by the rules engine is not modelled")
    applied = _applied_unpreventable(state, inst, events, not rider.if_prevented and read[2] != 0)
    return applied if isinstance(applied, str) else None


def _movable_problem(insts: Any, rd: _Rider) -> str | None:
    """Why a rider the model would do can't be left to the rules engine beside one it does
    (615.5), or None: what its effect prevented must be among what the solutions are told apart
    by (a prevention's amount, tracked; a shield's remaining), and not "that damage"."""
    inst = next(i for i in insts if i.key == rd.key)
    if inst.spec.kind not in (EffectKind.PREVENT, EffectKind.SHIELD) or rd.that:
        return (f"{rd.key}: a {inst.spec.kind} effect's rider reading {'that_damage' if rd.that else 'what it prevented'} "
                "beside a rider the rules engine does after the step (615.5) is not modelled")
    return None


def _watching(state: GameState, table: Table) -> list[tuple[str, Any]] | str:
    """The triggered abilities on the battlefield the step's damage and its aftermath can fire
    that the rules engine resolves after the step (603.2, 603.3b, solver.cp.suffix), or why the
    model can't take one: those none of it can fire (:data:`_QUIET`), "whenever damage is
    prevented" (615.13) and plain combat-damage draws are the model's own; a static shield is
    declined."""
    watching: list[tuple[str, Any]] = []
    if (conditioned := life_pt_problem(state, table)) is not None:  # (solver.cp.lifept)
        return conditioned
    for eid in state.emblems:  # (114.4: an emblem's trigger on what a step can do: the rules engine's)
        if any(ab.kind == AbilityKind.TRIGGER and ab.trigger not in _QUIET for ab in table.emblem_specs[eid].abilities):
            return f"{eid}: an emblem's triggered ability on damage or its aftermath is not modelled (CR 114.4)"
    owned = [(perm.id, ab) for perm in state.perms if perm.present for ab in table.perm_specs[perm.spec].abilities]
    for pid, ab in owned + [(pid, ab) for pid, _, _, ab in granted_watchers(state, table, None)]:
        if ab.kind == AbilityKind.STATIC and ab.effect is not None and ab.effect.kind == EffectKind.SHIELD:
            return f"{pid}: a static shield ability is not modelled"
        if ab.kind != AbilityKind.TRIGGER or ab.trigger in _QUIET:
            continue  # nothing in a damage batch and its aftermath can trigger it
        if ab.trigger == TriggerEvent.DAMAGE_PREVENTED:
            problem = _prevention_trigger_problem(pid, ab)
            if problem is not None:
                return problem
            continue
        if ab.trigger == TriggerEvent.COMBAT_DAMAGE_TO_PLAYER and ab.action is not None and _draws(ab):
            if _linear(ab.action.amount, "damage_dealt") is None:
                return f"{pid}: the trigger's amount is not linear in damage_dealt"
            continue
        if ab.trigger not in _CONTINUED:
            return f"{pid}: {_TRIGGERS_DECLINED.get(str(ab.trigger), f'{ab.trigger} triggers are not modelled')}"
        watching.append((pid, ab))
    return watching
