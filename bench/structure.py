"""Structure measures of the source (issue #47 "One rule, two forms"), printed as a table.

``python bench/structure.py [ROOT] [--list]`` reads ROOT/solver and ROOT/model (default: this
checkout) with ``ast`` and prints, per measure, one figure (``--list`` adds what is counted):

- **import cycles**: strongly connected components of more than one module in the graph of the
  project's own modules, where an edge is any import that runs: at module level (also inside
  ``try``/``if``), and inside functions; imports under ``if TYPE_CHECKING:`` are not counted (they
  never run). A name imported from a package that is a module (``from . import x``) is that module.
- **in-function imports (own)**: import statements inside a function body that load one of the
  project's own modules; **(other)**: the same for other libraries (the heavy optional ones).
- **Any**: uses of the name ``Any`` (``Any`` or ``typing.Any``) in the code, its import excluded,
  per package (a package's own modules, not its subpackages'); quoted annotations are read too.
- **string kind/status comparisons**: a comparison (``==``, ``!=``, ``in``, ``not in``) of a string
  literal (or a tuple/list/set of them) with an expression naming a kind or a status: a name or
  attribute whose last part is ``kind``/``status`` or ends in ``_kind``/``_status`` (``d.kind``,
  ``status``, ``effect_kind``), a subscript ``x[0]`` by an integer literal (a tagged tuple read by
  position, ``task[0] == "block"``), or ``x["kind"]``/``x["status"]``; and a ``match`` on such an
  expression with a string-literal ``case``. **(all)** counts every comparison with a string literal.
- **largest functions**: ``def`` spans (first to last line, nested functions inside their outer
  one and also on their own), the ten largest; **over 80 lines**: how many spans exceed 80.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("model", "solver")
LIMIT = 80
KIND_NAMES = ("kind", "status")


def modules(root: Path) -> dict[str, Path]:
    """Every module's dotted name as the source folders name it (``solver.cp.search``)."""
    out = {}
    for pkg in PACKAGES:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def source_name(name: str) -> str:
    """An import name as the source folders name it: solver/ installs as ``mtg_outcomes``."""
    if name == "mtg_outcomes.model" or name.startswith("mtg_outcomes.model."):
        return name.removeprefix("mtg_outcomes.")
    if name == "mtg_outcomes" or name.startswith("mtg_outcomes."):
        return "solver" + name.removeprefix("mtg_outcomes")
    return name


@dataclass
class Import:
    """One import statement's targets, where it sits."""

    module: str
    targets: list[str]
    in_function: bool
    line: int


