"""Activated abilities and optional actions: activating (602.2), resolving (608.2), may:."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.kinds import AbilityKind, DecisionKind
from mtg_outcomes.model.selectors import Selector, SelectorKind
from mtg_outcomes.model.types import (
    Ability,
    ActivateAction,
    EffectSpec,
    MayAction,
    TapForManaAction,
)

from .cast import _and, cast_spells, choose_x, mode_requirements
from .costs import cost_problem, find_ability, loyalty_change, pay_cost, sacrifice_choices
from .decision import NOT_DONE, Decision, Option, decide, event, note, recording, says
from .describe import describe, named_object
from .dies import put_into_graveyard
from .emblems import make_emblem
from .exiled import CAST_EXILED
from .mana import mana_activation_problem
from .oneshot import read_now, run_one_shot, spell_marks
from .rules.effects import start_batch
from .select import View, controller_of, matches
from .spellcost import sacrificed_values
from .state import (
    Event,
    GameState,
    ItemKind,
    PermState,
    StackItem,
    Table,
    TaskKind,
    make_effect_state,
    replace,
)
from .targets import legal_target, target_candidates
from .timing import loyalty_timing, sorcery_timing
from .triggers import condition_holds
from .values import evaluate
from .ward import resolve_ward, with_ward
from .words import name, possessive

__all__ = ['Activation', 'activation', 'activate', 'may', 'resolve']


def _selectors(ab: Ability) -> list[Selector]:
    """Every selector an ability's body reads (its effect's filters and values, its action's recipients)."""
    out: list[Any] = [ab.target]
    if ab.effect is not None:
        e = ab.effect
        out += [e.to, e.from_, e.if_you_control, e.value, e.then.to if e.then is not None else None]
    out += [shot.to for shot in ((ab.action,) if ab.action is not None else ()) + ab.more]
    return [x for x in out if isinstance(x, Selector)]


def _uses_chosen_player(ab: Ability) -> bool:
    """Whether the ability reads its permanent's chosen player (Guardian Archon's "the chosen player")."""
    return ab.choose is None and any(x.mentions(SelectorKind.CHOSEN) for x in _selectors(ab))


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
    if loyalty_change(ab.cost) is not None and (why := loyalty_timing(state, table, perm)) is not None:
        return f"{cant}: {why}"
    if ab.sorcery and (why := sorcery_timing(state, table, perm.controller)) is not None:
        return f"{cant}: {why}, and it is activated only as a sorcery (602.5d, 307.1)"
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
    problem = cost_problem(state, table, perm, ab.cost, action.x)
    if problem is not None:
        return f"{cant}: {problem}"
    return Activation(perm, j, ab, targets)


