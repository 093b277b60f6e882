"""Why the CP model declines a case: a :class:`Refusal`, its reason in words and the rule it
can't express (so ``auto`` runs the graph engine and ``--engine cp`` says why, docs/engines.md)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Refusal"]


@dataclass(frozen=True)
class Refusal:
    """The CP model can't express this: ``reason`` (what is printed), and ``rule`` the CR number of
    the rule involved, or None when the refusal is a size limit rather than a rule not modelled."""

    reason: str
    rule: str | None = None

    def __str__(self) -> str:
        return self.reason
