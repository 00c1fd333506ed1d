"""Lesson 5: income and endgame computations (lessons.income), against the rules and the engine."""

import pandas as pd
import pytest

from powergrid_nb import new_game, simulate
from powergrid_nb.bots import HeuristicBot, play
from powergrid_nb.lessons.income import (
    HOW,
    decided_by,
    end_cities_table,
    income_table,
    marginal_now,
    money_vs_cities,
    money_vs_cities_figure,
    tie_summary,
    trigger_summary,
)
from powergrid_nb.lessons.questions.lesson5 import TIE


def test_R110_income_table_matches_the_rulebook() -> None:
    t = income_table(("original",)).set_index("powered")["income"]
    assert (t[0], t[1], t[6], t[10], t[15], t[20]) == (10, 22, 73, 105, 134, 150)


def test_O14_income_stops_at_150_from_20_cities() -> None:
    t = income_table().set_index(["edition", "powered"])
    assert t.loc[("original", 21), "income"] == t.loc[("recharged", 22), "income"] == 150
    assert t.loc[("original", 21), "marginal"] == 0


def test_marginal_income_never_rises_the_table_is_concave() -> None:
    m = income_table(("original",))["marginal"].dropna()
    assert m.is_monotonic_decreasing and m.iloc[0] == 12 and m.iloc[19] == 2  # 1st and 20th city


def test_R110_payment_is_the_same_in_both_editions() -> None:
    t = income_table()
    assert list(t[t.edition == "original"]["income"]) == list(t[t.edition == "recharged"]["income"])


def test_R96_end_cities_by_players_and_edition() -> None:
    t = end_cities_table()
    assert list(t["original"]) == [21, 17, 17, 15, 14]
    assert list(t["recharged"]) == [18, 17, 17, 15, 14]


def test_R101_R102_original_breaks_a_money_tie_by_network_size() -> None:
    assert decided_by("original", TIE) == (["Bo"], HOW[2])


def test_R103_recharged_shares_a_tie_money_cannot_break() -> None:
    winners, how = decided_by("recharged", TIE)
    assert sorted(winners) == ["Ada", "Bo"] and how == HOW[3]


def test_R101_money_breaks_a_tie_on_cities_powered() -> None:
    assert decided_by("recharged", {"A": (12, 5, 12), "B": (12, 9, 12), "C": (13, 0, 13)}) == (["C"], HOW[0])
    assert decided_by("recharged", {"A": (12, 5, 14), "B": (12, 9, 12)}) == (["B"], HOW[1])


@pytest.mark.parametrize("edition", ["original", "recharged"])
def test_decided_by_agrees_with_the_engine_on_simulated_games(edition) -> None:
    games = simulate({"players": 3, "edition": edition}, 8, bots="heuristic", seeds=5, progress=False).games
    for _, grp in games.groupby("game"):
        table = {r.player: (int(r.score), int(r.money), int(r.cities)) for r in grp.itertuples()}
        assert sorted(decided_by(edition, table)[0]) == sorted(grp[grp["winner"]]["player"])


def _games() -> pd.DataFrame:
    """Two hand-made 2-player games: game 0 won outright by the trigger A, game 1 won by B on money."""
    return pd.DataFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "player": ["A", "B", "A", "B"],
                         "winner": [True, False, False, True], "win_share": [1.0, 0.0, 0.0, 1.0],
                         "score": [17, 12, 15, 15], "money": [10, 50, 20, 30], "cities": [17, 12, 17, 16],
                         "rounds": [10, 10, 12, 12]})


def test_trigger_summary_by_hand() -> None:
    s = trigger_summary(_games(), end_cities=17)
    assert s["triggers"]["n"] == 2 and s["triggers"]["win_rate"] == 0.5  # A ended both games, won one
    assert s["others"]["n"] == 2 and s["others"]["win_rate"] == 0.5
    assert s["games_won_by_a_trigger"]["k"] == 1 and s["games_won_by_a_trigger"]["n"] == 2
    assert s["rounds"][0] == 11 and s["fair_share"] == 0.5


def test_tie_summary_counts_a_money_tiebreak_by_hand() -> None:
    t = tie_summary(_games(), "original").set_index("decided by")
    assert t.loc[HOW[0], "games"] == 1 and t.loc[HOW[1], "games"] == 1 and (t["n"] == 2).all()
    assert t.loc[HOW[1], "ci_low"] < 0.5 < t.loc[HOW[1], "ci_high"]


def test_money_vs_cities_splits_winners_and_others() -> None:
    m = money_vs_cities(_games()).set_index("group")
    assert m.loc["winners", "money"] == 20 and m.loc["others", "money"] == 35
    assert m.loc["winners", "score"] == 16 and m.loc["winners", "n"] == 2


def test_R110_marginal_now_pays_cities_powered_not_owned() -> None:
    g = new_game(4, map="germany", edition="original", seed=3)
    play(g, [HeuristicBot(seed=k) for k in range(4)], until=lambda h: h.round >= 6 and h.phase == 5)
    now = marginal_now(g).set_index("player")
    for p in g.players:
        k = g.scores()[p]
        assert now.loc[p, "can power"] == k <= g.city_count(p)
        assert now.loc[p, "income"] == g.income(k)
        assert now.loc[p, "one more city adds"] == g.income(k + 1) - g.income(k)


def test_money_vs_cities_figure_names_its_edition_and_draws_the_means_last() -> None:
    fig = money_vs_cities_figure(_games(), "original edition")
    assert "(original edition, 2 games)" in fig.layout.title.text
    assert [t.name for t in fig.data][-2:] == ["others: mean (n = 2)", "winners: mean (n = 2)"]
