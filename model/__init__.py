"""mtg-outcomes model: what a situation IS (pure data and validation; never imports the solver)."""

from .errors import CaseError, CaseErrors, EngineError, MtgOutcomesError
from .load import check_fields, field_problem, load_case, parse_case
from .outcome import Outcome, Witness
from .types import Case

__all__ = [
    "Case", "CaseError", "CaseErrors", "EngineError", "MtgOutcomesError", "Outcome", "Witness",
    "check_fields", "field_problem", "load_case", "parse_case",
]
