"""A case read as the things phase.rs can be told to do, and everything it can't be told.

The board: each player's life, life lost and gained this turn and poison (written into phase's
player state), each permanent as the real card of that name
moved onto the battlefield under its controller (a vanilla ad-hoc creature as a debug token),
attackers and blockers declared in a real combat, Auras and Equipment attached (a debug ``Attach``). Effects already created are re-created by
doing what created them: a shield whose source is a permanent with an ``{X}:`` activated ability
(Vengeful Archon) is that ability activated for X with the rider's target. Actions: ``combat``,
``end_step``, ``activate`` and ``damage`` from a real instant or sorcery (cast at its target). Anything else —
and every key of an entry beyond those — is listed in ``unsupported``: a case with any is not run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mtg_outcomes.model.carddata import MissingFace, UnknownCard, find
from mtg_outcomes.model.kinds import AbilityKind
from mtg_outcomes.model.types import Case, PermanentSpec, SourceSpec

__all__ = ["Activate", "Cast", "Combat", "EndStep", "Perm", "Plan", "plan_case"]

_PERM_KEYS = {"id", "card", "name", "controller", "attacking", "blocking", "tapped", "summoning_sick", "attached_to"}
_VANILLA_KEYS = {"types", "subtypes", "colors", "power", "toughness", "keywords"}
_KEYWORDS = {"flying": "Flying", "trample": "Trample", "deathtouch": "Deathtouch", "lifelink": "Lifelink",
             "first strike": "FirstStrike", "double strike": "DoubleStrike", "vigilance": "Vigilance",
             "reach": "Reach", "haste": "Haste", "indestructible": "Indestructible", "menace": "Menace",
             "defender": "Defender", "infect": "Infect", "wither": "Wither"}
# a player's counts this turn and poison: fields of phase's player state, set in the state itself
_PLAYER_STATE = {"life_lost_this_turn": "life_lost_this_turn", "life_gained_this_turn": "life_gained_this_turn",
                 "poison": "poison_counters"}
_COLOURS = {"white": "White", "blue": "Blue", "black": "Black", "red": "Red", "green": "Green"}


@dataclass(frozen=True)
class Perm:
    id: str
    card: str | None  # a real card's name, or None for a token made from ``token``
    seat: int
    token: Mapping[str, Any] | None = None
    attacking: int | None = None  # the seat it attacks
    blocking: tuple[str, ...] = ()
    tapped: bool = False
    sick: bool = False
    attached_to: str | None = None  # an Aura's or Equipment's host (CR 301.5, 303.4)


@dataclass(frozen=True)
class Activate:
    """Activate permanent ``perm``'s only activated ability (CR 602.2) for ``x``, at ``target``
    (a seat, or a permanent id)."""

    perm: str
    seat: int
    x: int | None
    target: int | str | None


@dataclass(frozen=True)
class Cast:
    """Cast the real spell ``card`` (source ``src``) at ``target`` (CR 601.2)."""

    src: str
    card: str
    seat: int
    target: int | str | None  # None: a spell with no target dealing damage to several (Pyroclasm)
    amounts: tuple[int, ...] = ()  # the damage the case says it deals, per event


@dataclass(frozen=True)
class Combat:
    """One combat: attackers and blockers as the case declares them (CR 508, 509, 510)."""


@dataclass(frozen=True)
class EndStep:
    """The active player's end step: its "at the beginning of the end step" triggers (CR 513.1)."""


Step = Activate | Cast | Combat | EndStep


@dataclass
class Plan:
    players: list[str]
    life: list[int]
    active: int
    perms: list[Perm] = field(default_factory=list)
    spells: list[Cast] = field(default_factory=list)
    setup: list[Activate] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    player_state: list[dict[str, int]] = field(default_factory=list)  # per seat: phase player fields
    format: str = ""  # phase's format name; "" = Standard for two players, FreeForAll for more
    teams: dict[str, list[int]] = field(default_factory=dict)  # Two-Headed Giant: team -> seats

    def cards(self) -> list[str]:
        return [p.card for p in self.perms if p.card] + [s.card for s in self.spells]


