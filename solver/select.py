"""Reading selectors against a game state, from the point of view of a controller (docs/design.md:
"Selectors are read from the point of view of the effect's or ability's controller")."""

from __future__ import annotations

from dataclasses import dataclass

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.selectors import Selector
from mtg_outcomes.model.subtypes import is_creature_type
from mtg_outcomes.model.types import PermanentSpec, SourceSpec

from .state import GameState, PermState, Table

__all__ = ["View", "matches", "is_player", "object_spec", "controller_of", "opponents", "has_keyword", "colors_of",
           "attached_to"]


def colors_of(state: GameState, thing: str, printed: tuple[str, ...]) -> tuple[str, ...]:
    """An object's colours now (105.3, 613.1e): its own, unless colour-changing effects in force
    ("target creature becomes blue until end of turn") set them, the latest in timestamp order
    winning (613.7). Read whenever a selector checks a colour, so a source-of-your-choice shield's
    "red source" is checked again when the damage would be dealt (615.9, 609.7b)."""
    out = printed
    for e in state.effects:  # created effects, in timestamp order
        if e.spec.kind != EffectKind.BECOMES_COLOR:
            continue
        to = e.spec.to
        if to is None:
            continue
        hit = (to.kind == "ref" and to.name == thing) or (to.kind == "target" and e.target == thing) or \
            (to.kind == "self" and e.source == thing)
        if hit:
            out = e.spec.value
    return out

_PERMANENT_TYPES = ("artifact", "creature", "enchantment", "land", "planeswalker", "battle")


@dataclass(frozen=True)
class View:
    """Who reads the selector: its controller, the object it is on, and bound choices."""

    controller: str
    self_id: str | None = None
    target: str | None = None
    chosen: str | None = None
    chosen_source: str | None = None
    that_player: str | None = None  # a trigger's "that player" (the player who tapped for mana)
    second: str | None = None  # a spell's second target (601.2c), None if it has none or it is illegal
    # a created effect's: the objects there were as it was created (solver.state.EffectState.born)
    born: int | None = None


def is_player(table: Table, name: str) -> bool:
    return name in table.order


def object_spec(state: GameState, table: Table, oid: str) -> PermanentSpec | SourceSpec | None:
    return table.spec_of(state, oid)


def controller_of(state: GameState, table: Table, oid: str) -> str | None:
    perm = state.perm(oid)
    if perm is not None:
        return perm.controller
    src = table.sources.get(oid) or (table.emblem_specs.get(oid) if oid in state.emblems else None)
    return src.controller if src is not None else None


def opponents(table: Table, state: GameState, name: str) -> list[str]:
    """Opponents of a player; in Two-Headed Giant the other team (CR 810.2)."""
    me = state.player(name)
    out = []
    for p in state.players:
        if p.name == name:
            continue
        if table.two_headed and p.team is not None and p.team == me.team:
            continue
        out.append(p.name)
    return out


def has_keyword(state: GameState, table: Table, oid: str, kw: str) -> bool:
    """Its own keywords and those effects grant it (solver.characteristics, 613.1f)."""
    from .characteristics import has_keyword as granted_or_own  # (characteristics reads selectors)

    return granted_or_own(state, table, oid, kw)


def _keywords(state: GameState, table: Table, oid: str) -> frozenset[str]:
    from .characteristics import keywords_of  # (characteristics reads selectors)

    return keywords_of(state, table, oid)


def attached_to(state: GameState, self_id: str | None) -> str | None:
    """What the permanent ``self_id`` is attached to now ("enchanted creature", "equipped
    creature"): None when it isn't a permanent or an Equipment became unattached (704.5n). An
    Aura that left keeps its last host (last known information, 608.2h); its static abilities
    no longer apply (solver.rules.effects_in_force reads permanents on the battlefield only)."""
    if self_id is None:
        return None
    perm = state.perm(self_id)
    return perm.attached_to if perm is not None else None


def same_object(state: GameState, thing: str, born: int | None) -> bool:
    """Whether ``thing`` is still the object its id named when an effect was created with
    ``born`` objects (solver.state.EffectState.born): a permanent that left the battlefield and
    came back with the same id is a new object (400.7), which the effect doesn't refer to. An
    id that named no permanent then (a spell, 609.7a: the permanent it becomes) is the same."""
    if born is None or len(state.perms) <= born:
        return True
    at = [i for i, p in enumerate(state.perms) if p.id == thing]
    return not at or at[0] >= born or at[-1] < born


_BY_ID = ("self", "target", "second_target", "chosen_source", "ref")  # kinds that name one object


