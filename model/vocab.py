"""The generic effect vocabulary: effects, riders, one-shot actions, abilities and triggers.

Each parser takes the YAML value and its field path and raises :class:`CaseError` at the exact
path of the first problem, so ``validate`` can say ``battlefield[2].abilities[0].prevent: ...``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from .effects import ALL_DAMAGE, AllBut, CountOf, EffectKind, HalfDamage, PreventAmount, is_all
from .errors import CaseError
from .expr import ExprError, expr_vars, parse_expr
from .kinds import AbilityKind, ActionKind, TriggerEvent
from .selectors import COLORS, Selector, SelectorError, parse_selector
from .types import (
    EFFECT_KINDS,
    GRANTABLE,
    LIFE_GAIN_KINDS,
    MANA_TYPES,
    PLAYER_KINDS,
    Ability,
    Condition,
    EffectSpec,
    OneShot,
    Rider,
)

__all__ = [
    "parse_effect", "parse_ability", "parse_one_shot", "sel", "amount", "TRIGGERS",
    "ONE_SHOT_KINDS", "EFFECT_FILTERS",
]

TRIGGERS = tuple(t.value for t in TriggerEvent)
CAST_SPELLS = ("any", "noncreature", "instant_or_sorcery")
ONE_SHOT_KINDS = ("deal", "lose_life", "gain_life", "draw", "set_life", "put_counters", "remove_counters", "destroy",
                  "sacrifice", "exile", "return_to_hand", "tap", "untap")
# one-shot actions on permanents, the value naming them: destroy (701.8), exile (406.2 as it leaves
# the battlefield, 400.7: a new object, not dying), return to its owner's hand (400.7), tap and untap (701.26)
PERMANENT_SHOTS = ("destroy", "exile", "return_to_hand", "tap", "untap")
EFFECT_FILTERS = ("to", "from", "combat", "next_time", "source_choice", "duration", "then", "shield", "may",
                  "if_you_control", "if_life_at_most", "if_your_turn", "mana", "min_amount", "amount")
# filters that only make sense on an effect that modifies a damage event
DAMAGE_ONLY_FILTERS = ("combat", "then", "shield", "source_choice", "next_time")
MANA_EFFECT_KEYS = ("mana", "min_amount", "amount")  # only with replace_mana / multiply_mana
# "you may prevent ...", "you may have ... dealt to ... instead": the effects that may be optional
_MAY_KINDS = ("shield", "prevent", "multiply", "add", "cap", "halve", "redirect", "damage_to_counters")
RIDER_KINDS = ("deal", "gain_life", "draw", "create_tokens", "lose_life", "put_counters", "remove_counters")
MAX_AMOUNT = 1_000_000


def sel(value: Any, path: str) -> Selector:
    try:
        return parse_selector(value)
    except SelectorError as exc:
        key = exc.key if not exc.key or exc.key.startswith("[") else f".{exc.key}"
        raise CaseError(f"{path}{key}", str(exc)) from None


def amount(value: Any, path: str, lost_ok: bool = False, that_ok: bool = False) -> Any:
    """An amount; ``life_lost_this_way`` only where ``lost_ok`` (a lose_life action's ``then:``),
    ``that_damage`` only where ``that_ok`` (a prevention effect's ``then:``, 615.5)."""
    try:
        expr = parse_expr(value)
    except ExprError as exc:
        raise CaseError(path, str(exc)) from None
    if not lost_ok and "life_lost_this_way" in expr_vars(expr):
        raise CaseError(path, "life_lost_this_way is read only in the then: of a lose_life action")
    if not that_ok and "that_damage" in expr_vars(expr):
        raise CaseError(path, "that_damage is read only in the then: of a prevention effect (the damage it applied to)")
    return expr


def _mapping(value: Any, path: str, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise CaseError(path, f"expected a mapping ({what}), got {_kind(value)}")
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    return type(value).__name__


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise CaseError(path, f"expected true or false, got {_kind(value)}")
    return value


def _count(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        hint = ": write the number without quotes" if isinstance(value, str) and value.strip().lstrip("+-").isdigit() else ""
        raise CaseError(path, f"expected a whole number, got {_kind(value)}{hint}")
    if value < 0:
        raise CaseError(path, f"must not be negative (got {value})")
    if value > MAX_AMOUNT:
        raise CaseError(path, f"{value} is absurdly large (at most {MAX_AMOUNT})")
    return value


def _prevent_value(value: Any, path: str) -> PreventAmount:
    if value == "all":
        return ALL_DAMAGE
    if value in ("half_up", "half_down"):
        return HalfDamage(value == "half_up")
    if isinstance(value, Mapping):
        if set(value) == {"all_but"}:
            return AllBut(_count(value["all_but"], f"{path}.all_but"))
        if set(value) == {"count"}:
            return CountOf(sel(value["count"], f"{path}.count"))
        raise CaseError(path, "expected all_but: N or count: <selector>")
    return amount(value, path)


def _rider(value: Any, path: str, lost_ok: bool = False) -> Rider:
    m = _mapping(value, path, "a rider such as {deal: prevented, to: A}")
    kinds = [k for k in m if k in RIDER_KINDS]
    if len(kinds) != 1:
        raise CaseError(path, f"a rider needs exactly one of {', '.join(RIDER_KINDS)}")
    kind = kinds[0]
    extra = set(m) - {kind, "to", "who"} - ({"if_prevented"} if not lost_ok else set())
    if extra:
        raise CaseError(f"{path}.{sorted(extra)[0]}", "unknown key")
    # "If damage is prevented this way, ..." (615.12: without it the rider happens even when the
    # damage can't be prevented)
    if_prevented = _bool(m["if_prevented"], f"{path}.if_prevented") if "if_prevented" in m else False
    target_key = "to" if "to" in m else "who"
    if kind in ("deal", "put_counters", "remove_counters") and "to" not in m:
        raise CaseError(path, f"{kind} needs to:")
    to = sel(m[target_key], f"{path}.{target_key}") if target_key in m else None
    if kind in ("put_counters", "remove_counters"):
        # "for each 1 damage prevented this way, put a +1/+1 counter on that creature" (Test of
        # Faith); "prevent that damage and remove that many +1/+1 counters from it" (Protean Hydra)
        if "who" in m:
            raise CaseError(f"{path}.who", f"{kind} takes to: (the permanents), not who:")
        name, n = _one_counter_kind(m[kind], f"{path}.{kind}")
        return Rider(ActionKind(kind), amount(n, f"{path}.{kind}.{name}", lost_ok, not lost_ok), to, counter=name,
                     if_prevented=if_prevented)
    return Rider(ActionKind(kind), amount(m[kind], f"{path}.{kind}", lost_ok, not lost_ok), to, if_prevented=if_prevented)


def parse_effect(value: Any, path: str, allowed_extra: tuple[str, ...] = ()) -> EffectSpec:
    """Parse one effect of the generic vocabulary (``{shield: 3, to: you}``)."""
    m = _mapping(value, path, "an effect")
    kinds = [k for k in m if k in EFFECT_KINDS]
    if not kinds:
        raise CaseError(path, f"an effect needs one of: {', '.join(EFFECT_KINDS)}")
    # a partial redirection is `redirect:` with `shield: N` (Harm's Way), in either key order
    kind = "redirect" if "redirect" in kinds else "pt" if "pt" in kinds else kinds[0]
    # "gets +2/+2 and gains trample": `pt:` with `grant:`, one effect
    extra = [k for k in kinds if k != kind and not (kind == "redirect" and k == "shield")
             and not (kind == "pt" and k == "grant")]
    if extra:
        raise CaseError(f"{path}.{extra[0]}", f"an effect has one kind; {kind} is already given")
    for key in m:
        if key not in EFFECT_KINDS and key not in EFFECT_FILTERS and key not in allowed_extra:
            raise CaseError(f"{path}.{key}", "unknown key")
    kpath = f"{path}.{kind}"
    raw = m[kind]
    value_out: Any
    shield_amount = None
    if kind == "shield":
        value_out = ALL_DAMAGE if raw == "all" else amount(raw, kpath)
    elif kind == "prevent":
        value_out = _prevent_value(raw, kpath)
    elif kind in ("multiply", "gain_life_times"):  # "double/triple that damage (life)"
        if raw not in (2, 3, 4):
            raise CaseError(kpath, f"{kind} must be 2, 3 or 4")
        value_out = raw
    elif kind in ("add", "cap", "life_floor", "gain_life_plus"):
        value_out = _count(raw, kpath)
    elif kind == "halve":  # "it deals half that damage, rounded down, instead": a replacement (614.1a)
        if raw not in ("down", "up"):
            raise CaseError(kpath, "halve is down or up (how the half is rounded)")
        value_out = raw
    elif kind == "becomes_color":
        # "becomes blue" / "becomes the colors of your choice" given: [blue]; [] is colourless
        colors = raw if isinstance(raw, list) else [raw]
        if not all(isinstance(c, str) and c.lower() in COLORS for c in colors):
            raise CaseError(kpath, f"expected a list of colours ({', '.join(COLORS)}; [] for colourless)")
        value_out = tuple(sorted({c.lower() for c in colors}, key=COLORS.index))
        to_raw = m.get("to")
        if not isinstance(to_raw, str) or sel(to_raw, f"{path}.to").kind not in ("ref", "target", "self"):
            # the objects are fixed as the effect begins (611.2c); a selector read again later
            # could depend on the colours it changes (613.8)
            raise CaseError(f"{path}.to", "becomes_color needs to: an id, target or self (the object whose colour changes)")
        for key in m:
            if key not in ("becomes_color", "to", "duration"):
                raise CaseError(f"{path}.{key}", "becomes_color takes to: (and duration:) only")
    elif kind == "redirect":
        value_out = sel(raw, kpath)
        if "shield" in m:
            shield_amount = amount(m["shield"], f"{path}.shield")
    elif kind in ("cant_be_prevented", "hexproof", "shroud", "exile_instead"):
        value_out = _bool(raw, kpath)
    elif kind in PLAYER_KINDS:
        value_out = sel(raw, kpath)
    elif kind == "protection":
        pm = _mapping(raw, kpath, "protection: {from_player: A}")
        if set(pm) != {"from_player"}:
            raise CaseError(kpath, "protection needs exactly from_player: <player>")
        value_out = sel(pm["from_player"], f"{kpath}.from_player")
    elif kind == "damage_to_counters":
        value_out = _counter_kind(raw, kpath)
    elif kind == "fewer_counters":
        # {-1/-1: 1}: "that many -1/-1 counters minus one are put on it instead"
        name, raw_n = _one_counter_kind(raw, kpath)
        value_out = (name, _count(raw_n, f"{kpath}.{name}"))
    elif kind == "as_though":
        if raw not in ("infect", "wither"):
            raise CaseError(kpath, "as_though must be infect or wither")
        value_out = raw
    elif kind in ("pt", "grant"):
        value_out = _pt_grant(m, path, kind)
    elif kind == "replace_mana":
        if raw not in ("W", "U", "B", "R", "G", "C"):
            raise CaseError(kpath, "replace_mana must be one of W U B R G C")
        value_out = raw
    else:  # multiply_mana
        value_out = _count(raw, kpath)
    if kind == "exile_instead":
        for key in m:
            if key not in ("exile_instead", "to", "duration"):
                raise CaseError(f"{path}.{key}", f"exile_instead takes to: (the permanents) and duration:, not {key}")
        if "to" not in m:
            raise CaseError(path, "exile_instead needs to: (the permanents exiled if they would die)")
    if kind in ("pt", "grant"):
        for key in m:
            if key not in ("pt", "grant", "to", "duration", "if_your_turn"):
                raise CaseError(f"{path}.{key}", f"{kind} takes to: (the permanents), duration: and if_your_turn:, not {key}")
        if "to" not in m:
            raise CaseError(path, f"{kind} needs to: (the permanents it changes: self, target, equipped creature, ...)")
        if kind == "grant" or value_out[2]:
            _no_keyword_reading(m["to"], f"{path}.to")
    elif "if_your_turn" in m:
        raise CaseError(f"{path}.if_your_turn", "if_your_turn goes with a pt: or grant: (\"during your turn\")")
    mana_filter, min_amount, mana_amount = _mana_filters(m, path, kind)
    if kind in LIFE_GAIN_KINDS or kind in PLAYER_KINDS:
        for key in DAMAGE_ONLY_FILTERS:
            if key in m:
                raise CaseError(f"{path}.{key}", f"{key} goes with effects on damage, not {kind}")
    if kind in PLAYER_KINDS and "to" in m:
        raise CaseError(f"{path}.to", f"{kind} names its players itself ({kind}: you), not with to:")
    life_at_most = None
    if "if_life_at_most" in m:
        raw_life = m["if_life_at_most"]
        if isinstance(raw_life, bool) or not isinstance(raw_life, int):
            raise CaseError(f"{path}.if_life_at_most", f"expected a whole number (a life total), got {_kind(raw_life)}")
        life_at_most = raw_life
    combat = _bool(m["combat"], f"{path}.combat") if "combat" in m else None
    duration = m.get("duration", "turn")
    if duration not in ("turn", "until_used", "permanent"):
        raise CaseError(f"{path}.duration", "duration must be turn or until_used")
    source_choice = m.get("source_choice")
    if source_choice is not None and not isinstance(source_choice, str):
        raise CaseError(f"{path}.source_choice", "expected the id of the chosen source")
    next_time = _bool(m["next_time"], f"{path}.next_time") if "next_time" in m else False
    optional = _bool(m["may"], f"{path}.may") if "may" in m else False
    if optional and kind not in _MAY_KINDS:
        raise CaseError(f"{path}.may", f"may goes with an effect that modifies damage ({', '.join(_MAY_KINDS)}), not {kind}")
    if next_time and kind == "prevent" and is_all(value_out):
        # "the next time ... prevent that damage" is a one-instance shield (615.8)
        kind = "shield"
    elif next_time and kind not in ("shield", "prevent"):
        raise CaseError(f"{path}.next_time", "next_time goes with a prevention effect (CR 615.8)")
    return EffectSpec(
        kind=EffectKind(kind),
        value=value_out,
        to=sel(m["to"], f"{path}.to") if "to" in m else None,
        from_=sel(m["from"], f"{path}.from") if "from" in m else None,
        combat=combat,
        next_time=next_time,
        source_choice=source_choice,
        duration=duration,
        then=_rider(m["then"], f"{path}.then") if "then" in m else None,
        shield=shield_amount,
        may=optional,
        if_you_control=sel(m["if_you_control"], f"{path}.if_you_control") if "if_you_control" in m else None,
        if_life_at_most=life_at_most,
        if_your_turn=_bool(m["if_your_turn"], f"{path}.if_your_turn") if "if_your_turn" in m else None,
        mana=mana_filter,
        min_amount=min_amount,
        mana_amount=mana_amount,
    )


def _pt_grant(m: Mapping[str, Any], path: str, kind: str) -> tuple[int, int, tuple[str, ...]]:
    """``pt: [2, -1]`` ("gets +2/-1", 613.4c) and ``grant: [first strike, lifelink]`` ("gains
    first strike and lifelink", 613.1f): (power change, toughness change, keywords)."""
    p = t = 0
    if "pt" in m:
        raw = m["pt"]
        if not isinstance(raw, list) or len(raw) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in raw):
            raise CaseError(f"{path}.pt", "expected [power change, toughness change], e.g. [2, 2] or [-1, -1]")
        if any(abs(v) > MAX_AMOUNT for v in raw):
            raise CaseError(f"{path}.pt", f"a change is at most {MAX_AMOUNT}")
        p, t = raw
    kws: tuple[str, ...] = ()
    if "grant" in m:
        raw = m["grant"]
        if not isinstance(raw, list) or not raw:
            raise CaseError(f"{path}.grant", "expected a list of keywords, e.g. [first strike]")
        for i, k in enumerate(raw):
            if not isinstance(k, str) or " ".join(k.lower().split()) not in GRANTABLE:
                raise CaseError(f"{path}.grant[{i}]", f"a keyword grant: gives one of {', '.join(GRANTABLE)}")
        kws = tuple(" ".join(k.lower().split()) for k in raw)
    return p, t, kws


def _no_keyword_reading(raw: Any, path: str) -> None:
    """A keyword grant whose recipients are chosen by keywords ("creatures without flying gain
    flying") depends on itself (613.8); not modelled, so an error rather than a guess."""
    todo = [sel(raw, path)]
    while todo:
        s = todo.pop()
        if s.without or s.with_:
            raise CaseError(path, "a grant: whose to: reads keywords (with:, without:) depends on itself (CR 613.8); not modelled")
        todo.extend(s.parts)


def mana_type(value: Any, path: str) -> str:
    """One type of mana (CR 106.1): W U B R G or C."""
    if value not in MANA_TYPES:
        raise CaseError(path, f"expected one type of mana: {' '.join(MANA_TYPES)} (got {_kind(value)})")
    return str(value)


def _mana_filters(m: Mapping[str, Any], path: str, kind: str) -> tuple[str | None, int | None, int | None]:
    """The seeds' rule on "tapped for mana of a specific type and/or amount": ``mana: G`` (a type
    filter), ``min_amount: N`` ("two or more mana"), and ``amount: N`` for replace_mana ("instead
    of any other type and amount", Contamination)."""
    for key in MANA_EFFECT_KEYS:
        if key in m and kind not in ("replace_mana", "multiply_mana"):
            raise CaseError(f"{path}.{key}", f"{key} goes with replace_mana or multiply_mana, not {kind}")
    if "amount" in m and kind != "replace_mana":
        raise CaseError(f"{path}.amount", "amount goes with replace_mana (multiply_mana already sets the amount)")
    mana = mana_type(m["mana"], f"{path}.mana") if "mana" in m else None
    least = _count(m["min_amount"], f"{path}.min_amount") if "min_amount" in m else None
    amt = _count(m["amount"], f"{path}.amount") if "amount" in m else None
    return mana, least, amt


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
    if kind == "sacrifice":
        # {sacrifice: self}: "sacrifice this creature" (701.21a): only the permanent itself is modelled
        if m["sacrifice"] != "self" or set(m) != {"sacrifice"}:
            raise CaseError(f"{path}.sacrifice", "expected sacrifice: self (\"sacrifice this creature\", 701.21a)")
        return OneShot(ActionKind.SACRIFICE, amount(1, f"{path}.sacrifice"), sel("self", f"{path}.sacrifice"))
    if kind in PERMANENT_SHOTS:
        # {destroy: target}: "destroy target creature" (701.8a); the value names the permanents
        for key in m:
            if key not in (kind, "from"):
                raise CaseError(f"{path}.{key}", f"unknown key ({kind} takes the permanents it acts on, and from:)")
        source = m.get("from")
        if source is not None and not isinstance(source, str):
            raise CaseError(f"{path}.from", "expected the id of the source")
        return OneShot(ActionKind(kind), amount(1, f"{path}.{kind}"), sel(m[kind], f"{path}.{kind}"), source)
    allowed = {kind, "to", "who", "from", "combat"} | ({"then"} if kind == "lose_life" else set()) | \
        ({"divided", "also"} if kind == "deal" else set())
    for key in m:
        if key not in allowed:
            raise CaseError(f"{path}.{key}", "unknown key")
    divided = _bool(m["divided"], f"{path}.divided") if "divided" in m else False
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
        if then.kind != "gain_life":
            raise CaseError(f"{path}.then", "a lose_life action's then: is {gain_life: life_lost_this_way} (who: defaults to you)")
    also = _also(m["also"], f"{path}.also") if "also" in m else ()
    return OneShot(ActionKind(kind), action_amount(m[kind], f"{path}.{kind}"), target, source, combat, then=then, divided=divided,
                   also=also)


def _one_counter_kind(value: Any, path: str) -> tuple[str, Any]:
    """``{+1/+1: N}``: one counter kind and its (unparsed) amount."""
    kinds = _mapping(value, path, "a counter kind and amount such as {+1/+1: 1}")
    if len(kinds) != 1:
        raise CaseError(path, "name exactly one counter kind and its amount, e.g. {+1/+1: 1}")
    raw_kind, raw_n = next(iter(kinds.items()))
    name = _counter_kind(raw_kind, path)
    if name in ("loyalty", "defense"):
        # a permanent's loyalty and defense are its loyalty:/defense: (306.5b, 310.4b)
        raise CaseError(f"{path}.{name}", f"putting or removing {name} counters is not modelled")
    return name, raw_n


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


_ABILITY_KEYS = {"activated", "spell", "trigger", "as_enters", "enters_with", "mana", "modes", "kicker"}


def _counter_kind(value: Any, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CaseError(path, f"expected a counter kind such as +1/+1, got {_kind(value)}")
    return value.strip()


def _enters_with(value: Any, path: str) -> tuple[tuple[str, Any], ...]:
    """``{+1/+1: X}``: "this permanent enters with X +1/+1 counters" (614.1c).

    The amount may read only X, the X of the spell that became the permanent (107.3m).
    """
    m = _mapping(value, path, "counter kinds and amounts such as {+1/+1: X}")
    if not m:
        raise CaseError(path, "name at least one counter kind, e.g. {+1/+1: X}")
    out = []
    for kind, raw in m.items():
        name = _counter_kind(kind, path)
        expr = amount(raw, f"{path}.{name}")
        others = sorted(expr_vars(expr) - {"X"})
        if others:
            raise CaseError(f"{path}.{name}", f"an enters-with amount reads only X (the spell's X, CR 107.3m), not {others[0]}")
        out.append((name, expr))
    return tuple(out)


_MANA_SYMBOL = re.compile(r"^(\d+|[WUBRGCXS]|[WUBRG2]/[WUBRGP])$")


def _cost(value: Any, path: str, mana_ability: bool = False) -> tuple[Any, ...]:
    """An ability's cost (602.1a): {T} (107.5), {Q} (107.6), mana symbols (mana isn't tracked),
    ``{pay_life: N}`` (119.4), ``{sacrifice: self}`` (701.21a) and, for activated abilities,
    ``{remove_counters: {+1/+1: 1}}``.
    An ability whose cost can't be paid can't be activated (the solver's ``cost_problem``)."""
    if not isinstance(value, list):
        raise CaseError(path, "expected a list such as [T] or [{remove_counters: {+1/+1: 1}}]")
    out: list[Any] = []
    for i, c in enumerate(value):
        q = f"{path}[{i}]"
        if c in ("T", "Q"):
            out.append(c)
        elif isinstance(c, int) and not isinstance(c, bool) and c >= 0:
            out.append(str(c))
        elif isinstance(c, str) and _MANA_SYMBOL.match(c.strip()):
            out.append(c.strip())
        elif isinstance(c, Mapping) and set(c) == {"pay_life"}:
            out.append(("pay_life", _count(c["pay_life"], f"{q}.pay_life")))
        elif isinstance(c, Mapping) and set(c) == {"sacrifice"}:
            # "Sacrifice this: ...": the permanent is put into its graveyard as the cost is paid (701.21a)
            if c["sacrifice"] != "self":
                out.append(("sacrifice", _sacrificed(c["sacrifice"], f"{q}.sacrifice", mana_ability)))
                continue
            out.append(("sacrifice", "self"))
        elif isinstance(c, Mapping) and set(c) == {"remove_counters"} and not mana_ability:
            kinds = _mapping(c["remove_counters"], f"{q}.remove_counters", "counter kinds and numbers such as {+1/+1: 1}")
            for kind, n in kinds.items():
                name = _counter_kind(kind, f"{q}.remove_counters")
                out.append(("remove_counters", name, _count(n, f"{q}.remove_counters.{name}")))
        elif mana_ability:
            raise CaseError(q, "expected T, Q, a mana symbol (2, G, ...), {pay_life: N} or {sacrifice: self}")
        else:
            raise CaseError(q, "expected T, Q, a mana symbol (4, X, R, ...), {pay_life: N}, {remove_counters: {<kind>: N}} or {sacrifice: self}")
    if "T" in out and "Q" in out:
        raise CaseError(path, "a cost can't both tap ({T}) and untap ({Q}) the permanent")
    return tuple(out)


_CONDITION_KEYS = {"life_lost_at_least": ("life_lost", "least"), "life_lost_at_most": ("life_lost", "most"),
                   "life_at_least": ("life", "least"), "life_at_most": ("life", "most")}


def _condition(value: Any, path: str) -> Condition:
    """``{who: opponents, life_lost_at_least: 2}``: "if an opponent lost 2 or more life this turn"
    (Bloodchief Ascension), ``{life_lost_at_most: 0}``: "if you didn't lose life this turn"
    (Luminarch Ascension); an intervening "if" (CR 603.4). ``who:`` defaults to you."""
    m = _mapping(value, path, "a condition such as {who: opponents, life_lost_at_least: 2}")
    for key in m:
        if key != "who" and key not in _CONDITION_KEYS:
            raise CaseError(f"{path}.{key}", f"unknown key (a condition has who: and one of {', '.join(_CONDITION_KEYS)})")
    tests = [k for k in m if k in _CONDITION_KEYS]
    if len(tests) != 1:
        raise CaseError(path, f"a condition needs exactly one of {', '.join(_CONDITION_KEYS)}")
    measure, side = _CONDITION_KEYS[tests[0]]
    n = _count(m[tests[0]], f"{path}.{tests[0]}")
    who = sel(m["who"], f"{path}.who") if "who" in m else sel("you", path)
    return Condition(who, measure, n if side == "least" else None, n if side == "most" else None)


def _check_mana_trigger(m: Mapping[str, Any], path: str, trig: str, shot: OneShot) -> None:
    """``tapped_for_mana`` watches permanents (``from:``) and an optional type (``mana:``); ``that
    player`` in ``do:`` is the player who tapped the permanent (its controller)."""
    if trig == "tapped_for_mana":
        for key in ("to", "combat", "turn"):
            if key in m:
                raise CaseError(f"{path}.{key}", "a tapped_for_mana trigger takes from: (the permanents) and mana: (a type), not " + key)
        return
    if "mana" in m:
        raise CaseError(f"{path}.mana", "mana: filters tapped_for_mana triggers only")
    if shot.to.mentions("that_player") and trig != "dealt_damage":
        where = ("may." if shot.may else "") + ("to" if shot.kind in ("deal", "put_counters") else "who")
        raise CaseError(f"{path}.do.{where}", f"'that player' is the player who tapped a permanent for mana or the player dealt damage; a {trig} trigger has none")


def _actions(value: list[Any], path: str) -> tuple[OneShot, tuple[OneShot, ...]]:
    """``[a, b, ...]``: an ability's instructions, done in order as one resolution (608.2c). A
    target is the ability's ``target:`` (chosen as it is put on the stack, 601.2c, 603.3d), which
    ``to: target`` / ``who: target`` read; ``to: any`` or ``choice`` in a list is an error."""
    if not value:
        raise CaseError(path, "expected at least one action")
    shots = tuple(parse_one_shot(v, f"{path}[{i}]") for i, v in enumerate(value))
    for i, shot in enumerate(shots):
        if shot.to.kind in ("any", "choice"):
            key = "to" if shot.kind in ("deal", "put_counters") else "who"
            raise CaseError(f"{path}[{i}].{'may.' if shot.may else ''}{key}",
                            f"{shot.to.kind} in a list of actions: give the ability target: <requirement> and write target here")
    return shots[0], shots[1:]


def _targets_range(m: Mapping[str, Any], action: OneShot | None, path: str) -> tuple[int, int | None] | None:
    """A spell's ``targets: {min: 1, max: 2 | any}`` ("one or two targets", "any number of
    targets": distinct objects or players, each meeting ``target:``, 115.1, 601.2c), with its
    ``deal`` to ``target`` dealing each its amount or, ``divided: true``, the amount divided among
    them as announced (601.2d: each at least 1)."""
    divided = action is not None and action.divided
    if "targets" not in m:
        if divided:
            raise CaseError(f"{path}.spell.divided", "divided damage needs targets: {min: 1, max: N} (how many targets, 601.2d)")
        return None
    q = f"{path}.targets"
    rng = _mapping(m["targets"], q, "{min: N, max: N | any}")
    for key in rng:
        if key not in ("min", "max"):
            raise CaseError(f"{q}.{key}", "unknown key (targets: takes min: and max:)")
    lo = rng.get("min", 1)
    if isinstance(lo, bool) or not isinstance(lo, int) or lo < 1:
        raise CaseError(f"{q}.min", "expected a whole number, 1 or more (\"up to\" targets aren't modelled)")
    hi = rng.get("max")
    if hi == "any":
        hi = None
    elif isinstance(hi, bool) or not isinstance(hi, int) or hi < lo:
        raise CaseError(f"{q}.max", f"expected a whole number, {lo} or more, or any")
    if "target" not in m:
        raise CaseError(path, "targets: needs target: (the requirement each target meets)")
    if action is None or action.kind != "deal" or action.to.kind != "target" or action.may or action.also:
        raise CaseError(f"{path}.spell", "a spell with targets: is modelled for deal: N, to: target (optionally divided: true)")
    if divided and not (action.amount[0] == "int" or action.amount == ("var", "X")):
        raise CaseError(f"{path}.spell.deal", "divided damage is a number or X: it is divided as the spell is cast (601.2d)")
    return lo, hi


def parse_ability(value: Any, path: str) -> Ability:
    """One ability of a permanent or spell (see model/cards/README.md)."""
    m = _mapping(value, path, "an ability")
    text = str(m.get("text", ""))
    if "activated" in m or "spell" in m:
        kind = "activated" if "activated" in m else "spell"
        for key in m:
            if key not in (kind, "target", "once", "cost", "text", "choose") + (("targets", "mode", "if_kicked") if kind == "spell" else ()):
                raise CaseError(f"{path}.{key}", "unknown key")
        effect = action = None
        more: tuple[OneShot, ...] = ()
        if isinstance(m[kind], list) and kind == "activated":
            action, more = _actions(m[kind], f"{path}.{kind}")
        else:
            body = _mapping(m[kind], f"{path}.{kind}", "an effect or one-shot action")
            if any(k in body for k in EFFECT_KINDS):
                effect = parse_effect(body, f"{path}.{kind}")
                if effect.kind in ("pt", "grant") and effect.to is not None and effect.to.kind not in ("self", "target", "ref"):
                    # 611.2c: it changes the objects there as it resolves, not those that come later
                    raise CaseError(f"{path}.{kind}.to", f"a {effect.kind} effect created by a spell or ability changes "
                                    "what is there as it resolves (CR 611.2c); only self, target or an id is modelled")
            else:
                action = parse_one_shot(body, f"{path}.{kind}", divided_ok=kind == "spell")
        target = sel(m["target"], f"{path}.target") if "target" in m else None
        targets = _targets_range(m, action, path) if kind == "spell" else None
        once = _bool(m["once"], f"{path}.once") if "once" in m else False
        cost = _cost(m["cost"], f"{path}.cost") if "cost" in m else ()
        choose = sel(m["choose"], f"{path}.choose") if "choose" in m else None
        if choose is not None and effect is None:
            raise CaseError(f"{path}.choose", "choose: goes with an ability that creates an effect (its chosen permanent)")
        mode = _count(m["mode"], f"{path}.mode") if "mode" in m else 0
        if "mode" in m and mode < 1:
            raise CaseError(f"{path}.mode", "modes are numbered from 1, in the order printed (700.2)")
        kicked = _bool(m["if_kicked"], f"{path}.if_kicked") if "if_kicked" in m else None
        return Ability(AbilityKind(kind), effect=effect, action=action, more=more, target=target, targets=targets, once=once,
                       cost=cost, text=text, choose=choose, mode=mode, kicked=kicked)
    if "kicker" in m:
        # "Kicker {2}" (702.33a): an optional additional cost its caster may pay as it is cast
        if m["kicker"] is not True or set(m) - {"kicker", "text"}:
            raise CaseError(f"{path}.kicker", "expected kicker: true (its mana cost isn't tracked)")
        return Ability(AbilityKind.KICKER, text=text)
    if "modes" in m:
        # "Choose one —" (700.2): how many of the spell's modes its caster chooses (601.2b)
        for key in m:
            if key not in ("modes", "text"):
                raise CaseError(f"{path}.{key}", "unknown key (modes: takes N or {min: N, max: N})")
        raw = m["modes"]
        if isinstance(raw, Mapping):
            for key in raw:
                if key not in ("min", "max"):
                    raise CaseError(f"{path}.modes.{key}", "unknown key (modes: takes min: and max:)")
            lo, hi = _count(raw.get("min", 1), f"{path}.modes.min"), _count(raw.get("max", 1), f"{path}.modes.max")
        else:
            lo = hi = _count(raw, f"{path}.modes")
        if lo < 1 or hi < lo:
            raise CaseError(f"{path}.modes", "expected 1 or more modes, min at most max")
        return Ability(AbilityKind.MODES, modes=(lo, hi), text=text)
    if "trigger" in m:
        for key in m:
            if key not in ("trigger", "do", "to", "from", "combat", "turn", "text", "mana", "min_damage", "if",
                           "target", "spells"):
                raise CaseError(f"{path}.{key}", "unknown key")
        trig = m["trigger"]
        if trig not in TRIGGERS:
            raise CaseError(f"{path}.trigger", f"unknown trigger {trig!r}; expected one of {', '.join(TRIGGERS)}")
        if "do" not in m:
            raise CaseError(path, "a trigger needs do:")
        effect = None
        if isinstance(m["do"], Mapping) and any(k in m["do"] for k in ("pt", "grant")):
            # "..., ~ gets +1/+1 until end of turn": the trigger creates an effect (611.2c)
            effect = parse_effect(m["do"], f"{path}.do")
            if effect.to is None or effect.to.kind not in ("self", "target"):
                raise CaseError(f"{path}.do.to", "an effect created by a trigger changes what is there as it resolves "
                                "(CR 611.2c); only self or target is modelled")
            first, more = None, ()
        else:
            first, more = _actions(m["do"], f"{path}.do") if isinstance(m["do"], list) else (parse_one_shot(m["do"], f"{path}.do"), ())
            for shot in (first, *more):
                _check_mana_trigger(m, path, trig, shot)
        if trig in ("enters", "dies"):
            what = "an enters trigger watches its own permanent entering (\"When this enters\"), or with from: the permanents it names" \
                if trig == "enters" else "a dies trigger watches its own permanent dying (\"When this dies\", 603.6c)"
            for key in ("to", "combat", "turn") + (("from",) if trig == "dies" else ()):
                if key in m:
                    raise CaseError(f"{path}.{key}", f"{what}; it takes no filter")
        spell = m.get("spells", "any")
        if "spells" in m and trig != "cast":
            raise CaseError(f"{path}.spells", "spells: filters cast triggers only")
        if spell not in CAST_SPELLS:
            raise CaseError(f"{path}.spells", f"spells must be one of {', '.join(CAST_SPELLS)}")
        if trig == "cast":
            for key in ("to", "from", "combat", "turn"):
                if key in m:
                    raise CaseError(f"{path}.{key}", "a cast trigger (\"whenever you cast a ... spell\") takes spells: only")
        turn = m.get("turn", "each")
        if turn not in ("each", "yours", "opponents"):
            raise CaseError(f"{path}.turn", "turn must be each, yours or opponents")
        if "turn" in m and trig not in ("end_step", "upkeep"):
            raise CaseError(f"{path}.turn", "turn: goes with end_step and upkeep triggers")
        minimum = None
        if "min_damage" in m:
            if trig not in ("dealt_damage", "deals_damage", "combat_damage_to_player"):
                raise CaseError(f"{path}.min_damage", "min_damage goes with dealt_damage, deals_damage and combat_damage_to_player triggers")
            minimum = _count(m["min_damage"], f"{path}.min_damage")
            if minimum < 1:
                raise CaseError(f"{path}.min_damage", "must be at least 1 (0 damage is no damage, CR 120.8)")
        return Ability(
            AbilityKind.TRIGGER, action=first, more=more, trigger=TriggerEvent(trig), effect=effect,
            target=sel(m["target"], f"{path}.target") if "target" in m else None,
            trigger_to=sel(m["to"], f"{path}.to") if "to" in m else None,
            trigger_from=sel(m["from"], f"{path}.from") if "from" in m else None,
            trigger_combat=_bool(m["combat"], f"{path}.combat") if "combat" in m else None,
            turn=turn, text=text,
            trigger_mana=mana_type(m["mana"], f"{path}.mana") if "mana" in m else None,
            trigger_min=minimum,
            trigger_if=_condition(m["if"], f"{path}.if") if "if" in m else None,
            trigger_spell=spell,
        )
    if "as_enters" in m:
        if m["as_enters"] != "choose_opponent" or set(m) - {"as_enters", "text"}:
            raise CaseError(f"{path}.as_enters", "the only as-enters choice is choose_opponent")
        return Ability(AbilityKind.AS_ENTERS, choice="choose_opponent", text=text)
    if "enters_with" in m:
        for key in m:
            if key not in ("enters_with", "text"):
                raise CaseError(f"{path}.{key}", "unknown key")
        return Ability(AbilityKind.ENTERS_WITH, counters=_enters_with(m["enters_with"], f"{path}.enters_with"), text=text)
    if "mana" in m and not any(k in m for k in EFFECT_KINDS):  # else `mana:` filters a mana replacement
        for key in m:
            if key not in ("mana", "cost", "amount", "text", "then"):
                raise CaseError(f"{path}.{key}", "unknown key")
        raw = m["mana"]
        mana: Any
        if isinstance(raw, list) and all(s in ("W", "U", "B", "R", "G", "C") for s in raw) and raw:
            mana = tuple(raw)
        elif isinstance(raw, Mapping) and len(raw) == 1 and next(iter(raw)) in ("any_type_of", "any_color_of"):
            k = next(iter(raw))
            mana = (k, sel(raw[k], f"{path}.mana.{k}"))
        elif raw in ("any_color", "any"):
            mana = (raw,)
        elif (isinstance(raw, Mapping) and set(raw) == {"one_of"} and isinstance(raw["one_of"], list)
              and len(raw["one_of"]) >= 2 and all(s in MANA_TYPES for s in raw["one_of"])):
            # "{T}: Add {R} or {G}.": one ability, its controller chooses the type (605.1a, 106.1)
            mana = ("one_of", tuple(raw["one_of"]))
        else:
            raise CaseError(f"{path}.mana", "expected a list of W U B R G C, any_color, any, {one_of: [R, G]}, or {any_type_of: <selector>}")
        amt = _count(m.get("amount", 1), f"{path}.amount")
        # "Add {W} or {B}. This land deals 1 damage to you." (a painland): actions done as the
        # mana ability resolves, after the mana is added (605.3a, 608.2c)
        then: tuple[OneShot, ...] = ()
        if "then" in m:
            then = (parse_one_shot(m["then"], f"{path}.then"),)
            if then[0].to.kind in ("any", "target", "choice"):
                raise CaseError(f"{path}.then", "a mana ability has no target (605.1a): name who, e.g. to: you")
        return Ability(AbilityKind.MANA, mana=mana, cost=_cost(m.get("cost", []), f"{path}.cost", mana_ability=True),
                       amount=amt, text=text, more=then)
    # a static ability: an effect of the vocabulary
    if not any(k in m for k in EFFECT_KINDS):
        raise CaseError(path, "unknown ability: expected an effect, activated:, spell:, trigger:, as_enters:, enters_with:, modes:, kicker: or mana:")
    static = parse_effect({k: v for k, v in m.items() if k != "text"}, path)
    if static.kind == "becomes_color":
        raise CaseError(path, "a static colour-changing ability is not modelled (only effects created by spells and abilities, 611.2c)")
    return Ability(AbilityKind.STATIC, effect=static, text=text)


_READ_KEYS = ("count", "power", "plus", "times")


def action_amount(value: Any, path: str) -> Any:
    """A one-shot action's amount: an :func:`amount`, or one read from the game as the action
    resolves (608.2h): ``{count: <selector>}`` the number of permanents it matches ("equal to the
    number of lands you control"; optionally ``times: N`` and ``plus: N``: "2 plus twice the
    number of ..."), ``{power: self}`` the power of the object the ability is of ("equal to its
    power"; as it last existed if it has left, 608.2h, 113.7a)."""
    if not isinstance(value, Mapping):
        return amount(value, path)
    for key in value:
        if key not in _READ_KEYS:
            raise CaseError(f"{path}.{key}", "unknown key (an amount read from the game is {count: <selector>} "
                            "with times: and plus:, or {power: self})")
    reads = [k for k in ("count", "power") if k in value]
    if len(reads) != 1:
        raise CaseError(path, "an amount read from the game is {count: <selector>} or {power: self}")
    if reads[0] == "power":
        if value["power"] != "self" or set(value) != {"power"}:
            raise CaseError(f"{path}.power", "power: self (the power of the object the ability is of) is modelled")
        return ("power", "self")
    counted = sel(value["count"], f"{path}.count")
    if counted.kind not in ("objects", "any_of") or any(p.kind != "objects" for p in counted.parts):
        raise CaseError(f"{path}.count", f"count: counts permanents (e.g. lands you control), not {counted}")
    node: Any = ("count", counted)
    if "times" in value:
        node = ("mul", ("int", _count(value["times"], f"{path}.times")), node)
    if "plus" in value:
        node = ("add", ("int", _count(value["plus"], f"{path}.plus")), node)
    return node


def _also(value: Any, path: str) -> tuple[tuple[Any, Selector], ...]:
    """``also: [{deal: 3, to: you}]``: more damage the same source deals in the same batch as the
    action's ("~ deals 2 damage to any target and 3 damage to you", one simultaneous batch, 120.2);
    each names its recipients, none a target of its own (the action's target is its ``to:``)."""
    if not isinstance(value, list) or not value:
        raise CaseError(path, "expected a list of {deal: N, to: <recipients>}")
    out = []
    for i, part in enumerate(value):
        q = f"{path}[{i}]"
        pm = _mapping(part, q, "{deal: N, to: <recipients>}")
        for key in pm:
            if key not in ("deal", "to"):
                raise CaseError(f"{q}.{key}", "unknown key (an also: part takes deal: and to:)")
        if "deal" not in pm or "to" not in pm:
            raise CaseError(q, "an also: part needs deal: and to:")
        to = sel(pm["to"], f"{q}.to")
        if to.mentions("target") or to.mentions("any") or to.mentions("choice"):
            raise CaseError(f"{q}.to", "an also: part has no target of its own: name its recipients (you, that player, ...)")
        out.append((action_amount(pm["deal"], f"{q}.deal"), to))
    return tuple(out)


def _sacrificed(value: Any, path: str, mana_ability: bool) -> Selector:
    """``{sacrifice: creatures}`` ("Sacrifice a creature", 701.21a): one permanent of its
    controller's that the selector matches, their choice as the cost is paid (601.2h)."""
    if mana_ability:
        raise CaseError(path, "a mana ability's cost sacrifices only self (the permanent itself)")
    got = sel(value, path)
    if got.kind not in ("objects", "any_of") or any(p.kind != "objects" for p in got.parts):
        raise CaseError(path, f"sacrifice: self, or the permanents one of which is sacrificed (e.g. creatures), not {got}")
    return got
