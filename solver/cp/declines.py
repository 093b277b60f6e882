"""What the CP model declines and why: the effect kinds it orders, the ones that change nothing in
a damage batch, and the reasons, each naming the rule the model would need."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.kinds import ActionKind, TriggerEvent
from mtg_outcomes.model.selectors import Selector
from mtg_outcomes.model.types import LIFE_GAIN_KINDS, EffectSpec

from ..next_time import one_instance
from ..rules.amounts import rule_of
from ..rules.effects import PREVENTION_KINDS, Instance
from ..sba import attachment_kind
from ..sba import multiplayer as sba_multiplayer
from ..select import View, has_keyword, matches
from ..state import GameState, PermState, Table
from .lifept import life_pt_later
from .refusal import Refusal
from .step import rider_amount

if TYPE_CHECKING:
    from .step import Assign, PlannedEvent, PlannedRider

ORDERED = (EffectKind.SHIELD, EffectKind.PREVENT, EffectKind.PROTECTION, EffectKind.MULTIPLY, EffectKind.ADD,
            EffectKind.SUBTRACT, EffectKind.CAP, EffectKind.HALVE, EffectKind.REDIRECT)
# effect kinds that never touch this batch's damage (no targeting, no mana here; the combat damage
# a creature assigns is read before the batch, by solver.combat.assign_options)
INERT = (EffectKind.CANT_BE_PREVENTED, EffectKind.CANT_BE_REDIRECTED, EffectKind.CANT_GAIN_LIFE, EffectKind.HEXPROOF, EffectKind.SHROUD,
          EffectKind.REPLACE_MANA, EffectKind.MULTIPLY_MANA, EffectKind.ASSIGNS_BY_TOUGHNESS,
          EffectKind.CANT_GET_POISON,  # (read by solver.results.event_results, the model's results too)
          EffectKind.GRANT_TRIGGER)  # (its triggers: solver.cp.riders._watching, as a permanent's own)
# effects the CP model declines, with the reason (the graph engine applies them)
DECLINED = {
    "exile_instead": "\"exile it instead\" of dying (CR 614.1a) is not modelled",
    "regenerate": "a regeneration shield (CR 701.19a, 614.8: destruction replaced) is not modelled",
}
# effects on characteristics (613): fixed at the step's start (the prefix applied them), read
# there through solver.characteristics / solver.select by the tables, the model and solver.sba
CHARACTERISTICS = {"pt": "a power/toughness change (CR 613.4c)", "grant": "a keyword granted by an effect (CR 613.1f)",
                   "lose": "a keyword removed by an effect (CR 613.1f)",
                    "becomes_color": "a colour change (CR 105.3, 613.1e)"}


def characteristics_problem(state: GameState, table: Table, inst: Instance) -> Refusal | None:
    """Why a power/toughness, keyword or colour change (613.1e-f, 613.4c) could change during the
    step, or None: the model reads characteristics once, at the step's start. A life condition
    is read again after the damage, before the step's check: a power/toughness change's by the
    check's thresholds (solver.cp.lifept), others are declined."""
    spec = inst.spec
    if spec.if_life_at_most is not None or spec.if_life_at_least is not None:
        if spec.kind == EffectKind.PT and not spec.value[2]:
            return None  # read at the check: solver.cp.lifept
        return Refusal(f"{inst.key}: {CHARACTERISTICS[spec.kind]} with a life condition (read again after the damage) is not modelled", "611.3a")
    return None


def characteristics_ending(state: GameState, table: Table, inst: Instance) -> str | None:
    """Why a power/toughness, keyword or colour change may end in the step's state-based actions,
    or None: a static ability of a permanent that can leave there (:func:`_mortal`) and reaches
    more than its own permanent or host ends when its source leaves (704.5g, 704.5m, 800.4a), and
    so may one with a condition on what its controller controls. It still applies at that check
    (704.3), which the model reads; who dies at the next is the rules engine's (solver.cp.suffix)."""
    spec = inst.spec
    what = CHARACTERISTICS[spec.kind]
    if spec.if_you_control is not None:
        return f"{inst.key}: {what} with a condition on what its controller controls (it may end in the check, 704.3)"
    # its own permanent, or the host it leaves with; in a multiplayer game an Equipment or Aura
    # leaves with its owner while another player's host stays (800.4a)
    own = ("self",) if sba_multiplayer(state, table) else ("self", "equipped", "enchanted")
    if (spec.to is None or spec.to.kind not in own) and _mortal(state, table, inst) is not None:
        return f"{inst.key}: {what} by a static ability of a permanent that can die in the step (704.3)"
    return None


