"""Fights and bites with two targets (CR 701.14, 601.2c): "Target creature you control fights target
creature you don't control." (Prey Upon), and the forms that pump the first creature or put a
counter on it first ("Target creature you control gets +1/+1 until end of turn. It fights target
creature you don't control.", "Put a +1/+1 counter on target creature you control. Then that
creature fights / deals damage equal to its power to target creature you don't control."). The
spell's ``target:`` is the first creature, ``second_target:`` the other; a later untargeted
sentence is another part of the spell (608.2c)."""

from __future__ import annotations

import re
from typing import Any

from .base import TARGETS, Built, Ctx, number, recipient, spell_or_activated, template
from .twotargets import _SECOND, _rest, _spell

_FIRST = {"target creature you control": TARGETS["target creature you control"], "target creature": "creature"}
# what the first creature then does to the second: fight (701.14a) or bite (120.1, its power read
# as it resolves, 608.2h)
_ACTS: dict[str, dict[str, Any]] = {"fights": {"fight": "second target", "from": "target"},
         "deals damage equal to its power to": {"deal": {"power": "target"}, "from": "target", "to": "second target"}}
_ACT = r"(?P<act>fights|deals damage equal to its power to)"


def _two(first: str, second: str, rest: str | None) -> tuple[Any, Any, list[dict[str, Any]]] | None:
    """The first target's requirement, the second's (requirement, another), and the later parts."""
    req = _FIRST.get(first.lower())
    other = _SECOND.get(second.lower())
    more = _rest(rest)
    if req is None or other is None or more is None:
        return None
    if req == "creature" and not other[1]:
        return None  # "target creature fights target creature ...": only "another target creature" is read
    return req, other, more


def _with_second(ab: dict[str, Any], other: tuple[Any, bool]) -> dict[str, Any]:
    ab["second_target"] = other[0]
    if other[1]:
        ab["another"] = True
    return ab


@template("spell_fight", r"(?P<first>target creature(?: you control)?) fights (?P<second>[a-z' ]+?)\.(?: (?P<rest>.+))?",
          "CR 701.14a, 701.14b, 601.2c, 608.2b")
def _fight(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Target creature you control fights target creature you don't control." (Prey Upon): each
    deals damage equal to its power to the other at once (701.14a); if either is an illegal
    target or has left as it resolves, no damage is dealt (701.14b)."""
    if not _spell(ctx):
        return None
    got = _two(m.group("first"), m.group("second"), m.group("rest"))
    if got is None:
        return None
    req, other, more = got
    return [_with_second({"spell": dict(_ACTS["fights"]), "target": req}, other), *more], []


_PT = r"gets \+(?P<p>\d+)/\+(?P<t>\d+) until end of turn"


@template("spell_pump_then_fight", rf"(?P<first>target creature you control) {_PT}\. it {_ACT} (?P<second>[a-z' ]+?)\."
          r"(?: (?P<rest>.+))?", "CR 701.14a, 611.2c, 608.2c, 601.2c")
def _pump_then(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Target creature you control gets +1/+1 until end of turn. It fights target creature you
    don't control." (Swift Kick; "It deals damage equal to its power to ...": Clear Shot): the
    pump first, then the fight or bite with the new power, one resolution (608.2c, 608.2h)."""
    if not _spell(ctx):
        return None
    got = _two(m.group("first"), m.group("second"), m.group("rest"))
    if got is None:
        return None
    req, other, more = got
    pump = _with_second({"spell": {"pt": [int(m.group("p")), int(m.group("t"))], "to": "target"}, "target": req}, other)
    return [pump, {"spell": dict(_ACTS[m.group("act").lower()])}, *more], []


@template("spell_counter_then_fight", r"put (?P<n>a|an|one|two|three|\d+) \+1/\+1 counters? on (?P<first>target creature you control)"
          rf"(?:\. then that creature|, then it) {_ACT} (?P<second>[a-z' ]+?)\.(?: (?P<rest>.+))?",
          "CR 701.14a, 122.1, 608.2c, 601.2c")
def _counter_then(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Put a +1/+1 counter on target creature you control. Then that creature fights target
    creature you don't control." (Hunt the Weak; "... deals damage equal to its power to ...":
    Felling Blow): the counter first, then the fight or bite with its power then (608.2h)."""
    if not _spell(ctx):
        return None
    got = _two(m.group("first"), m.group("second"), m.group("rest"))
    n = number(m.group("n"))
    if got is None or not isinstance(n, int):
        return None
    req, other, more = got
    put = _with_second({"spell": {"put_counters": {"+1/+1": n}, "to": "target"}, "target": req}, other)
    return [put, {"spell": dict(_ACTS[m.group("act").lower()])}, *more], []


def _its_power_to(to_text: str) -> tuple[dict[str, Any], Any] | None:
    """``{deal: {power: self}, to: ...}`` and the target requirement for "... to <recipient>"."""
    rec = recipient(to_text)
    if rec is None:
        return None
    return {"deal": {"power": "self"}, "to": rec[0]}, rec[1]


@template("activated_it_deals_its_power", r"(?P<cost>[^:]+): it deals damage equal to its power to (?P<to>[^.:]+)\.",
          "CR 602.1, 120.1, 608.2h, 113.7a")
def _activated_its_power(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{R}, Sacrifice ~: It deals damage equal to its power to target creature." (Minotaur
    Illusionist): "it" is the permanent the ability is of; sacrificed as the cost is paid, its power
    is read as it last existed (608.2h, 113.7a)."""
    got = _its_power_to(m.group("to"))
    if got is None or "creature" not in ctx["types"]:
        return None
    return spell_or_activated(ctx, m.group("cost"), got[0], got[1], spell=False)


@template("own_trigger_it_deals_its_power", r"when ~ (?P<event>dies|enters|enters the battlefield), it deals damage equal to its power "
          r"to (?P<to>[^.:]+)\.", "CR 603.6a, 603.6c, 603.10a, 120.1, 608.2h")
def _trigger_its_power(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"When this creature dies, it deals damage equal to its power to any target." (Fireblade
    Charger) / "When ~ enters, it deals damage equal to its power to target creature ...": a
    trigger on its own event, "it" the creature itself (dying: its power as it last existed, 603.10a)."""
    got = _its_power_to(m.group("to"))
    if got is None or "creature" not in ctx["types"]:
        return None
    ab: dict[str, Any] = {"trigger": "dies" if m.group("event") == "dies" else "enters", "do": got[0]}
    if got[1] is not None:
        ab["target"] = got[1]
    return [ab], []
