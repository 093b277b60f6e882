"""How many well-known damage cards ``card NAME`` fully understands, by family (issue "The cards
players use").

The issue's own list of 300 popular cards is kept aside by its author as a measure; this is a
stand-in the project keeps in view: cards a judge or a player meets at a kitchen table or in a
tournament, by family, written down from what is played, not from what the recogniser reads. A
card is understood as ``card NAME`` says (exit 0: every line of every face understood or ignored
with its reason); a name the card data doesn't have is listed apart, not counted.

Run: ``.venv/bin/python bench/popular.py [--misses]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os

FAMILIES: dict[str, list[str]] = {
    "burn": [
        "Lightning Bolt", "Shock", "Lightning Strike", "Lava Spike", "Chain Lightning", "Fireball", "Banefire", "Blaze",
        "Rolling Thunder", "Fiery Confluence", "Lava Axe", "Searing Spear", "Incinerate", "Skewer the Critics",
        "Play with Fire", "Stoke the Flames", "Boros Charm", "Lightning Helix", "Char", "Flame Slash", "Fiery Temper",
        "Magma Jet", "Volcanic Hammer", "Fire // Ice", "Electrolyze", "Firebolt", "Burst Lightning", "Searing Blaze",
        "Exquisite Firecraft", "Roast", "Wild Slash", "Lava Dart", "Kolaghan's Command", "Collective Defiance",
        "Fireblast", "Rift Bolt", "Bonecrusher Giant", "Strangle", "Scorching Dragonfire", "Flame Spill",
        "Blazing Salvo", "Soul's Fire", "Jaya's Greeting", "Frost Bite", "Spikefield Hazard", "Lightning Axe",
        "Hungry Flames", "Sure Strike", "Searing Barrage", "Unholy Heat",
    ],
    "fight and bite": [
        "Prey Upon", "Rabid Bite", "Ram Through", "Savage Swipe", "Epic Confrontation", "Primal Might",
        "Infectious Bite", "Tail Swipe", "Clear Shot", "Domri's Ambush", "Band Together", "Bite Down",
        "Hunt the Weak", "Setessan Tactics", "Pounce", "Mutant's Prey", "Ferocious Pup", "Voracious Typhon",
    ],
    "prevention": [
        "Healing Salve", "Holy Day", "Fog", "Moment's Peace", "Circle of Protection: Red", "Vengeful Archon",
        "Harm's Way", "Palisade Giant", "Stuffy Doll", "Samite Healer", "Mending Hands", "Healing Grace",
        "Kor Firewalker", "Deflecting Palm", "Comeuppance", "Solitary Confinement", "Gods Willing", "Pariah",
        "Benevolent Bodyguard", "Master Warcraft", "Channel Harm", "Shelter", "Prismatic Strands", "Dawn Charm",
    ],
    "doublers": [
        "Furnace of Rath", "Dictate of the Twin Gods", "Fiery Emancipation", "Torbran, Thane of Red Fell",
        "Angrath's Marauders", "Gratuitous Violence", "Quest for Pure Flame", "Ojer Axonil, Deepest Might",
        "Embermaw Hellion", "City on Fire", "Insult // Injury", "Solphim, Mayhem Dominus",
    ],
    "combat creatures": [
        "Vampire Nighthawk", "Giant Spider", "Serra Angel", "Craw Wurm", "Hill Giant", "Grizzly Bears",
        "Llanowar Elves", "Colossal Dreadmaw", "Questing Beast", "Stormbreath Dragon", "Baneslayer Angel",
        "Ajani's Pridemate", "Boros Reckoner", "Spitemare", "Brash Taunter", "Phyrexian Obliterator",
        "Gifted Aetherborn", "Typhoid Rats", "Skyhunter Skirmisher", "Fireborn Knight", "Kitchen Finks",
        "Wall of Wood", "Siege Mastodon", "Scroll Thief", "Archangel of Thune", "Honor Troll", "Alms Beast",
        "Spined Wurm", "Centaur Courser", "Goblin Guide", "Monastery Swiftspear", "Glorybringer",
        "Thundermaw Hellkite", "Ghalta, Primal Hunger", "Carnage Tyrant", "Tarmogoyf", "Lovestruck Beast",
        "Murderous Rider", "Fireblade Charger", "Goldnight Commander",
    ],
    "planeswalkers": [
        "Chandra, Torch of Defiance", "Jace Beleren", "Chandra Nalaar", "Liliana of the Veil", "Garruk Wildspeaker",
        "Ajani Goldmane", "Gideon Jura", "Sorin, Vengeful Bloodlord", "Chandra, Acolyte of Flame",
        "Chandra, Pyromaster", "Sarkhan Vol", "Domri Rade", "Ral Zarek", "Nicol Bolas, Planeswalker",
        "Elspeth, Sun's Champion", "Vraska the Unseen", "Liliana Vess", "Jaya Ballard", "Chandra, Flamecaller",
        "Angrath, Captain of Chaos", "Chandra, Dressed to Kill", "Sarkhan, the Dragonspeaker",
    ],
    "sweepers": [
        "Pyroclasm", "Anger of the Gods", "Earthquake", "Hurricane", "Inferno", "Slagstorm", "Sweltering Suns",
        "Storm's Wrath", "Chandra's Ignition", "Blasphemous Act", "Volcanic Fallout", "Rolling Earthquake",
        "Starstorm", "Fiery Cannonade", "Cinderclasm", "Kozilek's Return", "Brotherhood's End", "Flame Wave",
    ],
    "drain": [
        "Exquisite Blood", "Sanguine Bond", "Blood Artist", "Zulaport Cutthroat", "Gray Merchant of Asphodel",
        "Kokusho, the Evening Star", "Vito, Thorn of the Dusk Rose", "Sovereign's Bite", "Consume Spirit",
        "Corrupt", "Exsanguinate", "Debt to the Deathless", "Marauding Blight-Priest", "Cruel Celebrant",
        "Falkenrath Noble", "Syr Konrad, the Grim", "Bloodthirsty Conqueror", "Vampire of the Dire Moon",
    ],
}


def understood(name: str) -> int:
    """``card NAME``'s exit code (0 understood, 1 not, 2 no such card), its output swallowed."""
    from mtg_outcomes.cli.cards import card_command

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return card_command(name, False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--misses", action="store_true", help="list the cards not understood")
    args = parser.parse_args()
    total = hit = 0
    unknown: list[str] = []
    rows = []
    for family, names in FAMILIES.items():
        codes = {n: understood(n) for n in names}
        unknown += [n for n, c in codes.items() if c == 2]
        known = [n for n, c in codes.items() if c != 2]
        ok = [n for n in known if codes[n] == 0]
        total, hit = total + len(known), hit + len(ok)
        rows.append((family, len(ok), len(known), [n for n in known if codes[n] == 1]))
    print(f"{'family':<18}{'understood':>11}{'cards':>7}{'share':>8}")
    for family, ok, known, misses in rows:
        print(f"{family:<18}{ok:>11}{known:>7}{100 * ok / max(known, 1):>7.0f}%")
        if args.misses and misses:
            print("    not understood: " + ", ".join(misses))
    print(f"{'all':<18}{hit:>11}{total:>7}{100 * hit / max(total, 1):>7.1f}%")
    if unknown:
        print("not in the card data: " + ", ".join(unknown))
    if os.environ.get("BENCH_JSON"):
        print(json.dumps({"understood": hit, "cards": total}))


if __name__ == "__main__":
    main()
