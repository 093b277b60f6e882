"""Evaluating amount expressions (CR 608.2h: values are read as the action resolves)."""

from __future__ import annotations

from collections.abc import Mapping

from model.expr import Expr

__all__ = ["evaluate", "eval_static"]


def evaluate(node: Expr, env: Mapping[str, int]) -> int:
    """Evaluate an expression; unknown variables read as 0. Results never go below 0."""
    tag = node[0]
    if tag == "int":
        return int(node[1])
    if tag == "var":
        return int(env.get(node[1], 0))
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
