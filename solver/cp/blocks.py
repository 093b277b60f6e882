"""Blocks inside the CP model (CR 509.1): the defending player's declaration of blockers becomes
literals of the combat damage step's model instead of a decision the prefix expands, so an
ordinary combat with chosen blocks is one model, not one per declaration ((attackers + 1) to the
power of the blockers).

A literal per legal (blocker, attacker) pair: the pairs are solver.rules.blocks.block_candidates' (the
concrete rules the graph engine's declarations read: 509.1a, flying and reach 702.9b / 702.17b,
protection 702.16f, k), each blocker blocks at most one (509.1a) and a creature with menace is
blocked by none or by two or more (702.111b): solver.rules.blocks' constraint forms beside their
concrete ones. Each attacker's division of its combat damage (510.1a-c) is an integer per
recipient, nothing to a creature not blocking it, all to the player it attacks when unblocked
(510.1b), nothing to the player when blocked without trample, and with trample damage to the
player only once each of its blockers is assigned lethal damage (702.19b: solver.rules.lethal's
conditions, one definition). A blocker deals its damage to the creature it blocks (510.1d).

With first or double strike there are two combat damage steps (510.4). The blocks that matter
to the first-strike step (a blocker with first or double strike, or one blocking an attacker
with it) are then a decision before it (:func:`early_declarations`), and every other potential
blocker's block is deferred to the regular step's model: nothing in the first step reads it
(506.4: only combatants with first or double strike deal damage there), and the witness states
the whole declaration where the graph engine makes it (:func:`complete_declaration`).

The model takes these forms only when nothing else depends on the declaration
(:func:`block_problem`): one defending player declares every block (``combat: {blocks:
choose}``) and the combat is the timeline's last action; every attacker attacks a player; no
effect or ability reads who is blocking or blocked, lets an attacker assign as though it weren't
blocked, or redirects damage; with two steps, no creature has menace and no blockers are merged
as interchangeable. Otherwise the declarations are expanded before the step, as the graph engine
does.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.kinds import DecisionKind
from mtg_outcomes.model.outcome import Witness
from mtg_outcomes.model.selectors import Selector

from ..characteristics import keywords_of
from ..combat import assigned_amount, assigns_in_step, has_trample, queue_steps, start_step
from ..decision import Decision, Option
from ..declare import (
    Declarations,
    declaration_base,
    declaration_option,
    declaration_words,
    declare,
    declared,
)
from ..limits import check_running
from ..rules.blocks import block_candidates, menace_constraint, one_block_constraint
from ..rules.effects import effects_in_force, start_batch
from ..rules.lethal import LethalIf, lethal_conditions, lethal_constraint
from ..select import is_player
from ..state import CombatStage, Event, GameState, PermState, Table, TaskKind, replace
from .literals import assigned_to as _to
from .literals import at_least as _at_least
from .literals import either as _either

__all__ = ["BlockPlan", "is_block_start", "deferred_blocks", "block_problem", "early_declarations", "open_blocks",
           "encode_blocks", "declaration_of", "drive_declaration", "complete_declaration", "deferred_problem",
           "join_witness", "EARLY", "LATE"]

# the one in_combat word that does not read the declaration (attacking, 506.4, 508.1k): every
# other one does (blocking, unblocked, blocking_it, blocked_by_it, ...: 509.1h)
_NOT_BLOCK_READERS = ("attacking",)
EARLY = "first-strike blocks: "  # the label of a declaration the regular step's model completes


@dataclass(frozen=True)
class BlockPlan:
    """The declaration of blockers as the model's choice: who declares, the legal pairs, and what
    each combatant's combat damage needs in the step (510.1)."""

    chooser: str
    start: GameState  # the declaration's task first; or the step's start, blocks deferred to it
    step: int  # the combat damage step modelled: 0 the only one, 2 the regular one (510.4)
    blockers: tuple[str, ...]  # the creatures whose block the model chooses, by id
    may_block: dict[str, tuple[str, ...]]  # blocker -> the attackers it may block (509.1a-b)
    fixed: dict[str, tuple[str, ...]]  # attacker -> its blockers declared before (the first-strike step's)
    attackers: tuple[str, ...]  # in the battlefield's order (510.1: the graph engine asks in it)
    blocked: frozenset[str]  # attackers blocked before the step's choice (509.1h: they stay blocked)
    keywords: dict[str, frozenset[str]]  # attacker -> its keywords (menace, 702.111b)
    amount: dict[str, int]  # combatant -> the combat damage it assigns in the step (510.1a, 510.4)
    defended: dict[str, str]  # attacker -> the player it attacks (506.2)
    trample: frozenset[str]  # attackers with trample (702.19b)
    lethal: dict[str, tuple[LethalIf, ...]]  # blocker -> when lethal damage is assigned to it (702.19b)
    classes: tuple[tuple[str, ...], ...]  # interchangeable blockers (solver.symmetry)
    controller: dict[str, str]  # attacker -> its controller

    def blockers_of(self, a: str) -> list[str]:
        return [*self.fixed.get(a, ()), *(b for b in self.blockers if a in self.may_block[b])]

    def choosers(self) -> list[str]:
        """Who chooses: the defending player their blocks (509.1), and an attacker's controller its
        division when it may be blocked by two or more creatures, or has trample (510.1c, 702.19b)."""
        out = [self.chooser]
        for a in self.attackers:
            could = len(self.blockers_of(a))
            if self.amount[a] > 0 and (could >= 2 or (could and a in self.trample)):
                out.append(self.controller[a])
        return sorted(set(out))

    def declarations(self) -> int:
        """How many declarations the model chooses among at most (the graph engine's options)."""
        n = 1
        for b in self.blockers:
            n *= len(self.may_block[b]) + 1
        return n


