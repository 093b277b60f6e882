"""The timeline: actions in order, damage batches, results, state-based actions and triggers.

:func:`advance` runs a state forward through everything that involves no choice and stops at the
next decision (a :class:`Decision` with one option per legal choice) or at the end. Everything is
a pure function of the state, so the choice graph can merge identical states.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from model.errors import EngineError
from model.expr import expr_str
from model.selectors import Selector
from model.types import (
    Ability,
    ActivateAction,
    CombatAction,
    CouldProduceAction,
    CreateAction,
    DamageAction,
    EndStepAction,
    EnterAction,
    LeaveAction,
    LeaveGameAction,
    LifeAction,
    MayAction,
    OneShot,
    OneShotAction,
    PermanentSpec,
    TapForManaAction,
    with_pt_counters,
)

from . import combat as combat_mod
from .decision import NOT_DONE, Decision, Option, decide, note, says
from .rules import (
    Instance,
    affected_player,
    applicable_effects,
    apply_effect,
    effect_name,
    effects_in_force,
    event_label,
    shield_room,
    start_batch,
)
from .select import View, controller_of, has_keyword, is_player, matches, opponents
from .state import (
    Event,
    GameState,
    PermState,
    StackItem,
    Table,
    Trigger,
    make_effect_state,
    replace,
)
from .values import evaluate

__all__ = ["Option", "Decision", "advance", "final_fields", "MAX_STEPS", "collect_triggers", "cost_problem",
           "find_ability", "pay_cost", "summoning_sick"]

MAX_STEPS = 100_000  # a guard against a loop in one deterministic run




# ---------------------------------------------------------------------------------------------
# life, poison and Two-Headed Giant (810.9, 810.10)


def _team_names(state: GameState, table: Table, name: str) -> list[str]:
    me = state.player(name)
    if table.two_headed and me.team is not None:
        return [p.name for p in state.players if p.team == me.team]
    return [name]


def change_life(state: GameState, table: Table, name: str, delta: int) -> GameState:
    """Life changes happen to the player and are applied to the team's shared total (810.9)."""
    if delta == 0:
        return state
    for member in _team_names(state, table, name):
        p = state.player(member)
        state = state.set_player(replace(p, life=p.life + delta))
    p = state.player(name)
    if delta < 0:
        state = state.set_player(replace(p, life_lost=p.life_lost - delta))
    else:
        state = state.set_player(replace(p, life_gained=p.life_gained + delta))
    return state


def add_poison(state: GameState, table: Table, name: str, n: int) -> GameState:
    for member in _team_names(state, table, name):
        p = state.player(member)
        state = state.set_player(replace(p, poison=p.poison + n))
    return state


def cant_gain_life(state: GameState, table: Table, name: str) -> bool:
    """"Can't gain life" effects; in Two-Headed Giant they cover the team (810.9g)."""
    team = _team_names(state, table, name)
    for inst in effects_in_force(state, table):
        if inst.spec.kind == "cant_gain_life":
            if any(matches(inst.spec.value, member, state, table, inst.view) for member in team):
                return True
    return False


def gain_life(state: GameState, table: Table, name: str, n: int) -> GameState:
    """A life-gain event (119.9: gaining 0 is no event); returns with gain_life triggers pending."""
    if n <= 0 or state.player(name).left or cant_gain_life(state, table, name):
        return state
    state = change_life(state, table, name, n)
    return collect_triggers(state, table, "gain_life", [(name, {"amount": n})])


# ---------------------------------------------------------------------------------------------
# triggers (603.2, 603.3b)


def _watchers(state: GameState, table: Table, trigger: str) -> list[tuple[str, str, int, Ability]]:
    out = []
    for p in state.perms:
        if not p.present:
            continue
        spec = table.perm_specs[p.spec]
        for j, ab in enumerate(spec.abilities):
            if ab.kind == "trigger" and ab.trigger == trigger:
                out.append((p.id, p.controller, j, ab))
    return out


def collect_triggers(state: GameState, table: Table, trigger: str, happenings: list[tuple[str, dict[str, Any]]]) -> GameState:
    """Add the triggers that ``happenings`` fire to ``state.pending``."""
    new: list[Trigger] = []
    for oid, ctrl, j, ab in _watchers(state, table, trigger):
        watcher = state.perm(oid)
        view = View(ctrl, oid, None, watcher.chosen if watcher is not None else None)
        for thing, values in happenings:
            if trigger == "gain_life":
                ok = matches(ab.trigger_to, thing, state, table, view, default=False) if ab.trigger_to else thing == ctrl
            elif trigger in ("deals_damage",):
                ok = matches(ab.trigger_from, thing, state, table, view) if ab.trigger_from else thing == oid
                if ok and ab.trigger_combat is not None:
                    ok = bool(values.get("combat", 0)) == ab.trigger_combat
            elif trigger == "dealt_damage":
                ok = matches(ab.trigger_to, thing, state, table, view) if ab.trigger_to else thing == oid
                if ok and ab.trigger_from is not None:
                    ok = matches(ab.trigger_from, str(values.get("_from", "")), state, table, view)
            elif trigger == "damage_prevented":
                ok = matches(ab.trigger_to, thing, state, table, view) if ab.trigger_to else thing == ctrl
            elif trigger == "combat_damage_to_player":
                ok = matches(ab.trigger_from, thing, state, table, view) if ab.trigger_from else thing == oid
                if ok and ab.trigger_to is not None:
                    ok = matches(ab.trigger_to, str(values.get("_to", "")), state, table, view)
            elif trigger == "enters":
                ok = thing == oid  # "When this enters": its own entering only
            elif trigger == "tapped_for_mana":
                # the seeds' rule: it triggers when the ability resolves and produces mana (of that type)
                ok = matches(ab.trigger_from, thing, state, table, view) if ab.trigger_from else thing == oid
                if ok and ab.trigger_mana is not None:
                    ok = ab.trigger_mana in str(values.get("_mana", ""))
            else:
                ok = True
            if ok:
                vals = tuple(sorted((k, v) for k, v in values.items() if not k.startswith("_")))
                player = values.get("_player")
                new.append(Trigger(ctrl, oid, j, vals, label=f"{table.perm_specs[state.perm(oid).spec].name}",  # type: ignore[union-attr]
                                   player=str(player) if player is not None else None))
    if not new:
        return state
    return replace(state, pending=state.pending + tuple(new))


