"""Spells and activated abilities whose effect is one action, or a few done in order: damage,
life, cards (CR 602, 608); a static "exile it instead" (614.1a) and a next-N redirection (614.9).
Triggered abilities, whose instructions are read here too (:func:`ability_body`), are in
:mod:`.triggers`."""

from __future__ import annotations

import re
from typing import Any

from .base import TARGETS, Built, Ctx, cost, number, one_shot, recipient, template
from .pt import pt_sentence
from .sweepers import (
    LIFE_LOST_THIS_WAY,
    NO_REGENERATE,
    TARGET_POWER_LIFE,
    cant_be_regenerated,
    gain_life_lost,
    gain_target_power,
)

# --- damage, life and cards -----------------------------------------------------------------------

@template("spell_one_shot", r"(?P<what>[^.:]+)\.", "CR 608.2, 120.1, 119.3, 121.1")
def _spell(m: re.Match[str], ctx: Ctx) -> Built | None:
    """An instant's or sorcery's effect (608.2): "~ deals 3 damage to any target.", "You gain 4
    life.", "Draw two cards.", "Each opponent loses 2 life."."""
    if not {"instant", "sorcery"} & set(ctx["types"]):
        return None
    got = one_shot(m.group("what"), allow_target=True) or _deal_and_deal(m.group("what"))
    if got is None or not _controller_named(m.group("what"), [got]):
        return None
    action, req = got
    ab: dict[str, Any] = {"spell": action}
    if req is not None:
        ab["target"] = req
    return [ab], []


# "divided as you choose among one or two targets": how many targets (min, max; None: any number)
_HOW_MANY = {"one or two": (1, 2), "one, two, or three": (1, 3), "any number of": (1, None)}
# the plural target phrases (115.1): the requirement each of the targets meets
_PLURAL_TARGETS: dict[str, Any] = {
    "targets": "any",
    "target creatures": "creature",
    "target creatures and/or planeswalkers": ["creatures", "planeswalkers"],
    "target creatures your opponents control": "creatures an opponent controls",
    "target creatures and/or planeswalkers your opponents control":
        ["creatures an opponent controls", "planeswalkers an opponent controls"],
    "target attacking creatures": {"types": ["creature"], "in_combat": ["attacking"]},
    "target attacking or blocking creatures": {"types": ["creature"], "in_combat": ["attacking", "blocking"]},
    "target creatures with flying": {"types": ["creature"], "with": ["flying"]},
}


@template("spell_divided_damage", r"~ deals (?P<n>\d+|X) damage divided as you choose among "
          r"(?P<many>one or two|one, two, or three|any number of) (?P<what>[^.,]+)\.", "CR 601.2d, 601.2c, 115.1")
def _divided(m: re.Match[str], ctx: Ctx) -> Built | None:
    """An instant's or sorcery's divided damage (601.2d: the division is announced as it is cast,
    each target at least 1; the targets are distinct, 601.2c): "~ deals 2 damage divided as you
    choose among one or two targets." (Forked Bolt), "... one, two, or three targets." (Arc
    Lightning), "... any number of target creatures." (Fire Covenant's shape)."""
    if not {"instant", "sorcery"} & set(ctx["types"]):
        return None
    req = _PLURAL_TARGETS.get(m.group("what").lower())
    if req is None:
        return None
    lo, hi = _HOW_MANY[m.group("many").lower()]
    n = m.group("n")
    amount: Any = int(n) if n.isdigit() else "X"
    return [{"spell": {"deal": amount, "to": "target", "divided": True}, "target": req,
             "targets": {"min": lo, "max": hi if hi is not None else "any"}}], []


_EACH_OF = {"two": 2, "three": 3}
# "each of two targets": singular phrases after "target" read as the plural requirement
_EACH_OF_TARGETS = {"targets": "targets", "target creatures": "target creatures",
                    "target creatures and/or planeswalkers": "target creatures and/or planeswalkers"}


@template("spell_each_of_targets", r"~ deals (?P<n>\d+|X) damage to each of (?P<k>two|three) (?P<what>targets|target creatures|"
          r"target creatures and/or planeswalkers)\.", "CR 601.2c, 115.1")
