"""Casting a spell (CR 601.2): its modes (700.2) and kicker (702.33) chosen, its targets (601.2c) and
the division of its damage (601.2d), with the case's responses before it resolves."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.kinds import AbilityKind, DecisionKind, TriggerEvent
from mtg_outcomes.model.types import (
    Ability,
    Action,
    CastAction,
    SourceSpec,
)

from .combat import compositions
from .decision import NOT_DONE, Decision, Option, decide, note, says
from .hands import cast_from_somewhere
from .spellcost import cost_problem, payments, spell_cost
from .state import (
    GameState,
    ItemKind,
    StackItem,
    Table,
    TaskKind,
    replace,
)
from .targets import legal_target, target_candidates
from .triggers import collect_triggers
from .ward import with_ward

__all__ = ["cast", "choose_x", "MAX_SPELL_CHOICES", "mode_requirements"]


def cast_spells(table: Table) -> frozenset[str]:
    """The sources a ``cast:`` action of the case puts on the stack (anywhere in the timeline,
    inside ``may:`` or ``responses:``): such a spell exists as a source only while it is on the
    stack (609.7a), not in its owner's hand before, nor in the graveyard after."""
    got = table.memo.get("cast_spells")
    if got is None:
        found: set[str] = set()

        def walk(a: Any) -> None:
            if isinstance(a, CastAction):
                found.add(a.id)
            for v in vars(a).values():
                for sub in (v if isinstance(v, tuple) else (v,)):
                    if isinstance(sub, Action):
                        walk(sub)

        for a in table.case.actions:
            walk(a)
        got = table.memo["cast_spells"] = frozenset(found)
    return got


def cast(state: GameState, table: Table, action: CastAction) -> GameState | Decision:
    """601.2: a spell is cast, its target chosen as it is (601.2c: the caster's choice among every
    legal target when the case names none; no legal target, no spell), then it resolves (608.2),
    its parts in order (608.2c), each target checked again as it resolves (608.2b)."""
    spec = table.sources.get(action.id)
    assert spec is not None  # validated: a sources: entry
    who = spec.controller
    if state.player(who).left:
        return note(state, f"{spec.name} ({action.id}) can't be cast: {who} has left the game (800.4a)", NOT_DONE)
    if action.x_range is not None:
        return choose_x(state, who, f"{spec.name} ({action.id})", action, f"{action.id} cast")
    modal = next((ab for ab in spec.abilities if ab.kind == AbilityKind.MODES), None)
    if modal is not None and action.modes is None:
        return _choose_modes(state, table, action, spec, modal)
    if action.kicked is None and any(ab.kind == AbilityKind.KICKER for ab in spec.abilities):
        return _choose_kicked(state, action, spec)
    chosen_modes = action.modes or ()
    parts = [(j, ab) for j, ab in enumerate(spec.abilities) if ab.kind == AbilityKind.SPELL and not chosen_modes
             and (ab.kicked is None or ab.kicked == action.kicked)]
    if chosen_modes:
        # the chosen modes' instructions in the order printed, a mode chosen twice done twice (700.2d, 608.2c)
        parts = [(j, ab) for mode in sorted(chosen_modes) for j, ab in enumerate(spec.abilities)
                 if ab.kind == AbilityKind.SPELL and ab.mode == mode and (ab.kicked is None or ab.kicked == action.kicked)]
    per_mode = mode_requirements([ab for _, ab in parts]) if chosen_modes else []
    if len(per_mode) > 1:
        return _cast_modes(state, table, action, spec, parts, per_mode)
    requirement = next((ab.target for _, ab in parts if ab.target is not None), None)
    targets: list[str | None] = [None]
    cant = f"{spec.name} ({action.id}) can't be cast"
    ranged = next((ab for _, ab in parts if ab.targets is not None), None)
    if ranged is not None:
        return _cast_several(state, table, action, spec, parts, ranged)
    two = next((ab for _, ab in parts if ab.second_target is not None), None)
    if two is not None:
        return _cast_two(state, table, action, spec, parts, two)
    if action.targets is not None:
        action = replace(action, target=action.targets[0], targets=None)  # targets: [x] is target: x
    if requirement is not None:
        if action.target is not None:
            if not legal_target(state, table, action.target, requirement, who, action.id):
                return note(state, f"{cant}: {action.target} is not a legal target (601.2c)", NOT_DONE)
            targets = [action.target]
        else:
            targets = list(target_candidates(state, table, requirement, who, action.id))
            if not targets:
                return note(state, f"{cant}: there is no legal target (601.2c)", NOT_DONE)
    ways = [_Way(str(t), f" targeting {t}" if t is not None else "", target=t) for t in targets]
    return _put_on_stack(state, table, action, spec, parts, ways, requirement is None or action.target is not None)


