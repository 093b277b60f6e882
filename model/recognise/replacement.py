"""Replacement effects and other static abilities: life floors, damage multipliers, hexproof, redirection, enters-with (CR 614)."""

from __future__ import annotations

import re
from typing import Any

from ..kinds import AsEntersChoice
from .base import TARGETS, Built, Ctx, number, spell_or_activated, template
from .prevention import static_to


@template("life_floor", r"(?:if you control an? (?P<what>creature|artifact|enchantment|land|planeswalker), )?damage that would reduce your life total to less than 1 reduces it to 1 instead\.", "CR 614.1a, 120.3")
def _worship(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If you control a creature, damage that would reduce your life total to less than 1 reduces
    it to 1 instead." (Worship), or the same without the condition (Ali from Cairo, Fortune
    Thief): a replacement effect on the life loss from damage (614.1a)."""
    ab: dict[str, Any] = {"life_floor": 1, "to": "you"}
    if m.group("what"):
        ab["if_you_control"] = m.group("what").lower() + "s"
    return [ab], []


_FROM = {"a source": None, "a spell": "spells", "a source you control": "sources you control",
         "a creature you control": "creatures you control",
         "a red source you control": "red sources you control",
         "a source an opponent controls": "sources an opponent controls"}
_THAT = r"(?:that (?:permanent or player|player or permanent|creature|player)|it)"


@template("multiply", rf"if (?P<src>a source(?: you control| an opponent controls)?|a red source you control|a creature you control) would deal (?P<kind>noncombat |combat )?damage to (?P<to>[^,]+), (?:it|that source) deals (?P<k>double|triple) that damage(?: to {_THAT})? instead\.", "CR 614.1a")
def _multiply(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a source would deal damage to a permanent or player, it deals double that damage to
    that permanent or player instead." (Furnace of Rath; Gratuitous Violence's "a creature you
    control"; Solphim's "noncombat damage", 120.2): a replacement effect (614.1a)."""
    ab: dict[str, Any] = {"multiply": 2 if m.group("k").lower() == "double" else 3}
    if m.group("kind"):
        ab["combat"] = m.group("kind").strip().lower() == "combat"
    return _amount_replacement(m, ab)


