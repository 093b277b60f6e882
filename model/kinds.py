"""The kinds of one-shot actions, abilities and trigger events: tagged, not free strings.

Each is a ``StrEnum`` whose value is the case file's own word, so it prints, compares and
serialises as that word (``ActionKind.GAIN_LIFE == "gain_life"``) while the parsers only ever
build members.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ActionKind", "AbilityKind", "TriggerEvent", "ON_PERMANENTS"]


class ActionKind(StrEnum):
    """What a one-shot action (an instruction of a spell or ability, CR 608.2) or a prevention's
    rider (615.5) does."""

    DEAL = "deal"  # 120.1
    LOSE_LIFE = "lose_life"  # 119.3
    GAIN_LIFE = "gain_life"  # 119.3
    DRAW = "draw"  # 121.1
    SET_LIFE = "set_life"  # "your life total becomes N" (119.5)
    PUT_COUNTERS = "put_counters"  # 122.1
    REMOVE_COUNTERS = "remove_counters"  # 122.1
    DESTROY = "destroy"  # 701.8
    SACRIFICE = "sacrifice"  # 701.21a
    EXILE = "exile"  # 406.2, 400.7
    RETURN_TO_HAND = "return_to_hand"  # 400.7
    TAP = "tap"  # 701.26a
    UNTAP = "untap"  # 701.26b
    CREATE_TOKENS = "create_tokens"  # 111.1
    GET_ENERGY = "get_energy"  # "you get {E}{E}": energy counters (107.14, 122.1)
    BECOME_MONARCH = "become_monarch"  # "you become the monarch" (724.3)
    FIGHT = "fight"  # 701.14a: each of two creatures deals damage equal to its power to the other
    MILL = "mill"  # 701.17a: cards from the top of a library to the graveyard (neither is tracked)
    MONSTROSITY = "monstrosity"  # 701.37a: N +1/+1 counters and monstrous, if it isn't already
    # persist and undying (702.79a, 702.93a): "return it to the battlefield under its owner's control
    # with a -1/-1 (+1/+1) counter on it" if it had none of that kind: a new object (400.7)
    RETURN_TO_BATTLEFIELD = "return_to_battlefield"
    GET_POISON = "get_poison"  # "that player gets N poison counters" (122.1; ten or more: 704.5c)
    # "Add {R}{R}." in an ability that isn't a mana ability (a loyalty ability, 605.1a, 606): mana
    # into its controller's pool as it resolves (106.4)
    ADD_MANA = "add_mana"


# the actions that act on permanents, never on players: destroy (701.8), sacrifice (701.21a), exile
# (406.2; as it leaves the battlefield, 400.7: a new object, not dying), return to its owner's
# hand (400.7), tap and untap (701.26)
ON_PERMANENTS = frozenset({ActionKind.DESTROY, ActionKind.SACRIFICE, ActionKind.EXILE, ActionKind.RETURN_TO_HAND,
                           ActionKind.TAP, ActionKind.UNTAP})


class AsEntersChoice(StrEnum):
    """Whom "As ~ enters, choose ..." may choose (614.12), read later as "the chosen player" (607.2)."""

    OPPONENT = "choose_opponent"  # "choose an opponent" (Guardian Archon)
    PLAYER = "choose_player"  # "choose a player": its controller too (Stuffy Doll, True-Name Nemesis)


class AbilityKind(StrEnum):
    """The kinds of abilities an object's ``abilities:`` list (CR 113.3)."""

    STATIC = "static"  # 113.3d
    ACTIVATED = "activated"  # 113.3b, 602
    SPELL = "spell"  # a spell's effect (113.3a)
    TRIGGER = "trigger"  # 113.3c, 603
    AS_ENTERS = "as_enters"  # "as ~ enters, choose an opponent / a player" (614.12): AsEntersChoice
    ENTERS_WITH = "enters_with"  # "enters with N counters" (614.1c)
    MANA = "mana"  # 605
    KEYWORD = "keyword"  # a keyword written in abilities: (702)
    KICKER = "kicker"  # an optional additional cost chosen as the spell is cast (702.33)
    MODES = "modes"  # "Choose one —": how many modes its caster chooses (700.2, 601.2b)
    WARD = "ward"  # "Ward {2}": counter an opponent's spell or ability targeting it unless they pay (702.21a)
    CANT_BE_COUNTERED = "cant_be_countered"  # "This spell can't be countered." (101.2, 701.6a)
    # "As an additional cost to cast this spell, sacrifice a creature." (601.2b, 601.2h): paid as a
    # cast: action casts it
    CAST_COST = "cast_cost"