def _mortal(state: GameState, table: Table, inst: Instance) -> PermState | None:
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
LIFE = (EffectKind.CANT_LOSE_LIFE, EffectKind.LIFE_CANT_CHANGE, EffectKind.NO_LOSS_FOR_0_LIFE, EffectKind.LIFE_FLOOR,
         EffectKind.CANT_LOSE_GAME)
# effects that spare a player a state-based loss (704.5a, 704.5c): read at each check, so one
# whose permanent leaves in a check no longer spares the player at the next (704.3)
_SPARING = (EffectKind.NO_LOSS_FOR_0_LIFE, EffectKind.CANT_LOSE_GAME)


def life_problem(table: Table, inst: Instance) -> Refusal | None:
    """Why a life effect could change within the step, or None. A life condition changes with the
    damage (a condition on what its controller controls: :func:`life_effect_ending`). A floor on a
    team's shared life (810.9) is declined."""
    spec = inst.spec
    if spec.if_life_at_most is not None:
        return Refusal(f"{inst.key}: a {spec.kind} effect with a life condition (read again after the damage) is not modelled", "611.3a")
    if spec.kind == EffectKind.LIFE_FLOOR and table.two_headed:
        return Refusal(f"{inst.key}: a life floor on a team's shared life (CR 810.9) is not modelled", "810.9")
    return None


# effects on life gain that a trigger's gain, resolving after the step's state-based check, meets (603.3)
_ON_GAIN = (EffectKind.CANT_GAIN_LIFE, EffectKind.LIFE_CANT_CHANGE, *LIFE_GAIN_KINDS)


