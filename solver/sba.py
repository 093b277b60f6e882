"""State-based actions (704) and the end of the game (104.2a, 104.3, 800.4a)."""

from __future__ import annotations

from dataclasses import dataclass

from mtg_outcomes.model.effects import EffectKind

from .characteristics import changes, has_keyword, leave
from .decision import event, note, recording, says
from .dies import put_into_graveyard
from .regenerate import destroy_or_regenerate
from .results import Part, cant_lose_game, no_loss_for_0_life
from .rules.effects import effects_in_force, protected_from
from .rules.loss import player_loses, poison_limit
from .select import is_player, matches
from .state import (
    GameState,
    PermState,
    Table,
    replace,
)
from .words import name

__all__ = ['leave_game', 'multiplayer', 'state_based_actions', 'game_over', 'game_ended',
           'attachment_kind', 'illegally_attached']


def leave_game(state: GameState, table: Table, name: str) -> GameState:
    """800.4a: the player leaves; objects they own leave too, and their pending triggers cease.
    If they were the monarch, the active player becomes the monarch, or, if that is them, the next
    player in turn order still in the game (724.4)."""
    was_monarch = state.player(name).monarch
    state = state.set_player(replace(state.player(name), left=True, monarch=False))
    if was_monarch:
        start = table.order.index(table.active)
        heir = next((n for k in range(len(table.order)) if not state.player(n := table.order[(start + k) % len(table.order)]).left), None)
        if heir is not None:
            state = state.set_player(replace(state.player(heir), monarch=True))
    state = leave(state, table, [p for p in state.perms if p.present and table.perm_specs[p.spec].owner == name])
    return replace(state, pending=tuple(t for t in state.pending if t.controller != name),
                   stack=tuple(i for i in state.stack if i.controller != name))


def multiplayer(state: GameState, table: Table) -> bool:
    """A game that can go on after a player leaves it (800.4): more than two players, not 2HG."""
    return len(state.players) > 2 and not table.two_headed


def last_standing(state: GameState) -> bool:
    """Whether at most one player is left in the game: a multiplayer game is then over (104.2a:
    the one left wins; none left, it is a draw, 104.4a)."""
    return sum(1 for p in state.players if not p.left and not p.lost) <= 1


@dataclass(frozen=True)
class Threshold:
    """A permanent is put into its graveyard when the sum of ``parts`` reaches ``at_least``."""

    parts: tuple[Part, ...]
    at_least: int
    # ``at_least`` is the creature's toughness, +1/+1 counters included (613.4c): each counter put
    # on it before the check raises it by one, each removed lowers it (615.5: a prevention's rider)
    toughness: bool = False


def lethal(table: Table, perm: PermState, state: GameState) -> tuple[Threshold, ...]:
    """A creature's 704.5f-h as thresholds on the results of damage (solver.results.Part), so the graph
    engine checks them on numbers and the CP model on variables (one definition of the rule).

    A creature's toughness counts +1/+1 counters and ``pt`` effects (613.4c) here; -1/-1 counters are the part
    ``MINUS_COUNTERS`` (so 0 toughness is "-1/-1 counters reach it", 704.5f). Lethal damage
    (704.5g) and deathtouch damage (704.5h, 702.2b) don't destroy an indestructible one (702.12b).
    """
    spec = table.perm_specs[perm.spec]
    out: list[Threshold] = []
    if "creature" in spec.types:
        t = spec.toughness + perm.counter("+1/+1") + changes(state, table).get(perm.id, (0, 0))[1]
        out.append(Threshold((Part.MINUS_COUNTERS,), t, True))  # 704.5f
        if not has_keyword(state, table, perm.id, "indestructible"):
            out.append(Threshold((Part.MARKED, Part.MINUS_COUNTERS), t, True))  # 704.5g
            out.append(Threshold((Part.DEATHTOUCHED,), 1))  # 704.5h
    return tuple(out)


def dies(table: Table, perm: PermState, state: GameState) -> bool:
    """Whether a state-based action puts ``perm`` into its graveyard now: :func:`lethal`, and a
    planeswalker with no loyalty (704.5i) or a battle with no defense (704.5v)."""
    return _sba_death(table, perm, state) is not None


