"""powergrid_nb.tournament: frames, seat rotation, seeds, Wilson intervals, workers."""

from __future__ import annotations

import pandas as pd
import pytest

from powergrid_nb.bots.base import BOTS, RandomBot
from powergrid_nb.bots.heuristic import HeuristicBot
from powergrid_nb.play.tournaments import (
    GAME_COLUMNS,
    SUMMARY_COLUMNS,
    TournamentResult,
    lineup,
    summarise,
    tournament,
    wilson,
)


def quick(bots=("random", "random", "random", "random"), games=4, **kw) -> TournamentResult:
    return tournament(list(bots), games, progress=False, **kw)


# --- Wilson score interval -----------------------------------------------------------------------------

@pytest.mark.parametrize(("wins", "n", "low", "high"), [
    (8, 10, 0.4901625, 0.9433178),   # textbook: 8 of 10
    (50, 100, 0.4038315, 0.5961685),
    (0, 10, 0.0, 0.2775328),         # upper = z^2 / (n + z^2)
    (10, 10, 0.7224672, 1.0),
    (1, 4, 0.0455869, 0.6993574),
])
def test_wilson_known_values(wins, n, low, high):
    lo, hi = wilson(wins, n)
    assert lo == pytest.approx(low, abs=1e-6)
    assert hi == pytest.approx(high, abs=1e-6)


def test_wilson_no_games_is_uninformative():
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_fractional_wins_lie_between():
    lo, hi = wilson(2.5, 10)
    assert wilson(2, 10)[0] < lo < wilson(3, 10)[0]
    assert wilson(2, 10)[1] < hi < wilson(3, 10)[1]


# --- frames --------------------------------------------------------------------------------------------

def test_games_frame_one_row_per_game_and_seat():
    r = quick([HeuristicBot, RandomBot], games=6, players=4)
    g = r.games
    assert list(g.columns) == GAME_COLUMNS
    assert len(g) == 24 and g["game"].nunique() == 6
    assert sorted(g["seed"].unique()) == list(range(6))
    assert (g.groupby("game")["seat"].apply(sorted) == pd.Series([[0, 1, 2, 3]] * 6)).all()
    assert (g.groupby("game")["player"].nunique() == 4).all()
    assert g["score"].dtype == "int64" and g["winner"].dtype == bool and g["win_share"].dtype == float
    assert (g.groupby("game")["win_share"].sum().round(9) == 1.0).all()
    assert (g.loc[g["winner"], "rank"] == 1).all()
    assert (g["rounds"] > 1).all() and (g["decisions"] > 0).all()


def test_summary_per_bot():
    r = quick([HeuristicBot, RandomBot], games=8, players=4)
    s = r.summary
    assert list(s.columns) == SUMMARY_COLUMNS and s.index.name == "bot"
    assert list(s.index) == ["heuristic", "random"]
    assert s.loc["heuristic", "games"] == 8 and s.loc["random", "games"] == 24
    assert s["wins"].sum() == pytest.approx(8)
    h = s.loc["heuristic"]
    assert h["win_rate"] == pytest.approx(h["wins"] / 8)
    assert (h["ci_low"], h["ci_high"]) == pytest.approx(wilson(h["wins"], 8))
    assert "TournamentResult(8 games)" in repr(r)


def test_shared_victories_count_one_over_k():
    rows = [{"game": 0, "bot": "a", "win_share": 0.5, "score": 10, "rank": 1, "money": 5},
            {"game": 0, "bot": "b", "win_share": 0.5, "score": 10, "rank": 1, "money": 5},
            {"game": 1, "bot": "a", "win_share": 1.0, "score": 12, "rank": 1, "money": 9},
            {"game": 1, "bot": "b", "win_share": 0.0, "score": 8, "rank": 2, "money": 1}]
    s = summarise(pd.DataFrame(rows))
    assert s.loc["a", "wins"] == 1.5 and s.loc["a", "win_rate"] == 0.75
    assert s.loc["b", "wins"] == 0.5 and s.loc["b", "mean_score"] == 9.0
    assert (s.loc["a", "ci_low"], s.loc["a", "ci_high"]) == pytest.approx(wilson(1.5, 2))


# --- seats and seeds -------------------------------------------------------------------------------------

def test_seats_rotated_every_entry_plays_every_seat():
    r = quick(games=8)
    g = r.games
    assert (g.groupby(["entry", "seat"]).size() == 2).all() and len(g.groupby(["entry", "seat"])) == 16
    first = g[g["game"] == 1].set_index("entry")["seat"].to_dict()
    assert first == {0: 1, 1: 2, 2: 3, 3: 0}  # game i: entry e at seat (e + i) % n


