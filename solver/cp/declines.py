"""What the CP model declines and why: the effect kinds it orders, the ones that change nothing in
a damage batch, and the reasons, each naming the rule the model would need."""

from __future__ import annotations

from typing import Any

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.kinds import ActionKind, TriggerEvent
from mtg_outcomes.model.types import LIFE_GAIN_KINDS

from ..rules import (
    Instance,
)
from ..sba import attachment_kind
from ..sba import multiplayer as sba_multiplayer
from ..select import has_keyword, matches
from ..state import GameState, Table
from .lifept import life_pt_later

_ORDERED = (EffectKind.SHIELD, EffectKind.PREVENT, EffectKind.PROTECTION, EffectKind.MULTIPLY, EffectKind.ADD,
            EffectKind.SUBTRACT, EffectKind.CAP, EffectKind.HALVE, EffectKind.REDIRECT)
# effect kinds that never touch this batch's damage (no targeting, no mana here; the combat damage
# a creature assigns is read before the batch, by solver.combat.assign_options)
_INERT = (EffectKind.CANT_BE_PREVENTED, EffectKind.CANT_BE_REDIRECTED, EffectKind.CANT_GAIN_LIFE, EffectKind.HEXPROOF, EffectKind.SHROUD,
          EffectKind.REPLACE_MANA, EffectKind.MULTIPLY_MANA, EffectKind.ASSIGNS_BY_TOUGHNESS,
          EffectKind.CANT_GET_POISON,  # (read by solver.results.event_results, the model's results too)
          EffectKind.GRANT_TRIGGER)  # (its triggers: solver.cp.riders._watching, as a permanent's own)
# effects the CP model declines, with the reason (the graph engine applies them)
_DECLINED = {
    "exile_instead": "\"exile it instead\" of dying (CR 614.1a) is not modelled",
    "regenerate": "a regeneration shield (CR 701.19a, 614.8: destruction replaced) is not modelled",
}
# effects on characteristics (613): fixed at the step's start (the prefix applied them), read
# there through solver.characteristics / solver.select by the tables, the model and solver.sba
_CHARACTERISTICS = {"pt": "a power/toughness change (CR 613.4c)", "grant": "a keyword granted by an effect (CR 613.1f)",
                    "lose": "a keyword removed by an effect (CR 613.1f)",
                    "becomes_color": "a colour change (CR 105.3, 613.1e)"}


def _characteristics_problem(state: GameState, table: Table, inst: Instance) -> str | None:
    """Why a power/toughness, keyword or colour change (613.1e-f, 613.4c) could change during the
    step, or None: the model reads characteristics once, at the step's start. A life condition
    is read again after the damage, before the step's check: a power/toughness change's by the
    check's thresholds (solver.cp.lifept), others are declined."""
    spec = inst.spec
    if spec.if_life_at_most is not None or spec.if_life_at_least is not None:
        if spec.kind == EffectKind.PT and not spec.value[2]:
            return None  # read at the check: solver.cp.lifept
        return f"{inst.key}: {_CHARACTERISTICS[spec.kind]} with a life condition (read again after the damage) is not modelled"
    return None


def _characteristics_ending(state: GameState, table: Table, inst: Instance) -> str | None:
    """Why a power/toughness, keyword or colour change may end in the step's state-based actions,
    or None: a static ability of a permanent that can leave there (:func:`_mortal`) and reaches
    more than its own permanent or host ends when its source leaves (704.5g, 704.5m, 800.4a), and
    so may one with a condition on what its controller controls. It still applies at that check
    (704.3), which the model reads; who dies at the next is the rules engine's (solver.cp.suffix)."""
    spec = inst.spec
    what = _CHARACTERISTICS[spec.kind]
    if spec.if_you_control is not None:
        return f"{inst.key}: {what} with a condition on what its controller controls (it may end in the check, 704.3)"
    # its own permanent, or the host it leaves with; in a multiplayer game an Equipment or Aura
    # leaves with its owner while another player's host stays (800.4a)
    own = ("self",) if sba_multiplayer(state, table) else ("self", "equipped", "enchanted")
    if (spec.to is None or spec.to.kind not in own) and _mortal(state, table, inst) is not None:
        return f"{inst.key}: {what} by a static ability of a permanent that can die in the step (704.3)"
    return None


