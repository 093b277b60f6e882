"""Spells with X (CR 107.3: X is the value its caster chose as it was cast, 601.2b, 107.3a):
Fireball's even division, "~ deals X damage divided evenly, rounded down, among any number of
targets." (its extra cost per target is ignored: mana isn't tracked), and Banefire's "If X is 5 or
more, this spell can't be countered and the damage can't be prevented." (101.2, 615.12: static
abilities of the spell that apply only while its X is at least 5)."""

from __future__ import annotations

import re

from .base import Built, Ctx, number, template

# read by templates.read_line before the templates (a spell's static ability, not a spell ability)
X_AT_LEAST = re.compile(r"^if x is (?P<n>\d+) or more, ~ can't be countered and the damage can't be prevented\.$", re.IGNORECASE)
X_AT_LEAST_RULE = "CR 107.3, 101.2, 615.12"


def x_at_least(m: re.Match[str]) -> list[dict[str, object]]:
    """Banefire's line: can't be countered (101.2) and its damage can't be prevented (615.12), each
    only if the spell's X is at least N."""
    n = int(m.group("n"))
    return [{"cant_be_countered": True, "if_x_at_least": n},
            {"cant_be_prevented": True, "from": "self", "if_x_at_least": n}]


@template("spell_divided_evenly", r"~ deals (?P<n>\d+|X) damage divided evenly, rounded down, among any number of targets\.",
          "CR 107.3, 601.2c, 115.1")
def _evenly(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ deals X damage divided evenly, rounded down, among any number of targets." (Fireball):
    each chosen target is dealt X divided by the number of targets, rounded down; nothing to
    announce (601.2d is a division the caster chooses)."""
    if not {"instant", "sorcery"} & set(ctx["types"]):
        return None
    n = m.group("n")
    amount: object = "X" if n.upper() == "X" else int(n)
    return [{"spell": {"deal": amount, "to": "target", "divided": "evenly"}, "target": "any",
             "targets": {"min": 1, "max": "any"}}], []


@template("enters_with_counters", r"~ enters with (?P<n>x|a|an|one|two|three|four|five|six|\d+) (?P<kind>\+1/\+1|-1/-1) counters? on it\.",
          "CR 614.1c, 107.3m, 122.1")
def _enters_with(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ enters with X +1/+1 counters on it." (Balduvian Hydra; 614.1c: a replacement of its
    entering; X is the X paid for the spell that became it, 107.3m: ``enter: {x: N}``). A permanent
    already on the battlefield has the counters its case gives."""
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    n = number(m.group("n"))
    return None if n is None else ([{"enters_with": {m.group("kind"): n}}], [])
