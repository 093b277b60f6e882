"""Combat (CR 509, 510): block declarations and damage assignment as choices, first and double
strike steps, trample.

Blocks are written in the case (``blocking:``) or chosen: with ``combat: {blocks: choose}`` each
defending player declares every block of theirs, with ``blocking: choose`` only that creature's
block is chosen. A declaration is one decision of the defending player (in APNAP order, 101.4;
one per team in Two-Headed Giant), one option per legal declaration (509.1a-c): each untapped
creature they control that isn't attacking blocks one creature attacking them, their planeswalker
or their battle, or none; flying (702.9b, 702.17b), menace (702.111b) and protection from a
player (702.16k) restrict it. The result is the state the same blocks written in the file give.


The active player assigns each attacker's damage, then the defending player each blocker's
(510.1). A division among several blockers is a choice of the creature's controller; there is no
damage assignment order (510.1c-d since 2024-11-08). Trample may assign to the player only once
every blocker has been assigned lethal damage, counting damage already marked, deathtouch, and
damage assigned by other creatures in the same step (702.19b); the whole assignment is checked
at the end, as 510.1e does.
"""

from __future__ import annotations

import math
from typing import Any

from mtg_outcomes.model.blocks import defending_player, same_side
from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.kinds import DecisionKind

from .characteristics import power, toughness
from .decision import Option, decide, event, note, recording, says
from .rules.effects import effects_in_force, start_batch
from .rules.lethal import lethal_assigned
from .select import has_keyword, is_player, matches
from .state import CombatStage, Event, GameState, PermState, Table, TaskKind, replace
from .words import name as obj_name
from .words import possessive

__all__ = ["begin_combat", "run_task", "compositions", "assign_options", "damage_recipients", "has_trample",
           "step_name", "END_OF_DAMAGE", "end_of_combat", "queue_steps", "close_choices", "assigns_in_step",
           "defenders", "teams", "attackers_of", "MAX_DIVISIONS"]

MAX_DIVISIONS = 200_000  # likewise for one creature's ways to divide its combat damage

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


def begin_combat(state: GameState, table: Table, choose_all: bool = False) -> GameState:
    """The declare blockers step when blocks are chosen (509.1), then the combat damage steps."""
    if choose_all or any(p.present and p.choosing_block for p in state.perms):
        sides = _defending_sides(state, table)
        if sides:
            return replace(state, queue=((TaskKind.COMBAT, CombatStage.BLOCKS, choose_all, sides),) + state.queue)
    return queue_steps(close_choices(state), table)


def queue_steps(state: GameState, table: Table) -> GameState:
    """510.4: a first-strike step when any combatant has first or double strike."""
    two_steps = any(_fs(state, table, p.id) for p in _combatants(state))
    steps = ((TaskKind.STEP, 1), (TaskKind.STEP, 2)) if two_steps else ((TaskKind.STEP, 0),)
    return replace(state, queue=steps + ((TaskKind.STEP, END_OF_DAMAGE),) + state.queue)


def close_choices(state: GameState) -> GameState:
    """Blocks chosen or not, nothing is left to choose once blockers are declared (509.1): a
    ``blocking: choose`` creature no defending player declared for blocks nothing (a forced step)."""
    for p in state.perms:
        if p.choosing_block:
            if p.present:
                state = note(state, f"{p.id} blocks nothing: no creature attacks {p.controller} or what they control (509.1a)")
            state = state.set_perm(replace(p, choosing_block=False))
    return state


# ---------------------------------------------------------------------------------------------
# declare blockers (509.1)


def teams(table: Table) -> dict[str, str | None]:
    return {p.name: p.team for p in table.case.players} if table.two_headed else {}


def defenders(state: GameState, table: Table) -> dict[str, str]:
    """Who defends each permanent when it is attacked (506.2): its controller, a battle's
    protector (310.5) (the newest object with each id wins)."""
    return {p.id: table.perm_specs[p.spec].protector or p.controller for p in state.perms}


def attackers_of(state: GameState) -> list[PermState]:
    return [p for p in state.perms if p.present and p.attacking is not None]


