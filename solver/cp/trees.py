"""Events a redirection applies to (CR 614.9, 616.1): their choices walked with the graph
engine's own rules (solver.rules.effects, solver.damage), one event at a time, into a table of their
distinct results.

A redirection changes the event's recipient, so its affected player (who orders what is left,
616.1), the effects that apply afterwards (616.1f: the new recipient's shields, not the old
one's) and what the damage does (120.3). A partial redirection ("the next 2 damage ... is dealt
to A instead", 615.7 applied to a redirection) splits the event: the redirected part is a new
event with the same source, combat status and applied effects (614.5), dealt to the new
recipient (solver.rules.effects.apply_effect). Rather than encode those rules again, the model
explores them: from the batch's state, every order of the applicable effects and every share
of each shield, on the event and on the events it splits into, each step
:func:`solver.rules.effects.apply_effect`, each option :func:`solver.damage.shield_takes` (as when
other events are open: a share the shield must still use elsewhere is settled across events by
the model, 615.7). A result is the damage each final event deals to its recipient, each
shield's share and whether it fell short somewhere (the graph engine's ``skipped``), and what
each tracked prevention prevented; the model picks one row per event.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..damage import next_event, shield_takes
from ..limits import Deadline
from ..next_time import fell_short
from ..rules.effects import Instance, affected_player, applicable_effects, apply_effect
from ..state import GameState, Table, replace

_TREES = "exploring the redirected events"


Slot = tuple[str, ...]  # an event of the tree: () the batch's own, then the keys of the redirections that split it off
Step = tuple[Slot, str, int | None]  # (slot, effect key, share) in the order applied


TREE_LIMIT = 5_000  # distinct results of one redirected event above which the CP model declines it


@dataclass(frozen=True)
class Tree:
    """The distinct results of one event and the events it splits into (CR 614.9, 615.7)."""

    columns: tuple[tuple[Slot, str], ...]  # (slot, final recipient): a column of damage dealt each
    shields: tuple[str, ...]  # depleting effects applied somewhere: a share and a took-all flag each
    tracked: tuple[str, ...]  # preventions whose amount prevented the model keeps (riders, 615.8)
    # the amount the event starts with, damage per column, shares, took-all flags, prevented -> steps
    rows: dict[tuple[int, ...], tuple[Step, ...]]
    choosers: frozenset[str]  # the affected players of the events of the tree (616.1)
    applied: tuple[Instance, ...]  # every effect applicable somewhere, in the order first met


def event_tree(state: GameState, table: Table, index: int, amounts: list[int], shields: set[str],
               tracked: set[str], settle: set[str], limit: int = TREE_LIMIT,
               deadline: Deadline | None = None) -> Tree | None:
    """The results of event ``index`` of the open batch in ``state`` over every order of its
    effects and every share (CR 616.1, 615.7), the events it splits into included, for each
    amount in ``amounts`` (a combat damage division's choices, 510.1c; 0 is no event, 120.8): a
    row starts with the amount. None above ``limit`` distinct results (or ten times as many
    steps). ``shields`` are the depleting effects (shields, partial redirections) whose shares
    the model sums across events; ``tracked`` the preventions whose amount it keeps; ``settle``
    the one-instance shields that can apply to no other event (615.8): one that prevented
    nothing where it could have is left unused, an illegal branch dropped here (the graph's
    ``dead``, solver.damage). Raises :class:`LimitReached` when ``deadline`` passes."""
    batch = state.batch
    assert batch is not None
    walk = _Walk(state, table, shields, tracked, settle, limit, deadline)
    found: dict[tuple[int, Result], tuple[Step, ...]] = {}
    ev = batch.events[index]
    for amount in sorted(set(amounts)):
        if amount <= 0:
            found[(0, ((), (), (), ()))] = ()  # no event (120.8)
            continue
        events = list(batch.events)
        events[index] = replace(ev, amount=amount)
        try:
            got = walk.results(replace(state, batch=replace(batch, events=tuple(events))), ((index, ()),))
        except _TooBig:
            return None
        found.update(((amount, result), seq) for result, seq in got.items())
        if len(found) > limit:
            return None
    return _tree(found, shields, tracked, walk)


# one leaf of a tree: (slot, recipient, damage) dealt, (shield, share) taken, the shields that took
# less than offered somewhere, (prevention, amount) prevented: each sorted
Result = tuple[tuple[tuple[Slot, str, int], ...], tuple[tuple[str, int], ...], tuple[str, ...], tuple[tuple[str, int], ...]]


class _Walk:
    """The rules engine's own walk of one event's tree (solver.rules.effects.apply_effect, each
    option of solver.damage.shield_takes): its distinct results, each with one sequence of steps
    giving it, memoised on (state, slots); the affected players met and the effects applied."""

    def __init__(self, state: GameState, table: Table, shields: set[str], tracked: set[str], settle: set[str],
                 limit: int, deadline: Deadline | None) -> None:
        self.table, self.shields, self.tracked, self.settle = table, shields, tracked, settle
        self.limit, self.deadline = limit, deadline
        self.start = {e.id: e.remaining or 0 for e in state.effects}
        self.memo: dict[tuple[GameState, tuple[tuple[int, Slot], ...]], dict[Result, tuple[Step, ...]]] = {}
        self.work = 0
        self.choosers: set[str] = set()
        self.applied: dict[str, Instance] = {}

    def leaf(self, st: GameState, slots: tuple[tuple[int, Slot], ...]) -> Result | None:
        """The result of a finished walk, or None when a one-instance shield fell short (615.7,
        615.8: it prevents as much as it can)."""
        b = st.batch
        assert b is not None
        if fell_short(st, self.settle):
            return None
        start, shields = self.start, self.shields
        remaining = {e.id: e.remaining or 0 for e in st.effects}
        dealt = tuple(sorted((sid, b.events[j].recipient, b.events[j].amount) for j, sid in slots if b.events[j].amount > 0))
        shares = tuple(sorted((k, start[k] - remaining[k]) for k in start if k in shields and start[k] != remaining[k]))
        short = tuple(sorted(k for k in b.skipped if k in shields))
        prevented = tuple(sorted((k, n) for k, n in b.prevented if k in self.tracked and n))
        return dealt, shares, short, prevented

    def results(self, st: GameState, slots: tuple[tuple[int, Slot], ...]) -> dict[Result, tuple[Step, ...]]:
        """Every distinct result from ``st``, the tree's events being ``slots``."""
        key = (st, slots)
        got = self.memo.get(key)
        if got is not None:
            return got
        b = st.batch
        assert b is not None
        # the events of the tree in the order the graph engine takes them (616.1, 101.4)
        at = next_event(st, self.table, [j for j, _ in slots])
        out: dict[Result, tuple[Step, ...]] = {}
        if at is None:
            done = self.leaf(st, slots)
            if done is not None:
                out[done] = ()
        elif not (apps := applicable_effects(st, self.table, b.events[at])):  # 616.1: nothing (more) applies; 120.8 once it is 0
            events = list(b.events)
            events[at] = replace(b.events[at], done=True)
            out = self.results(replace(st, batch=replace(b, events=tuple(events))), slots)
        else:
            self._choices(st, slots, at, apps, out)
        self.memo[key] = out
        return out

    def _choices(self, st: GameState, slots: tuple[tuple[int, Slot], ...], j: int, apps: list[Instance],
                 out: dict[Result, tuple[Step, ...]]) -> None:
        """Into ``out``, the results of each effect of ``apps`` (those that apply to event ``j``) applied first, with
        each share it may take (616.1, 615.7); a partial redirection splits the event, the new one
        this slot's child (614.9)."""
        b = st.batch
        assert b is not None
        sid, ev = dict(slots)[j], b.events[j]
        self.choosers.add(affected_player(st, ev.recipient))
        for inst in apps:
            self.applied.setdefault(inst.key, inst)
            for take in shield_takes(st, inst, ev, True):
                nxt = apply_effect(st, self.table, j, inst, take)
                nb = nxt.batch
                assert nb is not None
                more = tuple((k, (*sid, inst.key)) for k in range(len(b.events), len(nb.events)))
                for result, seq in self.results(nxt, slots + more).items():
                    self.work += 1
                    if self.deadline is not None and not self.work & 1023:
                        self.deadline.check(_TREES)
                    if result not in out:
                        out[result] = ((sid, inst.key, take), *seq)
                if len(out) > self.limit or self.work > 10 * self.limit:
                    raise _TooBig


def _tree(found: dict[tuple[int, Result], tuple[Step, ...]], shields: set[str], tracked: set[str], walk: _Walk) -> Tree:
    """The tree's table: a column of damage per (slot, final recipient), a share and a took-all
    flag per depleting effect applied somewhere, an amount per tracked prevention (615.7, 615.5)."""
    columns = sorted({(sid, r) for _, (dealt, *_) in found for sid, r, _n in dealt})
    keys = sorted({k for _, (_, shares, short, _) in found for k in (*(k for k, _ in shares), *short)}
                  | {k for k in walk.applied if k in shields})
    kept = sorted({k for _, (*_, prevented) in found for k, _ in prevented} | {k for k in walk.applied if k in tracked})
    rows: dict[tuple[int, ...], tuple[Step, ...]] = {}
    for (amount, (dealt, shares, short, prevented)), seq in found.items():
        hits = {(sid, r): n for sid, r, n in dealt}
        share = dict(shares)
        took = dict(prevented)
        row = (amount, *(hits.get(c, 0) for c in columns), *(share.get(k, 0) for k in keys),
               *(int(k not in short) for k in keys), *(took.get(k, 0) for k in kept))
        rows.setdefault(row, seq)
    return Tree(tuple(columns), tuple(keys), tuple(kept), rows, frozenset(walk.choosers), tuple(walk.applied.values()))


class _TooBig(Exception):
    pass
