"""The exception a CP enumeration's parts raise when the time limit cuts it (solver.cp.search,
which catches it; solver.cp.sweep and solver.cp.ranges, which raise it from their solves): a
module of its own so that they import it without importing each other."""

from __future__ import annotations

__all__ = ["Cut"]


class Cut(Exception):
    """The time limit cut the enumeration."""
