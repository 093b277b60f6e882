"""The ``mtg-outcomes`` command line: validate, enumerate, check.

Exit codes (docs/design.md): 0 ok, 1 a check or expectation failed, 2 bad input. Errors are one line
each (``file: path.to.field: reason``), never a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from mtg_outcomes.model.errors import CaseError, CaseErrors, EngineError, MtgOutcomesError

from ..peer.cli import peer_command
from .cards import card_command, coverage_command
from .files import validate_command
from .jobs import batch_command, generate_command, report_command
from .outcomes import check_command, enumerate_command, mana_command, optimize_command
from .parser import DEFAULT_TIMEOUT, build_parser
from .scaffold import new_command, schema_command

__all__ = ["main", "DEFAULT_TIMEOUT"]


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "validate":
            return validate_command(args.paths)
        if args.command == "enumerate":
            return enumerate_command(args)
        if args.command == "check":
            return check_command(args)
        if args.command == "optimize":
            return optimize_command(args)
        if args.command == "batch":
            return batch_command(args)
        if args.command == "mana":
            return mana_command(args)
        if args.command == "report":
            return report_command(args)
        if args.command == "generate":
            return generate_command(args)
        if args.command == "card":
            return card_command(" ".join(args.name), args.json)
        if args.command == "cards":
            return coverage_command(args.family, args.json)
        if args.command == "schema":
            return schema_command()
        if args.command == "new":
            return new_command(args)
        if args.command == "peer":
            return peer_command(args)
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
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
