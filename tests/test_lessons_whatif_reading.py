"""Lesson 6's reading of a comparison (powergrid_nb.lessons.whatif_reading): sentences, sample size."""

import math

import pandas as pd
import pytest

from powergrid_nb import compare, new_game
from powergrid_nb.lessons import whatif_reading as wr
from powergrid_nb.play.results import mean_interval, wilson


@pytest.fixture(scope="module")
def cmp():
    return compare({}, {"end_cities": 15}, base={"players": 3}, games=12, bots="heuristic", seeds=1,
                   labels=["standard", "end at 15"], progress=False)


@pytest.mark.parametrize("low,high,says", [(0.1, 0.5, "goes up"), (-0.5, -0.1, "goes down"),
                                           (-0.1, 0.5, "cannot tell"), (math.nan, math.nan, "cannot tell")])
def test_an_interval_that_includes_zero_cannot_tell(low, high, says) -> None:
    assert says in wr.verdict(0.2, low, high)


def test_established_means_the_interval_excludes_zero() -> None:
    assert wr.established(1.2, 0.3, 2.1) and wr.established(-0.6, -1.0, -0.2)
    assert not wr.established(-0.4, -0.9, 0.1)


@pytest.mark.parametrize("predicted,low,high,says", [
    ("up", 0.1, 0.4, "support"), ("down", 0.1, 0.4, "contradict"), ("up", -0.1, 0.4, "cannot tell"),
    ("no change", -0.1, 0.4, "not a proof"), (None, 0.1, 0.4, "no prediction")])
def test_check_prediction(predicted, low, high, says) -> None:
    assert says in wr.check_prediction(predicted, 0.2, low, high)


def test_R96_ending_at_15_cities_makes_games_shorter_and_the_reading_says_so(cmp) -> None:
    r = wr.read_comparison(cmp, "rounds")
    assert len(r) == 1  # game length: one row per variant, not per player
    row = r.iloc[0]
    d = cmp.difference.iloc[0]
    assert (row["difference"], row["low"], row["high"]) == (d["rounds"], d["rounds_low"], d["rounds_high"])
    assert row["high"] < 0 and "goes down" in row["reading"] and "n = 12" in row["reading"]


def test_win_rate_is_read_per_player(cmp) -> None:
    r = wr.read_comparison(cmp, "win_rate")
    assert list(r["player"]) == cmp.players
    assert list(wr.read_comparison(cmp, "win_rate", player=cmp.players[1])["player"]) == [cmp.players[1]]


def test_by_sample_size_uses_the_first_games_of_the_same_run(cmp) -> None:
    f = wr.by_sample_size(cmp, [4, 12, 50])
    assert list(f["games"]) == [4, 12]  # 50 is more than were played
    full = f[f["games"] == 12].iloc[0]
    assert full["difference"] == pytest.approx(cmp.difference.iloc[0]["rounds"])
    first4 = cmp.games[cmp.games["game"] < 4].drop_duplicates(["variant", "game"]).pivot(
        index="game", columns="variant", values="rounds")
    assert f.iloc[0]["difference"] == pytest.approx((first4["end at 15"] - first4["standard"]).mean())
    assert f.iloc[0]["pairs"] == 4


def test_games_for_half_width_is_the_fewest_games_that_reach_it() -> None:
    n = wr.games_for_half_width(0.25, 0.05)
    lo, hi = wilson(0.25 * n, n)
    assert 0.25 - lo <= 0.05 and hi - 0.25 <= 0.05
    lo, hi = wilson(0.25 * (n - 1), n - 1)
    assert hi - 0.25 > 0.05
    normal = math.ceil(1.96 ** 2 * 0.25 * 0.75 / 0.05 ** 2)
    assert n > normal  # Wilson's upper end is further from 25% than the normal interval's


def test_a_win_rate_near_one_half_needs_more_games_than_near_one_quarter() -> None:
    assert wr.games_for_half_width(0.5, 0.05) > wr.games_for_half_width(0.25, 0.05)