def activate(state: GameState, table: Table, action: ActivateAction) -> GameState | Decision:
    """602.2: announce, choose targets (601.2c), pay (601.2h), then the ability waits on the stack.

    An activation that can't be made doesn't happen, and the outcome's explanation says why. A
    targeted ability with no ``target:`` in the case is its controller's choice among every legal
    target.
    """
    if action.x_range is not None:
        perm0 = state.perm(action.id)
        if perm0 is not None and perm0.present:
            name = table.perm_specs[perm0.spec].name
            return choose_x(state, perm0.controller, f"{name}'s ability ({action.id})", action, f"{action.id} activation")
        action = replace(action, x_range=None)
    act = activation(state, table, action)
    if isinstance(act, str):
        return note(state, act, NOT_DONE)
    spec = table.perm_specs[act.perm.spec]
    who = act.perm.controller
    paid0 = pay_cost(state, table, act.perm, act.ability.cost, action.x)
    assert paid0 is not None
    perm = paid0.perm(action.id)
    assert perm is not None
    paid0 = paid0.set_perm(replace(perm, activated_once=tuple(sorted(set(perm.activated_once) | {act.index}))))
    # "Sacrifice a creature": which one is its controller's choice as the cost is paid, after
    # the targets are chosen (601.2c, 601.2h)
    sacrifices = sacrifice_choices(state, table, act.perm, act.ability.cost)
    options = []
    for t in act.targets:
        for sac in sacrifices:
            paid = paid0
            # the sacrificed creature as it last existed, for "equal to the sacrificed creature's power" (608.2h)
            sacrificed = sacrificed_values(state, table, sac)
            words = f"{says(who, 'targets')} {t} with {spec.name}'s ability ({perm.id})"
            if sac is not None:
                gone = paid.perm(sac)
                if gone is not None and gone.present:  # (it may be the permanent itself, sacrificed as it taps)
                    paid = put_into_graveyard(paid, table, [gone])
                words = (f"{says(who, 'sacrifices')} {sac} to activate {spec.name}'s ability ({perm.id})" if t is None
                         else f"{words}, sacrificing {sac}")
            said = () if action.cast_exiled is None else ((CAST_EXILED, int(action.cast_exiled)),)  # (solver.exiled)
            item = StackItem(ItemKind.ACTIVATED, who, perm.id, act.index, (("X", action.x), *sacrificed, *said), t,
                             action.source_choice,
                             label=spec.name)
            tasks = tuple((TaskKind.ACT, r) for r in action.responses) + ((TaskKind.RESOLVE, item),)
            # 702.21a: targeting an opponent's ward permanent triggers its ward
            options.append(Option(f"{t}/{sac}" if sac is not None else str(t), words,
                                  with_ward(replace(paid, queue=tasks + paid.queue), table, item, [t])))
    if (act.ability.target is None or action.target is not None) and sacrifices == [None]:
        return options[0].state
    return decide(who, DecisionKind.TARGET if sacrifices == [None] else DecisionKind.SACRIFICE, f"{perm.id} activation", options)


def _doesnt_resolve(state: GameState, item: StackItem, targets: str) -> GameState:
    """608.2b: every target of the spell is illegal as it begins to resolve: it doesn't resolve
    (none of its instructions happen, its later parts are gone). ``targets``: them, in words."""
    return note(_without_parts(state, item), f"{item.label} ({item.source}) doesn't resolve: {targets} as it resolves (608.2b)",
                NOT_DONE)


def _without_parts(state: GameState, item: StackItem) -> GameState:
    """The state with the spell's later parts gone from the queue (608.2b: it doesn't resolve)."""
    mine = set(state.spell_parts(item))
    return replace(state, queue=tuple(t for i, t in enumerate(state.queue) if i not in mine))


def _begin_several(state: GameState, table: Table, item: StackItem) -> GameState | tuple[GameState, StackItem]:
    """608.2b: as the spell begins to resolve, a target that is illegal now gets none of its
    effect (the division stays as announced); if every target is illegal the spell doesn't
    resolve (the state returned, its later parts gone). Otherwise the state and the item, both
    keeping only the legal targets."""
    abilities = table.abilities_of(state, item.source)
    req = next((a.target for a in abilities if a.kind == AbilityKind.SPELL and a.targets is not None), None)
    legal = tuple(t for t in item.targets if legal_target(state, table, t, req, item.controller, item.source))
    gone = [t for t in item.targets if t not in legal]
    mine = state.spell_parts(item)
    if not legal:
        return _doesnt_resolve(state, item, f"its target{'s' if len(gone) > 1 else ''} {_and(gone)} "
                                            f"{'are all' if len(gone) > 1 else 'is'} illegal")
    if gone:
        state = note(state, f"{item.label} ({item.source}): {_and(gone)} {'is an illegal target' if len(gone) == 1 else 'are illegal targets'} "
                            "as it resolves and gets none of its damage (608.2b)")
        state = replace(state, queue=tuple(_replace_part(t, legal) if i in mine else t for i, t in enumerate(state.queue)))
    return state, replace(item, targets=legal)


