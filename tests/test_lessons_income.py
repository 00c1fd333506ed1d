"""Lesson 5: income and endgame computations (lessons.income), against the rules and the engine."""

import pandas as pd
import pytest

from powergrid_nb import new_game, simulate
from powergrid_nb.bots import HeuristicBot, play
from powergrid_nb.lessons.income import (
    HOW,
    decided_by,
    end_cities_table,
    income_figure,
    income_table,
    marginal_now,
    marginal_text,
    money_text,
    money_vs_cities,
    money_vs_cities_figure,
    position_text,
    tie_summary,
    tie_text,
    trigger_conclusion,
    trigger_figure,
    trigger_summary,
    trigger_text,
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
    assert fig.layout.title.text.endswith(", original edition (n = 2 games)")
    assert [t.name for t in fig.data][-2:] == ["others: mean (n = 2)", "winners: mean (n = 2)"]


def test_figures_are_sized_for_a_projector_with_n_or_unit_in_the_title() -> None:
    figs = [income_figure(income_table()), money_vs_cities_figure(_games()),
            trigger_figure({"original": trigger_summary(_games(), end_cities=17)})]
    for fig in figs:
        assert fig.layout.font.size >= 16
    assert "(Elektro per round)" in figs[0].layout.title.text
    assert "(n = 2 games)" in figs[1].layout.title.text and "(n = 2 games)" in figs[2].layout.title.text


def test_marginal_text_reads_diminishing_returns_from_the_engines_table() -> None:
    g = new_game(3, seed=0)
    text = marginal_text(income_table())
    assert f"The first city powered adds **{g.income(1) - g.income(0)} Elektro** a round" in text
    assert f"city number 20 adds only **{g.income(20) - g.income(19)}**" in text
    assert "**diminishing returns**" in text
    assert f"from {g.income(1)} (1 city) to {g.income(20) / 20:.1f} (20 cities)" in text


def test_position_text_compares_the_next_citys_income_with_the_average() -> None:
    columns = ["player", "cities", "can power", "income", "one more city adds"]
    now = pd.DataFrame([("Ada", 9, 9, 98, 7), ("Bo", 1, 0, 10, 12)], columns=columns)
    text = position_text(now)
    assert ("**Ada** powers 9: the average is 98 / 9 = **10.89** Elektro per city, the next city adds "
            "**7**, less than the average, so the average falls.") in text
    assert "**Bo** powers no city: the first would add 12 Elektro." in text


def test_money_text_gives_winners_and_others_with_n() -> None:
    text = money_text(_games(), "original")
    assert text.startswith("**original** (2 games): winners ended with 20 Elektro")
    assert "(n = 2), the others with 35" in text and "winners powered 16.0 cities" in text


def test_trigger_text_and_conclusion_by_hand() -> None:
    s = trigger_summary(_games(), end_cities=17)
    text = trigger_text(s, "original", 17, players=2)
    assert text.startswith("**original**, 2 players (ends at 17 cities), 2 games: the players who ended the "
                           "game won 50.0% [")
    assert "(n = 2 player-games)" in text and "Games lasted 11.0 rounds" in text
    assert trigger_conclusion({"original": s}).startswith("In neither edition did the players who ended")


def test_tie_text_counts_the_games_a_tie_break_decided() -> None:
    text = tie_text(tie_summary(_games(), "original"), "original")
    assert "outright in 1 of 2 games" in text and "**50%** [" in text and "(n = 2 games)" in text


def test_income_figure_draws_the_average_income_per_city_beside_the_marginal() -> None:
    fig = income_figure(income_table())
    avg = next(t for t in fig.data if t.name == "average per city")
    g = new_game(3, seed=0)
    assert list(avg.x)[:3] == [1, 2, 3] and list(avg.y)[:3] == [g.income(k) / k for k in (1, 2, 3)]