def is_block_start(state: GameState) -> bool:
    """Whether ``state`` stops at a declaration of blockers (509.1) the model may make."""
    return bool(state.queue) and state.queue[0][:2] == (TaskKind.COMBAT, CombatStage.BLOCKS)


def deferred_blocks(state: GameState) -> bool:
    """Whether blocks are still to be chosen at the start of a combat damage step (the regular
    step after :func:`early_declarations`)."""
    return any(p.choosing_block for p in state.perms)


def _reads_blocks(node: Any, seen: set[int]) -> bool:
    """Whether a selector anywhere in ``node`` (a case's or card's data) reads who blocks or is
    blocked (``in_combat: blocking / unblocked``)."""
    if id(node) in seen or isinstance(node, str | int | float | bool | type(None)):
        return False
    seen.add(id(node))
    if isinstance(node, Selector):
        return any(word not in _NOT_BLOCK_READERS for word in node.in_combat) or \
            any(_reads_blocks(getattr(node, f.name), seen) for f in dataclasses.fields(node))
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return any(_reads_blocks(getattr(node, f.name), seen) for f in dataclasses.fields(node))
    if isinstance(node, dict):
        return any(_reads_blocks(v, seen) for v in node.values())
    if isinstance(node, list | tuple | set | frozenset):
        return any(_reads_blocks(v, seen) for v in node)
    fields = getattr(type(node), "model_fields", None)  # a pydantic model
    if fields is not None:
        return any(_reads_blocks(getattr(node, name, None), seen) for name in fields)
    return False


def _case_reads_blocks(table: Table) -> bool:
    """:func:`_reads_blocks` of the case and its permanents' specifications, walked once a table."""
    key = "reads_blocks"
    if key not in table.memo:
        table.memo[key] = _reads_blocks(table.perm_specs, set()) or _reads_blocks(table.case, set())
    return bool(table.memo[key])


def _strikers(state: GameState, table: Table, perms: list[PermState]) -> set[str]:
    return {p.id for p in perms if {"first strike", "double strike"} & set(keywords_of(state, table, p.id))}