def _death_words(table: Table, perm: PermState, state: GameState) -> tuple[str, str]:
    """Why a state-based action puts ``perm`` into its graveyard, in words, and its rule."""
    spec = table.perm_specs[perm.spec]
    who = name(state, table, perm.id)
    if "planeswalker" in spec.types and perm.loyalty <= 0:
        return f"{who} is put into its owner's graveyard (0 loyalty)", "704.5i"
    if "battle" in spec.types and perm.defense <= 0:
        return f"{who} is put into its owner's graveyard (0 defense)", "704.5v"
    have = {Part.MARKED: perm.damage, Part.MINUS_COUNTERS: perm.counter("-1/-1"), Part.DEATHTOUCHED: int(perm.deathtouched)}
    met = [th for th in lethal(table, perm, state) if sum(have.get(p, 0) for p in th.parts) >= th.at_least]
    if any(th.parts == (Part.MINUS_COUNTERS,) for th in met):
        return f"{who} is put into its owner's graveyard (toughness 0 or less)", "704.5f"
    if any(th.parts == (Part.DEATHTOUCHED,) for th in met) and perm.damage < max(
            (th.at_least for th in met if Part.MARKED in th.parts), default=10**9):
        return f"{who} is destroyed (damage from a source with deathtouch)", "704.5h"
    return f"{who} is destroyed (lethal damage: {perm.damage} marked)", "704.5g"


def _sba_death(table: Table, perm: PermState, state: GameState) -> str | None:
    """``destroyed`` (704.5g-h: lethal or deathtouch damage destroys it, so regeneration can
    replace it, 701.19a), ``graveyard`` (704.5f, 704.5i, 704.5v: put into the graveyard, not
    destroyed) or None."""
    spec = table.perm_specs[perm.spec]
    have = {Part.MARKED: perm.damage, Part.MINUS_COUNTERS: perm.counter("-1/-1"),
            Part.DEATHTOUCHED: int(perm.deathtouched)}
    met = [th for th in lethal(table, perm, state) if sum(have.get(p, 0) for p in th.parts) >= th.at_least]
    if ("planeswalker" in spec.types and perm.loyalty <= 0) or ("battle" in spec.types and perm.defense <= 0) \
            or any(th.parts == (Part.MINUS_COUNTERS,) for th in met):
        return "graveyard"
    return "destroyed" if met else None


def attachment_kind(table: Table, perm: PermState) -> str | None:
    """``aura``, ``equipment`` or ``fortification`` (its subtype, 303.4, 301.5, 301.6), else None."""
    subtypes = {s.lower() for s in table.perm_specs[perm.spec].subtypes}
    for kind in ("aura", "equipment", "fortification"):
        if kind in subtypes:
            return kind
    return None


def _protected_from_attachment(state: GameState, table: Table, host: str, perm: PermState) -> bool:
    """702.16c-d, 702.16k: a permanent or player with protection can't be enchanted by Auras, nor
    equipped or fortified by Equipment or Fortifications, with that quality (from a player: that
    player controls)."""
    for inst in effects_in_force(state, table):
        if inst.spec.kind == EffectKind.PROTECTION and matches(inst.spec.to, host, state, table, inst.view) \
                and protected_from(inst, perm.id, perm.controller, state, table):
            return True
    return False


def illegally_attached(state: GameState, table: Table, perm: PermState) -> bool:
    """Whether the Aura, Equipment or Fortification ``perm`` is attached to an illegal object or
    player, or to nothing that still exists: its host left the battlefield (or, a player, the game).

    An Aura (303.4c, 704.5m) may enchant a player; the object or player its enchant ability names
    is given by ``attached_to:`` (the enchant quality itself isn't modelled). An Equipment equips
    a creature (301.5c) and a Fortification a land (301.6); either attached to a player is
    illegal (704.5n). Protection from the attached permanent's controller makes it illegal
    (702.16c-d, 702.16k)."""
    host = perm.attached_to
    kind = attachment_kind(table, perm)
    if host is None or kind is None:
        return False
    if is_player(table, host):
        p = state.player(host)
        if kind != "aura" or p.left or p.lost:
            return True
    else:
        other = state.perm(host)
        if other is None or not other.present or other.id == perm.id:  # 303.4d, 301.5c: not itself
            return True
        types = table.perm_specs[other.spec].types
        if (kind == "equipment" and "creature" not in types) or (kind == "fortification" and "land" not in types):
            return True
    return _protected_from_attachment(state, table, host, perm)