# ---------------------------------------------------------------------------------------------
# dealing damage: results (120.3, 120.4c)


def _as_though(state: GameState, table: Table, ev: Event) -> set[str]:
    out = set()
    for inst in effects_in_force(state, table):
        if inst.spec.kind == "as_though":
            if matches(inst.spec.to, ev.recipient, state, table, inst.view) and \
                    matches(inst.spec.from_, ev.source, state, table, inst.view):
                out.add(inst.spec.value)
    return out


def _life_floor(state: GameState, table: Table, name: str) -> int | None:
    floor = None
    for inst in effects_in_force(state, table):
        if inst.spec.kind == "life_floor" and matches(inst.spec.to, name, state, table, inst.view, default=True):
            floor = max(floor or 0, int(inst.spec.value))
    return floor


def deal(state: GameState, table: Table, events: tuple[Event, ...],
         gains: dict[str, int] | None = None) -> GameState:
    """All the batch's damage is dealt at once (510.2), then processed into results (120.4c).

    ``gains`` is life the same modified event gives (a prevention rider such as Awe Strike's):
    a life floor (Worship) compares the whole event's net change (CR 120.4 example).
    """
    loss: dict[str, int] = defaultdict(int)
    gain_by_source: dict[str, int] = defaultdict(int)
    by_source: dict[str, int] = defaultdict(int)
    by_source_combat: dict[str, int] = defaultdict(int)
    to_recipient: dict[str, int] = defaultdict(int)
    from_of: dict[str, str] = {}
    combat_to_player: dict[tuple[str, str], int] = defaultdict(int)
    for ev in events:
        n = ev.amount
        if n <= 0:
            continue  # 120.8
        src = table.spec_of(state, ev.source)
        infect = has_keyword(state, table, ev.source, "infect")
        wither = has_keyword(state, table, ev.source, "wither")
        extra = _as_though(state, table, ev)
        infect = infect or "infect" in extra
        wither = wither or "wither" in extra
        by_source[ev.source] += n
        if ev.combat:
            by_source_combat[ev.source] += n
        to_recipient[ev.recipient] += n
        from_of.setdefault(ev.recipient, ev.source)
        if is_player(table, ev.recipient):
            p = state.player(ev.recipient)
            state = state.set_player(replace(p, damage_taken=p.damage_taken + n))
            if infect:
                state = add_poison(state, table, ev.recipient, n)  # 120.3b
            else:
                loss[ev.recipient] += n  # 120.3a
            if ev.combat and src is not None and src.toxic and "creature" in src.types:
                state = add_poison(state, table, ev.recipient, src.toxic)  # 120.3g
            if ev.combat:
                combat_to_player[(ev.source, ev.recipient)] += n
        else:
            perm = state.perm(ev.recipient)
            assert perm is not None
            types = table.perm_specs[perm.spec].types
            if "creature" in types:
                if infect or wither:  # 120.3d
                    counters = dict(perm.counters)
                    counters["-1/-1"] = counters.get("-1/-1", 0) + n
                    perm = replace(perm, counters=tuple(sorted(counters.items())))
                else:  # 120.3e
                    perm = replace(perm, damage=perm.damage + n)
                if has_keyword(state, table, ev.source, "deathtouch"):
                    perm = replace(perm, deathtouched=True)  # 702.2b
            if "planeswalker" in types:
                perm = replace(perm, loyalty=perm.loyalty - n)  # 120.3c
            if "battle" in types:
                perm = replace(perm, defense=perm.defense - n)  # 120.3h
            state = state.set_perm(perm)
        if has_keyword(state, table, ev.source, "lifelink"):
            gain_by_source[ev.source] += n  # 120.3f, one event per source (702.15e)
    for name in sorted(loss):
        n = loss[name]
        floor = _life_floor(state, table, name)
        if floor is not None:
            life = state.player(name).life + (gains or {}).get(name, 0)
            if life - n < floor:
                n = max(0, life - floor)
        state = change_life(state, table, name, -n)
    for source in sorted(gain_by_source):
        ctrl = controller_of(state, table, source)
        if ctrl is not None:
            state = gain_life(state, table, ctrl, gain_by_source[source])
    state = collect_triggers(state, table, "combat_damage_to_player",
                     [(s, {"damage_dealt": n, "_to": p}) for (s, p), n in sorted(combat_to_player.items())])
    state = collect_triggers(state, table, "deals_damage",
                     [(s, {"damage_dealt": n, "combat": int(by_source_combat.get(s, 0) > 0)}) for s, n in sorted(by_source.items())])
    state = collect_triggers(state, table, "dealt_damage",
                     [(r, {"damage_dealt": n, "_from": from_of[r]}) for r, n in sorted(to_recipient.items())])
    return state


# ---------------------------------------------------------------------------------------------
# the batch: per-event 616 ordering


def _rank(table: Table, name: str) -> int:
    order = table.apnap(table.order)
    return order.index(name) if name in order else 99


