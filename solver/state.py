"""The game state the solver moves through: small frozen records, hashable so the choice graph can
merge identical states (docs/design.md: "Identical states are merged (it is a DAG)").

The state holds only what changes; the unchanging parts (card characteristics, abilities) are
looked up in the :class:`Table` built once per case.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from mtg_outcomes.model.effects import EffectKind, is_all
from mtg_outcomes.model.expr import parse_expr
from mtg_outcomes.model.kinds import AbilityKind, ActionKind, TriggerEvent
from mtg_outcomes.model.selectors import parse_selector
from mtg_outcomes.model.types import Ability, Case, EffectSpec, OneShot, PermanentSpec, SourceSpec

from .log import EMPTY_LOG, Log
from .values import eval_static

__all__ = ["MONARCH", "monarch_abilities", "PlayerState", "PermState", "EffectState", "Event", "Batch", "Trigger", "ItemKind", "StackItem",
           "TaskKind", "CombatStage", "GameState", "Table", "initial_state", "replace"]


T = TypeVar("T")


def replace(obj: T, **changes: Any) -> T:
    """A faster ``dataclasses.replace`` for these plain frozen records (the solver's hot path)."""
    new = object.__new__(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    d.pop("_hash", None)
    d.update(changes)
    return new


# not part of what a state *is*: the cached hash, and the log of forced steps (solver.decision)
_UNHASHED = frozenset({"_hash", "log", "before"})


class _CachedHash:
    """States are hashed many times by the choice graph; compute each hash once."""

    def __hash__(self) -> int:
        h = self.__dict__.get("_hash")
        if h is None:
            # __dict__ holds the fields in declaration order (replace() keeps that order)
            h = hash(tuple(v for k, v in self.__dict__.items() if k not in _UNHASHED))
            object.__setattr__(self, "_hash", h)
        return h


@dataclass(frozen=True)
class PlayerState(_CachedHash):
    name: str
    life: int
    team: str | None = None
    poison: int = 0
    life_lost: int = 0  # this turn, counting the case's life_lost_this_turn
    life_gained: int = 0
    life_lost_start: int = 0
    cards_drawn: int = 0
    damage_taken: int = 0
    lost: bool = False
    left: bool = False
    mana: tuple[str, ...] = ()  # mana produced by mana abilities (106.4), in W U B R G C order
    energy: int = 0  # energy counters (107.14: {E}; a player's counters, 122.1)
    monarch: bool = False  # the monarch designation (724.1)
    hand: int | None = None  # cards in hand, when the case says it (402.1; None: not known, model.load.hands)


@dataclass(frozen=True)
class PermState(_CachedHash):
    """A permanent (or a permanent that left: ``present`` False keeps last known information)."""

    id: str
    spec: int  # index into Table.perm_specs
    controller: str
    damage: int = 0
    counters: tuple[tuple[str, int], ...] = ()
    loyalty: int = 0
    defense: int = 0
    present: bool = True
    died: bool = False
    deathtouched: bool = False
    attacking: str | None = None
    blocking: tuple[str, ...] = ()
    chosen: str | None = None
    activated_once: tuple[int, ...] = ()
    tapped: bool = False
    monstrous: bool = False  # 701.37b
    # had first strike or double strike as the first-strike combat damage step began (702.7c, 702.4c)
    had_first_strike: bool = False
    blocked: bool = False
    choosing_block: bool = False  # ``blocking: choose``: its block is chosen at the next combat (509.1a)
    # the object or player an Aura, Equipment or Fortification is attached to (301.5, 303.4);
    # None once an Equipment has become unattached (704.5n)
    attached_to: str | None = None
    dealt_by: tuple[str, ...] = ()  # the objects that dealt it damage this turn (120.1), in order
    # once it has left the battlefield: its power/toughness change and granted keywords as it
    # last existed there (113.7a, 608.2h: an Equipment's bonus, a lord's that died with it)
    last: tuple[int, int, frozenset[str], frozenset[str]] | None = None

    def counter(self, kind: str) -> int:
        for k, v in self.counters:
            if k == kind:
                return v
        return 0


@dataclass(frozen=True)
class EffectState(_CachedHash):
    """A resolved effect in force (a shield, a protection, a created prevention...)."""

    id: str
    spec: EffectSpec
    controller: str
    source: str | None
    target: str | None = None
    x: int = 0
    remaining: int | None = None  # shields: what is left (None = not a depleting shield)
    used: bool = False  # next-time shields (615.8) once they have prevented an instance
    chosen_source: str | None = None
    order: int = 0  # timestamp
    chosen: str | None = None  # the source's chosen player, fixed when the effect was created (608.2h)
    # the objects there were as it was created (len(GameState.perms)): an object that entered
    # since with the id of one it names is a new object it doesn't refer to (400.7)
    born: int | None = None


@dataclass(frozen=True)
class Event(_CachedHash):
    """One damage event of a batch: one source, one recipient (CR 700.1, 120)."""

    source: str
    recipient: str
    amount: int
    combat: bool
    applied: frozenset[str] = frozenset()  # effect keys already applied (614.5)
    done: bool = False
    unpreventable: bool = False
    unredirectable: bool = False  # no redirection applies to it (614.9: Lava Burst)
    origin: int = 0  # index of the event this one split from (for witness text)
    as_counters: str = ""  # replaced by that many counters of this kind (Phytohydra, 614.1a)
    # its amount as the batch began, before replacement and prevention effects (for witness text
    # only: not part of equality or the hash, so it never keeps two states apart)
    before: int = field(default=-1, compare=False)


@dataclass(frozen=True)
class Batch(_CachedHash):
    """A simultaneous batch of damage events being modified (CR 616 per event)."""

    events: tuple[Event, ...]
    skipped: frozenset[str] = frozenset()  # shields that prevented less than they could somewhere
    prevented: tuple[tuple[str, int], ...] = ()  # effect key -> damage it prevented in this batch
    prevented_from: tuple[tuple[str, str, int], ...] = ()  # (effect key, source, damage prevented) (solver.persource)
    tried: tuple[tuple[str, int], ...] = ()  # effect key -> damage it applied to would have prevented (615.12)
    counts: tuple[tuple[str, int], ...] = ()  # dynamic X read before any damage is dealt (615.10)
    redirected_from: tuple[tuple[str, int], ...] = ()
    # one-instance effects (615.8): effect key -> the source whose damage is their instance in
    # this batch, and the (key, source) events the affected player let them pass (solver.next_time)
    instances: tuple[tuple[str, str], ...] = ()
    passed: frozenset[tuple[str, str]] = frozenset()
    # an optional effect ("you may prevent") the affected player picked whose controller decides
    # now: (event index, effect key, the shield's take or -1)
    asking: tuple[int, str, int] | None = None


@dataclass(frozen=True)
class Trigger(_CachedHash):
    controller: str
    source: str
    ability: int  # index in the source's abilities
    values: tuple[tuple[str, int], ...] = ()
    target: str | None = None
    label: str = ""
    player: str | None = None  # "that player": the player the trigger event names (a tapped_for_mana trigger's)
    countering: StackItem | None = None  # a ward trigger's spell or ability to counter (702.21a)


class ItemKind(StrEnum):
    """What is on the stack (CR 405.1): a spell, or a triggered or activated ability."""

    SPELL = "spell"
    TRIGGER = "trigger"
    ACTIVATED = "activated"


@dataclass(frozen=True)
class StackItem(_CachedHash):
    """A spell, a triggered ability or an activated ability waiting to resolve."""

    kind: ItemKind
    controller: str
    source: str
    ability: int
    values: tuple[tuple[str, int], ...] = ()
    target: str | None = None
    source_choice: str | None = None
    label: str = ""
    player: str | None = None  # "that player" (from the trigger)
    chosen: str | None = None  # the permanent chosen as it resolves (an ability's ``choose:``)
    part: int = 0  # which of the ability's actions (0: action, k: more[k - 1]; 608.2c)
    continuing: bool = False  # a later instruction of a resolution already begun (targets checked, 608.2b)
    targets: tuple[str, ...] = ()  # a spell's several targets (601.2c), when it has a targets: range
    division: tuple[tuple[str, int], ...] = ()  # its divided damage as announced (601.2d)
    modes: tuple[int, ...] = ()  # a modal spell's modes chosen as it was cast (700.2a)
    # a modal spell's target for each chosen mode with one, (mode, target) in printed order (601.2c)
    mode_targets: tuple[tuple[int, str], ...] = ()
    kicked: bool | None = None  # whether the spell was kicked (702.33a); None: it has no kicker
    countering: StackItem | None = None  # a ward trigger's spell or ability to counter (702.21a)
    # a spell with a second target (601.2c): both chosen as it is cast, each None once illegal (608.2b)
    two_targets: bool = False
    second: str | None = None


class TaskKind(StrEnum):
    """What the engine still has to do: the first word of a task in :attr:`GameState.queue`.

    ``ACT`` a later action of the case's timeline; ``STEP`` a combat damage step to begin (510;
    510.4: first strike's step, then the regular one) or to close; ``RESOLVE`` a spell or ability
    cast or activated in the timeline resolving (608.2); ``PART`` a later instruction of a
    resolution (608.2c); ``RIDER`` a prevention's rider (615.5); ``COMBAT`` a combat choice (see
    :class:`CombatStage`); ``MANA`` mana being produced by a mana ability (605.3a); ``GAIN`` a life
    gain event (119) being replaced (616.1); ``SET_LIFE`` a life total becoming a number (119.5).
    """

    ACT = "act"
    STEP = "step"
    RESOLVE = "resolve"
    PART = "part"
    RIDER = "rider"
    COMBAT = "combat"
    MANA = "mana"
    GAIN = "gain"
    SET_LIFE = "set_life"


class CombatStage(StrEnum):
    """A :attr:`TaskKind.COMBAT` task's second word: declaring blockers (509.1) or assigning
    combat damage (510.1)."""

    BLOCKS = "blocks"
    ASSIGN = "assign"


@dataclass(frozen=True)
class GameState(_CachedHash):
    players: tuple[PlayerState, ...]
    perms: tuple[PermState, ...]
    effects: tuple[EffectState, ...]
    queue: tuple[Any, ...] = ()  # tasks still to do, first first
    batch: Batch | None = None
    pending: tuple[Trigger, ...] = ()  # triggered, not yet on the stack (603.3)
    placing: tuple[Trigger, ...] = ()  # being put on the stack by the current player
    stack: tuple[StackItem, ...] = ()  # top is last
    damage_step: int = 0
    turn_player: str = ""
    # the step a case's end_step: / upkeep: action began ("" in a main phase or combat): no main
    # phase follows it in the case's turn (307.1, 602.5d: nothing is activated as a sorcery there)
    step: str = ""
    mana: tuple[tuple[str, tuple[str, ...]], ...] = ()  # could_produce answers
    next_order: int = 0
    script: tuple[int, ...] = ()  # how far each player's scripted ``choices:`` queue has been replayed
    dead: bool = False  # an illegal branch (a shield that didn't prevent all it could)
    extra_perm_specs: tuple[PermanentSpec, ...] = ()  # permanents that entered during the actions
    emblems: tuple[str, ...] = ()  # emblems in the command zone (114.1), ids into Table.emblem_specs
    log: Log = field(default=EMPTY_LOG, compare=False)  # forced steps so far (solver.decision.note)

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def perm(self, pid: str) -> PermState | None:
        found = None
        for p in self.perms:
            if p.id == pid:
                found = p  # the newest object with this id (a returned permanent is new)
        return found

    def effect(self, eid: str | None) -> EffectState | None:
        """The created effect ``eid`` in force (None for a static ability's, which has no id)."""
        return next((e for e in self.effects if e.id == eid), None) if eid is not None else None

    def spell_parts(self, item: StackItem) -> list[int]:
        """The queue positions of the resolving spell ``item``'s later parts (608.2c: its
        instructions, queued in order), which go with it when it doesn't resolve or is countered."""
        return [i for i, t in enumerate(self.queue) if t[0] == TaskKind.PART and t[1].kind is ItemKind.SPELL and t[1].source == item.source]

    def set_player(self, p: PlayerState) -> GameState:
        return replace(self, players=tuple(p if q.name == p.name else q for q in self.players))

    def set_perm(self, p: PermState) -> GameState:
        idx = max(i for i, q in enumerate(self.perms) if q.id == p.id)
        perms = list(self.perms)
        perms[idx] = p
        return replace(self, perms=tuple(perms))

    def set_effect(self, e: EffectState) -> GameState:
        return replace(self, effects=tuple(e if q.id == e.id else q for q in self.effects))


# dataclass() writes its own __hash__ into each frozen class; put the caching one back
for _cls in (PlayerState, PermState, EffectState, Event, Batch, Trigger, StackItem, GameState):
    _cls.__hash__ = _CachedHash.__hash__  # type: ignore[method-assign]


# the source of the monarch's two inherent triggered abilities, which have none (724.2); not an
# id a case can write (ids are letters, digits, - and _)
MONARCH = "(monarch)"
_MONARCH_ABILITIES: list[tuple[Ability, ...]] = []


def monarch_abilities() -> tuple[Ability, ...]:
    """724.2: "At the beginning of the monarch's end step, that player draws a card" and "Whenever
    a creature deals combat damage to the monarch, its controller becomes the monarch", each
    controlled by the player who was the monarch as it triggered."""
    if not _MONARCH_ABILITIES:

        one = parse_expr(1)
        _MONARCH_ABILITIES.append((
            Ability(AbilityKind.TRIGGER, action=OneShot(ActionKind.DRAW, one, parse_selector("you")),
                    trigger=TriggerEvent.END_STEP, turn="yours", text="the monarch's end step draw"),
            Ability(AbilityKind.TRIGGER, action=OneShot(ActionKind.BECOME_MONARCH, one, parse_selector("that player")),
                    trigger=TriggerEvent.COMBAT_DAMAGE_TO_PLAYER, text="combat damage to the monarch"),
        ))
    return _MONARCH_ABILITIES[0]


@dataclass
class Table:
    """What doesn't change during a solve: the case, specs by id, players in turn order."""

    case: Case
    perm_specs: list[PermanentSpec] = field(default_factory=list)
    sources: dict[str, SourceSpec] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # players in turn order
    active: str = ""
    two_headed: bool = False
    memo: dict[Any, Any] = field(default_factory=dict)  # per-solve caches keyed by immutable parts
    # classes of creatures whose chosen blocks are merged (solver.symmetry): set only by a solve
    # whose outcomes are projected on fields that don't tell them apart
    interchangeable: tuple[tuple[str, ...], ...] = ()
    emblem_specs: dict[str, SourceSpec] = field(default_factory=dict)  # emblems made as the case runs (solver.emblems)
    granted: list[Ability] = field(default_factory=list)  # triggered abilities granted by effects (solver.granted)

    def apnap(self, names: list[str] | set[str] | tuple[str, ...]) -> list[str]:
        """Sort players in APNAP order (CR 101.4)."""
        start = self.order.index(self.active)
        rank = {n: (i - start) % len(self.order) for i, n in enumerate(self.order)}
        return sorted(names, key=lambda n: rank.get(n, 99))

    def spec_of(self, state: GameState, pid: str) -> PermanentSpec | SourceSpec | None:
        p = state.perm(pid)
        if p is not None:
            return self.perm_specs[p.spec]
        if pid in state.emblems:
            return self.emblem_specs[pid]
        return self.sources.get(pid)

    def item_ability(self, state: GameState, item: StackItem) -> Ability:
        """The ability a stack item resolves: for a modal trigger, its chosen mode (700.2b)."""
        ab = self.ability_at(state, item.source, item.ability)
        return ab.choices[item.modes[0] - 1] if ab.choices and item.modes else ab

    def ability_at(self, state: GameState, oid: str, j: int) -> Ability:
        """An object's ability ``j``: its own, or (``j`` < 0) one an effect grants it, kept in
        ``granted`` (solver.granted: its index -1 - j)."""
        return self.granted[-1 - j] if j < 0 else self.abilities_of(state, oid)[j]

    def abilities_of(self, state: GameState, oid: str) -> tuple[Ability, ...]:
        if oid == MONARCH:
            return monarch_abilities()
        spec = self.spec_of(state, oid)
        return spec.abilities if spec is not None else ()


def initial_state(case: Case) -> tuple[GameState, Table]:
    table = Table(case=case, perm_specs=list(case.permanents),
                  sources={s.id: s for s in case.sources}, order=[p.name for p in case.players],
                  active=case.active or case.players[0].name,
                  two_headed=case.format == "two-headed-giant")
    players = tuple(
        PlayerState(p.name, p.life, p.team, p.poison, p.life_lost_this_turn, p.life_gained_this_turn,
                    p.life_lost_this_turn, energy=p.energy, monarch=p.monarch, hand=p.hand)
        for p in case.players)
    perms = []
    for i, s in enumerate(case.permanents):
        blocked = any(s.id in o.blocking for o in case.permanents)
        perms.append(PermState(
            id=s.id, spec=i, controller=s.controller, damage=s.damage, counters=s.counters,
            loyalty=s.loyalty, defense=s.defense, attacking=s.attacking, blocking=s.blocking,
            chosen=s.chosen, tapped=s.tapped, blocked=blocked, choosing_block=s.choose_block,
            attached_to=s.attached_to, dealt_by=s.dealt_damage_by, monstrous=s.monstrous))
    effects = []
    for i, e in enumerate(case.effects):
        src = next((p for p in case.permanents if p.id == e.source), None)
        effects.append(make_effect_state(e.id, e.spec, e.controller, e.source, e.target, 0, i,
                                         chosen=src.chosen if src is not None else None, born=len(perms)))
    state = GameState(players=players, perms=tuple(perms), effects=tuple(effects),
                      queue=tuple((TaskKind.ACT, a) for a in case.actions),
                      turn_player=table.active, next_order=len(effects))
    return state, table


def make_effect_state(eid: str, spec: EffectSpec, controller: str, source: str | None,
                      target: str | None, x: int, order: int, chosen_source: str | None = None,
                      chosen: str | None = None, born: int | None = None) -> EffectState:
    remaining: int | None = None
    if spec.kind == EffectKind.SHIELD and not is_all(spec.value):
        remaining = eval_static(spec.value, x)
    elif spec.kind == EffectKind.REDIRECT and spec.shield is not None:
        remaining = eval_static(spec.shield, x)
    return EffectState(eid, spec, controller, source, target, x, remaining, False,
                       chosen_source or spec.source_choice, order, chosen, born)
