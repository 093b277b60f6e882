"""The immutable description of a situation: what the case file says, after validation.

Everything here is a frozen dataclass (hashable, cheap to share). The solver builds its own game
state from these; nothing here changes during a solve.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .effects import EFFECT_KINDS, EffectKind
from .expr import Expr
from .keywords import KEYWORDS
from .kinds import AbilityKind, ActionKind, TriggerEvent
from .selectors import Selector

__all__ = [
    "Rider", "EffectSpec", "OneShot", "TokenSpec", "Ability", "PermanentSpec", "SourceSpec", "PlayerSpec",
    "CreatedEffect", "DamageSpec", "Condition", "Action", "DamageAction", "CombatAction", "ActivateAction",
    "CreateAction", "LifeAction", "EnterAction", "LeaveAction", "LeaveGameAction", "EndStepAction", "UpkeepAction", "DeclareAttackersAction",
    "CouldProduceAction", "TapForManaAction", "CastAction", "MayAction", "OneShotAction", "Expect", "Case", "EFFECT_KINDS",
    "KEYWORDS", "MANA_TYPES", "with_pt_counters", "PLAYER_KINDS", "LIFE_GAIN_KINDS", "GRANTABLE",
]

# the keywords a grant: may give (toxic N, defender and the like are not granted here)
GRANTABLE = ("deathtouch", "double strike", "first strike", "flying", "haste", "hexproof", "indestructible",
             "infect", "lifelink", "menace", "reach", "shroud", "trample", "trample over planeswalkers",
             "vigilance", "wither")
# the kinds above whose value is a player selector ("can't gain life: <players>")
PLAYER_KINDS = (EffectKind.CANT_GAIN_LIFE, EffectKind.CANT_LOSE_LIFE, EffectKind.LIFE_CANT_CHANGE,
                EffectKind.NO_LOSS_FOR_0_LIFE, EffectKind.CANT_LOSE_GAME, EffectKind.CANT_GET_POISON)
# life-gain replacement effects: they modify a life-gain event, not a damage event (119.10)
LIFE_GAIN_KINDS = (EffectKind.GAIN_LIFE_PLUS, EffectKind.GAIN_LIFE_TIMES)
# The six types of mana (CR 106.1), in the order outputs list them.
MANA_TYPES = ("W", "U", "B", "R", "G", "C")


def with_pt_counters(value: int, counter: Callable[[str], int]) -> int:
    """A power or toughness with its +1/+1 and -1/-1 counters (CR 122.1a, 613.4c); ``counter``
    gives the number of counters of a kind."""
    return value + counter("+1/+1") - counter("-1/-1")


@dataclass(frozen=True)
class Rider:
    """An effect's additional part (``then:``), done right after the prevention (CR 615.5)."""

    kind: ActionKind  # deal | gain_life | draw | lose_life | put_counters | remove_counters | create_tokens
    amount: Expr
    to: Selector | None = None
    counter: str = ""  # put_counters: the counter kind ("put a +1/+1 counter on that creature")
    # "If damage is prevented this way, ...": done only when the effect prevented some damage;
    # otherwise the rider takes place whenever the effect applied, even to damage that can't be
    # prevented (CR 615.12)
    if_prevented: bool = False
    # create_tokens: the token, one per point prevented ("create that many 1/1 tokens", 111.1)
    token: TokenSpec | None = None