def _batch_step(state: GameState, table: Table) -> GameState | Decision:
    batch = state.batch
    assert batch is not None
    open_ = [i for i, ev in enumerate(batch.events) if not ev.done]
    if not open_:
        return _finish_batch(state, table)
    i = min(open_, key=lambda k: (_rank(table, affected_player(state, batch.events[k].recipient)), k))
    ev = batch.events[i]
    apps = applicable_effects(state, table, ev)
    if not apps:
        events = list(batch.events)
        events[i] = replace(ev, done=True)
        return replace(state, batch=replace(batch, events=tuple(events)))
    others_open = len(open_) > 1
    chooser = affected_player(state, ev.recipient)
    options: list[Option] = []
    first = " first" if len(apps) > 1 else ""
    for inst in apps:
        name = effect_name(inst, table, state) + first
        for take in _takes(state, inst, ev, others_open):
            nxt = apply_effect(state, table, i, inst, take)
            if take is None:
                words = f"{says(chooser, 'applies')} {name} to {ev.source}'s damage to {ev.recipient}"
                picked = inst.key
            else:
                verb = "redirects" if inst.spec.kind == "redirect" else "prevents"
                words = f"{says(chooser, 'applies')} {name} to {ev.source}'s damage to {ev.recipient}: it {verb} {take}"
                picked = f"{inst.key}:{take}"
            options.append(Option(picked, words, nxt))
    return decide(chooser, "order" if len(apps) > 1 else "split", event_label(ev), options)


def _takes(state: GameState, inst: Instance, ev: Event, others_open: bool) -> list[int | None]:
    """The amounts a shield may take from this event (615.7); None for non-shields."""
    depleting = inst.spec.kind == "shield" or (inst.spec.kind == "redirect" and inst.spec.shield is not None)
    if not depleting:
        return [None]
    if ev.unpreventable and inst.spec.kind == "shield":
        return [0]
    room = shield_room(state, inst, ev)
    if not others_open:
        return [room]
    if inst.spec.kind == "shield" and inst.spec.value == "all":
        return [room, 0]
    return list(range(room, -1, -1))


def _finish_batch(state: GameState, table: Table) -> GameState:
    batch = state.batch
    assert batch is not None
    # a shield that prevented less than it could somewhere must be used up (615.7)
    for e in state.effects:
        if e.id in batch.skipped:
            left = (not e.used) if e.spec.value == "all" and e.spec.kind == "shield" else (e.remaining or 0) > 0
            if left:
                return replace(state, dead=True, batch=None)
    state = replace(state, batch=None)
    state = deal(state, table, batch.events, _rider_gains(state, table, batch))
    # riders happen immediately after the prevention, before state-based actions (615.5)
    riders: list[Any] = []
    insts = {x.key: x for x in effects_in_force_all(state, table)}
    for key, amount in batch.prevented:
        inst = insts.get(key)
        if amount > 0 and inst is not None and inst.spec.then is not None:
            riders.append(("rider", key, amount))
    state = _prevention_triggers(state, table, batch)
    if riders:
        state = replace(state, queue=tuple(riders) + state.queue)
    return state


def _rider_gains(state: GameState, table: Table, batch: Any) -> dict[str, int]:
    gains: dict[str, int] = defaultdict(int)
    insts = {x.key: x for x in effects_in_force_all(state, table)}
    for key, amount in batch.prevented:
        inst = insts.get(key)
        if inst is None or amount <= 0 or inst.spec.then is None or inst.spec.then.kind != "gain_life":
            continue
        who = inst.spec.then.to
        if who is None or who.kind == "you":
            gains[inst.view.controller] += evaluate(inst.spec.then.amount, {"prevented": amount})
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


def _prevention_triggers(state: GameState, table: Table, batch: Any) -> GameState:
    """615.13: once per prevention effect applied to simultaneous events that prevented damage."""
    happenings = []
    for key, amount in batch.prevented:
        if amount <= 0:
            continue
        recipients = sorted({ev.recipient for ev in batch.events if key in ev.applied})
        for r in recipients:
            happenings.append((r, {"prevented": amount}))
    return collect_triggers(state, table, "damage_prevented", happenings) if happenings else state


def _run_rider(state: GameState, table: Table, key: str, amount: int) -> GameState:
    inst = next(x for x in effects_in_force_all(state, table) if x.key == key)
    rider = inst.spec.then
    assert rider is not None
    env = {"prevented": amount, "X": 0}
    n = evaluate(rider.amount, env)
    source = inst.view.self_id or inst.view.controller
    shot = OneShot(rider.kind, ("int", n), rider.to or Selector("you"), source=source)
    return run_one_shot(state, table, shot, inst.view, env)


# ---------------------------------------------------------------------------------------------
# one-shot actions: deal, lose_life, gain_life, draw


def _recipients(state: GameState, table: Table, shot: OneShot, view: View) -> list[str]:
    sel = shot.to
    if sel.kind in ("target", "any", "choice"):
        return [view.target] if view.target is not None else []
    things = [p.name for p in state.players if not p.left]
    if shot.kind == "deal":
        things += [p.id for p in state.perms if p.present]
    return [t for t in things if matches(sel, t, state, table, view)]


def run_one_shot(state: GameState, table: Table, shot: OneShot, view: View, env: dict[str, int]) -> GameState:
    """Do one one-shot action now (608.2h: amounts are read as it resolves)."""
    recipients = _recipients(state, table, shot, view)
    if shot.kind == "deal":
        n = evaluate(shot.amount, env)
        source = shot.source or view.self_id or view.controller
        events = [Event(source, r, n, shot.combat) for r in recipients]
        return start_batch(state, table, events) if events else state
    for r in recipients:
        if not is_player(table, r) or state.player(r).left:
            continue
        local = dict(env)
        p = state.player(r)
        local["life_lost_this_turn"] = p.life_lost
        local["life_gained_this_turn"] = p.life_gained
        n = evaluate(shot.amount, local)
        if shot.kind == "lose_life":
            state = change_life(state, table, r, -n)
        elif shot.kind == "gain_life":
            state = gain_life(state, table, r, n)
        elif shot.kind == "draw":
            state = state.set_player(replace(p, cards_drawn=p.cards_drawn + n))
    return state


# ---------------------------------------------------------------------------------------------
# state-based actions (704)


