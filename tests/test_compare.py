"""compare(): positions and rule sets played side by side with the same seeds ("Compare and
sweep"); their outcomes with intervals, the paired difference, a stopped run, bad input."""

from __future__ import annotations

import math
import statistics

import pytest
from _position import position
from pandas.testing import assert_frame_equal

import powergrid_nb.play.comparison as comparison
from powergrid_nb import new_game
from powergrid_nb.play.comparison import compare, rule_value
from powergrid_nb.play.results import mean_interval, wilson

BASE = {"players": 3}
QUICK = dict(games=6, bots="random", seeds=11, base=BASE, progress=False)


def ahead(leader: str):
    """Round 4, auction: ``leader`` has 12 cities, three plants and 150 Elektro; the others one city."""
    who = {n: dict(money=10, plants=[p], cities=[c]) for n, p, c in (("Ada", 10, 14), ("Bo", 8, 16),
                                                                      ("Cy", 6, 18))}
    who[leader] = dict(money=150, plants=[13, 25, 31], cities=list(range(12)))
    return position(3, round=4, phase=2, who=who)


def test_the_same_seeds_give_the_same_comparison() -> None:
    a = compare({}, {"starting_money": 30}, **QUICK)
    b = compare({}, {"starting_money": 30}, **QUICK)
    assert_frame_equal(a.games, b.games)
    assert_frame_equal(a.frame, b.frame)
    assert_frame_equal(a.difference, b.difference)


def test_every_variant_plays_the_same_seeds() -> None:
    c = compare({}, {"starting_money": 30}, {"plant_limit": 2}, **QUICK)
    seeds = {v: sorted(set(g["seed"])) for v, g in c.games.groupby("variant", observed=True)}
    assert list(seeds) == c.labels
    assert all(s == list(range(11, 17)) for s in seeds.values())


def test_local_and_processes_backends_give_identical_comparisons() -> None:
    here = compare({}, {"starting_money": 30}, **QUICK)
    pool = compare({}, {"starting_money": 30}, **{**QUICK, "backend": "processes", "workers": 2})
    assert_frame_equal(here.games, pool.games)
    assert_frame_equal(here.difference, pool.difference)


def test_a_variant_compared_with_itself_differs_by_exactly_zero() -> None:
    c = compare({"starting_money": 40}, {"starting_money": 40}, labels=["one", "same"], **QUICK)
    d = c.difference
    assert list(d["pairs"]) == [6, 6, 6]
    for m in comparison.MEASURES:
        assert (d[m] == 0).all() and (d[f"{m}_low"] == 0).all() and (d[f"{m}_high"] == 0).all(), m


def test_a_player_far_ahead_shows_a_clear_win_rate_difference() -> None:
    c = compare(ahead("Ada"), ahead("Bo"), labels=["Ada ahead", "Bo ahead"], games=10, bots="heuristic",
                seeds=1, progress=False)
    d = c.difference.set_index("player")
    assert d.loc["Bo", "win_rate_low"] > 0.5  # the interval lies far from 0
    assert d.loc["Ada", "win_rate_high"] < -0.5
    f = c.frame.set_index(["variant", "player"])
    assert f.loc[("Ada ahead", "Ada"), "win_rate_low"] > f.loc[("Ada ahead", "Bo"), "win_rate_high"]


def test_very_little_starting_money_makes_games_longer() -> None:
    """R5 sets 50 Elektro; with 10 the players build slower, the game lasts more rounds."""
    c = compare({}, {"starting_money": 10}, games=20, bots="heuristic", seeds=3, base=BASE, progress=False)
    d = c.difference
    assert (d["rounds_low"] > 0).all(), d[["rounds", "rounds_low", "rounds_high"]]


def test_the_frame_gives_wilson_intervals_for_win_rates_and_t_intervals_for_means() -> None:
    c = compare({}, {"starting_money": 30}, **QUICK)
    g, f = c.games, c.frame
    assert list(f["variant"].astype(str)) == [x for x in c.labels for _ in range(3)]
    for row in f.itertuples():
        mine = g[(g["variant"] == row.variant) & (g["player"] == row.player)]
        assert row.games == len(mine) == 6
        assert (row.win_rate_low, row.win_rate_high) == wilson(mine["win_share"].sum(), 6)
        assert (row.money, row.money_low, row.money_high) == mean_interval(mine["money"].tolist())


def test_paired_differences_are_per_seed_differences() -> None:
    c = compare({}, {"starting_money": 30}, **QUICK)
    g = c.games
    ada = g[g["player"] == "Ada"]
    first = ada[ada["variant"] == c.labels[0]].set_index("seed")["money"]
    second = ada[ada["variant"] == c.labels[1]].set_index("seed")["money"]
    row = c.difference.set_index("player").loc["Ada"]
    assert (row["money"], row["money_low"], row["money_high"]) == mean_interval((second - first).tolist())