def _defending_sides(state: GameState, table: Table) -> tuple[tuple[str, ...], ...]:
    """The defending players (506.2), each alone or, in Two-Headed Giant, with their team (810.7),
    in APNAP order (101.4): each side declares its blocks as one decision."""
    who_defends = defenders(state, table)
    team_of = teams(table)
    defending = {defending_player(a.attacking, who_defends) for a in attackers_of(state)}  # type: ignore[arg-type]
    sides: list[tuple[str, ...]] = []
    for name in table.apnap(sorted(defending)):
        if any(name in side for side in sides):
            continue
        sides.append(tuple(table.apnap([n for n in table.order if same_side(n, name, team_of)])))
    return tuple(sides)


def assigns_in_step(state: GameState, table: Table, perm: PermState, step: int) -> bool:
    """Whether ``perm`` assigns combat damage in ``step`` (0 the only step, 1 first-strike, 2 regular; 510.4)."""
    if step == 0:
        return True
    if step == 1:
        return _fs(state, table, perm.id)
    # 510.4, 702.7c: those that had neither first nor double strike as the first step began
    # (dealing damage in it or not: a 0-power first striker pumped since deals none), and those
    # with double strike
    return not perm.had_first_strike or has_keyword(state, table, perm.id, "double strike")


def start_step(state: GameState, table: Table, step: int) -> GameState:
    if step == END_OF_DAMAGE:  # its triggers have resolved (510.3): the step is over
        return end_of_combat(replace(state, damage_step=0))
    state = replace(state, damage_step=step + 1)
    if recording():
        what = step_name(state)
        state = event(state, f"the {what} begins", "510.4" if what != "combat damage step" else "510.1")
    order = table.apnap(table.order)
    todo = []
    for p in _combatants(state):
        if step == 1 and _fs(state, table, p.id):
            state = state.set_perm(replace(p, had_first_strike=True))  # 702.7c: read as the step begins
        if not assigns_in_step(state, table, p, step) or assigned_amount(state, table, p) <= 0:
            continue  # 510.1a
        todo.append(p.id)
    attackers = [pid for pid in todo if state.perm(pid).attacking is not None]  # type: ignore[union-attr]
    blockers = [pid for pid in todo if state.perm(pid).blocking]  # type: ignore[union-attr]
    # active player's attackers first, then blockers by controller in APNAP order (510.1)
    blockers.sort(key=lambda pid: order.index(state.perm(pid).controller))  # type: ignore[union-attr]
    return replace(state, queue=((TaskKind.COMBAT, CombatStage.ASSIGN, step, tuple(attackers + blockers), ()),) + state.queue)


def end_of_combat(state: GameState) -> GameState:
    """The end of combat step, after the combat damage step(s) and before any later action of the
    timeline: as it ends every creature, battle and planeswalker is removed from combat (511.3), so
    none is attacking, blocking, blocked or unblocked any more (506.4) and every effect that reads
    "attacking", "blocking" or "blocked" stops applying to it (Alms Beast's lifelink, 2026 rules)."""
    for p in state.perms:
        if p.present and (p.attacking is not None or p.blocking or p.blocked or p.had_first_strike):
            state = state.set_perm(replace(p, attacking=None, blocking=(), blocked=False, had_first_strike=False))
    return state


TOP = "trample over planeswalkers"  # 702.19c


def damage_recipients(state: GameState, table: Table, perm: PermState) -> tuple[list[str], str | None]:
    """(creatures it divides among, the attacked player/planeswalker/battle for trample or unblocked).

    702.19e: a creature with trample over planeswalkers whose planeswalker has left combat
    assigns to the planeswalker's controller, the defending player, instead."""
    if perm.attacking is not None:
        defender = perm.attacking
        ok = _in_game(state, table, defender)
        defended = defender if ok else None
        if defended is None and not is_player(table, defender) and has_keyword(state, table, perm.id, TOP):
            gone = state.perm(defender)
            if gone is not None and "planeswalker" in table.perm_specs[gone.spec].types and _in_game(state, table, gone.controller):
                defended = gone.controller
        blockers = [b.id for b in state.perms if b.present and perm.id in b.blocking]
        return blockers, defended
    blocked = [a for a in perm.blocking if (state.perm(a) is not None and state.perm(a).present)]  # type: ignore[union-attr]
    return blocked, None