def block_problem(state: GameState, table: Table) -> str | None:
    """Why the declaration that ``state`` stops at can't be the model's choice, or None."""
    _, _, choose_all, sides = state.queue[0]
    if not choose_all or len(sides) != 1 or len(sides[0]) != 1:
        return "blocks chosen by more than one player, or only some of them"
    if len(state.queue) != 1:
        return "more of the timeline after the combat"
    decls = Declarations(replace(state, queue=state.queue[1:]), table, sides[0], choose_all, ())
    attackers, blockers = decls.attackers, decls.blockers
    if len(decls.first_two()) < 2:
        return "one legal declaration: the graph engine's forced step"
    if any(not is_player(table, a.attacking) for a in attackers):  # type: ignore[arg-type]
        return "an attack on a planeswalker or battle"
    kinds = {i.spec.kind for i in effects_in_force(state, table)}
    if EffectKind.AS_UNBLOCKED in kinds:
        return "an attacker may assign as though it weren't blocked (510.1b)"
    if EffectKind.REDIRECT in kinds:
        return "a redirection (614.9): its tree is walked for each amount a division gives"
    if _case_reads_blocks(table):
        return "an effect or ability reads which creatures block or are blocked"
    if _strikers(state, table, [*attackers, *blockers]):
        if any("menace" in keywords_of(state, table, a.id) for a in attackers):
            return "menace with first or double strike: the blocks of both steps count together (702.111b)"
        if table.interchangeable:
            return "interchangeable blockers with first or double strike"
    return None


# ---------------------------------------------------------------------------------------------
# two steps: the blocks that matter to the first-strike step, declared before it (510.4)


def early_declarations(state: GameState, table: Table) -> Decision | None:
    """With first or double strike (510.4), the declaration as far as the first-strike step reads
    it: each blocker with first or double strike blocks what it may or nothing, every other one
    an attacker with first or double strike it may block, or has its block chosen by the regular
    step's model (``choosing_block``). None without first or double strike (one model makes the
    whole declaration)."""
    _, _, choose_all, sides = state.queue[0]
    side = sides[0]
    attackers, blockers, per = block_candidates(state, table, side, choose_all)
    strikers = _strikers(state, table, [*attackers, *blockers])
    if not strikers:
        return None
    base, attacked = declaration_base(state, table, side, choose_all)
    ids = [b.id for b in blockers]
    choices: list[list[str | None]] = [opts if b in strikers else [None, *(a for a in opts if a in strikers)]
                                       for b, opts in zip(ids, per, strict=True)]
    options = []
    for n, combo in enumerate(itertools.product(*choices)):
        check_running("declaring the blocks of the first-strike step", n)  # (2 to the power of the blockers)
        st = declared(base, ids, combo, attacked, True)
        late = [b for b, a in zip(ids, combo, strict=True) if a is None and b not in strikers]
        for b in late:
            perm = st.perm(b)
            assert perm is not None
            st = st.set_perm(replace(perm, choosing_block=True))
        st = queue_steps(replace(st, queue=state.queue[1:]), table)
        if late:  # completed by the step's model (join_witness)
            label = EARLY + "; ".join(f"{b}->{a or ('later' if b in late else 'none')}" for b, a in zip(ids, combo, strict=True))
            options.append(Option(label, f"{side[0]} declares the blocks that matter to the first-strike step", st))
        else:  # the whole declaration, as the graph engine's option
            whole = declaration_option(side[0], base, ids, combo, attacked, True, (), table)
            options.append(Option(whole.picked, whole.words, st))
    return Decision(side[0], DecisionKind.BLOCK, "declare blockers", tuple(options))


def complete_declaration(step: Witness, chosen: dict[str, str | None]) -> Witness:
    """The graph engine's declaration (solver.declare's label) from an early one
    (:func:`early_declarations`) and the regular step's choices of its deferred blocks."""
    parts = []
    for part in step.picked[len(EARLY):].split("; "):
        b, a = part.split("->", 1)
        parts.append(f"{b}->{(chosen.get(b) or 'none') if a == 'later' else a}")
    return Witness(step.chooser, step.kind, step.at, "; ".join(parts))


