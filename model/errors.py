"""One exception tree for the whole tool; the CLI maps it to exit codes (0 ok, 1 failed, 2 bad input)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MtgOutcomesError", "CaseError", "CaseErrors", "CaseWarning", "EngineError"]


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
        where = f"{self.path}: " if self.path else ""
        prefix = f"{self.file}: " if self.file else ""
        return f"{prefix}{where}{self.reason}"


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
        where = f"{self.path}: " if self.path else ""
        prefix = f"{self.file}: " if self.file else ""
        return f"{prefix}{where}warning: {self.reason}"


class EngineError(MtgOutcomesError):
    """A situation the chosen engine cannot handle (for example a step the CP model can't express)."""