def toughness(table: Table, perm: PermState) -> int:
    return with_pt_counters(table.perm_specs[perm.spec].toughness, perm.counter)


def power(table: Table, perm: PermState) -> int:
    return with_pt_counters(table.perm_specs[perm.spec].power, perm.counter)


def leave_game(state: GameState, table: Table, name: str) -> GameState:
    """800.4a: the player leaves; objects they own leave too, and their pending triggers cease."""
    state = state.set_player(replace(state.player(name), left=True))
    for perm in state.perms:
        if perm.present and table.perm_specs[perm.spec].owner == name:
            state = state.set_perm(replace(perm, present=False))
    return replace(state, pending=tuple(t for t in state.pending if t.controller != name),
                   stack=tuple(i for i in state.stack if i.controller != name))


def multiplayer(state: GameState, table: Table) -> bool:
    """A game that can go on after a player leaves it (800.4): more than two players, not 2HG."""
    return len(state.players) > 2 and not table.two_headed


def state_based_actions(state: GameState, table: Table) -> GameState:
    """Performed simultaneously, repeated until none apply (704.3)."""
    while True:
        changed = False
        losers: list[str] = []
        for p in state.players:
            if p.lost or p.left:
                continue
            limit = 15 if table.two_headed else 10  # 704.5c, 704.6b
            if p.life <= 0 or p.poison >= limit:  # 704.5a, 810.8c
                state = state.set_player(replace(p, lost=True))
                losers.append(p.name)
                changed = True
        dying = []
        for perm in state.perms:
            if not perm.present:
                continue
            spec = table.perm_specs[perm.spec]
            indestructible = "indestructible" in spec.keywords
            if "creature" in spec.types:
                t = toughness(table, perm)
                if t <= 0:  # 704.5f
                    dying.append(perm)
                    continue
                if not indestructible and (perm.damage >= t or (perm.deathtouched and perm.damage > 0)):
                    dying.append(perm)  # 704.5g, 704.5h
                    continue
                if not indestructible and perm.deathtouched and perm.counter("-1/-1") > 0:
                    dying.append(perm)
                    continue
            if "planeswalker" in spec.types and perm.loyalty <= 0:
                dying.append(perm)  # 704.5i
                continue
            if "battle" in spec.types and perm.defense <= 0:
                dying.append(perm)  # 704.5v
        for perm in dying:
            state = state.set_perm(replace(perm, present=False, died=True))
            changed = True
        # all of these happen at once (704.3); then, in a multiplayer game, the losers leave
        # with their objects (800.4a)
        if multiplayer(state, table):
            for name in losers:
                state = leave_game(state, table, name)
        elif losers:
            return game_over(state, losers)
        if not changed:
            return state


def game_over(state: GameState, losers: list[str]) -> GameState:
    """104.2a, 104.3: in a two-player game (and in Two-Headed Giant, 810.8a, between two teams) the
    game ends as soon as a player (a team) loses: nothing further happens, no later damage step, no
    trigger, no rider. The outcome is the state at that moment. (Multiplayer games go on, 800.4.)"""
    who = " and ".join(losers)
    state = replace(state, queue=(), batch=None, pending=(), stack=())
    return note(state, f"the game is over: {who} {'lose' if who == 'you' or len(losers) > 1 else 'loses'} "
                       "the game, so nothing further happens (104.2a, 104.3)")


# ---------------------------------------------------------------------------------------------
# targets (115, 601.2c, 608.2b)


def legal_target(state: GameState, table: Table, target: str | None, requirement: Any, controller: str,
                 source: str) -> bool:
    if target is None:
        return False
    if is_player(table, target):
        p = state.player(target)
        if p.left:
            return False
    else:
        perm = state.perm(target)
        if perm is None or not perm.present:
            return False
    view = View(controller, source)
    if requirement is not None:
        kind = requirement.kind
        if kind == "any":
            if not is_player(table, target):
                types = table.perm_specs[state.perm(target).spec].types  # type: ignore[union-attr]
                if not set(types) & {"creature", "planeswalker", "battle"}:
                    return False
        elif not matches(requirement, target, state, table, view):
            return False
    # hexproof / shroud (702.11, 702.18) and protection from a player (702.16k)
    if not is_player(table, target):
        spec = table.perm_specs[state.perm(target).spec]  # type: ignore[union-attr]
        tctrl = state.perm(target).controller  # type: ignore[union-attr]
        if "shroud" in spec.keywords:
            return False
        if "hexproof" in spec.keywords and controller in opponents(table, state, tctrl):
            return False
    else:
        tctrl = target
    for inst in effects_in_force(state, table):
        kind = inst.spec.kind
        if kind in ("hexproof", "shroud") and inst.spec.value and matches(inst.spec.to, target, state, table, inst.view):
            if kind == "shroud" or controller in opponents(table, state, tctrl):
                return False
        if kind == "protection" and matches(inst.spec.to, target, state, table, inst.view) and \
                matches(inst.spec.value, controller, state, table, inst.view):
            return False
    return True


def target_candidates(state: GameState, table: Table, requirement: Any, controller: str, source: str) -> list[str]:
    things = [p.name for p in state.players if not p.left] + [p.id for p in state.perms if p.present]
    return [t for t in things if legal_target(state, table, t, requirement, controller, source)]


# ---------------------------------------------------------------------------------------------
# actions


def _view_player(table: Table) -> str:
    return "you" if "you" in table.order else table.active


def _perm_spec_index(table: Table, spec: PermanentSpec) -> int:
    for i, s in enumerate(table.perm_specs):
        if s is spec:
            return i
    table.perm_specs.append(spec)
    return len(table.perm_specs) - 1


