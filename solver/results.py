"""Life, poison and the results of damage (CR 119, 120.3, 120.4, 810.9); the one-shot actions are solver.oneshot."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from enum import Enum
from typing import Any

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.kinds import TriggerEvent
from mtg_outcomes.model.types import (
    LIFE_GAIN_KINDS,
)

from .decision import Decision
from .replacement import apply_one
from .rules.amounts import Add, Multiply
from .rules.effects import (
    Instance,
    effects_in_force,
    filters_match,
)
from .rules.team import team_names
from .select import controller_of, has_keyword, is_player, matches
from .state import (
    MONARCH,
    Event,
    GameState,
    Table,
    TaskKind,
    Trigger,
    replace,
)
from .triggers import collect_triggers
from .words import name as obj_name
from .words import possessive

__all__ = ['Part', 'Result', 'event_results', 'event_words', 'change_life', 'add_poison', 'cant_get_poison', 'cant_gain_life', 'cant_lose_life', 'no_loss_for_0_life', 'cant_lose_game', 'gain_life', 'gain_event', 'deal', 'put_counters', 'remove_counters', 'life_floor', 'floored_loss', 'fewer_counters', 'gain_replacements', 'gain_rule']


def change_life(state: GameState, table: Table, name: str, delta: int) -> GameState:
    """Life changes happen to the player and are applied to the team's shared total (810.9).

    A player who can't lose life (119.8; "your life total can't change") loses none: the loss
    simply doesn't happen, whatever asked for it (damage, an effect, 119.5's setting).
    """
    if delta == 0 or (delta < 0 and cant_lose_life(state, table, name)):
        return state
    for member in team_names(state, table, name):
        p = state.player(member)
        state = state.set_player(replace(p, life=p.life + delta))
    p = state.player(name)
    if delta < 0:
        state = state.set_player(replace(p, life_lost=p.life_lost - delta))
        # "whenever a player loses life" (603.2): one trigger per life-loss event, reading the
        # amount lost (damage to a player is loss of life, 120.3a; so is paying life, 119.4)
        return collect_triggers(state, table, TriggerEvent.LOSE_LIFE, [(name, {"amount": -delta})])
    state = state.set_player(replace(p, life_gained=p.life_gained + delta))
    return state


def add_poison(state: GameState, table: Table, name: str, n: int) -> GameState:
    if cant_get_poison(state, table, name):
        return state  # "can't get poison counters": none are given (122.1)
    for member in team_names(state, table, name):
        p = state.player(member)
        state = state.set_player(replace(p, poison=p.poison + n))
    return state


def _covers(state: GameState, table: Table, name: str, kinds: tuple[str, ...]) -> bool:
    """An effect of one of ``kinds`` names ``name`` or, in Two-Headed Giant, a teammate (810.9g-h)."""
    team = team_names(state, table, name)
    for inst in effects_in_force(state, table):
        if inst.spec.kind in kinds:
            if any(matches(inst.spec.value, member, state, table, inst.view) for member in team):
                return True
    return False


def cant_gain_life(state: GameState, table: Table, name: str) -> bool:
    """"Can't gain life" effects (119.7), and "your life total can't change"; in Two-Headed Giant
    they cover the team (810.9g)."""
    return _covers(state, table, name, ("cant_gain_life", "life_cant_change"))


def cant_get_poison(state: GameState, table: Table, name: str) -> bool:
    """"You can't get poison counters" (Melira): in Two-Headed Giant the team's are shared (810.10)."""
    return _covers(state, table, name, ("cant_get_poison",))


def cant_lose_life(state: GameState, table: Table, name: str) -> bool:
    """"Can't lose life" effects (119.8), and "your life total can't change" (Platinum Emperion);
    in Two-Headed Giant they cover the team (810.9h)."""
    return _covers(state, table, name, ("cant_lose_life", "life_cant_change"))


