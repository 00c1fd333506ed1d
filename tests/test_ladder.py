"""benchmarks/ladder.py: the Bradley-Terry fit, the entry specs and a tiny ladder end to end."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("ladder", ROOT / "benchmarks" / "ladder.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["ladder"] = module  # NamedTuple and dataclass machinery look the module up by name
    spec.loader.exec_module(module)
    return module


ladder = _script()
ELO = 400 / math.log(10)


def test_the_fit_recovers_known_strengths_from_expected_results() -> None:
    """Results exactly as a model with known ratings expects them: the fit gives those ratings back."""
    truth = np.array([0.0, 150.0, 400.0, 700.0])
    n = np.array([[0, 50, 30, 0], [50, 0, 40, 20], [30, 40, 0, 60], [0, 20, 60, 0]], dtype=float)
    p = 1 / (1 + 10 ** ((truth[None, :] - truth[:, None]) / 400))
    fitted = ladder.bradley_terry(n * p, prior=0)
    assert np.allclose(fitted - fitted[0], truth, atol=1e-6)


def test_the_fit_orders_by_whom_one_beat_not_by_the_win_rate() -> None:
    """A wins 13 of 20 (mostly against weak C), B 6 of 10 (against A): the win rates rank A first,
    the model ranks B first, as it must, and a 3:1 record is exactly 400 log10(3) points."""
    w = np.zeros((3, 3))
    w[0, 2], w[2, 0] = 9, 1    # A beats C 9-1
    w[1, 0], w[0, 1] = 6, 4    # B beats A 6-4
    a, b, c = ladder.bradley_terry(w, prior=0)
    assert b > a > c
    assert b - a == pytest.approx(ELO * math.log(6 / 4), abs=1e-6)
    assert a - c == pytest.approx(ELO * math.log(9), abs=1e-6)
    chain = ladder.bradley_terry(np.array([[0, 3, 0], [1, 0, 3], [0, 1, 0]], dtype=float), prior=0)
    assert chain[0] - chain[1] == pytest.approx(400 * math.log10(3), abs=1e-6)


def test_a_clean_sweep_is_finite_only_through_the_prior_and_batches_fit_alike() -> None:
    sweep = np.array([[0, 30.0], [0, 0]])
    with pytest.raises(ValueError, match="never wins"):
        ladder.bradley_terry(sweep, prior=0)
    gap = ladder.bradley_terry(sweep)  # one virtual tie: odds 30.5 : 0.5
    assert gap[0] - gap[1] == pytest.approx(400 * math.log10(61), abs=1e-6)
    with pytest.raises(ValueError, match="do not link"):
        ladder.bradley_terry(np.array([[0, 2, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0.0]]))
    batch = np.stack([sweep, sweep.T, np.array([[0, 1.0], [1, 0]])])
    fits = ladder.bradley_terry(batch)
    for one, fit in zip(batch, fits, strict=True):
        assert np.allclose(fit, ladder.bradley_terry(one), atol=1e-6)


def test_the_spec_parser() -> None:
    assert ladder.parse_spec("heuristic") == ("heuristic", {})
    assert ladder.parse_spec("search:rollouts=4") == ("search", {"rollouts": 4})
    assert ladder.parse_spec("search:rollouts=4, horizon=None,think_time=0.5") == (
        "search", {"rollouts": 4, "horizon": None, "think_time": 0.5})
    assert ladder.parse_spec("search-2:horizon=2") == ("search-2", {"horizon": 2})
    bot = ladder.factory("search-2:horizon=2")(seed=7)
    assert (type(bot).__name__, bot.rollouts, bot.horizon, bot.seed) == ("SearchBot", 2, 2, 7)
    assert ladder.ladder_specs("random, heuristic,search:rollouts=4,horizon=2,search-4") == [
        "random", "heuristic", "search:rollouts=4,horizon=2", "search-4"]
    ladder.ENTRIES["heuristic:wide"] = ladder.ENTRIES["heuristic"]  # a preset whose name holds a colon
    try:
        assert ladder.parse_spec("heuristic:wide") == ("heuristic:wide", {})
        assert ladder.parse_spec("heuristic:wide:slack=1") == ("heuristic:wide", {"slack": 1})
    finally:
        del ladder.ENTRIES["heuristic:wide"]
    for bad in ("nobot", "search:", "search:4", "search:rollout=4", "heuristic:1x=2"):
        with pytest.raises(ValueError):
            ladder.factory(bad)
    with pytest.raises(ValueError, match="two distinct"):
        ladder.ladder_specs("heuristic,heuristic")


def test_a_tiny_ladder_end_to_end(tmp_path: Path) -> None:
    specs = ["random", "heuristic"]
    tasks = ladder.tasks_for(specs, games=1, seed=3)
    assert [(t.challenger, t.defender, t.seed, t.rotation) for t in tasks] == [
        ("heuristic", "random", 3, r) for r in range(4)]
    rows, stopped = ladder.run_ladder(tasks)
    assert not stopped and len(rows) == 16
    assert all(list(r) == ladder.COLUMNS for r in rows)
    x = [r for r in rows if r["role"] == "challenger"]
    assert sorted(r["seat"] for r in x) == [0, 1, 2, 3]  # the challenger sat in every seat once
    for game in range(4):
        mine = [r for r in rows if r["rotation"] == game]
        assert sum(r["win_share"] for r in mine) == pytest.approx(1)
        assert sum(r["ended_game"] for r in mine) == 1  # the end came by cities: someone reached them
        assert max(mine, key=lambda r: r["cities"])["cities"] >= 17
    assert all(r["power_max_income"] <= r["power_decisions"] for r in rows)
    assert sum(r["power_decisions"] for r in x) > 0 and sum(r["plants_r1"] for r in x) == 4
    text = ladder.report(rows, specs, ("heuristic", 1000.0), bootstrap=50)
    assert "heuristic     1000  [     -,      -]" in text and "Economics" in text  # one seed: no resamples
    two = ladder.run_ladder(ladder.tasks_for(specs, games=1, seed=4))[0]
    text = ladder.report(rows + two, specs, ("heuristic", 1000.0), bootstrap=50)
    assert "heuristic     1000  [  1000,   1000]" in text and "random       " in text
    ladder.write_csv(tmp_path / "rows.csv", rows)
    assert (tmp_path / "rows.csv").read_text().splitlines()[0] == ",".join(ladder.COLUMNS)


FROZEN_GAMES = ROOT / "tests" / "golden" / "frozen_bot.json"


@pytest.mark.parametrize("spec", json.loads(FROZEN_GAMES.read_text())["games"],
                         ids=lambda s: f"{s['players']}p-{s['map']}-{s['edition']}-{s['seed']}")
def test_the_frozen_old_heuristic_still_plays_the_games_recorded_from_it(spec: dict) -> None:
    """benchmarks/frozen_bot is the heuristic of 10d45e5: it plays, action for action, the games the
    package's bot played at fa6c577 (before issue 27 changed it)."""
    from benchmarks.frozen_bot import OldHeuristicBot
    from powergrid_nb import new_game

    g = new_game(spec["players"], map=spec["map"], edition=spec["edition"], seed=spec["seed"])
    bots = {p: OldHeuristicBot(spec["seed"] * 10 + i) for i, p in enumerate(g.players)}
    texts = []
    while not g.is_over:
        action = bots[g.current_player].act(g)
        g.apply(action)
        texts.append(str(action))
    assert len(texts) == spec["actions"]
    assert hashlib.sha256("\n".join(texts).encode()).hexdigest() == spec["sha256"]
    assert list(g.winners) == spec["winners"]


def test_the_ladder_knows_the_old_heuristic_by_name() -> None:
    bot = ladder.factory("heuristic-10d45e5")(seed=3)
    assert bot.name == "heuristic-10d45e5"