def _run_action(state: GameState, table: Table, action: Any) -> GameState | Decision:
    if isinstance(action, DamageAction):
        events = [Event(d.source, d.to, evaluate(d.amount, {}), d.combat) for d in action.events]
        return start_batch(state, table, events)
    if isinstance(action, CombatAction):
        return combat_mod.begin_combat(state, table)
    if isinstance(action, OneShotAction):
        shot = action.action
        src = shot.source
        ctrl = controller_of(state, table, src) if src else None
        view = View(ctrl or _view_player(table), src)
        if shot.to.kind in ("target", "any", "choice"):
            # "to: any" is a target its controller chooses as the action happens (115.1)
            who = view.controller
            options = tuple(
                Option(c, f"{says(who, 'chooses')} {c} as the target", run_one_shot(state, table, shot, replace(view, target=c), {}))
                for c in target_candidates(state, table, Selector("any"), who, src or who))
            if not options:
                return note(state, f"{src or 'the action'} deals no damage: there is no legal target (115.1)", NOT_DONE)
            return decide(who, "target", f"{src} deals damage", options)
        return run_one_shot(state, table, shot, view, {})
    if isinstance(action, LifeAction):
        view = View(_view_player(table), action.source)
        shot = OneShot("gain_life" if action.gain else "lose_life", action.amount, action.who, action.source)
        return run_one_shot(state, table, shot, view, {})
    if isinstance(action, CreateAction):
        ce = action.effect
        eff = make_effect_state(ce.id, ce.spec, ce.controller, ce.source, ce.target, 0, state.next_order)
        return replace(state, effects=state.effects + (eff,), next_order=state.next_order + 1)
    if isinstance(action, EnterAction):
        spec = action.permanent
        idx = _perm_spec_index(table, spec)
        counters, loyalty = enters_with(spec, action.x)
        perm = PermState(id=spec.id, spec=idx, controller=spec.controller, damage=spec.damage,
                         counters=counters, loyalty=loyalty, defense=spec.defense,
                         chosen=spec.chosen, tapped=spec.tapped)
        state = replace(state, perms=state.perms + (perm,))
        # 603.2: "when this enters" triggers; their X is the spell's X (107.3m)
        state = collect_triggers(state, table, "enters", [(spec.id, {"X": action.x})])
        if spec.chosen is None and any(a.kind == "as_enters" for a in spec.abilities):
            opps = opponents(table, state, spec.controller)
            if not opps:
                return state
            if len(opps) == 1:
                return state.set_perm(replace(perm, chosen=opps[0]))
            return Decision(spec.controller, "choose", f"{spec.id} enters", tuple(
                Option(o, f"{says(spec.controller, 'secretly chooses')} {o} for {spec.name}", state.set_perm(replace(perm, chosen=o)))
                for o in opps))
        return state
    if isinstance(action, LeaveAction):
        leaving = state.perm(action.id)
        if leaving is None or not leaving.present:
            return state
        return state.set_perm(replace(leaving, present=False))
    if isinstance(action, LeaveGameAction):
        if not multiplayer(state, table):
            # 104.3a: a player who leaves a two-player game (or a Two-Headed Giant team, 810.8b) loses it
            names = _team_names(state, table, action.player)
            for name in names:
                state = state.set_player(replace(state.player(name), lost=True))
            return game_over(leave_game(state, table, action.player), names)
        return leave_game(state, table, action.player)
    if isinstance(action, EndStepAction):
        new = []
        for oid, ctrl, j, ab in _watchers(state, table, "end_step"):
            if ab.turn == "yours" and ctrl != table.active:
                continue
            new.append(Trigger(ctrl, oid, j, (), label=table.perm_specs[state.perm(oid).spec].name))  # type: ignore[union-attr]
        return replace(state, pending=state.pending + tuple(new))
    if isinstance(action, ActivateAction):
        return _activate(state, table, action)
    if isinstance(action, MayAction):
        return _may(state, table, action)
    if isinstance(action, CouldProduceAction):
        from .mana import could_produce_action

        return could_produce_action(state, table, action.id)
    if isinstance(action, TapForManaAction):
        from .mana import tap_for_mana

        return tap_for_mana(state, table, action)
    raise TypeError(f"unknown action {action!r}")


def enters_with(spec: PermanentSpec, x: int) -> tuple[tuple[tuple[str, int], ...], int]:
    """The counters (and loyalty) a permanent enters with (614.1c, 614.12).

    ``x`` is the X of the spell that became the permanent: an "enters with" replacement effect
    reads it (107.3m, the exception to 107.3i), though the permanent's own X is 0.
    """
    counters = dict(spec.counters)
    loyalty = spec.loyalty
    for ab in spec.abilities:
        if ab.kind != "enters_with":
            continue
        for kind, expr in ab.counters:
            n = evaluate(expr, {"X": x})
            if kind == "loyalty":
                loyalty += n  # loyalty counters are the permanent's loyalty (306.5b)
            else:
                counters[kind] = counters.get(kind, 0) + n
    return tuple(sorted(counters.items())), loyalty


def find_ability(table: Table, state: GameState, pid: str, index: int | None, kind: str) -> tuple[int, Ability] | None:
    """The ability an activation names: number ``index`` if it is of ``kind``, else (no index)
    the permanent's first ability of ``kind``; None when there is none."""
    abilities = table.abilities_of(state, pid)
    if index is not None:
        return (index, abilities[index]) if index < len(abilities) and abilities[index].kind == kind else None
    return next(((j, ab) for j, ab in enumerate(abilities) if ab.kind == kind), None)


def summoning_sick(table: Table, perm: PermState) -> bool:
    """302.6: a creature that hasn't been under its controller's control continuously since their
    most recent turn began (``summoning_sick: true``, or it entered during the case's actions);
    haste lets it use {T}/{Q} abilities anyway (702.10)."""
    spec = table.perm_specs[perm.spec]
    if "creature" not in spec.types or "haste" in spec.keywords:
        return False
    return spec.summoning_sick or perm.spec >= len(table.case.permanents)