def no_loss_for_0_life(state: GameState, table: Table, name: str) -> bool:
    """"You don't lose the game for having 0 or less life" (Phyrexian Unlife): the exception to
    704.5a; in Two-Headed Giant it covers the team (810.8a and its Transcendence example). The
    player still loses for poison (704.5c) and loses at 0 life once the effect ends."""
    return _covers(state, table, name, ("no_loss_for_0_life",))


def cant_lose_game(state: GameState, table: Table, name: str) -> bool:
    """"You can't lose the game" (Platinum Angel): no state-based action makes the player lose
    (704.5a, 704.5c); in Two-Headed Giant it covers the team (810.8a and its Platinum Angel
    example). Read at each check (704.3): once its source has left, the next check applies."""
    return _covers(state, table, name, ("cant_lose_game",))


def gain_replacements(state: GameState, table: Table, name: str, source: str | None,
                      applied: frozenset[str] = frozenset()) -> list[Instance]:
    """The life-gain replacement effects that would now modify ``name``'s life-gain event
    (119.10: "if a source would cause [a player] to gain life"), each at most once (614.5)."""
    out = []
    for inst in effects_in_force(state, table):
        if inst.spec.kind not in LIFE_GAIN_KINDS or inst.key in applied:
            continue
        if not matches(inst.spec.to, name, state, table, inst.view):
            continue
        if inst.spec.from_ is not None and (source is None or not matches(inst.spec.from_, source, state, table, inst.view)):
            continue
        out.append(inst)
    return out


def gain_rule(inst: Instance) -> Add | Multiply:
    """One life-gain replacement as an amount rule (solver.rules.amounts, which the CP model encodes):
    "that much life plus N" or "N times that much" (614.1a); gaining 0 is no event (119.9)."""
    if inst.spec.kind == EffectKind.GAIN_LIFE_PLUS:
        return Add(int(inst.spec.value))
    return Multiply(int(inst.spec.value))


def _replace_gain(inst: Instance, n: int) -> int:
    return gain_rule(inst).apply(n)


def gain_life(state: GameState, table: Table, name: str, n: int, source: str | None = None) -> GameState:
    """A life-gain event (119.9: gaining 0 is no event); returns with gain_life triggers pending.

    A player who can't gain life gains none, and replacements of the gain do nothing (119.7).
    When life-gain replacement effects apply, the event waits at the front of the queue
    (:func:`gain_event`), where the gaining player orders them (616.1), before state-based
    actions: lifelink's gain is part of the damage event (120.3f, 120.4c).
    """
    if n <= 0 or state.player(name).left or cant_gain_life(state, table, name):
        return state
    if gain_replacements(state, table, name, source, frozenset()):
        k = 0  # after the life-gain events already waiting (simultaneous ones, in order)
        while k < len(state.queue) and state.queue[k][0] == TaskKind.GAIN:
            k += 1
        task: tuple[Any, ...] = (TaskKind.GAIN, name, n, source, frozenset())
        return replace(state, queue=state.queue[:k] + (task,) + state.queue[k:])
    state = change_life(state, table, name, n)
    return collect_triggers(state, table, TriggerEvent.GAIN_LIFE, [(name, {"amount": n})])


def gain_event(state: GameState, table: Table, task: tuple[Any, ...]) -> GameState | Decision:
    """A life-gain event being modified: the affected player (the one gaining life) applies the
    applicable replacement effects one at a time in the order they choose (616.1), each once and
    re-checked after each (614.5, 616.1f); then the life is gained (one event, one trigger)."""
    _, name, n, source, applied = task
    left = gain_replacements(state, table, name, source, applied)
    if not left:
        state = change_life(state, table, name, n)
        return collect_triggers(state, table, TriggerEvent.GAIN_LIFE, [(name, {"amount": n})])
    return apply_one(state, table, name, f"{name} gains life", f"{name}'s life gain", n, left, _replace_gain, str,
                     lambda now, key: replace(state, queue=((TaskKind.GAIN, name, now, source, applied | {key}),) + state.queue))


