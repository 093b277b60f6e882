"""Evaluating amount expressions (CR 608.2h: values are read as the action resolves)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.expr import GAME_READS, Expr

__all__ = ["evaluate", "eval_static", "read_game"]


def evaluate(node: Expr, env: Mapping[str, int]) -> int:
    """Evaluate an expression against ``env``, the values known where it is read (608.2h).
    A variable ``env`` doesn't hold is an error, never a quiet 0: it names something this
    action can't read here (a player's life total in damage to a permanent, ``prevented``
    outside a prevention effect's rider). Subtraction never goes below 0."""
    tag = node[0]
    if tag == "int":
        return int(node[1])
    if tag == "var":
        if node[1] not in env:
            raise EngineError(f"the amount reads {node[1]}, which has no value here")
        return int(env[node[1]])
    if tag in GAME_READS:
        raise AssertionError(f"{tag} is read from the game first (read_game)")
    if tag == "half_up":
        return -(-evaluate(node[1], env) // 2)
    if tag == "half_down":
        return evaluate(node[1], env) // 2
    if tag == "third_up":
        return -(-evaluate(node[1], env) // 3)
    if tag == "third_down":
        return evaluate(node[1], env) // 3
    a, b = evaluate(node[1], env), evaluate(node[2], env)
    if tag == "add":
        return a + b
    if tag == "sub":
        return max(0, a - b)
    return a * b


def eval_static(node: Expr, x: int) -> int:
    return evaluate(node, {"X": x})


def read_game(node: Expr, read: Callable[[str, Any], int]) -> Expr:
    """``node`` with its game reads (``count``, ``power``: model.expr.GAME_READS) replaced by
    their values now, ``read(tag, argument)`` (608.2h: read as the action resolves)."""
    tag = node[0]
    if tag in GAME_READS:
        return ("int", read(tag, node[1]))
    if tag in ("int", "var"):
        return node
    return (tag, *(read_game(child, read) if isinstance(child, tuple) else child for child in node[1:]))
