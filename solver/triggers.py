"""Triggered abilities: what triggers (603.2) and putting triggers on the stack in APNAP order (603.3b)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mtg_outcomes.model.kinds import AbilityKind, DecisionKind, TriggerEvent
from mtg_outcomes.model.selectors import SelectorKind
from mtg_outcomes.model.types import (
    Ability,
    Condition,
    PermanentSpec,
    SourceSpec,
)

from .decision import Decision, Option, decide, note, says
from .emblems import emblem_watchers
from .granted import granted_watchers
from .rules.stack_order import stack_order
from .select import View, colors_of, is_player, matches, opponents
from .state import (
    Batch,
    GameState,
    ItemKind,
    StackItem,
    Table,
    Trigger,
    replace,
)
from .targets import target_candidates
from .words import name as words_name
from .words import possessive

__all__ = ['cast_spell_matches', 'watchers', 'collect_triggers', 'prevention_triggers', 'place_triggers',
           'condition_holds', 'ward_triggers', 'trigger_names']


def condition_holds(cond: Condition | None, state: GameState, table: Table, view: View) -> bool:
    """An intervening "if" (603.4): some player ``cond.who`` names has lost at least / at most N
    life this turn (counting the case's ``life_lost_this_turn``), or has at least / at most N life
    (in Two-Headed Giant the team's, 810.9a). Checked when the ability would trigger and again as
    it resolves."""
    if cond is None:
        return True
    for p in state.players:
        if p.left or not matches(cond.who, p.name, state, table, view, default=False):
            continue
        value = {"life_lost": p.life_lost, "life_gained": p.life_gained}.get(cond.measure, p.life)
        if (cond.at_least is None or value >= cond.at_least) and (cond.at_most is None or value <= cond.at_most):
            return True
    return False


def _per_source(ab: Ability, thing: str, values: dict[str, Any], state: GameState, table: Table,
                view: View) -> list[dict[str, Any]]:
    """A ``dealt_damage`` trigger with ``min_damage: N`` ("is dealt N or more damage by a single
    source", Pain Magnification): one trigger per source that dealt N or more to it at once (its
    ruling, 2006-05-01: damage from several sources, or at several times, doesn't add up; 120.9)."""
    out = []
    for src, n in values.get("_sources", ()):
        if n < (ab.trigger_min or 0):
            continue
        if ab.trigger_from is not None and not matches(ab.trigger_from, src, state, table, view):
            continue
        out.append({**values, "damage_dealt": n, "_from": src})
    return out


def watchers(state: GameState, table: Table, trigger: str) -> list[tuple[str, str, int, Ability]]:
    out = []
    for p in state.perms:
        if not p.present:
            continue
        spec = table.perm_specs[p.spec]
        for j, ab in enumerate(spec.abilities):
            if ab.kind == AbilityKind.TRIGGER and ab.trigger == trigger:
                out.append((p.id, p.controller, j, ab))
    return out + emblem_watchers(state, table, trigger) + granted_watchers(state, table, trigger)


def declare_attackers(state: GameState, table: Table) -> GameState:
    """``declare_attackers: {}``: the creatures attacking as written are declared as attackers now
    (508.1): their attack abilities trigger (508.1m, 508.2a), each naming as "that player" the
    defending player (506.2: the player it attacks, or the controller or protector of the
    planeswalker or battle it attacks)."""
    happenings: list[tuple[str, dict[str, Any]]] = []
    for p in state.perms:
        if not p.present or p.attacking is None:
            continue
        attacked = str(p.attacking)
        there = state.perm(attacked)
        defending = attacked if is_player(table, attacked) else (table.perm_specs[there.spec].defender if there is not None else None)
        happenings.append((p.id, {"_player": defending} if defending is not None else {}))
    # "Whenever you attack" (from: you): once for the player who attacked with one or more creatures
    attackers = dict.fromkeys(p.controller for p in state.perms if p.present and p.attacking is not None)
    happenings += [(who, {}) for who in attackers]
    return collect_triggers(state, table, TriggerEvent.ATTACKS, happenings)


def collect_triggers(state: GameState, table: Table, trigger: str, happenings: list[tuple[str, dict[str, Any]]]) -> GameState:
    """Add the triggers that ``happenings`` fire to ``state.pending``."""
    new: list[Trigger] = []
    for oid, ctrl, j, ab in watchers(state, table, trigger):
        watcher = state.perm(oid)
        view = View(ctrl, oid, None, watcher.chosen if watcher is not None else None)
        for thing, values in happenings:
            ok, values = _event_matches(trigger, ab, thing, values, oid, state, table, view)
            if not ok or not condition_holds(ab.trigger_if, state, table, view):
                continue  # 603.4: an intervening "if" false as the event happens: no trigger
            for one in _fired(trigger, ab, thing, values, state, table, view):
                vals = tuple(sorted((k, v) for k, v in one.items() if not k.startswith("_")))
                player = one.get("_player")
                if trigger == TriggerEvent.COMBAT_DAMAGE_TO_PLAYER and not _reads_that_player(ab):
                    player = None  # (the player dealt combat damage: only for "that player", 510.3a)
                new.append(Trigger(ctrl, oid, j, vals, label=f"{table.spec_of(state, oid).name}",  # type: ignore[union-attr]
                                   player=str(player) if player is not None else None))
    if not new:
        return state
    return replace(state, pending=state.pending + tuple(new))


def _event_matches(trigger: str, ab: Ability, thing: str, values: dict[str, Any], oid: str, state: GameState,
                   table: Table, view: View) -> tuple[bool, dict[str, Any]]:
    """Whether one happening is the event ``ab`` waits for (603.2), and the values it reads."""
    ctrl = view.controller
    match trigger:
        case TriggerEvent.GAIN_LIFE | TriggerEvent.LOSE_LIFE:
            return (matches(ab.trigger_to, thing, state, table, view, default=False) if ab.trigger_to else thing == ctrl), values
        case TriggerEvent.DEALS_DAMAGE:
            ok = matches(ab.trigger_from, thing, state, table, view) if ab.trigger_from else thing == oid
            return ok and (ab.trigger_combat is None or bool(values.get("combat", 0)) == ab.trigger_combat), values
        case TriggerEvent.DEALT_DAMAGE:
            ok = matches(ab.trigger_to, thing, state, table, view) if ab.trigger_to else thing == oid
            if ok and ab.trigger_from is not None and ab.trigger_min is None:
                # "is dealt damage by <sources>": once, if any of them dealt it damage, its
                # damage_dealt theirs alone (120.9: not damage other sources dealt at once)
                by = [n for s, n in values.get("_sources", ()) if n > 0 and matches(ab.trigger_from, s, state, table, view)]
                return bool(by), {**values, "damage_dealt": sum(by)}
            return ok, values
        case TriggerEvent.DAMAGE_PREVENTED:
            return (matches(ab.trigger_to, thing, state, table, view) if ab.trigger_to else thing == ctrl), values
        case TriggerEvent.COMBAT_DAMAGE_TO_PLAYER:
            ok = matches(ab.trigger_from, thing, state, table, view) if ab.trigger_from else thing == oid
            return ok and (ab.trigger_to is None or matches(ab.trigger_to, str(values.get("_to", "")), state, table, view)), values
        case TriggerEvent.ENTERS:
            # "When this enters": its own entering only; with from: ("whenever another creature
            # you control enters") the permanents it watches, read as they enter (603.6a)
            ok = matches(ab.trigger_from, thing, state, table, view) if ab.trigger_from else thing == oid
            if ok and ab.trigger_from is not None:
                values = {k: v for k, v in values.items() if k != "X"}  # another's X isn't its (107.3i)
            return ok, values
        case TriggerEvent.BECOMES_MONSTROUS:
            return thing == oid, values  # "When ~ becomes monstrous": its own (701.37b)
        case TriggerEvent.CAST:
            # "whenever you cast a noncreature spell" (601.2i: when it becomes cast)
            spec = table.spec_of(state, thing)
            caster = str(values.get("_player"))
            return (matches(ab.trigger_to, caster, state, table, view, default=False) if ab.trigger_to
                    else caster == ctrl) and cast_spell_matches(ab.trigger_spell, spec, state, thing), values
        case TriggerEvent.TAPPED_FOR_MANA:
            # the seeds' rule: it triggers when the ability resolves and produces mana (of that type)
            ok = matches(ab.trigger_from, thing, state, table, view) if ab.trigger_from else thing == oid
            return ok and (ab.trigger_mana is None or ab.trigger_mana in str(values.get("_mana", ""))), values
        case TriggerEvent.DRAWS:
            # "whenever you / an opponent draws a card" (121.2: each card is drawn on its own)
            return (matches(ab.trigger_to, thing, state, table, view, default=False) if ab.trigger_to
                    else thing == ctrl), values
        case TriggerEvent.ATTACKS:
            # "Whenever ~ attacks" (508.1m): its own permanent; with from: ("whenever a creature
            # you control attacks") each attacking creature it names, one trigger each; from:
            # you, "whenever you attack", once for the player who declared attackers
            ok = matches(ab.trigger_from, thing, state, table, view) if ab.trigger_from else thing == oid
            return ok and is_player(table, thing) == (ab.trigger_from is not None
                                                      and ab.trigger_from.kind == SelectorKind.YOU), values
    return True, values


def _fired(trigger: str, ab: Ability, thing: str, values: dict[str, Any], state: GameState, table: Table,
           view: View) -> list[dict[str, Any]]:
    """The triggers one matching happening fires, each with the values it reads."""
    fired = [values]
    if trigger == TriggerEvent.DEALS_DAMAGE and ab.trigger_to is not None:
        # "whenever it deals damage to an opponent" (603.2): one damage event per recipient
        # (120.2), so one trigger for each recipient it matches, reading that damage
        # (its ``that player`` is the player dealt the damage)
        fired = [{**values, "damage_dealt": k, "_to": r, **({"_player": r} if is_player(table, r) else {})}
                 for r, k in values.get("_to", ()) if matches(ab.trigger_to, r, state, table, view)]
    if ab.trigger_min is not None:
        # "N or more damage" (603.2): the amount the trigger reads must reach N
        fired = _per_source(ab, thing, values, state, table, view) if trigger == TriggerEvent.DEALT_DAMAGE else \
            [v for v in fired if int(v.get("damage_dealt", 0)) >= ab.trigger_min]
    return fired


def ward_triggers(state: GameState, table: Table, item: StackItem, targets: Iterable[str | None]) -> tuple[Trigger, ...]:
    """The ward triggers ``item`` (a spell or ability just put on the stack) fires by targeting
    ``targets`` (702.21a: a permanent an opponent of its controller controls, 603.2)."""
    out: list[Trigger] = []
    for t in dict.fromkeys(t for t in targets if t is not None):
        perm = state.perm(t)
        if perm is None or not perm.present or item.controller not in opponents(table, state, perm.controller):
            continue
        for j, ab in enumerate(table.abilities_of(state, t)):
            if ab.kind == AbilityKind.WARD:
                out.append(Trigger(perm.controller, t, j, (), label=table.perm_specs[perm.spec].name, countering=item))
    return tuple(out)


def prevention_triggers(state: GameState, table: Table, batch: Batch) -> GameState:
    """615.13: once per prevention effect applied to simultaneous events that prevented damage."""
    happenings = []
    for key, amount in batch.prevented:
        if amount <= 0:
            continue
        recipients = sorted({ev.recipient for ev in batch.events if key in ev.applied})
        for r in recipients:
            happenings.append((r, {"prevented": amount}))
    return collect_triggers(state, table, TriggerEvent.DAMAGE_PREVENTED, happenings) if happenings else state


def place_triggers(state: GameState, table: Table) -> GameState | Decision:
    """603.3b: each player in APNAP order puts their triggers on the stack in any order."""
    pending = state.pending
    controllers = table.apnap({t.controller for t in pending})
    who = controllers[0]
    mine = [t for t in pending if t.controller == who]
    rest = tuple(t for t in pending if t.controller != who)
    distinct = stack_order(mine)
    names = trigger_names(state, table, distinct)
    options = []
    for t in distinct:
        remaining = list(mine)
        remaining.remove(t)
        for placed in _with_target(state, table, t):
            # 702.21a: a target with ward triggers it; it waits until these triggers are all on the stack (603.3b)
            nxt = _next_round(replace(state, pending=tuple(remaining) + rest, stack=state.stack + (placed,),
                                      placing=state.placing + ward_triggers(state, table, placed, [placed.target])))
            mode = f" choosing mode {placed.modes[0]}" if placed.modes else ""
            key, said = names[t]
            who_by = words_name(state, table, t.source) if table.spec_of(state, t.source) is not None else t.label
            tells = said.lstrip(", ")
            what = f"{possessive(who_by)} trigger{f' ({tells})' if tells else ''}{mode}" + \
                (f" targeting {words_name(state, table, placed.target)}" if placed.target else "")
            options.append(Option(key + (f":{placed.modes[0]}" if placed.modes else "")
                                  + (f"->{placed.target}" if placed.target else ""),
                                  f"{says(who, 'puts')} {what} on the stack", nxt))
    if not options:
        # every trigger of this player had no legal target: removed (603.3d)
        return note(_next_round(replace(state, pending=rest)), f"{who}'s triggers have no legal target and are removed (603.3d)")
    return decide(who, DecisionKind.STACK_ORDER if len(distinct) > 1 else DecisionKind.TARGET, "triggers", options,
                  rule="603.3b" if len(distinct) > 1 else "603.3d" if len(options) > 1 else "603.3")


def trigger_names(state: GameState, table: Table, distinct: list[Trigger]) -> dict[Trigger, tuple[str, str]]:
    """Each distinct pending trigger's name in a witness, ``source#ability``, and what its words
    add after the source ("Critter's trigger (c0, damage_dealt=4)"; "ability 2" when the source has
    several triggered abilities, which the name tells apart itself). Triggers that share the
    name are told apart, so that a witness names one option (it replays) and a reader knows which
    trigger was put on the stack: by the player they name (``@player``: the monarch's triggers for
    two players' creatures, 724.2; a dealt_damage trigger for two players), then by the values
    they read (``[damage_dealt=4]``: one creature's combat damage to two players is two triggers,
    510.3a, 603.2c), then by what a ward trigger counters (702.21a)."""
    groups: dict[str, list[Trigger]] = {}
    for t in distinct:
        groups.setdefault(f"{t.source}#{t.ability}", []).append(t)
    several = {t.source for t in distinct if sum(ab.kind == AbilityKind.TRIGGER for ab in table.abilities_of(state, t.source)) > 1}
    out: dict[Trigger, tuple[str, str]] = {}
    for base, shared in groups.items():
        players = {t.player for t in shared}
        for player in players:
            alike = [t for t in shared if t.player == player]
            # the values that aren't the same in all of them, and whether they tell them apart
            differ = sorted(k for k in {k for t in alike for k, _ in t.values}
                            if len({dict(t.values).get(k) for t in alike}) > 1)
            by_counter = len({(t.values, t.countering) for t in alike}) > len({t.values for t in alike})
            for t in alike:
                name = base + (f"@{player}" if player and len(players) > 1 else "")
                mine = dict(t.values)
                tells = [",".join(f"{k}={mine.get(k)}" for k in differ)] if differ else []
                if by_counter and t.countering is not None:
                    tells.append(f"countering {t.countering.label} ({t.countering.source})")
                if tells:
                    name += "[" + "; ".join(tells) + "]"
                which = [f"ability {t.ability + 1}"] if t.source in several else []  # (the name's #ability)
                out[t] = (name, "".join(f", {x}" for x in which + tells))
    return out


def _next_round(state: GameState) -> GameState:
    """Once every pending trigger is on the stack, the ones that triggered meanwhile (``placing``:
    a ward trigger) are put on the stack the next time a player would receive priority (603.3b)."""
    if state.pending or not state.placing:
        return state
    return replace(state, pending=state.placing, placing=())


def _with_target(state: GameState, table: Table, t: Trigger) -> list[StackItem]:
    ab = table.ability_at(state, t.source, t.ability)
    base = StackItem(ItemKind.TRIGGER, t.controller, t.source, t.ability, t.values, None, None, t.label, t.player,
                     countering=t.countering)
    if ab.choices:
        # 700.2b, 603.3c: a modal trigger's mode is chosen as it is put on the stack, then its
        # target; a mode whose target can't be chosen can't be chosen
        return [item for k, mode in enumerate(ab.choices, start=1)
                for item in _targets_of(state, table, t, mode, replace(base, modes=(k,)))]
    return _targets_of(state, table, t, ab, base)


def _targets_of(state: GameState, table: Table, t: Trigger, ab: Ability, base: StackItem) -> list[StackItem]:
    if ab.target is not None:  # "... target creature": chosen as it is put on the stack (603.3d)
        return [replace(base, target=c) for c in target_candidates(state, table, ab.target, t.controller, t.source, t.player)]
    if ab.action is not None and ab.action.to.kind in (SelectorKind.ANY, SelectorKind.TARGET, SelectorKind.CHOICE):
        cands = target_candidates(state, table, ab.action.to if ab.action.to.kind != SelectorKind.CHOICE else None,
                                  t.controller, t.source)
        return [replace(base, target=c) for c in cands]
    return [base]


def cast_spell_matches(kind: str, spec: PermanentSpec | SourceSpec | None, state: GameState, thing: str) -> bool:
    """Whether a spell cast (601.2i) is of the kind a cast trigger names: any, noncreature, instant
    or sorcery, or a colour ("a red spell": its colour as it is cast, 105.2)."""
    types = set(spec.types) if spec is not None else set()
    if kind == "any":
        return True
    if kind == "noncreature":
        return "creature" not in types
    if kind == "instant_or_sorcery":
        return bool(types & {"instant", "sorcery"})
    return spec is not None and kind in colors_of(state, thing, spec.colors)


def _reads_that_player(ab: Ability) -> bool:
    """Whether a trigger's instructions name "that player" (the player its event names)."""
    return any(shot is not None and shot.to.mentions(SelectorKind.THAT_PLAYER) for shot in (ab.action, *ab.more)) or \
        (ab.target is not None and ab.target.mentions(SelectorKind.THAT_PLAYER))
