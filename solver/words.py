"""Words for users: one spelling of values and one label per object, shared by every text output
(enumerate, explain, optimize, check, the report, the ruling paragraph).

Ids are the case file's handles, not what a judge calls a card: an object is named by its card's
name, with its id only where two objects share that name.
"""

from __future__ import annotations

from typing import Any

__all__ = ["value_text"]


def value_text(v: Any) -> str:
    """A field value as every text output prints it (yes/no, [W B])."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, tuple | list):
        return "[" + " ".join(map(str, v)) + "]"
    return str(v)
