"""One exception tree for the whole tool; the CLI maps it to exit codes (0 ok, 1 failed, 2 bad input)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

__all__ = ["MtgOutcomesError", "CaseError", "CaseErrors", "CaseWarning", "EngineError", "printable"]

# control, format (U+202E RIGHT-TO-LEFT OVERRIDE and the other bidi controls), line and paragraph
# separators, surrogates, private use and unassigned code points
_HIDDEN = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"))


def printable(text: str) -> str:
    """``text`` with every character that could hide or reorder what a terminal shows escaped
    (``\\u202e``): a field path or file name from a case file is shown as written, not obeyed."""
    if text.isascii() and text.isprintable():
        return text
    out = []
    for ch in text:
        if unicodedata.category(ch) in _HIDDEN:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


class MtgOutcomesError(Exception):
    """Root of every error this package raises on purpose."""


class CaseError(MtgOutcomesError):
    """One problem in a case file, located by its field path (``battlefield[2].power``)."""

    def __init__(self, path: str, reason: str, file: str = "") -> None:
        self.path = path
        self.reason = reason
        self.file = file
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{printable(self.path)}: " if self.path else ""
        prefix = f"{printable(self.file)}: " if self.file else ""
        return f"{prefix}{where}{printable(self.reason)}"


class CaseErrors(MtgOutcomesError):
    """Every problem found in one file; each is one line of the report."""

    def __init__(self, errors: list[CaseError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


@dataclass(frozen=True)
class CaseWarning:
    """Something a valid case file says that this tool accepts but doesn't act on (a keyword
    without effect here). ``validate`` prints it as ``file: path: warning: reason``; it is not an
    error (exit 0)."""

    path: str
    reason: str
    file: str = ""

    def __str__(self) -> str:
        where = f"{printable(self.path)}: " if self.path else ""
        prefix = f"{printable(self.file)}: " if self.file else ""
        return f"{prefix}{where}warning: {printable(self.reason)}"


class EngineError(MtgOutcomesError):
    """A situation the chosen engine cannot handle (for example a step the CP model can't express)."""
