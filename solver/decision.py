"""Decisions: who chooses what, with one option per legal choice, and the steps nobody chose.

A :class:`Decision` stops the timeline where a player has a real choice (CR 616.1 orders, 615.7
shield splits, 510.1 damage assignment, 603.3b trigger order, 601.2c targets, ...). Where the rules
leave exactly one legal option, or an action can't happen at all, nothing is chosen, but a user
asking *why* an outcome happens needs to see it: :func:`note` records such a **forced step** on
the state's log, which the choice graph turns into the outcome's explanation (``--explain``).
The log is not part of the game state (it is excluded from equality and hashing), so it never
stops the graph from merging identical states.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from mtg_outcomes.model.errors import CaseError
from mtg_outcomes.model.kinds import DecisionKind
from mtg_outcomes.model.types import Case

from .log import CHOICE, EMPTY_LOG, EVENT, FORCED, NOT_DONE, Log, Step
from .state import GameState, replace

__all__ = ["Step", "Option", "Decision", "find_option", "settle", "decide", "note", "says", "scripted", "decision_key", "CHOICE", "FORCED",
           "NOT_DONE", "EVENT", "KIND_RULES", "event", "recording", "explaining"]

# Each kind of decision and the rule that gives its chooser the choice: a decision carries its
# rule (Decision.rule, this kind's unless the code that makes it names a more precise one), and
# explanations, the ruling paragraph and the report read it from there.
KIND_RULES: dict[str, str] = {  # (keyed by DecisionKind)
    DecisionKind.ORDER: "616.1",  # the affected player orders replacement and prevention effects
    DecisionKind.SPLIT: "615.7",  # how much of each simultaneous event a shield prevents
    DecisionKind.MAY: "608.2d",  # "you may" as a spell or ability resolves (an optional prevention: 616.1, said where made)
    DecisionKind.ASSIGN: "510.1c",  # a blocked creature's combat damage divided among its blockers (and player, 702.19b)
    DecisionKind.BLOCK: "509.1a",  # the defending player declares blockers
    DecisionKind.TARGET: "601.2c",  # targets chosen as a spell or ability is put on the stack (603.3d, 602.2b)
    DecisionKind.STACK_ORDER: "603.3b",  # a player's triggers put on the stack in the order they choose
    DecisionKind.SOURCE: "609.7a",  # "a source of your choice" is chosen as the effect is created
    DecisionKind.MODE: "700.2a",  # a modal spell's or ability's mode, chosen as it is cast or put on the stack
    DecisionKind.KICK: "702.33",  # whether to pay a kicker cost, as the spell is cast (601.2b)
    DecisionKind.X: "107.3a",  # the value of X, chosen by the player casting or activating (601.2b, 602.2b)
    DecisionKind.CHOOSE: "608.2d",  # a choice a resolving spell or ability gives its controller
    DecisionKind.WARD: "702.21a",  # pay the ward cost or have the spell or ability countered
    DecisionKind.TAP: "601.2h",  # which permanents pay a mana cost (their mana abilities activated, 601.2g)
    DecisionKind.SACRIFICE: "601.2h",  # what is sacrificed to pay an activated ability's cost (602.2b)
}

@dataclass(frozen=True)
class Option:
    picked: str
    words: str
    state: GameState


@dataclass(frozen=True)
class Decision:
    chooser: str
    kind: DecisionKind  # (its rule: KIND_RULES)
    at: str
    options: Sequence[Option]  # (a declaration of blockers builds them as read: solver.declare)
    log: Log = EMPTY_LOG  # the forced steps of the path up to this decision
    rule: str = ""  # the rule granting the choice where more precise than its kind's (KIND_RULES)

    @property
    def cr(self) -> str:
        """The CR rule under which the chooser makes this decision."""
        return self.rule or KIND_RULES.get(self.kind, "")


def settle(res: Any) -> Any:
    """``res`` with a decision's options all built (solver.declare builds a declaration's as they
    are read): an expansion that reads them all does it here, under its limits."""
    if isinstance(res, Decision) and not isinstance(res.options, tuple):
        return dataclasses.replace(res, options=tuple(res.options))
    return res


def find_option(d: Decision, picked: str) -> Option | None:
    """The option of ``d`` labelled ``picked`` (a witness's step), None if it has none; built alone
    where the options are built as read (solver.declare.Declarations)."""
    find = getattr(d.options, "find", None)
    if find is not None:
        return find(picked)
    return next((o for o in d.options if o.picked == picked), None)


def says(chooser: str, verb: str) -> str:
    """"A applies" but "you apply": witnesses read as sentences."""
    if chooser != "you":
        return f"{chooser} {verb}"
    base = verb[:-3] + "y" if verb.endswith("ies") else verb[:-1] if verb.endswith("s") else verb
    return f"you {base}"


def note(state: GameState, words: str, kind: str = FORCED, rule: str = "") -> GameState:
    """Record a forced step (``FORCED``: an only option; ``NOT_DONE``: an action that can't
    happen; ``EVENT``: what happened) on the state's log, with the rule behind it."""
    return replace(state, log=state.log.add(Step(kind, words, rule)))


_EXPLAINING: ContextVar[bool] = ContextVar("explaining", default=False)


def recording() -> bool:
    """Whether events are being recorded: only while a witness is replayed to be explained
    (solver.explain), never while solving (they would cost every state of the graph memory)."""
    return _EXPLAINING.get()


@contextmanager
def explaining() -> Iterator[None]:
    """Record events (:func:`event`) on the log while the block runs."""
    token = _EXPLAINING.set(True)
    try:
        yield
    finally:
        _EXPLAINING.reset(token)


def event(state: GameState, words: str, rule: str) -> GameState:
    """Record what happened (damage dealt, a state-based action, a trigger resolving) and its rule,
    when explaining (:func:`recording`)."""
    if not _EXPLAINING.get():
        return state
    return replace(state, log=state.log.add(Step(EVENT, words, rule)))


def decide(chooser: str, kind: DecisionKind, at: str, options: list[Option] | tuple[Option, ...],
           rule: str = "") -> GameState | Decision:
    """A decision, or, when the rules leave one legal option, that option taken as a forced step
    (not a choice: it names the rule that would have granted one)."""
    if len(options) == 1:
        only = options[0]
        return replace(only.state, log=only.state.log.add(
            Step(FORCED, f"{only.words}: the only legal option", rule or KIND_RULES.get(kind, ""), chooser)))
    return Decision(chooser, kind, at, tuple(options), rule=rule)


def scripted(d: Decision, case: Case) -> Decision:
    """Replay ``choices:`` (docs/design.md): while the chooser's queue lasts, keep only its next pick."""
    names = [name for name, _ in case.choices]
    if d.chooser not in names:
        return d
    i = names.index(d.chooser)
    queue = case.choices[i][1]
    script = d.options[0].state.script or (0,) * len(names)
    pos = script[i]
    if pos >= len(queue):
        return d
    want = str(queue[pos])
    kept = [o for o in d.options if o.picked == want]
    if not kept:
        offered = ", ".join(o.picked for o in d.options)
        raise CaseError(f"choices.{d.chooser}[{pos}]", f"{want!r} is not an option of {'your' if d.chooser == 'you' else d.chooser + chr(39) + 's'} {d.kind} at {d.at} (options: {offered})", case.path)
    step = script[:i] + (pos + 1,) + script[i + 1:]
    return replace(d, options=tuple(replace(o, state=replace(o.state, script=step)) for o in kept))


def decision_key(d: Decision) -> Any:
    """What identifies a decision in the choice graph: equal keys are merged into one node."""
    return ("decision", d.chooser, d.kind, d.at, tuple((o.picked, o.state) for o in d.options))
