"""powergrid_nb.lessons.classgames (lessons 0 and 7): the class's exported games as tidy frames.

One known round is played from a position of the shared builder: in round 2 (order Ada, Bo, Cy) Bo
buys plant 7 for 10 after Ada opened it at 9, Ada buys plant 8 for 8, Cy buys no plant; Cy buys no
fuel, Bo buys 2 coal and 3 oil in one purchase, Ada 3 coal; Cy builds 1 city, Bo 2, Ada none; all
power what they can. Round 3 then starts with Bo first (3 cities to Ada's 2, R18).
"""

from __future__ import annotations

from functools import cache

import pandas as pd
import pytest
from _position import position

from powergrid_nb import Game
from powergrid_nb.bots import make_bot, play
from powergrid_nb.lessons import classgames as cg
from powergrid_nb.rooms import Seat, SQLiteStore

AUCTION = ["Ada: open 7 at 9", "Bo: bid 10", "Cy: pass", "Ada: pass", "Ada: open 8 at 8", "Cy: pass",
           "Cy: pass"]
FUEL = ["Cy: done", "Bo: buy coal 2 oil 3", "Bo: done", "Ada: buy coal 3", "Ada: done"]
BUILD = ["Cy: build Hamburg", "Cy: done", "Bo: build Kiel", "Bo: build Lübeck", "Bo: done", "Ada: done"]
POWER = ["Ada: power 8 13", "Bo: power 7 10", "Cy: power 4"]


def start() -> Game:
    return position(["Ada", "Bo", "Cy"], round=2, phase=1,  # phase 1 sets the order: Ada, Bo, Cy (R18)
                    who={"Ada": {"plants": [13], "cities": [0, 1], "money": 60},
                         "Bo": {"plants": [10], "cities": [2]},
                         "Cy": {"plants": [4], "tokens": (2, 0, 0, 0)}},
                    market=[3, 5, 6, 7, 8, 9, 11, 12], deck=[14, 15, 16])


@cache
def known() -> tuple[Game, dict[str, dict[str, int]]]:
    """The known round played, and each player's money before and after the fuel and the bureaucracy."""
    g = start()
    money: dict[str, dict[str, int]] = {}
    for name, actions in (("auction", AUCTION), ("fuel", FUEL), ("build", BUILD), ("power", POWER)):
        money[f"before {name}"] = {p: g.money(p) for p in g.players}
        for a in actions:
            g.apply(a)
        money[f"after {name}"] = {p: g.money(p) for p in g.players}
    return g, money


def tables() -> dict[str, Game]:
    return {"table1": known()[0]}


def test_the_known_round_ends_in_round_3() -> None:
    g, _ = known()
    assert (g.round, g.phase) == (3, 2)


def test_prices_paid_are_the_winning_bids_with_their_premium_over_the_plant_number() -> None:
    p = cg.plant_prices(tables())
    got = [(r.round, r.player, r.plant, r.price, r.premium) for r in p.itertuples()]
    assert got == [(2, "Bo", 7, 10, 3), (2, "Ada", 8, 8, 0)]
    assert set(p["group"]) == {"class"} and set(p["table"]) == {"table1"}


def test_a_mixed_fuel_purchase_is_one_row_with_its_average_price_per_token() -> None:
    _, money = known()
    f = cg.fuel_purchases(tables()).set_index("player")
    bo = f.loc["Bo"]
    paid = money["before fuel"]["Bo"] - money["after fuel"]["Bo"]
    assert (bo["coal"], bo["oil"], bo["garbage"], bo["uranium"], bo["tokens"]) == (2, 3, 0, 0, 5)
    assert bo["cost"] == paid and bo["per_token"] == pytest.approx(paid / 5)


def test_a_player_who_buys_no_fuel_has_no_purchase_row() -> None:
    assert sorted(cg.fuel_purchases(tables())["player"]) == ["Ada", "Bo"]


def test_the_fuel_mix_counts_the_tokens_of_each_resource() -> None:
    mix = cg.fuel_mix(cg.fuel_purchases(tables())).set_index("resource")
    assert mix.loc["coal", "tokens"] == 5 and mix.loc["oil", "tokens"] == 3
    assert mix.loc["coal", "share"] == pytest.approx(5 / 8)


def test_the_leader_of_a_round_is_first_in_its_player_order() -> None:
    lead = cg.leaders(tables())
    assert list(zip(lead["round"], lead["leader"], lead["changed"], strict=True)) == [
        (2, "Ada", False), (3, "Bo", True)]  # round 3: Bo has 3 cities, Ada 2 (R18)


def test_the_leader_table_has_a_row_per_table_and_a_column_per_round() -> None:
    t = cg.leader_table(cg.leaders(tables()))
    assert list(t.index) == ["table1"] and list(t.columns) == [2, 3]
    assert t.loc["table1", 3] == "Bo"


def test_lead_changes_are_counted_per_game() -> None:
    c = cg.lead_changes(cg.leaders(tables()))
    assert (c.loc[0, "rounds"], c.loc[0, "changes"], c.loc[0, "per_round"]) == (2, 1, 1.0)