@dataclass(frozen=True)
class EffectSpec:
    """One replacement / prevention (or rules-modifying) effect in the generic vocabulary."""

    kind: EffectKind
    value: Any = None  # by kind: a PreventAmount (prevent, shield), a factor, a selector, ...
    to: Selector | None = None
    from_: Selector | None = None
    combat: bool | None = None
    next_time: bool = False
    source_choice: str | None = None
    duration: str = "turn"
    then: Rider | None = None
    shield: Expr | None = None  # partial redirection (Harm's Way): redirect the next N
    may: bool = False  # "you may prevent ...": applying it is its controller's choice (616.1)
    if_you_control: Selector | None = None  # a condition such as Worship's "if you control a creature"
    if_life_at_most: int | None = None  # "as long as you have N or less life" (Phyrexian Unlife: 0)
    if_life_at_least: int | None = None  # "as long as you have N or more life" (Honor Troll: 25)
    # the two numbers above are more than the controller's starting life total (103.4), not life
    # totals: "at least 7 life more than your starting life total" (Leyline of Hope)
    life_from_start: bool = False
    if_your_turn: bool | None = None  # "during your turn" (True) / "during turns other than yours" (False)
    if_attacking: bool = False  # "as long as it's attacking": only while its source is an attacking creature (506.4)
    if_untapped: bool = False  # "as long as ~ is untapped": only while its permanent is untapped (Martyrs of Korlis)
    mana: str | None = None  # mana replacements: only "if ... tapped for {G}" (a type filter)
    min_amount: int | None = None  # mana replacements: only "if ... tapped for N or more mana"
    mana_amount: int | None = None  # replace_mana: "instead of any other type and amount" (Contamination: 1)


@dataclass(frozen=True)
class TokenSpec:
    """A token a ``create_tokens`` action creates (CR 111.1-111.4): the characteristics the
    spell or ability gives it (111.3) or a predefined token's (111.10: Food, Treasure, Clue...);
    its name is its subtypes plus "Token" unless the effect names it (111.4)."""

    name: str
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    toxic: int = 0
    abilities: tuple[Ability, ...] = ()
    tapped: bool = False  # "create a tapped Powerstone token"


@dataclass(frozen=True)
class OneShot:
    """A one-shot action: ``deal``, ``lose_life``, ``gain_life``, ``draw``, ``set_life`` ("your life
    total becomes N", CR 119.5), ``put_counters`` ("put N +1/+1 counters on it", 122.1; ``to`` names the
    permanents) (optionally ``may``)."""

    kind: ActionKind
    amount: Expr
    to: Selector
    source: str | None = None
    combat: bool = False
    may: bool = False
    then: Rider | None = None  # lose_life: "you gain life equal to the life lost this way"
    counter: str = ""  # put_counters: the kind of counter put (122.1), e.g. "+1/+1"
    divided: bool = False  # deal: "N damage divided as you choose among" the spell's targets (601.2d)
    evenly: bool = False  # divided: "divided evenly, rounded down, among" them (Fireball): no choice, each N // targets
    # deal: "Excess damage is dealt to that creature's controller instead." (120.4a): "always", or
    # "trample" (Ram Through: only if the source has trample); "" for none
    excess: str = ""
    # deal: "... unless that creature's controller has ~ deal 5 damage to them" (Blazing Salvo): the
    # one player this other deal names chooses, as it resolves, which of the two happens (101.4, 608.2d)
    unless: OneShot | None = None
    # deal: more (amount, recipients) pairs dealt by the same source in the same batch ("~ deals 2
    # damage to any target and 3 damage to you": simultaneous events, 120.2)
    also: tuple[tuple[Expr, Selector], ...] = ()
    token: TokenSpec | None = None  # create_tokens: the token, that many created (111.1)
    mana: tuple[str, ...] = ()  # add_mana: the symbols added (106.4), W U B R G C
    # deal: "If you don't [cast the exiled card], ~ deals 2 damage ..." (Chandra, Torch of Defiance):
    # done only when the activation says the exiled card isn't cast (``cast_exiled: false``)
    if_not_cast: bool = False
    # deal: who deals it, when not the source: "target" (the ability's target, "target creature
    # deals damage to itself") or "itself" (each recipient deals it to itself, "each creature deals
    # damage to itself"); from: target / from: itself in a case file
    by: str = ""
    # destroy: "It can't be regenerated." / "They can't be regenerated." (701.19c): no regeneration
    # shield replaces this destruction
    no_regenerate: bool = False


@dataclass(frozen=True)
class Condition:
    """A triggered ability's intervening "if" (CR 603.4): true when some player ``who`` names has
    lost at least / at most N life this turn, or has at least / at most N life."""

    who: Selector
    measure: str  # life_lost | life_gained | life (this turn: lost, gained; life: the total)
    at_least: int | None = None
    at_most: int | None = None