def _mortal(state: GameState, table: Table, inst: Instance) -> Any:
    """The permanent whose static ability ``inst`` is, when it can leave the battlefield in a
    step's state-based actions: a creature (704.5f-h), a planeswalker (704.5i), a battle
    (704.5v), an Aura (its host dying, 704.5m), and in a multiplayer game any permanent (its
    owner may lose and leave the game, 800.4a); else None."""
    if inst.state_id is not None or inst.view.self_id is None:
        return None
    perm = state.perm(inst.view.self_id)
    if perm is None:
        return None
    types = table.perm_specs[perm.spec].types
    if {"creature", "planeswalker", "battle"} & set(types) or attachment_kind(table, perm) == "aura" \
            or sba_multiplayer(state, table):
        return perm
    return None


# effects on life totals and losing (CR 119.7-8, 704.5a; Worship's floor, 614.1a): read at the
# step's start through solver.results, as the graph engine reads them while the damage is dealt
_LIFE = (EffectKind.CANT_LOSE_LIFE, EffectKind.LIFE_CANT_CHANGE, EffectKind.NO_LOSS_FOR_0_LIFE, EffectKind.LIFE_FLOOR,
         EffectKind.CANT_LOSE_GAME)
# effects that spare a player a state-based loss (704.5a, 704.5c): read at each check, so one
# whose permanent leaves in a check no longer spares the player at the next (704.3)
_SPARING = (EffectKind.NO_LOSS_FOR_0_LIFE, EffectKind.CANT_LOSE_GAME)


def _life_problem(table: Table, inst: Instance) -> str | None:
    """Why a life effect could change within the step, or None. A life condition changes with the
    damage (a condition on what its controller controls: :func:`_life_effect_ending`). A floor on a
    team's shared life (810.9) is declined."""
    spec = inst.spec
    if spec.if_life_at_most is not None:
        return f"{inst.key}: a {spec.kind} effect with a life condition (read again after the damage) is not modelled"
    if spec.kind == EffectKind.LIFE_FLOOR and table.two_headed:
        return f"{inst.key}: a life floor on a team's shared life (CR 810.9) is not modelled"
    return None


# effects on life gain that a trigger's gain, resolving after the step's state-based check, meets (603.3)
_ON_GAIN = (EffectKind.CANT_GAIN_LIFE, EffectKind.LIFE_CANT_CHANGE, *LIFE_GAIN_KINDS)


def _life_effect_ending(state: GameState, table: Table, insts: Any, events: Any, assigns: Any, riders: Any,
                   late_gain: bool) -> str | None:
    """Why an effect on losing or gaining life the model reads at the step's check may end there,
    or None: one of a permanent that can leave (:func:`_mortal`) when the step can make it: its
    damage, counters or riders reach it, its host or, in a multiplayer game, its owner (800.4a),
    or it is already damaged (an earlier instruction of the same resolution, 608.2c); or one
    with a condition on what its controller controls. The rules engine then does what follows
    (solver.cp.suffix): an effect sparing a player a loss spares them at the check where it
    ends, not at the next (704.3, 704.5a); a trigger's life gain (``late_gain``) resolves after
    the check (603.3, 704.3), when "can't gain life" or a gain replacement that ended there no
    longer applies."""
    if late_gain and (gain_after := life_pt_later(state, table)) is not None:
        return gain_after
    hit = {pe.ev.recipient for pe in events} | {r for pe in events if pe.tree is not None for _, r in pe.tree.columns} \
        | {r for a in assigns for opt in a.options for r, _ in opt} | {r for rd in riders for r in rd.recipients}
    kinds = _SPARING + (_ON_GAIN if late_gain else ())
    several = sba_multiplayer(state, table)
    for inst in insts:
        if inst.spec.kind in kinds and inst.spec.if_you_control is not None:
            return (f"{inst.key}: a {inst.spec.kind} effect with a condition on what its controller controls (it may "
                    "end in the step's state-based actions, CR 704.3)")
        perm = _mortal(state, table, inst) if inst.spec.kind in kinds else None
        reach = {perm.id, perm.attached_to, table.perm_specs[perm.spec].owner if several else None} \
            if perm is not None else set()
        if perm is not None and (reach & hit or perm.damage > 0 or perm.deathtouched):
            when = "the next check applies" if inst.spec.kind in _SPARING else "a trigger's life gain resolves after it"
            return (f"{inst.key}: a {inst.spec.kind} effect of a permanent the step's damage can reach (it may die in "
                    f"the check after the damage, and {when}, CR 704.3)")
    return None


