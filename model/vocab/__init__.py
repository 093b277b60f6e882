"""The generic effect vocabulary: effects, riders, one-shot actions, abilities and triggers.

Each parser takes the YAML value and its field path and raises :class:`CaseError` at the exact
path of the first problem, so ``validate`` can say ``battlefield[2].abilities[0].prevent: ...``.
"""

from __future__ import annotations

from .abilities import parse_ability
from .actions import parse_one_shot
from .common import (
    EFFECT_FILTERS,
    ONE_SHOT_KINDS,
    PERMANENT_SHOTS,
    TRIGGERS,
    action_amount,
    amount,
    counter_problem,
    mana_type,
    sel,
)
from .effects import parse_effect

__all__ = ["EFFECT_FILTERS", "ONE_SHOT_KINDS", "PERMANENT_SHOTS", "TRIGGERS", "action_amount", "amount", "counter_problem", "mana_type",
           "parse_ability", "parse_effect", "parse_one_shot", "sel"]