@dataclass(frozen=True)
class Ability:
    """An ability of a permanent or a spell.

    ``kind``: static | activated | spell | trigger | as_enters | enters_with | mana | keyword (a
    keyword written in ``abilities:``, its word in ``text``; it also sits in the object's
    ``keywords``, so ability indexes stay the file's own).
    """

    kind: AbilityKind
    effect: EffectSpec | None = None
    action: OneShot | None = None
    # the actions after ``action``, in order, one resolution (608.2c): ``do: [a, b]``
    more: tuple[OneShot, ...] = ()
    target: Selector | None = None
    # a spell's "one or two targets": how many distinct targets (min, max; max None: any number),
    # each meeting ``target`` (115.1, 601.2c); None: the usual one target
    targets: tuple[int, int | None] | None = None
    # a spell's second target, another instance of the word "target" with its own requirement
    # (601.2c: "target creature you control deals damage ... to target creature you don't
    # control"); its actions name it ``second target``; ``another``: it differs from the first
    second_target: Selector | None = None
    another: bool = False
    once: bool = False
    # activated: "Activate only as a sorcery." (602.5d, 307.1): its controller's main phase, the stack empty
    sorcery: bool = False
    trigger: TriggerEvent | None = None  # trigger abilities only
    trigger_to: Selector | None = None
    trigger_from: Selector | None = None
    trigger_combat: bool | None = None
    turn: str = "each"  # for end_step and upkeep triggers: each | yours | opponents
    trigger_min: int | None = None  # "N or more damage" (Pain Magnification: by a single source)
    trigger_if: Condition | None = None  # intervening "if" (603.4): checked on triggering and resolving
    trigger_mana: str | None = None  # tapped_for_mana triggers: "tapped for {G}" (a type filter)
    trigger_spell: str = "any"  # cast triggers: any | noncreature | instant_or_sorcery (the spell you cast)
    choice: str = ""  # as_enters: an AsEntersChoice (choose_opponent, choose_player)
    # "Choose a creature or planeswalker you control" as the spell or ability resolves (Gideon's
    # Sacrifice): its controller picks one of these; the effect's ``chosen`` is that permanent
    choose: Selector | None = None
    counters: tuple[tuple[str, Expr], ...] = ()  # enters_with: counter kind -> amount (614.1c)
    mana: Any = None  # mana abilities: tuple of symbols or (any_type_of|any_color_of, Selector)
    cost: tuple[Any, ...] = ()
    amount: int = 1
    text: str = ""
    # a modal spell (700.2): ``mode`` is the mode (1-based, printed order) a spell part belongs to;
    # the spell's ``modes`` ability (kind "modes") says how many modes are chosen (min, max)
    mode: int = 0
    modes: tuple[int, int] | None = None
    entwine: bool = False  # the ``modes`` ability's "Entwine [cost]": all modes may be chosen instead (702.42a)
    repeat: bool = False  # the ``modes`` ability's "You may choose the same mode more than once." (700.2d)
    # kicker (702.33): a spell part done only if the spell was kicked (True) or only if it wasn't
    # (False); None: either way. The spell's ``kicker`` ability (kind "kicker") offers the choice
    kicked: bool | None = None
    # "If X is N or more, this spell can't be countered and the damage can't be prevented."
    # (Banefire): a spell's static ability that applies only while its X is at least N (107.3)
    x_at_least: int | None = None
    # "You get an emblem with "Creatures you control get +1/+1."" (114.1, 114.4): the effect is the
    # emblem's static ability, for the rest of the game, to whatever its ``to:`` names at any time
    # (611.3a), not fixed as the ability resolves (611.2c)
    emblem: bool = False
    # "You get an emblem with "Whenever you cast a spell, this emblem deals 5 damage to any
    # target."" (114.1, 114.4): the emblem's triggered ability (the emblem is its source)
    emblem_ability: Ability | None = None
    # a modal triggered ability ("When ~ enters, choose one —", 700.2b): its modes, each a trigger
    # of the same event with its own instructions and target; one is chosen as it is put on the stack
    choices: tuple[Ability, ...] = ()