def _as_though(state: GameState, table: Table, ev: Event) -> set[str]:
    """The keywords ``ev``'s damage is dealt as though its source had (120.3; Everlasting
    Torment, Phyrexian Unlife): an as_though effect's filters read as any damage effect's,
    its combat-only one too (solver.rules.effects.filters_match)."""
    return {inst.spec.value for inst in effects_in_force(state, table)
            if inst.spec.kind == EffectKind.AS_THOUGH and filters_match(inst, ev, state, table)}


def life_floor(state: GameState, table: Table, name: str) -> int | None:
    """The least life damage can leave ``name`` with ("damage that would reduce your life total to
    less than 1 reduces it to 1 instead", Worship; 614.1a), or None."""
    floor = None
    for inst in effects_in_force(state, table):
        if inst.spec.kind == EffectKind.LIFE_FLOOR and matches(inst.spec.to, name, state, table, inst.view, default=True):
            floor = max(floor or 0, int(inst.spec.value))
    return floor


def floored_loss(n: int, room: int) -> int:
    """The life a batch's damage makes a player lose under a life floor: all ``n`` unless that
    would take them below the floor, then what is left above it (``room``: life, with what the
    same modified event gives, minus the floor; CR 120.4 example). A player already below the
    floor is not raised to it: the effect doesn't apply and the loss is all ``n`` (the Fortune
    Thief ruling, 2018-03-16, on the same text as Worship's). The CP model encodes the same
    ``min(n, room)``, or ``n`` when ``room < 0``, on its variables (solver.cp.encode)."""
    return n if room < 0 else min(n, room)


class Part(Enum):
    """What a damage event changes (120.3), each a linear function of the amount dealt."""

    DAMAGE_TAKEN = "damage_taken"  # a player's tally of damage dealt to them
    LIFE_LOSS = "life_loss"  # 120.3a
    POISON = "poison"  # 120.3b (infect), 120.3g (toxic)
    LOYALTY_LOSS = "loyalty_loss"  # 120.3c
    MINUS_COUNTERS = "minus_counters"  # 120.3d (wither, infect)
    MARKED = "marked"  # 120.3e
    DEATHTOUCHED = "deathtouched"  # 702.2b: any damage from a deathtouch source is lethal
    DEFENSE_LOSS = "defense_loss"  # 120.3h
    LIFELINK = "lifelink"  # 120.3f: the source's controller gains that much (one event per source, 702.15e)
    COMBAT_TO_PLAYER = "combat_to_player"  # combat damage to a player, for triggers (510.3a)


@dataclass(frozen=True)
class Result:
    """``who`` gets ``per_point`` x the damage dealt, plus ``once`` if any is dealt (120.8: none for 0)."""

    part: Part
    who: str
    per_point: int = 1
    once: int = 0


_PART_WORDS = {
    Part.LIFE_LOSS: ("{who} loses {n} life", "120.3a"), Part.POISON: ("{who} gets {n} poison counter{s}", "120.3b"),
    Part.LOYALTY_LOSS: ("{n} loyalty counter{s} removed from {who}", "120.3c"),
    Part.MINUS_COUNTERS: ("{n} -1/-1 counter{s} put on {who}", "120.3d"),
    Part.MARKED: ("{n} damage marked on {who}", "120.3e"), Part.LIFELINK: ("{who} gains {n} life (lifelink)", "120.3f"),
    Part.DEATHTOUCHED: ("{who} was dealt damage by a source with deathtouch", "702.2b"),
    Part.DEFENSE_LOSS: ("{n} defense counter{s} removed from {who}", "120.3h"),
}


