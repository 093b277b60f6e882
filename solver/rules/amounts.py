"""What an effect does to the amount of one damage event: each rule written once, for both engines.

Every amount-changing effect kind is one tagged rule here, carrying everything the engines need:

- :meth:`AmountRule.apply`: the concrete rule, an amount in and an amount out (the graph engine,
  and the CP engine when it reads a solution);
- :meth:`AmountRule.upper`: an upper bound of the result for amounts up to a bound (monotone), so
  the CP model can size its variables;
- :meth:`AmountRule.encode`: the same rule as CP-SAT constraints ``vout = rule(vin)`` on a model
  passed in (duck-typed: this module never imports OR-Tools).

0 damage stays 0: nothing modifies an event of 0 (CR 120.8, 614.7a). The prevention shares that a
"prevent the next N" shield takes are a choice (615.7), not a rule of the amount, and are handled
where the choices are (solver.damage, solver.cp); :func:`rule_of` returns None for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mtg_outcomes.model.effects import AllBut, AllDamage, CountOf, EffectKind, HalfDamage
from mtg_outcomes.model.types import EffectSpec

__all__ = ["AmountRule", "PreventAll", "PreventHalf", "PreventAllBut", "PreventN", "Multiply", "Add",
           "Subtract", "Cap", "Halve", "ToCounters", "rule_of"]


class AmountRule:
    """One effect kind's rule on an event's amount."""

    prevents: bool = False  # a prevention effect (615): the amount removed is "damage prevented"

    @property
    def least(self) -> int:
        """The least amount the effect applies to. An event of 0 is none (120.8); a cap applies
        only to more than its N, and 616.1f offers only the effects that would now apply, so a
        cap isn't used up on damage a later doubling takes past it."""
        return 1

    def applies(self, amount: int) -> bool:
        return amount >= self.least

    def apply(self, amount: int) -> int:
        raise NotImplementedError

    def upper(self, bound: int) -> int:
        """The largest result for an amount from 0 to ``bound``."""
        return self.apply(bound)

    def encode(self, m: Any, vin: Any, vout: Any, tag: str) -> None:
        """Constrain ``vout == self.apply(vin)`` in the CP model ``m``."""
        raise NotImplementedError


@dataclass(frozen=True)
class PreventAll(AmountRule):
    """"Prevent all damage" (615.1a)."""

    prevents = True

    def apply(self, amount: int) -> int:
        return 0

    def encode(self, m: Any, vin: Any, vout: Any, tag: str) -> None:
        m.add(vout == 0)


@dataclass(frozen=True)
class PreventHalf(AmountRule):
    """"Prevent half that damage, rounded up" (``round_up``) or "rounded down"."""

    round_up: bool
    prevents = True

    def apply(self, amount: int) -> int:
        return amount // 2 if self.round_up else amount - amount // 2

    def encode(self, m: Any, vin: Any, vout: Any, tag: str) -> None:
        # what is left: floor(in / 2) when the prevention rounds up, ceil(in / 2) when it rounds down
        m.add_division_equality(vout, vin if self.round_up else vin + 1, 2)


@dataclass(frozen=True)
class PreventAllBut(AmountRule):
    """"Prevent all but N of that damage"."""

    n: int
    prevents = True

    def apply(self, amount: int) -> int:
        return min(amount, self.n)

    def encode(self, m: Any, vin: Any, vout: Any, tag: str) -> None:
        m.add_min_equality(vout, [vin, self.n])


@dataclass(frozen=True)
class PreventN(AmountRule):
    """"Prevent N of that damage", applied separately to each event (615.10); N may be a count
    read before any of the batch is dealt (Shield of the Avatar ruling)."""

    n: int
    prevents = True

    def apply(self, amount: int) -> int:
        return max(0, amount - self.n)

    def encode(self, m: Any, vin: Any, vout: Any, tag: str) -> None:
        m.add_max_equality(vout, [vin - self.n, 0])


@dataclass(frozen=True)
class Multiply(AmountRule):
    """"It deals double (triple) that damage instead" (614.1a)."""

    n: int

    def apply(self, amount: int) -> int:
        return amount * self.n

    def encode(self, m: Any, vin: Any, vout: Any, tag: str) -> None:
        m.add(vout == self.n * vin)


