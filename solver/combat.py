"""Combat damage (CR 510): assignment as choices, first and double strike steps, trample.

The active player assigns each attacker's damage, then the defending player each blocker's
(510.1). A division among several blockers is a choice of the creature's controller; there is no
damage assignment order (510.1c-d since 2024-11-08). Trample may assign to the player only once
every blocker has been assigned lethal damage, counting damage already marked, deathtouch, and
damage assigned by other creatures in the same step (702.19b); the whole assignment is checked
at the end, as 510.1e does.
"""

from __future__ import annotations

from typing import Any

from .decision import Option, decide, says
from .rules import start_batch
from .sba import power, toughness
from .select import has_keyword, is_player
from .state import Event, GameState, PermState, Table, replace

__all__ = ["begin_combat", "run_task", "compositions", "assign_options", "lethal_damage", "damage_recipients",
           "step_name", "END_OF_DAMAGE"]

# ``GameState.damage_step`` while a combat damage step is under way (its assignments, the damage,
# and the triggers it causes, CR 510.2-510.3), 0 outside one: the task's step number plus one.
END_OF_DAMAGE = -1  # the queued task that closes the last combat damage step
_STEP_NAMES = {1: "combat damage step", 2: "first-strike damage step", 3: "regular damage step"}


def step_name(state: GameState) -> str | None:
    """The combat damage step ``state`` is in: with first or double strike the first-strike step
    and the regular one (CR 510.4), otherwise the only combat damage step; ``None`` outside one."""
    return _STEP_NAMES.get(state.damage_step)


def compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to divide ``total`` among ``parts`` ordered recipients (weak compositions)."""
    if parts == 0:
        return [()] if total == 0 else []
    if parts == 1:
        return [(total,)]
    out = []
    for first in range(total, -1, -1):
        for rest in compositions(total - first, parts - 1):
            out.append((first, *rest))
    return out


def _fs(state: GameState, table: Table, pid: str) -> bool:
    return has_keyword(state, table, pid, "first strike") or has_keyword(state, table, pid, "double strike")


def _combatants(state: GameState) -> list[PermState]:
    return [p for p in state.perms if p.present and (p.attacking is not None or p.blocking)]


def begin_combat(state: GameState, table: Table) -> GameState:
    """510.4: a first-strike step when any combatant has first or double strike."""
    two_steps = any(_fs(state, table, p.id) for p in _combatants(state))
    steps = (("step", 1), ("step", 2)) if two_steps else (("step", 0),)
    return replace(state, queue=steps + (("step", END_OF_DAMAGE),) + state.queue)


def _assigns_in_step(state: GameState, table: Table, perm: PermState, step: int) -> bool:
    if step == 0:
        return True
    if step == 1:
        return _fs(state, table, perm.id)
    # 510.4: those that had neither first nor double strike, and those with double strike
    return not perm.first_strike_dealt or has_keyword(state, table, perm.id, "double strike")


def start_step(state: GameState, table: Table, step: int) -> GameState:
    if step == END_OF_DAMAGE:  # its triggers have resolved (510.3): the step is over
        return replace(state, damage_step=0)
    state = replace(state, damage_step=step + 1)
    order = table.apnap(table.order)
    todo = []
    for p in _combatants(state):
        if not _assigns_in_step(state, table, p, step) or power(table, p) <= 0:
            continue  # 510.1a
        todo.append(p.id)
    attackers = [pid for pid in todo if state.perm(pid).attacking is not None]  # type: ignore[union-attr]
    blockers = [pid for pid in todo if state.perm(pid).blocking]  # type: ignore[union-attr]
    # active player's attackers first, then blockers by controller in APNAP order (510.1)
    blockers.sort(key=lambda pid: order.index(state.perm(pid).controller))  # type: ignore[union-attr]
    if step == 1:
        for pid in todo:
            perm = state.perm(pid)
            assert perm is not None
            state = state.set_perm(replace(perm, first_strike_dealt=True))
    return replace(state, queue=(("combat", "assign", step, tuple(attackers + blockers), ()),) + state.queue)


def lethal_damage(state: GameState, table: Table, blocker: str, source: str, assigned_by_others: int) -> int:
    perm = state.perm(blocker)
    assert perm is not None
    if has_keyword(state, table, source, "deathtouch"):
        return 0 if assigned_by_others > 0 or perm.deathtouched and perm.damage > 0 else 1
    return max(0, toughness(table, perm) - perm.damage - assigned_by_others)


def damage_recipients(state: GameState, table: Table, perm: PermState) -> tuple[list[str], str | None]:
    """(creatures it divides among, the attacked player/planeswalker/battle for trample or unblocked)."""
    if perm.attacking is not None:
        defender = perm.attacking
        ok = state.player(defender).left is False if is_player(table, defender) else \
            (state.perm(defender) is not None and state.perm(defender).present)  # type: ignore[union-attr]
        defended = defender if ok else None
        blockers = [b.id for b in state.perms if b.present and perm.id in b.blocking]
        return blockers, defended
    blocked = [a for a in perm.blocking if (state.perm(a) is not None and state.perm(a).present)]  # type: ignore[union-attr]
    return blocked, None


def assign_options(state: GameState, table: Table, pid: str) -> list[tuple[tuple[str, int], ...]]:
    perm = state.perm(pid)
    assert perm is not None
    amount = power(table, perm)
    creatures, defended = damage_recipients(state, table, perm)
    trample = perm.attacking is not None and has_keyword(state, table, pid, "trample")
    if perm.attacking is not None and not perm.blocked:
        return [((defended, amount),)] if defended else [()]  # 510.1b
    if not creatures:
        if trample and defended:
            return [((defended, amount),)]  # 702.19d
        return [()]  # 510.1c
    recipients = creatures + ([defended] if trample and defended else [])
    if len(recipients) == 1:
        return [((recipients[0], amount),)]
    return [tuple((r, n) for r, n in zip(recipients, split, strict=True) if n > 0)
            for split in compositions(amount, len(recipients))]


def _valid_trample(state: GameState, table: Table, assigned: tuple[tuple[str, str, int], ...]) -> bool:
    """702.19b over the whole assignment (510.1e): a trampler's damage to the player requires lethal
    damage assigned to each of its blockers, counting every creature's assignment."""
    total: dict[str, int] = {}
    for _src, rcp, n in assigned:
        total[rcp] = total.get(rcp, 0) + n
    for src, rcp, n in assigned:
        perm = state.perm(src)
        if perm is None or perm.attacking is None or rcp != perm.attacking or not perm.blocked or n <= 0:
            continue
        blockers = [b.id for b in state.perms if b.present and src in b.blocking]
        for b in blockers:
            mine = sum(m for s, r, m in assigned if s == src and r == b)
            others = total.get(b, 0) - mine
            if mine < lethal_damage(state, table, b, src, others):
                return False
    return True


def run_task(state: GameState, table: Table, task: tuple[Any, ...]) -> Any:
    _, what, step, todo, assigned = task
    if what != "assign":
        raise TypeError(task)
    if not todo:
        if not _valid_trample(state, table, assigned):
            return replace(state, dead=True)
        events = [Event(src, rcp, n, True) for src, rcp, n in assigned]
        return start_batch(state, table, events) if events else state
    pid, rest = todo[0], todo[1:]
    perm = state.perm(pid)
    assert perm is not None
    options = []
    for opt in assign_options(state, table, pid):
        new_assigned = assigned + tuple((pid, r, n) for r, n in opt)
        nxt = replace(state, queue=(("combat", "assign", step, rest, new_assigned),) + state.queue)
        label = ",".join(f"{r}:{n}" for r, n in opt) or "none"
        options.append(Option(label, f"{says(perm.controller, 'assigns')} {pid}'s damage: {label}", nxt))
    return decide(perm.controller, "assign", pid, options)