def choose_x(state: GameState, who: str, what: str, action: Any, at: str) -> GameState | Decision:
    """107.3a, 601.2b: X is chosen by the player casting the spell (or activating the ability, 602.2b)
    as it is announced; ``x: {min, max}`` leaves it to them within that range, each value a branch
    (the action again, its X now known)."""
    lo, hi = action.x_range
    return decide(who, DecisionKind.X, at, [
        Option(f"X={v}", f"{says(who, 'chooses')} X={v} for {what}",
               replace(state, queue=((TaskKind.ACT, replace(action, x=v, x_range=None)),) + state.queue))
        for v in range(lo, hi + 1)])


def _choose_modes(state: GameState, table: Table, action: CastAction, spec: SourceSpec, modal: Ability) -> GameState | Decision:
    """700.2a, 601.2b: the caster of a modal spell chooses its modes as it is cast ("Choose one
    —": one; "Choose one or both —": one or two; distinct, 700.2d; with entwine all of them
    instead, 702.42a), before its targets; a mode
    whose targets can't be chosen can't be chosen (700.2a), and a spell with no mode that can be
    chosen can't be cast. A ``target:`` the case announces leaves the sets of modes with a
    target it is legal for. Each choice casts the spell with those modes (the cast action again,
    its ``modes`` now known)."""
    who = spec.controller
    assert modal.modes is not None
    lo, hi = modal.modes
    parts = [ab for ab in spec.abilities if ab.kind == AbilityKind.SPELL]
    n = max(ab.mode for ab in parts)
    given = _announced(action)
    options = []
    # 702.42a: with entwine, all the modes may be chosen instead (its cost paid: mana isn't tracked)
    sizes = list(range(lo, (hi if modal.repeat else min(hi, n)) + 1)) + ([n] if modal.entwine and n > hi else [])
    # 700.2d: "You may choose the same mode more than once."
    pick = itertools.combinations_with_replacement if modal.repeat else itertools.combinations
    targeted = {mode for mode, _ in mode_requirements(parts)}
    for k in sizes:
        for modes in pick(range(1, n + 1), k):
            reqs = [req for mode, req in mode_requirements(parts) if mode in modes]
            # a mode with a second target announces both (601.2c; it is then the one mode chosen)
            reqs += [ab.second_target for ab in parts if ab.mode in modes and ab.second_target is not None]
            if any(modes.count(mode) > 1 for mode in targeted) and all(
                    target_candidates(state, table, req, who, action.id) for req in reqs):
                raise EngineError(f"cast {action.id}: {spec.name}'s mode with a target chosen more than once (700.2d) "
                                  "isn't modelled; give the cast's modes:")
            if given is not None:
                # the announced targets: one per chosen mode with a target, each legal for its mode
                if len(reqs) != len(given) or not all(legal_target(state, table, t, req, who, action.id)
                                                      for t, req in zip(given, reqs, strict=True)):
                    continue
            elif not all(target_candidates(state, table, req, who, action.id) for req in reqs):
                continue  # 700.2a: a mode with no legal target can't be chosen
            words = _and([str(m) for m in modes])
            paid = ", paying its entwine cost" if k > hi else ""
            options.append(Option("+".join(str(m) for m in modes),
                                  f"{says(who, 'chooses')} mode{'s' if k > 1 else ''} {words} of {spec.name} ({action.id}){paid}",
                                  replace(state, queue=((TaskKind.ACT, replace(action, modes=modes)),) + state.queue)))
    if not options:
        return note(state, f"{spec.name} ({action.id}) can't be cast: no mode can be chosen (700.2a)", NOT_DONE)
    return decide(who, DecisionKind.MODE, f"{action.id} cast", options)


def mode_requirements(parts: list[Ability]) -> list[tuple[int, Any]]:
    """The target requirement of each mode with a target, in the order printed: ``(mode, target)``
    of its targeted part (one per mode, model.load)."""
    return sorted({ab.mode: ab.target for ab in parts if ab.target is not None}.items())


