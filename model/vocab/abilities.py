"""Abilities (CR 113.3): activated and spell abilities, triggers (603), as-enters choices, mana
abilities (605), with their costs, conditions and targets."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..effects import EffectKind
from ..errors import CaseError
from ..expr import expr_vars
from ..kinds import AbilityKind, ActionKind, AsEntersChoice, TriggerEvent
from ..selectors import Selector, SelectorKind
from ..types import (
    EFFECT_KINDS,
    MANA_TYPES,
    Ability,
    Condition,
    OneShot,
)
from .actions import parse_one_shot
from .common import (
    CAST_SPELLS,
    TRIGGERS,
    _bool,
    _count,
    _counter_kind,
    _mapping,
    _parts,
    amount,
    mana_type,
    sel,
)
from .costs import _cast_cost, _cost, _ward
from .effects import parse_effect

_ABILITY_KEYS = {"activated", "spell", "trigger", "as_enters", "enters_with", "mana", "modes", "kicker", "ward",
                 "cant_be_countered", "cast_cost"}


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


_CONDITION_KEYS = {"life_lost_at_least": ("life_lost", "least"), "life_lost_at_most": ("life_lost", "most"),
                   "life_gained_at_least": ("life_gained", "least"), "life_gained_at_most": ("life_gained", "most"),
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
    # the player dealt damage: dealt_damage's, and combat_damage_to_player's (510.3a: the player it hit)
    # deals_damage's with to: (each recipient's own trigger, 120.2); the player who cast the spell
    # (a cast trigger's, 601.2i); the player whose upkeep or end step it is (503.1a, 513.1a); the
    # defending player of an attacks trigger (508.1m, 506.2)
    if shot.to.mentions(SelectorKind.THAT_PLAYER) and trig not in ("dealt_damage", "combat_damage_to_player", "cast", "upkeep", "end_step",
                                                        "attacks", "draws") \
            and not (trig == "deals_damage" and "to" in m):
        where = ("may." if shot.may else "") + ("to" if shot.kind in (ActionKind.DEAL, ActionKind.PUT_COUNTERS) else "who")
        raise CaseError(f"{path}.do.{where}", "'that player' is the player who tapped a permanent for mana, the player dealt damage, "
                        f"the player who cast the spell, whose upkeep or end step it is, the defending player, or who drew the card; "
                        f"a {trig} trigger has none")


def _actions(value: list[Any], path: str) -> tuple[OneShot, tuple[OneShot, ...]]:
    """``[a, b, ...]``: an ability's instructions, done in order as one resolution (608.2c). A
    target is the ability's ``target:`` (chosen as it is put on the stack, 601.2c, 603.3d), which
    ``to: target`` / ``who: target`` read; ``to: any`` or ``choice`` in a list is an error."""
    if not value:
        raise CaseError(path, "expected at least one action")
    shots = tuple(parse_one_shot(v, f"{path}[{i}]") for i, v in enumerate(value))
    for i, shot in enumerate(shots):
        if shot.to.kind in (SelectorKind.ANY, SelectorKind.CHOICE):
            key = "to" if shot.kind in (ActionKind.DEAL, ActionKind.PUT_COUNTERS) else "who"
            raise CaseError(f"{path}[{i}].{'may.' if shot.may else ''}{key}",
                            f"{shot.to.kind} in a list of actions: give the ability target: <requirement> and write target here")
    return shots[0], shots[1:]


def _second_target(m: Mapping[str, Any], target: Selector | None, targets: Any, action: OneShot | None,
                   more: tuple[OneShot, ...], effect: Any, path: str) -> tuple[Selector | None, bool]:
    """A spell's ``second_target: <requirement>`` (601.2c: each instance of the word "target" is
    its own target; ``another: true``: "another target creature", a different one) and the
    ``second target`` its actions name: only with a first ``target:``, not with ``targets:``."""
    second = sel(m["second_target"], f"{path}.second_target") if "second_target" in m else None
    another = _bool(m["another"], f"{path}.another") if "another" in m else False
    if "another" in m and second is None:
        raise CaseError(f"{path}.another", "another: goes with second_target: (\"another target creature\")")
    if second is not None and (target is None or targets is not None):
        raise CaseError(f"{path}.second_target", "a second target goes with one first target: (not targets:)")
    named = any(s.mentions(SelectorKind.SECOND_TARGET) for shot in ((action,) if action else ()) + more
                for s in (shot.to, *(to for _, to in shot.also)))
    if effect is not None and any(s is not None and s.mentions(SelectorKind.SECOND_TARGET) for s in (effect.to, effect.from_)):
        raise CaseError(path, "second target is read by a spell's one-shot actions (deal, destroy, ...), not by an effect")
    if named and second is None and (target is not None or "spell" not in m):
        # (a spell's untargeted later part may name it: the card's targeted part has second_target:,
        # which model.load checks)
        raise CaseError(path, "second target needs second_target: (the requirement of the spell's second target)")
    return second, another


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
    if action is None or action.kind != ActionKind.DEAL or action.to.kind != SelectorKind.TARGET or action.may or action.also:
        raise CaseError(f"{path}.spell", "a spell with targets: is modelled for deal: N, to: target (optionally divided: true)")
    if divided and not (action.amount[0] == "int" or action.amount == ("var", "X")):
        raise CaseError(f"{path}.spell.deal", "divided damage is a number or X: it is divided as the spell is cast (601.2d)")
    return lo, hi


def _modal_trigger(m: Mapping[str, Any], path: str) -> Ability:
    """``{trigger: enters, choose_one: [{do: ..., target: ...}, {do: ...}]}``: "When ~ enters,
    choose one — • ... • ..." (700.2b, 603.3c): the trigger's controller chooses one mode as it puts
    the ability on the stack; a mode whose target can't be chosen can't be chosen. Each mode is the
    trigger with that mode's ``do:`` and ``target:``."""
    if "do" in m or "target" in m:
        raise CaseError(f"{path}.{'do' if 'do' in m else 'target'}", "a modal trigger's do: and target: are its modes' (choose_one:)")
    raw = m["choose_one"]
    if not isinstance(raw, list) or len(raw) < 2:
        raise CaseError(f"{path}.choose_one", "expected a list of two or more modes, each {do: ..., target: ...}")
    base = {k: v for k, v in m.items() if k != "choose_one"}
    modes = []
    for q, mm in _parts(raw, f"{path}.choose_one", "a mode", ("do", "target")):
        modes.append(parse_ability({**base, **mm}, q))
    first = modes[0]
    return Ability(AbilityKind.TRIGGER, trigger=first.trigger, trigger_to=first.trigger_to, trigger_from=first.trigger_from,
                   trigger_combat=first.trigger_combat, turn=first.turn, text=first.text, trigger_mana=first.trigger_mana,
                   trigger_min=first.trigger_min, trigger_if=first.trigger_if, trigger_spell=first.trigger_spell,
                   choices=tuple(modes))