def deferred_problem(state: GameState) -> str | None:
    """Why the regular step can't choose the blocks deferred to it, or None: each deferred
    blocker must still be there, untapped, as it was when blockers were declared."""
    gone = [p.id for p in state.perms if p.choosing_block and (not p.present or p.tapped)]
    if gone:
        return f"{gone[0]} left or was tapped before the regular combat damage step, its block undecided"
    return None


LATE = "regular-step blocks: "  # the step's witness: the deferred blocks the model chose


def join_witness(before: tuple[Witness, ...], words: tuple[str, ...], step: tuple[Witness, ...],
                 step_words: tuple[str, ...], say: Callable[[str], str] = str) -> tuple[tuple[Witness, ...], tuple[str, ...]]:
    """A witness of the prefix then the step, as the graph engine replays it: an early declaration
    (:func:`early_declarations`) completed with the deferred blocks the step chose, where the
    graph engine declares them all (509.1)."""
    if not step or not step[0].picked.startswith(LATE):
        return before + step, words + step_words
    chosen = dict(part.split("->", 1) for part in step[0].picked[len(LATE):].split("; ") if part)
    k = next(i for i, w in enumerate(before) if w.kind == "block" and w.picked.startswith(EARLY))
    full = complete_declaration(before[k], {b: (None if a == "none" else a) for b, a in chosen.items()})
    pairs = [part.split("->", 1) for part in full.picked.split("; ")]
    said = declaration_words(full.chooser, [b for b, _ in pairs], tuple(None if a == "none" else a for _, a in pairs), say)
    return (before[:k] + (full,) + before[k + 1:] + step[1:],
            words[:k] + (said,) + words[k + 1:] + step_words[1:])


# ---------------------------------------------------------------------------------------------
# the model's step


def open_blocks(state: GameState, table: Table) -> tuple[GameState, BlockPlan]:
    """The step's batch with an event per (creature, recipient) pair some declaration and division
    can make, each at its largest amount (the model makes it the chosen one's; 0: no event, 120.8),
    and the declaration's plan. ``state``: the declaration's task first, or a combat damage step's
    start with blocks deferred to it (:func:`early_declarations`: the regular step, or the only
    one when no combatant has first strike after all)."""
    step = 0 if is_block_start(state) else state.queue[0][1]
    if is_block_start(state):
        _, _, choose_all, sides = state.queue[0]
        side = sides[0]
        attackers, blockers, per = block_candidates(state, table, side, choose_all)
        base, attacked = declaration_base(state, table, side, choose_all)
        ids = [b.id for b in blockers]
        st = declared(base, ids, (None,) * len(ids), attacked, True)
        st = queue_steps(replace(st, queue=state.queue[1:]), table)
        st = replace(st, queue=st.queue[1:])
    else:
        chooser = next(p.controller for p in state.perms if p.choosing_block)
        attackers, blockers, per = block_candidates(state, table, (chooser,), False)
        # the pairs with a creature that had first or double strike were declared before (702.7c)
        early = {a.id for a in attackers if a.had_first_strike}
        per = [[a for a in opts if a not in early] for opts in per]
        side, st = (chooser,), replace(state, queue=state.queue[1:])
    st = start_step(st, table, step)
    st = replace(st, queue=st.queue[1:])  # (its assignment task: the model's own)
    ids = [b.id for b in blockers]
    may_block = {b: tuple(a for a in opts if a is not None) for b, opts in zip(ids, per, strict=True)}
    present = [p for p in st.perms if p.present]
    attacking = [p for p in present if p.attacking is not None]
    fixed = {a.id: tuple(q.id for q in present if a.id in q.blocking) for a in attacking}
    amount = {p.id: assigned_amount(st, table, p) if assigns_in_step(st, table, p, step) else 0
              for p in present if p.attacking is not None or p.blocking or p.id in may_block}
    amount = {k: max(0, v) for k, v in amount.items()}
    sources = [a.id for a in attacking if amount[a.id] > 0]
    plan = BlockPlan(
        chooser=side[0], start=state, step=step, blockers=tuple(ids), may_block=may_block, fixed=fixed,
        attackers=tuple(a.id for a in attacking), blocked=frozenset(a.id for a in attacking if a.blocked),
        keywords={a.id: frozenset(keywords_of(st, table, a.id)) for a in attacking}, amount=amount,
        defended={a.id: a.attacking for a in attacking},  # type: ignore[misc]
        trample=frozenset(a.id for a in attacking if has_trample(st, table, a.id)),
        lethal={b: lethal_conditions(st, table, b, sources) for b in {*ids, *(q for qs in fixed.values() for q in qs)}},
        classes=table.interchangeable, controller={a.id: a.controller for a in attacking})
    events: list[Event] = []
    for a in plan.attackers:
        if amount[a] > 0:
            events.extend(Event(a, b, amount[a], True) for b in plan.blockers_of(a))
            events.append(Event(a, plan.defended[a], amount[a], True))
    for p in present:  # 510.1d: blockers, in the battlefield's order
        for a in (*p.blocking, *may_block.get(p.id, ())):
            if amount.get(p.id, 0) > 0 and a in plan.defended:
                events.append(Event(p.id, a, amount[p.id], True))
    return start_batch(st, table, events), plan


