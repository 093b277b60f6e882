"""The templates: one entry per Oracle-text template, each citing the rule it relies on.

A template is a regular expression over a whole normalised line (reminder text removed, the card
naming itself written ``~``, see :func:`model.recognise.normalise`) and a builder that returns the
abilities in the case-file vocabulary. Phrases shared by many templates (who is dealt damage, what
an activation costs, a one-shot action) are small tables below; a phrase not in them makes the
template not match, so the line is "not understood" rather than read loosely.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..subtypes import subtype_of

__all__ = ["TEMPLATES", "Template", "template", "Ctx", "Built", "N", "TARGETS", "EACH", "WHO", "WHO_TARGET", "WORDS",
           "number", "mana_cost", "cost", "recipient", "one_shot"]

Ctx = Mapping[str, Any]
Built = tuple[list[Any], list[str]]  # abilities, keywords


@dataclass(frozen=True)
class Template:
    name: str
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str], Ctx], Built | None]
    rule: str
    doc: str
    module: str = ""  # the family module that registered it (templates.FAMILY_MODULES orders them)


TEMPLATES: list[Template] = []


def template(name: str, pattern: str, rule: str) -> Callable[[Callable[[re.Match[str], Ctx], Built | None]], Any]:
    """Register a template: ``pattern`` must match the whole normalised line (case-insensitive);
    the builder may still refuse (return None) when a phrase isn't in the tables."""
    def register(fn: Callable[[re.Match[str], Ctx], Built | None]) -> Callable[[re.Match[str], Ctx], Built | None]:
        TEMPLATES.append(Template(name, re.compile(rf"^{pattern}$", re.IGNORECASE), fn, rule, (fn.__doc__ or "").strip(),
                                  fn.__module__.rsplit(".", 1)[-1]))
        return fn
    return register


# --- shared phrases -----------------------------------------------------------------------------