def cost_problem(state: GameState, table: Table, perm: PermState, cost: tuple[Any, ...]) -> str | None:
    """Why an ability's cost can't be paid now, or None if it can (601.2h via 602.2b).

    {T} needs the permanent untapped (107.5), {Q} tapped (107.6), and neither can be paid for a
    summoning-sick creature (302.6); removing counters needs that many; paying life needs at least
    that much life (119.4). Mana isn't tracked, so mana symbols cost nothing here.
    """
    if "T" in cost and perm.tapped:
        return "it is already tapped, so {T} can't be paid (107.5)"
    if "Q" in cost and not perm.tapped:
        return "it is already untapped, so {Q} can't be paid (107.6)"
    if ("T" in cost or "Q" in cost) and summoning_sick(table, perm):
        return "it is a summoning-sick creature, so its {T}/{Q} abilities can't be activated (302.6)"
    counters = dict(perm.counters)
    for item in cost:
        if isinstance(item, tuple) and item[0] == "remove_counters" and counters.get(item[1], 0) < item[2]:
            return f"it doesn't have {item[2]} {item[1]} counter{'s' if item[2] != 1 else ''} to remove"
    life = _life_cost(cost)
    if life > 0 and state.player(perm.controller).life < life:
        return f"its controller can't pay {life} life (119.4)"
    return None


def _life_cost(cost: tuple[Any, ...]) -> int:
    return sum(int(c[1]) for c in cost if isinstance(c, tuple) and c[0] == "pay_life")


def pay_cost(state: GameState, table: Table, perm: PermState, cost: tuple[Any, ...]) -> GameState | None:
    """Pay an ability's cost (601.2h via 602.2b), or None if it can't be paid
    (:func:`cost_problem`): tap or untap the permanent, remove counters, pay life (a life loss)."""
    if cost_problem(state, table, perm, cost) is not None:
        return None
    counters = dict(perm.counters)
    for item in cost:
        if isinstance(item, tuple) and item[0] == "remove_counters":
            counters[item[1]] -= item[2]
    tapped = True if "T" in cost else False if "Q" in cost else perm.tapped
    state = state.set_perm(replace(perm, counters=tuple(sorted(counters.items())), tapped=tapped))
    life = _life_cost(cost)
    return change_life(state, table, perm.controller, -life) if life else state


def _selectors(ab: Ability) -> list[Selector]:
    """Every selector an ability's body reads (its effect's filters and values, its action's recipients)."""
    out: list[Any] = [ab.target]
    if ab.effect is not None:
        e = ab.effect
        out += [e.to, e.from_, e.if_you_control, e.value, e.then.to if e.then is not None else None]
    if ab.action is not None:
        out.append(ab.action.to)
    return [x for x in out if isinstance(x, Selector)]


def _uses_chosen_player(ab: Ability) -> bool:
    """Whether the ability reads its permanent's chosen player (Guardian Archon's "the chosen player")."""
    return any(x.mentions("chosen") for x in _selectors(ab))


@dataclass(frozen=True)
class Activation:
    """An activation that can be made: the permanent, its ability, and the legal targets."""

    perm: PermState
    index: int
    ability: Ability
    targets: tuple[str | None, ...]


def activation(state: GameState, table: Table, action: ActivateAction) -> Activation | str:
    """What ``action`` would activate (602.2), or why it can't be activated now: the permanent is
    gone, a once-each-turn ability was used, no player was chosen (Guardian Archon ruling), no legal
    target (601.2c), a cost that can't be paid (601.2h)."""
    perm = state.perm(action.id)
    if perm is None or not perm.present:
        return f"{action.id}'s ability can't be activated: {action.id} is not on the battlefield"
    spec = table.perm_specs[perm.spec]
    found = find_ability(table, state, action.id, action.ability, "activated")
    if found is None:
        return f"{spec.name} ({perm.id}) has no such activated ability"
    j, ab = found
    cant = f"{spec.name}'s ability ({perm.id}) can't be activated"
    if ab.once and j in perm.activated_once:
        return f"{cant} again: it can be activated only once each turn"
    if _uses_chosen_player(ab) and perm.chosen is None:
        return f"{cant}: no player was chosen for it"
    targets: tuple[str | None, ...] = (None,)
    if ab.target is not None:
        if action.target is not None:
            if not legal_target(state, table, action.target, ab.target, perm.controller, perm.id):
                return f"{cant}: {action.target} is not a legal target (601.2c)"
            targets = (action.target,)
        else:
            targets = tuple(target_candidates(state, table, ab.target, perm.controller, perm.id))
            if not targets:
                return f"{cant}: there is no legal target (601.2c)"
    problem = cost_problem(state, table, perm, ab.cost)
    if problem is not None:
        return f"{cant}: {problem}"
    return Activation(perm, j, ab, targets)


def _activate(state: GameState, table: Table, action: ActivateAction) -> GameState | Decision:
    """602.2: announce, choose targets (601.2c), pay (601.2h), then the ability waits on the stack.

    An activation that can't be made doesn't happen, and the outcome's explanation says why. A
    targeted ability with no ``target:`` in the case is its controller's choice among every legal
    target.
    """
    act = activation(state, table, action)
    if isinstance(act, str):
        return note(state, act, NOT_DONE)
    spec = table.perm_specs[act.perm.spec]
    who = act.perm.controller
    paid = pay_cost(state, table, act.perm, act.ability.cost)
    assert paid is not None
    perm = paid.perm(action.id)
    assert perm is not None
    paid = paid.set_perm(replace(perm, activated_once=tuple(sorted(set(perm.activated_once) | {act.index}))))
    options = []
    for t in act.targets:
        item = StackItem("activated", who, perm.id, act.index, (("X", action.x),), t, action.source_choice,
                         label=spec.name)
        tasks = tuple(("act", r) for r in action.responses) + (("resolve", item),)
        options.append(Option(str(t), f"{says(who, 'targets')} {t} with {spec.name}'s ability ({perm.id})",
                              replace(paid, queue=tasks + paid.queue)))
    if act.ability.target is None or action.target is not None:
        return options[0].state
    return decide(who, "target", f"{perm.id} activation", options)


