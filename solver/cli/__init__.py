"""The ``mtg-outcomes`` command line: validate, enumerate, check.

Exit codes (docs/design.md): 0 ok, 1 a check or expectation failed, 2 bad input. Errors are one line
each (``file: path.to.field: reason``), never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from mtg_outcomes.model.errors import CaseError, CaseErrors, EngineError, MtgOutcomesError

from .parser import DEFAULT_TIMEOUT, build_parser

__all__ = ["main", "DEFAULT_TIMEOUT", "COMMANDS"]


def _handler(module: str, name: str) -> Callable[..., int]:
    """A command's function, its module imported when the command runs: ``validate`` never loads
    the engines, batch's process pool, the report or the peer (each command's own imports)."""
    function: Callable[..., int] = getattr(importlib.import_module(f"mtg_outcomes.{module}"), name)
    return function


# each command by name: the module and function that run it (registered, not an if-chain)
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "validate": lambda a: _handler("cli.files", "validate_command")(a.paths),
    "enumerate": lambda a: _handler("cli.outcomes", "enumerate_command")(a),
    "check": lambda a: _handler("cli.outcomes", "check_command")(a),
    "optimize": lambda a: _handler("cli.outcomes", "optimize_command")(a),
    "batch": lambda a: _handler("cli.jobs", "batch_command")(a),
    "mana": lambda a: _handler("cli.outcomes", "mana_command")(a),
    "report": lambda a: _handler("cli.jobs", "report_command")(a),
    "generate": lambda a: _handler("cli.jobs", "generate_command")(a),
    "card": lambda a: _handler("cli.cards", "card_command")(" ".join(a.name), a.json),
    "cards": lambda a: _handler("cli.cards", "coverage_command")(a.family, a.json),
    "schema": lambda a: _handler("cli.scaffold", "schema_command")(),
    "new": lambda a: _handler("cli.scaffold", "new_command")(a),
    "peer": lambda a: _handler("peer.cli", "peer_command")(a),
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except CaseErrors as exc:
        for err in exc.errors:
            print(err, file=sys.stderr)
        return 2
    except CaseError as exc:
        print(exc, file=sys.stderr)
        return 2
    except MtgOutcomesError as exc:
        # a situation the engine can't honour is the case file's (file: reason), one line
        where = getattr(args, "case", None)
        print(f"{where}: {exc}" if isinstance(exc, EngineError) and where else f"mtg-outcomes: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mtg-outcomes: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader (e.g. `head`) went away: stop quietly

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
