"""Mana abilities and mana triggers (CR 605, 106)."""

from __future__ import annotations

import re
from typing import Any

from .base import Built, Ctx, mana_cost, number, template

# --- mana abilities -------------------------------------------------------------------------------

_BASIC = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def basic_land_mana(ctx: Ctx) -> list[Any]:
    """CR 305.6: a land with a basic land type has "{T}: Add [its mana symbol]" for each type.
    Two or more such {T} abilities are one ``one_of`` ability here: activating one of them is the
    same choice of a type (605.1a), and ``tap_for_mana: <id>`` then offers every type instead of
    taking the first ability."""
    syms = [sym for t, sym in _BASIC.items() if t in ctx["subtypes"]]
    if len(syms) > 1:
        return [{"mana": {"one_of": syms}, "cost": ["T"]}]
    return [{"mana": syms, "cost": ["T"]}] if syms else []


@template("mana", r"(?P<cost>[^:]+): add (?P<what>(\{[WUBRGC]\})+)\.", "CR 605.1a, 106.1")
def _mana(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{T}: Add {G}." / "{T}: Add {C}{C}.": a mana ability (605.1a) producing those mana symbols."""
    c = mana_cost(m.group("cost"))
    if c is None:
        return None
    syms = [s.upper() for s in re.findall(r"\{([WUBRGC])\}", m.group("what"), re.IGNORECASE)]
    return [{"mana": syms, "cost": c}], []


@template("mana_one_of", r"(?P<cost>[^:]+): add (?P<what>\{[WUBRGC]\}(?:, \{[WUBRGC]\})*,? or \{[WUBRGC]\})\.", "CR 605.1a, 106.1")
def _mana_one_of(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{T}: Add {R} or {G}." / "{T}: Add {W}, {U}, or {B}.": one mana ability whose controller
    chooses one of these types as it resolves (605.1a, 106.1)."""
    c = mana_cost(m.group("cost"))
    if c is None:
        return None
    syms = [s.upper() for s in re.findall(r"\{([WUBRGC])\}", m.group("what"), re.IGNORECASE)]
    return [{"mana": {"one_of": syms}, "cost": c}], []


_PAIN = r" ~ deals (?P<pain>\d+) damage to you\."


@template("mana_with_damage", rf"(?P<cost>[^:]+): add (?P<what>(?:\{{[WUBRGC]\}})+|\{{[WUBRGC]\}}(?:, \{{[WUBRGC]\}})*,? or \{{[WUBRGC]\}}|one mana of any color)\.{_PAIN}", "CR 605.1a, 605.3a, 106.1")
def _painland(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{T}: Add {W} or {B}. This land deals 1 damage to you." (the painlands), "{T}: Add one mana
    of any color. ~ deals 1 damage to you.": a mana ability (605.1a) that also deals damage to its
    controller as it resolves (605.3a), whatever mana it ends up producing."""
    c = mana_cost(m.group("cost"))
    if c is None:
        return None
    what = m.group("what").lower()
    syms = [s.upper() for s in re.findall(r"\{([WUBRGC])\}", what, re.IGNORECASE)]
    mana: Any = "any_color" if what == "one mana of any color" else {"one_of": syms} if " or " in what else syms
    return [{"mana": mana, "cost": c, "then": {"deal": int(m.group("pain")), "to": "you"}}], []


@template("mana_any_color", r"(?P<cost>[^:]+): add (?P<n>one|two|three) mana of any (?:one )?color\.", "CR 605.1a, 106.1")
def _mana_any(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{T}: Add one mana of any color." / "{T}: Add two mana of any one color.": its controller
    chooses one colour (605.1a), the amount of mana of that colour."""
    c = mana_cost(m.group("cost"))
    n = number(m.group("n"))
    if c is None or (n != 1 and " one color" not in m.group(0).lower()):
        return None
    ab: dict[str, Any] = {"mana": "any_color", "cost": c}
    if n != 1:
        ab["amount"] = n
    return [ab], []


@template("mana_of_lands", r"(?P<cost>[^:]+): add one mana of any (?P<kind>color|type) that a land (?P<whose>you|an opponent) controls? could produce\.", "CR 106.7, 605.1a")
def _orchard(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{T}: Add one mana of any color that a land an opponent controls could produce." (Exotic
    Orchard, Fellwar Stone) / "... any type that a land you control could produce." (Reflecting
    Pool): what those lands could produce (106.7)."""
    c = mana_cost(m.group("cost"))
    if c is None:
        return None
    key = "any_color_of" if m.group("kind").lower() == "color" else "any_type_of"
    lands = "lands you control" if m.group("whose").lower() == "you" else "lands an opponent controls"
    return [{"mana": {key: lands}, "cost": c}], []


@template("mana_doubling", r"if you tap a permanent for mana, it produces twice as much of that mana instead\.", "CR 106.12, 614.1a")
def _mana_reflection(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If you tap a permanent for mana, it produces twice as much of that mana instead." (Mana
    Reflection): a replacement effect on mana production (106.12)."""
    return [{"multiply_mana": 2, "to": "permanents you control"}], []


@template("tapped_for_mana_damage", r"whenever a player taps an? (?P<what>land|nonbasic land|creature) for mana, ~ deals (?P<n>\d+) damage to that player\.", "CR 605.1a, 603.2")
def _manabarbs(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever a player taps a land for mana, ~ deals 1 damage to that player." (Manabarbs): a
    trigger on a permanent being tapped for mana (605, 603.2)."""
    return [{"trigger": "tapped_for_mana", "from": m.group("what").lower() + "s", "do": {"deal": int(m.group("n")), "to": "that player"}}], []


@template("mana_chosen_color", r"(?P<cost>[^:]+): add one mana of the chosen color\.", "CR 605.1a, 614.1c, 106.1")
def _mana_chosen(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{T}: Add one mana of the chosen color." (Coldsteel Heart, Sol Grail): a mana ability adding
    the colour chosen as the permanent entered ("As ~ enters, choose a color.", 614.1c), which a
    case gives as the permanent's ``chosen_color:`` (required with this ability)."""
    c = mana_cost(m.group("cost"))
    if c is None:
        return None
    return [{"mana": "chosen_color", "cost": c}], []


@template("mana_tapping_a_creature", r"(?P<cost>[^:]+), tap an untapped creature you control: add one mana of any color\.",
          "CR 605.1a, 601.2h, 106.1")
def _mana_tapping_a_creature(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{T}, Tap an untapped creature you control: Add one mana of any color." (Springleaf Drum,
    Survivors' Encampment): a mana ability whose cost also taps an untapped creature its
    controller controls (its choice as the cost is paid, 601.2h; not the permanent itself, which
    {T} taps)."""
    c = mana_cost(m.group("cost"))
    if c is None:
        return None
    return [{"mana": "any_color", "cost": [*c, {"tap": "creatures you control"}]}], []