def encode_blocks(m: Any, bp: BlockPlan) -> tuple[dict[tuple[str, str], Any], dict[tuple[str, str], Any]]:
    """The declaration and the divisions as constraints: (the amount each (creature, recipient)
    pair is assigned, the literal of each legal (blocker, attacker) pair the model chooses)."""
    blocks = {(b, a): m.new_bool_var(f"block_{b}_{a}") for b in bp.blockers for a in bp.may_block[b]}
    for b in bp.blockers:
        one_block_constraint(m, [blocks[b, a] for a in bp.may_block[b]])  # 509.1a
    _canonical(m, bp, blocks)
    pair: dict[tuple[str, str], Any] = {(b, a): True for a, bs in bp.fixed.items() for b in bs} | blocks
    dealt: dict[tuple[str, str], Any] = {}
    for a in bp.attackers:
        chosen = [blocks[b, a] for b in bp.blockers if (b, a) in blocks]
        menace_constraint(m, bp.keywords[a], len(bp.fixed.get(a, ())) + sum(chosen))  # 702.111b
        joined = _either(m, chosen)
        blocked = True if a in bp.blocked else joined  # 509.1h: once blocked, it stays blocked
        if bp.amount[a] > 0:
            _divide(m, bp, a, blocked, joined, pair, dealt)
    for (b, a), lit in pair.items():  # 510.1d: a blocker's damage to the creature it blocks
        if bp.amount.get(b, 0) > 0 and a in bp.amount:
            dealt[b, a] = bp.amount[b] if lit is True else bp.amount[b] * lit
    for a in bp.trample:
        if bp.amount[a] > 0:
            _trample(m, bp, a, pair, dealt)
    return dealt, blocks


def _divide(m: Any, bp: BlockPlan, a: str, blocked: Any, joined: Any, pair: dict[tuple[str, str], Any],
            dealt: dict[tuple[str, str], Any]) -> None:
    """510.1b-c: ``a``'s combat damage, all of it to the player when unblocked, else among the
    creatures blocking it (and with trample the player, 702.19b); a blocked creature whose
    blockers have all left deals none (510.1c), or with trample all of it to the player (702.19e)."""
    p = bp.amount[a]
    parts = []
    for b in bp.blockers_of(a):
        x = m.new_int_var(0, p, f"assign_{a}_{b}")
        if pair[b, a] is not True:
            m.add(x == 0).only_enforce_if(~pair[b, a])
        dealt[a, b] = x
        parts.append(x)
    to_player = m.new_int_var(0, p, f"assign_{a}_player")
    dealt[a, bp.defended[a]] = to_player
    stranded = a in bp.blocked and not bp.fixed.get(a) and a not in bp.trample
    total = p if not stranded else (0 if joined is False else p if joined is True else p * joined)
    m.add(sum(parts) + to_player == total)
    if a not in bp.trample and blocked is True:
        m.add(to_player == 0)
    elif a not in bp.trample and blocked is not False:
        m.add(to_player == 0).only_enforce_if(blocked)


