"""Static power/toughness and keyword changes that apply only while their controller's life total
is in a range (CR 611.3a, 613.4c, 613.1f, 119.1): "~ gets +2/+1 as long as you have 25 or more
life." (Honor Troll), "As long as you have 30 or more life, ~ gets +5/+5 and has flying." (Serra
Ascendant), "As long as you have at least 7 life more than your starting life total, creatures you
control get +2/+2." (Leyline of Hope, 103.4), "Fateful hour — As long as you have 5 or less life,
other creatures you control get +2/+2." (Thraben Doomsayer; an ability word has no rules meaning,
207.2c), "As long as your life total is greater than (or equal to) your starting life total, ...".

The condition is read whenever the effect is (611.3a): by the state-based check after damage and
a simultaneous lifelink gain alike (510.2, 120.3f, 704.3), so a creature whose toughness the gain
raises survives (Honor Troll's ruling)."""

from __future__ import annotations

import re
from typing import Any

from .base import Built, Ctx, template
from .pt import pt_and_keywords

_RULE = "CR 611.3a, 613.4c, 613.1f, 119.1, 103.4"
_PT = r"(?P<p>[+-]\d+)/(?P<t>[+-]\d+)"
_WHO = {"~": "self", "creatures you control": "creatures you control",
        "other creatures you control": "other creatures you control",
        "equipped creature": "equipped creature", "enchanted creature": "enchanted creature"}
_WHO_RE = r"(?P<who>~|(?:other )?creatures you control|equipped creature|enchanted creature)"
_CHANGE = rf"(?:gets? {_PT}(?: and (?:has|have) (?:(?P<kws>[a-z ,]+?)))?|(?:has|have) (?P<kws2>[a-z ,]+?))"
_COND = (r"(?:you have (?P<n>\d+) or (?P<dir>more|less) life|you have at least (?P<start>\d+) life more than your "
         r"starting life total|your life total is (?P<rel>greater than or equal to|greater than) your starting life total)")


def _condition(m: re.Match[str]) -> dict[str, Any]:
    """The effect's ``if_life_at_least`` / ``if_life_at_most`` (model.vocab.lifecond)."""
    if m.group("n"):
        key = "if_life_at_least" if m.group("dir").lower() == "more" else "if_life_at_most"
        return {key: int(m.group("n"))}
    if m.group("start"):
        return {"if_life_at_least": {"starting_plus": int(m.group("start"))}}
    # "greater than" a whole number: at least one more (119.1)
    return {"if_life_at_least": {"starting_plus": 0 if "equal" in m.group("rel").lower() else 1}}


def _build(m: re.Match[str], ctx: Ctx) -> Built | None:
    if {"instant", "sorcery"} & set(ctx["types"]) or not ctx["types"]:
        return None  # a permanent's static ability (611.3a)
    who = _WHO[m.group("who").lower()]
    if who == "self" and "creature" not in ctx["types"]:
        return None
    effect = pt_and_keywords(m)  # (the same "gets +N/+N and has ..." as without a condition)
    if effect is None:
        return None
    return [{**effect, "to": who, **_condition(m)}], []


@template("pt_life_condition_after", rf"{_WHO_RE} {_CHANGE} as long as {_COND}\.", _RULE)
def _after(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ gets +2/+1 as long as you have 25 or more life." (Honor Troll, Angel of Vitality)."""
    return _build(m, ctx)


@template("pt_life_condition_before", rf"(?:[a-z ]+ — )?as long as {_COND}, {_WHO_RE} {_CHANGE}\.", _RULE + ", 207.2c")
def _before(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"As long as you have at least 7 life more than your starting life total, creatures you
    control get +2/+2." (Leyline of Hope) / "Fateful hour — As long as you have 5 or less life,
    other creatures you control get +2/+2." (Thraben Doomsayer)."""
    return _build(m, ctx)