def _named_object(action: Any) -> str | None:
    """The object an action is about: the permanent activated, tapped or leaving, a damage source."""
    if isinstance(action, ActivateAction | TapForManaAction | LeaveAction):
        return action.id
    if isinstance(action, DamageAction):
        return action.events[0].source
    if isinstance(action, OneShotAction | LifeAction):
        return action.action.source if isinstance(action, OneShotAction) else action.source
    return None


def _describe(action: Any) -> str:
    """An action in words, for a ``may`` choice: "activate pyro's ability", "tap forest for mana"."""
    if isinstance(action, ActivateAction):
        return f"activate {action.id}'s ability"
    if isinstance(action, TapForManaAction):
        return f"tap {action.id} for mana"
    if isinstance(action, OneShotAction):
        shot = action.action
        src = f" from {shot.source}" if shot.source else ""
        if shot.kind == "deal":
            return f"deal {expr_str(shot.amount)} damage{src} to {shot.to}"
        verb = {"lose_life": "lose {} life", "gain_life": "gain {} life", "draw": "draw {}"}[shot.kind]
        return f"have {shot.to} " + verb.format(expr_str(shot.amount))
    if isinstance(action, DamageAction):
        return "deal " + ", ".join(f"{expr_str(d.amount)} damage from {d.source} to {d.to}" for d in action.events)
    return f"do the {action.kind.replace('_', ' ')} action"


def _action_problem(state: GameState, table: Table, action: Any) -> str | None:
    """Why ``action`` can't be done now (only activations can be illegal), or None."""
    if isinstance(action, ActivateAction):
        act = activation(state, table, action)
        return act if isinstance(act, str) else None
    if isinstance(action, TapForManaAction):
        from .mana import mana_activation_problem

        return mana_activation_problem(state, table, action)
    return None


def _may(state: GameState, table: Table, action: MayAction) -> GameState | Decision:
    """``may: <action>``: its chooser decides whether it happens; an action the rules forbid
    leaves only "no" (design.md: illegality is an outcome, not an error)."""
    obj = _named_object(action.action)
    who = action.chooser or (controller_of(state, table, obj) if obj else None) or table.active
    what = _describe(action.action)
    problem = _action_problem(state, table, action.action)
    if problem is not None:
        return note(state, f"{who} may {what}, but can't: {problem}", NOT_DONE)
    yes = replace(state, queue=(("act", action.action),) + state.queue)
    return Decision(who, "may", what, (Option("yes", f"{says(who, 'chooses')} to {what}", yes),
                                       Option("no", f"{says(who, 'declines')} to {what}", state)))


def _resolve(state: GameState, table: Table, item: StackItem) -> GameState | Decision:
    """608.2b: targets are checked on resolution; an illegal target means the ability does nothing."""
    abilities = table.abilities_of(state, item.source)
    ab = abilities[item.ability]
    values = dict(item.values)
    perm = state.perm(item.source)
    chosen = perm.chosen if perm is not None else None
    view = View(item.controller, item.source, item.target, chosen, item.source_choice, item.player)
    needs_target = ab.target is not None or (ab.action is not None and ab.action.to.kind in ("any", "target", "choice"))
    if needs_target:
        req = ab.target if ab.target is not None else None
        if not legal_target(state, table, item.target, req, item.controller, item.source):
            return note(state, f"{item.label}'s ability ({item.source}) does nothing: its target "
                               f"{item.target} is illegal as it resolves (608.2b)", NOT_DONE)
    if ab.effect is not None:
        picked = item.source_choice
        if ab.effect.source_choice == "chosen_source" and picked is None:
            return _choose_source(state, table, item, ab.effect, view)
        if ab.effect.source_choice == "chosen_source" and picked is not None and \
                not matches(ab.effect.from_, picked, state, table, view):
            raise EngineError(f"activate {item.source}: source {item.source_choice!r} is not a legal choice for "
                              f"{item.label}: it is not one of {ab.effect.from_} (609.7a)")
        eid = f"{item.source}.{item.ability}.{state.next_order}"
        eff = make_effect_state(eid, ab.effect, item.controller, item.source, item.target, values.get("X", 0),
                                state.next_order, item.source_choice, chosen)
        return replace(state, effects=state.effects + (eff,), next_order=state.next_order + 1)
    if ab.action is not None:
        shot = ab.action
        if shot.may:
            yes = run_one_shot(state, table, replace(shot, may=False), view, values)
            return Decision(item.controller, "may", f"{item.label} ({item.source})", (
                Option("yes", f"{says(item.controller, 'chooses')} to use {item.label}", yes),
                Option("no", f"{says(item.controller, 'declines')} {item.label}", state)))
        return run_one_shot(state, table, shot, view, values)
    return state


def _choose_source(state: GameState, table: Table, item: StackItem, effect: Any, view: View) -> GameState | Decision:
    """615.9, 609.7a: "a source of your choice" is chosen as the effect is created, among the
    permanents and the case's other sources (spells, emblems) with the effect's properties; a source
    needn't be able to deal damage to be chosen."""
    objects = [p.id for p in state.perms if p.present] + list(table.sources)
    legal = [o for o in objects if matches(effect.from_, o, state, table, view)]
    who = item.controller
    if not legal:
        return note(state, f"{item.label} ({item.source}) creates no shield: there is no source to choose (609.7a)", NOT_DONE)
    return decide(who, "source", f"{item.source} resolves", [
        Option(o, f"{says(who, 'chooses')} {o} as the source for {item.label} ({item.source})",
               _resolve_item(state, table, replace(item, source_choice=o)))
        for o in legal])