N = r"(?P<n>\d+|X)"
# "target ..." phrases: the activated/spell ability's target requirement (CR 115.1, 601.2c)
TARGETS: dict[str, Any] = {
    "any target": "any",
    "target player": "player",
    "target opponent": "opponent",
    "target creature": "creature",
    "target planeswalker": "planeswalker",
    "target creature or player": ["creatures", "each player"],
    "target player or planeswalker": ["each player", "planeswalkers"],
    "target opponent or planeswalker": ["opponents", "planeswalkers"],
    "target creature or planeswalker": ["creatures", "planeswalkers"],
    "target creature or planeswalker an opponent controls": ["creatures an opponent controls", "planeswalkers an opponent controls"],
    "target creature or planeswalker you don't control": ["creatures you don't control", "planeswalkers you don't control"],
    "target creature an opponent controls": "creatures an opponent controls",
    "target creature you don't control": "creatures you don't control",
    "target creature you control": "creatures you control",
    # target filters (115.1): in combat (506.4), with a keyword
    "target attacking or blocking creature": {"types": ["creature"], "in_combat": ["attacking", "blocking"]},
    "target attacking creature": {"types": ["creature"], "in_combat": ["attacking"]},
    "target blocking creature": {"types": ["creature"], "in_combat": ["blocking"]},
    "target creature with flying": {"types": ["creature"], "with": ["flying"]},
    "target artifact creature": {"types": ["artifact", "creature"]},
    "target creature without flying": {"types": ["creature"], "without": "flying"},
    "target attacking creature without flying": {"types": ["creature"], "in_combat": ["attacking"], "without": "flying"},
}
# "each ..." phrases and other fixed recipients: a selector, no target (CR 115.10: "each" doesn't target)
EACH: dict[str, Any] = {
    "itself": "self",  # "~ deals 1 damage to itself" (Stuffy Doll): the source is also the recipient (120.1)
    "the chosen player": "chosen",  # chosen as it entered (614.12, 607.2: "As ~ enters, choose a player.")
    "each opponent": "opponents",
    "each player": "each player",
    "you": "you",
    "each creature": "creatures",
    "each other creature": "other creatures",
    "each creature you control": "creatures you control",
    "each other creature you control": "other creatures you control",
    "each creature your opponents control": "creatures an opponent controls",
    "each creature an opponent controls": "creatures an opponent controls",
    "each creature you don't control": "creatures you don't control",
    "each planeswalker": "planeswalkers",
    "each creature without flying": {"types": ["creature"], "without": "flying"},
    "each creature with flying": {"types": ["creature"], "with": ["flying"]},
    "each attacking creature": {"types": ["creature"], "in_combat": ["attacking"]},
    "each blocking creature": {"types": ["creature"], "in_combat": ["blocking"]},
    "each attacking or blocking creature": {"types": ["creature"], "in_combat": ["attacking", "blocking"]},
    "each creature and each player": ["creatures", "each player"],
    "each creature and each opponent": ["creatures", "opponents"],
    "each player and each creature": ["each player", "creatures"],
    "each opponent and each creature your opponents control": ["opponents", "creatures an opponent controls"],
    "each opponent and each creature they control": ["opponents", "creatures an opponent controls"],
    "each opponent and each creature and planeswalker they control": ["opponents", "creatures an opponent controls",
                                                                      "planeswalkers an opponent controls"],
    "each opponent and each planeswalker they control": ["opponents", "planeswalkers an opponent controls"],
    "each creature and planeswalker your opponents control": ["creatures an opponent controls", "planeswalkers an opponent controls"],
    "each creature and planeswalker an opponent controls": ["creatures an opponent controls", "planeswalkers an opponent controls"],
    "each creature without flying and each player": ["each player", {"types": ["creature"], "without": "flying"}],
    "each creature with flying and each player": ["each player", {"types": ["creature"], "with": ["flying"]}],
    "each creature and each planeswalker": ["creatures", "planeswalkers"],
    "each creature and planeswalker": ["creatures", "planeswalkers"],
    # the controller of the ability's permanent target (damage.action_parts checks there is one)
    "that creature's controller": "target's controller", "that land's controller": "target's controller",
    "that permanent's controller": "target's controller", "that artifact's controller": "target's controller",
}
# what "destroy target ..." may destroy (701.8a): permanents of these types (the creature and
# planeswalker phrases read as the targets of any other action do)
_DESTROY_TARGETS: dict[str, Any] = {k: TARGETS[k] for k in (
    "target creature",
    "target planeswalker",
    "target creature or planeswalker",
    "target creature or planeswalker an opponent controls",
    "target creature or planeswalker you don't control",
    "target creature you control",
    "target creature an opponent controls",
    "target creature you don't control",
    "target creature with flying",
    "target attacking creature",
    "target attacking or blocking creature",
)} | {
    "target artifact": "artifact",
    "target enchantment": "enchantment",
    "target land": "land",
    "target artifact or enchantment": ["artifacts", "enchantments"],
    "target artifact or creature": ["artifacts", "creatures"],
    "target nonbasic land": "nonbasic lands",
    "target nonbasic land an opponent controls": "nonbasic lands an opponent controls",
    "target artifact an opponent controls": "artifacts an opponent controls",
    "target artifact or enchantment an opponent controls": ["artifacts an opponent controls", "enchantments an opponent controls"],
}
# the controller of the ability's one permanent target (damage._controller_named checks there is one)
_ITS_CONTROLLER = r"(?:its|that (?:creature|land|artifact|enchantment|permanent|planeswalker)'s) controller"
WHO = {"you": "you", "each opponent": "opponents", "each player": "each player",
       "target player": "target", "target opponent": "target"}
WHO_TARGET = {"target player": "player", "target opponent": "opponent"}
WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fifteen": 15, "twenty": 20}


def number(raw: str) -> Any:
    raw = raw.strip().lower()
    if raw == "x":
        return "X"
    if raw.isdigit():
        return int(raw)
    return WORDS.get(raw)


_COST_PART = re.compile(r"^(\{[^}]+\})+$")


def mana_cost(text: str) -> list[Any] | None:
    """A mana ability's cost: as :func:`cost`, without counters (the vocabulary's mana abilities
    pay {T}, {Q}, mana and life)."""
    c = cost(text)
    # (a loyalty ability is never a mana ability, 605.1a)
    return None if c is None or any(isinstance(p, dict) and ("remove_counters" in p or "loyalty" in p
                                                             or p.get("sacrifice", "self") != "self")
                                    for p in c) else c


_SACRIFICED = {"sacrifice a creature": "creatures", "sacrifice another creature": "other creatures",
               "sacrifice an artifact": "artifacts", "sacrifice a land": "lands",
               "sacrifice a goblin": "goblin permanents", "sacrifice a forest": "forest permanents",
               "sacrifice a desert": "desert permanents", "sacrifice a food": "food permanents",
               "sacrifice a zombie": "zombie permanents", "sacrifice a goblin creature": "goblin creatures",
               "sacrifice an artifact or creature": ["artifacts", "creatures"],
               "sacrifice another creature or artifact": ["other creatures", "other artifacts"],
               "sacrifice another creature or an artifact": ["other creatures", "artifacts"]}