def emblem_trigger(value: Any, path: str) -> Ability:
    """``{emblem: {trigger: cast, do: {deal: 5, to: any}}}``: an emblem with a triggered ability
    (114.1, 114.4: it works from the command zone; its damage is the emblem's, its ``self``)."""
    ab = parse_ability(value, path)
    if ab.kind != AbilityKind.TRIGGER:
        raise CaseError(path, "an emblem's ability is a pt:/grant: effect or a trigger")
    return ab


def _emblem(value: Any, path: str) -> Any:
    """``{emblem: {pt: [1, 1], to: creatures you control}}``: "You get an emblem with "Creatures you
    control get +1/+1."" (114.1): the emblem's static ability, a power/toughness change or keywords
    (613.4c, 613.1f) for creatures its owner controls, whenever they are (611.3a, 114.4)."""
    effect = parse_effect(value, path, static=True)
    if effect.kind not in (EffectKind.PT, EffectKind.GRANT) or effect.to is None or effect.to.kind not in ("objects", "any_of") \
            or any(p.kind != SelectorKind.OBJECTS for p in effect.to.parts) or effect.if_attacking or effect.if_your_turn is not None:
        raise CaseError(path, "an emblem is modelled with a pt: or grant: for permanents such as creatures you control")
    return effect


def _if_x(m: Mapping[str, Any], path: str) -> Ability:
    """``{cant_be_countered: true, if_x_at_least: 5}`` and ``{cant_be_prevented: true, from: self,
    if_x_at_least: 5}``: Banefire's "If X is 5 or more, this spell can't be countered and the damage
    can't be prevented." (107.3: the spell's X; 101.2, 615.12), static abilities of the spell."""
    n = _count(m["if_x_at_least"], f"{path}.if_x_at_least")
    rest = {k: v for k, v in m.items() if k != "if_x_at_least"}
    ab = parse_ability(rest, path)
    ok = ab.kind == AbilityKind.CANT_BE_COUNTERED or (
        ab.kind == AbilityKind.STATIC and ab.effect is not None and ab.effect.kind == EffectKind.CANT_BE_PREVENTED
        and ab.effect.from_ is not None and ab.effect.from_.kind == SelectorKind.SELF and ab.effect.to is None)
    if not ok:
        raise CaseError(f"{path}.if_x_at_least", "if_x_at_least goes with cant_be_countered: true or with "
                        "{cant_be_prevented: true, from: self} (a spell's own damage)")
    return dataclasses.replace(ab, x_at_least=n)


