"""Reading selectors against a game state, from the point of view of a controller (docs/design.md:
"Selectors are read from the point of view of the effect's or ability's controller"), with what
they read that continuous effects change: the effects in force (611.3, 604.2) and the power,
toughness and keywords they give (613.1f layer 6, 613.4c layer 7c).

These are one recursion, so one module: a selector reads keywords ("creature with flying"),
keywords come from the effects in force, and an effect's condition or its affected set is a
selector. solver.characteristics reads power and toughness and keeps what leaves (113.7a);
solver.rules orders and applies the effects to damage (616).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.kinds import AbilityKind
from mtg_outcomes.model.selectors import Selector, SelectorKind
from mtg_outcomes.model.subtypes import is_creature_type
from mtg_outcomes.model.types import EffectSpec, PermanentSpec, SourceSpec, with_pt_counters

from .lifecond import has_life_condition, life_holds
from .rules.team import team_members
from .state import GameState, PermState, Table

__all__ = ["View", "matches", "is_player", "object_spec", "controller_of", "opponents", "has_keyword", "colors_of",
           "attached_to", "Instance", "effects_in_force", "Change", "NO_CHANGE", "changes", "keywords_of",
           "reads_life", "life_conditioned", "power", "toughness"]


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
        hit = (to.kind == SelectorKind.REF and to.name == thing) or (to.kind == SelectorKind.TARGET and e.target == thing) or \
            (to.kind == SelectorKind.SELF and e.source == thing)
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
    """Opponents of a player; in Two-Headed Giant the other team (CR 810.2: the players not on the
    player's team, solver.rules.team)."""
    mine = team_members(state.players, table.two_headed, state.player(name))
    return [p.name for p in state.players if p.name not in mine]


def attached_to(state: GameState, self_id: str | None) -> str | None:
    """What the permanent ``self_id`` is attached to now ("enchanted creature", "equipped
    creature"): None when it isn't a permanent or an Equipment became unattached (704.5n). An
    Aura that left keeps its last host (last known information, 608.2h); its static abilities
    no longer apply (solver.rules.effects.effects_in_force reads permanents on the battlefield only)."""
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


# kinds that name one object
_BY_ID = (SelectorKind.SELF, SelectorKind.TARGET, SelectorKind.SECOND_TARGET, SelectorKind.CHOSEN_SOURCE,
          SelectorKind.REF)


def matches(sel: Selector | None, thing: str, state: GameState, table: Table, view: View,
            default: bool = True, last_known: bool = False) -> bool:
    """Does ``thing`` (a player name or object id) satisfy ``sel`` as read by ``view``?
    ``last_known``: ``thing`` is a damage source, read as it last existed on the battlefield if
    it has left (113.7a: a sacrificed Mogg Fanatic's damage is still a creature's)."""
    if sel is None:
        return default
    player = is_player(table, thing)
    if sel.kind in _BY_ID and view.born is not None and not player and not same_object(state, thing, view.born):
        return False
    match sel.kind:
        case SelectorKind.ANY_OF:
            return any(matches(p, thing, state, table, view, last_known=last_known) for p in sel.parts)
        case SelectorKind.ANY | SelectorKind.CHOICE:
            return True
        case SelectorKind.YOU:
            return player and thing == view.controller
        case SelectorKind.OPPONENTS:
            return player and thing in opponents(table, state, view.controller)
        case SelectorKind.PLAYERS:
            return player
        case SelectorKind.SELF:
            return thing == view.self_id
        case SelectorKind.TARGET:
            return view.target is not None and thing == view.target
        case SelectorKind.SECOND_TARGET:
            return view.second is not None and thing == view.second
        case SelectorKind.TARGET_CONTROLLER:  # the target's controller, as it last existed (608.2h)
            return player and view.target is not None and not is_player(table, view.target) and \
                controller_of(state, table, view.target) == thing
        case SelectorKind.CHOSEN_SOURCE_CONTROLLER:  # the chosen source's controller, as it last existed (608.2h)
            return player and view.chosen_source is not None and controller_of(state, table, view.chosen_source) == thing
        case SelectorKind.CHOSEN:
            return view.chosen is not None and thing == view.chosen
        case SelectorKind.CHOSEN_SOURCE:
            return view.chosen_source is not None and thing == view.chosen_source
        case SelectorKind.THAT_PLAYER:
            return player and view.that_player is not None and thing == view.that_player
        case SelectorKind.EQUIPPED | SelectorKind.ENCHANTED:
            att = attached_to(state, view.self_id)
            return att is not None and thing == att
        case SelectorKind.REF:
            return thing == sel.name
        case SelectorKind.OBJECTS:
            return not player and _object_matches(sel, thing, state, table, view, last_known)
        case SelectorKind.PREVENTED_SOURCE:
            # a per-source rider's recipient: each source's, put in its place before the rider is
            # done (solver.persource.to_sources, 615.5); on its own it names nothing
            return False


def _permanent_state_matches(sel: Selector, perm: PermState | None, state: GameState, table: Table, view: View) -> bool:
    """What the selector asks of a permanent's state now: its combat role, tapped, its power."""
    # "attacking or blocking creature" (506.4): only a permanent on the battlefield is either;
    # "unblocked creature": attacking, and no creature blocked it (509.1h)
    if sel.in_combat and not (perm is not None and perm.present and (
            ("attacking" in sel.in_combat and perm.attacking is not None)
            or ("blocking" in sel.in_combat and bool(perm.blocking))
            or ("unblocked" in sel.in_combat and perm.attacking is not None and not perm.blocked)
            or _blocks_with(state, perm, view.self_id, sel.in_combat))):
        return False
    # "target tapped creature" (701.26a): only a permanent on the battlefield is tapped or untapped
    if sel.tapped is not None and not (perm is not None and perm.present and perm.tapped == sel.tapped):
        return False
    return (sel.power_at_least is None and sel.power_at_most is None) or _power_within(state, table, perm, sel)


def _object_matches(sel: Selector, thing: str, state: GameState, table: Table, view: View, last_known: bool) -> bool:
    """The phrase grammar (``objects``): an object's noun, types, colours, subtypes, keywords,
    combat role, nonbasic, damage dealt to it, "other" and controller."""
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
    if sel.not_types and set(sel.not_types) & types:  # "nonland permanent" (205.4b)
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
    if sel.without and set(sel.without) & keywords_of(state, table, thing):
        return False
    if sel.with_ and not set(sel.with_) <= keywords_of(state, table, thing):
        return False
    if not _permanent_state_matches(sel, perm, state, table, view):
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
    return not sel.controller or _controlled_as_said(sel.controller, thing, state, table, view)


def _controlled_as_said(said: str, thing: str, state: GameState, table: Table, view: View) -> bool:
    """A phrase's controller: ``you``, ``not_you`` ("you don't control": a teammate's too, 2HG
    810.2), ``opponents``, ``that_player`` (a trigger's player), ``target`` (the target player, or the target permanent's controller as
    it last existed, 608.2h), or a player's name."""
    ctrl = controller_of(state, table, thing)
    match said:
        case "you":
            return ctrl == view.controller
        case "not_you":
            return ctrl is not None and ctrl != view.controller
        case "opponents":
            return ctrl is not None and ctrl in opponents(table, state, view.controller)
        case "that_player":  # a trigger's player (the player dealt damage, 510.3a)
            return ctrl is not None and ctrl == view.that_player
        case "target":
            aimed = view.target
            return aimed is not None and ctrl is not None and \
                ctrl == (aimed if is_player(table, aimed) else controller_of(state, table, aimed))
    return ctrl == said


def power(table: Table, perm: PermState, state: GameState) -> int:
    """Printed power, counters (122.1a) and ``pt`` effects (613.4c) (solver.characteristics
    re-exports it: a selector reads it, "creature with power 4 or greater")."""
    return with_pt_counters(table.perm_specs[perm.spec].power, perm.counter) + changes(state, table).get(perm.id, NO_CHANGE)[0]


def toughness(table: Table, perm: PermState, state: GameState) -> int:
    """Printed toughness, counters (122.1a) and ``pt`` effects (613.4c)."""
    return with_pt_counters(table.perm_specs[perm.spec].toughness, perm.counter) + changes(state, table).get(perm.id, NO_CHANGE)[1]


def _power_within(state: GameState, table: Table, perm: PermState | None, sel: Selector) -> bool:
    """"creature with power 4 or greater" (208.1): a permanent on the battlefield, its power now
    (counters and effects, 613.4); the vocabulary keeps power out of a continuous effect's own
    selector (613.8), so reading it here never reads this selector again."""
    if perm is None or not perm.present:
        return False
    p = power(table, perm, state)
    return (sel.power_at_least is None or p >= sel.power_at_least) and (sel.power_at_most is None or p <= sel.power_at_most)


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


# -- effects in force and the characteristics they change (613), which selectors read --------

# (power change, toughness change, keywords granted, keywords removed: 613.1f "loses infect")
Change = tuple[int, int, frozenset[str], frozenset[str]]
NO_CHANGE: Change = (0, 0, frozenset(), frozenset())
_NONE = NO_CHANGE


@dataclass(frozen=True)
class Instance:
    """An effect in force: a created effect (``state_id`` set) or a permanent's static ability."""

    key: str
    spec: EffectSpec
    view: View
    state_id: str | None = None
    name: str = ""


def effects_in_force(state: GameState, table: Table) -> tuple[Instance, ...]:
    """Created effects first (timestamp order), then static abilities of permanents on the battlefield."""
    # keyed by identity: states share these tuples, and the entry keeps them alive so ids stay unique
    key = ("effects", id(state.perms), id(state.effects))
    hit = table.memo.get(key)
    if hit is not None and hit[0] is state.perms and hit[1] is state.effects:
        found, on_life = hit[2], hit[3]
    else:
        found = tuple(_effects_in_force(state, table))
        on_life = any(has_life_condition(i.spec) for i in found)
        table.memo[key] = (state.perms, state.effects, found, on_life)
    if on_life:  # read each time: life totals are not part of the cache key
        found = tuple(i for i in found if _life_condition_holds(i, state, table))
    return found


def reads_life(state: GameState, table: Table) -> bool:
    """Whether an effect in force (or one whose life condition doesn't hold now) has a condition on
    a life total: what depends on the effects in force then depends on the life totals too."""
    effects_in_force(state, table)
    return bool(table.memo[("effects", id(state.perms), id(state.effects))][3])


def life_conditioned(state: GameState, table: Table) -> tuple[Instance, ...]:
    """The effects with a condition on a life total, whether or not it holds now."""
    effects_in_force(state, table)
    return tuple(i for i in table.memo[("effects", id(state.perms), id(state.effects))][2] if has_life_condition(i.spec))


def _life_condition_holds(inst: Instance, state: GameState, table: Table) -> bool:
    """"As long as you have N or less life" (Phyrexian Unlife), "... N or more life" (Honor Troll):
    the controller's life total now (solver.lifecond)."""
    if not has_life_condition(inst.spec):
        return True
    return life_holds(inst.spec, table, inst.view.controller, state.player(inst.view.controller).life)


def _effects_in_force(state: GameState, table: Table) -> list[Instance]:
    out: list[Instance] = []
    for e in state.effects:
        if e.spec.kind == EffectKind.SHIELD and (e.used or (e.remaining is not None and e.remaining <= 0)):
            continue
        if e.spec.kind == EffectKind.REDIRECT and e.remaining is not None and e.remaining <= 0:
            continue
        if e.spec.next_time and e.used:
            continue  # 615.8: it prevented its one instance
        if e.spec.kind == EffectKind.REGENERATE and e.used:
            continue  # 701.19a: it replaced its one destruction
        out.append(Instance(e.id, e.spec, View(e.controller, e.source, e.target, e.chosen, e.chosen_source, born=e.born),
                            e.id, e.id))
    # a witness names each permanent unambiguously: the id goes with a name two objects share
    names = Counter(table.perm_specs[p.spec].name for p in state.perms if p.present)
    for p in state.perms:
        if not p.present:
            continue
        spec = table.perm_specs[p.spec]
        name = spec.name if names[spec.name] == 1 else f"{spec.name} ({p.id})"
        statics = [j for j, ab in enumerate(spec.abilities) if ab.kind == AbilityKind.STATIC and ab.effect is not None]
        for j in statics:
            ab = spec.abilities[j]
            assert ab.effect is not None
            key = p.id if len(statics) == 1 else f"{p.id}#{j}"
            out.append(Instance(key, ab.effect, View(p.controller, p.id, None, p.chosen), None, name))
    return [i for i in out if _condition_holds(i, state, table)]


def _condition_holds(inst: Instance, state: GameState, table: Table) -> bool:
    """Effects that work only while their controller controls something (Worship), or only during
    their controller's turn ("During your turn, this creature has first strike": the case's turn
    is the active player's, 500.1), or only while their permanent is attacking ("as long as it's
    attacking", 506.4), or while it is untapped ("as long as ~ is untapped", Martyrs of Korlis)."""
    if inst.spec.if_your_turn is not None and (table.active == inst.view.controller) != inst.spec.if_your_turn:
        return False
    if inst.spec.if_attacking or inst.spec.if_untapped:
        # "as long as it's attacking" (506.4) / "... untapped": its own permanent, now
        me = state.perm(inst.view.self_id) if inst.view.self_id is not None else None
        if me is None or not me.present:
            return False
        if (inst.spec.if_attacking and me.attacking is None) or (inst.spec.if_untapped and me.tapped):
            return False
    cond = inst.spec.if_you_control
    if cond is None:
        return True
    return any(p.present and p.controller == inst.view.controller and matches(cond, p.id, state, table, inst.view)
               for p in state.perms)


def changes(state: GameState, table: Table) -> dict[str, Change]:
    """Each permanent's (power change, toughness change, granted keywords, lost keywords), for
    those with any (613.4c, 613.1f)."""
    key = ("pt_grant", id(state.perms), id(state.effects))
    hit = table.memo.get(key)
    # an effect with a life condition (Honor Troll) changes with the life totals (solver.lifecond)
    if hit is not None and hit[0] is state.perms and hit[1] is state.effects and (hit[3] is None or hit[3] == _lives(state)):
        return hit[2]
    if table.memo.get("pt_grant_busy"):
        raise EngineError("an effect's condition reads keywords that a keyword grant changes (CR 613.8): not modelled")
    table.memo["pt_grant_busy"] = True
    try:
        insts = [i for i in effects_in_force(state, table) if i.spec.kind in (EffectKind.PT, EffectKind.GRANT, EffectKind.LOSE)]
        out: dict[str, Change] = {}
        for perm in state.perms:
            if not perm.present:
                # as it last existed on the battlefield (113.7a; set by :func:`leave`)
                if perm.last is not None and perm.last != _NONE:
                    out[perm.id] = perm.last
                continue
            if insts and (change := _change_of(perm, insts, state, table)) is not None:
                out[perm.id] = change
    finally:
        table.memo["pt_grant_busy"] = False
    table.memo[key] = (state.perms, state.effects, out, _lives(state) if reads_life(state, table) else None)
    return out


def _change_of(perm: PermState, insts: list[Instance], state: GameState, table: Table) -> Change | None:
    """One permanent's sum of the ``pt``/``grant``/``lose`` effects that apply to it."""
    p = t = 0
    kws: set[str] = set()
    lost: set[str] = set()
    for inst in insts:
        if matches(inst.spec.to, perm.id, state, table, inst.view, default=False):
            dp, dt, granted = inst.spec.value
            p, t = p + dp, t + dt
            (lost if inst.spec.kind == EffectKind.LOSE else kws).update(granted)
    if kws & lost:
        # 613.7: which applies last depends on their timestamps, not modelled
        raise EngineError(f"{perm.id} both gains and loses {sorted(kws & lost)[0]} (CR 613.7 timestamps): not modelled")
    return (p, t, frozenset(kws), frozenset(lost)) if p or t or kws or lost else None


def _lives(state: GameState) -> tuple[int, ...]:
    return tuple(p.life for p in state.players)


def keywords_of(state: GameState, table: Table, oid: str) -> frozenset[str]:
    """An object's keywords: its own and those ``grant`` effects give it, less those ``lose``
    effects remove (613.1f)."""
    spec = table.spec_of(state, oid)
    if spec is None:
        return frozenset()
    ch = changes(state, table).get(oid, _NONE)
    return (frozenset(spec.keywords) | ch[2]) - ch[3]


def has_keyword(state: GameState, table: Table, oid: str, kw: str) -> bool:
    return kw in keywords_of(state, table, oid)