@dataclass(frozen=True)
class PermanentSpec:
    id: str
    name: str
    controller: str
    owner: str
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    power: int = 0
    toughness: int = 0
    loyalty: int = 0
    defense: int = 0
    keywords: tuple[str, ...] = ()
    toxic: int = 0
    abilities: tuple[Ability, ...] = ()
    attacking: str | None = None
    blocking: tuple[str, ...] = ()
    damage: int = 0
    counters: tuple[tuple[str, int], ...] = ()
    tapped: bool = False
    summoning_sick: bool = False
    monstrous: bool = False  # it became monstrous before the case (701.37b)
    attached_to: str | None = None
    chosen: str | None = None
    chosen_color: str | None = None  # the colour chosen as it entered (614.1c): white, blue, black, red, green
    choose_block: bool = False  # ``blocking: choose``: its block is its controller's choice (509.1a)
    dealt_damage_by: tuple[str, ...] = ()  # the objects that dealt it damage earlier this turn (120.1)
    protector: str | None = None  # a battle's protector (310.5): who defends it (506.2); None: not a battle

    @property
    def defender(self) -> str:
        """Who defends it when it is attacked (506.2): a battle's protector, a planeswalker's controller."""
        return self.protector or self.controller


@dataclass(frozen=True)
class SourceSpec:
    """A non-permanent source of damage (a spell, an emblem)."""

    id: str
    name: str
    controller: str
    owner: str
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    toxic: int = 0
    power: int = 0
    toughness: int = 0
    abilities: tuple[Ability, ...] = ()


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    life: int
    team: str | None = None
    life_lost_this_turn: int = 0
    life_gained_this_turn: int = 0
    poison: int = 0
    energy: int = 0  # energy counters (CR 107.14, 122.1)
    monarch: bool = False  # the monarch (CR 724.1)
    starting_life: int | None = None  # the game's starting life total (CR 103.4), when the case says it
    hand: int | None = None  # cards in hand as the case begins (CR 402.1), when the case says it


@dataclass(frozen=True)
class CreatedEffect:
    """An effect already created this turn (``effects:``) or by a ``create`` action."""

    id: str
    spec: EffectSpec
    controller: str
    source: str | None = None
    target: str | None = None


@dataclass(frozen=True)
class DamageSpec:
    source: str
    to: str
    amount: Expr
    combat: bool = False
    excess_to: str | None = None  # 120.4a: damage beyond lethal (loyalty, defense) is dealt to this instead


class Action:
    """Base of the timeline's actions."""

    kind: str = ""


@dataclass(frozen=True)
class DamageAction(Action):
    events: tuple[DamageSpec, ...]
    kind: str = "damage"


@dataclass(frozen=True)
class CombatAction(Action):
    choose_blocks: bool = False  # ``combat: {blocks: choose}``: every block is chosen (509.1)
    kind: str = "combat"


@dataclass(frozen=True)
class ActivateAction(Action):
    id: str
    ability: int | None = None
    x: int = 0
    target: str | None = None
    source_choice: str | None = None
    responses: tuple[Action, ...] = ()
    x_range: tuple[int, int] | None = None  # x: {min, max}: X is its controller's choice in that range (107.3a)
    x_given: bool = True  # whether the case says X (an ability that reads X needs it: 107.3a, never a default)
    # whether its controller casts the card the ability exiled from the library (which the tool
    # doesn't track): said by the case where the ability reads it (model.vocab.exiled), else None
    cast_exiled: bool | None = None
    kind: str = "activate"


@dataclass(frozen=True)
class CreateAction(Action):
    effect: CreatedEffect
    kind: str = "create"


@dataclass(frozen=True)
class LifeAction(Action):
    gain: bool
    amount: Expr
    who: Selector
    source: str | None = None
    kind: str = "life"


@dataclass(frozen=True)
class EnterAction(Action):
    """A permanent enters; ``x`` is the X chosen for the spell that became it (CR 107.3m)."""

    permanent: PermanentSpec
    x: int = 0
    kind: str = "enter"


