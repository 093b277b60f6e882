"""``mtg-outcomes peer``: the comparison with a fake in-process peer, the case -> phase plan, and
one real phase.rs run (skipped where the ``phase`` module, the ``[peers]`` extra, isn't installed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mtg_outcomes.api import enumerate_outcomes
from mtg_outcomes.cli import main
from mtg_outcomes.model.load import load_case
from mtg_outcomes.model.types import Case
from mtg_outcomes.peer import CannotSetUp, PeerOutcome, PeerRun, compare
from mtg_outcomes.peer.phase_plan import Activate, Combat, plan_case

from ..conftest import ROOT

SEEDS = ROOT / "cases" / "seeds"
RULINGS = ROOT / "cases" / "rulings"
THIEF = SEEDS / "vengeful-archon-scroll-thief-combat.yaml"
UNBLOCKED = RULINGS / "scroll-thief-unblocked-draws.yaml"
FIELDS = ("you.life", "A.life", "A.cards_drawn")


class FakePeer:
    """A tiny engine double: it 'reaches' the outcomes it is given, read on ``readable`` fields."""

    name = "fake"

    def __init__(self, states: list[dict[str, Any]], readable: tuple[str, ...] = FIELDS,
                 unsupported: tuple[str, ...] = (), refuse: list[str] | None = None) -> None:
        self.states, self.readable, self.unsupported, self.refuse = states, readable, unsupported, refuse

    def run(self, case: Case, *, max_nodes: int, timeout: float | None) -> PeerRun:
        if self.refuse:
            raise CannotSetUp(self.refuse)
        outs = tuple(PeerOutcome(tuple(sorted(s.items())), ("fake chose",)) for s in self.states)
        return PeerRun("fake", outs, frozenset(self.readable), {"ReplacementChoice": {"times": 1, "options": 2,
                                                                                       "by": "explored"}},
                       self.unsupported)


def _ours(case: Case) -> list[Any]:
    return enumerate_outcomes(case).outcomes


THIEF_OURS = [{"you.life": 19, "A.life": 17, "A.cards_drawn": 0}, {"you.life": 19, "A.life": 17, "A.cards_drawn": 1}]


def test_compare_agrees_on_the_same_projected_set() -> None:
    case = load_case(THIEF)
    cmp = compare(case, FakePeer(THIEF_OURS).run(case, max_nodes=1, timeout=None), _ours(case))
    assert cmp.agree and not cmp.only_peer and not cmp.only_ours
    assert cmp.fields == tuple(sorted(FIELDS))
    assert len(cmp.both) == 2
    # every field of ours the fake can't read is said, not silently compared
    assert any("s1.remaining" in u for u in cmp.unsupported)


def test_compare_splits_the_differences_both_ways() -> None:
    case = load_case(THIEF)
    peer = FakePeer([THIEF_OURS[0], {"you.life": 17, "A.life": 19, "A.cards_drawn": 0}])
    cmp = compare(case, peer.run(case, max_nodes=1, timeout=None), _ours(case))
    assert not cmp.agree
    assert [s for s, _ in cmp.only_peer] == [{"A.cards_drawn": 0, "A.life": 19, "you.life": 17}]
    assert [s for s, _ in cmp.only_ours] == [THIEF_OURS[1] | {}]
    assert cmp.only_peer[0][1].steps == ("fake chose",)


def test_compare_on_asked_fields_only() -> None:
    case = load_case(THIEF)
    peer = FakePeer([{"you.life": 19, "A.life": 17, "A.cards_drawn": 0}])
    cmp = compare(case, peer.run(case, max_nodes=1, timeout=None), _ours(case), fields=["you.life", "A.life"])
    assert cmp.agree and cmp.fields == ("A.life", "you.life")
    cmp = compare(case, peer.run(case, max_nodes=1, timeout=None), _ours(case), fields=["you.life", "s1.remaining"])
    assert cmp.fields == ("you.life",)
    assert "field s1.remaining: fake has no reading of it (not compared)" in cmp.unsupported


def test_a_field_the_peer_could_not_read_in_one_state_matches_any_value() -> None:
    case = load_case(THIEF)
    peer = FakePeer([{"you.life": 19, "A.life": 17}, {"you.life": 19, "A.life": 17, "A.cards_drawn": 1}])
    cmp = compare(case, peer.run(case, max_nodes=1, timeout=None), _ours(case))
    assert cmp.agree


def _fake(monkeypatch: pytest.MonkeyPatch, peer: FakePeer) -> None:
    import mtg_outcomes.peer.cli as pcli

    monkeypatch.setattr(pcli, "_peer", lambda name: peer)


def test_cli_json_and_exit_codes_with_a_fake_peer(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    _fake(monkeypatch, FakePeer(THIEF_OURS))
    assert main(["peer", "phase", str(THIEF), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["agree"] is True and doc["only_peer"] == [] and doc["only_ours"] == []
    assert set(doc) >= {"agree", "only_peer", "only_ours", "prompts", "unsupported"}
    assert doc["prompts"] == {"ReplacementChoice": {"times": 1, "options": 2, "by": "explored"}}
    _fake(monkeypatch, FakePeer(THIEF_OURS[:1]))
    assert main(["peer", "phase", str(THIEF), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["agree"] is False and [o["state"] for o in doc["only_ours"]] == [
        {"A.cards_drawn": 1, "A.life": 17, "you.life": 19}]
    # ours come with their witness, as steps
    assert doc["only_ours"][0]["steps"] == ["you apply Vengeful Archon's shield on you (3 left) to Scroll Thief's 1 "
                                            "damage to you: it prevents 0"]


def test_cli_text_says_what_differs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _fake(monkeypatch, FakePeer([{"you.life": 17, "A.life": 19, "A.cards_drawn": 0}]))
    assert main(["peer", "phase", str(THIEF)]) == 1
    out = capsys.readouterr().out
    assert "vengeful-archon-scroll-thief-combat: fake DIFFERS" in out
    assert "only fake: A.cards_drawn=0, A.life=19, you.life=17" in out
    assert "only ours: A.cards_drawn=1, A.life=17, you.life=19" in out
    assert "fake prompts: ReplacementChoice x1 (2 options, explored)" in out


def test_cli_cannot_set_up_is_exit_2_with_every_reason(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    _fake(monkeypatch, FakePeer([], refuse=["format: two-headed-giant", "players[0].team: no way"]))
    assert main(["peer", "phase", str(THIEF), "--json"]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["agree"] is None and doc["unsupported"] == ["format: two-headed-giant", "players[0].team: no way"]


def test_cli_report_table_over_a_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    _fake(monkeypatch, FakePeer(THIEF_OURS))
    d = tmp_path / "cases"
    d.mkdir()
    for p in (THIEF, UNBLOCKED):
        (d / p.name).write_text(p.read_text())
    out = tmp_path / "peers.md"
    assert main(["peer", "phase", str(d), "--report", str(out)]) == 1
    text = out.read_text()
    assert f"--report {out}`" in text and "1 agree, 1 differ, 0 not run (2 cases)" in text
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert table[0].startswith("| case | result |")
    rows = {line.split("|")[1].strip(): line.split("|")[2].strip() for line in table[1:]}
    assert rows == {"vengeful-archon-scroll-thief-combat": "agree", "scroll-thief-unblocked-draws": "DIFFER"}
    # notes written under the marker survive a regeneration
    from mtg_outcomes.peer.cli import NOTES

    out.write_text(text.replace(NOTES, NOTES + "\n\nA hand-written note."))
    assert main(["peer", "phase", str(d), "--report", str(out)]) == 1
    assert out.read_text().endswith(NOTES + "\n\nA hand-written note.\n")


def test_without_phase_the_command_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "phase", None)  # import phase -> ImportError
    assert main(["peer", "phase", str(THIEF)]) == 2
    err = capsys.readouterr().err
    assert "pip install -e '.[peers]'" in err and "Traceback" not in err


def test_plan_maps_the_board_and_lists_what_phase_cannot_be_told() -> None:
    plan = plan_case(load_case(THIEF))
    assert plan.unsupported == []
    assert plan.players == ["A", "you"] and plan.active == 0
    assert [(p.id, p.card, p.seat, p.attacking) for p in plan.perms] == [
        ("archon", "Vengeful Archon", 1, None), ("thief", "Scroll Thief", 0, 1), ("mastodon", "Siege Mastodon", 0, 1)]
    # the shield already created is the Archon's ability activated for X=3 at A (CR 602.2)
    assert plan.setup == [Activate("archon", 1, 3, 0)]
    assert plan.steps == [Combat()]
    # a vanilla ad-hoc creature is a token with its characteristics
    trample = plan_case(load_case(RULINGS / "deathtouch-trample-assignment.yaml"))
    assert trample.unsupported == []
    assert trample.perms[0].token == {"name": "Test Deathtouch Trampler", "power": 4, "toughness": 4,
                                      "core_types": ["Creature"], "subtypes": [], "colors": ["Black"],
                                      "keywords": ["Deathtouch", "Trample"]}
    hg = plan_case(load_case(SEEDS / "archfiend-of-despair-two-headed-giant.yaml"))
    assert any(u.startswith("sources[0]: 'Test Twin Shock': only a real card") for u in hg.unsupported)
    assert any(u.startswith("actions[0].damage: only damage from one real spell") for u in hg.unsupported)


def test_card_record_is_mtgjson_shaped() -> None:
    from mtg_outcomes.model.carddata import find
    from mtg_outcomes.peer.phase_cards import mtgjson_record

    rec = mtgjson_record(find("Vengeful Archon").face)
    assert rec["types"] == ["Creature"] and rec["colors"] == ["W"] and rec["power"] == "7"
    assert rec["manaCost"] == "{4}{W}{W}{W}" and rec["manaValue"] == 7.0
    assert rec["type"] == "Creature — Archon" and rec["keywords"] == ["Flying"]


def _phase_installed() -> bool:
    try:
        import phase  # noqa: F401
    except ImportError:
        return False
    return True


needs_phase = pytest.mark.skipif(not _phase_installed(),
                                 reason="phase.rs bindings not installed (pip install -e '.[peers]')")


@needs_phase
def test_real_phase_run_agrees_on_an_unblocked_scroll_thief(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["peer", "phase", str(UNBLOCKED), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["agree"] is True and doc["both"] and doc["unsupported"][0].startswith("fields not compared")


@needs_phase
def test_real_phase_run_reads_the_archon_shield_as_one_point(capsys: pytest.CaptureFixture[str]) -> None:
    """phase parses "Prevent the next X damage" as a 1-point shield: with X=3 it prevents 1 of
    the 4 combat damage, where CR 615.7 prevents 3 (the defender choosing which, 510.2)."""
    assert main(["peer", "phase", str(THIEF), "--json", "--fields", "you.life,A.life,A.cards_drawn"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert [o["state"] for o in doc["only_peer"]] == [{"A.cards_drawn": 0, "A.life": 19, "you.life": 17}]
    assert sorted(o["state"]["A.cards_drawn"] for o in doc["only_ours"]) == [0, 1]
    assert doc["prompts"] == {"DeclareBlockers": {"by": "case", "options": 1, "times": 1}}


@needs_phase
def test_real_phase_explores_a_damage_division() -> None:
    """A deathtouch trampler blocked by a 3/3: phase lists one assignment, accepts the others
    (CR 702.19b, 702.2c: 1 is lethal); every one is tried, so all four life totals are reached."""
    from mtg_outcomes.peer.phase_peer import PhasePeer

    run = PhasePeer().run(load_case(RULINGS / "deathtouch-trample-assignment.yaml"), max_nodes=200, timeout=60)
    assert sorted(o.values["you.life"] for o in run.outcomes) == [17, 18, 19, 20]
    assert run.prompts["AssignCombatDamage"]["by"] == "explored"


def test_cli_a_misspelt_or_unreadable_field_is_an_error_not_agreement(monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    _fake(monkeypatch, FakePeer(THIEF_OURS))
    assert main(["peer", "phase", str(THIEF), "--fields", "you.lif"]) == 2
    assert "you.lif" in capsys.readouterr().err
    assert main(["peer", "phase", str(THIEF), "--fields", "s1.remaining", "--json"]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["agree"] is None and doc["unsupported"] == ["no field to compare: fake reads none of the fields asked for"]


def test_plan_writes_this_turns_counts_into_phase_state_and_maps_the_end_step() -> None:
    from mtg_outcomes.peer.phase_plan import EndStep

    plan = plan_case(load_case(SEEDS / "archfiend-of-despair-gross-life-lost.yaml"))
    assert plan.unsupported == []
    assert plan.player_state == [{"life_lost_this_turn": 2}, {"life_lost_this_turn": 3, "life_gained_this_turn": 2}]
    assert plan.steps == [EndStep()]


@needs_phase
def test_real_phase_two_archfiends_read_life_lost_when_each_resolves() -> None:
    """Two Archfiends of Despair: 3, then 6 (CR 603.3b, 608.2h); the life set up is not counted
    as life lost (phase's SetLife would count it: the state is written instead)."""
    from mtg_outcomes.peer.phase_peer import PhasePeer

    run = PhasePeer().run(load_case(SEEDS / "archfiend-of-despair-two-archfiends.yaml"), max_nodes=50, timeout=60)
    assert [(o.values["A.life"], o.values["A.lost"]) for o in run.outcomes] == [(8, False)]


def test_plan_two_headed_giant_teams_are_phase_seat_pairs(tmp_path: Path) -> None:
    path = RULINGS / "flame-rift-two-headed-giant.yaml"
    plan = plan_case(load_case(path))
    assert plan.unsupported == [] and plan.format == "TwoHeadedGiant"
    assert plan.teams == {"2": [0, 1], "1": [2, 3]}
    crossed = tmp_path / "crossed.yaml"  # teams A+you and C+B: not phase's seat pairs
    crossed.write_text(path.read_text().replace("{name: C, team: 2}", "{name: C, team: 1}")
                       .replace("{name: you, team: 1}", "{name: you, team: 2}"))
    assert plan_case(load_case(crossed)).unsupported == [
        "players: phase's Two-Headed Giant teams are the first two players and the last two"]


@needs_phase
def test_real_phase_two_headed_giant_team_life() -> None:
    """Flame Rift: 4 to each player is 8 from each team's shared 30 (CR 810.9a); phase keeps a
    life total per seat (15 + 15), read as their sum."""
    from mtg_outcomes.peer.phase_peer import PhasePeer

    run = PhasePeer().run(load_case(RULINGS / "flame-rift-two-headed-giant.yaml"), max_nodes=50, timeout=60)
    assert [(o.values["team1.life"], o.values["team2.life"], o.values["you.life"]) for o in run.outcomes] == [
        (22, 22, 22)]