class TriggerEvent(StrEnum):
    """The events a triggered ability can look for (CR 603.2)."""

    COMBAT_DAMAGE_TO_PLAYER = "combat_damage_to_player"
    DEALS_DAMAGE = "deals_damage"
    DEALT_DAMAGE = "dealt_damage"
    DAMAGE_PREVENTED = "damage_prevented"  # 615.5 riders aside: "whenever damage is prevented"
    GAIN_LIFE = "gain_life"
    LOSE_LIFE = "lose_life"  # 603.2, 119.3: each life-loss event (damage to a player, 120.3a; a loss; paying life, 119.4)
    END_STEP = "end_step"  # 513.1
    ENTERS = "enters"  # 603.6a
    DIES = "dies"  # 603.6c, 700.4
    TAPPED_FOR_MANA = "tapped_for_mana"  # 605.1b
    CAST = "cast"  # 601.2i
    UPKEEP = "upkeep"  # 503.1a
    BECOMES_MONSTROUS = "becomes_monstrous"  # 701.37b: "When ~ becomes monstrous"
    # 508.1m, 508.2a: "Whenever ~ attacks", as attackers are declared (the case's declare_attackers: {})
    ATTACKS = "attacks"
    # 121.1, 121.2, 603.2: "Whenever you draw a card": each card drawn (one at a time), by the players to: names
    DRAWS = "draws"


class DecisionKind(StrEnum):
    """What a decision chooses (solver.decision.KIND_RULES gives each its rule); str-valued, so a
    witness's ``kind`` and ``choices:`` read the same words."""

    ORDER = "order"  # replacement and prevention effects' order (616.1)
    SPLIT = "split"  # a shield's split over simultaneous events (615.7)
    MAY = "may"  # "you may" (608.2d)
    ASSIGN = "assign"  # combat damage assignment (510.1c)
    BLOCK = "block"  # the declaration of blockers (509.1a)
    TARGET = "target"  # targets (601.2c)
    STACK_ORDER = "stack_order"  # triggers' order on the stack (603.3b)
    SOURCE = "source"  # "a source of your choice" (609.7a)
    MODE = "mode"  # a modal spell's mode (700.2a)
    KICK = "kick"  # whether to pay a kicker cost (702.33)
    X = "x"  # the value of X (107.3a)
    CHOOSE = "choose"  # a choice a resolving spell or ability gives (608.2d)
    WARD = "ward"  # pay the ward cost or not (702.21a)
    TAP = "tap"  # which permanents pay a mana cost (601.2h)
    SACRIFICE = "sacrifice"  # what is sacrificed to pay a cost (601.2h)


class CostKind(StrEnum):
    """A cost part's tag beyond the {T}/{Q} symbols (a cost is a tuple of "T", "Q" and tagged
    tuples such as ``("sacrifice", selector)``; str-valued, as model.vocab writes them)."""

    LOYALTY = "loyalty"  # +N / -N / -X loyalty (606.4)
    REMOVE_COUNTERS = "remove_counters"  # (kind, n)
    SACRIFICE = "sacrifice"  # a selector, or "self" (701.21a)
    TAP = "tap"  # an untapped permanent the selector names (601.2h)
    PAY_LIFE = "pay_life"  # (119.4)
    PAY_ENERGY = "pay_energy"  # (107.14)


class ManaKind(StrEnum):
    """A mana ability's mana beyond fixed symbols (``ab.mana``'s first element, as model.vocab
    writes it): one mana of a type or colour chosen as it resolves (106.7, 605.3b)."""

    ANY_TYPE_OF = "any_type_of"  # a type that the selector's lands could produce (106.7)
    ANY_COLOR_OF = "any_color_of"
    ANY_COLOR = "any_color"
    ANY = "any"  # any type
    CHOSEN_COLOR = "chosen_color"
    ONE_OF = "one_of"  # one of the listed symbols

