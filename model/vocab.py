"""The generic effect vocabulary: effects, riders, one-shot actions, abilities and triggers.

Each parser takes the YAML value and its field path and raises :class:`CaseError` at the exact
path of the first problem, so ``validate`` can say ``battlefield[2].abilities[0].prevent: ...``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import CaseError
from .expr import ExprError, parse_expr
from .selectors import Selector, SelectorError, parse_selector
from .types import EFFECT_KINDS, Ability, EffectSpec, OneShot, Rider

__all__ = [
    "parse_effect", "parse_ability", "parse_one_shot", "sel", "amount", "TRIGGERS",
    "ONE_SHOT_KINDS", "EFFECT_FILTERS",
]

TRIGGERS = ("combat_damage_to_player", "deals_damage", "dealt_damage", "damage_prevented",
            "gain_life", "end_step")
ONE_SHOT_KINDS = ("deal", "lose_life", "gain_life", "draw")
EFFECT_FILTERS = ("to", "from", "combat", "next_time", "source_choice", "duration", "then", "shield",
                  "if_you_control")
RIDER_KINDS = ("deal", "gain_life", "draw", "create_tokens", "lose_life")
MAX_AMOUNT = 1_000_000


def sel(value: Any, path: str) -> Selector:
    try:
        return parse_selector(value)
    except SelectorError as exc:
        raise CaseError(f"{path}.{exc.key}" if exc.key else path, str(exc)) from None


def amount(value: Any, path: str) -> Any:
    try:
        return parse_expr(value)
    except ExprError as exc:
        raise CaseError(path, str(exc)) from None


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
        raise CaseError(path, f"expected a whole number, got {_kind(value)}")
    if value < 0:
        raise CaseError(path, f"must not be negative (got {value})")
    if value > MAX_AMOUNT:
        raise CaseError(path, f"{value} is absurdly large (at most {MAX_AMOUNT})")
    return value


def _prevent_value(value: Any, path: str) -> Any:
    if value in ("all", "half_up", "half_down"):
        return value
    if isinstance(value, Mapping):
        if set(value) == {"all_but"}:
            return ("all_but", _count(value["all_but"], f"{path}.all_but"))
        if set(value) == {"count"}:
            return ("count", sel(value["count"], f"{path}.count"))
        raise CaseError(path, "expected all_but: N or count: <selector>")
    return amount(value, path)


def _rider(value: Any, path: str) -> Rider:
    m = _mapping(value, path, "a rider such as {deal: prevented, to: A}")
    kinds = [k for k in m if k in RIDER_KINDS]
    if len(kinds) != 1:
        raise CaseError(path, f"a rider needs exactly one of {', '.join(RIDER_KINDS)}")
    kind = kinds[0]
    extra = set(m) - {kind, "to", "who"}
    if extra:
        raise CaseError(f"{path}.{sorted(extra)[0]}", "unknown key")
    target_key = "to" if "to" in m else "who"
    if kind == "deal" and "to" not in m:
        raise CaseError(path, "deal needs to:")
    to = sel(m[target_key], f"{path}.{target_key}") if target_key in m else None
    return Rider(kind, amount(m[kind], f"{path}.{kind}"), to)


def parse_effect(value: Any, path: str, allowed_extra: tuple[str, ...] = ()) -> EffectSpec:
    """Parse one effect of the generic vocabulary (``{shield: 3, to: you}``)."""
    m = _mapping(value, path, "an effect")
    kinds = [k for k in m if k in EFFECT_KINDS]
    if not kinds:
        raise CaseError(path, f"an effect needs one of: {', '.join(EFFECT_KINDS)}")
    # a partial redirection is `redirect:` with `shield: N` (Harm's Way), in either key order
    kind = "redirect" if "redirect" in kinds else kinds[0]
    extra = [k for k in kinds if k != kind and not (kind == "redirect" and k == "shield")]
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
        value_out = "all" if raw == "all" else amount(raw, kpath)
    elif kind == "prevent":
        value_out = _prevent_value(raw, kpath)
    elif kind == "multiply":
        if raw not in (2, 3, 4):
            raise CaseError(kpath, "multiply must be 2, 3 or 4")
        value_out = raw
    elif kind in ("add", "cap", "life_floor"):
        value_out = _count(raw, kpath)
    elif kind == "redirect":
        value_out = sel(raw, kpath)
        if "shield" in m:
            shield_amount = amount(m["shield"], f"{path}.shield")
    elif kind in ("cant_be_prevented", "hexproof", "shroud"):
        value_out = _bool(raw, kpath)
    elif kind == "cant_gain_life":
        value_out = sel(raw, kpath)
    elif kind == "protection":
        pm = _mapping(raw, kpath, "protection: {from_player: A}")
        if set(pm) != {"from_player"}:
            raise CaseError(kpath, "protection needs exactly from_player: <player>")
        value_out = sel(pm["from_player"], f"{kpath}.from_player")
    elif kind == "as_though":
        if raw not in ("infect", "wither"):
            raise CaseError(kpath, "as_though must be infect or wither")
        value_out = raw
    elif kind == "replace_mana":
        if raw not in ("W", "U", "B", "R", "G", "C"):
            raise CaseError(kpath, "replace_mana must be one of W U B R G C")
        value_out = raw
    else:  # multiply_mana
        value_out = _count(raw, kpath)
    combat = _bool(m["combat"], f"{path}.combat") if "combat" in m else None
    duration = m.get("duration", "turn")
    if duration not in ("turn", "until_used", "permanent"):
        raise CaseError(f"{path}.duration", "duration must be turn or until_used")
    source_choice = m.get("source_choice")
    if source_choice is not None and not isinstance(source_choice, str):
        raise CaseError(f"{path}.source_choice", "expected the id of the chosen source")
    next_time = _bool(m["next_time"], f"{path}.next_time") if "next_time" in m else False
    if next_time and kind == "prevent" and value_out == "all":
        # "the next time ... prevent that damage" is a one-instance shield (615.8)
        kind, value_out = "shield", "all"
    elif next_time and kind not in ("shield", "prevent"):
        raise CaseError(f"{path}.next_time", "next_time goes with a prevention effect (CR 615.8)")
    return EffectSpec(
        kind=kind,
        value=value_out,
        to=sel(m["to"], f"{path}.to") if "to" in m else None,
        from_=sel(m["from"], f"{path}.from") if "from" in m else None,
        combat=combat,
        next_time=next_time,
        source_choice=source_choice,
        duration=duration,
        then=_rider(m["then"], f"{path}.then") if "then" in m else None,
        shield=shield_amount,
        if_you_control=sel(m["if_you_control"], f"{path}.if_you_control") if "if_you_control" in m else None,
    )


def parse_one_shot(value: Any, path: str) -> OneShot:
    """``{deal: 3, to: A}``, ``{lose_life: N, who: opponents}``, ``{may: {...}}``."""
    m = _mapping(value, path, "a one-shot action")
    if set(m) == {"may"}:
        inner = parse_one_shot(m["may"], f"{path}.may")
        return OneShot(inner.kind, inner.amount, inner.to, inner.source, inner.combat, True)
    kinds = [k for k in m if k in ONE_SHOT_KINDS]
    if len(kinds) != 1:
        raise CaseError(path, f"expected exactly one of {', '.join(ONE_SHOT_KINDS)}")
    kind = kinds[0]
    allowed = {kind, "to", "who", "from", "combat"}
    for key in m:
        if key not in allowed:
            raise CaseError(f"{path}.{key}", "unknown key")
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
    return OneShot(kind, amount(m[kind], f"{path}.{kind}"), target, source, combat)


_ABILITY_KEYS = {"activated", "spell", "trigger", "as_enters", "mana"}


def parse_ability(value: Any, path: str) -> Ability:
    """One ability of a permanent or spell (see model/cards/README.md)."""
    m = _mapping(value, path, "an ability")
    text = str(m.get("text", ""))
    if "activated" in m or "spell" in m:
        kind = "activated" if "activated" in m else "spell"
        for key in m:
            if key not in (kind, "target", "once", "cost", "text"):
                raise CaseError(f"{path}.{key}", "unknown key")
        body = _mapping(m[kind], f"{path}.{kind}", "an effect or one-shot action")
        effect = action = None
        if any(k in body for k in EFFECT_KINDS):
            effect = parse_effect(body, f"{path}.{kind}")
        else:
            action = parse_one_shot(body, f"{path}.{kind}")
        target = sel(m["target"], f"{path}.target") if "target" in m else None
        once = _bool(m["once"], f"{path}.once") if "once" in m else False
        return Ability(kind, effect=effect, action=action, target=target, once=once, text=text)
    if "trigger" in m:
        for key in m:
            if key not in ("trigger", "do", "to", "from", "combat", "turn", "text"):
                raise CaseError(f"{path}.{key}", "unknown key")
        trig = m["trigger"]
        if trig not in TRIGGERS:
            raise CaseError(f"{path}.trigger", f"unknown trigger {trig!r}; expected one of {', '.join(TRIGGERS)}")
        if "do" not in m:
            raise CaseError(path, "a trigger needs do:")
        turn = m.get("turn", "each")
        if turn not in ("each", "yours"):
            raise CaseError(f"{path}.turn", "turn must be each or yours")
        return Ability(
            "trigger", action=parse_one_shot(m["do"], f"{path}.do"), trigger=trig,
            trigger_to=sel(m["to"], f"{path}.to") if "to" in m else None,
            trigger_from=sel(m["from"], f"{path}.from") if "from" in m else None,
            trigger_combat=_bool(m["combat"], f"{path}.combat") if "combat" in m else None,
            turn=turn, text=text,
        )
    if "as_enters" in m:
        if m["as_enters"] != "choose_opponent" or set(m) - {"as_enters", "text"}:
            raise CaseError(f"{path}.as_enters", "the only as-enters choice is choose_opponent")
        return Ability("as_enters", choice="choose_opponent", text=text)
    if "mana" in m:
        for key in m:
            if key not in ("mana", "cost", "amount", "text"):
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
        else:
            raise CaseError(f"{path}.mana", "expected a list of W U B R G C, any_color, or {any_type_of: <selector>}")
        cost = m.get("cost", [])
        if not isinstance(cost, list):
            raise CaseError(f"{path}.cost", "expected a list such as [T]")
        for i, c in enumerate(cost):
            if c not in ("T", "Q") and not (isinstance(c, Mapping) and set(c) == {"pay_life"}):
                if not isinstance(c, str):
                    raise CaseError(f"{path}.cost[{i}]", "expected T, Q, a mana symbol or {pay_life: N}")
        amt = _count(m.get("amount", 1), f"{path}.amount")
        frozen_cost = tuple(c if isinstance(c, str) else ("pay_life", c["pay_life"]) for c in cost)
        return Ability("mana", mana=mana, cost=frozen_cost, amount=amt, text=text)
    # a static ability: an effect of the vocabulary
    if not any(k in m for k in EFFECT_KINDS):
        raise CaseError(path, "unknown ability: expected an effect, activated:, spell:, trigger:, as_enters: or mana:")
    return Ability("static", effect=parse_effect({k: v for k, v in m.items() if k != "text"}, path), text=text)