def parse_ability(value: Any, path: str) -> Ability:
    """One ability of a permanent or spell (see model/cards/README.md)."""
    m = _mapping(value, path, "an ability")
    if "if_x_at_least" in m:
        return _if_x(m, path)
    text = str(m.get("text", ""))
    if "activated" in m or "spell" in m:
        kind = "activated" if "activated" in m else "spell"
        for key in m:
            if key not in (kind, "target", "once", "cost", "text", "choose") + (("timing",) if kind == "activated" else ()) + \
                    (("targets", "mode", "if_kicked", "second_target", "another") if kind == "spell" else ()):
                raise CaseError(f"{path}.{key}", "unknown key")
        effect = action = None
        more: tuple[OneShot, ...] = ()
        emblem_ability = None
        emblem = isinstance(m[kind], Mapping) and set(m[kind]) == {"emblem"}
        if isinstance(m[kind], list) and kind == "activated":
            action, more = _actions(m[kind], f"{path}.{kind}")
        elif emblem and isinstance(m[kind]["emblem"], Mapping) and "trigger" in m[kind]["emblem"]:
            emblem_ability = emblem_trigger(m[kind]["emblem"], f"{path}.{kind}.emblem")
        elif emblem:
            effect = _emblem(m[kind]["emblem"], f"{path}.{kind}.emblem")
        else:
            body = _mapping(m[kind], f"{path}.{kind}", "an effect or one-shot action")
            if any(k in body for k in EFFECT_KINDS):
                effect = parse_effect(body, f"{path}.{kind}")
                if effect.kind in (EffectKind.PT, EffectKind.GRANT) and effect.to is not None and effect.to.kind not in ("self", "target", "ref", "objects", "any_of"):
                    # 611.2c: it changes the objects there as it resolves, not those that come later
                    raise CaseError(f"{path}.{kind}.to", f"a {effect.kind} effect created by a spell or ability changes "
                                    "the permanents there as it resolves (CR 611.2c): self, target, an id or permanents "
                                    "such as creatures you control")
            else:
                action = parse_one_shot(body, f"{path}.{kind}", divided_ok=kind == "spell")
        target = sel(m["target"], f"{path}.target") if "target" in m else None
        targets = _targets_range(m, action, path) if kind == "spell" else None
        once = _bool(m["once"], f"{path}.once") if "once" in m else False
        # timing: sorcery: "Activate only as a sorcery." (602.5d, 307.1)
        if "timing" in m and m["timing"] != "sorcery":
            raise CaseError(f"{path}.timing", "expected timing: sorcery (\"activate only as a sorcery\", 602.5d)")
        cost = _cost(m["cost"], f"{path}.cost") if "cost" in m else ()
        choose = sel(m["choose"], f"{path}.choose") if "choose" in m else None
        if choose is not None and effect is None:
            raise CaseError(f"{path}.choose", "choose: goes with an ability that creates an effect (its chosen permanent)")
        mode = _count(m["mode"], f"{path}.mode") if "mode" in m else 0
        if "mode" in m and mode < 1:
            raise CaseError(f"{path}.mode", "modes are numbered from 1, in the order printed (700.2)")
        kicked = _bool(m["if_kicked"], f"{path}.if_kicked") if "if_kicked" in m else None
        second, another = _second_target(m, target, targets, action, more, effect, path)
        return Ability(AbilityKind(kind), effect=effect, action=action, more=more, target=target, targets=targets, once=once,
                       cost=cost, text=text, choose=choose, mode=mode, kicked=kicked, second_target=second, another=another,
                       emblem=emblem, sorcery="timing" in m, emblem_ability=emblem_ability)
    if "ward" in m:
        return _ward(m, path, text)
    if "cant_be_countered" in m:
        # "This spell can't be countered." (101.2: a spell or ability that counters it does nothing to it)
        if m["cant_be_countered"] is not True or set(m) - {"cant_be_countered", "text"}:
            raise CaseError(f"{path}.cant_be_countered", "expected cant_be_countered: true")
        return Ability(AbilityKind.CANT_BE_COUNTERED, text=text)
    if "cast_cost" in m:
        return _cast_cost(m, path, text)
    if "kicker" in m:
        # "Kicker {2}" (702.33a): an optional additional cost its caster may pay as it is cast
        if m["kicker"] is not True or set(m) - {"kicker", "text"}:
            raise CaseError(f"{path}.kicker", "expected kicker: true (its mana cost isn't tracked)")
        return Ability(AbilityKind.KICKER, text=text)
    if "modes" in m:
        # "Choose one —" (700.2): how many of the spell's modes its caster chooses (601.2b)
        for key in m:
            if key not in ("modes", "entwine", "repeat", "text"):
                raise CaseError(f"{path}.{key}", "unknown key (modes: takes N or {min: N, max: N}, entwine: true and repeat: true)")
        # "You may choose the same mode more than once." (700.2d)
        if "repeat" in m and m["repeat"] is not True:
            raise CaseError(f"{path}.repeat", "expected repeat: true (\"you may choose the same mode more than once\", 700.2d)")
        # "Entwine [cost]" (702.42a): its caster may choose all the modes instead, paying the cost
        # (mana isn't tracked, so it can always be paid)
        if "entwine" in m and m["entwine"] is not True:
            raise CaseError(f"{path}.entwine", "expected entwine: true (its cost isn't tracked)")
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
        return Ability(AbilityKind.MODES, modes=(lo, hi), entwine="entwine" in m, repeat="repeat" in m, text=text)
    if "trigger" in m and "choose_one" in m:
        return _modal_trigger(m, path)
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
            if effect.to is None or effect.to.kind not in ("self", "target", "objects", "any_of"):
                raise CaseError(f"{path}.do.to", "an effect created by a trigger changes the permanents there as it resolves "
                                "(CR 611.2c): self, target or permanents such as creatures you control")
            first, more = None, ()
        else:
            first, more = _actions(m["do"], f"{path}.do") if isinstance(m["do"], list) else (parse_one_shot(m["do"], f"{path}.do"), ())
            for shot in (first, *more):
                _check_mana_trigger(m, path, trig, shot)
        if trig == "draws":
            # "Whenever you draw a card" (121.2: each card drawn): to: whose draws it watches, you by default
            for key in ("from", "combat", "turn"):
                if key in m:
                    raise CaseError(f"{path}.{key}", "a draws trigger (\"whenever you draw a card\") takes to: (the "
                                    "players whose draws it watches) only")
        if trig == "attacks":
            # "Whenever ~ attacks" (508.1m): its own permanent, or with from: the attacking creatures it names
            for key in ("to", "combat", "turn"):
                if key in m:
                    raise CaseError(f"{path}.{key}", "an attacks trigger watches its own permanent attacking (\"Whenever ~ "
                                    "attacks\"), or with from: the creatures it names; it takes no other filter")
        if trig in ("enters", "dies"):
            what = "an enters trigger watches its own permanent entering (\"When this enters\"), or with from: the permanents it names" \
                if trig == "enters" else ("a dies trigger watches its own permanent dying (\"When this dies\", 603.6c), "
                                          "or with from: the permanents it names")
            for key in ("to", "combat", "turn"):
                if key in m:
                    raise CaseError(f"{path}.{key}", f"{what}; it takes no filter")
        spell = m.get("spells", "any")
        if "spells" in m and trig != "cast":
            raise CaseError(f"{path}.spells", "spells: filters cast triggers only")
        if spell not in CAST_SPELLS:
            raise CaseError(f"{path}.spells", f"spells must be one of {', '.join(CAST_SPELLS)}")
        if trig == "cast":
            # to: whose casting it watches ("whenever a player casts", "an opponent casts"); you by default
            for key in ("from", "combat", "turn"):
                if key in m:
                    raise CaseError(f"{path}.{key}", "a cast trigger (\"whenever you cast a ... spell\") takes spells: and to: only")
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
        if m["as_enters"] not in set(AsEntersChoice) or set(m) - {"as_enters", "text"}:
            raise CaseError(f"{path}.as_enters", f"the as-enters choices are {' and '.join(AsEntersChoice)} (614.12)")
        return Ability(AbilityKind.AS_ENTERS, choice=AsEntersChoice(m["as_enters"]), text=text)
    if "enters_with" in m:
        for key in m:
            if key not in ("enters_with", "text"):
                raise CaseError(f"{path}.{key}", "unknown key")
        return Ability(AbilityKind.ENTERS_WITH, counters=_enters_with(m["enters_with"], f"{path}.enters_with"), text=text)
    if "mana" in m and not any(k in m for k in EFFECT_KINDS):  # else `mana:` filters a mana replacement
        for key in m:
            if key not in ("mana", "cost", "amount", "text", "then", "once"):
                raise CaseError(f"{path}.{key}", "unknown key")
        raw = m["mana"]
        mana: Any
        if isinstance(raw, list) and all(s in ("W", "U", "B", "R", "G", "C") for s in raw) and raw:
            mana = tuple(raw)
        elif isinstance(raw, Mapping) and len(raw) == 1 and next(iter(raw)) in ("any_type_of", "any_color_of"):
            k = next(iter(raw))
            mana = (k, sel(raw[k], f"{path}.mana.{k}"))
        elif raw in ("any_color", "any", "chosen_color"):
            # chosen_color: "Add one mana of the chosen color." (the permanent's chosen_color:, 614.1c)
            mana = (raw,)
        elif (isinstance(raw, Mapping) and set(raw) == {"one_of"} and isinstance(raw["one_of"], list)
              and len(raw["one_of"]) >= 2 and all(s in MANA_TYPES for s in raw["one_of"])):
            # "{T}: Add {R} or {G}.": one ability, its controller chooses the type (605.1a, 106.1)
            mana = ("one_of", tuple(raw["one_of"]))
        else:
            raise CaseError(f"{path}.mana", "expected a list of W U B R G C, any_color, any, chosen_color, {one_of: [R, G]}, or {any_type_of: <selector>}")
        amt = _count(m.get("amount", 1), f"{path}.amount")
        # "Add {W} or {B}. This land deals 1 damage to you." (a painland): actions done as the
        # mana ability resolves, after the mana is added (605.3a, 608.2c)
        then: tuple[OneShot, ...] = ()
        if "then" in m:
            then = (parse_one_shot(m["then"], f"{path}.then"),)
            if then[0].to.kind in (SelectorKind.ANY, SelectorKind.TARGET, SelectorKind.CHOICE):
                raise CaseError(f"{path}.then", "a mana ability has no target (605.1a): name who, e.g. to: you")
        # "Activate only once each turn." (602.5b): a mana ability is an activated ability (605.1a)
        once = _bool(m["once"], f"{path}.once") if "once" in m else False
        return Ability(AbilityKind.MANA, mana=mana, cost=_cost(m.get("cost", []), f"{path}.cost", mana_ability=True),
                       amount=amt, text=text, more=then, once=once)
    # a static ability: an effect of the vocabulary
    if not any(k in m for k in EFFECT_KINDS):
        raise CaseError(path, "unknown ability: expected an effect, activated:, spell:, trigger:, as_enters:, enters_with:, modes:, "
                        "kicker:, ward:, cant_be_countered: or mana:")
    static = parse_effect({k: v for k, v in m.items() if k != "text"}, path, static=True)
    if static.kind == EffectKind.REGENERATE:
        raise CaseError(path, "regenerate is an effect a resolving spell or ability creates (701.19a), not a static "
                              "ability: write it in activated:, spell: or effects:")
    if static.kind == EffectKind.BECOMES_COLOR:
        raise CaseError(path, "a static colour-changing ability is not modelled (only effects created by spells and abilities, 611.2c)")
    if static.next_time:
        # 615.8: "the next time ..." is an effect a resolving spell or ability creates, used up
        # once it applied; a static ability's would apply for ever
        raise CaseError(f"{path}.next_time", "next_time is an effect a resolving spell or ability creates (CR 615.8), not a "
                        "static ability: write it in activated:, spell: or effects:")
    return Ability(AbilityKind.STATIC, effect=static, text=text)
