"""Amounts read from the game as an action resolves (CR 608.2h): "deals damage to target creature
equal to the number of lands you control", "deals X damage to any target, where X is 2 plus the
number of Mountains you control", "~ deals damage equal to its power to any target".

Each becomes the vocabulary's ``{count: <selector>}`` (optionally ``times:`` and ``plus:``) or
``{power: self}`` (:func:`model.vocab.action_amount`); a counted phrase must be one the selector
language reads as permanents (a phrase it doesn't know, "cards in your hand", makes the line not
understood).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from mtg_outcomes.model.selectors import SelectorError, parse_selector

from ..selectors import SelectorKind
from .base import WORDS, recipient

__all__ = ["read_amount", "deal_equal_to"]

# "equal to the number of cards in that player's hand" (Stormbreath Dragon): each recipient's own
_HAND = ("the number of cards in that player's hand", "the number of cards in their hand")
_AMOUNT = re.compile(r"^(?:(?P<plus>\d+|one|two|three|four|five) plus )?(?P<twice>twice )?the number of (?P<what>.+)$")


def _counted(what: str) -> Any | None:
    """The selector text for "lands you control", "Goblins on the battlefield", ... or None."""
    if what.endswith(" on the battlefield"):
        got = _objects(what[: -len(" on the battlefield")] + " you control")
        return None if got is None else dataclasses.replace(got, controller="")
    for tail in ("you control", "your opponents control", "an opponent controls"):
        if what.endswith(" " + tail):
            head = what[: -len(tail) - 1]
            return _objects(f"{head} {'an opponent controls' if tail != 'you control' else tail}")
    return None


def _objects(phrase: str) -> Any | None:
    try:
        got = parse_selector(phrase)
    except SelectorError:
        return None
    return got if got.kind == SelectorKind.OBJECTS and got.controller in ("you", "opponents") else None


def _objects_any(phrase: str) -> Any | None:
    try:
        return parse_selector(phrase)
    except SelectorError:
        return None


def read_amount(phrase: str) -> Any | None:
    """The vocabulary's amount for "the number of lands you control", "2 plus the number of ...",
    "twice the number of ..." (608.2h), or None."""
    if phrase.strip().lower() in _HAND:
        return "cards_in_hand"  # the recipient player's (402.1): read for each player dealt it (model.load.hands)
    m = _AMOUNT.match(phrase.strip().lower())
    if m is None:
        return None
    counted = _counted(m.group("what"))
    if counted is None:
        return None
    text = str(counted)  # written as a case file writes it; it must read back as the same selector
    if _objects_any(text) != counted:
        return None
    out: dict[str, Any] = {"count": text}
    if m.group("twice"):
        out["times"] = 2
    if m.group("plus"):
        raw = m.group("plus")
        out["plus"] = int(raw) if raw.isdigit() else WORDS[raw]
    return out


_EQUAL = (re.compile(r"^(?P<who>~|it) deals damage to (?P<to>.+?) equal to (?P<amt>.+)$"),
          re.compile(r"^(?P<who>~|it) deals damage equal to (?P<amt>.+?) to (?P<to>.+)$"),
          re.compile(r"^(?P<who>~|it) deals x damage to (?P<to>.+?), where x is (?P<amt>.+)$"))


_ITSELF = re.compile(r"^(?P<who>target [a-z' ]+|each [a-z' ]+) deals damage to itself equal to its power$")


def _creatures_only(rec: tuple[Any, Any]) -> bool:
    """Is every object the recipient phrase names a creature (only objects with power deal it)?"""
    to, req = rec
    what = req if req is not None else to
    for e in what if isinstance(what, list) else [what]:
        if isinstance(e, dict):
            if e.get("types") != ["creature"]:
                return False
        elif str(e).split()[0] not in ("creature", "creatures", "other"):
            return False
        elif str(e).startswith("other") and "creature" not in str(e):
            return False
    return True


def deal_equal_to(low: str, allow_target: bool) -> tuple[dict[str, Any], Any] | None:
    """"~ deals damage to <recipient> equal to <amount>" and its other word orders as a ``deal``
    one-shot and its target requirement (120.1, 608.2h), or None. "its power" only with ~ as
    the subject (the object the ability is of; "it" may be another object in a trigger)."""
    if m := _ITSELF.match(low):
        # "target creature deals damage to itself equal to its power" (the target is the source,
        # 120.1); "each creature deals damage to itself ...": each one the source of its own (120.2)
        rec = recipient(m.group("who"))
        if rec is None or not _creatures_only(rec):
            return None
        to, req = rec
        if req is not None:
            return ({"deal": {"power": "target"}, "to": "target", "from": "target"}, req) if allow_target else None
        return {"deal": {"power": "itself"}, "to": to, "from": "itself"}, None
    for pattern in _EQUAL:
        m = pattern.match(low)
        if m is None:
            continue
        amt_text = m.group("amt")
        amt: Any
        if amt_text in ("its power", "~'s power") and m.group("who") == "~":
            amt = {"power": "self"}
        else:
            amt = read_amount(amt_text)
        rec = recipient(m.group("to"))
        if amt is None or rec is None:
            return None
        to, req = rec
        if req is not None and not allow_target and req != "any":
            return None
        if not allow_target and req == "any":
            return {"deal": amt, "to": "any"}, None
        return {"deal": amt, "to": to}, req
    return None


# "for each <thing>" (608.2h): the head action's amount times the number of those things
_FOR_EACH = re.compile(r"^(?P<head>.+) for each (?P<what>[a-z' -]+?)"
                       r"(?P<tail> you control| your opponents control| an opponent controls| on the battlefield)$")
# the kinds of one-shot action whose amount "for each" multiplies (their key is the amount)
_COUNTED_KINDS = ("deal", "gain_life", "lose_life", "draw", "get_energy", "create_tokens")


def _plural(word: str) -> str:
    """The plural of the last word of a counted phrase: "creature" -> "creatures", "Elf" -> "Elves"."""
    if word.endswith("f"):
        return word[:-1] + "ves"
    if word.endswith("y") and word[-2:-1] not in tuple("aeiou"):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def for_each(low: str, allow_target: bool, that_much: bool = False) -> tuple[dict[str, Any], Any] | None:
    """"you gain 1 life for each creature you control", "each opponent loses 1 life for each
    creature you control", "draw a card for each Wolf you control", "it deals 1 damage to target
    opponent for each Swamp you control": the action with its fixed amount N replaced by ``{count:
    <selector>, times: N}``, read as the action resolves (608.2h); None unless the head is one
    action of a whole-number amount and the counted phrase one the selector language reads."""
    from .base import one_shot  # (base reads this module)

    m = _FOR_EACH.match(low)
    if m is None:
        return None
    words = m.group("what").split()
    if not words:
        return None
    counted = read_amount("the number of " + " ".join(words[:-1] + [_plural(words[-1])]) + m.group("tail"))
    head = one_shot(m.group("head"), allow_target, that_much)
    if counted is None or head is None:
        return None
    action, req = head
    kinds = [k for k in _COUNTED_KINDS if k in action]
    if len(kinds) != 1 or not isinstance(action[kinds[0]], int) or isinstance(action[kinds[0]], bool) \
            or action[kinds[0]] < 1 or action.get("also") or action.get("divided"):
        return None
    n = action[kinds[0]]
    return {**action, kinds[0]: counted if n == 1 else {**counted, "times": n}}, req
