"""What the CP model of one step is built from (solver.cp.plan makes it): the batch's events with
the effects that apply to each (CR 616.1), combat damage assignment choices (510.1), riders
(615.5) and triggers (603.2), and the amount rules read through solver.rules.amounts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtg_outcomes.model.effects import CountOf, EffectKind
from mtg_outcomes.model.expr import Expr, expr_vars
from mtg_outcomes.model.kinds import ActionKind
from mtg_outcomes.model.types import EffectSpec

from ..rules.amounts import Add, AmountRule, Multiply, PreventN, rule_of
from ..rules.effects import (
    Instance,
)
from ..rules.lethal import LethalIf
from ..state import Event, GameState, Table
from .trees import Tree

if TYPE_CHECKING:
    from .blocks import BlockPlan
    from .hulls import Hull


@dataclass
class PlannedEvent:
    """One event of the batch with the effects that apply to it (CR 616.1)."""

    index: int  # in the batch
    ev: Event
    chooser: str
    effects: list[Instance]  # modelled: their order and shares are choices
    noops: list[Instance]  # applicable but change nothing (prevention vs 615.12)
    assigned: bool = False  # combat damage whose amount is a division choice (510.1c-d); ev.amount is its maximum
    # a redirection applies (614.9): its choices walked by the graph engine's rules (solver.cp.trees)
    tree: Tree | None = None


@dataclass(frozen=True)
class Assign:
    """One combatant's combat damage assignment choice (CR 510.1): its options, each a tuple of
    ``(recipient, amount)`` as the graph engine lists them (:func:`solver.combat.assign_options`)."""

    creature: str
    controller: str
    options: tuple[tuple[tuple[str, int], ...], ...]

    def label(self, k: int) -> str:
        return ",".join(f"{r}:{n}" for r, n in self.options[k]) or "none"


@dataclass(frozen=True)
class PlannedRider:
    """A prevention effect's ``then:`` (CR 615.5), done with the amount it prevented."""

    key: str
    kind: ActionKind  # deal | gain_life | lose_life | draw | put_counters | remove_counters
    amount: tuple[int, int]  # coef * prevented + const (when it takes place) + that * that_damage
    source: str
    recipients: tuple[str, ...]
    # a deal rider's damage is a new event (615.5): the one effect that modifies it, if any, per
    # recipient (its affected player has no choice to make with one effect, 616.1)
    modified: tuple[tuple[str, AmountRule], ...] = ()
    # a gain_life rider for its controller ("you gain that much life"): part of the same modified
    # event, a life floor counts it (solver.damage._rider_gains, CR 120.4 example)
    own_gain: bool = False
    # "that damage" (Protean Hydra's "remove that many"): what it applied to, prevented or not
    that: int = 0
    # it takes place once applied even when it prevented nothing (615.12), unless "if damage is
    # prevented this way" (solver.damage._rider_happens)
    always: bool = False
    # the events of damage that can't be prevented it is applied to (615.12): (position in
    # plan.events, what it would have prevented there, solver.rules.effects.would_prevent)
    noops: tuple[tuple[int, int], ...] = ()
    counter: str = "+1/+1"  # the counters a put_counters or remove_counters rider puts or removes


@dataclass(frozen=True)
class PlannedTrigger:
    """A "deals combat damage to a player" trigger that draws cards (CR 603.2, 510.2), or a
    "whenever damage is prevented" trigger that draws cards or gains life (615.13)."""

    watcher: str
    controller: str
    ability: int
    source: str  # the damage's source (a prevention trigger: the prevention effect's key)
    player: str  # the player dealt the damage (a prevention trigger: the recipient)
    amount: tuple[int, int]  # coef * damage_dealt (prevented) + const
    who: tuple[str, ...]
    label: str
    kind: ActionKind = ActionKind.DRAW  # draw | gain_life
    prevention: str | None = None  # the prevention effect whose amount prevented it reads (615.13)


Trample = tuple[str, str, str, tuple[LethalIf, ...], tuple[str, ...]]  # one of StepPlan.trample's conditions


