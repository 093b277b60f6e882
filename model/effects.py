"""The kinds of effects in the generic vocabulary, and the tagged amounts a prevention names.

An effect's kind is an :class:`EffectKind` (a ``StrEnum``: it prints and serialises as the case
file's key). The amount of ``prevent:`` (and of ``shield: all``) is a tagged value, never a magic
string: :class:`AllDamage` (615.1a "prevent all"), :class:`HalfDamage` ("prevent half that
damage, rounded up/down"), :class:`AllBut` ("all but N of that damage"), :class:`CountOf` ("prevent
X, where X is the number of ...", counted as the batch begins, 615.10), or an amount expression.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from .expr import Expr
from .selectors import Selector

__all__ = ["EffectKind", "EFFECT_KINDS", "ProtectionFrom", "AllDamage", "HalfDamage", "AllBut", "CountOf", "PreventAmount",
           "ALL_DAMAGE", "is_all"]


class EffectKind(StrEnum):
    """Exactly one of these keys names an effect's kind (docs/design.md, the generic vocabulary)."""

    SHIELD = "shield"  # "prevent the next N damage" (615.7)
    PREVENT = "prevent"  # a static prevention of each event (615.1a)
    MULTIPLY = "multiply"  # "double/triple that damage" (614.1a)
    ADD = "add"  # "it deals that much damage plus N instead"
    CAP = "cap"  # "it deals N damage instead" when more
    SUBTRACT = "subtract"  # "it deals that much damage minus N instead" (a replacement, not a prevention)
    HALVE = "halve"  # "half that damage, rounded up/down instead"
    REDIRECT = "redirect"  # "that damage is dealt to ... instead" (614.9, 615.1)
    CANT_BE_PREVENTED = "cant_be_prevented"  # 615.12
    CANT_GAIN_LIFE = "cant_gain_life"  # 119.7
    PROTECTION = "protection"  # 702.16e
    HEXPROOF = "hexproof"  # 702.11
    SHROUD = "shroud"  # 702.18
    LIFE_FLOOR = "life_floor"  # "can't cause your life total to drop below N"
    AS_THOUGH = "as_though"  # "assign combat damage as though it weren't blocked" (702.19 / 510.1)
    REPLACE_MANA = "replace_mana"  # 106.6, 614.1a
    MULTIPLY_MANA = "multiply_mana"  # 106.6
    # life (CR 119): life-gain replacements (119.10, 616.1), "can't lose life" (119.8), "your life
    # total can't change" (119.7 + 119.8), "you don't lose the game for having 0 or less life" (704.5a)
    GAIN_LIFE_PLUS = "gain_life_plus"
    GAIN_LIFE_TIMES = "gain_life_times"
    CANT_LOSE_LIFE = "cant_lose_life"
    LIFE_CANT_CHANGE = "life_cant_change"
    NO_LOSS_FOR_0_LIFE = "no_loss_for_0_life"
    # "you can't lose the game" (Platinum Angel): no state-based loss at all (704.5a, 704.5c; 810.8a)
    CANT_LOSE_GAME = "cant_lose_game"
    # "you can't get poison counters" (Melira, Sylvok Outcast): infect's and toxic's poison (120.3b,
    # 120.3g) and an effect's (122.1) don't happen to those players
    CANT_GET_POISON = "cant_get_poison"
    # counters (CR 122): "if damage would be dealt to it, put that many +1/+1 counters on it instead"
    DAMAGE_TO_COUNTERS = "damage_to_counters"
    # "that many -1/-1 counters minus one are put on it instead" (Vizier of Remedies, 614.1a)
    FEWER_COUNTERS = "fewer_counters"
    # "target creature becomes blue until end of turn" (a colour-changing effect, 105.3, 613.1e)
    BECOMES_COLOR = "becomes_color"
    # power/toughness and keyword changes (CR 613.4c layer 7c, 613.1f layer 6)
    PT = "pt"
    GRANT = "grant"
    # "creatures your opponents control lose infect" (613.1f layer 6: an ability removed)
    LOSE = "lose"
    # "All Sliver creatures have poisonous 1." (a triggered ability granted, 613.1f, 702.70a)
    GRANT_TRIGGER = "grant_trigger"
    # "that damage can't be ... dealt instead to another permanent or player" (Lava Burst): no
    # redirection effect applies to it (614.9)
    CANT_BE_REDIRECTED = "cant_be_redirected"
    # "if that creature would die this turn, exile it instead" (614.1a, 700.4)
    EXILE_INSTEAD = "exile_instead"
    # "each creature assigns combat damage equal to its toughness rather than its power" (Doran,
    # the Siege Tower): 510.1a's amount read from toughness
    ASSIGNS_BY_TOUGHNESS = "assigns_by_toughness"
    # "regenerate it": the next time it would be destroyed this turn, instead remove all damage
    # marked on it, tap it and remove it from combat (701.19a, 614.8)
    REGENERATE = "regenerate"
    # "you may have it assign its combat damage as though it weren't blocked": its controller may
    # assign as 510.1b says instead of 510.1c
    AS_UNBLOCKED = "as_unblocked"


EFFECT_KINDS: tuple[str, ...] = tuple(k.value for k in EffectKind)


@dataclass(frozen=True)
class ProtectionFrom:
    """What ``protection:`` protects from (702.16a): a player (``from_player:``, 702.16k: objects
    that player controls) or a quality of objects (``from:``, an object selector such as ``white
    sources``, ``creatures``, ``Demon sources``: objects with that quality). Exactly one is given."""

    player: Selector | None = None
    quality: Selector | None = None

    def selectors(self) -> tuple[Selector, ...]:
        return tuple(s for s in (self.player, self.quality) if s is not None)


@dataclass(frozen=True)
class AllDamage:
    """"Prevent all damage" / "the next time ... prevent that damage" (615.1a, 615.8)."""

    def __str__(self) -> str:
        return "all"


@dataclass(frozen=True)
class HalfDamage:
    """"Prevent half that damage, rounded up" (``round_up``) or "rounded down"."""

    round_up: bool

    def __str__(self) -> str:
        return "half_up" if self.round_up else "half_down"


@dataclass(frozen=True)
class AllBut:
    """"Prevent all but N of that damage"."""

    n: int


@dataclass(frozen=True)
class CountOf:
    """"Prevent X of that damage, where X is the number of <selector>" (counted when the batch
    begins, 615.10)."""

    selector: Selector


ALL_DAMAGE = AllDamage()

PreventAmount: TypeAlias = AllDamage | HalfDamage | AllBut | CountOf | Expr


def is_all(value: object) -> bool:
    """Whether a prevention's (or shield's) amount is "all the damage"."""
    return isinstance(value, AllDamage)