def _resolve_item(state: GameState, table: Table, item: StackItem) -> GameState:
    res = _resolve(state, table, item)
    assert not isinstance(res, Decision)
    return res


def _place_triggers(state: GameState, table: Table) -> GameState | Decision:
    """603.3b: each player in APNAP order puts their triggers on the stack in any order."""
    pending = state.pending
    controllers = table.apnap({t.controller for t in pending})
    who = controllers[0]
    mine = [t for t in pending if t.controller == who]
    rest = tuple(t for t in pending if t.controller != who)
    distinct = sorted(set(mine), key=lambda t: (t.source, t.ability, t.values))
    options = []
    for t in distinct:
        remaining = list(mine)
        remaining.remove(t)
        for placed in _with_target(state, table, t):
            nxt = replace(state, pending=tuple(remaining) + rest, stack=state.stack + (placed,))
            what = f"{t.label}'s trigger ({t.source})" + (f" targeting {placed.target}" if placed.target else "")
            options.append(Option(f"{t.source}#{t.ability}" + (f"->{placed.target}" if placed.target else ""),
                                  f"{says(who, 'puts')} {what} on the stack", nxt))
    if not options:
        # every trigger of this player had no legal target: removed (603.3d)
        return note(replace(state, pending=rest), f"{who}'s triggers have no legal target and are removed (603.3d)")
    return decide(who, "stack_order" if len(distinct) > 1 else "target", "triggers", options)


def _with_target(state: GameState, table: Table, t: Trigger) -> list[StackItem]:
    ab = table.abilities_of(state, t.source)[t.ability]
    base = StackItem("trigger", t.controller, t.source, t.ability, t.values, None, None, t.label, t.player)
    if ab.action is not None and ab.action.to.kind in ("any", "target", "choice"):
        cands = target_candidates(state, table, ab.action.to if ab.action.to.kind != "choice" else None,
                                  t.controller, t.source)
        return [replace(base, target=c) for c in cands]
    return [base]


def advance(state: GameState, table: Table) -> GameState | Decision:
    """Run forward to the next decision or to the end (``state.dead`` marks an illegal branch)."""
    for _ in range(MAX_STEPS):
        if state.dead:
            return state
        if state.batch is not None:
            res = _batch_step(state, table)
        elif state.queue and state.queue[0][0] in ("rider", "combat", "mana"):
            task, queue = state.queue[0], state.queue[1:]
            state = replace(state, queue=queue)
            if task[0] == "rider":
                res = _run_rider(state, table, task[1], task[2])
            elif task[0] == "mana":
                # a mana ability doesn't use the stack: it resolves at once, before state-based
                # actions and before its triggers are put on the stack (605.3a)
                from .mana import produce_mana

                res = produce_mana(state, table, task)
            else:
                res = combat_mod.run_task(state, table, task)
        else:
            state = state_based_actions(state, table)
            if state.pending:
                res = _place_triggers(state, table)
            elif state.stack:
                item = state.stack[-1]
                res = _resolve(replace(state, stack=state.stack[:-1]), table, item)
            elif state.queue:
                task, queue = state.queue[0], state.queue[1:]
                state = replace(state, queue=queue)
                if task[0] == "act":
                    res = _run_action(state, table, task[1])
                elif task[0] == "step":
                    res = combat_mod.start_step(state, table, task[1])
                elif task[0] == "resolve":
                    res = _resolve(state, table, task[1])
                else:
                    raise TypeError(f"unknown task {task!r}")
            else:
                return state
        if isinstance(res, Decision):
            return replace(res, log=state.log)  # the forced steps of the path up to this decision
        state = res
    raise RuntimeError("the timeline did not settle (a rules loop?)")


# ---------------------------------------------------------------------------------------------
# the outcome record


def final_fields(state: GameState, table: Table) -> dict[str, Any]:
    """Every field of every player, team, permanent and effect, flat (design.md)."""
    out: dict[str, Any] = {}
    for p in state.players:
        out[f"{p.name}.life"] = p.life
        out[f"{p.name}.poison"] = p.poison
        out[f"{p.name}.life_lost"] = p.life_lost
        out[f"{p.name}.life_gained"] = p.life_gained
        out[f"{p.name}.cards_drawn"] = p.cards_drawn
        out[f"{p.name}.damage_taken"] = p.damage_taken
        out[f"{p.name}.lost"] = p.lost
        out[f"{p.name}.mana"] = p.mana  # produced by mana abilities, W U B R G C order (605)
        if p.team is not None:
            out[f"team{p.team}.life"] = p.life
            out[f"team{p.team}.poison"] = p.poison
    seen: set[str] = set()
    for perm in reversed(state.perms):
        if perm.id in seen:
            continue
        seen.add(perm.id)
        spec = table.perm_specs[perm.spec]
        out[f"{perm.id}.damage"] = perm.damage
        out[f"{perm.id}.dies"] = any(q.died for q in state.perms if q.id == perm.id)
        if any(ab.kind == "mana" for ab in spec.abilities):
            # tapping is tracked for mana abilities only (605); an attacker's tap (508.1f) is not
            out[f"{perm.id}.tapped"] = perm.tapped
        counters = dict(perm.counters)
        if "creature" in spec.types:
            counters.setdefault("-1/-1", 0)
        for kind, n in sorted(counters.items()):
            out[f"{perm.id}.counters.{kind}"] = n
        if "planeswalker" in spec.types:
            out[f"{perm.id}.loyalty"] = perm.loyalty
        if "battle" in spec.types:
            out[f"{perm.id}.defense"] = perm.defense
    for e in state.effects:
        if e.remaining is not None:
            out[f"{e.id}.remaining"] = max(0, e.remaining)
        elif e.spec.kind == "shield" and e.spec.value == "all":
            out[f"{e.id}.remaining"] = 0 if e.used else 1
    for pid, types in state.mana:
        out[f"{pid}.could_produce"] = tuple(types)
    return dict(sorted(out.items()))