@template("halve_damage", rf"if (?P<src>a source(?: you control| an opponent controls)?) would deal damage to (?P<to>[^,]+), (?:it|that source) deals half that damage, rounded (?P<r>down|up),(?: to {_THAT})? instead\.", "CR 614.1a")
def _halve(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a source would deal damage to a permanent or player, it deals half that damage, rounded
    down, to that permanent or player instead." (Ghosts of the Innocent): a replacement effect
    (614.1a), not a prevention, so it halves damage that can't be prevented too (615.12)."""
    return _amount_replacement(m, {"halve": m.group("r").lower()})


@template("add_damage", rf"if (?P<src>a source(?: you control)?|a red source you control) would deal damage to (?P<to>[^,]+), it deals that much damage plus (?P<n>\d+)(?: to {_THAT})? instead\.", "CR 614.1a")
def _add(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a red source you control would deal damage to an opponent or a permanent an opponent
    controls, it deals that much damage plus 2 instead." (Torbran): a replacement effect (614.1a)."""
    return _amount_replacement(m, {"add": int(m.group("n"))})


@template("cap_damage", rf"if (?P<src>a source(?: you control| an opponent controls)?) would deal (?P<k>\d+) or more damage to (?P<to>[^,]+), (?:it|that source) deals (?P<n>\d+) damage(?: to {_THAT})? instead\.", "CR 614.1a, 616.1f")
def _cap(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a source would deal 4 or more damage to a permanent or player, that source deals 3
    damage to that permanent or player instead." (Divine Presence): a cap at 3, which applies
    only to damage of more than 3 (solver.amounts.Cap)."""
    n = int(m.group("n"))
    if int(m.group("k")) != n + 1:
        return None  # "4 or more ... deals 2 instead" would leave 3 alone: not a cap
    return _amount_replacement(m, {"cap": n})


@template("subtract_damage", rf"if (?P<src>a source|a spell) would deal damage to (?P<to>[^,]+), it deals that much damage minus (?P<n>\d+)(?: to {_THAT})? instead\.", "CR 614.1a")
def _subtract(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a source would deal damage to a creature you control, it deals that much damage minus 1
    to that creature instead." (Lashknife Barrier; Benevolent Unicorn's "a spell"): a replacement
    effect (614.1a), not a prevention (615.12 doesn't stop it, nothing is "prevented")."""
    return _amount_replacement(m, {"subtract": int(m.group("n"))})


def _amount_replacement(m: re.Match[str], ab: dict[str, Any]) -> Built | None:
    """A damage-amount replacement ``ab`` with the ``from:`` and ``to:`` filters the sentence's
    source and recipient phrases give (or None when a phrase is not one the vocabulary has)."""
    to, src = m.group("to").lower(), m.group("src").lower().strip()
    if static_to(to) == "?" or src not in _FROM:
        return None
    if _FROM[src] is not None:
        ab["from"] = _FROM[src]
    if static_to(to) is not None:
        ab["to"] = static_to(to)
    return [ab], []


@template("cant_gain_life", r"(?P<who>your opponents|players) can't gain life\.", "CR 119.7")
def _cant_gain(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Your opponents can't gain life.": life gain that can't happen doesn't (119.7)."""
    who = "opponents" if m.group("who").lower() == "your opponents" else "each player"
    return [{"cant_gain_life": who}], []


@template("gain_life_replacement", r"if you would gain life, you gain (?:that much life plus (?P<n>\d+)|(?P<k>twice|three times) that much life) instead\.", "CR 614.1a, 119.10, 616.1")
def _gain_more(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If you would gain life, you gain that much life plus 1 instead." (Leyline of Hope, Angel
    of Vitality) and "... twice that much life instead." (Boon Reflection): replacements of a
    life-gain event, which its player orders (616.1, 119.10)."""
    if m.group("n") is not None:
        return [{"gain_life_plus": int(m.group("n")), "to": "you"}], []
    return [{"gain_life_times": 2 if m.group("k").lower() == "twice" else 3, "to": "you"}], []


@template("life_cant_change", r"your life total can't change\.", "CR 119.7, 119.8")
def _life_cant_change(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Your life total can't change." (Platinum Emperion): you can't gain or lose life."""
    return [{"life_cant_change": "you"}], []


@template("no_loss_for_0_life", r"you don't lose the game for having 0 or less life\.", "CR 704.5a")
def _no_loss(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"You don't lose the game for having 0 or less life." (Phyrexian Unlife, Transcendence):
    the exception to the state-based action of 704.5a."""
    return [{"no_loss_for_0_life": "you"}], []


@template("assigns_by_toughness", r"each creature(?P<you> you control)? assigns combat damage equal to its toughness rather than its power\.", "CR 510.1a")
def _by_toughness(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Each creature assigns combat damage equal to its toughness rather than its power."
    (Doran, the Siege Tower; "... you control": Belligerent Brontodon): 510.1a's amount read
    from toughness."""
    return [{"assigns_by_toughness": True, "to": "creatures you control" if m.group("you") else "creatures"}], []


@template("cant_lose_game", r"you can't lose the game(?: and your opponents can't win the game)?\.", "CR 704.5a, 704.5c, 810.8a")
def _cant_lose(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"You can't lose the game and your opponents can't win the game." (Platinum Angel): no
    state-based action makes you lose (704.5a, 704.5c). A player here wins only by being the last
    one left (104.2a), which can't happen while you are in the game, so the second half changes
    nothing a case can show."""
    return [{"cant_lose_game": "you"}], []


@template("as_though_keyword", r"(?:as long as you have (?P<n>\d+) or less life, )?all damage is dealt(?P<you> to you)? as though its source had (?P<kw>infect|wither)\.", "CR 120.3, 702.80, 702.90")
def _as_though(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"All damage is dealt as though its source had wither." (Everlasting Torment) and "As long
    as you have 0 or less life, all damage is dealt to you as though its source had infect."
    (Phyrexian Unlife): the results of damage (120.3) as with the keyword."""
    ab: dict[str, Any] = {"as_though": m.group("kw").lower()}
    if m.group("you"):
        ab["to"] = "you"
    if m.group("n") is not None:
        ab["if_life_at_most"] = int(m.group("n"))
    return [ab], []


@template("cant_be_prevented", r"(?P<combat>combat )?damage(?: that would be dealt by (?P<by>~|creatures you control))? can't be prevented\.", "CR 615.12")
def _cant_prevent(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Damage can't be prevented." (Everlasting Torment), "Combat damage can't be prevented."
    (Frenzied Baloth), "Damage that would be dealt by ~ can't be prevented." (Malignus),
    "... by creatures you control ..." (Questing Beast's third line aside): prevention effects
    don't apply to that damage (615.12)."""
    ab: dict[str, Any] = {"cant_be_prevented": True}
    if m.group("combat"):
        ab["combat"] = True
    if m.group("by"):
        ab["from"] = "self" if m.group("by") == "~" else m.group("by")
    return [ab], []


_HAVE = {"you have": "you", "creatures you control have": "creatures you control",
         "other creatures you control have": "other creatures you control",
         "permanents you control have": "permanents you control",
         "other permanents you control have": "other permanents you control",
         "enchanted creature has": "enchanted creature", "equipped creature has": "equipped creature",
         "you and permanents you control have": ["you", "permanents you control"],
         "you and other permanents you control have": ["you", "other permanents you control"]}


@template("grant_hexproof", r"(?P<who>you have|(?:other )?(?:creatures|permanents) you control have|enchanted creature has|equipped creature has|you and (?:other )?permanents you control have) (?P<kw>hexproof|shroud)\.", "CR 702.11, 702.18")
def _hexproof(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"You have hexproof." / "Creatures you control have hexproof." / "Enchanted creature has
    shroud.": a static effect giving hexproof (702.11) or shroud (702.18): no targeting by
    opponents' (hexproof) or any (shroud) spells and abilities."""
    return [{m.group("kw").lower(): True, "to": _HAVE[m.group("who").lower()]}], []


@template("redirect_to_self", r"all damage that would be dealt to (?P<to>you|you and other creatures you control|you and other permanents you control) is dealt to (?P<who>~|enchanted creature|equipped creature) instead\.", "CR 614.1b, 614.9")
def _redirect(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"All damage that would be dealt to you is dealt to enchanted creature instead." (Pariah),
    "... to equipped creature instead." (Pariah's Shield): a redirection replacement effect
    (614.1b, 614.9)."""
    to = {"you": "you", "you and other creatures you control": ["you", "other creatures you control"],
          "you and other permanents you control": ["you", "other permanents you control"]}[m.group("to").lower()]
    who = "self" if m.group("who") == "~" else m.group("who").lower()
    return [{"redirect": who, "to": to}], []


_REDIRECT_BY = {"artifacts": {"types": ["artifact"]}, "unblocked creatures": {"types": ["creature"], "in_combat": ["unblocked"]}}


@template("redirect_by_to_self", r"(?:(?P<cost>[^:]+): |as long as ~ is (?P<untapped>untapped), )?all (?P<combat>combat )?damage that would be dealt to you by (?P<by>artifacts|unblocked creatures)(?P<turn> this turn)? is dealt to ~ instead\.", "CR 614.1b, 614.9, 509.1h")
def _redirect_by(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"As long as this creature is untapped, all damage that would be dealt to you by artifacts
    is dealt to this creature instead." (Martyrs of Korlis; "by unblocked creatures": Veteran
    Bodyguard, "all combat damage ...": Weathered Bodyguards) and "{T}: All combat damage that would
    be dealt to you by unblocked creatures this turn is dealt to this creature instead." (Kjeldoran
    Royal Guard): a redirection (614.9) of damage from those sources, while the creature is
    untapped, or for the turn once the ability resolves. An unblocked creature is an attacking one
    no creature blocked (509.1h)."""
    cost_text, untapped, turn = m.group("cost"), m.group("untapped"), m.group("turn")
    if (cost_text is None) != (turn is None):  # the turn goes with an activation, and only with it
        return None
    effect: dict[str, Any] = {"redirect": "self", "to": "you", "from": dict(_REDIRECT_BY[m.group("by").lower()])}
    if m.group("combat"):
        effect["combat"] = True
    if cost_text is None:
        if untapped:
            effect["if_untapped"] = True
        return [effect], []
    return spell_or_activated(ctx, cost_text, effect, None, spell=False)


@template("enters_with_x", r"~ enters with X \+1/\+1 counters on it\.", "CR 614.1c, 107.3m")
def _enters_with(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ enters with X +1/+1 counters on it." (Walking Ballista): an enters-with replacement
    (614.1c) using the spell's X (107.3m)."""
    return [{"enters_with": {"+1/+1": "X"}}], []


@template("enters_with_counters", r"~ enters with (?P<n>a|an|one|two|three|four|five|\d+|X) (?P<kind>\+1/\+1|-1/-1) counters? on it\.", "CR 614.1c, 122.6")
def _enters_with_n(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ enters with two +1/+1 counters on it.": an enters-with replacement (614.1c, 122.6);
    a permanent already on the battlefield has its counters in counters:."""
    n = number(m.group("n"))
    return None if n is None else ([{"enters_with": {m.group("kind"): n}}], [])


@template("as_enters_choose_player", r"as ~ enters, (?:secretly )?choose (?P<who>an opponent|a player)\.", "CR 614.12, 607.2")
def _choose_player(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"As ~ enters, choose an opponent." / "... choose a player." (a player may choose
    themselves): a choice made as it enters (614.12), which later text reads as "the chosen
    player" (607.2); on the battlefield already, chosen: gives it."""
    who = AsEntersChoice.OPPONENT if m.group("who").lower() == "an opponent" else AsEntersChoice.PLAYER
    return [{"as_enters": str(who)}], []


@template("protection_from_chosen_player", r"~ has protection from the chosen player\.", "CR 702.16k, 607.2")
def _protection_from_chosen(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ has protection from the chosen player." (True-Name Nemesis): protection from a player
    (702.16k), the one chosen as it entered (607.2, its as-enters choice)."""
    return [{"protection": {"from_player": "chosen"}, "to": "self"}], []


@template("prevent_count_static", r"if a source would deal damage to (?P<to>[^,]+), prevent X of that damage, where X is the number of (?P<what>creatures|artifacts|lands|enchantments) you control\.", "CR 615.1a")
def _prevent_count(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a source would deal damage to equipped creature, prevent X of that damage, where X is
    the number of creatures you control." (Shield of the Avatar): X counted as it applies (615.1a)."""
    to = static_to(m.group("to"))
    if to in ("?", None):
        return None
    return [{"prevent": {"count": f"{m.group('what').lower()} you control"}, "to": to}], []


@template("land_mana_replacement", r"(?P<until>until end of turn, )?if (?:a land is tapped for (?P<two>two or more )?mana|a player taps an? (?P<which>nonbasic )?land for mana), it produces (?:\{(?P<sym>[WUBRGC])\}|(?P<colorless>colorless) mana) instead of any other type(?P<amount> and amount)?\.", "CR 106.12, 614.1a")
def _mana_replacement(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a land is tapped for mana, it produces {B} instead of any other type and amount."
    (Contamination), "... two or more mana ... {C} ..." (Damping Sphere), "Until end of turn, if a
    player taps a nonbasic land for mana, it produces colorless mana instead of any other type."
    (Pale Moon): replacement effects on mana production (106.12, 614.1a)."""
    effect: dict[str, Any] = {"replace_mana": m.group("sym").upper() if m.group("sym") else "C"}
    if m.group("amount"):
        effect["amount"] = 1
    if m.group("two"):
        effect["min_amount"] = 2
    effect["to"] = "nonbasic lands" if m.group("which") else "lands"
    if m.group("until"):
        if not {"instant", "sorcery"} & set(ctx["types"]):
            return None
        return [{"spell": {**effect, "duration": "turn"}}], []
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    return [effect], []


@template("next_time_from_target", r"the next time target creature would deal damage this turn, prevent that damage\.(?P<gain> you gain life equal to the damage prevented this way\.)?", "CR 615.8, 615.5")
def _awe_strike(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"The next time target creature would deal damage this turn, prevent that damage. You gain
    life equal to the damage prevented this way." (Awe Strike): a next-time shield on the
    target's damage (615.8) with a rider on the damage it prevented (615.5)."""
    effect: dict[str, Any] = {"shield": "all", "next_time": True, "from": "target"}
    if m.group("gain"):
        effect["then"] = {"gain_life": "prevented"}
    return spell_or_activated(ctx, None, effect, "creature")


@template("redirect_next_n", r"the next (?P<n>\d+) damage that a source of your choice would deal to you and/or permanents you control this turn is dealt to (?P<to>any target|target creature|target player) instead\.", "CR 615.7, 609.7a, 614.9")
def _harms_way(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"The next 2 damage that a source of your choice would deal to you and/or permanents you
    control this turn is dealt to any target instead." (Harm's Way): a partial redirection
    (614.9) of the next N damage (615.7) from a source chosen as it resolves (609.7a)."""
    effect = {"redirect": "target", "shield": int(m.group("n")), "to": ["you", "permanents you control"],
              "source_choice": "chosen_source"}
    return spell_or_activated(ctx, None, effect, TARGETS[m.group("to").lower()])
