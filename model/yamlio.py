"""Safe, bounded YAML reading: a case file is untrusted input.

Bounds: file size (checked with a bounded read; directories, FIFOs, devices and sockets are refused
before anything is read, so nothing can hang or fill memory), number of aliases (a "billion laughs" alias bomb is refused before it
expands), nesting depth and node count. Duplicate mapping keys are errors, not silent overwrites.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from .errors import CaseError

__all__ = ["read_yaml", "read_bounded", "load_text", "MAX_BYTES"]

MAX_BYTES = 1_000_000
MAX_ALIASES = 200
MAX_NODES = 200_000
MAX_DEPTH = 64
MAX_DIGITS = 100  # an integer in a case file has at most this many digits (the fields bound their values further)


# libyaml's C parser when PyYAML was built with it (about 10x faster), else the pure-Python one
_BaseLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _check_bounds(text: str) -> None:
    """Refuse an alias bomb, a huge or a too deeply nested document from its parse events, before
    anything is composed or constructed (the bounds hold for the C and the Python parser alike)."""
    aliases = nodes = depth = 0
    for event in yaml.parse(text, Loader=_BaseLoader):
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise CaseError("", f"too many YAML aliases (more than {MAX_ALIASES}); alias bombs are refused")
        if isinstance(event, yaml.AliasEvent | yaml.ScalarEvent | yaml.CollectionStartEvent):
            nodes += 1
            if nodes > MAX_NODES:
                raise CaseError("", f"document too large (more than {MAX_NODES} YAML nodes)")
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise CaseError("", f"document nested too deeply (more than {MAX_DEPTH} levels)")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


class _BoundedLoader(_BaseLoader):
    """The safe loader, rejecting duplicate keys (the bounds are checked by :func:`_check_bounds`)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # merge keys (<<: *anchor) may be overridden by explicit keys
            key = self.construct_object(key_node, deep=deep)
            try:
                hash(key)
            except TypeError:
                raise CaseError("", f"line {key_node.start_mark.line + 1}: a mapping key must be a scalar") from None
            if key in seen:
                raise CaseError("", f"line {key_node.start_mark.line + 1}: duplicate key {key!r}")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"


def _number_problem(text: str, tag: str) -> str | None:
    """Why the scalar ``text`` that YAML 1.1 reads as a number (``tag``) is refused, or None.

    Integers are written in base 10 only: YAML 1.1 would read ``1:20`` as 80 (base 60), ``0x1F``
    as 31, ``017`` as 15 and ``0b11`` as 3, silently; and at most :data:`MAX_DIGITS` digits, so a
    4,301-digit number is a line, not Python's digit-limit traceback.
    """
    body = text.strip().lstrip("+-").replace("_", "")
    if ":" in body:
        return (f"{text!r} is a base-60 number in YAML 1.1 (1:20 means 80); write the number in base 10, "
                "or quote it if it is text")
    if tag == _FLOAT:
        return None
    low = body.lower()
    if low.startswith(("0x", "0o", "0b")) or (len(body) > 1 and body.startswith("0")):
        base = {"0x": "a hexadecimal", "0o": "an octal", "0b": "a binary"}.get(low[:2], "an octal (a leading 0)")
        return f"{text!r} is {base} number in YAML 1.1; write integers in base 10"
    if "_" in text:
        return f"{text!r}: write integers without '_' separators"
    if len(body) > MAX_DIGITS:
        return f"an integer of {len(body)} digits; at most {MAX_DIGITS} are accepted"
    return None


def _check_numbers(root: Any) -> None:
    """Refuse, with its field path, a number YAML 1.1 reads in a way a reader wouldn't guess, or a
    huge one (:func:`_number_problem`); every node is looked at once (aliases share nodes)."""
    seen: set[int] = set()
    stack: list[tuple[Any, str]] = [(root, "")]
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag in (_INT, _FLOAT):
                problem = _number_problem(str(node.value), node.tag)
                if problem is not None:
                    where = path or f"line {node.start_mark.line + 1}"
                    raise CaseError(where, problem)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(node.value))
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = str(key.value) if isinstance(key, yaml.ScalarNode) else "?"
                stack.append((key, f"{path}.{name}" if path else name))
                stack.append((value, f"{path}.{name}" if path else name))