def plan_case(case: Case) -> Plan:
    """Read ``case`` (its raw file, for the exact keys used) into a :class:`Plan`."""
    raw: Mapping[str, Any] = case.raw or {}
    names = [p.name for p in case.players]
    seat = {n: i for i, n in enumerate(names)}
    plan = Plan(players=names, life=[p.life for p in case.players],
                active=seat.get(case.active or names[0], 0))
    _plan_players(plan, case, raw)
    bad = plan.unsupported
    if raw.get("choices"):
        bad.append("choices: a replayed branch (phase explores all of them)")
    by_id = {p.id: p for p in case.permanents}
    _plan_permanents(plan, raw, seat, by_id)
    srcs = {s.id: s for s in case.sources}
    cards_of = _plan_sources(plan, raw)
    for i, eff in enumerate(raw.get("effects") or ()):
        _effect(plan, eff, f"effects[{i}]", seat, by_id, bad)
    for i, act in enumerate(raw.get("actions") or ()):
        _plan_action(plan, act, f"actions[{i}]", seat, by_id, srcs, cards_of)
    return plan


def _plan_players(plan: Plan, case: Case, raw: Mapping[str, Any]) -> None:
    """The players, their state, and the format (810.1: Two-Headed Giant's teams of two)."""
    names = plan.players
    bad = plan.unsupported
    allowed = {"name", "life"} | set(_PLAYER_STATE)
    if case.format == "two-headed-giant":
        # phase's Two-Headed Giant pairs seats 0+1 and 2+3 (CR 810.1: teams of two)
        teams = [p.team for p in case.players]
        if len(teams) == 4 and teams[0] == teams[1] and teams[2] == teams[3] and teams[0] != teams[2]:
            plan.format, plan.teams = "TwoHeadedGiant", {str(teams[0]): [0, 1], str(teams[2]): [2, 3]}
            allowed.add("team")
        else:
            bad.append("players: phase's Two-Headed Giant teams are the first two players and the last two")
            allowed.add("team")  # said once, above
    elif case.format != "standard":
        bad.append(f"format: {case.format} (not a phase format)")
    for i, p in enumerate(raw.get("players") or ()):
        for key in sorted(set(p) - allowed):
            bad.append(f"players[{i}].{key}: phase has no way to set it")
        plan.player_state.append({_PLAYER_STATE[k]: int(v) for k, v in p.items() if k in _PLAYER_STATE})
    plan.player_state += [{} for _ in range(len(names) - len(plan.player_state))]


def _plan_permanents(plan: Plan, raw: Mapping[str, Any], seat: dict[str, int], by_id: dict[str, PermanentSpec]) -> None:
    """The battlefield: real cards, vanilla creatures as tokens; attacks on players only."""
    bad = plan.unsupported
    for i, entry in enumerate(raw.get("battlefield") or ()):
        where = f"battlefield[{i}]"
        spec = by_id[entry["id"]]
        extra = set(entry) - _PERM_KEYS
        token = None
        card = entry.get("card")
        if card is None and extra <= _VANILLA_KEYS and "creature" in spec.types and not spec.abilities:
            token = _token(spec, where, bad)
            extra = set()
        elif card is None and not extra:
            card = entry.get("name")  # a real card named by its name alone
        elif card is None:
            bad.append(f"{where}: {entry.get('name', entry['id'])!r} is an ad-hoc card with abilities or "
                       "characteristics phase can't be given")
            continue
        for key in sorted(extra):
            bad.append(f"{where}.{key}: phase has no way to set it")
        attacking = None
        if spec.attacking is not None:
            if spec.attacking not in seat:
                bad.append(f"{where}.attacking: attacking {spec.attacking!r} (only players are mapped)")
            else:
                attacking = seat[spec.attacking]
        if spec.choose_block:
            bad.append(f"{where}.blocking: choose (a chosen block is not mapped)")
        plan.perms.append(Perm(spec.id, card, seat[spec.controller], token, attacking, tuple(spec.blocking),
                               spec.tapped, spec.summoning_sick, spec.attached_to))


def _plan_sources(plan: Plan, raw: Mapping[str, Any]) -> dict[str, str | None]:
    """Each source's real card (None: not one, said)."""
    bad = plan.unsupported
    cards_of: dict[str, str | None] = {}
    for i, entry in enumerate(raw.get("sources") or ()):
        cards_of[entry["id"]] = _real_source(entry)
        if cards_of[entry["id"]] is None:
            bad.append(f"sources[{i}]: {entry.get('name', entry['id'])!r}: only a real card (card: NAME, or its "
                       "name with its own types and colours) can be cast")
    return cards_of


