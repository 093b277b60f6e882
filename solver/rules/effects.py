"""Rules semantics for one batch of simultaneous damage events (CR 120, 614, 615, 616).

Pure functions: state in, state out. The affected player orders the applicable replacement and
prevention effects separately for each event (616.1), re-checking applicability after each
(616.1f, 616.2) and applying each effect at most once to an event and the events that replace it
(614.5). Shields are split across simultaneous events as the affected player chooses (615.7); a
branch in which a shield prevented less than it could is illegal and is marked ``dead`` when the
batch ends (a shield always prevents as much as it can).
"""

from __future__ import annotations

from mtg_outcomes.model.effects import CountOf, EffectKind, is_all
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.selectors import SelectorKind

from ..next_time import commit, committed, pass_over
from ..persource import by_source, per_source
from ..select import Instance, attached_to, controller_of, effects_in_force, is_player, matches
from ..state import Batch, EffectState, Event, GameState, Table, replace
from ..words import effect_label
from . import shields
from .amounts import AmountRule, rule_of

__all__ = [
    "Instance", "effects_in_force", "filters_match", "applicable_effects", "affected_player", "start_batch",
    "apply_effect", "shield_room", "would_prevent", "ORDERED_KINDS", "effect_name", "event_label", "can_be_dealt",
]

# Effects that modify a damage event and so take part in the 616 ordering.
ORDERED_KINDS = (EffectKind.SHIELD, EffectKind.PREVENT, EffectKind.MULTIPLY, EffectKind.ADD, EffectKind.SUBTRACT,
                 EffectKind.CAP, EffectKind.HALVE, EffectKind.REDIRECT, EffectKind.PROTECTION, EffectKind.DAMAGE_TO_COUNTERS)
PREVENTION_KINDS = (EffectKind.SHIELD, EffectKind.PREVENT, EffectKind.PROTECTION)


def effect_name(inst: Instance, table: Table, state: GameState) -> str:
    """The effect in a witness's words (solver.words.effect_label: its card and what it does)."""
    return effect_label(inst, table, state)


def affected_player(state: GameState, recipient: str) -> str:
    """The player who orders effects for an event: the recipient, or its controller (616.1)."""
    perm = state.perm(recipient)
    if perm is not None:
        return perm.controller
    return recipient


def event_label(ev: Event) -> str:
    return f"{ev.source}->{ev.recipient}"


def can_be_dealt(state: GameState, table: Table, recipient: str) -> bool:
    """120.1a: only players, creatures, planeswalkers and battles; a player who left is dealt none."""
    if is_player(table, recipient):
        return not state.player(recipient).left
    perm = state.perm(recipient)
    if perm is None or not perm.present:
        return False
    types = set(table.perm_specs[perm.spec].types)
    return bool(types & {"creature", "planeswalker", "battle"})


def _unpreventable(state: GameState, table: Table, insts: tuple[Instance, ...], ev: Event,
                   kind: EffectKind = EffectKind.CANT_BE_PREVENTED) -> bool:
    for inst in insts:
        if inst.spec.kind == kind and inst.spec.value and filters_match(inst, ev, state, table):
            return True
    return False


def unpreventable(state: GameState, table: Table, ev: Event) -> Event:
    """``ev`` marked as damage that can't be prevented where an effect in force says so (615.12),
    as :func:`start_batch` marks the events of a batch."""
    return replace(ev, unpreventable=_unpreventable(state, table, effects_in_force(state, table), ev))