def cost(text: str) -> list[Any] | None:
    """An activated ability's cost (CR 602.1a): {T} (107.5), {Q} (107.6), mana symbols (107.4),
    "Pay N life" (119.4), "Sacrifice ~" (701.21a), "Remove a +1/+1 counter from ~" (122);
    anything else: None."""
    out: list[Any] = []
    for part in [p.strip() for p in text.split(",")]:
        low = part.lower()
        if _COST_PART.match(part):
            for sym in re.findall(r"\{([^}]+)\}", part):
                s = sym.upper()
                if s in ("T", "Q"):
                    out.append(s)
                elif re.fullmatch(r"\d+|[WUBRGCXS]|[WUBRG2]/[WUBRGP]", s):
                    out.append(int(s) if s.isdigit() else s)
                else:
                    return None
        elif m := re.fullmatch(r"pay (\d+) life", low):
            out.append({"pay_life": int(m.group(1))})
        elif m := re.fullmatch(r"pay ((?:\{e\})+)", low):  # "Pay {E}{E}": energy counters (107.14)
            out.append({"pay_energy": m.group(1).count("{e}")})
        elif (m := re.fullmatch(r"pay (one|two|three|four|five|six|seven|eight|\d+) \{e\}", low)) and number(m.group(1)):
            out.append({"pay_energy": number(m.group(1))})
        elif low == "sacrifice ~":
            out.append({"sacrifice": "self"})
        elif low in _SACRIFICED:  # "Sacrifice a creature" (701.21a): one of yours, chosen as it is paid
            out.append({"sacrifice": _SACRIFICED[low]})
        elif m := re.fullmatch(r"\[([+\u2212-]?)(\d+|x)\]", low):
            # a loyalty symbol (606.4): [+N] puts on, [\u2212N] / [\u2212X] removes loyalty counters
            sign = -1 if m.group(1) in ("\u2212", "-") else 1
            if m.group(2) == "x":
                if sign > 0:
                    return None
                out.append({"loyalty": "-X"})
            else:
                out.append({"loyalty": sign * int(m.group(2))})
        elif m := re.fullmatch(r"remove (a|one|two|three|\d+) \+1/\+1 counters? from ~", low):
            out.append({"remove_counters": {"+1/+1": number(m.group(1))}})
        else:
            return None
    return out


_COLOR = r"(?:white|blue|black|red|green)"


def target_filter(low: str) -> Any | None:
    """A target phrase the tables above don't list, read with the selector vocabulary's colours
    and subtypes (115.1, 105.2, 205.3): "target red creature", "target white or blue creature"
    (either colour), "target Wizard creature", "target Wall", "target Equipment"; else None."""
    if m := re.fullmatch(rf"target ({_COLOR}(?: or {_COLOR})?) (creature|planeswalker|permanent)", low):
        return {"types": [m.group(2)], "colors": m.group(1).split(" or ")}
    if (m := re.fullmatch(r"target ([a-z'-]+) creature", low)) and (sub := subtype_of(m.group(1))) is not None:
        return {"types": ["creature"], "subtypes": [sub.capitalize()]}
    if (m := re.fullmatch(r"target ([a-z'-]+)", low)) and (sub := subtype_of(m.group(1))) is not None:
        return {"types": ["permanent"], "subtypes": [sub.capitalize()]}
    return None


def recipient(phrase: str) -> tuple[Any, Any] | None:
    """(``to:`` of the deal, the ``target:`` requirement or None) for "any target", "each opponent"..."""
    low = phrase.lower().strip()
    if low in TARGETS:
        return "target", TARGETS[low]
    if (found := target_filter(low)) is not None:
        return "target", found
    if low in EACH:
        return EACH[low], None
    return None