def _begin_two(state: GameState, table: Table, item: StackItem) -> GameState | tuple[GameState, StackItem]:
    """608.2b for a spell with two targets: as it begins to resolve, each is checked against its
    own requirement; an illegal one is neither affected nor made to act (its actions do nothing:
    "target creature you control deals damage ..." deals none if that creature is illegal); with
    both illegal the spell doesn't resolve. The state and the item (and its later parts) with an
    illegal target as None."""
    abilities = table.abilities_of(state, item.source)
    two = next(a for a in abilities if a.kind == AbilityKind.SPELL and a.second_target is not None
               and (not item.modes or a.mode in item.modes) and (a.kicked is None or a.kicked == item.kicked))
    first = item.target if legal_target(state, table, item.target, two.target, item.controller, item.source) else None
    second = item.second if legal_target(state, table, item.second, two.second_target, item.controller, item.source) else None
    mine = state.spell_parts(item)
    if first is None and second is None:
        return _doesnt_resolve(state, item, f"its targets {item.target} and {item.second} are both illegal")
    gone = [t for t, now in ((item.target, first), (item.second, second)) if now is None]
    if gone:
        state = note(state, f"{item.label} ({item.source}): {gone[0]} is an illegal target as it resolves: the spell "
                            "does nothing to it and it does nothing (608.2b)")
        state = replace(state, queue=tuple((t[0], replace(t[1], target=first, second=second)) + t[2:] if i in mine else t
                                           for i, t in enumerate(state.queue)))
    return state, replace(item, target=first, second=second)


def _begin_modes(state: GameState, table: Table, item: StackItem) -> tuple[GameState, StackItem | None]:
    """608.2b for a modal spell with a target in each of several modes (601.2c): as it begins to
    resolve, each mode's target is checked against that mode's requirement. If every one is
    illegal the spell doesn't resolve (its later parts gone, None for the item). Otherwise it resolves and
    does nothing to an illegal target: each part of a mode whose target is illegal that acts on
    that target (the mode's targeted part, or one ``to: target``) is left out; the mode's other
    parts still happen. The state (with a note for each illegal target, the left-out parts gone)
    and the item, checked (``continuing``), or None for the item when it is itself left out."""
    abilities = table.abilities_of(state, item.source)
    reqs = dict(mode_requirements([a for a in abilities if a.kind == AbilityKind.SPELL and a.mode in item.modes]))
    illegal = [(mode, t) for mode, t in item.mode_targets
               if not legal_target(state, table, t, reqs.get(mode), item.controller, item.source)]
    mine = state.spell_parts(item)
    if len(illegal) == len(item.mode_targets):
        gone = _and(list(dict.fromkeys(t for _, t in illegal)))
        return _doesnt_resolve(state, item, f"its targets ({gone}) are all illegal"), None
    bad = {mode for mode, _ in illegal}

    def left_out(it: StackItem) -> bool:
        a = table.ability_at(state, it.source, it.ability)
        return a.mode in bad and (a.target is not None or _to_target(a))

    for mode, t in illegal:
        state = note(state, f"{item.label} ({item.source}): {t}, the target of mode {mode}, is illegal as it resolves; "
                            "that mode does nothing to it (608.2b)")
    state = replace(state, queue=tuple(t for i, t in enumerate(state.queue) if i not in mine or not left_out(t[1])))
    return state, (None if left_out(item) else replace(item, continuing=True))


def _to_target(ab: Ability) -> bool:
    """Whether the part acts on the ability's target: its action's or its effect's ``to:``."""
    if ab.action is not None:
        return ab.action.to.kind == SelectorKind.TARGET
    return ab.effect is not None and ab.effect.to is not None and ab.effect.to.kind == SelectorKind.TARGET


def _replace_part(task: tuple[Any, ...], legal: tuple[str, ...]) -> tuple[Any, ...]:
    return (task[0], replace(task[1], targets=legal)) + task[2:]


def _deal_several(state: GameState, table: Table, item: StackItem, ab: Ability) -> GameState:
    """The damage to the spell's legal targets: one simultaneous batch (120.2, one event per
    recipient; divided: each its announced share, 601.2d) through the usual damage path (616.1
    choices, prevention, then state-based actions). A later instruction reaches only the targets
    still there (checked as the resolution began, 608.2b)."""
    assert ab.action is not None
    shot = ab.action
    here = [t for t in item.targets if legal_target(state, table, t, None, item.controller, item.source)]
    share = dict(item.division)
    n = evaluate(read_now(shot.amount, state, table, View(item.controller, item.source)), dict(item.values))
    source = shot.source or item.source
    events = [Event(source, t, share[t] if shot.divided else n, shot.combat) for t in here]
    events = spell_marks(table, state, item.source, dict(item.values).get("X", 0), events)
    return start_batch(state, table, events) if events else state


