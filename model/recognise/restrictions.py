"""Restrictions on attacks and blocks (CR 508.1c-d, 509.1b-c): nothing to compute while the case
writes who attacks and who blocks (attacking:/blocking:), so they are ignored with
:data:`.ignores.BLOCKS_AS_WRITTEN` as their reason; a case that lets blocks be chosen (509.1)
refuses a card with one (model.load reads that reason), so none is dropped silently. Registered
into :mod:`.ignores`' table as this module is imported (model.recognise.templates imports it)."""

from __future__ import annotations

import re

from .ignores import BLOCKS_AS_WRITTEN, IGNORES

_WHO = r"(?:~|enchanted creature|equipped creature)"
_RESTRICTIONS = re.compile(
    rf"^(?:{_WHO} can't be blocked by (?:creatures with power \d+ or (?:less|greater)|more than one creature|walls|"
    r"[a-z]+ creatures|creatures with flying|tokens|artifact creatures)"
    rf"|{_WHO} can't attack or block alone|{_WHO} can't attack alone|{_WHO} can't block alone"
    rf"|{_WHO} can't attack(?: or block)?|{_WHO} can block only creatures with flying"
    rf"|{_WHO} can block any number of creatures|{_WHO} can block an additional creature each combat"
    rf"|{_WHO} (?:attacks|blocks|attacks or blocks) each (?:combat|turn) if able"
    rf"|{_WHO} can't be blocked except by (?:two|three) or more creatures"
    r"|creatures with power less than ~'s power can't block it"
    rf"|{_WHO} must be blocked (?:each combat )?if able"
    rf"|{_WHO} can't block creatures with power greater than ~'s power)\.$", re.IGNORECASE)

IGNORES.append((_RESTRICTIONS, BLOCKS_AS_WRITTEN))
