"""The phases by number and name (R13, R134): one home, ``Phase``; saves, events and frames keep the numbers.

``tests/golden/saves/`` holds games saved before the phases became an enum: a Step 3 card waiting in an
auction (``step3_from``), a Recharged game against the Trust played to the end, and a game in its
start-city marking (phase 0).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import powergrid_nb
from powergrid_nb import Game, Phase, load, new_game
from powergrid_nb.engine.events import Decision
from powergrid_nb.engine.io.saves import game_to_dict
from powergrid_nb.engine.phases.rounds import PHASES
from powergrid_nb.engine.rules.rulebook import rule, rules

SAVES = sorted((Path(__file__).parent / "golden" / "saves").glob("*.json"))


def test_the_round_has_the_five_phases_of_r13_in_their_order() -> None:
    listed = re.findall(r"\((\d)\) ([a-z ]+)", rule("R13").text)  # "(1) determine player order, ..."
    assert [int(n) for n, _ in listed] == [1, 2, 3, 4, 5]
    members = [Phase(int(n)) for n, _ in listed]
    assert members == [Phase.PLAYER_ORDER, Phase.AUCTION, Phase.RESOURCES, Phase.BUILDING, Phase.BUREAUCRACY]
    for member, (_, words) in zip(members, listed, strict=True):
        assert member.label.split()[-1][:5] in words, (member, words)  # "order", "aucti", "resou", "build"


def test_phase_0_marks_the_start_cities_of_r134_and_6_is_the_end() -> None:
    assert rule("R134").phase is Phase.START_CITIES
    assert [r.number for r in rules(phase=Phase.START_CITIES)] == ["R134", "R135", "R136"]
    assert [int(p) for p in Phase] == list(range(7))
    assert Phase.GAME_OVER.label == "game over" and Phase.START_CITIES.label == "start cities"


def test_every_rule_of_a_phase_names_a_phase_of_the_enum() -> None:
    assert {r.phase for r in rules()} - {None} <= set(Phase)
    assert rules(phase=Phase.BUILDING) == rules(phase=4)


def test_the_engine_plays_one_rules_object_per_phase() -> None:
    assert sorted(PHASES) == list(Phase)
    assert all(PHASES[p].number is p and PHASES[p].name == p.label for p in Phase)


def test_the_phase_is_exported_by_the_package() -> None:
    assert "Phase" in powergrid_nb.__all__ and powergrid_nb.Phase is Phase


def test_a_game_reports_its_phase_as_the_enum_and_as_the_number() -> None:
    g = new_game(3, seed=1)
    assert g.phase is Phase.AUCTION and g.phase == 2 and g.phase_name == "auction"
    assert json.dumps({"phase": g.phase}) == '{"phase": 2}' and f"{g.phase}" == "2"


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_a_saved_game_loads_and_saves_to_the_same_bytes(path: Path, tmp_path: Path) -> None:
    g = load(path)
    assert isinstance(g.phase, Phase)
    g.save(tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_replaying_a_saved_game_writes_the_bytes_saved_before_the_enum(path: Path, tmp_path: Path) -> None:
    config = json.loads(path.read_text(encoding="utf-8"))["config"]
    g = new_game(config["players"], map=config["map"], edition=config["edition"], seed=config["seed"],
                 **config["options"])  # the seed chooses the same regions
    for e in load(path).history:
        if isinstance(e, Decision):
            g.apply(e.action)
    g.save(tmp_path / "replayed.json")
    # these files predate the explanation of a run below the most possible (PlantsRun's possible,
    # forgone, kept: trailing values a replay now writes): compare without them
    replayed = json.loads((tmp_path / "replayed.json").read_text(encoding="utf-8"))
    explained = sum(len(r) > 8 for r in replayed["history"] if r[0] == "powered")
    replayed["history"] = [r[:8] if r[0] == "powered" else r for r in replayed["history"]]
    assert replayed == json.loads(path.read_text(encoding="utf-8"))
    if not explained:
        assert (tmp_path / "replayed.json").read_bytes() == path.read_bytes()
    assert json.dumps(game_to_dict(g)["state"]) == json.dumps(game_to_dict(load(path))["state"])


def test_the_history_frame_keeps_the_phase_an_integer_column() -> None:
    g = load(SAVES[0])
    frame = g.history_frame()
    assert str(frame["phase"].dtype) == "Int64"
    assert list(frame["phase"]) == [e.phase for e in g.history]
    assert set(frame["phase_name"].dropna()) <= {p.label for p in Phase}


def test_a_save_dict_holds_plain_numbers_for_phases_so_it_loads_without_json() -> None:
    import random

    g, rng, seen = new_game(2, edition="recharged", seed=5), random.Random(5), 0
    while not g.is_over:
        d = game_to_dict(g)
        assert type(d["state"]["phase"]) is int
        assert all(type(row[2]) is int for row in d["history"])
        if d["state"]["step3_from"] is not None:  # the Step 3 card waits for its phase (R60)
            assert [type(x) for x in d["state"]["step3_from"]] == [int, int]
            assert Game.from_dict(d).to_dict() == d  # straight from the dict, no JSON between
            seen += 1
        g.apply(rng.choice(g.legal_actions()))
    assert seen