def _trample(m: Any, bp: BlockPlan, a: str, pair: dict[tuple[str, str], Any], dealt: dict[tuple[str, str], Any]) -> None:
    """702.19b over the whole assignment (510.1e): damage to the player needs lethal damage
    assigned to each creature blocking ``a``, counting every attacker's assignment to it."""
    over = _at_least(m, dealt[a, bp.defended[a]], 1)
    for b in bp.blockers_of(a):
        to_b = _to(dealt, b, bp.defended)
        lethal_constraint(m, lambda e, k: _at_least(m, e, k), to_b, bp.lethal[b], [over, pair[b, a]])


def _canonical(m: Any, bp: BlockPlan, blocks: dict[tuple[str, str], Any]) -> None:
    """Only the declaration the graph engine keeps of those that differ by a swap of
    interchangeable blockers (solver.symmetry.canonical: within a class, the blocks in id order
    sorted, no block first)."""
    rank = {a: k + 1 for k, a in enumerate(sorted(bp.attackers))}
    for cls in bp.classes:
        members = [b for b in cls if b in bp.blockers]
        for b1, b2 in zip(members, members[1:], strict=False):
            m.add(sum(rank[a] * blocks[b1, a] for a in bp.may_block[b1])
                  <= sum(rank[a] * blocks[b2, a] for a in bp.may_block[b2]))


# ---------------------------------------------------------------------------------------------
# the witness


def declaration_of(bp: BlockPlan, blocks: dict[tuple[str, str], Any], solver: Any) -> dict[str, str | None]:
    """What each blocker the model chose for blocks in a solution (None: nothing)."""
    return {b: next((a for a in bp.may_block[b] if solver.boolean_value(blocks[b, a])), None) for b in bp.blockers}


def drive_declaration(bp: BlockPlan, table: Table, chosen: dict[str, str | None]) -> tuple[GameState, Witness, str]:
    """The state with the step's assignment task first once ``chosen`` is declared, and (step 0)
    the graph engine's declaration decision (solver.declare) answered with it: its witness step
    and words, the option built alone (the decision may have more than one builds at once). In
    the regular step the declaration is the prefix's (:func:`complete_declaration`)."""
    state = bp.start
    if not is_block_start(state):  # blocks deferred to this step: the prefix declared the rest
        late = sorted(p.id for p in state.perms if p.choosing_block)
        combo = tuple(chosen.get(b) for b in late)
        st = declared(state, late, combo, set(bp.attackers), False)
        task, st = st.queue[0], replace(st, queue=st.queue[1:])
        assert task == (TaskKind.STEP, bp.step)
        picked = LATE + "; ".join(f"{b}->{a or 'none'}" for b, a in zip(late, combo, strict=True))
        return start_step(st, table, bp.step), Witness(bp.chooser, "block", "declare blockers", picked), ""
    _, _, choose_all, sides = state.queue[0]
    base, attacked = declaration_base(state, table, sides[0], choose_all)
    queue = ((TaskKind.COMBAT, CombatStage.BLOCKS, choose_all, sides[1:]),) + base.queue[1:]
    opt = declaration_option(bp.chooser, base, list(bp.blockers), tuple(chosen[b] for b in bp.blockers), attacked,
                             choose_all, queue, table)
    queued = declare(replace(opt.state, queue=opt.state.queue[1:]), table, opt.state.queue[0])  # the steps (510.4)
    assert isinstance(queued, GameState)
    task, st = queued.queue[0], replace(queued, queue=queued.queue[1:])
    assert task == (TaskKind.STEP, 0)
    return start_step(st, table, 0), Witness(bp.chooser, "block", "declare blockers", opt.picked), opt.words
