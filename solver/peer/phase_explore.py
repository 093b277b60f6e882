"""Every branch of the prompts phase.rs offers, by snapshotting its state and loading it again.

At each prompt the case's script doesn't answer (replacement order, a trigger's target, a damage
division), every option phase lists is tried, and for a combat damage division every division of
the attacker's damage among its blockers too (phase lists one default assignment where it accepts
any legal one: the engine rejects the illegal). Each branch is ``Engine.load_game`` of the
snapshot, so branches never share state. The exploration is bounded by a node count and a time
limit; a cut is reported.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .phase_board import Board, battlefield, declare_blockers, start_step, state_of
from .phase_plan import Combat, EndStep
from .protocol import CannotSetUp

__all__ = ["Explored", "explore", "read_fields"]

_AFTER_DAMAGE = {"EndCombat", "PostCombatMain", "End", "Cleanup"}


@dataclass
class Explored:
    leaves: list[tuple[dict[str, Any], tuple[str, ...]]] = field(default_factory=list)
    prompts: dict[str, dict[str, Any]] = field(default_factory=dict)
    nodes: int = 0
    cut: str = ""


def _finished(game: Any, step: Any) -> bool:
    """A step is over when nothing is on the stack and a player has priority — for a combat,
    once its damage step is over (CR 510.4, 511)."""
    wf = game.waiting_for()
    if wf.get("type") == "GameOver":
        return True
    if wf.get("type") != "Priority" or state_of(game)["stack"]:
        return False
    if isinstance(step, EndStep):
        return game.phase == "End"
    return not isinstance(step, Combat) or game.phase in _AFTER_DAMAGE


def _divisions(total: int, slots: int) -> Iterator[tuple[int, ...]]:
    if slots == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _divisions(total - first, slots - 1):
            yield (first, *rest)


def _options(game: Any, wf: Mapping[str, Any]) -> list[Any]:
    """Every option to try at this prompt: phase's list, and for a damage division (CR 510.1c)
    every division among the blockers (and the player, with trample, CR 702.19b)."""
    acts: list[Any] = [a for a in game.actions() if a.kind not in ("CancelCast", "Concede")]
    if wf.get("type") == "AssignCombatDamage":
        d = wf["data"]
        blockers = [b["blocker_id"] for b in d.get("blockers") or ()]
        slots = len(blockers) + (1 if d.get("trample") else 0)
        mode = next((a.data.get("mode", "Normal") for a in acts if a.kind == "AssignCombatDamage"), "Normal")
        listed = {json.dumps(a.to_dict(), sort_keys=True) for a in acts}
        for div in _divisions(int(d["total_damage"]), max(slots, 1)):
            act = {"type": "AssignCombatDamage", "data": {
                "mode": mode, "assignments": [[b, n] for b, n in zip(blockers, div, strict=False)],
                "trample_damage": div[-1] if d.get("trample") else 0, "controller_damage": 0}}
            if json.dumps(act, sort_keys=True) not in listed:
                acts.append(act)
    return acts


def _words(seat: int, players: list[str], wf: Mapping[str, Any], act: Any) -> str:
    body = act.to_dict() if hasattr(act, "to_dict") else act
    return f"{players[seat]} {wf.get('type')}: {json.dumps(body.get('data'), sort_keys=True)}"


def explore(game: Any, board: Board, baseline: Mapping[str, Any], *, max_nodes: int,
            timeout: float | None) -> Explored:
    """Depth-first over the script's steps and phase's prompts; leaves are read with
    :func:`read_fields`."""
    out = Explored()
    steps = board.plan.steps
    end = None if timeout is None else time.monotonic() + timeout
    todo: list[tuple[dict[str, Any], int, bool, tuple[str, ...]]] = [(game.state(), 0, False, ())]
    engine = board.engine
    players = board.plan.players
    while todo:
        if out.nodes >= max_nodes:
            out.cut = f"node limit ({max_nodes}) reached with {len(todo)} branches unexplored"
            break
        if end is not None and time.monotonic() > end:
            out.cut = f"time limit reached with {len(todo)} branches unexplored"
            break
        snap, idx, started, path = todo.pop()
        out.nodes += 1
        g = engine.load_game(snap)
        while True:
            if idx == len(steps) or g.waiting_for().get("type") == "GameOver":
                out.leaves.append((read_fields(g, board, baseline), path))
                break
            if not started:
                start_step(g, board, steps[idx])
                started = True
                continue
            if _finished(g, steps[idx]):
                idx, started = idx + 1, False
                continue
            wf = g.waiting_for()
            kind = wf.get("type")
            if kind == "Priority":
                g.apply(wf["data"]["player"], {"type": "PassPriority"})
                continue
            seat = int(wf["data"]["player"])
            if kind == "DeclareBlockers":
                _note(out, kind, 1, "case")
                declare_blockers(g, board, seat)
                continue
            todo += _branches(g, engine, wf, seat, idx, path, players, out)
            break
    return out


def _branches(g: Any, engine: Any, wf: Mapping[str, Any], seat: int, idx: int, path: tuple[str, ...],
              players: list[str], out: Explored) -> list[tuple[dict[str, Any], int, bool, tuple[str, ...]]]:
    """A prompt's options, each applied to a copy of the game: the branches to explore (last
    option first, so the first is explored first)."""
    kind = str(wf.get("type"))
    options = _options(g, wf)
    _note(out, kind, len(options), "explored")
    here = g.state()
    branches = []
    for act in reversed(options):
        child = engine.load_game(here)
        try:
            child.apply(seat, act)
        except Exception:  # the engine rejects an illegal option: not a branch
            continue
        branches.append((child.state(), idx, True, (*path, _words(seat, players, wf, act))))
    if not branches:
        raise CannotSetUp([f"phase accepted none of the {len(options)} options at its {kind} prompt"])
    return branches


def _note(out: Explored, kind: str, n: int, by: str) -> None:
    entry = out.prompts.setdefault(kind, {"times": 0, "options": 0, "by": by})
    entry["times"] += 1
    entry["options"] = max(entry["options"], n)


def baseline_of(game: Any) -> dict[str, Any]:
    st = state_of(game)
    return {"drawn": [int(p["cards_drawn_this_turn"]) for p in st["players"]]}


def read_fields(game: Any, board: Board, baseline: Mapping[str, Any]) -> dict[str, Any]:
    """An end state on the case's field paths: each player's ``life``, ``poison``,
    ``cards_drawn`` (since the case's actions began) and ``lost``; each permanent's ``damage``
    (marked, while on the battlefield: phase keeps no last-known damage of a permanent that left,
    so there it is not read) and ``dies`` (it went from the battlefield to a graveyard, CR 700.4;
    not read for an object that left with its owner at the end of the game, CR 104.3a)."""
    st = state_of(game)
    out: dict[str, Any] = {}
    team_of = {seat: seats for seats in board.plan.teams.values() for seat in seats}
    for seat, name in enumerate(board.plan.players):
        p = st["players"][seat]
        # Two-Headed Giant: a player's life is the team's (810.9a), in phase the sum of its seats'
        out[f"{name}.life"] = sum(int(st["players"][s]["life"]) for s in team_of.get(seat, [seat]))
        out[f"{name}.poison"] = int(p.get("poison_counters", 0))
        out[f"{name}.cards_drawn"] = int(p["cards_drawn_this_turn"]) - int(baseline["drawn"][seat])
        out[f"{name}.lost"] = bool(p.get("is_eliminated")) or (p.get("status") or {}).get("type") not in (None, "Active")
    for team, seats in board.plan.teams.items():  # one shared life total and poison (CR 810.9, 810.10)
        out[f"team{team}.life"] = sum(int(st["players"][s]["life"]) for s in seats)
        out[f"team{team}.poison"] = int(st["players"][seats[0]].get("poison_counters", 0))
    field_ = battlefield(st)
    died = {int(z["object_id"]) for z in st.get("zone_changes_this_turn") or ()
            if z.get("from_zone") == "Battlefield" and z.get("to_zone") == "Graveyard"}
    for perm in board.plan.perms:
        obj = field_.get(board.ids[perm.id])
        if board.ids[perm.id] in died or obj is not None:  # a loser's objects just leave with the game
            out[f"{perm.id}.dies"] = board.ids[perm.id] in died
        if obj is not None:
            out[f"{perm.id}.damage"] = int(obj.get("damage_marked") or 0)
    return out


def readable(board: Board) -> frozenset[str]:
    """The field paths :func:`read_fields` reads."""
    names = [f"{n}.{f}" for n in board.plan.players for f in ("life", "poison", "cards_drawn", "lost")]
    names += [f"{p.id}.{f}" for p in board.plan.perms for f in ("damage", "dies")]
    names += [f"team{t}.{f}" for t in board.plan.teams for f in ("life", "poison")]
    return frozenset(names)