def event_words(state: GameState, table: Table, ev: Event, effects: dict[str, str]) -> tuple[str, str]:
    """One damage event of a batch in words, as it is dealt: source and recipient, its amount
    before and after the effects that applied (named in ``effects`` by key), and its results
    (120.3); with its rule (510.2 combat damage, 120.3 otherwise)."""
    src, rcp = obj_name(state, table, ev.source), obj_name(state, table, ev.recipient)
    kind = "combat damage" if ev.combat else "damage"
    applied = [effects.get(k, k) for k in sorted(ev.applied)]
    by = f" by {' and '.join(applied)}" if applied else ""
    before = ev.before if ev.before >= 0 else ev.amount
    rule = "510.2" if ev.combat else "120.3"
    if ev.as_counters:
        return f"{possessive(src)} {before} {kind} to {rcp} is replaced{by}: {ev.amount} {ev.as_counters} counters put on it", rule
    if ev.amount <= 0:
        return f"{possessive(src)} {before} {kind} to {rcp} is prevented{by}: none is dealt", rule
    changed = f" ({before} before {' and '.join(applied)})" if before != ev.amount and applied else f" ({before} before)" if before != ev.amount else f" (after {' and '.join(applied)})" if applied else ""
    parts = []
    for r in event_results(state, table, ev):
        said = _PART_WORDS.get(r.part)
        if said is None:
            continue
        n = r.per_point * ev.amount + r.once
        if n <= 0:
            continue
        text, cr = said
        said_text = text.format(who=obj_name(state, table, r.who), n=n, s="" if n == 1 else "s")
        for verb in ("loses", "gets", "gains"):  # "you lose", as solver.decision.says
            said_text = said_text.replace(f"you {verb}", f"you {verb[:-1]}")
        parts.append(f"{said_text} ({cr})")
    results = f": {'; '.join(parts)}" if parts else ""
    return f"{src} deals {ev.amount} {kind} to {rcp}{changed}{results}", rule


def event_results(state: GameState, table: Table, ev: Event) -> tuple[Result, ...]:
    """120.3: what one damage event does, as parts linear in its amount, so the graph engine
    applies them to a number and the CP model to a variable (one definition of the rule)."""
    src = table.spec_of(state, ev.source)
    extra = _as_though(state, table, ev)
    infect = has_keyword(state, table, ev.source, "infect") or "infect" in extra
    wither = has_keyword(state, table, ev.source, "wither") or "wither" in extra
    out: list[Result] = []
    if is_player(table, ev.recipient):
        out.append(Result(Part.DAMAGE_TAKEN, ev.recipient))
        # 120.3b, 120.3a; a player who can't get poison counters gets none from infect or toxic
        poisonable = not cant_get_poison(state, table, ev.recipient)
        if not infect or poisonable:
            out.append(Result(Part.POISON if infect else Part.LIFE_LOSS, ev.recipient))
        if ev.combat and src is not None and src.toxic and "creature" in src.types and poisonable:
            out.append(Result(Part.POISON, ev.recipient, 0, src.toxic))  # 120.3g
        if ev.combat:
            out.append(Result(Part.COMBAT_TO_PLAYER, ev.recipient))
    else:
        perm = state.perm(ev.recipient)
        assert perm is not None
        types = table.perm_specs[perm.spec].types
        if "creature" in types:
            out.append(Result(Part.MINUS_COUNTERS if infect or wither else Part.MARKED, ev.recipient))
            if has_keyword(state, table, ev.source, "deathtouch"):
                out.append(Result(Part.DEATHTOUCHED, ev.recipient, 0, 1))
        if "planeswalker" in types:
            out.append(Result(Part.LOYALTY_LOSS, ev.recipient))
        if "battle" in types:
            out.append(Result(Part.DEFENSE_LOSS, ev.recipient))
    if has_keyword(state, table, ev.source, "lifelink"):
        ctrl = controller_of(state, table, ev.source)
        if ctrl is not None:
            out.append(Result(Part.LIFELINK, ctrl))
    return tuple(out)