def start_batch(state: GameState, table: Table, events: list[Event]) -> GameState:
    """Open a batch: drop events nobody can be dealt, mark unpreventable ones, and read the
    dynamic amounts of static prevention now, before any of the batch is dealt (615.10 and the
    Shield of the Avatar ruling)."""
    insts = effects_in_force(state, table)
    kept = []
    for i, ev in enumerate(events):
        if ev.amount <= 0 or not can_be_dealt(state, table, ev.recipient):
            continue  # 120.8: 0 damage is no damage
        # (an event its source's own ability made unpreventable stays so: Banefire, solver.oneshot)
        kept.append(replace(ev, unpreventable=ev.unpreventable or _unpreventable(state, table, insts, ev), origin=i, before=ev.amount,
                            unredirectable=ev.unredirectable or _unpreventable(state, table, insts, ev, EffectKind.CANT_BE_REDIRECTED)))
    for inst in insts:
        if inst.spec.kind == EffectKind.PREVENT and inst.spec.next_time:
            # 615.8: of several events dealt at once that it could prevent, one source's are one
            # instance, but whether it prevents half (or N) of each or of their total isn't
            # settled; several sources' are no choice the rules give, and the batch's order
            # would pick one (damage that can't be prevented doesn't use it, 615.12)
            hits = sum(1 for ev in kept if not ev.unpreventable and filters_match(inst, ev, state, table))
            if hits > 1:
                raise EngineError(f"{inst.key}: a next-time prevention of part of the damage (CR 615.8) that could apply to "
                                  f"{hits} damage events dealt at once is not modelled (which is its next time, or "
                                  "half of each or of all, isn't settled)")
        if inst.spec.kind == EffectKind.REDIRECT and inst.spec.next_time:
            hits = sum(1 for ev in kept if filters_match(inst, ev, state, table))
            if hits > 1:
                # "the next time a source ... would deal damage": with its damage to several at
                # once, whether all of it or one event is that time isn't settled here (615.8 has
                # "the next instance of damage"): refused rather than picked by event order
                raise EngineError(f"{inst.key}: a next-time redirection (CR 614.9) that could apply to {hits} damage events "
                                  "dealt at once is not modelled (which of them is its next time is not settled)")
    counts = []
    for inst in insts:
        value = inst.spec.value
        if inst.spec.kind == EffectKind.PREVENT and isinstance(value, CountOf):
            n = sum(1 for p in state.perms if p.present and matches(value.selector, p.id, state, table, inst.view))
            counts.append((inst.key, n))
    return replace(state, batch=Batch(tuple(kept), counts=tuple(counts)))


def filters_match(inst: Instance, ev: Event, state: GameState, table: Table) -> bool:
    """Whether the effect ``inst`` reaches the damage event ``ev``: its combat-only or noncombat
    filter, its recipients and sources (a source as it last existed, 113.7a), its chosen source."""
    spec = inst.spec
    if spec.combat is not None and spec.combat != ev.combat:
        return False
    if not matches(spec.to, ev.recipient, state, table, inst.view):
        return False
    if not matches(spec.from_, ev.source, state, table, inst.view, last_known=True):
        return False
    # a source-of-your-choice shield applies only to that source and re-checks its
    # properties each time (615.9, 609.7b)
    return not (inst.view.chosen_source is not None and spec.source_choice is not None
                and ev.source != inst.view.chosen_source)


def protected_from(inst: Instance, obj: str | None, controller: str | None, state: GameState, table: Table,
                   last_known: bool = False) -> bool:
    """Whether the protection effect ``inst`` protects from the object ``obj`` controlled by
    ``controller`` (702.16a): from a player, when that player controls it (702.16k); from a
    quality, when ``obj`` has it (a damage source read as it last existed, 113.7a). Every
    protection rule reads this: damage (702.16e), targets (702.16b), attachments (702.16c-d),
    blocks (702.16f)."""
    prot = inst.spec.value
    if prot.player is not None:
        return controller is not None and matches(prot.player, controller, state, table, inst.view)
    return obj is not None and matches(prot.quality, obj, state, table, inst.view, last_known=last_known)


def _protected_from(inst: Instance, ev: Event, state: GameState, table: Table) -> bool:
    """702.16e: damage from a source the player or permanent is protected from (a player's:
    sources the player controls, or owns with no controller)."""
    ctrl = controller_of(state, table, ev.source)
    if ctrl is None:
        spec = table.spec_of(state, ev.source)
        ctrl = getattr(spec, "owner", None)
    return protected_from(inst, ev.source, ctrl, state, table, last_known=True)


