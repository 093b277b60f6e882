"""The timeline: the case's actions in order, and the loop that runs everything between decisions.

:func:`advance` runs a state forward through everything that involves no choice and stops at the
next decision (a :class:`Decision` with one option per legal choice) or at the end. Everything is
a pure function of the state, so the choice graph can merge identical states.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtg_outcomes.model.effects import EffectKind, is_all
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.kinds import (
    AbilityKind,
    ActionKind,
    AsEntersChoice,
    DecisionKind,
    TriggerEvent,
)
from mtg_outcomes.model.selectors import Selector, SelectorKind
from mtg_outcomes.model.types import (
    ActivateAction,
    CastAction,
    CombatAction,
    CouldProduceAction,
    CreateAction,
    DamageAction,
    DeclareAttackersAction,
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
    UpkeepAction,
)

from . import combat as combat_mod
from .activation import activate, may, resolve
from .cast import cast
from .characteristics import leave
from .damage import batch_step, excess_split, run_rider
from .decision import NOT_DONE, Decision, Option, decide, note, says
from .declare import declare
from .enters import enters_with
from .hands import cast_from_somewhere
from .limits import check_running
from .mana import could_produce_action, produce_mana, tap_for_mana
from .oneshot import run_one_shot, set_life_event
from .results import gain_event
from .rules.effects import (
    start_batch,
)
from .rules.team import team_names
from .sba import game_over, last_standing, leave_game, multiplayer, state_based_actions
from .select import View, controller_of, matches, opponents
from .state import (
    MONARCH,
    CombatStage,
    Event,
    GameState,
    PermState,
    Table,
    TaskKind,
    Trigger,
    make_effect_state,
    replace,
)
from .targets import target_candidates
from .triggers import (
    _reads_that_player,
    collect_triggers,
    condition_holds,
    declare_attackers,
    place_triggers,
    watchers,
)
from .values import evaluate

__all__ = ["Option", "Decision", "advance", "final_fields", "enters_with", "MAX_STEPS", "LOOP"]

MAX_STEPS = 100_000  # a guard against a loop in one deterministic run

# a loop with choices in it: some choice brings the timeline back to a state it came from (a
# prevention whose rider's damage it prevents again, with another effect to order each time)
LOOP = ("the timeline can loop forever: a choice leads back to a state it was reached from "
        "(a loop of triggers or effects that never ends)")


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
    """One action of the timeline (docs/design.md, "actions")."""
    match action:
        case DamageAction():
            events = [Event(d.source, d.to, evaluate(d.amount, {}), d.combat) for d in action.events]
            if any(d.excess_to is not None for d in action.events):
                events = excess_split(state, table, events, [d.excess_to for d in action.events])
            return start_batch(state, table, events)
        case CombatAction():
            return combat_mod.begin_combat(state, table, action.choose_blocks)
        case OneShotAction():
            return _one_shot_action(state, table, action.action)
        case LifeAction():
            view = View(_view_player(table), action.source)
            shot = OneShot(ActionKind.GAIN_LIFE if action.gain else ActionKind.LOSE_LIFE, action.amount, action.who, action.source)
            return run_one_shot(state, table, shot, view, {})
        case CreateAction():
            ce = action.effect
            eff = make_effect_state(ce.id, ce.spec, ce.controller, ce.source, ce.target, 0, state.next_order,
                                    born=len(state.perms))
            return replace(state, effects=state.effects + (eff,), next_order=state.next_order + 1)
        case EnterAction():
            return _enter(state, table, action)
        case LeaveAction():
            leaving = state.perm(action.id)
            if leaving is None or not leaving.present:
                return state
            return leave(state, table, [leaving])
        case LeaveGameAction():
            return _leave_game(state, table, action.player)
        case DeclareAttackersAction():
            return declare_attackers(state, table)
        case EndStepAction() | UpkeepAction():
            return _step_begins(state, table, action)
        case ActivateAction():
            return activate(state, table, action)
        case MayAction():
            return may(state, table, action)
        case CastAction():
            return cast(state, table, action)
        case CouldProduceAction():
            return could_produce_action(state, table, action.id)
        case TapForManaAction():
            return tap_for_mana(state, table, action)
    raise TypeError(f"unknown action {action!r}")


def _one_shot_action(state: GameState, table: Table, shot: OneShot) -> GameState | Decision:
    """A one-shot action the case writes; "to: any" (or target, choice) is a target its
    controller chooses as the action happens (115.1)."""
    src = shot.source
    ctrl = controller_of(state, table, src) if src else None
    view = View(ctrl or _view_player(table), src)
    if shot.to.kind not in (SelectorKind.TARGET, SelectorKind.ANY, SelectorKind.CHOICE):
        return run_one_shot(state, table, shot, view, {})
    who = view.controller
    options = tuple(
        Option(c, f"{says(who, 'chooses')} {c} as the target", run_one_shot(state, table, shot, replace(view, target=c), {}))
        for c in target_candidates(state, table, Selector(SelectorKind.ANY), who, src or who))
    if not options:
        return note(state, f"{src or 'the action'} deals no damage: there is no legal target (115.1)", NOT_DONE)
    return decide(who, DecisionKind.TARGET, f"{src} deals damage", options)


def _enter(state: GameState, table: Table, action: EnterAction) -> GameState | Decision:
    """A permanent enters: with its counters (614.1c), its "enters" triggers (603.2; their X is
    the spell's, 107.3m), and its "as enters" choice of a player (614.12)."""
    spec = action.permanent
    _cast_unknown(state, table, spec)
    idx = _perm_spec_index(table, spec)
    counters, loyalty = enters_with(spec, action.x)
    perm = PermState(id=spec.id, spec=idx, controller=spec.controller, damage=spec.damage,
                     counters=counters, loyalty=loyalty, defense=spec.defense,
                     chosen=spec.chosen, tapped=spec.tapped, choosing_block=spec.choose_block,
                     attached_to=spec.attached_to)
    state = cast_from_somewhere(replace(state, perms=state.perms + (perm,)), spec.owner)  # (solver.hands)
    state = collect_triggers(state, table, TriggerEvent.ENTERS, [(spec.id, {"X": action.x})])
    as_enters = next((a for a in spec.abilities if a.kind == AbilityKind.AS_ENTERS), None)
    if spec.chosen is not None or as_enters is None:
        return state
    choice, text = as_enters.choice, as_enters.text.lower()
    secret = "secretly" in text if text else choice == AsEntersChoice.OPPONENT  # (a card's line says)
    verb = "secretly chooses" if secret else "chooses"
    # 614.12: "choose an opponent" or "choose a player" (any player, its controller too)
    eligible = opponents(table, state, spec.controller) if choice == AsEntersChoice.OPPONENT else \
        [p.name for p in state.players]
    if not eligible:
        return state
    if len(eligible) == 1:
        return state.set_perm(replace(perm, chosen=eligible[0]))
    return Decision(spec.controller, DecisionKind.CHOOSE, f"{spec.id} enters", rule="614.12", options=tuple(
        Option(o, f"{says(spec.controller, verb)} {o} for {spec.name}", state.set_perm(replace(perm, chosen=o)))
        for o in eligible))


def _leave_game(state: GameState, table: Table, player: str) -> GameState:
    """A player leaves the game: in a two-player game (or a Two-Headed Giant team, 810.8b) they
    lose it (104.3a); the last player left in a multiplayer game wins it (104.2a)."""
    if not multiplayer(state, table):
        names = team_names(state, table, player)
        for name in names:
            state = state.set_player(replace(state.player(name), lost=True))
        return game_over(leave_game(state, table, player), names)
    state = leave_game(state, table, player)
    return game_over(state, [player]) if last_standing(state) else state


def _step_begins(state: GameState, table: Table, action: EndStepAction | UpkeepAction) -> GameState:
    """"At the beginning of [your] end step / upkeep" (513.1a, 503.1a): triggers as the step
    begins; the monarch's end-step draw (724.2)."""
    state = replace(state, step="end step" if isinstance(action, EndStepAction) else "upkeep")
    new = []
    for oid, ctrl, j, ab in watchers(state, table, action.kind):
        if ab.turn == "yours" and ctrl != table.active:
            continue
        if ab.turn == "opponents" and table.active not in opponents(table, state, ctrl):
            continue  # "at the beginning of each opponent's end step"
        if not condition_holds(ab.trigger_if, state, table, View(ctrl, oid)):
            continue  # 603.4: the intervening "if" is false as the end step begins
        # "that player" in its instructions is the player whose step it is, the active player (503.1a, 513.1a)
        new.append(Trigger(ctrl, oid, j, (), label=table.perm_specs[state.perm(oid).spec].name,  # type: ignore[union-attr]
                           player=table.active if _reads_that_player(ab) else None))
    crown = next((p.name for p in state.players if p.monarch and not p.left), None)
    if isinstance(action, EndStepAction) and crown == table.active:
        # 724.2: "At the beginning of the monarch's end step, that player draws a card"
        new.append(Trigger(crown, MONARCH, 0, (), label="the monarch"))
    return replace(state, pending=state.pending + tuple(new))


def _cast_unknown(state: GameState, table: Table, spec: PermanentSpec) -> None:
    """``enter:`` doesn't say whether the permanent was cast (601.2i), so a "whenever you cast"
    trigger that a spell of its types would meet is an error, not a guess."""
    if "land" in spec.types:
        return  # a land is played, never cast (305.1)
    for p in state.perms:
        if not p.present:
            continue
        view = View(p.controller, p.id)
        for ab in table.perm_specs[p.spec].abilities:
            if ab.kind != AbilityKind.TRIGGER or ab.trigger != TriggerEvent.CAST:
                continue
            watched = matches(ab.trigger_to, spec.controller, state, table, view, default=False) if ab.trigger_to \
                else p.controller == spec.controller
            if watched and ab.trigger_spell != "instant_or_sorcery" and (
                    ab.trigger_spell != "noncreature" or "creature" not in spec.types) and (
                    ab.trigger_spell in ("any", "noncreature") or ab.trigger_spell in spec.colors):
                raise EngineError(f"enter {spec.id}: whether it was cast as a spell isn't modelled, and {p.id}'s "
                                  f"\"whenever you cast\" trigger depends on it (CR 601.2i); cast instants and sorceries with cast:")








































# the tasks that are part of what is happening (no state-based actions or triggers before them)
_PART_TASKS = frozenset({TaskKind.RIDER, TaskKind.COMBAT, TaskKind.MANA, TaskKind.GAIN, TaskKind.SET_LIFE, TaskKind.PART})


def _run_part_task(state: GameState, table: Table, task: tuple[Any, ...]) -> GameState | Decision:
    """A task that is part of what is happening: no state-based actions and no triggers put on
    the stack before it (704.3, 603.3)."""
    match task:
        case (TaskKind.PART, item):
            # the next instruction of a resolving spell or ability (608.2c)
            return resolve(state, table, item)
        case (TaskKind.RIDER, effect_key, prevented, that_damage, *each):
            # a prevention effect's rider, right after the prevention (615.5); ``each``: what it
            # prevented of each source, for a per-source rider (solver.persource)
            return run_rider(state, table, effect_key, prevented, that_damage, *each)
        case (TaskKind.GAIN, *_):
            # a life-gain event being replaced (616.1) is part of what caused it (lifelink's gain
            # is part of the damage, 120.4c)
            return gain_event(state, table, task)
        case (TaskKind.SET_LIFE, *_):
            return set_life_event(state, table, task)  # part of the resolving action (119.5)
        case (TaskKind.MANA, *_):
            # a mana ability doesn't use the stack: it resolves at once, before state-based
            # actions and before its triggers are put on the stack (605.3a)
            return produce_mana(state, table, task)
        case (TaskKind.COMBAT, CombatStage.BLOCKS, *_):
            return declare(state, table, task)
        case (TaskKind.COMBAT, *_):
            return combat_mod.run_task(state, table, task)
    raise TypeError(f"unknown task {task!r}")


def _run_timeline_task(state: GameState, table: Table, task: tuple[Any, ...]) -> GameState | Decision:
    """The timeline's next task, once state-based actions are checked and the stack is empty."""
    match task:
        case (TaskKind.ACT, action):
            return _run_action(state, table, action)
        case (TaskKind.STEP, step):
            return combat_mod.start_step(state, table, step)
        case (TaskKind.RESOLVE, item):
            return resolve(state, table, item)
    raise TypeError(f"unknown task {task!r}")


def advance(state: GameState, table: Table, stop: Callable[[GameState], bool] | None = None) -> GameState | Decision:
    """Run forward to the next decision or to the end (``state.dead`` marks an illegal branch).

    With ``stop``, also return the state at the first point between two tasks of the timeline
    (state-based actions checked, triggers and the stack resolved, 704.3, 117.5), or inside a
    damage batch before each of its steps, where ``stop(state)`` holds: the CP engine starts its
    damage step there (solver.cp.prefix)."""
    for n in range(MAX_STEPS):
        if n & 1023 == 1023:  # a long chain with no choice in it: the running step's deadline holds
            check_running("running a chain of triggers or effects with no choice in it")
        if state.dead:
            return state
        if state.batch is not None:
            if stop is not None and stop(state):
                return state
            res = batch_step(state, table)
        elif state.queue and state.queue[0][0] in _PART_TASKS:
            if stop is not None and state.queue[0][:2] == (TaskKind.COMBAT, CombatStage.BLOCKS) and stop(state):
                return state  # blocks to declare (509.1): the CP model may declare them itself (solver.cp.blocks)
            task, queue = state.queue[0], state.queue[1:]
            res = _run_part_task(replace(state, queue=queue), table, task)
        else:
            state = state_based_actions(state, table)
            if state.pending:
                res = place_triggers(state, table)
            elif state.stack:
                item = state.stack[-1]
                res = resolve(replace(state, stack=state.stack[:-1]), table, item)
            elif state.queue:
                if stop is not None and stop(state):
                    return state
                task, queue = state.queue[0], state.queue[1:]
                res = _run_timeline_task(replace(state, queue=queue), table, task)
            else:
                return state
        if isinstance(res, Decision):
            return replace(res, log=state.log)  # the forced steps of the path up to this decision
        state = res
    # a loop with no choice in it (a trigger that keeps triggering itself): said, not a traceback;
    # the bound is this tool's limit, not a proof the loop never ends (one may end at 20,000 life)
    raise EngineError(f"the timeline did not settle after {MAX_STEPS} steps with no choice in them: a step "
                      "limit of this tool, reached by a loop of triggers or effects that may or may not end")


# ---------------------------------------------------------------------------------------------
# the outcome record


def final_fields(state: GameState, table: Table) -> dict[str, Any]:
    """Every field of every player, team, permanent and effect, flat (docs/design.md)."""
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
        out[f"{p.name}.energy"] = p.energy  # energy counters (107.14)
        out[f"{p.name}.monarch"] = p.monarch  # the monarch designation (724.1)
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
        if any(ab.kind == AbilityKind.MANA for ab in spec.abilities):
            # tapping is tracked for mana abilities only (605); an attacker's tap (508.1f) is not
            out[f"{perm.id}.tapped"] = perm.tapped
        counters = dict(perm.counters)
        if "creature" in spec.types:  # a creature's +1/+1 and -1/-1 counters are read as 0 when it has none
            counters.setdefault("-1/-1", 0)
            counters.setdefault("+1/+1", 0)
        for kind, n in sorted(counters.items()):
            out[f"{perm.id}.counters.{kind}"] = n
        if "planeswalker" in spec.types:
            out[f"{perm.id}.loyalty"] = perm.loyalty
        if "battle" in spec.types:
            out[f"{perm.id}.defense"] = perm.defense
    for e in state.effects:
        if e.remaining is not None:
            out[f"{e.id}.remaining"] = max(0, e.remaining)
        elif e.spec.kind == EffectKind.SHIELD and is_all(e.spec.value):
            out[f"{e.id}.remaining"] = 0 if e.used else 1
    for pid, types in state.mana:
        out[f"{pid}.could_produce"] = tuple(types)
    return dict(sorted(out.items()))
