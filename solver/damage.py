"""A damage batch, event by event: the affected player's 616.1 order and 615.7 shield takes,
then the batch is dealt, its riders queued (615.5) and its prevention triggers collected."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from mtg_outcomes.model.effects import EffectKind, is_all
from mtg_outcomes.model.kinds import ActionKind, DecisionKind
from mtg_outcomes.model.selectors import Selector, SelectorKind
from mtg_outcomes.model.types import (
    OneShot,
    Rider,
)

from .decision import Decision, Option, decide, event, recording, says
from .excess import excess_split
from .next_time import committed, end_instances, fell_short, one_instance
from .oneshot import run_one_shot
from .persource import per_source, to_sources
from .results import deal, event_words
from .rules import shields
from .rules.effects import (
    Instance,
    affected_player,
    applicable_effects,
    apply_effect,
    effect_name,
    effects_in_force,
    event_label,
    shield_room,
)
from .select import View
from .state import (
    Batch,
    Event,
    GameState,
    Table,
    TaskKind,
    replace,
)
from .triggers import prevention_triggers
from .values import evaluate
from .words import effect_label, name, possessive

__all__ = ['batch_step', 'next_event', 'shield_takes', 'effects_in_force_all', 'run_rider', 'rider_shot', 'excess_split']


def _rank(table: Table, name: str) -> int:
    order = table.apnap(table.order)
    return order.index(name) if name in order else 99


def next_event(state: GameState, table: Table, among: Iterable[int] | None = None) -> int | None:
    """The open event of the batch its affected player deals with next (616.1), or None when
    every event is done: affected players in APNAP order (101.4), then batch order. An event
    redirected to another player's object (614.9) waits for its new affected player's turn.
    ``among``: only those events (the CP engine walks one event and the events it splits into)."""
    batch = state.batch
    assert batch is not None
    indices = range(len(batch.events)) if among is None else among
    open_ = [i for i in indices if not batch.events[i].done]
    if not open_:
        return None
    return min(open_, key=lambda k: (_rank(table, affected_player(state, batch.events[k].recipient)), k))


def batch_step(state: GameState, table: Table) -> GameState | Decision:
    batch = state.batch
    assert batch is not None
    if batch.asking is not None:
        return _ask_optional(state, table)
    i = next_event(state, table)
    if i is None:
        return _finish_batch(state, table)
    ev = batch.events[i]
    open_ = [k for k, e in enumerate(batch.events) if not e.done]
    apps = applicable_effects(state, table, ev)
    if not apps:
        events = list(batch.events)
        events[i] = replace(ev, done=True)
        return replace(state, batch=replace(batch, events=tuple(events)))
    others_open = len(open_) > 1
    chooser = affected_player(state, ev.recipient)
    options: list[Option] = []
    first = " first" if len(apps) > 1 else ""
    on = _damage_words(state, table, ev)
    for inst in apps:
        name = effect_name(inst, table, state) + first
        for take in shield_takes(state, inst, ev, others_open):
            if inst.spec.may and inst.view.controller != chooser:
                # "you may ...": the affected player picks it now (616.1), its controller then decides
                asked = replace(batch, asking=(i, inst.key, -1 if take is None else take))
                nxt: GameState = replace(state, batch=asked)
            else:
                nxt = apply_effect(state, table, i, inst, take)
            if take is None:
                words = f"{says(chooser, 'applies')} {name} to {on}"
                picked = inst.key
            else:
                verb = "redirects" if inst.spec.kind == EffectKind.REDIRECT else "prevents"
                words = f"{says(chooser, 'applies')} {name} to {on}: it {verb} {take}"
                picked = f"{inst.key}:{take}"
            options.append(Option(picked, words, nxt))
        if inst.spec.may and inst.view.controller == chooser:
            options.append(Option(f"{inst.key}:no", f"{says(chooser, 'declines')} {effect_name(inst, table, state)} "
                                  f"for {on}", _decline(state, i, inst)))
    kind = DecisionKind.ORDER if len(apps) > 1 else (DecisionKind.MAY if apps[0].spec.may else DecisionKind.SPLIT)
    return decide(chooser, kind, event_label(ev), options, rule="616.1" if kind is DecisionKind.MAY else "")


def _decline(state: GameState, index: int, inst: Instance) -> GameState:
    """An optional effect ("you may prevent that damage") its controller doesn't use for this event:
    it has been considered once (614.5), changes nothing, prevents nothing (no rider, no 615.13 trigger)."""
    batch = state.batch
    assert batch is not None
    events = list(batch.events)
    events[index] = replace(events[index], applied=events[index].applied | {inst.key})
    return replace(state, batch=replace(batch, events=tuple(events), asking=None))


def _ask_optional(state: GameState, table: Table) -> GameState | Decision:
    """The controller of an optional effect the affected player picked decides whether it applies
    ("If a source would deal damage to a player, you may prevent ...": Battletide Alchemist)."""
    batch = state.batch
    assert batch is not None and batch.asking is not None
    index, key, take = batch.asking
    inst = next(x for x in effects_in_force(state, table) if x.key == key)
    ev = batch.events[index]
    who = inst.view.controller
    cleared = replace(state, batch=replace(batch, asking=None))
    name = effect_name(inst, table, state)
    yes = apply_effect(cleared, table, index, inst, None if take < 0 else take)
    on = _damage_words(state, table, ev)
    return decide(who, DecisionKind.MAY, event_label(ev), rule="616.1", options=[
        Option("yes", f"{says(who, 'chooses')} to apply {name} to {on}", yes),
        Option("no", f"{says(who, 'declines')} {name} for {on}", _decline(cleared, index, inst))])


def _damage_words(state: GameState, table: Table, ev: Event) -> str:
    """"Scroll Thief's 1 damage to you": an event of a batch in a witness's words."""
    return f"{possessive(name(state, table, ev.source))} {ev.amount} damage to {name(state, table, ev.recipient)}"


