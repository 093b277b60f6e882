"""The choices before the CP step: the graph engine's rules expand every step of the timeline up
to the last damage step, merging equal states as the choice graph does; the CP model then solves
that one step from each distinct state reached (solver.cp.plan, solver.cp.search).

The CP step is the last combat damage step of a ``combat: {}`` action that ends the timeline
(with first or double strike the regular combat damage step, after the first-strike damage step,
CR 510.4, with its state-based actions and triggers, which the rules engine runs: 704.3, 603.3b),
else **the last damage batch of the timeline**, whatever opened it: a ``damage:`` action, a
``deal`` one-shot of a resolving spell, activated or triggered ability (enters, end step), a
``one_shot:`` action. The expansion stops as such a batch opens (its events fixed: targets,
601.2c; divisions, 601.2d; modes; trigger order, 603.3b) when nothing follows it but what the CP
model applies (:func:`tail_end`: later instructions of the same resolution, 608.2c, that draw or
gain or lose a fixed amount of life); a batch followed by anything else is expanded by the rules
too. Earlier actions (activations and their targets, a source of your choice, 615.9 / 609.7a;
declared blocks, 509.1; ``enter:`` choices; trigger orders; earlier batches) are decisions of
this prefix. A branch that ends without reaching the step (the game ended, 104.2a; no later
damage batch on it) is an outcome of the rules engine's own, exact.

When no branch reaches such a step (the last batch is followed by a later action, the end of
the combat damage step, a later instruction of its resolution...), the step is a batch or
combat damage step with more of the timeline after it, which the rules engine continues from
each of the step's results (solver.cp.suffix): first a batch that no later ``damage:``,
``combat:`` or one-shot action follows (:data:`LAST`), else the first batch or combat damage
step of each branch (:data:`FIRST`). Which batch is the step only changes the work, never the
outcomes: every branch the prefix or the suffix expands is the rules engine's own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.expr import expr_vars
from mtg_outcomes.model.kinds import ActionKind
from mtg_outcomes.model.outcome import Witness
from mtg_outcomes.model.types import Action, Case, CombatAction, DamageAction, OneShotAction

from ..activation import resolve
from ..combat import END_OF_DAMAGE
from ..decision import Decision, decision_key, scripted, settle
from ..engine import LOOP, advance
from ..limits import Deadline, NodeLimitReached, WitnessBudget, running_under
from ..sba import game_ended
from ..state import Batch, GameState, ItemKind, StackItem, Table, TaskKind, initial_state, replace
from .blocks import block_problem, early_declarations, is_block_start
from .refusal import Refusal

PREFIX_NODES = 5_000  # states the expansion before the CP step may visit (beyond: the CP declines)
MAX_STARTS = 512  # distinct states at the start of the CP step (one CP model each; beyond: declined)

__all__ = ["Prefix", "Start", "Walk", "expand", "explore", "script_left", "tail_end", "follows", "NO_BATCH",
           "PREFIX_NODES", "MAX_STARTS", "END", "LAST", "FIRST"]

# the stop rules of the expansion (:func:`_at_step`), tried in this order by solver.cp.plan: the
# step with nothing after it but what the model applies; else a step followed by more of the
# timeline (continued by the rules engine, solver.cp.suffix), the last batch no later damage
# action follows; else the first batch or combat damage step of each branch
END, LAST, FIRST = "end", "last", "first"

# the reason a timeline without a damage batch (mana, life only) has no CP step
NO_BATCH = Refusal("no damage batch: the timeline has no CP step (the rules engine's answer is exact)")

# what later instructions of the batch's resolution the CP model applies (608.2c): amounts fixed
# before the batch (X is the spell's or ability's), none depending on what the damage did
_TAIL_KINDS = (ActionKind.DRAW, ActionKind.GAIN_LIFE, ActionKind.LOSE_LIFE)

_EXPANDING = "expanding the choices before the last damage step"


@dataclass(frozen=True)
class Start:
    """A distinct state at a point of the timeline (the start of the CP step, or the end), with
    the first choice path reaching it (the graph engine's labels, replayable)."""

    state: GameState
    witness: tuple[Witness, ...]
    words: tuple[str, ...]


@dataclass
class Walk:
    """A depth-first expansion of decisions by the rules engine (:func:`explore`): the states
    where it stopped (``starts``), the end states (``ended``), and whether a node limit cut it."""

    starts: list[Start] = field(default_factory=list)
    ended: list[Start] = field(default_factory=list)
    complete: bool = True
    nodes: int = 0
    decisions: int = 0  # decisions expanded
    limit: str | None = None  # what cut it, when not the node limit


@dataclass
class Prefix(Walk):
    """Every distinct state at the start of the CP step (``starts``), the end states of branches
    that ended without reaching it (``ended``: the game ended, 104.2a, or no damage batch came
    later), and whether a node limit cut the expansion."""

    table: Table = field(default=None)  # type: ignore[assignment]
    last: Action | None = None  # the case's last action
    mode: str = END  # the stop rule (:data:`END`, :data:`LAST`, :data:`FIRST`)
    # why batches the expansion went through weren't the CP step (what followed them), first first
    passed: list[Refusal] = field(default_factory=list)

    def step(self, start: Start) -> int | None:
        """The combat damage step the CP models from ``start`` (0: the only one, 2: the regular
        one after a first-strike step, CR 510.4), None for a damage batch (open in ``start``)."""
        if start.state.batch is not None or is_block_start(start.state):
            return None  # (a declaration of blockers: its only combat damage step, solver.cp.blocks)
        return start.state.queue[0][1]

    def no_step(self) -> Refusal | None:
        """Why the CP engine has nothing to solve, or None: no branch reached the step, and the
        timeline has no damage batch, or (the :data:`END` rule) some branch ended with the game
        going on after a batch followed by what the CP model doesn't apply. When every branch
        ended the game before the step (104.2a, a batch or combat before it), those end states
        are the answer."""
        if self.starts or not self.complete or (self.mode == END and isinstance(self.last, CombatAction)):
            return None
        if self.mode == END and not self.passed:
            return NO_BATCH
        if self.ended and all(game_ended(end.state, self.table) for end in self.ended):
            return None
        if self.mode != END:
            return NO_BATCH
        return Refusal(f"the last damage batch is followed by {self.passed[0]}", None)


def _fresh(batch: Batch | None) -> bool:
    """A batch just opened: no event processed, no effect applied yet (616.1)."""
    return batch is not None and batch.asking is None and not batch.prevented and \
        all(not ev.done and not ev.applied for ev in batch.events)


def tail_end(state: GameState, table: Table) -> GameState | Refusal:
    """``state`` (a damage batch just opened) without the batch, and with what follows the batch
    done, when the CP model can apply it on top of the batch's results; else what follows, in
    words. Modelled: nothing, or later instructions of the same resolution (608.2c: before
    state-based actions and triggers) that draw or gain or lose a fixed amount of life and run
    without a choice: their results don't depend on the batch's choices, so they are done here
    in the rules engine. Anything else (a later action, ability or trigger, another batch, a
    choice, an amount read from the game) is not."""
    if state.stack:
        return Refusal(f"{_item_words(state.stack[-1])} waiting on the stack", None)
    if state.pending or state.placing:
        return Refusal("triggers waiting to be put on the stack (603.3)", "603.3")
    s = replace(state, batch=None)
    while s.queue:
        task = s.queue[0]
        if task[0] != TaskKind.PART:
            return Refusal(_task_words(task))
        item = task[1]
        problem = _part_problem(s, table, item)
        if problem is not None:
            return problem
        res = resolve(replace(s, queue=s.queue[1:]), table, item)
        if isinstance(res, Decision) or res.batch is not None or res.dead or res.stack or res.pending:
            return Refusal(f"a later instruction of {item.label} ({item.source}) with a choice, damage or a trigger", "608.2c")
        s = res
    return s


def _part_problem(state: GameState, table: Table, item: StackItem) -> Refusal | None:
    """Why a later instruction of the resolution (608.2c) is not one :func:`tail_end` applies."""
    ab = table.item_ability(state, item)
    what = f"a later instruction of {item.label} ({item.source})"
    if ab.effect is not None or ab.targets is not None or ab.action is None or ab.trigger_if is not None:
        return Refusal(f"{what} that is not a fixed draw or life gain or loss", "603.2")
    shot = ab.action if item.part == 0 else ab.more[item.part - 1]
    if shot.kind not in _TAIL_KINDS or shot.may or shot.then is not None or set(expr_vars(shot.amount)) - {"X"}:
        return Refusal(f"{what} that is not a fixed draw or life gain or loss", "603.2")
    return None


def _item_words(item: StackItem) -> str:
    return f"{item.label}'s {'spell' if item.kind == ItemKind.SPELL else item.kind + ' ability'} ({item.source})"


def _task_words(task: tuple[Any, ...]) -> str:
    """A queued task in words, for the reason a batch isn't the CP step."""
    kind = task[0]
    if kind == TaskKind.ACT:
        return f"a later {task[1].kind}: action"
    if kind in (TaskKind.RESOLVE, TaskKind.PART):
        return _item_words(task[1])
    if kind == TaskKind.RIDER:
        return f"{task[1]}'s rider (615.5)"
    if kind == TaskKind.STEP:
        return "a combat damage step" if task[1] != END_OF_DAMAGE else "the end of the combat damage step"
    return {TaskKind.GAIN: "a life gain being replaced (616.1)", TaskKind.SET_LIFE: "a life total becoming a number (119.5)",
            TaskKind.MANA: "mana being produced (605)"}.get(kind, f"a {kind} task")


def follows(state: GameState, table: Table) -> GameState | Refusal:
    """What follows the step that starts at ``state``: the state after it with what the CP model
    applies done (:func:`tail_end`, a batch; a combat damage step with only its end after it,
    510.4), or, in words, the first thing after it that the rules engine continues
    (solver.cp.suffix)."""
    if state.batch is not None:
        return tail_end(state, table)
    if len(state.queue) > 2:
        return Refusal(_task_words(state.queue[2]))
    return replace(state, queue=(), batch=None)


def _combat_step(s: GameState) -> bool:
    """A combat damage step about to begin, the only or the regular one (510.4: the first-strike
    step before it done), with only the step's end next."""
    return s.batch is None and len(s.queue) >= 2 and s.queue[0][0] == TaskKind.STEP and s.queue[0][1] in (0, 2) \
        and s.queue[1] == (TaskKind.STEP, END_OF_DAMAGE)


def _damage_actions_left(s: GameState) -> bool:
    """Whether a later action of the timeline is a damage batch, combat or a one-shot action."""
    return any(t[0] == TaskKind.ACT and isinstance(t[1], DamageAction | CombatAction | OneShotAction) for t in s.queue)


def _at_step(last: Action | None, table: Table, out: Prefix) -> Callable[[GameState], bool]:
    """The stop point of the expansion. :data:`END`: a ``combat:`` last action's last combat
    damage step with only the step's end after it (510.4: the first-strike step is done);
    otherwise a damage batch as it opens with nothing after it but what :func:`tail_end` applies
    (what follows a batch that isn't the step is kept in ``out.passed``). :data:`LAST`: a damage
    batch as it opens (not a combat damage step's own: the step itself, before its assignment)
    or a combat damage step (the only or the regular one), with no later damage, combat or
    one-shot action; :data:`FIRST`: the first of them."""
    if out.mode != END:
        def candidate(s: GameState) -> bool:
            if s.batch is None:
                point = _combat_step(s)
            else:  # a combat damage step's own batch is its step, stopped at before the assignment
                point = _fresh(s.batch) and not (s.damage_step and any(ev.combat for ev in s.batch.events))
            return point and (out.mode == FIRST or not _damage_actions_left(s))
        return candidate
    if isinstance(last, CombatAction):
        # the last combat damage step; or, when the model can make it, the declaration of blockers
        # before it (509.1, solver.cp.blocks: each declaration's step would be a model of its own)
        return lambda s: (_combat_step(s) and len(s.queue) == 2) or (is_block_start(s) and block_problem(s, table) is None)

    def stop(s: GameState) -> bool:
        if not _fresh(s.batch):
            return False
        end = tail_end(s, table)
        if isinstance(end, Refusal):
            if end not in out.passed:
                out.passed.append(end)
            return False
        return True
    return stop


def expand(case: Case, deadline: Deadline | None = None, max_nodes: int = PREFIX_NODES, mode: str = END) -> Prefix:
    """Expand every decision before the CP step (depth-first, options in order, equal states
    merged as in solver.graph.build_graph; ``choices:`` scripts applied), up to the CP step
    (:func:`_at_step` with the stop rule ``mode``). A ``max_nodes`` cut leaves ``complete`` False;
    :class:`~solver.limits.LimitReached` when ``deadline`` passes; a choice that leads back to a
    decision on its own path (a loop that never ends) is an :class:`EngineError`, as in the graph."""
    state0, table = initial_state(case)
    last = case.actions[-1]
    out = Prefix(table=table, last=last, mode=mode)
    explore(case, table, [Start(state0, (), ())], _at_step(last, table, out), out, deadline, max_nodes, _EXPANDING)
    return out


def explore(case: Case, table: Table, roots: list[Start], stop: Callable[[GameState], bool] | None, out: Walk, deadline: Deadline | None,
            max_nodes: int | None, phase: str) -> None:
    """Expand every decision from ``roots`` (each a raw state with the choices that reached it)
    into ``out``: depth-first, options in order, equal states and decisions merged across all
    the roots as in solver.graph.build_graph, ``choices:`` scripts applied; a state where
    ``stop`` holds (None: never) is a start, an end state an end. The first choice path reaching
    a state names it. ``max_nodes`` (None: no bound) cuts it (``complete`` False); ``deadline``
    raises :class:`~solver.limits.LimitReached` (``phase`` says where; ``out`` keeps what was
    reached); a choice that leads back to a decision on its own path is an :class:`EngineError`."""
    seen: set[Hashable] = set()  # every state and decision reached
    path: set[Hashable] = set()  # the decisions on the current path (a child among them is a loop)
    cut = False
    budget = WitnessBudget()  # on the witnesses of the states reached

    def visit(raw: GameState, root: Start, trail: _Trail) -> list[Any] | None:
        """The frame of a new decision to expand, else None (an end, a start, or seen before)."""
        nonlocal cut
        if deadline is not None:
            deadline.check(phase)
        try:
            with running_under(deadline, max_nodes):  # inside one step too (a block declaration's many options)
                res = settle(advance(raw, table, stop))
                if isinstance(res, GameState) and stop is not None and is_block_start(res) and not res.dead:
                    # with first or double strike, the blocks the first-strike step reads are declared
                    # here and the others left to the regular step's model (solver.cp.blocks, 510.4)
                    res = early_declarations(res, table) or res
        except NodeLimitReached:  # one decision of more options than max_nodes: as the node limit
            cut = True
            return None
        if isinstance(res, Decision) and case.choices:
            res = scripted(res, case)
        key = res if isinstance(res, GameState) else decision_key(res)
        if key in path:
            raise EngineError(LOOP)
        if key in seen:
            return None
        if max_nodes is not None and out.nodes >= max_nodes:
            cut = True
            return None
        seen.add(key)
        out.nodes += 1
        if isinstance(res, GameState):
            if not res.dead:
                wit, words = _unwind(root, trail)
                if not budget.spend(len(wit)):
                    cut = True
                    out.limit = budget.cut
                    return None
                (out.starts if stop is not None and stop(res) else out.ended).append(Start(res, wit, words))
            return None
        out.decisions += 1
        path.add(key)
        return [key, res, trail, 0]

    for root in roots:
        frames = [f for f in [visit(root.state, root, None)] if f is not None]
        while frames and not cut:
            frame = frames[-1]
            key, res, trail, i = frame
            if i == len(res.options):
                frames.pop()
                path.discard(key)
                continue
            frame[3] = i + 1
            opt = res.options[i]
            child = visit(opt.state, root, (trail, Witness(res.chooser, res.kind, res.at, opt.picked), opt.words))
            if child is not None:
                frames.append(child)
        if cut:
            break
    out.complete = not cut


# the choices of a path as a persistent list, newest first: (the rest, the choice, its words);
# shared by every state below it, never copied per state (a tuple per state grows with depth)
_Trail = tuple["_Trail", Witness, str] | None


def _unwind(root: Start, trail: _Trail) -> tuple[tuple[Witness, ...], tuple[str, ...]]:
    """The witness and words of the path ``trail`` below ``root``: the root's, then the trail's."""
    wit: list[Witness] = []
    words: list[str] = []
    while trail is not None:
        trail, w, said = trail
        wit.append(w)
        words.append(said)
    return root.witness + tuple(reversed(wit)), root.words + tuple(reversed(words))


def script_left(case: Case, state: GameState) -> bool:
    """Whether a ``choices:`` script still has picks for decisions after ``state``."""
    pos = state.script or (0,) * len(case.choices)
    return any(p < len(queue) for p, (_, queue) in zip(pos, case.choices, strict=True))


