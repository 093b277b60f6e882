"""What the CP model can hold: its integers are CP-SAT's, 64-bit, and sums of domains must fit
too, so amounts past :data:`MAX_VALUE` are refused (engine="auto" leaves them to the graph)."""

from __future__ import annotations

from mtg_outcomes.model.errors import EngineError

__all__ = ["MAX_VALUE", "ModelTooLarge", "fits"]


MAX_VALUE = 2 ** 40  # the largest amount the model holds: CP-SAT's domains and their sums are 64-bit


class ModelTooLarge(EngineError):
    """An amount past :data:`MAX_VALUE` (x2 doublings of a large amount): the CP model can't
    hold it; engine="auto" leaves the case to the graph, whose integers have no bound."""


def fits(bound: int) -> None:
    """Raise :class:`ModelTooLarge` when ``bound`` is past :data:`MAX_VALUE`."""
    if bound > MAX_VALUE:
        raise ModelTooLarge(f"an amount of up to {bound:,} damage or life is more than the CP model holds "
                            f"({MAX_VALUE:,}: CP-SAT's integers are 64-bit)")
