"""Reading and validating case files: YAML -> :class:`~model.types.Case`.

Two passes: a pydantic schema checks the shape (unknown keys, types, ranges) and gives each error
its field path (:mod:`.schema`); then the vocabulary parsers and the cross-reference checks (dangling
ids, a blocker that isn't a creature, Two-Headed Giant teams) run with the same kind of path
(:mod:`.entities`, :mod:`.actions`, :mod:`.checks`). Every problem of a file is collected, so
``validate`` reports them all, one line each.
"""

from .build import load_case, parse_case
from .fields import check_choosers, check_fields, field_problem
from .schema import EFFECT_FIELDS, PERMANENT_FIELDS, PLAYER_FIELDS, TEAM_FIELDS

__all__ = ["load_case", "parse_case", "field_problem", "check_fields", "check_choosers", "PLAYER_FIELDS", "PERMANENT_FIELDS", "EFFECT_FIELDS", "TEAM_FIELDS"]
