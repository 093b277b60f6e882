"""A spell's additional costs paid as a cast: action casts it (CR 601.2b, 601.2h): "As an additional
cost to cast this spell, sacrifice a creature." (one of the caster's permanents the cost names,
their choice, 701.21a: it dies, 700.4), "pay 3 life" (119.4), "return a land you control to its
owner's hand" (it leaves the battlefield, 400.7). Mana isn't tracked. A cost that can't be paid
means the spell can't be cast (601.2h)."""

from __future__ import annotations

from typing import Any

from mtg_outcomes.model.kinds import AbilityKind

from .characteristics import leave, power, toughness
from .costs import life_cost, life_payment_problem
from .dies import put_into_graveyard
from .results import change_life
from .select import View, matches
from .state import GameState, Table

__all__ = ["spell_cost", "cost_problem", "payments"]


def spell_cost(spec: Any) -> tuple[Any, ...]:
    """The additional costs of the spell ``spec`` (its ``cast_cost:`` abilities)."""
    return tuple(c for ab in spec.abilities if ab.kind == AbilityKind.CAST_COST for c in ab.cost)


def _moved(cost: tuple[Any, ...]) -> tuple[str, Any] | None:
    return next(((c[0], c[1]) for c in cost if isinstance(c, tuple) and c[0] in ("sacrifice", "return_to_hand")), None)


def _choices(state: GameState, table: Table, who: str, spell: str, cost: tuple[Any, ...]) -> list[str | None]:
    """The permanents the cost may sacrifice or return: the caster's, matching its selector read
    from the spell's point of view (701.21a: only your own); [None] for a cost without one."""
    moved = _moved(cost)
    if moved is None:
        return [None]
    view = View(who, spell)
    return [p.id for p in state.perms if p.present and p.controller == who and matches(moved[1], p.id, state, table, view)]


def cost_problem(state: GameState, table: Table, who: str, spell: str, cost: tuple[Any, ...]) -> str | None:
    """Why ``who`` can't pay the spell's additional costs now (601.2h), or None."""
    moved = _moved(cost)
    if moved is not None and not _choices(state, table, who, spell, cost):
        verb = "sacrifice" if moved[0] == "sacrifice" else "return to its owner's hand"
        return f"{who} controls nothing its additional cost can {verb} (601.2h)"
    problem = life_payment_problem(state, table, who, life_cost(cost))
    return f"{who} {problem}" if problem is not None else None


def sacrificed_values(state: GameState, table: Table, pid: str | None) -> tuple[tuple[str, int], ...]:
    """``sacrificed_power`` and ``sacrificed_toughness``: the sacrificed creature's, as it last existed
    on the battlefield (608.2h, 113.7a), read before it is sacrificed; () for none."""
    perm = state.perm(pid) if pid is not None else None
    if perm is None or not perm.present:
        return ()
    return (("sacrificed_power", max(0, power(table, perm, state))), ("sacrificed_toughness", max(0, toughness(table, perm, state))))


def payments(state: GameState, table: Table, who: str, spell: str,
             cost: tuple[Any, ...]) -> list[tuple[str, str, GameState, tuple[tuple[str, int], ...]]]:
    """Each way to pay the costs (the permanent chosen, 601.2h): (key, words, the state paid, the
    values the spell reads of a sacrificed creature)."""
    out = []
    moved = _moved(cost)
    for choice in _choices(state, table, who, spell, cost):
        paid = state
        values = sacrificed_values(state, table, choice) if moved is not None and moved[0] == "sacrifice" else ()
        life = life_cost(cost)
        if life:
            paid = change_life(paid, table, who, -life)  # 119.4: paying life is losing it
        words = f", paying {life} life" if life else ""
        if choice is not None and moved is not None:
            gone = paid.perm(choice)
            if gone is not None and gone.present:
                if moved[0] == "sacrifice":
                    paid = put_into_graveyard(paid, table, [gone])  # it dies (700.4)
                else:
                    paid = leave(paid, table, [gone], frozenset())  # to its owner's hand (400.7)
            words += f", {'sacrificing' if moved[0] == 'sacrifice' else 'returning'} {choice}"
        out.append((f"/{choice}" if choice is not None else "", words, paid, values))
    return out