@dataclass
class StepPlan:
    table: Table
    state: GameState  # with the batch open
    base: dict[str, Any]  # every field before the batch
    events: list[PlannedEvent]  # in the graph engine's processing order (APNAP, then batch order)
    shields: dict[str, int]  # key -> remaining before the batch
    riders: list[PlannedRider]
    triggers: list[PlannedTrigger]
    multiplayer: bool
    cant_gain: frozenset[str]
    names: dict[str, str] = field(default_factory=dict)  # effect key -> display name
    assigns: list[Assign] = field(default_factory=list)  # in the order the graph asks (510.1)
    # trample (702.19b): (trampler, defending player, blocker, when lethal damage is assigned to
    # it, and the trampler's blockers when it may assign as though unblocked: the condition then
    # holds only if it assigns some damage to them, 510.1b-c)
    trample: list[Trample] = field(default_factory=list)
    # one-instance shields ("prevent that damage" the next time, CR 615.8), modelled as prevent-all
    # on the one event they can apply to; their prevention is tracked (used up once it prevents)
    once: frozenset[str] = frozenset()
    # combat: the state with the damage assignment to choose (510.1), before the batch opens
    assigning: GameState | None = None
    # players who lose no life (119.8), who don't lose for 0 life (704.5a), and life floors
    cant_lose: frozenset[str] = frozenset()
    no_loss: frozenset[str] = frozenset()
    floors: dict[str, int] = field(default_factory=dict)
    fewer: dict[str, int] = field(default_factory=dict)  # permanent -> fewer -1/-1 counters per event (614.1a)
    # damage put as counters instead (Phytohydra's +1/+1, Soul-Scar Mage's -1/-1; 614.1a): effect
    # key -> the one permanent it applies to and the kind of counter
    to_counters: dict[str, tuple[str, str]] = field(default_factory=dict)
    # preventions whose amount prevented a damage_prevented trigger reads (615.13): tracked
    watched: frozenset[str] = frozenset()
    # what follows the step that the rules engine continues from each of its results (a later
    # action or instruction, triggers the step fires, a rider's batch of choices), first first;
    # empty: the model's results are the outcomes (solver.cp.suffix)
    later: tuple[str, ...] = ()
    # riders the rules engine does after the step's choices (their damage meets choices, 615.5)
    deferred: frozenset[str] = frozenset()
    # each alike event's shield hulls, found once (solver.cp.hulls.event_hull)
    hulls: dict[tuple[int, tuple[str, ...], int], Hull | None] = field(default_factory=dict)
    # each effect's amount rule, made once (solver.cp.step.effect_rule): effect key -> (its spec, rule)
    rules: dict[str, tuple[EffectSpec, AmountRule]] = field(default_factory=dict)
    unbeaten: frozenset[str] = frozenset()  # players who can't lose the game (Platinum Angel; 704.5a, 704.5c)
    # the declaration of blockers when the model makes it (509.1, solver.cp.blocks.BlockPlan)
    blocks: BlockPlan | None = None

    @property
    def suffix(self) -> bool:
        """Whether the rules engine continues after the step (solver.cp.suffix)."""
        return bool(self.later)


def tracked(plan: StepPlan, inst: Instance) -> bool:
    """An effect whose amount the model keeps: what a prevention prevented, a rider's (615.5), a
    one-instance shield's or one a damage_prevented trigger reads (615.13); with the rules engine
    continuing after the step, a next-time prevention's too (615.8: whether it was used up is part
    of the state after the step); what damage put as counters instead replaced (614.1a,
    solver.rules.amounts.ToCounters)."""
    if inst.spec.kind == EffectKind.DAMAGE_TO_COUNTERS:
        return True
    if inst.spec.kind in (EffectKind.PREVENT, EffectKind.PROTECTION) and inst.key in plan.watched:
        return True
    return inst.spec.kind == EffectKind.PREVENT and (inst.spec.then is not None or inst.key in plan.once
                                            or (plan.suffix and bool(inst.spec.next_time)))


def linear_in(node: Expr, var: str, others: tuple[str, ...] = ()) -> tuple[int, int] | None:
    """``node`` as ``coef * var + const`` (each of ``others`` read as 0: it has its own reading),
    or None when it isn't of that shape or reads any other variable (X, a player's life: only
    the rules engine has their values, 608.2h)."""
    tag = node[0]
    if tag == "int":
        return 0, int(node[1])
    if tag == "var":
        if node[1] == var:
            return 1, 0
        # ``others`` are read separately (a rider's prevented and that_damage); any other
        # variable (X, a player's life) only the rules engine has a value for
        return (0, 0) if node[1] in others else None
    if tag == "add":
        a, b = linear_in(node[1], var, others), linear_in(node[2], var, others)
        return None if a is None or b is None else (a[0] + b[0], a[1] + b[1])
    if tag == "mul":
        a, b = linear_in(node[1], var, others), linear_in(node[2], var, others)
        if a is None or b is None or (a[0] and b[0]):
            return None
        return a[0] * b[1] + b[0] * a[1], a[1] * b[1]
    return None