def _in_game(state: GameState, table: Table, who: str) -> bool:
    if is_player(table, who):
        return state.player(who).left is False
    perm = state.perm(who)
    return perm is not None and perm.present


def has_trample(state: GameState, table: Table, pid: str) -> bool:
    """Whether ``pid`` has trample, trample over planeswalkers being a variant of it (702.19c)."""
    return has_keyword(state, table, pid, "trample") or has_keyword(state, table, pid, TOP)


def trample_beyond(state: GameState, table: Table, perm: PermState, defended: str | None) -> str | None:
    """702.19c: the planeswalker's controller, to whom a creature with trample over planeswalkers
    attacking that planeswalker may assign the damage beyond its loyalty (None otherwise)."""
    if perm.attacking is None or defended != perm.attacking or is_player(table, defended):
        return None
    pw = state.perm(defended)
    if pw is None or "planeswalker" not in table.perm_specs[pw.spec].types or not has_keyword(state, table, perm.id, TOP):
        return None
    return pw.controller if _in_game(state, table, pw.controller) else None


def _splits(amount: int, recipients: list[str], pid: str = "") -> list[tuple[tuple[str, int], ...]]:
    if len(recipients) == 1:
        return [((recipients[0], amount),)]
    ways = math.comb(amount + len(recipients) - 1, len(recipients) - 1)
    if ways > MAX_DIVISIONS:  # counted before any is built: a limit, not a hang (510.1c)
        raise EngineError(f"{pid}: its {amount} combat damage can be divided among {len(recipients)} recipients in "
                          f"{ways} ways, more than the {MAX_DIVISIONS} one creature's division may have here")
    return [tuple((r, n) for r, n in zip(recipients, split, strict=True) if n > 0)
            for split in compositions(amount, len(recipients))]


def assigned_amount(state: GameState, table: Table, perm: PermState) -> int:
    """The combat damage a creature assigns: its power (510.1a), or its toughness under "assigns
    combat damage equal to its toughness rather than its power" (Doran, the Siege Tower)."""
    by_toughness = any(i.spec.kind == EffectKind.ASSIGNS_BY_TOUGHNESS and i.spec.value
                       and matches(i.spec.to, perm.id, state, table, i.view, default=False)
                       for i in effects_in_force(state, table))
    return toughness(table, perm, state) if by_toughness else power(table, perm, state)


def assign_options(state: GameState, table: Table, pid: str) -> list[tuple[tuple[str, int], ...]]:
    """Every division of one creature's combat damage (510.1a-d, 702.19b-e); those a trampler
    may not make are rejected once the whole assignment is known (510.1e, :func:`_valid_trample`)."""
    perm = state.perm(pid)
    assert perm is not None
    amount = assigned_amount(state, table, perm)
    creatures, defended = damage_recipients(state, table, perm)
    # trample over planeswalkers is a variant of trample (702.19c)
    trample = perm.attacking is not None and has_trample(state, table, pid)
    beyond = trample_beyond(state, table, perm, defended)
    past = [defended] + ([beyond] if beyond else []) if defended else []
    if perm.attacking is not None and not perm.blocked:
        return _splits(amount, past, pid) if past else [()]  # 510.1b (702.19c: and beyond the planeswalker)
    if perm.attacking is not None and past and as_unblocked(state, table, pid):
        # "as though it weren't blocked": its controller's choice of 510.1b (all to what it attacks,
        # and with trample over planeswalkers past its loyalty to its controller, 702.19c, as an
        # unblocked attacker's) or 510.1c; not both at once
        normal = _blocked_options(amount, creatures, past, trample, pid)
        return normal + [o for o in _splits(amount, past, pid) if o not in normal]
    return _blocked_options(amount, creatures, past, trample, pid)


def as_unblocked(state: GameState, table: Table, pid: str) -> bool:
    """Whether the blocked attacker ``pid`` may assign its combat damage as though it weren't
    blocked (an ``as_unblocked`` effect applies to it: 510.1b instead of 510.1c)."""
    return any(i.spec.kind == EffectKind.AS_UNBLOCKED and i.spec.value and matches(i.spec.to, pid, state, table, i.view, default=False)
               for i in effects_in_force(state, table))