def _each_of(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ deals 2 damage to each of two targets." (Furious Reprisal), "... to each of two target
    creatures." (Jagged Lightning): an instant's or sorcery's damage to exactly that many distinct
    targets (601.2c), each dealt the whole amount, one simultaneous batch (120.2)."""
    if not {"instant", "sorcery"} & set(ctx["types"]):
        return None
    req = _PLURAL_TARGETS[_EACH_OF_TARGETS[m.group("what").lower()]]
    k = _EACH_OF[m.group("k").lower()]
    n = m.group("n")
    return [{"spell": {"deal": int(n) if n.isdigit() else "X", "to": "target"}, "target": req,
             "targets": {"min": k, "max": k}}], []


_SUBJECT = re.compile(r"^(target player|target opponent|each opponent|each player|you) ")
_SENTENCE = re.compile(r"(?<=\.) (?=[A-Z~])")


def action_parts(text: str, that_much: bool = False, whole: bool = True) -> list[tuple[dict[str, Any], Any]] | None:
    """The actions of a spell's text, in the order written (608.2c), each with its target
    requirement or None: sentences, and clauses joined by "and" ("~ deals 3 damage to any target
    and you gain 3 life"); a clause without a subject takes the one before it ("target player
    draws two cards and loses 2 life": the same player, the same target). None when a clause
    isn't one action of the vocabulary."""
    out: list[tuple[dict[str, Any], Any]] = []
    for sentence in _SENTENCE.split(text.strip()):
        if not sentence.endswith("."):
            return None
        if NO_REGENERATE.match(sentence):
            if not cant_be_regenerated(out):  # "It can't be regenerated." after a destruction (701.19c)
                return None
            continue
        if LIFE_LOST_THIS_WAY.match(sentence):
            if not gain_life_lost(out):  # "You gain life equal to the life lost this way." (119.3)
                return None
            continue
        clauses = _clauses(sentence[:-1], that_much)
        if clauses is None:
            return None
        out.extend(clauses)
    return out if not whole or _controller_named(text, out) else None


_PERMANENT_WORDS = ("creature", "land", "artifact", "enchantment", "planeswalker", "battle", "permanent")


def _controller_named(text: str, parts: list[tuple[dict[str, Any], Any]]) -> bool:
    """"that creature's controller" (the vocabulary's ``target's controller``) names the
    controller of the ability's one target, which must be a permanent of that kind: "Destroy
    target land. ~ deals 2 damage to that land's controller." (608.2h: as it last existed)."""
    def named(action: dict[str, Any]) -> bool:
        return "target's controller" in (action.get("to"), action.get("who")) or \
            any(p.get("to") == "target's controller" for p in action.get("also", ()))
    if not any(named(a) for a, _ in parts):
        return True
    reqs = [r for _, r in parts if r is not None]
    nouns = {n.lower() for n in re.findall(r"that (\w+)'s controller", text, re.IGNORECASE)}
    if re.search(r"\bits controller\b", text, re.IGNORECASE):
        nouns.add("permanent")  # "Its controller loses 2 life.": the target's, a permanent of any kind
    return len(reqs) == 1 and bool(nouns) and all(_permanent_req(reqs[0], n) for n in nouns)


def _permanent_req(req: Any, noun: str) -> bool:
    """Does every object the target requirement ``req`` allows be a permanent ``noun`` names?"""
    for e in req if isinstance(req, list) else [req]:
        if isinstance(e, dict):
            types = e.get("types") or []
            if not types or not all(t in _PERMANENT_WORDS for t in types) or (noun != "permanent" and types != [noun]):
                return False
            continue
        word = str(e).split()[0]
        singular = word[:-1] if word.endswith("s") else word
        if singular not in _PERMANENT_WORDS or (noun != "permanent" and singular != noun):
            return False
    return True


def _clauses(text: str, that_much: bool = False) -> list[tuple[dict[str, Any], Any]] | None:
    whole = one_shot(text, allow_target=True, that_much=that_much)
    if whole is not None:
        return [whole]
    both = _deal_and_deal(text)
    if both is not None:
        return [both]
    for m in re.finditer(r" and ", text):
        left, right = text[: m.start()], text[m.end():]
        first = one_shot(left, allow_target=True, that_much=that_much)
        if first is None:
            continue
        second = one_shot(right, allow_target=True, that_much=that_much)
        subject = _SUBJECT.match(left.lower())
        if second is None and subject is not None and not right.lower().startswith(("you ", "each ", "target ", "~ ")):
            inherited = one_shot(f"{subject.group(1)} {right}", allow_target=True, that_much=that_much)
            if inherited is not None:
                second = (inherited[0], None)  # the same target as the clause it continues
        if second is not None:
            return [first, second]
    return None


_MORE_DAMAGE = re.compile(r"^(?P<n>\d+|x) damage to (?P<to>.+)$", re.IGNORECASE)
_WHERE_X = re.compile(r"^(?P<body>.+), where x is (?P<amt>.+)$", re.IGNORECASE)


def _deal_and_deal(text: str) -> tuple[dict[str, Any], Any] | None:
    """"~ deals 2 damage to any target and 3 damage to you" (Goblin Artillery): the same source's
    damage to both at the same time (120.2), one ``deal`` with ``also:``; the second recipient is
    no target of its own. "..., where X is <amount>" (Sparksmith) gives both X's (608.2h)."""
    amt: Any = None
    if w := _WHERE_X.match(text):
        from .amounts import read_amount

        text, amt = w.group("body"), read_amount(w.group("amt"))
        if amt is None:
            return None
    for m in re.finditer(r" and ", text):
        first = one_shot(text[: m.start()], allow_target=True)
        more = _MORE_DAMAGE.match(text[m.end():])
        if first is None or more is None or "deal" not in first[0] or first[0].get("also"):
            continue
        rec = recipient(more.group("to"))
        if rec is None or rec[1] is not None:
            return None
        action = dict(first[0])
        n = number(more.group("n"))
        if amt is not None:
            if action["deal"] != "X" or n != "X":
                return None
            action["deal"], n = amt, amt
        elif "X" in (action["deal"], n) and action["deal"] != n:
            return None
        action["also"] = [{"deal": n, "to": rec[0]}]
        return action, first[1]
    return None


def ability_body(text: str, that_much: bool = False) -> tuple[Any, Any] | None:
    """A triggered or activated ability's instructions (``text`` ends with its full stop): the
    ``do:`` (one action, or a list done in order as one resolution, 608.2c) and its target
    requirement or None; one target at most. "it deals 2 damage to any target" alone stays the
    vocabulary's ``{deal: 2, to: any}``; a target is chosen as the trigger is put on the stack
    (603.3d) or the ability is activated (602.2b)."""
    parts = action_parts(text, that_much)
    if parts is None or sum(req is not None for _, req in parts) > 1:
        return None
    req = next((r for _, r in parts if r is not None), None)
    if len(parts) == 1:
        action = parts[0][0]
        if req == "any" and action.get("to") == "target" and "deal" in action:
            return {**action, "to": "any"}, None
        return action, req
    return [a for a, _ in parts], req


# (not "a creature dealt damage this way": that one is exiled only if the spell dealt it damage,
# which prevention can stop; "that creature" is the target whatever was dealt, 614.1a)
_EXILE = re.compile(r"^if (?P<what>that creature|that creature or planeswalker) would die this turn, exile it instead\.$",
                    re.IGNORECASE)
# "If a creature dealt damage this way would die this turn, exile it instead." (614.1a): the
# spell's own damage, so the permanents the spell (the source) dealt damage to (120.1)
_EXILE_DEALT = re.compile(r"^if a (?P<what>creature|permanent) dealt damage this way would die this turn, exile it instead\.$",
                          re.IGNORECASE)
# the target requirements for which "that creature ..." is the target itself
_EXILE_TARGETS: dict[str, tuple[Any, ...]] = {
    "that creature": ("creature", "creatures an opponent controls", "creatures you control"),
    "that creature or planeswalker": (["creatures", "planeswalkers"],),
}


@template("spell_parts", r"(?P<what>[^:]+\.)", "CR 608.2c, 608.2b")
def _spell_parts(m: re.Match[str], ctx: Ctx) -> Built | None:
    """An instant's or sorcery's effect of several actions, done in the order written (608.2c):
    "~ deals 3 damage to any target and you gain 3 life." (Lightning Helix), "~ deals 2 damage to
    any target. Draw a card.", "Target player loses 2 life and you gain 2 life.", "Target creature
    gets +2/+2 until end of turn. Draw a card." (a ``pt`` effect, :mod:`.pt`). One target at
    most (a spell with two targets isn't modelled); each part is a ``spell:`` ability, the first
    targeted one carrying the ``target:``, and a spell whose target is illegal as it resolves
    does none of them (608.2b)."""
    if not {"instant", "sorcery"} & set(ctx["types"]):
        return None
    parts: list[tuple[dict[str, Any], Any]] | None = []
    sentences = _SENTENCE.split(m.group("what").strip())
    for sentence in sentences:
        if NO_REGENERATE.match(sentence):
            if parts is None or not cant_be_regenerated(parts):  # (701.19c, after a destruction)
                return None
            continue
        if LIFE_LOST_THIS_WAY.match(sentence):
            if parts is None or not gain_life_lost(parts):  # (119.3, after a loss of life)
                return None
            continue
        if tp := TARGET_POWER_LIFE.match(sentence):
            if parts is None or not gain_target_power(parts, tp.group("who")):  # (608.2h: the target's power)
                return None
            continue
        if (e := _EXILE.match(sentence)) and parts:
            # "If that creature would die this turn, exile it instead." (614.1a): on the target,
            # which must be what "that creature (or planeswalker)" names
            req = next((r for _, r in parts if r is not None), None)
            if req not in _EXILE_TARGETS[e.group("what").lower()]:
                return None
            parts.append(({"exile_instead": True, "to": "target"}, None))
            continue
        if (e := _EXILE_DEALT.match(sentence)) and parts and any("deal" in a for a, _ in parts):
            # only damage the spell itself deals (it is the source, 120.1): prevented damage isn't dealt
            parts.append(({"exile_instead": True, "to": {"types": [e.group("what").lower()], "dealt_damage_by": "self"}}, None))
            continue
        got = pt_sentence(sentence)  # "target creature gets +2/+2 until end of turn."
        if got is not None and got[0].get("to") == "self":
            # a spell's "It gains lifelink ..." after "target creature" is about that target (608.2c),
            # never the spell itself; without an earlier target it isn't read
            if parts is None or not any(req is not None for _, req in parts):
                return None
            got = ({**got[0], "to": "target"}, None)
        more = [got] if got is not None else action_parts(sentence, whole=False)
        if more is None or parts is None:
            return None
        parts.extend(more)
    if parts is None or len(parts) < 2 and len(sentences) < 2 or sum(req is not None for _, req in parts) > 1 \
            or not _controller_named(m.group("what"), parts):
        return None
    out: list[Any] = []
    for action, req in parts:
        ab: dict[str, Any] = {"spell": action}
        if req is not None:
            ab["target"] = req
        out.append(ab)
    return out, []


@template("activated_one_shot", r"(?P<cost>[^:]+): (?P<what>[^:]+\.)", "CR 602.1, 608.2c, 120.1, 119.3, 121.1")
def _activated(m: re.Match[str], ctx: Ctx) -> Built | None:
    """An activated ability (602.1) whose effect is one action, or several done in order
    (608.2c): "{T}: ~ deals 1 damage to any target.", "{2}, {T}: You gain 1 life.", "{1}, Pay 1
    life: Draw a card.", "{2}, {T}: You gain 2 life and draw a card."; one target at most."""
    c = cost(m.group("cost"))
    parts = action_parts(m.group("what"))
    if c is None or parts is None or sum(req is not None for _, req in parts) > 1:
        return None
    req = next((r for _, r in parts if r is not None), None)
    ab: dict[str, Any] = {"activated": parts[0][0] if len(parts) == 1 else [a for a, _ in parts]}
    if req is not None:
        ab["target"] = req
    if c:
        ab["cost"] = c
    return [ab], []


@template("exile_dealt_damage_by_self", r"if a creature dealt damage by ~ this turn would die, exile it instead\.", "CR 614.1a, 120.1")
def _exile_dealt_by(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a creature dealt damage by ~ this turn would die, exile it instead." (Kumano's Pupils):
    a static replacement of dying (614.1a) for the creatures it dealt damage to this turn (during
    the case's actions, or named by a permanent's ``dealt_damage_by:``)."""
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    return [{"exile_instead": True, "to": {"types": ["creature"], "dealt_damage_by": "self"}}], []


@template("redirect_next_n_to_target", r"(?P<cost>[^:]+): the next (?P<n>\d+) damage that would be dealt to ~ this turn is "
          r"dealt to (?P<to>target creature you control|target creature|any target) instead\.", "CR 615.7, 614.9, 602.1")
def _en_kor(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{0}: The next 1 damage that would be dealt to this creature this turn is dealt to target
    creature you control instead." (Nomads en-Kor): a partial redirection (614.9) of the next N
    damage to it (615.7), to the target chosen as it is activated (602.2b)."""
    c = cost(m.group("cost"))
    if c is None:
        return None
    ab: dict[str, Any] = {"activated": {"redirect": "target", "shield": int(m.group("n")), "to": "self"},
                          "target": TARGETS[m.group("to").lower()]}
    if c:
        ab["cost"] = c
    return [ab], []