def test_income_per_round_is_what_the_bureaucracy_paid_for_the_cities_powered() -> None:
    g, money = known()
    inc = cg.income_per_round(tables()).set_index("player")
    for p in g.players:
        paid = money["after power"][p] - money["before power"][p]
        assert inc.loc[p, "income"] == paid == g.income(int(inc.loc[p, "powered"]))
    assert (inc.loc["Ada", "powered"], inc.loc["Bo", "powered"], inc.loc["Cy", "powered"]) == (2, 3, 1)


def test_a_round_still_being_played_has_no_income_row() -> None:
    assert set(cg.income_per_round(tables())["round"]) == {2}


def test_a_room_exported_and_loaded_back_gives_the_same_frames(tmp_path) -> None:
    g = known()[0]
    store = SQLiteStore(tmp_path / "class.sqlite")
    room = store.create_room(g, [Seat(p, "human") for p in g.players], title="Table 1")
    (tmp_path / "exports").mkdir()
    store.export(room.room, tmp_path / "exports" / "table1.json")
    back = cg.load_class(tmp_path / "exports")
    assert list(back) == ["table1"]
    pd.testing.assert_frame_equal(cg.plant_prices(back), cg.plant_prices(tables()))
    pd.testing.assert_frame_equal(cg.income_per_round(back), cg.income_per_round(tables()))


def test_an_empty_exports_folder_says_how_to_fill_it(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="room export"):
        cg.load_class(tmp_path)


def test_a_bot_game_has_the_tables_setup_with_its_own_seed() -> None:
    g = known()[0]
    b = cg.same_setup(g, seed=5)
    assert (b.players, b.map.name, b.regions, b.edition) == (g.players, g.map.name, g.regions, g.edition)
    assert b.round == 1 and b.to_dict()["config"]["seed"] == 5


def test_bots_on_an_unfinished_game_stop_after_the_round_the_class_reached() -> None:
    bots = cg.bot_games(tables(), games=2, bots="heuristic", seed=1)
    assert [len(v) for v in bots.values()] == [2]
    assert all(b.round == known()[0].round + 1 and not b.is_over for b in bots["table1"])
    lead = cg.leaders(tables(), bots)
    assert set(lead[lead["group"] == "bots"]["game"]) == {"table1 / bot game 1", "table1 / bot game 2"}


def _values(rows: dict[str, dict[str, list[float]]]) -> pd.DataFrame:
    return pd.DataFrame([{"group": grp, "game": game, "x": v} for grp, games in rows.items()
                         for game, vs in games.items() for v in vs])


def test_a_game_counts_once_however_many_rows_it_has() -> None:
    s = cg.per_game(_values({"class": {"A": [0, 0, 0, 0], "B": [10]}}), "x").iloc[0]
    assert (s["mean"], s["games"], s["rows"]) == (5, 2, 5)


def test_the_difference_is_class_minus_bots_with_its_interval() -> None:
    d, lo, hi = cg.difference(_values({"class": {"A": [5], "B": [5]}, "bots": {"C": [3], "D": [3]}}), "x")
    assert (d, lo, hi) == (2, 2, 2)


def test_the_sentence_says_when_the_games_cannot_tell_the_class_from_the_bots() -> None:
    frame = _values({"class": {"A": [1], "B": [5]}, "bots": {"C": [2], "D": [4]}})
    assert "cannot tell" in cg.sentence(frame, "x", "x", "Elektro")
    apart = _values({"class": {"A": [9], "B": [10]}, "bots": {"C": [2], "D": [3]}})
    assert "the class paid more" in cg.sentence(apart, "x", "x", "Elektro", more="the class paid more")


def test_an_unfinished_game_has_no_last_leader() -> None:
    assert cg.last_leaders(tables()).empty


def test_the_last_leader_of_a_finished_game_is_its_last_rounds_leader_and_won_says_if_they_won() -> None:
    b = cg.same_setup(known()[0], seed=3)
    play(b, [make_bot("heuristic", seed=k) for k in range(len(b.players))])
    assert b.is_over
    last = cg.last_leaders({"t": b}).iloc[0]
    lead = cg.leaders({"t": b})
    assert last["leader"] == lead.sort_values("round")["leader"].iloc[-1]
    assert last["won"] == (last["leader"] in b.winners)


def test_the_price_figure_gives_its_sample_sizes_and_unit_in_the_title() -> None:
    title = cg.prices_figure(cg.plant_prices(tables())).layout.title.text
    assert "class n = 2" in title and "Elektro" in title


def test_the_income_figure_draws_no_mean_for_rounds_fewer_games_reached() -> None:
    fig = cg.income_figure(cg.income_per_round(tables()), min_games=2)  # one game: no mean line
    drawn = [t.name for t in fig.data if len(t.x)]
    assert drawn == ["one class player"] * 3


def test_one_class_game_gives_no_interval_and_no_verdict() -> None:
    frame = _values({"class": {"A": [9]}, "bots": {"C": [2], "D": [3]}})
    d, lo, hi = cg.difference(frame, "x")
    assert d == pytest.approx(6.5) and pd.isna(lo) and pd.isna(hi)
    assert "two games or more" in cg.sentence(frame, "x", "x", "Elektro")