def _cast_modes(state: GameState, table: Table, action: CastAction, spec: SourceSpec, parts: list[tuple[int, Ability]],
                per_mode: list[tuple[int, Any]]) -> GameState | Decision:
    """601.2c, 700.2a: a modal spell cast with two or more modes that have targets: a target for
    each of them (the announced ``targets:``, in the order the modes are printed, else the caster's
    choice among every legal combination). Each mode's "target" is a word of its own, so one
    object may be the target of two modes (115.3). Each part carries its mode's target; the
    spell's targets are on every part, checked together as it begins to resolve (608.2b)."""
    who = spec.controller
    cant = f"{spec.name} ({action.id}) can't be cast"
    given = _announced(action)
    if given is not None:
        if len(given) != len(per_mode):
            return note(state, f"{cant}: its modes have {len(per_mode)} targets, not {len(given)} (601.2c)", NOT_DONE)
        for t, (_, req) in zip(given, per_mode, strict=True):
            if not legal_target(state, table, t, req, who, action.id):
                return note(state, f"{cant}: {t} is not a legal target (601.2c)", NOT_DONE)
        combos = [tuple(given)]
    else:
        cands = [list(target_candidates(state, table, req, who, action.id)) for _, req in per_mode]
        count = math.prod(len(c) for c in cands)
        if count > MAX_SPELL_CHOICES:
            raise EngineError(f"cast {action.id}: {spec.name} can be cast in {count} ways (a target for each mode), "
                              f"more than the {MAX_SPELL_CHOICES} one cast may have here")
        combos = list(itertools.product(*cands))
    if not combos:
        return note(state, f"{cant}: a chosen mode has no legal target (601.2c)", NOT_DONE)
    ways: list[_Way] = []
    for ts in combos:
        by_mode = tuple((mode, t) for (mode, _), t in zip(per_mode, ts, strict=True))
        words = _and([f"{t} (mode {mode})" for mode, t in by_mode])
        ways.append(_Way("; ".join(ts), f" targeting {words}", mode_targets=by_mode))
    return _put_on_stack(state, table, action, spec, parts, ways, given is not None)


def _choose_kicked(state: GameState, action: CastAction, spec: SourceSpec) -> GameState | Decision:
    """702.33a, 601.2b: kicker is an optional additional cost its caster chooses to pay or not as
    the spell is cast (mana isn't tracked, so both can be chosen); a part "if it was kicked" is
    done only if it was, one "instead" of it only if it wasn't. Each choice casts the spell with
    ``kicked`` known (the cast action again)."""
    who = spec.controller
    return Decision(who, DecisionKind.KICK, f"{action.id} cast", tuple(
        Option(key, f"{says(who, 'casts')} {spec.name} ({action.id}) {words}",
               replace(state, queue=((TaskKind.ACT, replace(action, kicked=kicked)),) + state.queue))
        for key, kicked, words in (("kicked", True, "kicked"), ("not kicked", False, "without kicking it"))))


MAX_SPELL_CHOICES = 100_000  # one cast's ways to choose targets and divide damage: beyond, an error


