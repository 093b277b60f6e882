"""The layout the design promises (docs/design.md; issue "One rules core"), checked on the source:
``model`` never imports ``solver``, only ``solver.cp`` imports OR-Tools, no cycle among the
modules' top-level imports (an import inside a function is a deliberate lazy load), and no
module past 500 lines."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

from .conftest import ROOT

MAX_LINES = 500


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in ("model", "solver"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _source(name: str) -> str:
    """An import name as the source folders name it: installed, solver/ is ``mtg_outcomes`` and
    model/ is ``mtg_outcomes.model`` (pyproject's package-dir)."""
    if name == "mtg_outcomes.model" or name.startswith("mtg_outcomes.model."):
        return name.removeprefix("mtg_outcomes.")
    if name == "mtg_outcomes" or name.startswith("mtg_outcomes."):
        return "solver" + name.removeprefix("mtg_outcomes")
    return name


def _imported(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The names an import statement loads, resolved to absolute module paths."""
    if isinstance(node, ast.Import):
        yield from (_source(a.name) for a in node.names)
        return
    if not node.level:
        target = _source(node.module or "")
    else:
        here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        here = here[: len(here) - (node.level - 1)]
        target = ".".join(here + ([node.module] if node.module else []))
    for alias in node.names:
        yield f"{target}.{alias.name}" if f"{target}.{alias.name}" in MODULES else target


def _imports(module: str, top_level_only: bool) -> Iterator[str]:
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield from _imported(module, path, node)


def _own(name: str) -> str | None:
    """The project module ``name`` loads (a name inside a module counts as the module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def test_the_module_list_is_read() -> None:
    assert "solver.cp.search" in MODULES and "model.types" in MODULES and len(MODULES) > 100


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("model")])
def test_model_never_imports_solver(module: str) -> None:
    """What a situation is never depends on what can happen (docs/design.md)."""
    assert not [n for n in _imports(module, top_level_only=False) if n.split(".")[0] == "solver"]


def test_only_the_cp_package_imports_ortools() -> None:
    users = {m for m in MODULES for n in _imports(m, top_level_only=False) if n.split(".")[0] == "ortools"}
    assert users and all(m.startswith("solver.cp") for m in users), sorted(users)


def test_no_cycle_among_top_level_imports() -> None:
    graph = nx.DiGraph()
    for module in MODULES:
        for name in _imports(module, top_level_only=True):
            own = _own(name)
            if own is not None and own != module:
                graph.add_edge(module, own)
    assert graph.number_of_edges() > 200
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not cycles, cycles


@pytest.mark.parametrize("module", list(MODULES))
def test_no_module_past_the_limit(module: str) -> None:
    """Small modules, each one concept: past 500 lines a module is split by concern."""
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{MODULES[module].relative_to(ROOT)}: {lines} lines"