def one_shot(phrase: str, allow_target: bool, that_much: bool = False) -> tuple[dict[str, Any], Any] | None:
    """A one-shot action of the vocabulary (``deal``, ``gain_life``, ``lose_life``, ``draw``,
    ``put_counters``) and its target requirement: "you gain 3 life" (CR 119.3), "each opponent
    loses 2 life" (119.3), "draw a card" (121.1), "~ deals 3 damage to any target" (120.1), "put a
    +1/+1 counter on ~" (122.1); "you may ..." is the same
    action made optional (its controller's choice, 603.5). ``that_much``: in a trigger on damage,
    "you gain that much life" / "draw that many cards" read the damage dealt."""
    low = phrase.strip().lower()
    if (m := re.fullmatch(r"(you may have (?:~|it) fight|(?:~|it) fights) (target creature[a-z' ]*)", low)) and allow_target:
        # 701.14a: "~ fights target creature you don't control" (the permanent the ability is of
        # fights its target); "you may have it fight ..." is the same made optional (603.5)
        req = TARGETS.get(m.group(2))
        if req is None or (req != "creature" and "creature" not in str(req)):
            return None
        return ({"may": {"fight": "target"}} if m.group(1).startswith("you may") else {"fight": "target"}), req
    if low.startswith("you may "):
        rest = low[len("you may "):]
        inner = one_shot(rest if rest.startswith(("draw ", "have ")) else "you " + rest, allow_target, that_much)
        if inner is None or inner[1] is not None:
            return None
        return {"may": inner[0]}, None
    if that_much and low in ("you gain that much life", "draw that many cards", "you draw that many cards"):
        return ({"gain_life": "damage_dealt", "who": "you"} if "life" in low else {"draw": "damage_dealt", "who": "you"}), None
    if " for each " in low:  # "you gain 1 life for each creature you control" (608.2h)
        from .amounts import for_each  # (it reads this module's tables)

        if (counted := for_each(low, allow_target, that_much)) is not None:
            return counted
    if " equal to " in low or ", where x is " in low:  # amounts read from the game (608.2h)
        from .amounts import deal_equal_to  # (it reads this module's tables)

        if (read := deal_equal_to(low, allow_target)) is not None:
            return read
        from .spellcosts import sacrificed_amount  # "the sacrificed creature's power" (608.2h)

        if (read := sacrificed_amount(low, allow_target)) is not None:
            return read
    if m := re.fullmatch(r"(?:~|it) deals (\d+|x|that much) damage to (.+)", low):
        # "that much" in a trigger on damage: the damage dealt (Brash Taunter, Mogg Maniac)
        if m.group(1) == "that much" and not that_much:
            return None
        amount = "damage_dealt" if m.group(1) == "that much" else number(m.group(1))
        rec = recipient(m.group(2))
        if rec is None or (rec[1] is not None and not allow_target and rec[1] != "any"):
            return None
        to, req = rec
        if not allow_target and req == "any":
            return {"deal": amount, "to": "any"}, None
        return {"deal": amount, "to": to}, req
    if m := re.fullmatch(rf"(you|each opponent|each player|target player|target opponent|{_ITS_CONTROLLER}) "
                         r"(gain|gains|lose|loses) (\d+|x) life", low):
        who, verb = m.group(1), m.group(2)
        if (verb in ("gain", "lose")) != (who == "you"):
            return None
        if re.fullmatch(_ITS_CONTROLLER, who):
            # "Destroy target creature. Its controller loses 2 life." (608.2h: the target's
            # controller as it last existed; the caller checks there is one permanent target)
            kind = "gain_life" if verb.startswith("gain") else "lose_life"
            return {kind: number(m.group(3)), "who": "target's controller"}, None
        if who in WHO_TARGET and not allow_target:
            return None
        kind = "gain_life" if verb.startswith("gain") else "lose_life"
        return {kind: number(m.group(3)), "who": WHO[who]}, WHO_TARGET.get(who)
    if (m := re.fullmatch(r"(target player|target opponent)'s life total becomes (\d+)", low)) and allow_target:
        return {"set_life": int(m.group(2)), "who": "target"}, WHO_TARGET[m.group(1)]  # 119.5 (Sorin Markov)
    if m := re.fullmatch(r"each opponent loses life equal to the life that player lost this turn", low):
        return {"lose_life": "life_lost_this_turn", "who": "opponents"}, None
    if m := re.fullmatch(r"put (a|an|one|two|three|four|\d+|x) (\+1/\+1|-1/-1) counters? on (~|it|target creature"
                         r"|target creature you control|target creature an opponent controls|target creature you don't control"
                         r"|each creature you control|each other creature you control|each creature)", low):
        # "put a +1/+1 counter on ~" (122.1); "it" is the object the ability is of; "each creature
        # you control": every one there as it resolves (no target, 115.10)
        n, kind, who = number(m.group(1)), m.group(2), m.group(3)
        if who.startswith("each "):
            return {"put_counters": {kind: n}, "to": EACH[who]}, None
        if who.startswith("target "):
            return ({"put_counters": {kind: n}, "to": "target"}, TARGETS[who]) if allow_target else None
        return {"put_counters": {kind: n}, "to": "self"}, None
    if m := re.fullmatch(r"you get ((?:\{e\})+)", low):
        return {"get_energy": m.group(1).count("{e}"), "who": "you"}, None  # energy counters (107.14)
    if low == "you become the monarch":
        return {"become_monarch": "you"}, None  # 724.3
    if low in ("target player becomes the monarch", "target opponent becomes the monarch"):
        return ({"become_monarch": "target"}, WHO_TARGET[low[: -len(" becomes the monarch")]]) if allow_target else None
    if that_much and low == "you get that many {e}":
        return {"get_energy": "damage_dealt", "who": "you"}, None
    if low in ("investigate", "you investigate", "investigate twice"):
        # 701.16a: "Investigate" means "Create a Clue token" (111.10f)
        return {"create_tokens": 2 if low.endswith("twice") else 1, "token": "Clue"}, None
    if that_much and low == "investigate that many times":
        return {"create_tokens": "damage_dealt", "token": "Clue"}, None
    if low.startswith(("create ", "you create ")):
        from .tokens import create_phrase  # (it reads this module's numbers)

        return create_phrase(low, that_much)  # "create a Food token", "create two 1/1 white Soldier creature tokens" (111.1)
    if low in ("untap ~", "untap it"):
        return {"untap": "self"}, None  # 701.26b
    if low in ("sacrifice ~", "sacrifice it"):
        # "sacrifice ~" (701.21a); "it" is the object the ability is of
        return {"sacrifice": "self"}, None
    if low.startswith(("destroy all ", "exile all ")):
        from .sweepers import destroy_all  # "destroy all creatures" (701.8a, 115.10)

        if (swept := destroy_all(low)) is not None:
            return swept  # (other groups, "with power 4 or greater": model.recognise.loyalty, below)
    if m := re.fullmatch(r"(destroy|exile|tap|untap) (target [a-z ]+)", low) or \
            re.fullmatch(r"(return) (target [a-z ]+) to its owner's hand", low):
        # "destroy target creature" (701.8a), "exile target creature" (it leaves the battlefield,
        # 400.7), "return target creature to its owner's hand", "tap target creature" (701.26a)
        req = _DESTROY_TARGETS.get(m.group(2))
        if req is None:
            req = target_filter(m.group(2))
        kind = {"return": "return_to_hand"}.get(m.group(1), m.group(1))
        return ({kind: "target"}, req) if req is not None and allow_target else None
    if m := re.fullmatch(r"(target player|each player|each opponent|you) (mills?) (a|[a-z]+|\d+|x) cards?", low):
        # 701.17a: libraries and graveyards aren't tracked, so it changes nothing computed here; it
        # stays an instruction (a loyalty ability that mills still has its cost and its target)
        n, who = number(m.group(3)), m.group(1)
        if n is None or (who == "target player" and not allow_target) or (who == "you") != (m.group(2) == "mill"):
            return None
        return {"mill": n, "who": WHO[who]}, WHO_TARGET.get(who)
    if m := re.fullmatch(r"(each player|each opponent) draws (a|one|two|three|four|\d+|x) cards?", low):
        return {"draw": number(m.group(2)), "who": WHO[m.group(1)]}, None  # 121.1
    if m := re.fullmatch(r"(you draw|draw|target player draws) (a|one|two|three|four|\d+|x) cards?", low):
        if m.group(1) == "target player draws":
            if not allow_target:
                return None
            return {"draw": number(m.group(2)), "who": "target"}, "player"
        return {"draw": number(m.group(2)), "who": "you"}, None
    from .loyalty import more_one_shot  # (it reads this module's tables)

    return more_one_shot(low, allow_target)


def spell_or_activated(ctx: Ctx, cost_text: str | None, effect: dict[str, Any], req: Any,
                       spell: bool = True) -> Built | None:
    """The ability a sentence's ``effect`` belongs to: activated when the line has a cost (602.1),
    a spell's when the card is an instant or sorcery (608.2) and ``spell`` allows it, else none."""
    if cost_text is not None:
        c = cost(cost_text)
        if c is None:
            return None
        ab: dict[str, Any] = {"activated": effect}
        if c:
            ab["cost"] = c
    elif spell and {"instant", "sorcery"} & set(ctx["types"]):
        ab = {"spell": effect}
    else:
        return None
    if req is not None:
        ab["target"] = req
    return [ab], []