def _cast_several(state: GameState, table: Table, action: CastAction, spec: SourceSpec, parts: list[tuple[int, Ability]],
                  ranged: Ability) -> GameState | Decision:
    """601.2c-d: a spell with "one or two targets" (distinct, each meeting the requirement) and,
    for divided damage, the division announced as it is cast (each target at least 1, all of the
    amount). What the case doesn't say is the caster's choice among every legal set and division,
    counted before any is built (``MAX_SPELL_CHOICES``: an error beyond, never a hang)."""
    who = spec.controller
    cant = f"{spec.name} ({action.id}) can't be cast"
    assert ranged.targets is not None and ranged.action is not None
    lo, hi = ranged.targets
    # "divided evenly, rounded down" (Fireball): each target gets the amount // the number of
    # targets, fixed by the targets chosen (601.2d is about a division the caster chooses)
    evenly = ranged.action.evenly
    divided = ranged.action.divided and not evenly
    amount = int(ranged.action.amount[1]) if ranged.action.amount[0] == "int" else action.x
    chosen = _announced(action)
    if chosen is not None:
        for t in chosen:
            if not legal_target(state, table, t, ranged.target, who, action.id):
                return note(state, f"{cant}: {t} is not a legal target (601.2c)", NOT_DONE)
        sets = [tuple(chosen)]
    else:
        cands = list(target_candidates(state, table, ranged.target, who, action.id))
        top = min(len(cands), hi if hi is not None else len(cands), amount if divided else len(cands))
        sizes = range(lo, top + 1)
        ways = sum(math.comb(len(cands), k) * (math.comb(amount - 1, k - 1) if divided and action.divide is None else 1)
                   for k in sizes)
        if ways > MAX_SPELL_CHOICES:
            raise EngineError(f"cast {action.id}: {spec.name} can be cast in {ways} ways (targets and divisions), "
                              f"more than the {MAX_SPELL_CHOICES} one cast may have here")
        sets = [c for k in sizes for c in itertools.combinations(cands, k)]
    if divided and amount < lo:
        return note(state, f"{cant}: {amount} damage can't be divided giving each target at least 1 (601.2d)", NOT_DONE)
    if not sets:
        return note(state, f"{cant}: there is no legal set of targets (601.2c)", NOT_DONE)
    if divided and action.divide is None and chosen is not None:
        ways = math.comb(amount - 1, len(sets[0]) - 1) if amount >= len(sets[0]) else 0
        if ways > MAX_SPELL_CHOICES:
            raise EngineError(f"cast {action.id}: {spec.name}'s {amount} damage can be divided in {ways} ways, "
                              f"more than the {MAX_SPELL_CHOICES} one cast may have here")
    chosen_ways: list[_Way] = []
    for ts in sets:
        if evenly:
            divisions: list[tuple[tuple[str, int], ...]] = [tuple((t, amount // len(ts)) for t in ts)]
        elif not divided:
            divisions = [()]
        elif action.divide is not None:
            divisions = [action.divide]
        else:
            # 601.2d: each target at least 1: a composition of the amount into len(ts) positive parts
            divisions = [tuple((t, n + 1) for t, n in zip(ts, c, strict=True))
                         for c in compositions(amount - len(ts), len(ts))] if amount >= len(ts) else []
        for div in divisions:
            words = f" targeting {_and(list(ts))}" + (", dividing " + _and([f"{n} to {t}" for t, n in div]) if div else "")
            key = "; ".join(f"{t}={n}" for t, n in div) if div else "; ".join(ts)
            chosen_ways.append(_Way(key, words, targets=ts, division=div))
    if not chosen_ways:
        return note(state, f"{cant}: {amount} damage can't be divided among its targets (601.2d)", NOT_DONE)
    if evenly:
        chosen_ways = [replace(w, words=w.words.replace(", dividing ", ", dividing evenly ")) for w in chosen_ways]
    return _put_on_stack(state, table, action, spec, parts, chosen_ways, chosen is not None)


def _cast_two(state: GameState, table: Table, action: CastAction, spec: SourceSpec, parts: list[tuple[int, Ability]],
              two: Ability) -> GameState | Decision:
    """601.2c: a spell with two instances of the word "target" ("target creature you control deals
    damage equal to its power to target creature you don't control"): a first and a second target,
    each meeting its own requirement; the same object may be both unless the second is "another"
    (601.2c). The case's ``targets: [first, second]`` names them; else the caster's choice among
    every legal pair (none: the spell can't be cast)."""
    who = spec.controller
    cant = f"{spec.name} ({action.id}) can't be cast"
    assert two.target is not None and two.second_target is not None
    chosen = _announced(action)
    if chosen is not None:
        if len(chosen) != 2:
            raise EngineError(f"cast {action.id}: {spec.name} has two targets: give targets: [first, second] (601.2c)")
        first, second = chosen
        if not legal_target(state, table, first, two.target, who, action.id) or \
                not legal_target(state, table, second, two.second_target, who, action.id) or (two.another and first == second):
            bad = first if not legal_target(state, table, first, two.target, who, action.id) else second
            return note(state, f"{cant}: {bad} is not a legal target (601.2c)", NOT_DONE)
        pairs = [(first, second)]
    else:
        firsts = target_candidates(state, table, two.target, who, action.id)
        seconds = target_candidates(state, table, two.second_target, who, action.id)
        pairs = [(a, b) for a in firsts for b in seconds if not (two.another and a == b)]
        if len(pairs) > MAX_SPELL_CHOICES:
            raise EngineError(f"cast {action.id}: {spec.name} can be cast in {len(pairs)} ways (targets), "
                              f"more than the {MAX_SPELL_CHOICES} one cast may have here")
        if not pairs:
            return note(state, f"{cant}: there is no legal pair of targets (601.2c)", NOT_DONE)
    ways = [_Way(f"{first}; {second}", f" targeting {first} and then {second}", target=first, second=second,
                 two_targets=True) for first, second in pairs]
    return _put_on_stack(state, table, action, spec, parts, ways, chosen is not None)


@dataclass(frozen=True)
class _Way:
    """One way to cast the spell as its caster chose it: the targets (601.2c) and the division of
    its damage (601.2d) that each of its parts carries (solver.state.StackItem)."""

    key: str  # the option's key
    words: str  # what follows "A casts <spell> (<id>)"
    target: str | None = None
    targets: tuple[str, ...] = ()  # one or more targets of one requirement ("one or two targets")
    division: tuple[tuple[str, int], ...] = ()
    mode_targets: tuple[tuple[int, str], ...] = ()  # each chosen mode's target (a part carries its mode's)
    two_targets: bool = False  # a first (``target``) and a ``second`` target, each of its own requirement
    second: str | None = None

    def target_of(self, ab: Ability) -> str | None:
        return dict(self.mode_targets).get(ab.mode) if self.mode_targets else self.target

    def aimed(self) -> list[str]:
        """Everything the spell targets, each once, in the order chosen (what ward sees, 702.21a)."""
        every = (self.target, *self.targets, *(t for _, t in self.mode_targets), self.second)
        return list(dict.fromkeys(t for t in every if t is not None))


def _put_on_stack(state: GameState, table: Table, action: CastAction, spec: SourceSpec, parts: list[tuple[int, Ability]],
                  ways: list[_Way], announced: bool) -> GameState | Decision:
    """The spell cast each way the caster may choose (the one way when the case announced it, or
    there is nothing to choose): "whenever you cast" abilities trigger once it is cast (601.2i) and
    resolve before it; the case's responses come next; then the spell resolves, its first part
    resolving it and the others done as "part" tasks in the same resolution (608.2c), each part
    carrying the spell's targets (the spell is one object, checked as a whole, 608.2b); each
    permanent with ward it targets triggers (702.21a)."""
    who = spec.controller
    state = cast_from_somewhere(state, who)  # (601.2a: its zone isn't said: solver.hands)
    cost = spell_cost(spec)
    if cost and (problem := cost_problem(state, table, who, action.id, cost)) is not None:
        return note(state, f"{spec.name} ({action.id}) can't be cast: {problem}", NOT_DONE)
    # 601.2h (its additional costs, the caster choosing what to sacrifice) before 601.2i (cast triggers)
    paid_ways = payments(state, table, who, action.id, cost) if cost else [("", "", state, ())]
    options = []
    for (pay_key, pay_words, paid, sacrificed), way in ((p, w) for p in paid_ways for w in ways):
        state = collect_triggers(paid, table, TriggerEvent.CAST, [(action.id, {"_player": who})])  # 601.2i
        items = tuple((TaskKind.RESOLVE if k == 0 else TaskKind.PART,
                       StackItem(ItemKind.SPELL, who, action.id, j, (("X", action.x), *sacrificed), way.target_of(ab),
                                 action.source_choice, label=spec.name,
                                 continuing=k > 0, modes=action.modes or (), kicked=action.kicked, targets=way.targets,
                                 division=way.division, mode_targets=way.mode_targets, two_targets=way.two_targets,
                                 second=way.second))
                      for k, (j, ab) in enumerate(parts))
        tasks = tuple((TaskKind.ACT, r) for r in action.responses) + items
        cast_state = replace(state, queue=tasks + state.queue)
        if items:
            cast_state = with_ward(cast_state, table, items[0][1], way.aimed())  # 702.21a
        options.append(Option(way.key + pay_key, f"{says(who, 'casts')} {spec.name} ({action.id}){way.words}{pay_words}",
                              cast_state))
    if announced and len(options) == 1:
        return options[0].state
    return decide(who, DecisionKind.TARGET if len(paid_ways) == 1 else DecisionKind.SACRIFICE, f"{action.id} cast", options)


def _announced(action: CastAction) -> tuple[str, ...] | None:
    """The targets the case announces for the cast (``targets:``, or ``target:`` as one), if any."""
    return tuple(action.targets) if action.targets is not None else (action.target,) if action.target is not None else None


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

