"""mtg-outcomes solver: what can HAPPEN in a situation (rules semantics, choice graph, CP model)."""

from model import Case, load_case

from .api import Result, enumerate_outcomes

__all__ = ["Case", "Result", "enumerate_outcomes", "load_case"]