def test_R110_payment_figure_reads_the_engines_income() -> None:
    fig = wr.payment_figure({"standard": None, "capped": {"payment": [10, 22, 33]}}, up_to=5)
    assert list(fig.data[0].y) == [new_game(4, seed=1).income(k) for k in range(6)]
    assert list(fig.data[1].y) == [10, 22, 33, 33, 33, 33]  # the last value repeats


def test_median_interval_is_the_median_with_a_bootstrap_interval_robust_to_a_stall() -> None:
    stalled = [1] * 14 + [2] * 7 + [0] * 7 + [30, 25]  # two stalled games among 30
    m, lo, hi = wr.median_interval(stalled)
    assert abs(m - 1) < 0.3 and lo <= m <= hi < 2  # they barely move it
    mean, mlo, mhi = mean_interval(stalled)
    assert mhi - mlo > hi - lo
    assert wr.median_interval([1, 2, 3]) == wr.median_interval([1, 2, 3])  # seeded: the same each run
    assert math.isnan(wr.median_interval([4])[1])
    # Harrell-Davis: weights centred on the middle, summing to 1; whole numbers do not collapse the interval
    w = wr._hd_weights(5)
    assert w.sum() == pytest.approx(1) and w[0] == pytest.approx(w[4])
    assert w[2] == pytest.approx(0.3651, abs=1e-3)
    m, lo, hi = wr.median_interval([0] * 20 + [1] * 20 + [2] * 5)
    assert lo < m < hi and hi - lo > 0.1


def test_median_reading_pairs_games_once_per_game(cmp) -> None:
    r = wr.read_comparison(cmp, "rounds", statistic="median").iloc[0]
    per_game = cmp.games.drop_duplicates(["variant", "game"]).pivot(index="game", columns="variant",
                                                                      values="rounds")
    d = per_game["end at 15"] - per_game["standard"]
    assert r["pairs"] == len(d) == 12 and r["difference"] == pytest.approx(wr.median_interval(d.tolist())[0])
    assert (r["low"], r["high"]) == pytest.approx(wr.median_interval(d.tolist())[1:])
    assert r["reading"].startswith("median difference")
    money = wr.read_comparison(cmp, "money", statistic="median")
    assert list(money["player"]) == cmp.players
    f = wr.by_sample_size(cmp, [4, 12], statistic="median")
    assert f.iloc[-1]["difference"] == r["difference"]


def test_figures_are_sized_for_a_projector_with_n_and_unit_in_the_title(cmp) -> None:
    fig = wr.sample_size_figure(wr.by_sample_size(cmp, [4, 12]), unit="rounds", title="Width")
    assert fig.layout.title.text == "Width (rounds; n = 12 games)" and fig.layout.font.size >= 16
    pay = wr.payment_figure({"standard": None})
    assert "(Elektro per round)" in pay.layout.title.text and pay.layout.font.size >= 16


def test_means_text_reads_the_mean_differences(cmp) -> None:
    r = wr.read_comparison(cmp, "rounds").iloc[0]
    assert wr.means_text(wr.read_comparison(cmp, "rounds")) == (
        f"The means, for comparison: end at 15: {r.difference:+.2f} [{r.low:+.2f}, {r.high:+.2f}] rounds.")


def test_conclusion_text_checks_each_prediction_against_its_interval() -> None:
    found = {("A", "rounds"): {"difference": 1.0, "low": 0.5, "high": 1.5},
             ("A", "money"): {"difference": 5.0, "low": 1.0, "high": 9.0}}
    text = wr.conclusion_text(found, {("A", "rounds"): "up", ("A", "money"): "down"})
    lines = text.splitlines()
    assert lines[0].startswith("- **A, rounds** (predicted: up): the games support the prediction")
    assert lines[1].startswith("- **A, money** (predicted: down): the games contradict the prediction")


