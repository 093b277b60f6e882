"""Creating tokens (CR 111): a ``create_tokens`` action puts new permanents onto the battlefield.

The player who creates a token is its owner and controller (111.2); it has the characteristics
the effect gives it (111.3) and is a permanent like any other: it is summoning sick (302.6: it
entered during the case's actions), it can be dealt damage, block when blocks are chosen, be
sacrificed, activate its abilities (a Food's "{2}, {T}, Sacrifice this artifact: You gain 3
life.", 111.10b) and die (700.4). Tokens created by one action enter at the same time, so one
"enters" event triggers for all of them (603.6a).
"""

from __future__ import annotations

from mtg_outcomes.model.kinds import TriggerEvent
from mtg_outcomes.model.types import OneShot, PermanentSpec, TokenSpec
from mtg_outcomes.model.vocab.tokens import token_id

from .state import GameState, PermState, Table, replace
from .triggers import collect_triggers

__all__ = ["create_tokens"]


def _fresh_id(state: GameState, table: Table, creator: str, taken: set[str]) -> str:
    """The next id of a token ``creator`` creates: ``<creator>-token<k>``, k counting the tokens
    it created before (a pure function of the state, so equal states give equal ids)."""
    k = 1
    while token_id(creator, k) in taken:
        k += 1
    return token_id(creator, k)


def _spec_index(table: Table, token: TokenSpec, tid: str, controller: str) -> int:
    """The index of the token's :class:`PermanentSpec` in ``table.perm_specs``, one per (token,
    id, controller), so two paths creating the same token reach equal states."""
    key = ("token", id(token), tid, controller)  # (the token is the case's, alive as long as the table)
    idx = table.memo.get(key)
    if idx is None:
        spec = PermanentSpec(id=tid, name=token.name, controller=controller, owner=controller, types=token.types,
                             subtypes=token.subtypes, colors=token.colors, power=token.power,
                             toughness=token.toughness, keywords=token.keywords, toxic=token.toxic,
                             abilities=token.abilities, tapped=token.tapped)
        table.perm_specs.append(spec)
        idx = table.memo[key] = len(table.perm_specs) - 1
    return idx


def create_tokens(state: GameState, table: Table, shot: OneShot, controller: str, creator: str, n: int) -> GameState:
    """``n`` tokens of ``shot.token`` enter under ``controller`` (111.2), at once (603.6a)."""
    token = shot.token
    assert token is not None
    if n <= 0 or state.player(controller).left:
        return state
    taken = {p.id for p in state.perms} | {s.id for s in table.case.permanents} | set(table.sources) | set(table.order)
    made = []
    for _ in range(n):
        tid = _fresh_id(state, table, creator, taken)
        taken.add(tid)
        perm = PermState(id=tid, spec=_spec_index(table, token, tid, controller), controller=controller,
                         tapped=token.tapped)
        state = replace(state, perms=state.perms + (perm,))
        made.append(tid)
    # 603.6a: "when this enters" and "whenever a creature you control enters" see them enter
    return collect_triggers(state, table, TriggerEvent.ENTERS, [(tid, {"X": 0}) for tid in made])
