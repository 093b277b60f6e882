"""Which blocks are legal (CR 509.1): one definition, its concrete and its constraint forms.

509.1a: each untapped creature the defending player controls may block one creature attacking
that player (or their planeswalker or battle; in Two-Headed Giant their team, 810.7); 509.1b-c:
restrictions on single blocks (flying and reach, 702.9b, 702.17b; protection, 702.16f, k) and on
the declaration as a whole (menace, 702.111b).

The concrete checks on keywords are model.blocks' (the case loader reads them too, and model/
never imports solver/), re-exported here; this module adds what needs the game state
(:func:`can_block`, :func:`block_candidates`: the graph engine's declarations, solver.declare, and
the CP model's block literals, solver.cp.blocks, both read them) and the constraint forms
(:func:`menace_constraint`, :func:`one_block_constraint`) on a CP-SAT model passed in.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from mtg_outcomes.model.blocks import defending_player, evasion_problem, menace_problem, same_side
from mtg_outcomes.model.effects import EffectKind

from ..characteristics import keywords_of
from ..combat import attackers_of, defenders, teams
from ..select import matches
from ..state import GameState, PermState, Table
from .effects import effects_in_force, protected_from

__all__ = ["evasion_problem", "menace_problem", "defending_player", "same_side", "can_block", "block_candidates",
           "menace_constraint", "one_block_constraint"]


def _protected_from_blocker(state: GameState, table: Table, attacker: str, blocker: PermState) -> bool:
    """702.16f: a creature with protection can't be blocked by creatures with that quality; 702.16k:
    with protection from a player, by creatures that player controls."""
    for inst in effects_in_force(state, table):
        if inst.spec.kind == EffectKind.PROTECTION and matches(inst.spec.to, attacker, state, table, inst.view) \
                and protected_from(inst, blocker.id, blocker.controller, state, table):
            return True
    return False


def can_block(state: GameState, table: Table, blocker: PermState, attacker: PermState) -> bool:
    """One block on its own: 702.9b / 702.17b (flying, reach) and 702.16f, k (protection)."""
    bkw = keywords_of(state, table, blocker.id)  # granted keywords count (613.1f)
    akw = keywords_of(state, table, attacker.id)
    return evasion_problem(akw, bkw) is None and not _protected_from_blocker(state, table, attacker.id, blocker)


def block_candidates(state: GameState, table: Table, side: tuple[str, ...],
                     choose_all: bool) -> tuple[list[PermState], list[PermState], list[list[str | None]]]:
    """The concrete form of 509.1a-b's per-creature rules, which the graph engine's declarations
    and the CP model's block literals (solver.cp.blocks) both read: the attackers ``side`` may
    block (sorted by id), its potential blockers (sorted by id) and, per blocker, what it may
    block (None first: no block).

    A potential blocker is a creature a player of ``side`` controls, untapped (509.1a), not
    attacking, whose block is to be chosen; it may block one creature attacking ``side`` (or its
    planeswalkers and battles) that it can legally block (flying and reach, 702.9b, 702.17b;
    protection, 702.16f, k)."""
    who_defends = defenders(state, table)
    team_of = teams(table)
    attackers = sorted((a for a in attackers_of(state)
                        if same_side(side[0], defending_player(a.attacking, who_defends), team_of)),  # type: ignore[arg-type]
                       key=lambda a: a.id)
    blockers = sorted((p for p in state.perms
                       if p.present and p.controller in side and p.attacking is None and not p.tapped
                       and "creature" in table.perm_specs[p.spec].types and (choose_all or p.choosing_block)),
                      key=lambda p: p.id)
    per_blocker: list[list[str | None]] = [[None, *(a.id for a in attackers if can_block(state, table, b, a))]
                                           for b in blockers]
    return attackers, blockers, per_blocker


def menace_constraint(m: Any, attacker: Collection[str], blockers: Any) -> None:
    """The constraint form of :func:`menace_problem` (702.111b) on a CP-SAT model ``m``:
    ``blockers``, the number of creatures blocking a creature with keywords ``attacker`` (a
    linear expression), is not 1."""
    if "menace" in attacker:
        m.add(blockers != 1)


def one_block_constraint(m: Any, blocks: Sequence[Any]) -> None:
    """509.1a on a CP-SAT model ``m``: a creature blocks at most one attacker (``blocks``: a
    literal per attacker it may block; the graph engine's declarations give it one or None)."""
    if len(blocks) > 1:
        m.add_at_most_one(blocks)