def _redirect_target(inst: Instance, state: GameState, table: Table) -> str | None:
    sel = inst.spec.value
    if sel.kind == SelectorKind.SELF:
        return inst.view.self_id
    if sel.kind == SelectorKind.TARGET:
        return inst.view.target
    if sel.kind == SelectorKind.YOU:
        return inst.view.controller
    if sel.kind == SelectorKind.CHOSEN:
        return inst.view.chosen  # "the chosen permanent" (Gideon's Sacrifice), fixed as it resolved
    if sel.kind == SelectorKind.REF:
        return str(sel.name)
    if sel.kind in (SelectorKind.EQUIPPED, SelectorKind.ENCHANTED):
        return attached_to(state, inst.view.self_id)
    if sel.kind == SelectorKind.CHOSEN_SOURCE_CONTROLLER:  # "to that source's controller" (Reflect Damage)
        src = inst.view.chosen_source
        return None if src is None else controller_of(state, table, src)
    raise AssertionError(f"a redirection to {sel.kind}")  # model.vocab.effects.REDIRECT_TO


def applicable_effects(state: GameState, table: Table, ev: Event, any_amount: bool = False) -> list[Instance]:
    """Effects that would now modify ``ev`` (616.1f: re-checked after every application); with
    ``any_amount``, those that would at some amount of it (a cap only above its N: the CP plan
    orders an event's effects over every amount it takes)."""
    if ev.amount <= 0:
        return []  # 120.8, 614.7a
    batch = state.batch
    out = []
    for inst in effects_in_force(state, table):
        spec = inst.spec
        if spec.kind not in ORDERED_KINDS or inst.key in ev.applied:
            continue
        if committed(batch, inst.key) not in (None, ev.source):
            continue  # 615.8: it prevents another source's instance of damage
        if not filters_match(inst, ev, state, table):
            continue
        if spec.kind == EffectKind.PROTECTION and not _protected_from(inst, ev, state, table):
            continue
        if spec.kind == EffectKind.REDIRECT:
            new = _redirect_target(inst, state, table)
            if new == ev.recipient or ev.unredirectable:
                continue  # (614.9: "can't be dealt instead to another permanent or player")
        if spec.kind == EffectKind.PREVENT and batch is not None and isinstance(spec.value, CountOf):
            if dict(batch.counts).get(inst.key, 0) <= 0 and not ev.unpreventable:
                continue
        rule = None if any_amount else amount_rule(inst, state)
        if rule is not None and not rule.applies(ev.amount):
            continue  # a cap on no more than its N (solver.rules.amounts.AmountRule.least)
        out.append(inst)
    return out


def shield_room(state: GameState, inst: Instance, ev: Event) -> int:
    """How much a depleting shield (or a partial redirection) could take from this event (615.7:
    solver.rules.shields.room; a one-instance shield all of it, 615.8)."""
    eff = _effect_state(state, inst)
    if inst.spec.kind == EffectKind.SHIELD and is_all(inst.spec.value):
        return ev.amount
    remaining = eff.remaining if eff is not None and eff.remaining is not None else 0
    return shields.room(remaining, ev.amount)


def _effect_state(state: GameState, inst: Instance) -> EffectState | None:
    if inst.state_id is None:
        return None
    for e in state.effects:
        if e.id == inst.state_id:
            return e
    return None


def amount_rule(inst: Instance, state: GameState) -> AmountRule | None:
    """``inst``'s rule on an event's amount (solver.rules.amounts), its count read at batch start (615.10)."""
    counts = dict(state.batch.counts) if state.batch is not None else {}
    return rule_of(inst.spec, counts.get(inst.key))


def would_prevent(state: GameState, inst: Instance, ev: Event) -> int:
    """What prevention ``inst`` applied to ``ev`` would prevent: a shield what it has room for
    (615.7), another prevention what its rule removes. For damage that can't be prevented it
    prevents none of it (615.12), but this is still "that damage" its additional effect reads
    (Protean Hydra's "remove that many +1/+1 counters"); the CP model reads it too."""
    if inst.spec.kind == EffectKind.SHIELD:
        return shield_room(state, inst, ev)
    rule = amount_rule(inst, state)
    assert rule is not None and rule.prevents
    return ev.amount - rule.apply(ev.amount)


def _add_prevented(batch: Batch, key: str, amount: int, would: int, source: str = "") -> Batch:
    """Record that effect ``key`` was applied: it prevented ``amount`` and tried to prevent
    ``would`` (the same unless the damage can't be prevented, 615.12: Protean Hydra's "that many")."""
    totals = dict(batch.prevented)
    totals[key] = totals.get(key, 0) + amount
    tried = dict(batch.tried)
    tried[key] = tried.get(key, 0) + would
    return replace(batch, prevented=tuple(sorted(totals.items())), tried=tuple(sorted(tried.items())),
                   prevented_from=by_source(batch.prevented_from, key, source, amount))