def _action_problem(state: GameState, table: Table, action: Any) -> str | None:
    """Why ``action`` can't be done now (only activations can be illegal), or None."""
    if isinstance(action, ActivateAction):
        act = activation(state, table, action)
        return act if isinstance(act, str) else None
    if isinstance(action, TapForManaAction):
        return mana_activation_problem(state, table, action)
    return None


def may(state: GameState, table: Table, action: MayAction) -> GameState | Decision:
    """``may: <action>``: its chooser decides whether it happens; an action the rules forbid
    leaves only "no" (design.md: illegality is an outcome, not an error)."""
    obj = named_object(action.action)
    who = action.chooser or (controller_of(state, table, obj) if obj else None) or table.active
    what = describe(action.action)
    problem = _action_problem(state, table, action.action)
    if problem is not None:
        return note(state, f"{who} may {what}, but can't: {problem}", NOT_DONE)
    yes = replace(state, queue=((TaskKind.ACT, action.action),) + state.queue)
    return Decision(who, DecisionKind.MAY, what, (Option("yes", f"{says(who, 'chooses')} to {what}", yes),
                                       Option("no", f"{says(who, 'declines')} to {what}", state)))


def item_words(state: GameState, table: Table, item: StackItem) -> str:
    """A stack item in a witness's words: "Scroll Thief's trigger", "Lightning Bolt"."""
    who = name(state, table, item.source) if table.spec_of(state, item.source) is not None else (item.label or item.source)
    if item.kind == ItemKind.TRIGGER:
        return f"{possessive(who)} trigger"
    if item.kind == ItemKind.ACTIVATED:
        return f"{possessive(who)} ability"
    return who


def resolve(state: GameState, table: Table, item: StackItem, said: bool = False) -> GameState | Decision:
    """608.2b: targets are checked on resolution; an illegal target means the ability does nothing."""
    abilities = table.abilities_of(state, item.source)
    ab = table.item_ability(state, item)  # (a modal trigger's chosen mode, 700.2b)
    if ab.kind == AbilityKind.WARD:
        return resolve_ward(state, table, item, ab)
    if not item.continuing and not said and recording():  # (said: resolving again after a choice made as it resolves)
        state = event(state, f"{item_words(state, table, item)} resolves", "608.2")
    if item.targets and not item.continuing:
        begun = _begin_several(state, table, item)
        if isinstance(begun, GameState):
            return begun  # the spell doesn't resolve (608.2b)
        state, item = begun
    if item.targets and ab.targets is not None:
        return _deal_several(state, table, item, ab)
    if item.two_targets and not item.continuing:
        begun_two = _begin_two(state, table, item)
        if isinstance(begun_two, GameState):
            return begun_two  # the spell doesn't resolve (608.2b)
        state, item = begun_two
    if item.mode_targets and not item.continuing:
        state, checked = _begin_modes(state, table, item)
        if checked is None:
            return state
        item = checked
    # X is the value chosen for it; where none was (a permanent's ability that doesn't use the
    # spell's X, a card put onto the battlefield without being cast) it is 0 (107.3i, 107.3m)
    values = {"X": 0, **dict(item.values)}
    perm = state.perm(item.source)
    chosen = perm.chosen if perm is not None else None
    view = View(item.controller, item.source, item.target, chosen, item.source_choice, item.player, second=item.second)
    if ab.kind == AbilityKind.TRIGGER and not condition_holds(ab.trigger_if, state, table, view):
        return note(state, f"{item.label}'s trigger ({item.source}) does nothing: its \"if\" condition is "
                           "no longer true as it resolves (603.4)", NOT_DONE)
    if not _target_still_legal(state, table, item, ab, abilities):
        if item.kind is ItemKind.SPELL and not item.continuing:
            # the spell doesn't resolve: its later instructions go too (608.2b)
            state = _without_parts(state, item)
        return note(state, f"{item.label}'s ability ({item.source}) does nothing: its target "
                           f"{item.target} is illegal as it resolves (608.2b)", NOT_DONE)
    if ab.emblem_ability is not None:
        return make_emblem(state, table, item, ab.emblem_ability)
    if ab.effect is not None and ab.choose is not None and item.chosen is None:
        return _choose_permanent(state, table, item, ab.choose, view)
    if item.chosen is not None:
        chosen = item.chosen
    if ab.effect is not None:
        return _create_effect(state, table, item, ab.effect, ab.emblem, view, values, chosen)
    if ab.action is not None:
        return _do_action_part(state, table, item, ab, view, values)
    return state