MAX_GAIN_REPLACEMENTS = 6  # a gain event's orders are one literal each (solver.cp.encode): 720 at most


def _gain_problem(inst: Instance, insts: tuple[Instance, ...]) -> str | None:
    """Why a life-gain replacement (119.10) is declined, or None: one with a life condition, or
    more of them than the model lists orders for (616.1: every order is a literal; 7 make 5040)."""
    if inst.spec.if_life_at_most is not None:
        return f"{inst.key}: a life-gain replacement with a life condition is not modelled"
    n = sum(1 for i in insts if i.spec.kind in LIFE_GAIN_KINDS)
    if n > MAX_GAIN_REPLACEMENTS:
        return (f"{inst.key}: {n} life-gain replacements (CR 616.1: {n}! orders of a gain event) are more than "
                f"the model lists ({MAX_GAIN_REPLACEMENTS})")
    return None


# triggers no damage batch and its aftermath (riders, state-based actions) can fire: nothing
# enters, is cast, is tapped for mana, becomes monstrous (only its own monstrosity ability resolving
# does that, 701.37b), and no upkeep or end step begins (503.1a, 513.1: a later upkeep: or
# end_step: action is the rules engine's, after the step, solver.cp.suffix)
_QUIET = (TriggerEvent.END_STEP, TriggerEvent.UPKEEP, TriggerEvent.ENTERS, TriggerEvent.CAST, TriggerEvent.TAPPED_FOR_MANA,
          TriggerEvent.BECOMES_MONSTROUS)
# damage triggers the CP model declines, with the reason (the graph engine runs them; the rules
# engine continues the others after the step, solver.cp.riders._CONTINUED)
_TRIGGERS_DECLINED = {
    "damage_prevented": ("damage_prevented triggers are not modelled (CR 615.13: one per prevention effect, with "
                         "the amount it prevented across the batch)"),
}
# riders the CP model takes (615.5): +1/+1 counters put or removed before state-based actions
# change toughness, 613.4c, which solver.sba.lethal's thresholds say (704.5f-g)
_COUNTER_RIDERS = (ActionKind.PUT_COUNTERS, ActionKind.REMOVE_COUNTERS)
# (a create_tokens rider is done by the rules engine after the step: solver.cp.plan)
_RIDER_KINDS = (ActionKind.DEAL, ActionKind.GAIN_LIFE, ActionKind.LOSE_LIFE, ActionKind.DRAW, ActionKind.CREATE_TOKENS,
                *_COUNTER_RIDERS)
# riders the CP model declines, with the reason
_RIDERS_DECLINED: dict[str, str] = {}
_SOURCE_KEYWORDS_OK = {"lifelink", "infect", "wither", "deathtouch"}


def _players_matching(sel: Any, state: GameState, table: Table, inst_view: Any) -> tuple[str, ...]:
    return tuple(p.name for p in state.players if not p.left and matches(sel, p.name, state, table, inst_view))


def _annihilation(state: GameState, table: Table, insts: Any, more: tuple[str, ...] = (),
                  minus: tuple[str, ...] = ()) -> str | None:
    """704.5q: +1/+1 and -1/-1 counters on one permanent remove each other as a state-based
    action, which the model doesn't encode: the permanent (in words) with +1/+1 counters (or of
    ``more``, which may get some in the step) that could get -1/-1 counters from wither or infect
    or a rider (``minus``) or has some already, else None. The rules engine then continues after the step (solver.cp.
    suffix): the pairs come off in its state-based check, from the counts the step's solutions
    are told apart by; toughness counts both kinds (613.4c), so who dies in the step is the same."""
    for pid in more:
        if (perm := state.perm(pid)) is not None and perm.counter("-1/-1") > 0:
            return f"{pid}'s +1/+1 and -1/-1 counters removing each other (CR 704.5q)"
    plus = [p.id for p in state.perms if p.present and p.counter("+1/+1") > 0] + list(more)
    if not plus:
        return None
    sources = [p.id for p in state.perms if p.present] + list(table.sources)
    wither = any(has_keyword(state, table, s, k) for s in sources for k in ("wither", "infect")) or \
        any(i.spec.kind == EffectKind.AS_THOUGH for i in insts) or bool(minus)
    if wither:
        return f"{plus[0]}'s +1/+1 and -1/-1 counters removing each other (CR 704.5q)"
    return None