@dataclass(frozen=True)
class LeaveAction(Action):
    id: str
    kind: str = "leave"


@dataclass(frozen=True)
class LeaveGameAction(Action):
    player: str
    kind: str = "leave_game"


@dataclass(frozen=True)
class EndStepAction(Action):
    kind: str = "end_step"


@dataclass(frozen=True)
class DeclareAttackersAction(Action):
    """``declare_attackers: {}``: the creatures written ``attacking:`` are declared as attackers now
    (508.1): their "whenever ~ attacks" abilities trigger (508.1m, 508.2a)."""

    kind: str = "declare_attackers"


@dataclass(frozen=True)
class UpkeepAction(Action):
    """``upkeep: {}``: the beginning of the active player's upkeep (503.1a): its triggers."""

    kind: str = "upkeep"


@dataclass(frozen=True)
class CouldProduceAction(Action):
    id: str
    kind: str = "could_produce"


@dataclass(frozen=True)
class TapForManaAction(Action):
    """Activate a permanent's mana ability (605.3a): ``ability`` indexes its abilities; ``choose``
    is the type picked for "one mana of any color/type" (otherwise its controller's decision)."""

    id: str
    ability: int | None = None
    choose: str | None = None
    tap: str | None = None  # the permanent a "Tap an untapped creature you control" cost taps (601.2h)
    kind: str = "tap_for_mana"


@dataclass(frozen=True)
class CastAction(Action):
    """Cast the spell ``id`` (a ``sources:`` entry, or one ``cast: {card: ...}`` made): its
    controller chooses its target as it is cast (601.2c) unless ``target`` says, ``x`` is its X
    (107.3), ``responses`` happen before it resolves (608.2)."""

    id: str
    target: str | None = None
    x: int = 0
    responses: tuple[Action, ...] = ()
    # ``targets: [a, b]`` (601.2c) and ``divide: {a: 1, b: 1}`` (601.2d), as announced on casting
    targets: tuple[str, ...] | None = None
    divide: tuple[tuple[str, int], ...] | None = None
    modes: tuple[int, ...] | None = None  # a modal spell's modes, as announced (700.2a, 601.2b)
    kicked: bool | None = None  # whether its kicker cost was paid, as announced (702.33a, 601.2b)
    x_range: tuple[int, int] | None = None  # x: {min, max}: X is its caster's choice in that range (107.3a)
    source_choice: str | None = None  # "a source of your choice", chosen as it resolves (615.9, 608.2c)
    x_given: bool = True  # whether the case says X (a spell that reads X needs it: 107.3a, never a default)
    kind: str = "cast"


@dataclass(frozen=True)
class MayAction(Action):
    """``may: <action>``: an optional action; ``chooser`` decides (by default the controller of
    the object the action names, else the active player). An illegal action leaves only "no"."""

    action: Action
    chooser: str | None = None
    kind: str = "may"


@dataclass(frozen=True)
class OneShotAction(Action):
    action: OneShot
    controller: str = ""
    kind: str = "one_shot"


@dataclass(frozen=True)
class Expect:
    complete: bool
    outcomes: tuple[tuple[tuple[str, Any], ...], ...]


@dataclass(frozen=True)
class Case:
    """A validated case file. Build with :func:`model.load_case`."""

    id: str
    title: str = ""
    source: str = ""
    format: str = "standard"
    players: tuple[PlayerSpec, ...] = ()
    active: str = ""
    permanents: tuple[PermanentSpec, ...] = ()
    sources: tuple[SourceSpec, ...] = ()
    effects: tuple[CreatedEffect, ...] = ()
    actions: tuple[Action, ...] = ()
    expect: Expect | None = None
    objective: Any = None
    choices: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    path: str = ""
    raw: Any = field(default=None, compare=False, hash=False, repr=False)
    # what the file says that the tool accepts without acting on (model.errors.CaseWarning)
    warnings: tuple[Any, ...] = field(default=(), compare=False, hash=False, repr=False)

    def player(self, name: str) -> PlayerSpec:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def teams(self) -> tuple[str, ...]:
        return tuple(sorted({p.team for p in self.players if p.team is not None}))