def matches(sel: Selector | None, thing: str, state: GameState, table: Table, view: View,
            default: bool = True, last_known: bool = False) -> bool:
    """Does ``thing`` (a player name or object id) satisfy ``sel`` as read by ``view``?
    ``last_known``: ``thing`` is a damage source, read as it last existed on the battlefield if
    it has left (113.7a: a sacrificed Mogg Fanatic's damage is still a creature's)."""
    if sel is None:
        return default
    kind = sel.kind
    player = is_player(table, thing)
    if kind in _BY_ID and view.born is not None and not player and not same_object(state, thing, view.born):
        return False
    if kind == "any_of":
        return any(matches(p, thing, state, table, view, last_known=last_known) for p in sel.parts)
    if kind == "any":
        return True
    if kind == "you":
        return player and thing == view.controller
    if kind == "opponents":
        return player and thing in opponents(table, state, view.controller)
    if kind == "players":
        return player
    if kind == "self":
        return thing == view.self_id
    if kind == "target":
        return view.target is not None and thing == view.target
    if kind == "second_target":
        return view.second is not None and thing == view.second
    if kind == "target_controller":  # the target's controller, as it last existed (608.2h)
        return player and view.target is not None and not is_player(table, view.target) and \
            controller_of(state, table, view.target) == thing
    if kind == "chosen_source_controller":  # the chosen source's controller, as it last existed (608.2h)
        return player and view.chosen_source is not None and controller_of(state, table, view.chosen_source) == thing
    if kind == "chosen":
        return view.chosen is not None and thing == view.chosen
    if kind == "chosen_source":
        return view.chosen_source is not None and thing == view.chosen_source
    if kind == "that_player":
        return player and view.that_player is not None and thing == view.that_player
    if kind in ("equipped", "enchanted"):
        att = attached_to(state, view.self_id)
        return att is not None and thing == att
    if kind == "choice":
        return True
    if kind == "ref":
        return thing == sel.name
    # "objects": the phrase grammar
    if player:
        return False
    spec = table.spec_of(state, thing)
    if spec is None:
        return False
    perm = state.perm(thing)
    on_battlefield = perm is not None and (perm.present or last_known)
    noun = sel.noun
    types = set(spec.types)
    if noun in _PERMANENT_TYPES or noun == "permanent":
        if not on_battlefield:
            return False
        if noun != "permanent" and noun not in types:
            return False
    elif noun == "spell":
        if perm is not None or not types & {"instant", "sorcery"} and types & set(_PERMANENT_TYPES):
            return False
    # noun "source" (and the mapping form): any object; 609.7c reads permanents on the battlefield
    # and objects elsewhere alike.
    if sel.types and not set(sel.types) <= (types | ({"permanent"} if on_battlefield else set()) | {"source"}):
        return False
    if sel.colors and not set(sel.colors) & set(colors_of(state, thing, spec.colors)):
        return False
    if sel.subtypes:
        missing = {s.lower() for s in sel.subtypes} - {s.lower() for s in spec.subtypes}
        # 702.73a: a changeling is every creature type (not an artifact, enchantment or land type);
        # a characteristic-defining ability (604.3), read from the object's own keywords (a grant of
        # it is not in the vocabulary), so before any effect on types or keywords (613.3)
        if missing and not ("changeling" in spec.keywords and all(map(is_creature_type, missing))):
            return False
    if sel.without and set(sel.without) & _keywords(state, table, thing):
        return False
    if sel.with_ and not set(sel.with_) <= _keywords(state, table, thing):
        return False
    # "attacking or blocking creature" (506.4): only a permanent on the battlefield is either;
    # "unblocked creature": attacking, and no creature blocked it (509.1h)
    if sel.in_combat and not (perm is not None and perm.present and (
            ("attacking" in sel.in_combat and perm.attacking is not None)
            or ("blocking" in sel.in_combat and bool(perm.blocking))
            or ("unblocked" in sel.in_combat and perm.attacking is not None and not perm.blocked)
            or _blocks_with(state, perm, view.self_id, sel.in_combat))):
        return False
    if sel.nonbasic and isinstance(spec, PermanentSpec) and "basic" in spec.supertypes:
        return False
    if sel.dealt_damage_by:
        # "a creature dealt damage by ~ this turn": only a permanent, by that object (120.1)
        by = view.self_id if sel.dealt_damage_by == "self" else sel.dealt_damage_by
        if perm is None or by is None or by not in perm.dealt_by:
            return False
    if sel.other and thing == view.self_id:
        return False
    if sel.controller:
        ctrl = controller_of(state, table, thing)
        if sel.controller == "you":
            if ctrl != view.controller:
                return False
        elif sel.controller == "not_you":  # "you don't control": a teammate's too (2HG, 810.2)
            if ctrl is None or ctrl == view.controller:
                return False
        elif sel.controller == "opponents":
            if ctrl is None or ctrl not in opponents(table, state, view.controller):
                return False
        elif sel.controller == "that_player":  # a trigger's player (the player dealt damage, 510.3a)
            if ctrl is None or ctrl != view.that_player:
                return False
        elif sel.controller == "target":
            # the target player, or the target permanent's controller as it last existed (608.2h)
            aimed = view.target
            if aimed is None or ctrl is None or ctrl != (aimed if is_player(table, aimed) else controller_of(state, table, aimed)):
                return False
        elif ctrl != sel.controller:
            return False
    return True


def _blocks_with(state: GameState, perm: PermState, it: str | None, in_combat: tuple[str, ...]) -> bool:
    """"Creatures blocking or blocked by ~" (509.1g): ``blocking_it``, ``perm`` blocks the object
    ``it``; ``blocked_by_it``, ``it`` (on the battlefield, in combat) blocks ``perm``. Once removed
    from combat (511.3) neither is blocking (506.4)."""
    if it is None:
        return False
    if "blocking_it" in in_combat and it in perm.blocking:
        return True
    other = state.perm(it)
    return "blocked_by_it" in in_combat and other is not None and other.present and perm.id in other.blocking
