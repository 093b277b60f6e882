"""Regeneration (CR 701.19): "{1}{B}: Regenerate ~." — an activated ability (or a spell) that
creates a regeneration shield, ``{regenerate: true, to: self}`` (701.19a, 614.8)."""

from __future__ import annotations

import re

from .base import Built, Ctx, spell_or_activated, template

# the permanent regenerated: the card itself, or the ability's target (601.2c)
_WHO = {"~": ("self", None), "target creature": ("target", "creature")}


@template("regenerate", r"(?:(?P<cost>[^:]+): )?regenerate (?P<who>~|target creature)\.", "CR 701.19a, 614.8, 602.1")
def _regenerate(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{B}: Regenerate ~." / "Pay 2 life: Regenerate ~.": the next time it would be destroyed
    this turn, instead all damage is removed from it, it is tapped and removed from combat."""
    to, req = _WHO[m.group("who").lower()]
    return spell_or_activated(ctx, m.group("cost"), {"regenerate": True, "to": to}, req)