def life_effect_ending(state: GameState, table: Table, insts: Sequence[Instance], events: list[PlannedEvent],
                       assigns: list[Assign], riders: list[PlannedRider],
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


def gain_problem(inst: Instance, insts: tuple[Instance, ...]) -> Refusal | None:
    """Why a life-gain replacement (119.10) is declined, or None: one with a life condition, or
    more of them than the model lists orders for (616.1: every order is a literal; 7 make 5040)."""
    if inst.spec.if_life_at_most is not None:
        return Refusal(f"{inst.key}: a life-gain replacement with a life condition is not modelled", "611.3a")
    n = sum(1 for i in insts if i.spec.kind in LIFE_GAIN_KINDS)
    if n > MAX_GAIN_REPLACEMENTS:
        return (Refusal(f"{inst.key}: {n} life-gain replacements (CR 616.1: {n}! orders of a gain event) are more than "
                f"the model lists ({MAX_GAIN_REPLACEMENTS})", "616.1"))
    return None


# triggers no damage batch and its aftermath (riders, state-based actions) can fire: nothing
# enters, is cast, is tapped for mana, becomes monstrous (only its own monstrosity ability resolving
# does that, 701.37b), and no upkeep or end step begins (503.1a, 513.1: a later upkeep: or
# end_step: action is the rules engine's, after the step, solver.cp.suffix); no creature is declared
# as an attacker (508.1m: only the declare_attackers: action, the rules engine's, before the step)
QUIET = (TriggerEvent.END_STEP, TriggerEvent.UPKEEP, TriggerEvent.ENTERS, TriggerEvent.CAST, TriggerEvent.TAPPED_FOR_MANA,
         TriggerEvent.BECOMES_MONSTROUS, TriggerEvent.ATTACKS)
# damage triggers the CP model declines, with the reason (the graph engine runs them; the rules
# engine continues the others after the step, solver.cp.riders._CONTINUED)
TRIGGERS_DECLINED = {
    "damage_prevented": ("damage_prevented triggers are not modelled (CR 615.13: one per prevention effect, with "
                         "the amount it prevented across the batch)"),
}
# riders the CP model takes (615.5): +1/+1 counters put or removed before state-based actions
# change toughness, 613.4c, which solver.sba.lethal's thresholds say (704.5f-g)
COUNTER_RIDERS = (ActionKind.PUT_COUNTERS, ActionKind.REMOVE_COUNTERS)
# (a create_tokens rider is done by the rules engine after the step: solver.cp.plan)
RIDER_KINDS = (ActionKind.DEAL, ActionKind.GAIN_LIFE, ActionKind.LOSE_LIFE, ActionKind.DRAW, ActionKind.CREATE_TOKENS,
                *COUNTER_RIDERS)
# riders the CP model declines, with the reason
RIDERS_DECLINED: dict[str, str] = {}
_SOURCE_KEYWORDS_OK = {"lifelink", "infect", "wither", "deathtouch"}


def players_matching(sel: Selector, state: GameState, table: Table, inst_view: View) -> tuple[str, ...]:
    return tuple(p.name for p in state.players if not p.left and matches(sel, p.name, state, table, inst_view))


def annihilation(state: GameState, table: Table, insts: Sequence[Instance], more: tuple[str, ...] = (),
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


# replacements of a creature's dying or destruction, applied by the rules engine after the step
_REPLACING_DESTRUCTION = {"exile_instead": "\"exile it instead\" (CR 614.1a)",
                          "regenerate": "regeneration shield (CR 701.19a, 614.8)"}


def effect_problem(state0: GameState, table: Table, inst: Instance, insts: tuple[Instance, ...],
                   later: list[str]) -> Refusal | None:
    """Why the CP model can't take ``inst``, an effect in force as the step begins, or None. An
    effect the model doesn't order reads its own rule's problem (life, characteristics, life
    gain, counters instead of damage); what the rules engine does after the step because of it
    goes to ``later`` (its checks after the step's first, a replacement of dying)."""
    spec = inst.spec
    if spec.kind == EffectKind.AS_UNBLOCKED:
        return None  # 510.1b: the assignment's options, solver.combat.assign_options (open_batch)
    if spec.kind in INERT:
        return None
    if spec.kind == EffectKind.FEWER_COUNTERS:  # on the batch's -1/-1 counters (solver.results.fewer_counters)
        if spec.if_life_at_most is not None:
            return Refusal(f"{inst.key}: a fewer_counters effect with a life condition is not modelled", "611.3a")
        return None
    if spec.kind in LIFE_GAIN_KINDS:  # lifelink's gain events, ordered by the gaining player (616.1)
        return gain_problem(inst, insts)
    if spec.kind == EffectKind.AS_THOUGH:
        return None  # "as though it had infect" (Phyrexian Unlife): solver.results.event_results reads it
    if spec.kind in LIFE:
        return life_problem(table, inst)
    if spec.kind in CHARACTERISTICS:
        problem = characteristics_problem(state0, table, inst)
        if problem is not None:
            return problem
        ending = characteristics_ending(state0, table, inst)
        if ending is not None:  # the rules engine does the checks after the step's first
            later.append(ending)
        return None
    if spec.kind == EffectKind.DAMAGE_TO_COUNTERS:  # Phytohydra (614.1a): solver.rules.amounts.ToCounters
        if spec.may:
            return Refusal(f"{inst.key}: an optional replacement of damage by counters is not modelled", "616.1")
        if str(spec.value) not in ("+1/+1", "-1/-1"):
            return Refusal(f"{inst.key}: damage replaced by {spec.value} counters is not modelled (only +1/+1 and -1/-1, 613.4c)", "613.4c")
        return None
    if spec.kind in _REPLACING_DESTRUCTION:
        # "exile it instead" (614.1a) and a regeneration shield (701.19a, 614.8) replace what
        # the step's state-based actions do to a creature (704.5g-h), which the damage marked
        # on it decides: the solutions are told apart by each batch's damage per recipient and
        # deathtouch (solver.cp.tally.state_after), and the rules engine, replaying each,
        # applies the replacement (solver.cp.suffix)
        later.append(f"{inst.key}'s {_REPLACING_DESTRUCTION[spec.kind]}")
        return None
    return _ordered_problem(inst)


def _ordered_problem(inst: Instance) -> Refusal | None:
    """Why the model can't take ``inst`` among the effects the affected player orders (616.1),
    or None: a kind it doesn't order, an optional one, a static shield, a prevention by an
    expression, a rider it can't do (615.5)."""
    spec = inst.spec
    if spec.kind not in ORDERED:
        return Refusal(f"{inst.key}: {DECLINED.get(spec.kind, f'{spec.kind} effects are not modelled')}", None)
    if spec.may and (spec.kind not in (EffectKind.PREVENT, EffectKind.MULTIPLY, EffectKind.ADD, EffectKind.SUBTRACT, EffectKind.CAP, EffectKind.HALVE) or spec.then is not None
                     or one_instance(spec)):
        return Refusal(f"{inst.key}: optional effects (\"you may prevent\", a choice of their controller, CR 616.1) are not modelled", "616.1")
    # a source of your choice (615.9) is a filter solver.rules.effects re-checks at every event
    if spec.kind == EffectKind.SHIELD and inst.state_id is None:
        return Refusal(f"{inst.key}: only created shields are modelled", "615.7")
    if spec.kind == EffectKind.REDIRECT and spec.shield is not None and inst.state_id is None:
        return Refusal(f"{inst.key}: only created partial redirections are modelled", "614.9")
    if spec.kind == EffectKind.PREVENT and isinstance(spec.value, tuple) and spec.value[0] != "int":
        return Refusal(f"{inst.key}: prevention by an expression is not modelled", None)
    return _rider_problem(inst) if spec.then is not None else None


def _rider_problem(inst: Instance) -> Refusal | None:
    """Why the model can't do ``inst``'s rider (615.5), or None."""
    spec = inst.spec
    assert spec.then is not None
    if spec.kind not in PREVENTION_KINDS:
        return Refusal(f"{inst.key}: a rider on a {spec.kind} effect is not modelled", "615.5")
    if spec.then.kind not in RIDER_KINDS:
        return Refusal(f"{inst.key}: {RIDERS_DECLINED.get(spec.then.kind, f'a {spec.then.kind} rider is not modelled')}", "615.5")
    if spec.then.kind in COUNTER_RIDERS and spec.then.counter != "+1/+1" and \
            (spec.then.kind, spec.then.counter) != (ActionKind.PUT_COUNTERS, "-1/-1"):
        return (Refusal(f"{inst.key}: a {spec.then.kind} rider of {spec.then.counter} counters is not modelled "
                "(only +1/+1 counters and -1/-1 counters put, which change toughness, 613.4c)", "613.4c"))
    read = rider_amount(spec.then.amount)
    if read is None:
        return (Refusal(f"{inst.key}: the rider's amount is not linear in prevented and that_damage, or reads "
                "another value (X, a life total) the model doesn't hold", None))
    if read[2] and not spec.then.if_prevented and can_prevent_none(spec):
        return (Refusal(f"{inst.key}: a rider that takes place whenever its prevention is applied (CR 615.12) on a "
                "prevention that can prevent none of some damage (half rounded down of 1, all but N) is not "
                "modelled (the model reads that it was applied from what it prevented)", "615.12"))
    return None


def can_prevent_none(spec: EffectSpec) -> bool:
    """A prevention that, applied to some damage that can be prevented, may prevent none of it:
    half rounded down of 1, all but N of N or less, prevent 0 (solver.rules.amounts); a shield that
    takes none of an event must be used up elsewhere (615.7), so it prevents something."""
    rule = rule_of(spec, 1)
    return any(rule is not None and rule.prevents and rule.apply(n) == n for n in range(1, 4))
