"""One-shot actions: an instruction of a spell or ability (CR 608.2), e.g. deal, gain life, draw,
put counters, destroy."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..errors import CaseError
from ..kinds import ActionKind
from ..selectors import Selector, SelectorKind
from ..types import (
    OneShot,
)
from .common import (
    ONE_SHOT_KINDS,
    PERMANENT_SHOTS,
    _bool,
    _mapping,
    _one_counter_kind,
    _parts,
    action_amount,
    amount,
    sel,
)
from .effects import _rider
from .exiled import add_mana, if_not_cast


def parse_one_shot(value: Any, path: str, divided_ok: bool = False) -> OneShot:
    """``{deal: 3, to: A}``, ``{lose_life: N, who: opponents}``, ``{may: {...}}``."""
    m = _mapping(value, path, "a one-shot action")
    if set(m) == {"may"}:
        inner = parse_one_shot(m["may"], f"{path}.may")
        return dataclasses.replace(inner, may=True)
    kinds = [k for k in m if k in ONE_SHOT_KINDS]
    if len(kinds) != 1:
        raise CaseError(path, f"expected exactly one of {', '.join(ONE_SHOT_KINDS)}")
    kind = kinds[0]
    if kind in ("put_counters", "remove_counters"):
        return _put_counters(m, path, kind)
    if kind == "create_tokens":
        return _create_tokens(m, path)
    if kind == "become_monarch":
        # {become_monarch: you}: "you become the monarch" (724.3); the value names the player
        for key in m:
            if key not in (kind, "from"):
                raise CaseError(f"{path}.{key}", "unknown key (become_monarch takes the player, and from:)")
        source = m.get("from")
        if source is not None and not isinstance(source, str):
            raise CaseError(f"{path}.from", "expected the id of the source")
        return OneShot(ActionKind.BECOME_MONARCH, amount(1, f"{path}.{kind}"), sel(m[kind], f"{path}.{kind}"), source)
    if kind == "fight":
        return _fight(m, path)
    if kind == "add_mana":
        return add_mana(m, path)
    if kind == "monstrosity":
        # {monstrosity: 3}: "Monstrosity 3." (701.37a): of the permanent the ability is of
        if set(m) != {"monstrosity"}:
            raise CaseError(path, "monstrosity takes only its number (of the permanent the ability is of, 701.37a)")
        return OneShot(ActionKind.MONSTROSITY, amount(m["monstrosity"], f"{path}.monstrosity"), sel("self", path))
    if kind == "return_to_battlefield":
        # {return_to_battlefield: self, with_counter: -1/-1}: persist / undying (702.79a, 702.93a)
        if m["return_to_battlefield"] != "self" or set(m) != {"return_to_battlefield", "with_counter"} \
                or m["with_counter"] not in ("-1/-1", "+1/+1"):
            raise CaseError(f"{path}.return_to_battlefield", "expected {return_to_battlefield: self, with_counter: -1/-1 "
                            "or +1/+1} (persist, undying: CR 702.79a, 702.93a)")
        return OneShot(ActionKind.RETURN_TO_BATTLEFIELD, amount(1, f"{path}.{kind}"), sel("self", f"{path}.{kind}"),
                       counter=str(m["with_counter"]))
    if kind == "sacrifice":
        # {sacrifice: self}: "sacrifice this creature" (701.21a): only the permanent itself is modelled
        if m["sacrifice"] != "self" or set(m) != {"sacrifice"}:
            raise CaseError(f"{path}.sacrifice", "expected sacrifice: self (\"sacrifice this creature\", 701.21a)")
        return OneShot(ActionKind.SACRIFICE, amount(1, f"{path}.sacrifice"), sel("self", f"{path}.sacrifice"))
    if kind in PERMANENT_SHOTS:
        # {destroy: target}: "destroy target creature" (701.8a); the value names the permanents;
        # {destroy: creatures, cant_be_regenerated: true}: "They can't be regenerated." (701.19c)
        for key in m:
            if key not in (kind, "from") and not (key == "cant_be_regenerated" and kind == "destroy"):
                raise CaseError(f"{path}.{key}", f"unknown key ({kind} takes the permanents it acts on, and from:"
                                + (", and cant_be_regenerated: true)" if kind == "destroy" else ")"))
        if "cant_be_regenerated" in m and m["cant_be_regenerated"] is not True:
            raise CaseError(f"{path}.cant_be_regenerated", "expected cant_be_regenerated: true (\"it can't be regenerated\", 701.19c)")
        source = m.get("from")
        if source is not None and not isinstance(source, str):
            raise CaseError(f"{path}.from", "expected the id of the source")
        return OneShot(ActionKind(kind), amount(1, f"{path}.{kind}"), sel(m[kind], f"{path}.{kind}"), source,
                       no_regenerate="cant_be_regenerated" in m)
    allowed = {kind, "to", "who", "from", "combat"} | ({"then"} if kind == "lose_life" else set()) | \
        ({"divided", "also", "excess_to_controller", "unless", "if_exiled_not_cast"} if kind == "deal" else set())
    for key in m:
        if key not in allowed:
            raise CaseError(f"{path}.{key}", "unknown key")
    # divided: evenly is Fireball's "X damage divided evenly, rounded down, among any number of targets"
    evenly = m.get("divided") == "evenly"
    divided = True if evenly else _bool(m["divided"], f"{path}.divided") if "divided" in m else False
    if divided and not divided_ok:
        raise CaseError(f"{path}.divided", "divided damage is modelled on a spell: {spell: {deal: N, to: target, "
                        "divided: true}, target: <requirement>, targets: {min: 1, max: 2}} (601.2d)")
    target_key = "to" if kind == "deal" else "who"
    other_key = "who" if target_key == "to" else "to"
    if other_key in m:
        raise CaseError(f"{path}.{other_key}", f"{kind} takes {target_key}:, not {other_key}:")
    if target_key not in m:
        if kind == "deal":
            raise CaseError(path, "deal needs to:")
        target: Selector = sel("you", path)
    else:
        target = sel(m[target_key], f"{path}.{target_key}")
    source = m.get("from")
    if source is not None and not isinstance(source, str):
        raise CaseError(f"{path}.from", "expected the id of the source")
    combat = _bool(m["combat"], f"{path}.combat") if "combat" in m else False
    then = None
    if "then" in m:
        # "... loses N life. You gain life equal to the life lost this way" (Exsanguinate)
        then = _rider(m["then"], f"{path}.then", lost_ok=True)
        if then.kind != ActionKind.GAIN_LIFE:
            raise CaseError(f"{path}.then", "a lose_life action's then: is {gain_life: life_lost_this_way} (who: defaults to you)")
    also = _also(m["also"], f"{path}.also") if "also" in m else ()
    # 120.4a: "excess damage is dealt to that creature's controller instead" (true), or only if the
    # source has trample (Ram Through: trample)
    excess = {True: "always", "trample": "trample"}.get(m.get("excess_to_controller", False), "") \
        if m.get("excess_to_controller", False) is not False else ""
    if "excess_to_controller" in m and not excess:
        raise CaseError(f"{path}.excess_to_controller", "expected true or trample (only if the source has trample)")
    if excess and (divided or also):
        raise CaseError(f"{path}.excess_to_controller", "excess damage goes with one deal to a permanent, without divided: or also:")
    amt = action_amount(m[kind], f"{path}.{kind}")
    by = ""
    if kind == "deal" and source in ("target", "itself"):
        # "target creature deals damage to itself equal to its power" (from: target), "each
        # creature deals damage to itself" (from: itself: each recipient is its own source, 120.2)
        by, source = source, None
        if also or divided:
            raise CaseError(f"{path}.from", f"from: {by} goes with one deal, without also: or divided:")
    if ("power", "itself") in _reads(amt) and by != "itself":
        raise CaseError(f"{path}.{kind}", "power: itself is each recipient's own power: it goes with a deal from: itself")
    unless = None
    if "unless" in m and not divided_ok:
        raise CaseError(f"{path}.unless", "unless: is modelled on a spell: {spell: {deal: N, to: target, unless: {deal: M, "
                        "to: target's controller}}, target: <requirement>} (608.2d)")
    if "unless" in m:
        unless = parse_one_shot(m["unless"], f"{path}.unless")
        if unless.kind != ActionKind.DEAL or unless.also or unless.unless or unless.by or unless.may or unless.excess \
                or unless.to.kind not in ("target_controller", "ref", "you"):
            raise CaseError(f"{path}.unless", "unless: is another deal to one player (to: target's controller, a player "
                            "name or you), who chooses which of the two happens (608.2d)")
    return OneShot(ActionKind(kind), amt, target, source, combat, then=then, divided=divided, also=also, by=by, evenly=evenly,
                   excess=excess, unless=unless, if_not_cast=if_not_cast(m, path))


def _fight(m: Mapping[str, Any], path: str) -> OneShot:
    """``{fight: second target, from: target}``: "Target creature you control fights target
    creature you don't control" (701.14a: each deals damage equal to its power to the other, at
    once); ``from:`` is the first creature (``self``, the default: "~ fights target creature";
    ``target``; or a permanent's id) and the value the other (``target``, ``second target``, an id)."""
    for key in m:
        if key not in ("fight", "from"):
            raise CaseError(f"{path}.{key}", "unknown key (fight takes the other creature, and from: the first)")
    other = sel(m["fight"], f"{path}.fight")
    if other.kind not in ("target", "second_target", "ref", "self"):
        raise CaseError(f"{path}.fight", f"the creature fought is one: target, second target or an id, not {other}")
    first = m.get("from", "self")
    if not isinstance(first, str) or not first.strip():
        raise CaseError(f"{path}.from", "expected self, target or the id of the creature that fights")
    by = first if first in ("self", "target") else ""
    return OneShot(ActionKind.FIGHT, amount(0, f"{path}.fight"), other, None if by else first, by=by)


def _reads(node: Any) -> list[Any]:
    """The game reads (``("power", "self")``, ``("count", ...)``) in an amount."""
    if not isinstance(node, tuple) or not node:
        return []
    if node[0] in ("count", "power"):
        return [node]
    return [r for child in node[1:] for r in _reads(child)]


def _create_tokens(m: Mapping[str, Any], path: str) -> OneShot:
    """``{create_tokens: 2, token: Food}``: "create two Food tokens" (111.1), under the ability's
    controller (111.2); ``tapped: true``: they enter tapped; the amount may be an expression."""
    from .tokens import parse_token  # (a token's abilities are read by the ability parser)

    for key in m:
        if key not in ("create_tokens", "token", "tapped", "from"):
            raise CaseError(f"{path}.{key}", "unknown key (create_tokens takes token:, tapped: and from:)")
    if "token" not in m:
        raise CaseError(path, "create_tokens needs token: (a predefined token such as Food, or its characteristics)")
    token = parse_token(m["token"], f"{path}.token")
    if "tapped" in m and _bool(m["tapped"], f"{path}.tapped"):
        token = dataclasses.replace(token, tapped=True)
    source = m.get("from")
    if source is not None and not isinstance(source, str):
        raise CaseError(f"{path}.from", "expected the id of the source")
    return OneShot(ActionKind.CREATE_TOKENS, action_amount(m["create_tokens"], f"{path}.create_tokens"), sel("you", path),
                   source, token=token)


def _put_counters(m: Mapping[str, Any], path: str, kind: str = "put_counters") -> OneShot:
    """``{put_counters: {+1/+1: 1}, to: self}``: "put a +1/+1 counter on this creature" (122.1,
    Walking Ballista's {4}); ``{remove_counters: {+1/+1: 1}, to: self}`` removes them (as many as
    it has, at most); ``to:`` names the permanents (``self``, ``target``, a selector)."""
    for key in m:
        if key not in (kind, "to", "from"):
            raise CaseError(f"{path}.{key}", f"unknown key ({kind} takes to: and from:)")
    if "to" not in m:
        raise CaseError(path, f"{kind} needs to: (the permanents, e.g. self or target)")
    name, raw_n = _one_counter_kind(m[kind], f"{path}.{kind}")
    source = m.get("from")
    if source is not None and not isinstance(source, str):
        raise CaseError(f"{path}.from", "expected the id of the source")
    return OneShot(ActionKind(kind), amount(raw_n, f"{path}.{kind}.{name}"), sel(m["to"], f"{path}.to"),
                   source, counter=name)


def _also(value: Any, path: str) -> tuple[tuple[Any, Selector], ...]:
    """``also: [{deal: 3, to: you}]``: more damage the same source deals in the same batch as the
    action's ("~ deals 2 damage to any target and 3 damage to you", one simultaneous batch, 120.2);
    each names its recipients, none a target of its own (the action's target is its ``to:``)."""
    if not isinstance(value, list) or not value:
        raise CaseError(path, "expected a list of {deal: N, to: <recipients>}")
    out = []
    for q, pm in _parts(value, path, "an also: part", ("deal", "to")):
        if "deal" not in pm or "to" not in pm:
            raise CaseError(q, "an also: part needs deal: and to:")
        to = sel(pm["to"], f"{q}.to")
        if to.mentions(SelectorKind.TARGET) or to.mentions(SelectorKind.ANY) or to.mentions(SelectorKind.CHOICE):
            raise CaseError(f"{q}.to", "an also: part has no target of its own: name its recipients (you, that player, ...)")
        out.append((action_amount(pm["deal"], f"{q}.deal"), to))
    return tuple(out)