def test_mean_interval_is_the_student_t_interval() -> None:
    mean, low, high = mean_interval([1, 2, 3, 4, 5])
    half = 2.776445 * statistics.stdev([1, 2, 3, 4, 5]) / math.sqrt(5)  # t(0.975, 4) from the table
    assert mean == 3
    assert low == pytest.approx(3 - half, abs=0.01) and high == pytest.approx(3 + half, abs=0.01)
    assert math.isnan(mean_interval([4])[1])


def test_a_rule_set_is_played_on_the_base() -> None:
    c = compare({}, {"starting_money": 20}, games=2, bots="random", seeds=1, base={"players": 2},
                progress=False)
    assert c.players == ["Ada", "Bo"]
    assert c.labels == ["standard rules", "starting_money=20"]


def test_positions_and_saved_games_are_variants(tmp_path) -> None:
    g = new_game(3, seed=4)
    path = tmp_path / "start.json"
    g.save(str(path))
    c = compare(g, path, g.to_dict(), games=3, bots="random", seeds=1, progress=False)
    assert c.labels == ["position 1 (round 1)", "start.json", "scenario 3"]
    assert (c.difference["win_rate"] == 0).all()  # the same position, the same seeds: the same games


def test_a_stopped_comparison_is_partial_and_keeps_its_games() -> None:
    c = compare({}, {"starting_money": 30}, **{**QUICK, "stop": lambda r: len(r) >= 5})
    assert c.partial and c.stopped
    assert len(c.games) == 5 * 3
    assert c.difference["pairs"].max() <= 2  # only games both variants finished are paired
    assert "PARTIAL" in c.figure().layout.title.text
    assert "partial" in repr(c) and "Partial" in c._repr_html_()


def test_the_figure_draws_every_variant_and_the_differences() -> None:
    c = compare({}, {"starting_money": 30}, {"starting_money": 70}, **QUICK)
    fig = c.figure()
    names = {t.name for t in fig.data if t.showlegend is not False}
    assert names == set(c.labels)
    diffs = [t for t in fig.data if t.type == "bar" and t.yaxis != "y"]
    assert len(diffs) == 2 * 3  # two later variants x (win rate, length, money)
    assert "PARTIAL" not in fig.layout.title.text


def test_rule_value_reads_the_rules_in_force() -> None:
    g = new_game(3, seed=1, rules={"starting_money": 70, "end_cities": 12})
    assert rule_value(g, "starting_money") == 70
    assert rule_value(g, "end_cities") == 12 and rule_value(g, "plant_limit") == 3


BAD = [
    (lambda: compare({}, **QUICK), "two or more variants"),
    (lambda: compare({}, {"starting_money": -5}, **QUICK), "starting_money = -5 is not a whole number >= 0"),
    (lambda: compare({}, {"starting_money": -5}, **QUICK), "R5: Each player receives 50 E"),
    (lambda: compare({}, {"end_cities": 40}, **QUICK), "end_cities = 40 can never be reached"),
    (lambda: compare({}, {"end_cities": 40}, **QUICK), "R96: The end check runs"),
    (lambda: compare({}, {"players": 4}, **QUICK), "the same players"),
    (lambda: compare({}, {"players": 3, "starting_money": 3}, **QUICK), "mixes rule parameters"),
    (lambda: compare({}, 5, **QUICK), "variant 2 is a int"),
    (lambda: compare({}, {}, **{**QUICK, "games": 0}), "games must be a whole number"),
    (lambda: compare({}, {}, **{**QUICK, "bots": "nobot"}), "unknown bot 'nobot'"),
    (lambda: compare({}, {}, **{**QUICK, "labels": ["a"]}), "1 labels for 2 variants"),
    (lambda: compare({}, {}, **{**QUICK, "labels": ["a", "a"]}), "distinct"),
    (lambda: compare({}, {}, **{**QUICK, "base": {"starting_money": 3}}), "not a rule set"),
    (lambda: compare({}, {}, **{**QUICK, "backend": "gpu"}), "unknown backend 'gpu'"),
    (lambda: compare({}, {}, **{**QUICK, "games": None, "seeds": []}), "no games to play"),
]


@pytest.mark.parametrize("call, words", BAD, ids=[w for _, w in BAD])
def test_bad_input_is_refused_by_name_before_any_game_is_played(monkeypatch, call, words) -> None:
    def no_games(*_a, **_k):
        raise AssertionError("a game was played")

    monkeypatch.setattr(comparison, "run", no_games)
    with pytest.raises(ValueError) as e:
        call()
    assert words in str(e.value)