@dataclass(frozen=True)
class Add(AmountRule):
    """"It deals that much damage plus N instead" (614.1a); nothing is added to 0 (120.8, 614.7a)."""

    n: int

    def apply(self, amount: int) -> int:
        return amount + self.n if amount > 0 else 0

    def encode(self, m: Any, vin: Any, vout: Any, tag: str) -> None:
        pos = m.new_bool_var(f"pos{tag}")
        m.add(vin >= 1).only_enforce_if(pos)
        m.add(vin == 0).only_enforce_if(~pos)
        m.add(vout == vin + self.n * pos)


@dataclass(frozen=True)
class Halve(AmountRule):
    """"It deals half that damage, rounded down (up), instead": a replacement effect (614.1a), not a
    prevention, so damage that can't be prevented (615.12) is halved too (Ghosts of the Innocent)."""

    round_up: bool

    def apply(self, amount: int) -> int:
        return amount - amount // 2 if self.round_up else amount // 2

    def encode(self, m: Any, vin: Any, vout: Any, tag: str) -> None:
        m.add_division_equality(vout, vin + 1 if self.round_up else vin, 2)


@dataclass(frozen=True)
class Subtract(AmountRule):
    """"It deals that much damage minus N instead" (Lashknife Barrier, Benevolent Unicorn: 614.1a):
    a replacement, not a prevention, so it lowers damage that can't be prevented too (615.12)
    and prevents nothing (no 615.5 rider reads it); never below 0, which is no damage (120.8)."""

    n: int

    def apply(self, amount: int) -> int:
        return max(0, amount - self.n)

    def encode(self, m: Any, vin: Any, vout: Any, tag: str) -> None:
        m.add_max_equality(vout, [vin - self.n, 0])


@dataclass(frozen=True)
class Cap(AmountRule):
    """"It deals N damage instead" when it would deal more (a cap: Divine Presence's "4 or more
    damage ... deals 3 damage instead" is N = 3)."""

    n: int

    @property
    def least(self) -> int:
        return self.n + 1

    def apply(self, amount: int) -> int:
        return min(amount, self.n)

    def encode(self, m: Any, vin: Any, vout: Any, tag: str) -> None:
        m.add_min_equality(vout, [vin, self.n])


@dataclass(frozen=True)
class ToCounters(AmountRule):
    """"If damage would be dealt to it, put that many +1/+1 counters on it instead" (Phytohydra,
    614.1a): none of the damage is dealt (no other effect applies to it any more, 616.1f, and it
    has no result of damage, 120.3); the amount it replaced is the counters put (solver.results.deal)."""

    counter: str

    def apply(self, amount: int) -> int:
        return 0

    def encode(self, m: Any, vin: Any, vout: Any, tag: str) -> None:
        m.add(vout == 0)


def rule_of(spec: EffectSpec, count: int | None = None) -> AmountRule | None:
    """The amount rule of an effect, or None (a shield's share is a choice; a redirection moves
    the damage; other kinds don't change amounts). ``count`` is the effect's X for ``prevent:
    {count: ...}``, read when the batch began (615.10)."""
    kind, value = spec.kind, spec.value
    if kind == EffectKind.PROTECTION:
        return PreventAll()  # 702.16e: damage from a source the player is protected from
    if kind == EffectKind.MULTIPLY:
        return Multiply(int(value))
    if kind == EffectKind.ADD:
        return Add(int(value))
    if kind == EffectKind.CAP:
        return Cap(int(value))
    if kind == EffectKind.SUBTRACT:
        return Subtract(int(value))
    if kind == EffectKind.HALVE:
        return Halve(value == "up")
    if kind == EffectKind.DAMAGE_TO_COUNTERS:
        return ToCounters(str(value))
    if kind != EffectKind.PREVENT:
        return None
    if isinstance(value, AllDamage):
        return PreventAll()
    if isinstance(value, HalfDamage):
        return PreventHalf(value.round_up)
    if isinstance(value, AllBut):
        return PreventAllBut(value.n)
    if isinstance(value, CountOf):
        return PreventN(count or 0)
    if value[0] == "int":
        return PreventN(int(value[1]))
    return PreventN(0)  # a static "prevent X" whose X no spell defined (107.3i: X is 0)