def _target_still_legal(state: GameState, table: Table, item: StackItem, ab: Ability, abilities: Sequence[Ability]) -> bool:
    """608.2b: the target is checked as the ability (or the spell) resolves."""
    needs_target = ab.target is not None or (ab.action is not None and ab.action.to.kind in (SelectorKind.ANY, SelectorKind.TARGET, SelectorKind.CHOICE))
    req = ab.target if ab.target is not None else None
    if item.continuing:
        # targets were checked as the resolution began (608.2b); an instruction on the target
        # does nothing if it has gone since ("destroy target creature. You gain 3 life.")
        needs_target = ab.action is not None and ab.action.to.kind in (SelectorKind.ANY, SelectorKind.TARGET, SelectorKind.CHOICE)
        req = None
    elif item.kind is ItemKind.SPELL and item.target is not None:
        # 608.2b: a spell whose target is illegal as it resolves doesn't resolve at all: none of
        # its parts happen, the untargeted ones ("and you gain 3 life") included
        spell_req = next((a.target for a in abilities if a.kind == AbilityKind.SPELL and a.target is not None
                          and (not item.modes or a.mode in item.modes)
                          and (a.kicked is None or a.kicked == item.kicked)), None)
        needs_target, req = True, spell_req if spell_req is not None else req
    if not needs_target or item.two_targets:  # (a spell's two targets: checked as it began, _begin_two)
        return True
    return legal_target(state, table, item.target, req, item.controller, item.source, item.player)


def _create_effect(state: GameState, table: Table, item: StackItem, effect: EffectSpec, emblem: bool, view: View,
                   values: dict[str, int], chosen: str | None) -> GameState | Decision:
    """The resolving ability's continuous effect, created (611.2), its source chosen first (609.7a)."""
    picked = item.source_choice
    if effect.source_choice == "chosen_source" and picked is None:
        return _choose_source(state, table, item, effect, view)
    if effect.source_choice == "chosen_source" and picked is not None and \
            picked not in _source_choices(state, table, effect, view, item):
        raise EngineError(f"{'cast' if item.kind is ItemKind.SPELL else 'activate'} {item.source}: source {item.source_choice!r} is not a legal choice for "
                          f"{item.label}: it is not one of {effect.from_} on the battlefield, on the stack or "
                          "among the case's sources no cast: action casts (609.7a: a spell is a choice only while "
                          "on the stack)")
    eid = f"{item.source}.{item.ability}.{state.next_order}"
    # an emblem's static ability applies to what it names at any time (114.4, 611.3a)
    made = effect if emblem else fixed_as_it_resolves(effect, state, table, view)
    eff = make_effect_state(eid, made, item.controller, item.source,
                            item.target, values.get("X", 0), state.next_order, item.source_choice, chosen,
                            len(state.perms))
    return replace(state, effects=state.effects + (eff,), next_order=state.next_order + 1)


def _do_action_part(state: GameState, table: Table, item: StackItem, ab: Ability, view: View,
                    values: dict[str, int]) -> GameState | Decision:
    """The resolving ability's instruction number ``item.part`` (608.2c: the next one queued)."""
    shot = ab.action if item.part == 0 else ab.more[item.part - 1]
    assert shot is not None  # (called for an ability with an action)
    if item.part < len(ab.more):
        # the ability's next instruction, in the same resolution (608.2c)
        state = replace(state, queue=((TaskKind.PART, replace(item, part=item.part + 1, continuing=True)),) + state.queue)
    if shot.may:
        yes = run_one_shot(state, table, replace(shot, may=False), view, values)
        return Decision(item.controller, DecisionKind.MAY, f"{item.label} ({item.source})", (
            Option("yes", f"{says(item.controller, 'chooses')} to use {item.label}", yes),
            Option("no", f"{says(item.controller, 'declines')} {item.label}", state)))
    return run_one_shot(state, table, shot, view, values)