def deal(state: GameState, table: Table, events: tuple[Event, ...],
         gains: dict[str, int] | None = None) -> GameState:
    """All the batch's damage is dealt at once (510.2), then processed into results (120.4c).

    ``gains`` is life the same modified event gives (a prevention rider such as Awe Strike's):
    a life floor (Worship) compares the whole event's net change (CR 120.4 example).
    """
    loss: dict[str, int] = defaultdict(int)
    gain_by_source: dict[tuple[str, str], int] = defaultdict(int)
    by_source: dict[str, int] = defaultdict(int)
    by_source_combat: dict[str, int] = defaultdict(int)
    to_recipient: dict[str, int] = defaultdict(int)
    pair_amounts: dict[tuple[str, str], int] = defaultdict(int)  # (recipient, source) -> damage (120.9)
    combat_to_player: dict[tuple[str, str], int] = defaultdict(int)
    minus: dict[str, int] = defaultdict(int)  # -1/-1 counters from wither and infect, per permanent
    for ev in events:
        n = ev.amount
        if n <= 0:
            continue  # 120.8
        if ev.as_counters:
            # the damage was replaced by counters (Phytohydra): none is dealt, only counters put
            state = put_counters(state, table, ev.recipient, ev.as_counters, n)
            continue
        by_source[ev.source] += n
        if ev.combat:
            by_source_combat[ev.source] += n
        to_recipient[ev.recipient] += n
        pair_amounts[(ev.recipient, ev.source)] += n
        for r in event_results(state, table, ev):
            k = r.per_point * n + r.once
            if r.part is Part.LIFE_LOSS:
                loss[r.who] += k
            elif r.part is Part.LIFELINK:
                gain_by_source[(ev.source, r.who)] += k
            elif r.part is Part.COMBAT_TO_PLAYER:
                combat_to_player[(ev.source, r.who)] += k
            elif r.part is Part.POISON:
                state = add_poison(state, table, r.who, k)
            elif r.part is Part.MINUS_COUNTERS:
                minus[r.who] += k
            elif r.part is Part.DAMAGE_TAKEN:
                p = state.player(r.who)
                state = state.set_player(replace(p, damage_taken=p.damage_taken + k))
            else:
                state = _mark(state, table, r.who, r.part, k)
    for hit, by in sorted(pair_amounts):
        # "a creature dealt damage by ~ this turn" (120.1): who dealt damage to each permanent
        q = state.perm(hit)
        if q is not None and by not in q.dealt_by:
            state = state.set_perm(replace(q, dealt_by=q.dealt_by + (by,)))
    for pid in sorted(minus):
        # all the batch's -1/-1 counters on one permanent are one event (the Vizier of Remedies
        # ruling, 2017-04-18: several wither or infect sources at once make only one counter fewer)
        state = put_counters(state, table, pid, "-1/-1", minus[pid])
    for name in sorted(loss):
        n = loss[name]
        floor = life_floor(state, table, name)
        if floor is not None:
            n = floored_loss(n, state.player(name).life + (gains or {}).get(name, 0) - floor)
        state = change_life(state, table, name, -n)
    for (src, ctrl), n in sorted(gain_by_source.items()):
        state = gain_life(state, table, ctrl, n, src)  # one event per source (702.15e)
    return _damage_triggers(state, table, by_source, by_source_combat, to_recipient, pair_amounts, combat_to_player)


def _damage_triggers(state: GameState, table: Table, by_source: dict[str, int], by_source_combat: dict[str, int],
                     to_recipient: dict[str, int], pair_amounts: dict[tuple[str, str], int],
                     combat_to_player: dict[tuple[str, str], int]) -> GameState:
    """The triggers the batch's damage fires once it is dealt (603.2): combat damage to a player
    (510.3a), the monarch's (724.2), each source's dealing and each recipient's being dealt it."""
    state = collect_triggers(state, table, TriggerEvent.COMBAT_DAMAGE_TO_PLAYER,
                     [(s, {"damage_dealt": n, "_to": p, "_player": p}) for (s, p), n in sorted(combat_to_player.items())])
    crown = monarch(state)
    if crown is not None:
        # 724.2: "Whenever a creature deals combat damage to the monarch, its controller becomes the
        # monarch", controlled by the monarch as it triggers; one trigger per creature
        state = replace(state, pending=state.pending + tuple(
            Trigger(crown, MONARCH, 1, label="the monarch", player=controller_of(state, table, s))
            for (s, p), n in sorted(combat_to_player.items()) if p == crown and n > 0))
    state = collect_triggers(state, table, TriggerEvent.DEALS_DAMAGE,
                     [(s, {"damage_dealt": n, "combat": int(by_source_combat.get(s, 0) > 0),
                           "_to": tuple((r, k) for (r, ss), k in sorted(pair_amounts.items()) if ss == s)})
                      for s, n in sorted(by_source.items())])
    state = collect_triggers(state, table, TriggerEvent.DEALT_DAMAGE,
                     [(r, {"damage_dealt": n, **({"_player": r} if is_player(table, r) else {}),
                           "_sources": tuple((s, k) for (rr, s), k in sorted(pair_amounts.items()) if rr == r)})
                      for r, n in sorted(to_recipient.items())])
    return state