def test_seats_fixed_without_rotation():
    g = quick(games=3, seats_rotated=False).games
    assert (g["entry"] == g["seat"]).all()


def test_seat_zero_is_the_first_player_by_lot():
    from powergrid_nb import new_game
    g = quick(games=3).games
    for seed, df in g.groupby("seed"):
        order = new_game(4, seed=int(seed)).seat_order
        assert list(df.sort_values("seat")["player"]) == order


def test_same_seed_same_results():
    a = quick([HeuristicBot, RandomBot], games=4, players=4, seed=10).games
    b = quick([HeuristicBot, RandomBot], games=4, players=4, seed=10).games
    pd.testing.assert_frame_equal(a, b)
    c = quick([HeuristicBot, RandomBot], games=4, players=4, seed=11).games
    assert not a.equals(c)


def test_workers_give_the_same_results():
    a = quick([HeuristicBot, RandomBot], games=4, players=3, seed=5).games
    b = quick([HeuristicBot, RandomBot], games=4, players=3, seed=5, workers=2).games
    pd.testing.assert_frame_equal(a, b)


def test_instance_specs_are_templates():
    """An instance is copied and re-seeded for each game: the template is untouched, results repeat."""
    template = RandomBot(123)
    state = template.rng.getstate()
    a = quick([template, HeuristicBot], games=3, players=3).games
    b = quick([template, HeuristicBot], games=3, players=3).games
    pd.testing.assert_frame_equal(a, b)
    assert template.rng.getstate() == state
    assert set(a["bot"]) == {"random", "heuristic"}


def test_registry_names_use_make_bot():
    assert "random" in BOTS
    g = quick(["random", "random"], games=2).games
    assert set(g["bot"]) == {"random"} and len(g) == 4


# --- options and errors ----------------------------------------------------------------------------------

def test_game_options_reach_new_game():
    g = quick([HeuristicBot, HeuristicBot], games=2, edition="recharged", map="usa").games
    assert len(g) == 4 and set(g["player"]) <= {"Ada", "Bo"}  # the Trust is not a seat
    g = quick([HeuristicBot, RandomBot, RandomBot], games=1, starting_cities=True).games
    assert len(g) == 3


def test_lineup_fills_with_the_last_bot():
    assert lineup(["heuristic", "random"], 4) == ["heuristic", "random", "random", "random"]
    assert lineup(["a", "b", "c"], None) == ["a", "b", "c"]
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        lineup(["a", "b", "c"], 2)
    with pytest.raises(ValueError, match="2 to 6"):
        lineup(["a"], None)


def test_unknown_bot_name_is_explained():
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        quick(["nobody", "random"], games=1)


def test_zero_games_gives_empty_frames():
    r = quick(games=0)
    assert r.games.empty and list(r.games.columns) == GAME_COLUMNS and r.summary.empty


# --- one runner: tournament = simulate plus seat rotation --------------------------------------------

def test_tournament_is_simulate_plus_rotation():
    """Game i of a tournament is simulate's game for seed + i with the same bot at each player."""
    from powergrid_nb.play.simulation import simulate

    t = quick(["builder", "random"], games=3, players=3, seed=20).games
    cols = ["player", "bot", "score", "money", "cities", "rank", "winner", "win_share", "rounds"]
    for game, rows in t.groupby("game"):
        rows = rows.sort_values("player")  # Ada, Bo, Cy = game.players order
        s = simulate({"players": 3}, bots=list(rows["bot"]), seeds=[20 + game], progress=False).games
        assert list(s["start_position"]) == list(rows["seat"])
        for c in cols:
            assert list(s[c]) == list(rows[c]), c


def test_tournament_ties_share_a_rank(monkeypatch):
    """The same ranking as simulate: players the tie-breaks cannot split share a rank (O16)."""
    from powergrid_nb import Game

    monkeypatch.setattr(Game, "rank_key", lambda self, p: (0,) if p == "Cy" else (1,))
    g = quick(games=2).games
    assert sorted(g.loc[g["player"] != "Cy", "rank"]) == [1] * 6
    assert set(g.loc[g["player"] == "Cy", "rank"]) == {4}
    assert g.loc[g["player"] != "Cy", "win_share"].round(9).eq(round(1 / 3, 9)).all()


def test_processes_backend_gives_the_same_results():
    a = quick(["builder", "random"], games=4, players=3, seed=7).games
    b = quick(["builder", "random"], games=4, players=3, seed=7, backend="processes", workers=2).games
    pd.testing.assert_frame_equal(a, b)
