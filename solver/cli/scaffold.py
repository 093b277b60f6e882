"""``mtg-outcomes schema`` (the case file's JSON Schema) and ``mtg-outcomes new`` (a first case
written from real cards' names, commented, checked by the loader before it is written)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from mtg_outcomes.model.carddata import MissingFace, UnknownCard, find
from mtg_outcomes.model.cards import lookup_card
from mtg_outcomes.model.errors import CaseErrors
from mtg_outcomes.model.load import parse_case
from mtg_outcomes.model.load.case_schema import case_json_schema

__all__ = ["schema_command", "new_command", "scaffold"]


class ScaffoldError(ValueError):
    """A name or option ``new`` can't honour: one line, exit 2."""


def schema_command() -> int:
    print(json.dumps(case_json_schema(), indent=2))
    return 0


def _names(text: str) -> list[str]:
    """Comma-separated names; a name with commas of its own ("Gisela, Blade of Goldnight") is
    read whole where the pieces joined name a card (the longest such join)."""
    parts = [n.strip() for n in text.split(",") if n.strip()]
    names, i = [], 0
    while i < len(parts):
        j = next((j for j in range(len(parts), i + 1, -1) if _known(", ".join(parts[i:j]))), i + 1)
        names.append(", ".join(parts[i:j]))
        i = j
    return names


def _known(name: str) -> bool:
    if lookup_card(name) is not None:
        return True
    try:
        find(name)
    except (UnknownCard, MissingFace):
        return False
    return True


def _card(name: str, flag: str) -> tuple[str, tuple[str, ...]]:
    """The card's name as the data spells it and its types; unknown: the closest names."""
    library = lookup_card(name)
    if library is not None:
        return str(library["name"]), tuple(str(t).lower() for t in library.get("types") or ())
    try:
        found = find(name)
    except (UnknownCard, MissingFace) as exc:
        raise ScaffoldError(f"{flag}: {exc}") from None
    face: Mapping[str, Any] = found.face if found.by_face else found.card["faces"][0]
    return str(face["name"]), tuple(str(t).lower() for t in face.get("types") or ())


def _id(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "card"
    ident, n = base, 2
    while ident in taken:
        ident, n = f"{base}-{n}", n + 1
    taken.add(ident)
    return ident


def _flow(entry: Mapping[str, str]) -> str:
    """One YAML flow mapping, each value quoted only where YAML needs it."""
    return "{" + ", ".join(f"{k}: {_scalar(v)}" for k, v in entry.items()) + "}"


_PLAIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 '._-]*$")


def _scalar(value: str) -> str:
    """Plain where a flow mapping allows it, else double-quoted (a JSON string is YAML)."""
    plain = _PLAIN.match(value) and yaml.safe_load(value) == value
    return value if plain else json.dumps(value, ensure_ascii=False)


def scaffold(attackers: list[str], blockers: list[str], casts: list[str], players: list[str],
             life: int, choose_blocks: bool, case_id: str = "new-case") -> str:
    """The case file's text (raises :class:`ScaffoldError` for an unknown name or a non-creature)."""
    if len(players) != 2 or len(set(players)) != 2:
        raise ScaffoldError(f"--players: expected two different names, got {', '.join(players) or 'none'}")
    if not attackers:
        raise ScaffoldError("--attackers: name at least one creature (comma-separated)")
    att, dfn = players
    taken = set(players)
    lines = [f"# A case written by mtg-outcomes new: the creatures of {att} attack {dfn}. Edit it, then run",
             "#   mtg-outcomes enumerate THIS_FILE      (every outcome, each with one way to get it)",
             "# and write what the rules say into expect: below.",
             "# Editors: mtg-outcomes schema > case.schema.json, then make the first line",
             "#   # yaml-language-server: $schema=case.schema.json",
             f"id: {_id(case_id, set())}",
             "title: \"\"  # what the case asks, in one line",
             "source: \"\"  # the rules and rulings the expectation is derived from (CR numbers)",
             "players:  # the first is the active player (CR 102.1)",
             *(f"  - {{name: {_scalar(p)}, life: {life}}}" for p in players),
             "battlefield:  # real cards by name (card:); their Oracle text is read from the card data"]
    for flag, names, side in (("--attackers", attackers, att), ("--blockers", blockers, dfn)):
        for name in names:
            real, types = _card(name, flag)
            if "creature" not in types:
                raise ScaffoldError(f"{flag}: {real} is not a creature (its types: {', '.join(types) or 'none'})")
            entry = {"id": _id(real, taken), "card": real, "controller": side}
            if side == att:
                entry["attacking"] = dfn
            lines.append(f"  - {_flow(entry)}")
    lines.append("actions:  # the timeline, in order")
    for name in casts:
        real, types = _card(name, "--cast")
        if not {"instant", "sorcery"} & set(types):
            raise ScaffoldError(f"--cast: {real} is not an instant or sorcery (its types: {', '.join(types) or 'none'})")
        entry = {"card": real, "controller": dfn}
        lines.append(f"  - cast: {_flow(entry)}  # no target:/modes: given: every legal choice is enumerated (601.2b-c)")
    if choose_blocks:
        lines.append("  - combat: {blocks: choose}  # the defending player chooses every block (CR 509.1)")
    else:
        lines.append("  - combat: {}  # no blocks; write blocking: <attacker id> on a blocker to fix one (CR 509.1)")
    lines += [f"# objective:  # optimize: the best choices for {dfn}",
              f"#   {_scalar(dfn)}: [maximize {dfn}.life]",
              "# expect:  # check: the outcomes the rules allow, derived by hand",
              "#   complete: true",
              "#   outcomes:",
              f"#     - {{{dfn}.life: 20}}", ""]
    return "\n".join(lines)


def new_command(args: argparse.Namespace) -> int:
    """Write the case (exit 0); an unknown name, a name of the wrong kind or an existing file
    without --force: one line, exit 2. The text is loaded before it is written."""
    path = Path(args.file)
    try:
        if path.exists() and not args.force:
            raise ScaffoldError(f"{path} exists; give --force to overwrite it")
        text = scaffold(_names(args.attackers), _names(args.blockers), _names(args.cast),
                        _names(args.players), args.life, args.blocks == "choose", path.stem)
        try:
            parse_case(yaml.safe_load(text), str(path))
        except CaseErrors as exc:
            raise ScaffoldError(f"the case these cards make doesn't load: {exc.errors[0]}") from None
        path.write_text(text, encoding="utf-8")
    except ScaffoldError as exc:
        print(f"mtg-outcomes: new: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"mtg-outcomes: new: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {path}: now run  mtg-outcomes enumerate {path}")
    return 0
