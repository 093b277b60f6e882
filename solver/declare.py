"""The declare blockers step (CR 509.1) when blocks are chosen: one decision of each defending
side, an option per legal declaration.

Blocks are written in the case (``blocking:``) or chosen: with ``combat: {blocks: choose}`` each
defending player declares every block of theirs, with ``blocking: choose`` only that creature's
block is chosen. A declaration is one decision of the defending player (in APNAP order, 101.4;
one per team in Two-Headed Giant), one option per legal declaration (509.1a-c): each untapped
creature they control that isn't attacking blocks one creature attacking them, their planeswalker
or their battle, or none; flying (702.9b, 702.17b), menace (702.111b) and protection (702.16f, k)
restrict it. The result is the state the same blocks written in the file give.

The options grow as (attackers + 1) to the power of the blockers, so they are built as they are
read (:class:`Declarations`): a witness names one, which is built alone; the choice graph reads
them all, up to :data:`MAX_DECLARATIONS`. The CP model makes the declaration itself
(solver.cp.blocks), from the same per-creature rules (solver.rules.blocks.block_candidates).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from mtg_outcomes.model.blocks import defending_player, menace_problem, same_side
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.kinds import DecisionKind

from .characteristics import keywords_of
from .combat import attackers_of, close_choices, defenders, queue_steps, teams
from .decision import Decision, Option, decide, says
from .limits import check_running
from .rules.blocks import block_candidates
from .state import CombatStage, GameState, Table, TaskKind, replace
from .symmetry import canonical
from .words import name as obj_name

__all__ = ["declare", "declaration_base", "declared", "declaration_option", "declaration_words",
           "Declarations", "MAX_DECLARATIONS"]

MAX_DECLARATIONS = 100_000  # the options one declaration may have when all are read: a guard against a huge board

Combo = tuple[str | None, ...]  # what each potential blocker (in id order) blocks; None: nothing


def declaration_base(state: GameState, table: Table, side: tuple[str, ...], choose_all: bool) -> tuple[GameState, set[str]]:
    """The state ``side``'s declaration is made on, and the attackers it may block: no block of
    the side's is left to choose, and with every block chosen none is left from the file (or from
    an earlier combat)."""
    who_defends = defenders(state, table)
    team_of = teams(table)
    attacked = {a.id for a in attackers_of(state) if same_side(side[0], defending_player(a.attacking, who_defends), team_of)}  # type: ignore[arg-type]
    base = state
    for p in state.perms:
        if p.choosing_block and p.controller in side:
            base = base.set_perm(replace(p, choosing_block=False))  # (a tapped one blocks nothing, 509.1a)
    if choose_all:
        for p in base.perms:
            if p.present and p.controller in side and p.blocking:
                base = base.set_perm(replace(p, blocking=()))
    return base, attacked


def declared(base: GameState, ids: list[str], combo: Combo, attacked: set[str], choose_all: bool) -> GameState:
    """``base`` with the blocks ``combo`` declared (``combo[i]``: what ``ids[i]`` blocks); 509.1h:
    a creature with a blocker declared for it becomes blocked."""
    blocking = dict(zip(ids, combo, strict=True))
    blocked = {a for a in combo if a is not None}
    newest = {q.id: i for i, q in enumerate(base.perms)}  # (the newest object with each id, as set_perm)
    perms = list(base.perms)
    for bid, a in blocking.items():
        i = newest[bid]
        perms[i] = replace(perms[i], blocking=(a,) if a else (), choosing_block=False)
    fixed = [q for i, q in enumerate(perms) if q.present and q.blocking and q.id not in blocking]
    out = list(perms)
    for aid in attacked:
        i = newest[aid]
        p = perms[i]
        if p.present:
            now = aid in blocked or any(aid in q.blocking for q in fixed)
            if choose_all or now:
                out[i] = replace(p, blocked=now)
    return replace(base, perms=tuple(out))


def declaration_option(chooser: str, base: GameState, ids: list[str], combo: Combo, attacked: set[str],
                       choose_all: bool, queue: tuple[Any, ...], table: Table) -> Option:
    """The option of ``chooser``'s declaration that declares ``combo``, in the witness's label."""
    st = declared(base, ids, combo, attacked, choose_all)
    picked = "; ".join(f"{b}->{a or 'none'}" for b, a in zip(ids, combo, strict=True)) or "none"
    said = declaration_words(chooser, ids, combo, lambda oid: obj_name(st, table, oid))
    return Option(picked, said, replace(st, queue=queue))


def declaration_words(chooser: str, ids: list[str], combo: Combo, say: Callable[[str], str] = str) -> str:
    """A declaration in words: who blocks what (``say``: an object's name, solver.words.name)."""
    by_attacker: dict[str, list[str]] = {}
    for b, a in zip(ids, combo, strict=True):
        if a:
            by_attacker.setdefault(a, []).append(b)
    if by_attacker:
        return f"{says(chooser, 'blocks')} " + ", ".join(
            f"{say(a)} with {' and '.join(say(b) for b in bs)}" for a, bs in sorted(by_attacker.items()))
    return f"{says(chooser, 'declares')} no blockers"


class Declarations(Sequence[Option]):
    """The options of one declaration decision, built as they are read: all of them (at most
    :data:`MAX_DECLARATIONS`) for the choice graph, or the one a witness names (:meth:`find`)."""

    def __init__(self, state: GameState, table: Table, side: tuple[str, ...], choose_all: bool,
                 queue: tuple[Any, ...]) -> None:
        self.attackers, self.blockers, self.per_blocker = block_candidates(state, table, side, choose_all)
        attackers, self.ids = self.attackers, [b.id for b in self.blockers]
        self.chooser, self.choose_all, self.queue, self.table = side[0], choose_all, queue, table
        self.base, self.attacked = declaration_base(state, table, side, choose_all)
        self.classes = table.interchangeable
        self.fixed: dict[str, int] = {}
        if not choose_all:
            for p in state.perms:
                if p.present and not p.choosing_block:
                    for a in p.blocking:
                        self.fixed[a] = self.fixed.get(a, 0) + 1
        self.menace = {a.id: frozenset(kw) for a in attackers if "menace" in (kw := keywords_of(state, table, a.id))}
        self._built: tuple[Option, ...] | None = None

    def legal(self, combo: Combo) -> bool:
        """509.1c over the whole declaration: menace (702.111b), counting blocks written in the case;
        and the one kept of the swaps of interchangeable blockers (solver.symmetry)."""
        if self.classes and not canonical(self.ids, combo, self.classes):
            return False
        return all(menace_problem(kw, self.fixed.get(a, 0) + combo.count(a)) is None for a, kw in self.menace.items())

    def combos(self) -> Iterator[Combo]:
        """The legal declarations, in the order of the blockers' choices (the running step's
        limits checked as they are listed: 9^5 for 8 attackers into 5 blockers)."""
        kept = 0
        for n, c in enumerate(itertools.product(*self.per_blocker)):
            if n & 1023 == 1023:
                check_running("listing the block declarations", kept)
            if self.legal(c):
                kept += 1
                yield c

    def option(self, combo: Combo) -> Option:
        return declaration_option(self.chooser, self.base, self.ids, combo, self.attacked, self.choose_all, self.queue,
                                  self.table)

    def _all(self) -> tuple[Option, ...]:
        if self._built is None:
            total = math.prod(len(c) for c in self.per_blocker)
            if total > MAX_DECLARATIONS:
                raise EngineError(f"{self.chooser} would choose among {total} block declarations (more than "
                                  f"{MAX_DECLARATIONS}); write some blocks with blocking:")
            built = []
            for n, c in enumerate(self.combos()):
                if n & 63 == 63:
                    check_running("declaring blockers", n)
                built.append(self.option(c))
            self._built = tuple(built)
        return self._built

    def first_two(self) -> list[Combo]:
        return list(itertools.islice(self.combos(), 2))

    def find(self, picked: str) -> Option | None:
        """The option labelled ``picked``, built alone, if it is a legal declaration."""
        parts = [] if picked == "none" else picked.split("; ")
        pairs = [part.split("->", 1) for part in parts]
        if [b for b, *_ in pairs] != self.ids or any(len(p) != 2 for p in pairs):
            return None
        combo = tuple(None if a == "none" else a for _, a in pairs)
        if any(a not in opts for a, opts in zip(combo, self.per_blocker, strict=True)) or not self.legal(combo):
            return None
        return self.option(combo)

    def __len__(self) -> int:
        return len(self._all())

    @overload
    def __getitem__(self, i: int) -> Option: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Option]: ...
    def __getitem__(self, i: int | slice) -> Option | Sequence[Option]:
        return self._all()[i]

    def __iter__(self) -> Iterator[Option]:
        return iter(self._all())


def declare(state: GameState, table: Table, task: tuple[Any, ...]) -> GameState | Decision:
    """One side's declaration (509.1), then the next side's, then the combat damage steps."""
    _, _, choose_all, sides = task
    if not sides:
        return queue_steps(close_choices(state), table)
    side, rest = sides[0], sides[1:]
    decls = Declarations(state, table, side, choose_all, ((TaskKind.COMBAT, CombatStage.BLOCKS, choose_all, rest),) + state.queue)
    legal = decls.first_two()
    if not legal:
        raise EngineError(f"{side[0]} has no legal block declaration: the blocks written in the case need a "
                          "second blocker for a creature with menace that no chosen creature can give (CR 702.111b)")
    if len(legal) == 1:
        return decide(side[0], DecisionKind.BLOCK, "declare blockers", [decls.option(legal[0])])  # (a forced step)
    return Decision(side[0], DecisionKind.BLOCK, "declare blockers", decls)