def _plan_action(plan: Plan, act: Mapping[str, Any], where: str, seat: dict[str, int],
                 by_id: dict[str, PermanentSpec], srcs: dict[str, SourceSpec], cards_of: dict[str, str | None]) -> None:
    """One action as a step phase can be told to do, or why not."""
    bad = plan.unsupported
    kind = next(iter(act)) if len(act) == 1 else None
    if kind == "combat" and not act["combat"]:
        plan.steps.append(Combat())
    elif kind == "end_step" and not act["end_step"]:
        plan.steps.append(EndStep())
    elif kind == "activate" and set(act["activate"]) <= {"id", "x", "target"}:
        a = act["activate"]
        target = a.get("target")
        perm = by_id.get(a["id"])
        if perm is None:
            bad.append(f"{where}.activate: {a['id']!r} is not a permanent")
            return
        plan.steps.append(Activate(a["id"], seat[perm.controller], a.get("x"),
                                   seat.get(target, target) if target is not None else None))
    elif kind == "damage":
        evs = act["damage"]
        src = evs[0].get("from")
        if (src not in srcs or cards_of.get(src) is None or any(set(ev) - {"from", "to", "amount"} for ev in evs)
                or any(ev.get("from") != src for ev in evs)):
            bad.append(f"{where}.damage: only damage from one real spell (sources:) is cast")
            return
        target = seat.get(evs[0]["to"], evs[0]["to"]) if len(evs) == 1 else None
        cast = Cast(src, str(cards_of[src]), seat[srcs[src].controller], target,
                    tuple(int(ev["amount"]) for ev in evs))
        plan.spells.append(cast)
        plan.steps.append(cast)
    else:
        bad.append(f"{where}: {kind or 'this action'}: not an action phase can be told to do")


def _real_source(entry: Mapping[str, Any]) -> str | None:
    """The real card a source is: ``card:``, or a ``name:`` whose card has the types and colours
    the entry gives (so an ad-hoc source isn't taken for the card it's named after)."""
    if entry.get("card") is not None:
        return None if set(entry) - {"id", "card", "controller"} else str(entry["card"])
    if set(entry) - {"id", "name", "controller", "types", "colors"}:
        return None
    try:
        face = find(str(entry["name"])).face
    except (UnknownCard, MissingFace):
        return None
    if sorted(entry.get("types") or ()) != sorted(face.get("types") or ()):
        return None
    if sorted(entry.get("colors") or ()) != sorted(face.get("colors") or ()):
        return None
    return str(face["name"])


def _token(spec: Any, where: str, bad: list[str]) -> dict[str, Any]:
    keywords = []
    for k in spec.keywords:
        if k in _KEYWORDS:
            keywords.append(_KEYWORDS[k])
        else:
            bad.append(f"{where}.keywords: {k!r} is not mapped to a phase keyword")
    return {"name": spec.name, "power": spec.power, "toughness": spec.toughness,
            "core_types": [t.capitalize() for t in spec.types], "subtypes": list(spec.subtypes),
            "colors": [_COLOURS[c] for c in spec.colors if c in _COLOURS], "keywords": keywords}


def _effect(plan: Plan, eff: Mapping[str, Any], where: str, seat: Mapping[str, int],
            by_id: Mapping[str, Any], bad: list[str]) -> None:
    """A shield from a permanent's ``{X}:`` ability is that ability activated for X (CR 602.2);
    its rider's target (``then: {deal: prevented, to: T}``) is the activation's target (601.2c)."""
    src = by_id.get(str(eff.get("source")))
    then = eff.get("then") or {}
    ok = (src is not None and isinstance(eff.get("shield"), int)
          and set(eff) <= {"id", "shield", "to", "controller", "source", "then"}
          and set(then) == {"deal", "to"} and then.get("deal") == "prevented" and then.get("to") in seat
          and eff.get("to") in ("you", None) and eff.get("controller") == src.controller
          and any(a.kind == AbilityKind.ACTIVATED for a in src.abilities))
    if not ok or src is None:
        bad.append(f"{where}: {eff.get('id')}: an effect phase can only get by activating the ability that "
                   "creates it, and this one isn't an {X}: shield of a permanent's")
        return
    plan.setup.append(Activate(src.id, seat[src.controller], int(eff["shield"]), seat[then["to"]]))