def shield_takes(state: GameState, inst: Instance, ev: Event, others_open: bool) -> list[int | None]:
    """The amounts a shield (or a partial redirection) may take from this event (615.7); None
    for other effects. With no other event open, only the most it can take (less would leave it
    unused, an illegal branch)."""
    depleting = inst.spec.kind == EffectKind.SHIELD or (inst.spec.kind == EffectKind.REDIRECT and inst.spec.shield is not None)
    if not depleting:
        return [None]
    if ev.unpreventable and inst.spec.kind == EffectKind.SHIELD:
        return [0]
    room = shield_room(state, inst, ev)
    if not others_open:
        return [room]
    if inst.spec.kind == EffectKind.SHIELD and is_all(inst.spec.value):
        # committed to this source's instance, it prevents this too (615.8, solver.next_time)
        return [room] if committed(state.batch, inst.key) == ev.source else [room, 0]
    return list(shields.shares(room))


def _finish_batch(state: GameState, table: Table) -> GameState:
    batch = state.batch
    assert batch is not None
    # a shield that prevented less than it could somewhere must be used up (615.7); a
    # one-instance shield prevents all of its instance (615.8, solver.next_time)
    once = {e.id for e in state.effects if one_instance(e.spec)}
    if fell_short(state, once) or any(shields.falls_short(e.id not in batch.skipped, e.remaining or 0)
                                      for e in state.effects if e.id not in once):
        return replace(state, dead=True, batch=None)
    state = replace(end_instances(state), batch=None)
    if recording():
        state = _said(state, table, batch.events)
    state = deal(state, table, batch.events, _rider_gains(state, table, batch))
    # riders happen immediately after the prevention, before state-based actions (615.5)
    riders: list[Any] = []
    insts = {x.key: x for x in effects_in_force_all(state, table)}
    tried = dict(batch.tried)
    for key, amount in batch.prevented:
        inst = insts.get(key)
        if inst is not None and per_source(inst.spec):  # its damage to each source at once (solver.persource)
            each = tuple((src, n) for k, src, n in batch.prevented_from if k == key and n > 0)
            if each:
                riders.append((TaskKind.RIDER, key, amount, amount, each))
        elif inst is not None and inst.spec.then is not None and _rider_happens(inst.spec.then, amount):
            riders.append((TaskKind.RIDER, key, amount, tried.get(key, amount)))
    state = prevention_triggers(state, table, batch)
    if riders:
        state = replace(state, queue=tuple(riders) + state.queue)
    return state


