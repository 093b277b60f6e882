"""Players, permanents, sources and created effects: the vocabulary of what is on the table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..carddata import MissingFace, UnknownCard, real_card
from ..cards import lookup_card
from ..errors import CaseWarning
from ..keywords import KEYWORDS, NO_EFFECT, known_keywords_text
from ..kinds import AbilityKind
from ..selectors import COLORS, TYPES
from ..types import (
    Ability,
    CreatedEffect,
    PermanentSpec,
    PlayerSpec,
    SourceSpec,
    with_pt_counters,
)
from ..vocab import counter_problem, parse_ability, parse_effect
from .core import _Core
from .hands import hand_lines
from .schema import _ID_RE, CHOOSE, NO_ONE, PermanentModel, SourceModel, _describe


class _Entities(_Core):
    """Players, permanents (real cards by name included), sources and created effects."""

    def players(self) -> tuple[PlayerSpec, ...]:
        m = self.m
        out: list[PlayerSpec] = []
        seen: set[str] = set()
        two_hg = m.format == "two-headed-giant"
        for i, p in enumerate(self.player_models):
            if p is None:
                continue
            if p.name in seen:
                self.err(f"players[{i}].name", f"duplicate player name {p.name!r}")
            seen.add(p.name)
            team = None if p.team is None else str(p.team)
            if two_hg and team is None:
                self.err(f"players[{i}].team", "Two-Headed Giant players need a team")
            life = p.life if p.life is not None else (30 if two_hg else 20)
            # a case starts where a player could get priority, so state-based actions have been
            # checked (704.3): a player can't be there at 0 or less life or with lethal poison
            if life <= 0:
                # unless an effect says they don't lose for it (checked once permanents are read)
                self.zero_life.append((i, p.name, team, life))
            limit = 15 if two_hg else 10  # 704.6b, 704.5c
            if p.poison >= limit:
                # unless an effect says they can't lose the game (checked once permanents are read)
                self.lethal_poison.append((i, p.name, team, p.poison, limit))
            if p.monarch and any(o.monarch for o in out):
                self.err(f"players[{i}].monarch", "only one player can be the monarch (CR 724.3)")
            out.append(PlayerSpec(p.name, life, team, p.life_lost_this_turn, p.life_gained_this_turn, p.poison,
                                  p.energy, p.monarch, p.starting_life, p.hand))
        if two_hg and len(out) == len(m.players):  # (with a broken player the teams can't be counted)
            teams: dict[str, list[int]] = {}
            for i, spec in enumerate(out):
                if spec.team is not None:
                    teams.setdefault(spec.team, []).append(i)
            if len(teams) != 2:
                self.err("players", f"Two-Headed Giant needs exactly two teams, got {len(teams)}")
            for team, members in teams.items():
                if len(members) != 2:
                    self.err(f"players[{members[-1]}].team", f"team {team} has {len(members)} players; a Two-Headed Giant team has two")
                else:
                    lives = {out[j].life for j in members}
                    if len(lives) > 1:
                        self.err(f"players[{members[1]}].life", f"team {team} shares one life total; its players disagree ({sorted(lives)})")
                    poisons = {out[j].poison for j in members}
                    if len(poisons) > 1:  # 810.10: the team shares its poison counters
                        self.err(f"players[{members[1]}].poison", f"team {team} shares its poison counters (810.10); its players disagree ({sorted(poisons)})")
        return tuple(out)

    def _characteristics(self, entry: PermanentModel | SourceModel, path: str, entering: bool = False) -> dict[str, Any] | None:
        base: dict[str, Any] = {}
        if entry.card is not None:
            card = lookup_card(entry.card)
            if card is None:
                ok, real = self._real_card(entry, path, entering)
                if not ok:
                    return None
                base = {"name": entry.card} if real is None else dict(real)
            else:
                base = dict(card)
                if entry.abilities is None:
                    self._omitted(base, path)
        elif entry.name is None:
            self.err(path, "needs card: (from the library) or name: with its characteristics")
            return None
        for key in ("name", "types", "subtypes", "colors", "keywords", "power", "toughness", "abilities"):
            val = getattr(entry, key, None)
            if val is not None:
                base[key] = val
        for key in ("supertypes", "loyalty", "defense"):
            val = getattr(entry, key, None)
            if val is not None:
                base[key] = val
        return base

    def _omitted(self, card: Mapping[str, Any], path: str) -> None:
        """A library card's lines the vocabulary can't state yet (its ``omits:``) are said, one
        warning each, wherever a case names the card without giving its ``abilities:``: the tool
        answers as if the line weren't there, so the user must know (never a silent partial card)."""
        for item in card.get("omits") or ():
            self.warnings.append(("", CaseWarning(f"{path}.card", f"{card['name']}: {item['text']!r} is not modelled "
                                                  f"({item['why']}); give abilities: to state the card yourself")))

    def _real_card(self, entry: PermanentModel | SourceModel, path: str, entering: bool) -> tuple[bool, Mapping[str, Any] | None]:
        """A card the hand-written library doesn't have, from the card data (model/carddata):
        its characteristics, and abilities from the recogniser unless the case gives
        ``abilities:`` (an override). A line of its text the recogniser doesn't understand is an
        error naming it (never a silent partial card). (True, None): not a real card, but the case
        gives characteristics (an ad hoc card); (False, None): an error was reported.
        ``entering``: the permanent enters during the actions, so text about entering ("enters
        tapped") counts as not understood too."""
        name = str(entry.card)
        try:
            real = real_card(name)
        except MissingFace as exc:
            self.err(f"{path}.card", str(exc))
            return False, None
        except UnknownCard as exc:
            if entry.types is None and entry.abilities is None and entry.power is None:
                self.err(f"{path}.card", f"unknown card {name!r}: not in the card library or the card data ({exc}); "
                         "give its characteristics (name, types, power, toughness, abilities)")
                return False, None
            return True, None
        ok = True
        if entry.abilities is None:
            for line in (real.reading.not_understood_entering() if entering else real.reading.not_understood):
                when = " as it enters" if line.on_entering else ""
                self.err(f"{path}.card", f"{real.name}: not understood{when}: {line.text!r}; give abilities: to override")
                ok = False
        if entry.abilities is None:
            self.block_rules.extend((f"{path}.card", real.name, line.text) for line in real.reading.block_rules)
            self.hand_rules.extend((f"{path}.card", real.name, text) for text in hand_lines(real.reading))
        if real.lacking:
            # the named face is the object here (709.3, 712.8a, 715.4); the face the data lacks is said
            self.warnings.append(("", CaseWarning(f"{path}.card", f"{real.name}: the card data lacks the text of its "
                                                  f"other face {' and '.join(map(repr, real.lacking))}; only {real.name!r} "
                                                  "is read (give that face by hand where it matters)")))
        for key, reason in real.unknown.items():
            if getattr(entry, key, None) is None:
                self.err(f"{path}.card", reason)
                ok = False
        return ok, (dict(real.base) if ok else None)

    def _keyword(self, kw: Any, path: str, written: bool) -> tuple[str, int] | None:
        """One keyword ability (CR 702): its word, and N for toxic N (702.164). ``written``: the
        case file names it (not the library card), so a keyword without effect here is warned of."""
        if not isinstance(kw, str):
            self.err(path, f"expected a keyword such as lifelink, got {_describe(kw)}")
            return None
        word = " ".join(kw.lower().split())
        toxic = 0
        if word.split(" ")[0] == "toxic":
            rest = word[5:].strip()
            if not rest.isdigit() or int(rest) < 1:
                self.err(path, "toxic needs a number: 'toxic 2'")
                return None
            toxic, word = int(rest), "toxic"
        elif word not in KEYWORDS:
            self.err(path, f"unknown keyword {kw!r} ({known_keywords_text()})")
            return None
        if written and word in NO_EFFECT:
            self.warnings.append((word, CaseWarning(path, f"{word!r} has no effect in this tool; {NO_EFFECT[word]}")))
        return word, toxic

    def _keywords_and_abilities(self, ch: Mapping[str, Any], e: PermanentModel | SourceModel,
                                path: str) -> tuple[tuple[str, ...], int, tuple[Ability, ...]]:
        """``keywords:`` and ``abilities:`` together: a keyword written as a plain string among the
        abilities is that keyword (702.1: keywords are abilities), as in ``keywords:``; it keeps
        its place in the abilities (an ``ability: N`` index is the file's own)."""
        found: list[tuple[str, int]] = []
        for j, kw in enumerate(ch.get("keywords") or []):
            one = self._keyword(kw, f"{path}.keywords[{j}]", e.keywords is not None)
            if one is not None:
                found.append(one)
        abilities = []
        for j, ab in enumerate(ch.get("abilities") or []):
            q = f"{path}.abilities[{j}]"
            if isinstance(ab, str):
                one = self._keyword(ab, q, e.abilities is not None)
                if one is not None:
                    found.append(one)
                    abilities.append(Ability(AbilityKind.KEYWORD, text=one[0]))
                continue
            parsed = self.guard(parse_ability, ab, q)
            if parsed is not None:
                abilities.append(parsed)
        kws = tuple(sorted({word for word, _ in found}))
        return kws, sum(n for _, n in found), tuple(abilities)

    def _types(self, raw: list[str], path: str) -> tuple[str, ...]:
        return self._known_words(raw, path, TYPES, "card type")

    def _colors(self, raw: list[str], path: str) -> tuple[str, ...]:
        return self._known_words(raw, path, COLORS, "colour")

    def _known_words(self, raw: list[str], path: str, known: Any, what: str) -> tuple[str, ...]:
        """``raw`` in lower case, each word not in ``known`` reported at its index."""
        out = []
        for j, word in enumerate(raw):
            low = str(word).lower()
            if low not in known:
                self.err(f"{path}[{j}]", f"unknown {what} {word!r}")
            out.append(low)
        return tuple(out)

    def _number(self, ch: Mapping[str, Any], e: PermanentModel | SourceModel, path: str, key: str) -> int:
        """Power, toughness, loyalty or defense: a whole number, not negative (the printed value;
        counters are given under counters:). A library card's value is reported at ``card:``."""
        value = ch.get(key)
        where = f"{path}.{key}" if getattr(e, key, None) is not None else f"{path}.card"
        if value is None:
            return 0
        if isinstance(value, bool) or not isinstance(value, int):
            self.err(where, f"{key} must be a whole number, got {_describe(value)}")
            return 0
        if value < 0:
            self.err(where, f"{key} must not be negative (got {value}): it is the printed value; counters go under counters:")
            return 0
        return value

    def _protector(self, e: PermanentModel, path: str, types: tuple[str, ...]) -> str | None:
        """A battle's protector (310.5): ``protector:``, else its controller (a battle written under
        its protector); the cross-reference checks read who it may be (a Siege's, 310.8a)."""
        if "battle" not in types:
            if e.protector is not None:
                self.err(f"{path}.protector", "only a battle has a protector (CR 310.5)")
            return None
        return e.protector or e.controller

    def _creature_state(self, e: PermanentModel, path: str, toughness: int, indestructible: bool) -> None:
        """A creature on the battlefield at the start is past state-based actions (704.3): its
        toughness with counters is above 0 (704.5f) and, unless indestructible, its marked damage
        is below that toughness (704.5g)."""
        counters = dict(e.counters)
        total = with_pt_counters(toughness, lambda kind: counters.get(kind, 0))
        if total <= 0:
            reason = f"a creature with toughness {total} would already be in its owner's graveyard (CR 704.5f)"
            if "-1/-1" in counters:
                self.err(f"{path}.counters", reason)
            elif e.toughness is not None or e.card is not None:
                self.err(f"{path}.toughness" if e.toughness is not None else f"{path}.card", reason)
            else:
                self.err(path, f"{reason}; give its toughness:")
        elif e.damage >= total and not indestructible:
            self.err(f"{path}.damage", f"{e.damage} damage is lethal for toughness {total}: the creature would already "
                     "have been destroyed (CR 704.5g)")

    def permanent(self, e: PermanentModel, path: str, initial: bool = False) -> PermanentSpec | None:
        """A permanent; ``initial``: one on the battlefield when the case starts (past state-based
        actions), not one entering during the actions."""
        ch = self._characteristics(e, path, entering=not initial)
        if ch is None:
            return None
        kws, toxic, abilities = self._keywords_and_abilities(ch, e, path)
        types = self._types(list(ch.get("types") or []), f"{path}.types")
        if not types:
            types = ("creature",) if ("power" in ch or "toughness" in ch) else ()
        if not types:
            self.err(f"{path}.types", "a permanent needs types (e.g. [creature]) or a library card")
        for t in types:
            if t in ("instant", "sorcery"):
                self.err(f"{path}.types", f"an {t} can't be a permanent on the battlefield; put it under sources:")
        blocking: tuple[str, ...] = ()
        choose_block = e.blocking == CHOOSE  # its block is chosen when blockers are declared (509.1a)
        if e.blocking is not None and not choose_block:
            blocking = (e.blocking,) if isinstance(e.blocking, str) else tuple(e.blocking)
            if CHOOSE in blocking:
                self.err(f"{path}.blocking[{blocking.index(CHOOSE)}]", "choose stands alone: blocking: choose "
                         "(the creature's block is chosen); a list names the attackers it blocks")
        reads_color = any(getattr(ab, "kind", "") == AbilityKind.MANA and ab.mana == ("chosen_color",) for ab in abilities)
        if reads_color and e.chosen_color is None:
            self.err(f"{path}.chosen_color", "required: the colour chosen as it entered (\"As this enters, choose a "
                     "color\", CR 614.1c), which its mana ability adds: white, blue, black, red or green")
        elif e.chosen_color is not None and not reads_color:
            self.err(f"{path}.chosen_color", "nothing of this permanent reads a chosen colour (a mana ability "
                     "{mana: chosen_color} does)")
        chosen = self._chosen(e, path, abilities, initial)
        for kind in e.counters:
            if (why := counter_problem(kind)) is not None:
                self.err(f"{path}.counters.{kind}", why)
        bad = len(self.errors)
        power, toughness, loyalty, defense = (self._number(ch, e, path, k) for k in ("power", "toughness", "loyalty", "defense"))
        if initial and "creature" in types and len(self.errors) == bad:
            self._creature_state(e, path, toughness, "indestructible" in kws)
        return PermanentSpec(
            id=e.id, name=str(ch.get("name", e.id)), controller=e.controller, owner=e.owner or e.controller,
            types=types, subtypes=tuple(ch.get("subtypes") or ()), supertypes=tuple(str(s).lower() for s in ch.get("supertypes") or ()),
            colors=self._colors(list(ch.get("colors") or []), f"{path}.colors"),
            power=power, toughness=toughness, loyalty=loyalty, defense=defense,
            keywords=kws, toxic=toxic, abilities=abilities, attacking=e.attacking, blocking=blocking,
            damage=e.damage, counters=tuple(sorted(e.counters.items())), tapped=e.tapped,
            summoning_sick=e.summoning_sick, monstrous=e.monstrous, attached_to=e.attached_to, chosen=chosen, choose_block=choose_block,
            dealt_damage_by=tuple(dict.fromkeys(e.dealt_damage_by)),
            chosen_color=e.chosen_color, protector=self._protector(e, path, types),
        )

    def _chosen(self, e: PermanentModel, path: str, abilities: Any, initial: bool) -> str | None:
        """The player chosen as it entered (614.12, read as "the chosen player", 607.2). On the
        battlefield already, a permanent whose text makes that choice must say it: ``chosen: P``,
        or ``chosen: none`` when it chose no one (it became a copy after it entered: the Guardian
        Archon rulings); left out, "the chosen player" would name no one, silently. One that
        enters during the case makes the choice then (left out: its controller's choice)."""
        chooses = any(getattr(ab, "kind", "") == AbilityKind.AS_ENTERS for ab in abilities)
        if e.chosen == NO_ONE:
            if not (initial and chooses):
                self.err(f"{path}.chosen", "none is for a permanent on the battlefield whose text chooses a player "
                         "as it enters (CR 614.12) and that chose no one")
            return None
        if e.chosen is None and initial and chooses:
            self.err(f"{path}.chosen", "required: the player it chose as it entered (CR 614.12), which \"the chosen "
                     "player\" reads (607.2); chosen: none if it chose no one (it became a copy after it entered)")
        return e.chosen

    def source(self, e: SourceModel, path: str) -> SourceSpec | None:
        ch = self._characteristics(e, path)
        if ch is None:
            return None
        kws, toxic, abilities = self._keywords_and_abilities(ch, e, path)
        return SourceSpec(
            id=e.id, name=str(ch.get("name", e.id)), controller=e.controller, owner=e.owner or e.controller,
            types=self._types(list(ch.get("types") or []), f"{path}.types"),
            subtypes=tuple(ch.get("subtypes") or ()),
            colors=self._colors(list(ch.get("colors") or []), f"{path}.colors"),
            keywords=kws, toxic=toxic, power=self._number(ch, e, path, "power"), toughness=self._number(ch, e, path, "toughness"),
            abilities=abilities,
        )

    def created_effect(self, raw: Any, path: str, default_id: str, controller: str | None = None) -> CreatedEffect | None:
        if not isinstance(raw, Mapping):
            self.err(path, "expected a mapping (an effect)")
            return None
        eid = raw.get("id", default_id)
        ctrl = raw.get("controller", controller)
        src = raw.get("source")
        target = raw.get("target")
        ok = True
        if not isinstance(eid, str) or not _ID_RE.match(eid):
            self.err(f"{path}.id", "expected an id (letters, digits, - and _)")
            ok = False
        if ctrl is None:
            self.err(path, "an effect needs controller:")
            ok = False
        elif not isinstance(ctrl, str):
            self.err(f"{path}.controller", "expected a player name")
            ok = False
        for key, value in (("source", src), ("target", target)):
            if value is not None and not isinstance(value, str):
                self.err(f"{path}.{key}", f"expected the id of the effect's {key} (a permanent, source or player), got {_describe(value)}")
                ok = False
        body = {k: v for k, v in raw.items() if k not in ("id", "controller", "source", "target")}
        spec = self.guard(parse_effect, body, path)
        if spec is None or not ok:
            return None
        return CreatedEffect(eid, spec, ctrl, src, target)
