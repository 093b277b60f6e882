"""Batch runs: many cases in parallel, results appended to a JSON-lines file as each case ends.

``analyze(path, mode, timeout)`` is the pure per-case function. :func:`run_batch` runs it over many
files in a warm pool of worker processes, each with its own pipe, fed guided chunks of cases. On
Linux the workers are forked from the (still single-threaded) parent, so they start with everything
the CLI already imported; elsewhere, or once the parent has threads, they come from a forkserver or
``spawn``. The per-case timeout is *hard*: the solve gets its own ``timeout`` and, should it not come
back in time, the worker is terminated, the case is recorded as ``TIMEOUT`` and a fresh worker takes
its place. Every finished case is appended and flushed at once, so an interrupted run (Ctrl-C,
``kill -9``) resumes with the same ``--out``: cases already recorded with the same content hash (and
mode) are skipped, and a torn last line is dropped. Each line is deterministic apart from ``seconds``.

A failed line says why in ``failure``: ``input`` (the case file is bad) and ``analysis`` (the
analysis raised) are deterministic and stand on resume; ``died`` (the worker was killed by a
signal, ran out of memory or exited without a result) depends on the machine, not the case, and is
retried on resume; ``timeout`` records its limit in ``timeout`` and is retried only with a longer one.
"""

from ..outputs import OutputError, check_output, check_output_dir, lock_output
from .generate import generate_cases
from .output import load_done, write_csv
from .records import FAILED, MODES, PASSED, analyze, content_hash, failed
from .run import print_summary, run_batch, summary_lines, tally_line

__all__ = ["MODES", "analyze", "content_hash", "load_done", "run_batch", "write_csv", "generate_cases",
           "summary_lines", "tally_line", "failed", "check_output", "check_output_dir", "lock_output", "OutputError", "FAILED", "PASSED", "print_summary"]