def rider_amount(node: Expr) -> tuple[int, int, int] | None:
    """A rider's amount as ``(a, b, c)``: ``a * prevented + b * that_damage + c`` (solver.damage.run_rider's
    variables), or None when it isn't linear in them."""
    p, t = linear_in(node, "prevented", ("that_damage",)), linear_in(node, "that_damage", ("prevented",))
    if p is None or t is None or not _additive(node):
        return None
    return p[0], t[0], p[1]


def _additive(node: Expr) -> bool:
    """No product of two variable terms (so the two linear readings combine)."""
    tag = node[0]
    if tag == "add":
        return _additive(node[1]) and _additive(node[2])
    if tag == "mul":
        return not (expr_vars(node[1]) and expr_vars(node[2])) and _additive(node[1]) and _additive(node[2])
    return True


def counted_at_start(inst: Instance) -> bool:
    """A prevention whose X is counted when its batch begins (615.10): not modelled for riders."""
    return isinstance(inst.spec.value, CountOf)


def upper_bound(amount: int, effects: list[Instance]) -> int:
    """The most damage an event can become in any order of its effects: every increase applies,
    the additions first (prevention, caps and shields only lower it; solver.rules.amounts)."""
    rules = [r for r in (rule_of(i.spec) for i in effects) if isinstance(r, Add | Multiply)]
    for r in sorted(rules, key=lambda r: isinstance(r, Multiply)):
        amount = r.upper(amount)
    return amount


def effect_rule(plan: StepPlan, inst: Instance) -> AmountRule:
    """``inst``'s amount rule (solver.rules.amounts), its count read when the batch began (615.10)."""
    made = plan.rules.get(inst.key)
    if made is not None and made[0] is inst.spec:
        return made[1]
    counts = dict(plan.state.batch.counts) if plan.state.batch is not None else {}
    rule = rule_of(inst.spec, counts.get(inst.key))
    assert rule is not None, inst.spec.kind
    plan.rules[inst.key] = (inst.spec, rule)
    return rule


def apply_rule(plan: StepPlan, inst: Instance, amount: int) -> int:
    return effect_rule(plan, inst).apply(amount)


def _applies_to(plan: StepPlan, key: str) -> frozenset[int]:
    """The events (positions in ``plan.events``) the effect ``key`` applies to (616.1)."""
    return frozenset(e for e, pe in enumerate(plan.events) if any(i.key == key for i in pe.effects))


def shortfall(plan: StepPlan, key: str) -> int | None:
    """The most the shield ``key`` (and the shields that apply to exactly its events, together)
    can fall short of being used up in a legal result of the batch (615.7), proved from the
    amounts alone, or None where they prove nothing; the model says so outright (the "used up,
    or it took all it was offered" disjunction is what CP-SAT's relaxation can't bound:
    maximising the damage, it lets every shield prevent nothing).

    If the shield fell short, it took all it was offered at each event it applies to, so each
    ends at 0 damage; there, besides preventions, only multipliers and additions apply, which
    only raise the amount (614.1a, 120.8), so the preventions together removed at least each
    event's starting amount. They can remove at most the shield's points less what it kept,
    every other shield's points there and each fixed "prevent N", so what it kept is at most
    what they can remove beyond the starting amounts (0: it is surely used up). The same holds
    of the points all shields with exactly its events keep between them: one falling short
    already ends every one of those events at 0. Events with a redirection or a division choice
    don't count; an event with any other effect, or a prevention without a fixed size, gives no
    bound."""
    start, shields, fixed = 0, {key}, 0
    for pe in (plan.events[e] for e in sorted(_applies_to(plan, key))):
        if pe.tree is not None:
            return None
        for inst in pe.effects:
            if inst.key == key or (inst.key in plan.shields and inst.key not in plan.once):
                shields.add(inst.key)
                continue
            rule = rule_of(inst.spec)
            if isinstance(rule, PreventN) and not counted_at_start(inst):
                fixed += rule.n
            elif not ((isinstance(rule, Multiply) and rule.n >= 1) or (isinstance(rule, Add) and rule.n >= 0)):
                return None
        if not pe.assigned:
            start += pe.ev.amount
    return max(0, sum(plan.shields[k] for k in shields) + fixed - start)


def shield_groups(plan: StepPlan, keys: list[str]) -> list[tuple[list[str], frozenset[int], int]]:
    """``keys`` grouped by the events they apply to (positions in ``plan.events``), each group
    with those events and the most its shields can fall short of being used up between them
    (:func:`shortfall`), for the groups whose amounts bound it below their points."""
    groups: dict[frozenset[int], list[str]] = {}
    for key in keys:
        groups.setdefault(_applies_to(plan, key), []).append(key)
    out = []
    for events, members in groups.items():
        short = shortfall(plan, members[0])
        if short is not None and short < sum(plan.shields[k] for k in members):
            out.append((members, events, short))
    return out
