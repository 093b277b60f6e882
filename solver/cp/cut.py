"""The exception a CP enumeration's parts raise when the time limit cuts it (solver.cp.search,
which catches it; solver.cp.sweep and solver.cp.ranges, which raise it from their solves)."""

from __future__ import annotations

__all__ = ["_Cut"]


class _Cut(Exception):
    """The time limit cut the enumeration."""