def _count_expansion(data: Any, limit: int = MAX_NODES) -> None:
    """Aliases share objects: count the expanded size so a wide alias fan-out is refused too."""
    stack = [data]
    seen = 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > limit:
            raise CaseError("", f"document expands to more than {limit} values (YAML aliases); refused")
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words; ``None`` for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory, not a case file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode):
        return "is a character device, not a regular file"
    if stat.S_ISBLK(mode):
        return "is a block device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def read_bounded(path: str | Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; :class:`CaseError` otherwise.

    The path is ``stat``-ed first, so a directory, FIFO, device or socket is refused without being
    opened; the open itself is non-blocking and checked again with ``fstat`` (the path may have been
    swapped meanwhile), and at most ``limit + 1`` bytes are ever read (``/proc`` files report size 0).
    """
    name = str(path)
    chunks: list[bytes] = []
    try:
        kind = _kind(os.stat(path).st_mode)
        if kind is None:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
            try:
                st = os.fstat(fd)
                kind = _kind(st.st_mode)
                if kind is None and st.st_size > limit:
                    kind = f"file too large ({st.st_size} bytes; the limit is {limit})"
                size = 0
                while kind is None and size <= limit:
                    chunk = os.read(fd, limit + 1 - size)
                    if not chunk:
                        break
                    chunks.append(chunk)
                    size += len(chunk)
                if kind is None and size > limit:
                    kind = f"file too large (more than {limit} bytes; the limit is {limit})"
            finally:
                os.close(fd)
    except OSError as exc:
        raise CaseError("", f"cannot read file: {exc.strerror or exc}", name) from None
    except ValueError as exc:  # e.g. a NUL byte in the path
        raise CaseError("", f"cannot read file: {exc}", name) from None
    if kind is not None:
        raise CaseError("", kind, name)
    return b"".join(chunks)


def _tab_hint(text: str, mark: Any) -> str:
    """A tab in a line's indentation (YAML indents with spaces only, YAML 1.2 6.1): said, with
    the first such line, when the parse failed at or after it (the usual cause)."""
    limit = mark.line if mark is not None else len(text)
    for i, line in enumerate(text.splitlines()[: limit + 1]):
        if "\t" in line[: len(line) - len(line.lstrip(" \t"))]:
            return f" (line {i + 1} is indented with a tab: YAML indents with spaces only)"
    return ""


def read_yaml(path: str | Path) -> Any:
    """Read one YAML document; raise :class:`CaseError` (with the file name) on any problem."""
    name = str(path)
    raw = read_bounded(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CaseError("", f"not UTF-8 text (byte {exc.start})", name) from None
    if not text.strip():
        raise CaseError("", "file is empty", name)
    data = load_text(text, name)
    if data is None:
        raise CaseError("", "file is empty (no YAML content, only comments or blank lines)", name)
    return data


def load_text(text: str, name: str = "") -> Any:
    """One YAML document from ``text`` (a file's, or a command-line value's) under the same bounds
    and number rules as a case file; :class:`CaseError` (with ``name`` as its file) on any problem.
    None for a document with no content."""
    try:
        _check_bounds(text)
        loader = _BoundedLoader(text)
        try:
            node = loader.get_single_node()
            if node is not None:
                _check_numbers(node)
            data = None if node is None else loader.construct_document(node)
        finally:
            loader.dispose()
        if data is not None:
            _count_expansion(data)
    except CaseError as exc:
        exc.file = name
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        what = " ".join(p for p in (exc.context, exc.problem) if p) or str(exc)
        raise CaseError("", _one_line(f"malformed YAML: {where}{what}{_tab_hint(text, mark)}"), name) from None
    except yaml.YAMLError as exc:
        raise CaseError("", _one_line(f"malformed YAML: {exc}"), name) from None
    except RecursionError:
        raise CaseError("", "document nested too deeply", name) from None
    return data
