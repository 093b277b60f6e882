"""Readers of command-line values every command shares (``--timeout``, counts), below the
commands and the peer's subcommand (solver.peer.cli) that use them."""

from __future__ import annotations

import argparse
from typing import TypeAlias

__all__ = ["seconds", "at_least_one", "Subcommands"]

# what add_subparsers() returns: each command adds its parser to it
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def seconds(text: str) -> float | None:
    """A time limit in seconds; 0 means none."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if value < 0 or value != value:
        raise argparse.ArgumentTypeError(f"expected seconds >= 0, got {text!r}")
    return None if value == 0 else value


def at_least_one(text: str) -> int:
    """A count that must be a whole number, at least 1 (--max-nodes, --jobs, --count, --workers)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {text!r}")
    return value