def fewer_counters(state: GameState, table: Table, pid: str, kind: str) -> int:
    """"If one or more -1/-1 counters would be put on a creature you control, that many minus one
    are put on it instead" (Vizier of Remedies; 614.1a): how many fewer counters of ``kind`` an
    event putting some on ``pid`` puts (never below none). Each such effect applies once to the
    event (614.5), one less each; subtracting commutes, so the 616.1 order changes nothing and is
    not asked. The CP model puts ``max(0, n - this)`` on its variables (solver.cp.encode)."""
    fewer = 0
    for inst in effects_in_force(state, table):
        spec = inst.spec
        if spec.kind == EffectKind.FEWER_COUNTERS and spec.value[0] == kind and \
                matches(spec.to, pid, state, table, inst.view, default=True):
            fewer += int(spec.value[1])
    return fewer


def put_counters(state: GameState, table: Table, pid: str, kind: str, n: int) -> GameState:
    """``n`` counters of ``kind`` are put on permanent ``pid`` (122.1): by an action ("put a +1/+1
    counter on this creature") or as a result of damage (wither, infect: 120.3d), one event per
    permanent, after the replacements of :func:`_fewer_counters`. Putting none is no event."""
    perm = state.perm(pid)
    if perm is None or not perm.present or n <= 0:
        return state
    n = max(0, n - fewer_counters(state, table, pid, kind))
    if n <= 0:
        return state
    counters = dict(perm.counters)
    counters[kind] = counters.get(kind, 0) + n
    return state.set_perm(replace(perm, counters=tuple(sorted(counters.items()))))


def remove_counters(state: GameState, pid: str, kind: str, n: int) -> GameState:
    """``n`` counters of ``kind`` are removed from permanent ``pid`` (122.1), as many as it has at
    most (Protean Hydra's ruling, 2009-10-01: more damage than counters removes them all)."""
    perm = state.perm(pid)
    if perm is None or not perm.present or n <= 0 or perm.counter(kind) <= 0:
        return state
    counters = dict(perm.counters)
    counters[kind] = max(0, perm.counter(kind) - n)
    return state.set_perm(replace(perm, counters=tuple(sorted(counters.items()))))


def _mark(state: GameState, table: Table, pid: str, part: Part, k: int) -> GameState:
    """A permanent's result of damage: marked damage, deathtouch, loyalty, defense (-1/-1 counters: :func:`deal`)."""
    perm = state.perm(pid)
    assert perm is not None
    if part is Part.MARKED:
        perm = replace(perm, damage=perm.damage + k)
    elif part is Part.DEATHTOUCHED:
        perm = replace(perm, deathtouched=True)
    elif part is Part.LOYALTY_LOSS:  # counters are a count: damage past the last removes them all (122.1e)
        perm = replace(perm, loyalty=max(0, perm.loyalty - k))
    elif part is Part.DEFENSE_LOSS:  # (122.1g)
        perm = replace(perm, defense=max(0, perm.defense - k))
    return state.set_perm(perm)


def become_monarch(state: GameState, name: str) -> GameState:
    """724.3: one player is the monarch at a time; as a player becomes it, the other ceases to be."""
    return replace(state, players=tuple(replace(p, monarch=p.name == name) if p.monarch != (p.name == name) else p
                                        for p in state.players))


def monarch(state: GameState) -> str | None:
    return next((p.name for p in state.players if p.monarch), None)