def _blocked_options(amount: int, creatures: list[str], past: list[str], trample: bool,
                     pid: str) -> list[tuple[tuple[str, int], ...]]:
    """510.1c (702.19b-e with trample): a blocked creature's divisions."""
    if not creatures:
        if trample and past:
            return _splits(amount, past, pid)  # 702.19d
        return [()]  # 510.1c
    return _splits(amount, creatures + (past if trample else []), pid)


def _valid_trample(state: GameState, table: Table, assigned: tuple[tuple[str, str, int], ...]) -> bool:
    """702.19b-c over the whole assignment (510.1e): a trampler's damage to the player (or
    planeswalker, or battle) requires lethal damage assigned to each of its blockers, and with
    trample over planeswalkers, damage to the planeswalker's controller requires damage at least
    equal to its loyalty assigned to the planeswalker, counting every creature's assignment."""
    total: dict[str, int] = {}
    for _src, rcp, n in assigned:
        total[rcp] = total.get(rcp, 0) + n
    for src, rcp, n in assigned:
        perm = state.perm(src)
        if perm is None or perm.attacking is None or n <= 0 or not (perm.blocked or has_keyword(state, table, src, TOP)):
            continue  # (only a blocked creature, or one past a planeswalker, has a condition to meet)
        creatures, defended = damage_recipients(state, table, perm)
        beyond = trample_beyond(state, table, perm, defended)
        if defended is None or rcp not in (defended, beyond):
            continue
        # assigned as though it weren't blocked (510.1b): no blocker to meet; past a planeswalker
        # (702.19c) still only beyond its loyalty, as for an unblocked attacker
        unblocked = perm.blocked and as_unblocked(state, table, src) \
            and not any(s == src and r in creatures for s, r, _ in assigned)
        if rcp == defended and unblocked:
            continue
        if perm.blocked and not unblocked:
            for b in creatures:
                to_b: dict[str, int] = {}
                for s, r, m in assigned:
                    if r == b:
                        to_b[s] = to_b.get(s, 0) + m
                if not lethal_assigned(state, table, b, to_b):
                    return False
        if rcp == beyond:
            pw = state.perm(defended)
            assert pw is not None
            if total.get(defended, 0) < pw.loyalty:
                return False
    return True


def assign_words(state: GameState, table: Table, who: str, pid: str, opt: Any) -> str:
    """"A assigns Craw Wurm's 6 damage: 2 to Grizzly Bears, 4 to you" (510.1c), in its step."""
    to = ", ".join(f"{n} to {obj_name(state, table, r)}" for r, n in opt)
    total = sum(n for _, n in opt)
    step = step_name(state)
    where = f" in the {step}" if step and step != "combat damage step" else ""
    if not to:
        return f"{says(who, 'assigns')} no combat damage for {obj_name(state, table, pid)}{where}"
    return f"{says(who, 'assigns')} {possessive(obj_name(state, table, pid))} {total} combat damage{where}: {to}"


def run_task(state: GameState, table: Table, task: tuple[Any, ...]) -> Any:
    """A combat damage assignment task (510.1; the declaration of blockers is solver.declare's)."""
    _, what, step, todo, assigned = task
    if what != CombatStage.ASSIGN:
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
        nxt = replace(state, queue=((TaskKind.COMBAT, CombatStage.ASSIGN, step, rest, new_assigned),) + state.queue)
        label = ",".join(f"{r}:{n}" for r, n in opt) or "none"
        options.append(Option(label, assign_words(state, table, perm.controller, pid, opt), nxt))
    # the rule that decides it: an unblocked attacker (or one assigning as though unblocked) assigns
    # to what it attacks (510.1b), a blocker to the creature it blocks (510.1d), else 510.1c
    rule = "510.1b" if perm.attacking is not None and not perm.blocked else "510.1d" if perm.attacking is None else ""
    return decide(perm.controller, DecisionKind.ASSIGN, pid, options, rule)