@dataclass
class Measures:
    edges: set[tuple[str, str]] = field(default_factory=set)
    fn_imports_own: list[Import] = field(default_factory=list)
    fn_imports_other: list[Import] = field(default_factory=list)
    any_uses: Counter[str] = field(default_factory=Counter)
    kind_compares: list[str] = field(default_factory=list)
    str_compares: int = 0
    functions: list[tuple[int, str]] = field(default_factory=list)


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, in_function: bool = False) -> Iterator[tuple[ast.AST, bool]]:
    """Every node with whether it sits inside a function; ``if TYPE_CHECKING:`` bodies skipped."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child):
            for sub in child.orelse:
                yield sub, in_function
                yield from _walk(sub, in_function)
            continue
        yield child, in_function
        inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        yield from _walk(child, inner)


def _targets(mods: dict[str, Path], module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [source_name(a.name) for a in node.names]
    if not node.level:
        base = source_name(node.module or "")
    else:
        here = module.split(".") if mods[module].name == "__init__.py" else module.split(".")[:-1]
        here = here[: len(here) - (node.level - 1)]
        base = ".".join(here + ([node.module] if node.module else []))
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]


def _own(mods: dict[str, Path], name: str) -> str | None:
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def _names_kind(node: ast.expr) -> bool:
    """Whether an expression names a kind or a status (the docstring's definition)."""
    if isinstance(node, ast.Name | ast.Attribute):
        last = node.id if isinstance(node, ast.Name) else node.attr
        return last in KIND_NAMES or last.endswith(tuple(f"_{k}" for k in KIND_NAMES))
    if isinstance(node, ast.Subscript):
        index = node.slice
        if isinstance(index, ast.Constant):
            return (isinstance(index.value, int) and not isinstance(index.value, bool)) or (
                index.value in KIND_NAMES
            )
    return False


def _str_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(_str_literal(e) for e in node.elts)
    return False


def _pattern_has_str(pattern: ast.pattern) -> bool:
    if isinstance(pattern, ast.MatchValue):
        return _str_literal(pattern.value)
    if isinstance(pattern, ast.MatchOr):
        return any(_pattern_has_str(p) for p in pattern.patterns)
    return False


def _any_in_string(node: ast.Constant) -> int:
    """``Any`` in a quoted annotation."""
    try:
        tree = ast.parse(str(node.value), mode="eval")
    except SyntaxError:
        return 0
    return sum(isinstance(n, ast.Name) and n.id == "Any" for n in ast.walk(tree))


def _annotations(tree: ast.AST) -> Iterator[ast.expr]:
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            yield node.annotation
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            yield node.returns


def measure(root: Path) -> Measures:
    mods = modules(root)
    m = Measures()
    for module, path in mods.items():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        rel = path.relative_to(root)
        for node, in_function in _walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                targets = _targets(mods, module, node)
                own = [o for t in targets if (o := _own(mods, t)) is not None]
                for o in own:
                    if o != module:
                        m.edges.add((module, o))
                if in_function:
                    imp = Import(module, targets, in_function, node.lineno)
                    (m.fn_imports_own if own else m.fn_imports_other).append(imp)
            elif isinstance(node, ast.Name) and node.id == "Any":
                m.any_uses[package] += 1
            elif isinstance(node, ast.Attribute) and node.attr == "Any":
                m.any_uses[package] += 1
            elif isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                if any(_str_literal(o) for o in operands):
                    m.str_compares += 1
                    if any(_names_kind(o) for o in operands if not _str_literal(o)):
                        m.kind_compares.append(f"{rel}:{node.lineno}")
            elif isinstance(node, ast.Match) and _names_kind(node.subject):
                for case in node.cases:
                    if _pattern_has_str(case.pattern):
                        m.kind_compares.append(f"{rel}:{case.pattern.lineno}")
                        m.str_compares += 1
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                span = (node.end_lineno or node.lineno) - node.lineno + 1
                m.functions.append((span, f"{rel}:{node.lineno} {node.name}"))
        for ann in _annotations(tree):
            for n in ast.walk(ann):
                if isinstance(n, ast.Constant) and isinstance(n.value, str):
                    m.any_uses[package] += _any_in_string(n)
    return m


def cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    graph: dict[str, list[str]] = {}
    for a, b in sorted(edges):
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            succ = graph[node]
            if i < len(succ):
                work.append((node, i + 1))
                nxt = succ[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out, key=lambda c: (-len(c), c))


def report(m: Measures, detail: bool) -> list[str]:
    comps = cycles(m.edges)
    largest = sorted(m.functions, key=lambda f: (-f[0], f[1]))
    rows = [
        ("import cycles (in-function imports counted)", str(len(comps))),
        ("modules in those cycles", str(sum(len(c) for c in comps))),
        ("in-function imports, own modules", str(len(m.fn_imports_own))),
        ("in-function imports, other libraries", str(len(m.fn_imports_other))),
        ("`Any` uses, total", str(sum(m.any_uses.values()))),
        *((f"`Any` in {pkg}", str(n)) for pkg, n in sorted(m.any_uses.items())),
        ("string kind/status comparisons", str(len(m.kind_compares))),
        ("string-literal comparisons (all)", str(m.str_compares)),
        ("largest function (lines)", str(largest[0][0]) if largest else "0"),
        (f"functions over {LIMIT} lines", str(sum(s > LIMIT for s, _ in largest))),
        *((f"top {i + 1}: {name}", str(span)) for i, (span, name) in enumerate(largest[:10])),
    ]
    width = max(len(r[0]) for r in rows)
    out = [f"| {'measure':<{width}} | value |", f"|{'-' * (width + 2)}|-------|"]
    out += [f"| {k:<{width}} | {v:>5} |" for k, v in rows]
    if detail:
        out.append("")
        out += [f"cycle: {' '.join(c)}" for c in comps]
        out += [f"in-function own import: {i.module}:{i.line} {i.targets}" for i in m.fn_imports_own]
        out += [f"in-function other import: {i.module}:{i.line} {i.targets}" for i in m.fn_imports_other]
        out += [f"kind/status comparison: {k}" for k in m.kind_compares]
        out += [f"over {LIMIT}: {name} {span}" for span, name in largest if span > LIMIT]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=ROOT, help="a checkout (default: this one)")
    parser.add_argument("--list", action="store_true", help="list what each measure counts")
    args = parser.parse_args(argv)
    print("\n".join(report(measure(args.root), args.list)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
