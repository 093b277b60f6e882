"""Amount expressions: ``3``, ``X``, ``prevented``, ``life_lost_this_turn``, ``half_up(X + 1)``.

A tiny recursive-descent parser (never ``eval``). An expression is an immutable tuple tree; the
solver evaluates it against the game when the action resolves (CR 608.2h).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["Expr", "parse_expr", "ExprError", "VARIABLES", "FUNCTIONS", "GAME_READS", "expr_vars", "expr_str"]

Expr = tuple[Any, ...]
VARIABLES = ("X", "prevented", "damage_dealt", "life_lost_this_turn", "life_gained_this_turn",
             "amount", "life_total", "lowest_life_total", "life_lost_this_way", "player_count",
             "that_damage", "sacrificed_power", "sacrificed_toughness", "cards_in_hand")
FUNCTIONS = ("half_up", "half_down", "third_up", "third_down")
MAX_INT = 1_000_000
# nodes that read the game as an action resolves (608.2h), built from an action's amount mapping
# (model.vocab: ``{count: <selector>}``, ``{power: self}``): ``("count", Selector)`` is the number
# of permanents the selector matches, ``("power", "self")`` the power of the object the ability is
# of; expr_vars names them as variables "count" / "power" (so no engine takes them as fixed)
GAME_READS = ("count", "power")
_NUMBER_TEXT = re.compile(r"^\s*[+-]?\d+\s*$")
_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z_0-9]*)|(.))")


class ExprError(ValueError):
    """An expression that doesn't parse; the message is the user-facing reason."""


def _tokens(text: str) -> list[str]:
    out = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        tok = m.group(1) or m.group(2) or m.group(3)
        if tok is not None and tok.strip():
            out.append(tok)
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise ExprError(f"incomplete expression {self.text!r}")
        self.i += 1
        return tok

    def expr(self) -> Expr:
        node = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            node = ("add" if op == "+" else "sub", node, self.term())
        return node

    def term(self) -> Expr:
        node = self.factor()
        while self.peek() == "*":
            self.take()
            node = ("mul", node, self.factor())
        return node

    def factor(self) -> Expr:
        tok = self.take()
        if tok.isdigit():
            value = int(tok)
            if value > MAX_INT:
                raise ExprError(f"number {value} is too large (at most {MAX_INT})")
            return ("int", value)
        if tok == "(":
            node = self.expr()
            if self.take() != ")":
                raise ExprError(f"missing ')' in {self.text!r}")
            return node
        if tok in FUNCTIONS:
            if self.take() != "(":
                raise ExprError(f"{tok} needs parentheses: {tok}(...)")
            node = self.expr()
            if self.take() != ")":
                raise ExprError(f"missing ')' in {self.text!r}")
            return (tok, node)
        if tok in VARIABLES:
            return ("var", tok)
        raise ExprError(f"unknown name {tok!r} in expression {self.text!r}")


def parse_expr(value: Any) -> Expr:
    """Parse an amount.

    >>> parse_expr(3)
    ('int', 3)
    >>> parse_expr("half_up(X)")
    ('half_up', ('var', 'X'))
    """
    if isinstance(value, bool):
        raise ExprError(f"expected an amount, got {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise ExprError(f"amount must not be negative (got {value})")
        if value > MAX_INT:
            raise ExprError(f"amount {value} is too large (at most {MAX_INT})")
        return ("int", value)
    if not isinstance(value, str) or not value.strip():
        raise ExprError(f"expected an amount (a number or an expression), got {value!r}")
    if _NUMBER_TEXT.match(value):
        # a quoted number is text, not a number: refuse it rather than convert it silently
        raise ExprError(f"expected a whole number, got the text {value!r}: write the number without quotes")
    parser = _Parser(value)
    node = parser.expr()
    if parser.peek() is not None:
        raise ExprError(f"unexpected {parser.peek()!r} in expression {value!r}")
    return node


def expr_vars(node: Expr) -> set[str]:
    """The variable names an expression reads (a game read, :data:`GAME_READS`, by its tag)."""
    if node[0] == "var":
        return {node[1]}
    if node[0] in GAME_READS:
        return {node[0]}
    out: set[str] = set()
    for child in node[1:]:
        if isinstance(child, tuple):
            out |= expr_vars(child)
    return out


def expr_str(node: Expr) -> str:
    tag = node[0]
    if tag == "int":
        return str(node[1])
    if tag == "var":
        return str(node[1])
    if tag == "count":
        return f"the number of {node[1]}"
    if tag == "power":
        return {"target": "its target's power", "itself": "each one's own power"}.get(str(node[1]), "its power")
    if tag in FUNCTIONS:
        return f"{tag}({expr_str(node[1])})"
    sym = {"add": "+", "sub": "-", "mul": "*"}[tag]
    return f"{expr_str(node[1])} {sym} {expr_str(node[2])}"
