"""Abilities' costs (601.2h via 602.2b): {T} and {Q}, summoning sickness (302.6), counters, loyalty
(606.4), life (119.4), sacrificing the permanent itself (701.21a)."""

from __future__ import annotations

from typing import Any

from mtg_outcomes.model.kinds import CostKind
from mtg_outcomes.model.types import (
    Ability,
)

from .characteristics import has_keyword
from .dies import put_into_graveyard
from .results import cant_lose_life, change_life
from .select import View, matches
from .state import (
    GameState,
    PermState,
    Table,
    replace,
)

__all__ = ['find_ability', 'summoning_sick', 'cost_problem', 'loyalty_change', 'pay_cost', 'sacrifice_choices', 'tap_choices',
           'life_payment_problem', 'life_cost']


def find_ability(table: Table, state: GameState, pid: str, index: int | None, kind: str) -> tuple[int, Ability] | None:
    """The ability an activation names: number ``index`` if it is of ``kind``, else (no index)
    the permanent's first ability of ``kind``; None when there is none."""
    abilities = table.abilities_of(state, pid)
    if index is not None:
        return (index, abilities[index]) if index < len(abilities) and abilities[index].kind == kind else None
    return next(((j, ab) for j, ab in enumerate(abilities) if ab.kind == kind), None)


def summoning_sick(table: Table, perm: PermState, state: GameState) -> bool:
    """302.6: a creature that hasn't been under its controller's control continuously since their
    most recent turn began (``summoning_sick: true``, or it entered during the case's actions);
    haste lets it use {T}/{Q} abilities anyway (702.10)."""
    spec = table.perm_specs[perm.spec]
    if "creature" not in spec.types or has_keyword(state, table, perm.id, "haste"):
        return False
    return spec.summoning_sick or perm.spec >= len(table.case.permanents)


def loyalty_change(cost: tuple[Any, ...], x: int = 0) -> int | None:
    """The loyalty counters a loyalty ability's cost puts on (+) or removes (-) (606.4; [−X]: X
    chosen by its controller, 107.3), or None for a cost without a loyalty symbol."""
    for c in cost:
        if isinstance(c, tuple) and c[0] == CostKind.LOYALTY:
            return -x if c[1] == "-X" else int(c[1])
    return None


def cost_problem(state: GameState, table: Table, perm: PermState, cost: tuple[Any, ...], x: int = 0) -> str | None:
    """Why an ability's cost can't be paid now, or None if it can (601.2h via 602.2b).

    {T} needs the permanent untapped (107.5), {Q} tapped (107.6), and neither can be paid for a
    summoning-sick creature (302.6); removing counters needs that many; paying life needs at least
    that much life (119.4) and being able to lose life (119.8). Mana isn't tracked, so mana symbols cost nothing here.
    """
    if "T" in cost and perm.tapped:
        return "it is already tapped, so {T} can't be paid (107.5)"
    if "Q" in cost and not perm.tapped:
        return "it is already untapped, so {Q} can't be paid (107.6)"
    if ("T" in cost or "Q" in cost) and summoning_sick(table, perm, state):
        return "it is a summoning-sick creature, so its {T}/{Q} abilities can't be activated (302.6)"
    loyalty = loyalty_change(cost, x)
    if loyalty is not None and loyalty < 0 and perm.loyalty < -loyalty:
        # 606.5: a negative loyalty cost needs at least that many loyalty counters
        return f"it has {perm.loyalty} loyalty, so it can't remove {-loyalty} loyalty counters (606.5)"
    counters = dict(perm.counters)
    for item in cost:
        if isinstance(item, tuple) and item[0] == CostKind.REMOVE_COUNTERS and counters.get(item[1], 0) < item[2]:
            return f"it doesn't have {item[2]} {item[1]} counter{'s' if item[2] != 1 else ''} to remove"
    if any(isinstance(c, tuple) and c[0] == CostKind.SACRIFICE and c[1] != "self" for c in cost) \
            and not sacrifice_choices(state, table, perm, cost):
        return "its controller controls nothing the cost can sacrifice (601.2h, 701.21a)"
    if tap_choices(state, table, perm, cost) == []:
        return "its controller controls nothing untapped the cost can tap (601.2h)"
    energy = _energy_cost(cost)
    if energy > state.player(perm.controller).energy:
        return f"its controller doesn't have {energy} energy counter{'s' if energy != 1 else ''} to pay (107.14)"
    problem = life_payment_problem(state, table, perm.controller, life_cost(cost))
    return f"its controller {problem}" if problem is not None else None