def fixed_as_it_resolves(effect: EffectSpec, state: GameState, table: Table, view: View) -> EffectSpec:
    """611.2c: a power/toughness or keyword change a resolving spell or ability creates for a group
    ("creatures you control get +1/+1 until end of turn") changes the permanents the group names
    as it resolves, and no others: its ``to:`` becomes those permanents (none: it changes nothing)."""
    if effect.kind not in (EffectKind.PT, EffectKind.GRANT) or effect.to is None or effect.to.kind not in (SelectorKind.OBJECTS, SelectorKind.ANY_OF):
        return effect
    now = tuple(Selector(SelectorKind.REF, name=p.id) for p in state.perms if p.present and matches(effect.to, p.id, state, table, view))
    return replace(effect, to=Selector(SelectorKind.ANY_OF, parts=now))


def _choose_permanent(state: GameState, table: Table, item: StackItem, among: Selector, view: View) -> GameState | Decision:
    """"Choose a creature or planeswalker you control" as it resolves (608.2c; not a target, so
    hexproof doesn't matter): its controller picks one of the permanents ``among`` names; with
    none to choose, the effect has nothing to refer to and isn't created."""
    legal = [p.id for p in state.perms if p.present and matches(among, p.id, state, table, view)]
    return _chosen_on_resolution(state, table, item, legal, DecisionKind.CHOOSE, "chosen",
                                 f"does nothing: there is no {among} to choose", "for")


def _source_choices(state: GameState, table: Table, effect: EffectSpec, view: View, *resolving: StackItem) -> list[str]:
    """615.9, 609.7a: "a source of your choice" is chosen as the effect is created, among the
    permanents and the case's other sources (spells, emblems) with the effect's properties; a source
    needn't be able to deal damage to be chosen. A spell a ``cast:`` action casts is a choice only
    while it is on the stack (solver.cast.cast_spells)."""
    cast = cast_spells(table)
    # a cast spell is on the stack from its cast (its resolution waiting in the queue behind the
    # responses, solver.cast._put_on_stack) to the end of its resolution (608.2)
    waiting = [t[1] for t in state.queue if t[0] in (TaskKind.RESOLVE, TaskKind.PART) and isinstance(t[1], StackItem)]
    on_stack = {i.source for i in (*state.stack, *waiting, *resolving) if i.kind is ItemKind.SPELL}
    objects = [p.id for p in state.perms if p.present] + [s for s in table.sources if s not in cast or s in on_stack]
    return [o for o in objects if matches(effect.from_, o, state, table, view)]


def _choose_source(state: GameState, table: Table, item: StackItem, effect: EffectSpec, view: View) -> GameState | Decision:
    """The controller's choice of a source (:func:`_source_choices`) as the effect is created."""
    legal = _source_choices(state, table, effect, view, item)
    return _chosen_on_resolution(state, table, item, legal, DecisionKind.SOURCE, "source_choice",
                                 "creates no shield: there is no source to choose (609.7a)", "as the source for")


def _chosen_on_resolution(state: GameState, table: Table, item: StackItem, legal: list[str], kind: DecisionKind,
                          slot: str, nothing: str, words: str) -> GameState | Decision:
    """The controller's choice among ``legal`` as ``item`` resolves (608.2c), kept on the item's
    ``slot``; with nothing to choose, a note that it does nothing."""
    who = item.controller
    if not legal:
        return note(state, f"{item.label} ({item.source}) {nothing}", NOT_DONE)
    return decide(who, kind, f"{item.source} resolves", [
        Option(o, f"{says(who, 'chooses')} {o} {words} {item.label} ({item.source})",
               _resolve_item(state, table, replace(item, **{slot: o})))
        for o in legal])


def _resolve_item(state: GameState, table: Table, item: StackItem) -> GameState:
    res = resolve(state, table, item, said=True)
    assert not isinstance(res, Decision)
    return res
