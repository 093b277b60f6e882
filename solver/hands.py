"""Hand sizes where the case says them (CR 402.1, model.load.hands): a card drawn goes to its
player's hand (121.1, solver.oneshot); a nontoken permanent returned to a hand is a card there
(400.7; a token would cease to exist, 111.7, 704.5d); a player who casts a spell may have cast it
from their hand or from elsewhere (601.2a, the case doesn't say), and a permanent the case has
enter may have come from its owner's hand, so their count is no longer known (a later read is an
error, never a guess)."""

from __future__ import annotations

from collections.abc import Iterable

from .persist import created_token
from .state import GameState, PermState, Table, replace

__all__ = ["returned_to_hands", "cast_from_somewhere"]


def returned_to_hands(state: GameState, table: Table, perms: Iterable[PermState]) -> GameState:
    """A nontoken permanent returned to its owner's hand is a card there (400.7, 402.1); a token
    ceases to exist (111.7, 704.5d)."""
    for perm in perms:
        spec = table.perm_specs[perm.spec]
        if created_token(table, perm.spec):
            continue
        p = state.player(spec.owner)
        if p.hand is not None:
            state = state.set_player(replace(p, hand=p.hand + 1))
    return state


def cast_from_somewhere(state: GameState, who: str) -> GameState:
    """``who`` cast a spell, or a permanent of theirs entered (``enter:``), from a zone the case
    doesn't say (601.2a): their hand's count is no longer known."""
    p = state.player(who)
    return state if p.hand is None else state.set_player(replace(p, hand=None))