def test_longest_text_gives_the_median_and_longest_game_of_each_rule_set(cmp) -> None:
    per = cmp.games.drop_duplicates(["variant", "game"]).groupby("variant", observed=True)["rounds"]
    text = wr.longest_text(cmp, "end at 15")
    assert (f"lasts {per.median()['standard']:g} rounds under the standard rules and "
            f"{per.median()['end at 15']:g} with the end at 15") in text
    assert f"the longest lasts {per.max()['standard']:g} and {per.max()['end at 15']:g}" in text
    assert "(n = 12 games each)" in text


def _wins(intervals: dict) -> pd.DataFrame:
    return pd.DataFrame([{"variant": "B", "player": p, "pairs": 40, "difference": (lo + hi) / 2, "low": lo,
                          "high": hi} for p, (lo, hi) in intervals.items()])


def test_chance_text_counts_the_intervals_that_include_zero_against_one_in_twenty() -> None:
    wins = _wins({"Ada": (-0.1, 0.1), "Bo": (0.02, 0.3), "Cy": (-0.2, 0.0), "Dee": (-0.1, 0.2)})
    text = wr.chance_text(wins)
    assert text.startswith("3 of the 4 win-rate differences have an interval that includes zero (n = 40")
    assert "Excluding zero: Bo under B (+16.0%)" in text
    assert "about 0.2 would, and here 1 did." in text
    assert "Excluding zero" not in wr.chance_text(_wins({"Ada": (-0.1, 0.1)}))


def test_sample_size_text_finds_the_game_that_widened_the_interval() -> None:
    shrink = pd.DataFrame({"games": [5, 10, 20], "variant": "B", "versus": "A", "difference": [0.0, 0.5, 0.2],
                           "low": [-1.0, -2.0, -0.2], "high": [1.0, 3.0, 0.6]}).assign(
        width=lambda f: f["high"] - f["low"])
    diffs = pd.DataFrame({"variant": "B", "game": range(20), "player": "mean of the players",
                          "difference": [0.0] * 7 + [9.0] + [0.0] * 12})
    text = wr.sample_size_text(shrink, diffs, "B", 20)
    assert "B's effect on game length is small: its interval still includes zero after 20 games." in text
    assert "2.00 rounds wide after 5 games and 0.80 rounds after 20: 4 times the games" in text
    assert "the interval widens from 5 to 10 games (2.00 to 5.00 rounds; among the games added, game 7 " \
           "differs by +9 rounds)" in text


def test_a_bound_too_small_for_the_digits_is_not_shown_as_zero() -> None:
    says = wr.verdict(0.0004, 0.000002, 0.24, unit=" rounds")
    assert says.startswith("the difference: +0.0004 [+0.000002, +0.24] rounds") and "above zero" in says
    assert wr.verdict(0.0, -0.5, 0.5).startswith("the difference: +0.00 [-0.50, +0.50]")


def _diffs(values: list[float]) -> pd.DataFrame:
    return pd.DataFrame({"variant": "B", "game": range(len(values)), "player": "mean of the players",
                         "difference": values})


def test_same_length_text_counts_shorter_equal_and_longer_games() -> None:
    text = wr.same_length_text(_diffs([-1] * 3 + [0] * 4 + [2] * 5), "A")
    assert text.startswith("Game length against the A rules, game by game:\n"
                           "- **B**: shorter in 3, as long in 4, longer in 5 of 12 paired games")


def test_same_length_text_explains_a_median_of_zero_beside_a_mean_that_is_not() -> None:
    middle_equal = wr.same_length_text(_diffs([-1] * 30 + [0] * 40 + [3] * 30))
    assert "For B, the middle of the sorted differences falls among the games of equal length" in middle_equal
    middle_longer = wr.same_length_text(_diffs([-1] * 10 + [0] * 30 + [3] * 60))
    assert "the middle of the sorted differences" not in middle_longer
