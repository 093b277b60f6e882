"""Shared fixtures: paths that work from a fresh clone, a slow-test gate (--runslow), and the
one import name ``mtg_outcomes`` read from this checkout."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "cases"
# the installed distribution's one package, as pyproject's package-dir maps it
SOURCE_DIRS = {"mtg_outcomes": ROOT / "solver", "mtg_outcomes.model": ROOT / "model"}


class _Checkout(importlib.abc.MetaPathFinder):
    """``mtg_outcomes`` (solver/) and ``mtg_outcomes.model`` (model/) from this checkout, first:
    the tests test the files beside them, installed or not (an editable install elsewhere, or
    none: ``PYTHONPATH=. pytest``). Their submodules are found in them as usual."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        where = SOURCE_DIRS.get(fullname)
        if where is None:
            return None
        return importlib.util.spec_from_file_location(fullname, where / "__init__.py",
                                                      submodule_search_locations=[str(where)])


if not any(isinstance(f, _Checkout) for f in sys.meta_path):
    sys.meta_path.insert(0, _Checkout())


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="run slow tests too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
