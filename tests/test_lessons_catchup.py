"""Lesson 4's measurements (powergrid_nb.lessons.catchup): the player order, the leader, the leader's win
rate with and without the reverse order (R18-R19, R45, R54)."""

import pandas as pd
import pytest

from powergrid_nb import new_game
from powergrid_nb.bots import HeuristicBot, play
from powergrid_nb.lessons import catchup
from powergrid_nb.play.results import mean_interval, wilson
from powergrid_nb.play.runner import bot_seed

TWO = {"standard": None, "leader first": []}


@pytest.fixture(scope="module")
def res():
    return catchup.run_rule_sets(6, seeds=500, variants=TWO)


def test_R18_R19_player_order_most_cities_first_ties_by_the_biggest_plant() -> None:
    cities, biggest = {"Ada": 5, "Bo": 6, "Cy": 6, "Dee": 4}, {"Ada": 25, "Bo": 20, "Cy": 31, "Dee": 13}
    order = catchup.player_order(cities, biggest)
    assert order == ["Cy", "Bo", "Ada", "Dee"]


def test_R22_players_still_tied_keep_the_order_given() -> None:
    assert catchup.player_order({"Bo": 2, "Ada": 2}, {}) == ["Bo", "Ada"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_lessons_order_by_hand_is_the_engines_order(seed) -> None:
    """catchup.player_order (the lesson's sort by hand) gives the engine's order of every round."""
    g = new_game(4, seed=seed)
    bots = [HeuristicBot(seed=k) for k in range(4)]
    previous = None
    for r in range(2, 8):
        play(g, bots, until=lambda h, r=r: h.round >= r and h.phase == 2)
        if g.is_over:
            break
        if previous is not None:
            cities = {p: len(g.cities_of(p)) for p in previous}
            biggest = {p: max(g.plants_of(p), default=0) for p in previous}
            assert catchup.player_order(cities, biggest) == g.player_order, r
        previous = list(g.player_order)
        play(g, bots, until=lambda h: h.phase != 2)  # plants change in the auction, not after


def test_the_leader_is_the_engines_first_player_of_the_next_round(res) -> None:
    led = catchup.leaders(res, 3)
    standard = led[led["reverse_order"] == "standard"]
    assert len(standard) == 6
    for row in standard.head(3).itertuples():
        g = new_game(4, seed=row.seed)
        play(g, [HeuristicBot(seed=bot_seed(row.seed, k)) for k in range(4)],
             until=lambda h: h.round == 4 and h.phase == 2)
        assert g.player_order[0] == row.leader
        assert len(g.cities_of(row.leader)) == row.cities


def test_the_leaders_win_is_the_games_win_share(res) -> None:
    led = catchup.leaders(res, 2)
    games = res.games.set_index(["point", "game", "player"])
    for row in led.itertuples():
        assert row.won == games.loc[(row.point, row.game, row.leader), "win_share"]


def test_leader_win_rate_has_a_wilson_interval_over_the_games_past_round_k(res) -> None:
    rates = catchup.leader_win_rates(res, rounds=[3]).set_index("reverse_order")
    led = catchup.leaders(res, 3)
    for label in TWO:
        mine = led[led["reverse_order"] == label]
        row = rates.loc[label]
        assert row["games"] == len(mine) and row["wins"] == mine["won"].sum()
        assert (row["low"], row["high"]) == pytest.approx(wilson(mine["won"].sum(), len(mine)))
        assert row["fair_share"] == pytest.approx(0.25)
    title = catchup.leader_figure(rates).layout.title.text
    lo, hi = int(rates["games"].min()), int(rates["games"].max())
    assert (f"past round k (n = {lo})" if lo == hi else f"past round k (n = {lo}-{hi})") in title
    spread = rates.assign(games=[7, 9] + [9] * (len(rates) - 2))
    assert "past round k (n = 7-9)" in catchup.leader_figure(spread).layout.title.text


def test_leader_figure_is_sized_for_a_projector_and_says_the_games_per_rule_set(res) -> None:
    fig = catchup.leader_figure(catchup.leader_win_rates(res, rounds=[2, 3]), games=6)
    assert fig.layout.title.text.startswith("Does the leader after round k win? (n = 6 games)<br>")
    assert fig.layout.font.size >= 16 and fig.layout.title.font.size > fig.layout.font.size


def test_order_text_tables_the_players_and_compares_the_order_by_hand_with_the_engines() -> None:
    cities, biggest = {"Ada": 5, "Bo": 6, "Cy": 6, "Dee": 4}, {"Ada": 25, "Bo": 20, "Cy": 31, "Dee": 13}
    text = catchup.order_text(cities, biggest, ["Cy", "Bo", "Ada", "Dee"])
    assert "| Cy | 6 | 31 | 1 |" in text and "| Dee | 4 | 13 | 4 |" in text
    assert "gives **Cy, Bo, Ada, Dee**" in text and "(the same)" in text and "The leader is **Cy**" in text
    assert "(different)" in catchup.order_text(cities, biggest, ["Bo", "Cy", "Ada", "Dee"])


def test_leader_rate_text_gives_both_rates_with_intervals_and_n(res) -> None:
    rates = catchup.leader_win_rates(res, rounds=[3])
    at = rates.set_index("reverse_order")
    text = catchup.leader_rate_text(rates, 3)
    for label in TWO:
        r = at.loc[label]
        assert f"{r.win_rate:.0%} [{r.low:.0%}, {r.high:.0%}] (n = {int(r.games)})" in text
    assert "The fair share is 25%" in text


def _effects(both, res3, bld4) -> pd.DataFrame:
    rows = [{"reversed": phase, "pairs": 100, "difference": (lo + hi) / 2, "low": lo, "high": hi}
            for phase, (lo, hi) in zip(catchup.PHASES, (both, res3, bld4), strict=True)]
    return pd.DataFrame(rows)


def test_phase_text_names_the_phase_that_holds_the_leader_back() -> None:
    text = catchup.phase_text(_effects(both=(-0.3, -0.1), res3=(-0.3, -0.1), bld4=(-0.1, 0.05)))
    assert "**first-mover disadvantage**" in text
    assert "Of the two phases, the resource order (phase 3) holds the leader back when reversed alone." \
        in text
    assert "reversing the building order alone cannot be told from no change" in text
    assert text.count("(n = 100 paired games)") == 3


def test_phase_text_says_what_building_last_gives_back_when_only_phase_3_is_a_brake() -> None:
    text = catchup.phase_text(_effects(both=(-0.1, 0.1), res3=(-0.3, -0.1), bld4=(-0.1, 0.1)))
    assert "building last in phase 4 gives back" in text


def test_phase_text_says_when_neither_phase_alone_can_be_told_from_no_change() -> None:
    text = catchup.phase_text(_effects(both=(-0.3, -0.1), res3=(-0.2, 0.1), bld4=(-0.1, 0.1)))
    assert "neither phase alone can be told from no change" in text
    assert "reversing both, as the rules do, lowers the leader's win rate (a brake)" in text


def test_outcomes_text_gives_gap_and_length_with_intervals_and_n(res) -> None:
    out = catchup.outcomes(res)
    text = catchup.outcomes_text(out)
    r = out.set_index("reverse_order").loc["leader first"]
    assert (f"- leader first: a gap of **{r.gap:.1f} cities** [{r.gap_low:.1f}, {r.gap_high:.1f}] and "
            f"**{r.rounds:.1f} rounds**") in text
    assert text.count("(n = 6 games)") == 2


def test_leader_difference_is_paired_by_seed(res) -> None:
    led = catchup.leaders(res, 3)
    a = led[led["reverse_order"] == "standard"].set_index("seed")["won"]
    b = led[led["reverse_order"] == "leader first"].set_index("seed")["won"]
    d = catchup.leader_difference(res, 3).iloc[0]
    both = a.index.intersection(b.index)
    assert d["pairs"] == len(both)
    expected = mean_interval((b[both] - a[both]).tolist())
    assert (d["difference"], d["low"], d["high"]) == pytest.approx(expected)


def test_phase_effects_start_from_the_leader_first_and_say_what_is_established(res) -> None:
    """Reversing both phases, read from the leader-first games: the standard rules minus leader first,
    paired by seed (the opposite of leader_difference's sign); the phases missing from a run are left out."""
    eff = catchup.phase_effects(res, 3)
    assert list(eff["reversed"]) == ["both phases"]
    row, d = eff.iloc[0], catchup.leader_difference(res, 3).iloc[0]
    assert row["pairs"] == d["pairs"] and row["difference"] == pytest.approx(-d["difference"])
    assert (row["low"], row["high"]) == pytest.approx((-d["high"], -d["low"]))
    assert row["established"] == (row["low"] > 0 or row["high"] < 0)


def test_outcomes_gap_is_the_most_minus_the_fewest_cities(res) -> None:
    out = catchup.outcomes(res).set_index("reverse_order")
    g = res.games[res.games["reverse_order"] == "standard"]
    gaps = g.groupby("game")["cities"].agg(lambda c: c.max() - c.min())
    assert out.loc["standard", "gap"] == pytest.approx(gaps.mean())
    assert out.loc["standard", "games"] == 6


def test_with_rules_keeps_the_position_and_changes_the_rule() -> None:
    g = new_game(4, seed=3)
    play(g, [HeuristicBot(seed=k) for k in range(4)], until=lambda h: h.round == 2 and h.phase == 2)
    h = catchup.with_rules(g, {"reverse_order": []})
    assert h.round == g.round and h.phase == g.phase
    assert {p: h.money(p) for p in h.players} == {p: g.money(p) for p in g.players}
    assert set(h.rules.tables["reverse_order"]) == set() and set(g.rules.tables["reverse_order"]) == {3, 4}


def _position():
    g = new_game(4, map="germany", edition="original", seed=8)
    play(g, [HeuristicBot(seed=k) for k in range(4)], until=lambda h: h.round == 3 and h.phase == 2)
    return g


def test_R45_R54_the_last_player_buys_and_builds_first_unless_the_leader_goes_first() -> None:
    moves = catchup.phases_3_and_4(_position(), {"standard": None, "leader first": {"reverse_order": []}})
    for what in ("resources", "city"):
        std = moves[(moves["variant"] == "standard") & (moves["what"] == what)]
        first = moves[(moves["variant"] == "leader first") & (moves["what"] == what)]
        assert list(std["place"]) == sorted(std["place"], reverse=True)  # leader last (R45, R54)
        assert list(first["place"]) == sorted(first["place"])            # leader first


def test_R50_the_leader_pays_more_for_the_same_tokens_when_buying_last() -> None:
    moves = catchup.phases_3_and_4(_position(), {"standard": None, "leader first": {"reverse_order": []}})
    s = catchup.turn_summary(moves).set_index(["variant", "place"])
    assert s.loc[("standard", 1), "resources"] == s.loc[("leader first", 1), "resources"]
    assert s.loc[("standard", 1), "paid for resources"] > s.loc[("leader first", 1), "paid for resources"]


def test_phases_3_and_4_refuses_a_position_whose_phase_3_order_is_set() -> None:
    g = new_game(4, seed=1)
    play(g, [HeuristicBot(seed=k) for k in range(4)], until=lambda h: h.phase == 3)
    with pytest.raises(ValueError, match="phase 1 or 2"):
        catchup.phases_3_and_4(g, {"standard": None})


def test_leaders_needs_the_per_round_frames() -> None:
    from powergrid_nb import simulate
    r = simulate({"players": 3}, 1, bots="heuristic", seeds=1, progress=False)
    with pytest.raises(ValueError, match="per_round"):
        catchup.leaders(r, 2)