def life_payment_problem(state: GameState, table: Table, player: str, life: int) -> str | None:
    """Why ``player`` can't pay ``life`` life now, or None: a payment above 0 needs at least that
    much life (119.4; in Two-Headed Giant the team's, 119.4a) and being able to lose life (119.8,
    810.9h); 0 life can always be paid (119.4b)."""
    if life > 0 and state.player(player).life < life:
        return f"can't pay {life} life (119.4)"
    if life > 0 and cant_lose_life(state, table, player):
        return f"can't lose life, so can't pay {life} life (119.8, 810.9h)"
    return None


def sacrifice_choices(state: GameState, table: Table, perm: PermState, cost: tuple[Any, ...]) -> list[str | None]:
    """The permanents a "Sacrifice a creature" cost (``("sacrifice", <selector>)``) may sacrifice:
    those on the battlefield its controller controls that the selector matches, read from the
    ability's point of view ("another creature" isn't the permanent itself); [None] for a cost
    without one (701.21a: only your own permanents can be sacrificed)."""
    sel = next((c[1] for c in cost if isinstance(c, tuple) and c[0] == CostKind.SACRIFICE and c[1] != "self"), None)
    if sel is None:
        return [None]

    view = View(perm.controller, perm.id)
    return [p.id for p in state.perms if p.present and p.controller == perm.controller
            and matches(sel, p.id, state, table, view)]


def tap_choices(state: GameState, table: Table, perm: PermState, cost: tuple[Any, ...]) -> list[str | None]:
    """The permanents a "Tap an untapped creature you control" cost (``("tap", <selector>)``) may
    tap (601.2h): untapped ones on the battlefield its controller controls that the selector
    matches, not the permanent itself when the cost also has {T} (one tap can't pay both); a
    summoning-sick creature may be tapped so (302.6 restricts only its own {T} abilities). [None]
    for a cost without one."""
    sel = next((c[1] for c in cost if isinstance(c, tuple) and c[0] == CostKind.TAP), None)
    if sel is None:
        return [None]

    view = View(perm.controller, perm.id)
    return [p.id for p in state.perms if p.present and p.controller == perm.controller and not p.tapped
            and not ("T" in cost and p.id == perm.id) and matches(sel, p.id, state, table, view)]


def life_cost(cost: tuple[Any, ...]) -> int:
    return sum(int(c[1]) for c in cost if isinstance(c, tuple) and c[0] == CostKind.PAY_LIFE)


def _energy_cost(cost: tuple[Any, ...]) -> int:
    return sum(int(c[1]) for c in cost if isinstance(c, tuple) and c[0] == CostKind.PAY_ENERGY)


def pay_cost(state: GameState, table: Table, perm: PermState, cost: tuple[Any, ...], x: int = 0) -> GameState | None:
    """Pay an ability's cost (601.2h via 602.2b), or None if it can't be paid
    (:func:`cost_problem`): tap or untap the permanent, put on or remove loyalty counters (606.4),
    remove counters, pay life (a life loss)."""
    if cost_problem(state, table, perm, cost, x) is not None:
        return None
    perm = replace(perm, loyalty=perm.loyalty + (loyalty_change(cost, x) or 0))
    counters = dict(perm.counters)
    for item in cost:
        if isinstance(item, tuple) and item[0] == CostKind.REMOVE_COUNTERS:
            counters[item[1]] -= item[2]
    tapped = True if "T" in cost else False if "Q" in cost else perm.tapped
    state = state.set_perm(replace(perm, counters=tuple(sorted(counters.items())), tapped=tapped))
    energy = _energy_cost(cost)
    if energy:
        p = state.player(perm.controller)
        state = state.set_player(replace(p, energy=p.energy - energy))
    life = life_cost(cost)
    if life:
        state = change_life(state, table, perm.controller, -life)
    if ("sacrifice", "self") in cost:
        # sacrificed: put into its graveyard as the cost is paid, so it has died (701.21a, 700.4)
        state = put_into_graveyard(state, table, [state.perm(perm.id)])  # type: ignore[list-item]
    return state