def _said(state: GameState, table: Table, events: tuple[Event, ...]) -> GameState:
    """Each event of the batch in the witness's log as it is dealt (solver.results.event_words)."""
    labels: dict[str, str] = {}
    if any(ev.applied for ev in events):
        labels = {x.key: effect_label(x, table, state, short=True) for x in effects_in_force_all(state, table)}
    for ev in events:
        words, rule = event_words(state, table, ev, labels)
        state = event(state, words, rule)
    return state


def _rider_happens(rider: Rider, prevented: int) -> bool:
    """A prevention effect's additional effect takes place once it has been applied, even when it
    prevented nothing because the damage can't be prevented (615.12); one that says "if damage is
    prevented this way" needs some damage prevented."""
    return prevented > 0 or not rider.if_prevented


def _rider_gains(state: GameState, table: Table, batch: Batch) -> dict[str, int]:
    gains: dict[str, int] = defaultdict(int)
    insts = {x.key: x for x in effects_in_force_all(state, table)}
    tried = dict(batch.tried)
    for key, amount in batch.prevented:
        inst = insts.get(key)
        if inst is None or inst.spec.then is None or inst.spec.then.kind != ActionKind.GAIN_LIFE \
                or not _rider_happens(inst.spec.then, amount):
            continue
        who = inst.spec.then.to
        if who is None or who.kind == SelectorKind.YOU:
            gains[inst.view.controller] += evaluate(inst.spec.then.amount, _rider_env(state, inst, amount, tried.get(key, amount)))
    return gains


def effects_in_force_all(state: GameState, table: Table) -> list[Instance]:
    """Like effects_in_force, but including shields used up in this batch (for their riders)."""
    out = list(effects_in_force(state, table))  # a copy: the cached list is shared
    keys = {i.key for i in out}
    for e in state.effects:
        if e.id not in keys:
            out.append(Instance(e.id, e.spec, View(e.controller, e.source, e.target, e.chosen,
                                                    e.chosen_source), e.id, e.id))
    return out


def run_rider(state: GameState, table: Table, key: str, amount: int, that_damage: int,
              each: tuple[tuple[str, int], ...] = ()) -> GameState:
    """A prevention effect's rider, done right after the prevention, before state-based actions
    (615.5): damage, life, cards or counters ("put a +1/+1 counter for each 1 damage prevented").
    ``amount`` is what the effect prevented, ``that_damage`` what it applied to and would have
    prevented had the damage been preventable (615.12: Protean Hydra's "remove that many")."""
    inst = next(x for x in effects_in_force_all(state, table) if x.key == key)
    rider = inst.spec.then
    assert rider is not None
    env = _rider_env(state, inst, amount, that_damage)
    shot = rider_shot(inst, evaluate(rider.amount, env))
    if each:  # (what it prevented of each source, to that source or its controller: solver.persource)
        shot = to_sources(state, table, shot, each)
    return run_one_shot(state, table, shot, inst.view, env)


def _rider_env(state: GameState, inst: Instance, prevented: int, that_damage: int) -> dict[str, int]:
    """What a rider's amount reads (615.5): what its effect prevented, the damage it was applied
    to (615.12), and the X of the spell or ability that created the effect (a static ability's
    is 0, 107.3i)."""
    made = state.effect(inst.state_id)
    return {"prevented": prevented, "that_damage": that_damage, "X": made.x if made is not None else 0}


def rider_shot(inst: Instance, n: int) -> OneShot:
    """A prevention effect's rider as the one-shot action it does, ``n`` its amount (615.5): its
    source is the effect's permanent or its controller, its recipients its ``to`` (you by
    default); the CP model reads who they are from it (solver.oneshot.shot_recipients)."""
    rider = inst.spec.then
    assert rider is not None
    source = inst.view.self_id or inst.view.controller
    return OneShot(rider.kind, ("int", n), rider.to or Selector(SelectorKind.YOU), source=source, counter=rider.counter,
                   token=rider.token)