def state_based_actions(state: GameState, table: Table) -> GameState:
    """Performed simultaneously, repeated until none apply (704.3)."""
    while True:
        changed = False
        # 704.5m: an illegally attached Aura is put into its owner's graveyard (it dies, 700.4);
        # 704.5n: an Equipment or Fortification becomes unattached and stays. Checked on the
        # state before this check's actions (704.3): a host dying in it is still there, so its
        # Aura goes in the next check
        detached = [perm.id for perm in state.perms if perm.present and illegally_attached(state, table, perm)]
        losers: list[str] = []
        for p in state.players:
            if p.lost or p.left:
                continue
            limit = poison_limit(table.two_headed)
            loses = player_loses(p.life, p.poison, table.two_headed, no_loss_for_0_life(state, table, p.name))
            if loses and not cant_lose_game(state, table, p.name):
                state = state.set_player(replace(p, lost=True))
                why, rule = (f"{p.poison} poison counters", "704.5c") if p.poison >= limit else (f"{p.life} life", "704.5a")
                state = event(state, f"{says(p.name, 'loses')} the game ({why})", rule)
                losers.append(p.name)
                changed = True
        dying = [perm for perm in state.perms if perm.present and dies(table, perm, state)]
        for perm in state.perms:
            # 704.5q: N +1/+1 and N -1/-1 counters leave a permanent that stays; toughness doesn't
            # change, so it doesn't change who dies, and a dying one keeps its last counters
            n = min(perm.counter("+1/+1"), perm.counter("-1/-1"))
            if perm.present and n > 0 and perm not in dying:
                left = tuple((k, v - n if k in ("+1/+1", "-1/-1") else v) for k, v in perm.counters)
                state = state.set_perm(replace(perm, counters=left))
                changed = True
        if dying:
            for perm in dying if recording() else ():
                state = event(state, *_death_words(table, perm, state))
            destroyed = [p for p in dying if _sba_death(table, p, state) == "destroyed"]
            state, kept = destroy_or_regenerate(state, table, destroyed)
            dying = [p for p in dying if p not in destroyed or p in kept]
            if dying:
                state = put_into_graveyard(state, table, dying)
            changed = True
        # 704.5h reads deathtouch damage dealt "since the last time state-based actions were
        # checked": this check has read it, so it is forgotten (an indestructible creature keeps
        # the damage, 120.6, not the doom, 702.12b)
        for perm in state.perms:
            if perm.present and perm.deathtouched:
                state = state.set_perm(replace(perm, deathtouched=False))
        for pid in detached:
            now = state.perm(pid)
            assert now is not None
            if not now.present:
                continue  # it died of its own 704.5 action in this check
            if attachment_kind(table, now) == "aura":
                state = leave(state, table, [now], frozenset({now.id}))
            else:
                state = state.set_perm(replace(now, attached_to=None))
            changed = True
        # all of these happen at once (704.3); then, in a multiplayer game, the losers leave
        # with their objects (800.4a)
        if multiplayer(state, table):
            for name in losers:
                state = leave_game(state, table, name)
            if losers and last_standing(state):
                return game_over(state, losers)  # 104.2a, 104.4a: no one left to play against
        elif losers:
            return game_over(state, losers)
        if not changed:
            return state


def game_ended(state: GameState, table: Table) -> bool:
    """Whether the game has ended (104.2a, 104.3): a player (a team, 810.8a) lost a game that isn't
    multiplayer (there, the losers leave and the game goes on, 800.4a, until at most one player
    is left in it, 104.2a)."""
    return any(p.lost for p in state.players) and (not multiplayer(state, table) or last_standing(state))


def game_over(state: GameState, losers: list[str]) -> GameState:
    """104.2a, 104.3: in a two-player game (and in Two-Headed Giant, 810.8a, between two teams) the
    game ends as soon as a player (a team) loses: nothing further happens, no later damage step, no
    trigger, no rider. The outcome is the state at that moment. (Multiplayer games go on, 800.4.)"""
    who = " and ".join(losers)
    state = replace(state, queue=(), batch=None, pending=(), stack=())
    return note(state, f"the game is over: {who} {'lose' if who == 'you' or len(losers) > 1 else 'loses'} "
                       "the game, so nothing further happens (104.2a, 104.3)")