def apply_effect(state: GameState, table: Table, index: int, inst: Instance, take: int | None = None) -> GameState:  # noqa: PLR0915 (615.7's shield take leaves it for solver/rules/: the "rules" helper's, this session)
    """Apply one effect to event ``index`` of the open batch (one 616.1 step).

    ``take`` is the chosen amount for shields and partial redirections (615.7): how much of this
    event the shield prevents (or redirects).
    """
    batch = state.batch
    assert batch is not None
    ev = batch.events[index]
    spec = inst.spec
    applied = ev.applied | {inst.key}
    events = list(batch.events)
    kind = spec.kind
    if kind in PREVENTION_KINDS:
        if kind == EffectKind.SHIELD:
            room = shield_room(state, inst, ev)
            k = room if take is None else take
            would = would_prevent(state, inst, ev) if ev.unpreventable else k
            if ev.unpreventable:
                k = 0  # 615.12: unpreventable damage doesn't reduce the shield
            elif k < room:
                batch = pass_over(batch, inst.key, ev.source) if is_all(spec.value) else \
                    replace(batch, skipped=batch.skipped | {inst.key})
            eff = _effect_state(state, inst)
            if eff is not None and k > 0:
                if is_all(spec.value):
                    batch = commit(batch, inst.key, ev.source)  # 615.8: this source's damage is its instance
                elif eff.remaining is not None:
                    state = state.set_effect(replace(eff, remaining=eff.remaining - k))
            prevented = k
        else:
            would = would_prevent(state, inst, ev)
            prevented = 0 if ev.unpreventable else would
            if spec.next_time and prevented > 0:
                batch = commit(batch, inst.key, ev.source)  # 615.8, 609.7b
        events[index] = replace(ev, amount=ev.amount - prevented, applied=applied)
        batch = replace(batch, events=tuple(events))
        # riders (615.5) and 615.13 triggers use the total this effect prevented in the batch;
        # the rider still "applies" with 0 (615.12) but then does nothing
        batch = _add_prevented(batch, inst.key, prevented, would, ev.source if per_source(spec) else "")
        return replace(state, batch=batch)
    if kind == EffectKind.DAMAGE_TO_COUNTERS:
        # "put that many +1/+1 counters on it instead" (614.1a): no damage is dealt, so no other
        # effect on damage applies to it any more (616.1f) and it has no result of damage (120.3)
        events[index] = replace(ev, applied=applied, done=True, as_counters=str(spec.value))
    elif kind in (EffectKind.MULTIPLY, EffectKind.ADD, EffectKind.SUBTRACT, EffectKind.CAP, EffectKind.HALVE):
        rule = amount_rule(inst, state)
        assert rule is not None
        events[index] = replace(ev, amount=rule.apply(ev.amount), applied=applied)
    elif kind == EffectKind.REDIRECT:
        new = _redirect_target(inst, state, table)
        # the original recipient is still there: start_batch dropped events to players who left
        if new is None or not can_be_dealt(state, table, new):
            events[index] = replace(ev, applied=applied)  # 614.9: the redirection does nothing
        elif spec.shield is not None:
            eff = _effect_state(state, inst)
            room = shield_room(state, inst, ev)
            k = room if take is None else take
            if k < room:
                batch = replace(batch, skipped=batch.skipped | {inst.key})
            if eff is not None and eff.remaining is not None and k > 0:
                state = state.set_effect(replace(eff, remaining=eff.remaining - k))
            events[index] = replace(ev, amount=ev.amount - k, applied=applied, done=ev.amount - k <= 0)
            if k > 0:
                events.append(replace(ev, recipient=new, amount=k, applied=applied, done=False, before=k))
        else:
            events[index] = replace(ev, recipient=new, applied=applied)
            eff = _effect_state(state, inst)
            if eff is not None and spec.next_time:
                state = state.set_effect(replace(eff, used=True))  # its next time has come (start_batch)
    batch = replace(batch, events=tuple(events))
    return replace(state, batch=batch)

