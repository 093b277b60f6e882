"""Effects (replacement, prevention and rules-modifying, CR 614-616) and their riders (615.5)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..effects import (
    ALL_DAMAGE,
    AllBut,
    CountOf,
    EffectKind,
    HalfDamage,
    PreventAmount,
    ProtectionFrom,
    is_all,
)
from ..errors import CaseError
from ..kinds import ActionKind
from ..selectors import COLORS, Selector, SelectorKind
from ..types import (
    EFFECT_KINDS,
    GRANTABLE,
    LIFE_GAIN_KINDS,
    PLAYER_KINDS,
    EffectSpec,
    Rider,
)
from .common import (
    _MAY_KINDS,
    DAMAGE_ONLY_FILTERS,
    EFFECT_FILTERS,
    MANA_EFFECT_KEYS,
    MAX_AMOUNT,
    RIDER_KINDS,
    _bool,
    _count,
    _counter_kind,
    _mapping,
    _one_counter_kind,
    amount,
    mana_type,
    sel,
)
from .lifecond import parse_life_condition
from .losekw import ALL_COUNTERS, granted_trigger, lose_keywords

# selectors that name players only
_PLAYERS_ONLY = ("you", "opponents", "players", "that_player", "target_controller", "chosen_source_controller")

# the selectors a redirection may name (solver.rules._redirect_target reads each): kind -> as written
REDIRECT_TO = {"ref": "a player or an id", "self": "self", "target": "target", "you": "you", "chosen": "chosen",
               "equipped": "equipped creature", "enchanted": "enchanted creature",
               "chosen_source_controller": "chosen source's controller"}


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
    extra = set(m) - {kind, "to", "who"} - ({"if_prevented"} if not lost_ok else set()) \
        - ({"token", "tapped"} if kind == "create_tokens" else set())
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
        if to is not None and to.kind in _PLAYERS_ONLY:
            raise CaseError(f"{path}.to", f"{kind} here is for counters on permanents (a player's counters, such as "
                            f"poison, aren't put this way), not {m['to']!r}")
        return Rider(ActionKind(kind), amount(n, f"{path}.{kind}.{name}", lost_ok, not lost_ok), to, counter=name,
                     if_prevented=if_prevented)
    if kind == "create_tokens":
        # "create a 1/1 token for each 1 damage prevented this way" (111.1): the token is named
        # as the one-shot's (solver.tokens), created under the effect's controller (111.2)
        from .tokens import parse_token  # (a token's abilities are read by the ability parser)

        if "token" not in m:
            raise CaseError(path, "create_tokens needs token: (a predefined token such as Food, or its characteristics)")
        if to is not None:
            raise CaseError(f"{path}.{target_key}", "create_tokens creates the tokens under the effect's controller (111.2)")
        token = parse_token(m["token"], f"{path}.token")
        if "tapped" in m and _bool(m["tapped"], f"{path}.tapped"):
            token = dataclasses.replace(token, tapped=True)
        return Rider(ActionKind(kind), amount(m[kind], f"{path}.{kind}", lost_ok, not lost_ok), None,
                     if_prevented=if_prevented, token=token)
    return Rider(ActionKind(kind), amount(m[kind], f"{path}.{kind}", lost_ok, not lost_ok), to, if_prevented=if_prevented)


def parse_effect(value: Any, path: str, allowed_extra: tuple[str, ...] = (), static: bool = False) -> EffectSpec:
    """Parse one effect of the generic vocabulary (``{shield: 3, to: you}``); ``static``: a
    permanent's static ability (only it has a permanent of its own to be untapped)."""
    m = _mapping(value, path, "an effect")
    if "if_untapped" in m and not static:
        raise CaseError(f"{path}.if_untapped", "if_untapped (\"as long as ~ is untapped\") goes on a permanent's static "
                        "ability (abilities:): it reads whether the permanent with the ability is untapped")
    kinds = [k for k in m if k in EFFECT_KINDS]
    if not kinds:
        raise CaseError(path, f"an effect needs one of: {', '.join(EFFECT_KINDS)}")
    # a partial redirection is `redirect:` with `shield: N` (Harm's Way), in either key order
    kind = EffectKind("redirect" if "redirect" in kinds else "pt" if "pt" in kinds else kinds[0])
    # "gets +2/+2 and gains trample": `pt:` with `grant:`, one effect
    extra = [k for k in kinds if k != kind and not (kind == EffectKind.REDIRECT and k == "shield")
             and not (kind == EffectKind.PT and k == "grant")]
    if extra:
        raise CaseError(f"{path}.{extra[0]}", f"an effect has one kind; {kind} is already given")
    for key in m:
        if key not in EFFECT_KINDS and key not in EFFECT_FILTERS and key not in allowed_extra:
            raise CaseError(f"{path}.{key}", "unknown key")
    kpath = f"{path}.{kind}"
    raw = m[kind]
    value_out: Any
    shield_amount = None
    if kind == EffectKind.SHIELD:
        value_out = ALL_DAMAGE if raw == "all" else amount(raw, kpath)
    elif kind == EffectKind.PREVENT:
        value_out = _prevent_value(raw, kpath)
    elif kind in (EffectKind.MULTIPLY, EffectKind.GAIN_LIFE_TIMES):  # "double/triple that damage (life)"
        if raw not in (2, 3, 4):
            raise CaseError(kpath, f"{kind} must be 2, 3 or 4")
        value_out = raw
    elif kind in (EffectKind.ADD, EffectKind.SUBTRACT, EffectKind.CAP, EffectKind.LIFE_FLOOR, EffectKind.GAIN_LIFE_PLUS):
        value_out = _count(raw, kpath)
    elif kind == EffectKind.HALVE:  # "it deals half that damage, rounded down, instead": a replacement (614.1a)
        if raw not in ("down", "up"):
            raise CaseError(kpath, "halve is down or up (how the half is rounded)")
        value_out = raw
    elif kind == EffectKind.BECOMES_COLOR:
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
    elif kind == EffectKind.REGENERATE:
        # 701.19a: a shield for one object, fixed as the effect is created (611.2c)
        if raw is not True:
            raise CaseError(kpath, "regenerate takes true ({regenerate: true, to: self})")
        value_out = True
        to_raw = m.get("to")
        if not isinstance(to_raw, str) or sel(to_raw, f"{path}.to").kind not in ("ref", "target", "self"):
            raise CaseError(f"{path}.to", "regenerate needs to: an id, target or self (the permanent regenerated)")
        for key in m:
            if key not in ("regenerate", "to"):
                raise CaseError(f"{path}.{key}", "regenerate takes to: only (it lasts the turn, 701.19a)")
    elif kind == EffectKind.REDIRECT:
        value_out = sel(raw, kpath)
        if value_out.kind not in REDIRECT_TO:
            # 614.9: the damage goes to one permanent or player; a group would be read as nothing
            raise CaseError(kpath, f"a redirection names the one permanent or player the damage is dealt to instead "
                            f"({', '.join(REDIRECT_TO.values())}), not {raw!r}")
        if "shield" in m:
            shield_amount = amount(m["shield"], f"{path}.shield")
    elif kind == EffectKind.AS_UNBLOCKED:
        if raw is not True:
            raise CaseError(kpath, "as_unblocked takes true ({as_unblocked: true, to: self})")
        value_out = True
        if "to" not in m:
            raise CaseError(path, "as_unblocked needs to: (the creatures that may assign as though unblocked)")
        for key in m:
            if key not in ("as_unblocked", "to", "duration"):
                raise CaseError(f"{path}.{key}", f"as_unblocked takes to: and duration:, not {key}")
    elif kind in (EffectKind.CANT_BE_PREVENTED, EffectKind.CANT_BE_REDIRECTED, EffectKind.HEXPROOF, EffectKind.SHROUD, EffectKind.EXILE_INSTEAD,
                  EffectKind.ASSIGNS_BY_TOUGHNESS):
        value_out = _bool(raw, kpath)
    elif kind in PLAYER_KINDS:
        value_out = sel(raw, kpath)
    elif kind == EffectKind.PROTECTION:
        pm = _mapping(raw, kpath, "protection: {from_player: A} or {from: white sources}")
        if set(pm) not in ({"from_player"}, {"from"}):
            raise CaseError(kpath, "protection needs exactly one of from_player: <player> or from: <objects> "
                                   "(a quality, 702.16a: white sources, creatures, Demon sources)")
        if "from_player" in pm:
            value_out = ProtectionFrom(player=sel(pm["from_player"], f"{kpath}.from_player"))
        else:
            quality = sel(pm["from"], f"{kpath}.from")
            if not _object_selector(quality):
                raise CaseError(f"{kpath}.from", "protection from: names a quality of objects (white sources, "
                                                 "creatures, {types: [instant]}); a player is from_player:")
            value_out = ProtectionFrom(quality=quality)
    elif kind == EffectKind.DAMAGE_TO_COUNTERS:
        value_out = _counter_kind(raw, kpath)
    elif kind == EffectKind.FEWER_COUNTERS:
        # {-1/-1: 1}: "that many -1/-1 counters minus one are put on it instead"; {-1/-1: all}:
        # "can't have -1/-1 counters put on them" (Melira, 122.6: entering with them too)
        name, raw_n = _one_counter_kind(raw, kpath)
        value_out = (name, ALL_COUNTERS if raw_n == "all" else _count(raw_n, f"{kpath}.{name}"))
    elif kind == EffectKind.LOSE:
        value_out = lose_keywords(m, path)
    elif kind == EffectKind.GRANT_TRIGGER:
        value_out = granted_trigger(m, path)
    elif kind == EffectKind.AS_THOUGH:
        if raw not in ("infect", "wither"):
            raise CaseError(kpath, "as_though must be infect or wither")
        value_out = raw
    elif kind in (EffectKind.PT, EffectKind.GRANT):
        value_out = _pt_grant(m, path, kind)
    elif kind == EffectKind.REPLACE_MANA:
        if raw not in ("W", "U", "B", "R", "G", "C"):
            raise CaseError(kpath, "replace_mana must be one of W U B R G C")
        value_out = raw
    else:  # multiply_mana
        value_out = _count(raw, kpath)
    if kind in (EffectKind.EXILE_INSTEAD, EffectKind.ASSIGNS_BY_TOUGHNESS):
        what = "exiled if they would die" if kind == EffectKind.EXILE_INSTEAD else "that assign combat damage by toughness"
        for key in m:
            if key not in (kind.value, "to", "duration"):
                raise CaseError(f"{path}.{key}", f"{kind} takes to: (the permanents) and duration:, not {key}")
        if "to" not in m:
            raise CaseError(path, f"{kind} needs to: (the permanents {what})")
    if kind in (EffectKind.PT, EffectKind.GRANT):
        for key in m:
            if key not in ("pt", "grant", "to", "duration", "if_your_turn", "if_attacking", "if_life_at_most",
                           "if_life_at_least"):
                raise CaseError(f"{path}.{key}", f"{kind} takes to: (the permanents), duration:, if_your_turn:, "
                                                 f"if_attacking: and if_life_at_most:/if_life_at_least:, not {key}")
        if "if_attacking" in m and m.get("to") != "self":
            raise CaseError(f"{path}.if_attacking", "if_attacking (\"as long as it's attacking\") goes with to: self: it "
                                                    "reads whether the permanent with the ability is attacking")
        if "to" not in m:
            raise CaseError(path, f"{kind} needs to: (the permanents it changes: self, target, equipped creature, ...)")
        if kind == EffectKind.GRANT or value_out[2]:
            _no_keyword_reading(m["to"], f"{path}.to")
    elif "if_your_turn" in m:
        raise CaseError(f"{path}.if_your_turn", "if_your_turn goes with a pt: or grant: (\"during your turn\")")
    elif "if_attacking" in m:
        raise CaseError(f"{path}.if_attacking", "if_attacking goes with a pt: or grant: (\"as long as it's attacking\")")
    mana_filter, min_amount, mana_amount = _mana_filters(m, path, kind)
    if kind in LIFE_GAIN_KINDS or kind in PLAYER_KINDS:
        for key in DAMAGE_ONLY_FILTERS:
            if key in m:
                raise CaseError(f"{path}.{key}", f"{key} goes with effects on damage, not {kind}")
    if kind in PLAYER_KINDS and "to" in m:
        raise CaseError(f"{path}.to", f"{kind} names its players itself ({kind}: you), not with to:")
    life = parse_life_condition(m, path, kind)
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
    if next_time and kind == EffectKind.PREVENT and is_all(value_out):
        # "the next time ... prevent that damage" is a one-instance shield (615.8)
        kind = EffectKind.SHIELD
    elif next_time and kind == EffectKind.REDIRECT and shield_amount is not None:
        raise CaseError(f"{path}.next_time", "next_time goes with a whole redirection (the next time ... that damage is "
                        "dealt to ... instead), not with shield: N (the next N damage)")
    elif next_time and kind not in (EffectKind.SHIELD, EffectKind.PREVENT, EffectKind.REDIRECT):
        raise CaseError(f"{path}.next_time", "next_time goes with a prevention effect (CR 615.8) or a redirection (614.9)")
    if kind == EffectKind.LIFE_FLOOR and "to" in m and sel(m["to"], f"{path}.to").kind in (SelectorKind.OBJECTS, SelectorKind.SELF, SelectorKind.EQUIPPED, SelectorKind.ENCHANTED):
        raise CaseError(f"{path}.to", f"a life floor is a player's life total's (CR 119.1, 614.1a): to: names players, not {m['to']!r}")
    for key in ("to", "from"):
        if key in m and sel(m[key], f"{path}.{key}").reads_power():
            # 613.8: an effect applying to creatures by their power depends on the P/T effects; not modelled
            raise CaseError(f"{path}.{key}", "a continuous effect's permanents chosen by power (power_at_least/"
                            "power_at_most) are not modelled (CR 613.8: a dependency in the power/toughness layer)")
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
        may=optional,
        if_you_control=sel(m["if_you_control"], f"{path}.if_you_control") if "if_you_control" in m else None,
        if_life_at_most=life.at_most,
        if_life_at_least=life.at_least,
        life_from_start=life.from_start,
        if_your_turn=_bool(m["if_your_turn"], f"{path}.if_your_turn") if "if_your_turn" in m else None,
        if_attacking=_bool(m["if_attacking"], f"{path}.if_attacking") if "if_attacking" in m else False,
        if_untapped=_bool(m["if_untapped"], f"{path}.if_untapped") if "if_untapped" in m else False,
        mana=mana_filter,
        min_amount=min_amount,
        mana_amount=mana_amount,
    )


def _object_selector(s: Selector) -> bool:
    """A quality of objects (702.16a): the phrase grammar or the mapping form, or a list of them."""
    return s.kind == SelectorKind.OBJECTS or (s.kind == SelectorKind.ANY_OF and all(_object_selector(p) for p in s.parts))


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
