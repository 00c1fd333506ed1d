"""What-if simulation: tidy frames, determinism, backends, forks, sweeps, stop, CLI."""

from __future__ import annotations

import functools
import json

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from powergrid_nb import Game, new_game
from powergrid_nb.bots import HeuristicBot, RandomBot, play
from powergrid_nb.cli import main
from powergrid_nb.engine.editions import get_edition
from powergrid_nb.play.runner import BACKENDS, bot_seed
from powergrid_nb.play.simulation import GAME_COLUMNS, make_job, play_one, simulate, sweep
from powergrid_nb.position.timeline import auctions_frame

SPEC = {"players": 4, "map": "germany", "edition": "original"}


def run(spec=SPEC, games=6, **kw) -> pd.DataFrame:
    return simulate(spec, games, seeds=kw.pop("seeds", 0), progress=False, **kw)


@pytest.fixture(scope="module")
def client():
    from dask import distributed  # the dev extra installs it: a missing dask fails, never skips
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def midgame() -> Game:
    """A 4-player game played by random bots to the start of round 3."""
    g = new_game(4, seed=3)
    return play(g, [RandomBot(seed=i) for i in range(4)], until=lambda g: g.round >= 3)


# --- the tidy frame -------------------------------------------------------------------------------

def test_games_frame_one_row_per_game_and_player_with_dtypes() -> None:
    r = run(games=5)
    df = r.games
    assert list(df.columns) == list(GAME_COLUMNS)
    assert {c: str(t) for c, t in df.dtypes.items()} == GAME_COLUMNS
    assert len(df) == 20 and len(r) == 5 and not r.stopped
    assert list(df["game"]) == [i for i in range(5) for _ in range(4)]
    assert list(df["seed"].unique()) == [0, 1, 2, 3, 4]
    assert list(df["player"][:4]) == ["Ada", "Bo", "Cy", "Dee"] and list(df["seat"][:4]) == [0, 1, 2, 3]
    per_game = df.groupby("game")
    assert (per_game["win_share"].sum() == 1).all()  # the win is shared out exactly once
    assert (per_game["winner"].sum() >= 1).all()
    assert sorted(per_game.get_group(0)["start_position"]) == [0, 1, 2, 3]
    assert (df[df["winner"]]["rank"] == 1).all()
    assert (df["rounds"] >= 2).all() and (df["plants_bought"] >= 1).all()


@pytest.mark.parametrize("spec,seed", [(SPEC, 5), ({"players": 2, "edition": "recharged"}, 8),
                                       ({"players": 5, "map": "usa", "edition": "recharged"}, 2)])
def test_plant_columns_agree_with_timeline_auctions_frame(spec, seed) -> None:
    """plants_bought, paid_for_plants and mean_premium are read from the history as auctions_frame does."""
    rows = run(spec, games=1, seeds=[seed]).games.to_dict("records")
    assert [{c: r[c] for c in GAME_COLUMNS} for r in play_one(_job_of(spec), seed).rows] == rows
    g = _replay(spec, seed)  # the same game, played by hand
    assert [g.money(p) for p in g.players] == [row["money"] for row in rows]
    a = auctions_frame(g)
    a = a[~a["trust"]]
    for row in rows:
        mine = a[a["player"] == row["player"]]
        assert row["plants_bought"] == len(mine)
        assert row["paid_for_plants"] == int(mine["price"].sum())
        assert row["mean_premium"] == pytest.approx(float(mine["premium"].mean()), nan_ok=True)


def _job_of(spec):
    return make_job(spec, "random")[0]


def _replay(spec, seed) -> Game:
    """The game ``simulate`` plays for this seed, rebuilt by hand (bots seeded as documented)."""
    g = new_game(seed=seed, **spec)
    return play(g, [RandomBot(seed=bot_seed(seed, i)) for i in range(len(g.players))])


def test_same_seeds_give_the_same_frames_and_other_seeds_differ() -> None:
    a, b = run(games=4, per_round=True), run(games=4, per_round=True)
    assert_frame_equal(a.games, b.games)
    assert_frame_equal(a.rounds, b.rounds)
    assert_frame_equal(a.games, run(games=None, seeds=[0, 1, 2, 3]).games)
    c = run(games=4, seeds=100)
    assert not c.games[["score", "money"]].equals(a.games[["score", "money"]])


def test_summary_win_rate_per_bot_and_seat() -> None:
    r = run(games=8, bots=["random", functools.partial(RandomBot), RandomBot, "random"])
    assert list(r.games["bot"][:4]) == ["random"] * 4  # a factory is named by its Bot class
    s = r.summary()
    assert list(s["bot"]) == ["random"] and s["seats"].iloc[0] == 32
    assert s["win_rate"].iloc[0] == pytest.approx(0.25) and s["fair_share"].iloc[0] == pytest.approx(0.25)
    assert s["ci_low"].iloc[0] < 0.25 < s["ci_high"].iloc[0]
    by_seat = r.summary(by="seat")
    assert list(by_seat["seat"]) == [0, 1, 2, 3] and by_seat["wins"].sum() == 8


def test_per_round_frames() -> None:
    r = run(games=3, per_round=True)
    rounds, market = r.rounds, r.market
    assert list(rounds.columns[:5]) == ["game", "seed", "round", "player", "bot"]
    assert list(market.columns[:4]) == ["game", "seed", "round", "resource"]
    last = r.games.groupby("game")["rounds"].first()
    assert (rounds.groupby("game")["round"].max() == last).all()
    assert (rounds.groupby("game").size() == 4 * last).all()
    assert (market.groupby("game").size() == 4 * last).all()  # 4 resources per round
    final = rounds[rounds["round"] == rounds["game"].map(last)].reset_index(drop=True)
    assert list(final["money"]) == list(r.games["money"])
    assert run(games=1).rounds is None


def test_per_round_auctions_are_every_plant_bought_with_its_price() -> None:
    r = run(games=3, per_round=True)
    sales = r.auctions
    assert list(sales.columns[:6]) == ["game", "seed", "round", "step", "player", "bot"]
    bought = sales.groupby(["game", "player"]).agg(n=("price", "size"), paid=("price", "sum"))
    games = r.games.set_index(["game", "player"])
    assert (bought["n"] == games.loc[bought.index, "plants_bought"]).all()
    assert (bought["paid"] == games.loc[bought.index, "paid_for_plants"]).all()
    assert (sales["premium"] == sales["price"] - sales["face_value"]).all()
    assert run(games=1).auctions is None


def test_trust_game_rows_are_the_humans_and_the_trust_is_in_rounds() -> None:
    r = run({"players": 2, "edition": "recharged"}, games=2, per_round=True)
    assert list(r.games["player"]) == ["Ada", "Bo"] * 2
    assert set(r.rounds.loc[r.rounds["is_trust"], "bot"]) == {"trust"}


# --- ranking --------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec,tiebreak", [(SPEC, ["money", "cities"]),
                                           ({"players": 3, "edition": "recharged"}, ["money"])])
def test_rank_is_the_rules_ranking(spec, tiebreak) -> None:
    """rank = 1 + players strictly ahead by cities powered (R99), then the edition's tie-breaks
    (R100-R102: money, [ORIG] cities); winners are rank 1."""
    df = run(spec, games=6).games
    for _, game in df.groupby("game"):
        keys = [tuple(k) for k in game[["score", *tiebreak]].itertuples(index=False)]
        assert list(game["rank"]) == [1 + sum(o > k for o in keys) for k in keys]
        assert list(game["winner"]) == list(game["rank"] == 1)


def test_players_the_tie_breaks_cannot_split_share_a_rank(monkeypatch) -> None:
    """O16/R103: equal rank keys share the place (competition ranking 1, 1, 3, 3) and the victory."""
    monkeypatch.setattr(Game, "rank_key", lambda self, p: (1,) if p in ("Ada", "Bo") else (0,))
    df = run(games=2).games
    assert list(df["rank"]) == [1, 1, 3, 3] * 2
    assert list(df["winner"]) == [True, True, False, False] * 2
    assert list(df["win_share"]) == [0.5, 0.5, 0.0, 0.0] * 2
    s = run(games=2).summary(by="seat")
    assert list(s["wins"]) == [1.0, 1.0, 0.0, 0.0]


# --- backends -------------------------------------------------------------------------------------

def test_local_and_processes_give_identical_frames() -> None:
    kw = {"games": 6, "seeds": 21, "bots": ["random", "builder", RandomBot, "random"]}
    local = run(**kw)
    assert_frame_equal(local.games, run(backend="processes", workers=2, **kw).games)
    assert BACKENDS == ("local", "processes", "dask")


def test_local_processes_and_dask_give_identical_frames(client) -> None:
    kw = {"games": 24, "seeds": 40, "per_round": True, "bots": ["random", RandomBot, "random", "random"]}
    local = run(**kw)
    procs = run(backend="processes", workers=2, **kw)
    dask = run(backend="dask", client=client, **kw)
    for other in (procs, dask):
        assert_frame_equal(local.games, other.games)
        assert_frame_equal(local.rounds, other.rounds)
        assert_frame_equal(local.market, other.market)
        assert_frame_equal(local.auctions, other.auctions)
    assert len(dask) == 24 and not dask.stopped


def test_heuristic_bots_give_identical_frames_on_every_backend(client) -> None:
    """Dask workers are spawned (another hash seed): the bots must not depend on set order."""
    heuristic = HeuristicBot
    kw = {"games": 4, "seeds": 3, "bots": [heuristic, "random", heuristic, "random"]}
    local = run(**kw)
    assert_frame_equal(local.games, run(backend="processes", workers=2, **kw).games)
    assert_frame_equal(local.games, run(backend="dask", client=client, **kw).games)


def test_dask_without_a_client_starts_its_own_cluster_or_joins_an_address(client) -> None:
    """workers=2: a LocalCluster of 2 processes, closed afterwards; workers="tcp://...": that scheduler."""
    local = run(games=4, seeds=9)
    own = run(games=4, seeds=9, backend="dask", workers=2)
    joined = run(games=4, seeds=9, backend="dask", workers=client.scheduler.address)
    assert_frame_equal(local.games, own.games)
    assert_frame_equal(local.games, joined.games)
    assert client.status == "running"  # the address run closed only its own connection


def test_dask_sweep_matches_local_sweep(client) -> None:
    grid = {"starting_money": [40, 60]}
    local = sweep(SPEC, grid, 6, seeds=0, progress=False)
    dask = sweep(SPEC, grid, 6, seeds=0, progress=False, backend="dask", client=client)
    assert_frame_equal(local.games, dask.games)


# --- forks ----------------------------------------------------------------------------------------

def test_fork_from_a_mid_game_position(midgame: Game, tmp_path) -> None:
    """Each run plays on from the position; only the seed (future shuffles, bots) differs."""
    r = run(midgame, games=4, seeds=10)
    assert (r.games["rounds"] >= 3).all()
    before = {p: len(midgame.plants_of(p)) for p in midgame.players}
    assert all(row.plants_bought >= before[row.player] for row in r.games.itertuples())
    assert r.games.groupby("game")["money"].apply(tuple).nunique() > 1  # the runs differ
    path = tmp_path / "mid.json"
    midgame.save(str(path))
    for same in (midgame.to_dict(), str(path)):
        assert_frame_equal(r.games, run(same, games=4, seeds=10).games)
    job = _fork_job(midgame)
    g = Game.from_dict({**job.scenario, "config": {**job.scenario["config"], "seed": 77}})
    assert g.seed == 77 and g.round == midgame.round and g.s.deck == midgame.s.deck
    assert midgame.round == 3 and not midgame.is_over  # the original is untouched


def _fork_job(g):
    return make_job(g, "random")[0]


def test_fork_with_a_rule_change(midgame: Game) -> None:
    """rules= applies to a fork from that point on: end_cities=1 ends each run after this round."""
    r = run(midgame, games=3, rules={"end_cities": 1})
    assert (r.games["rounds"] == midgame.round).all()


# --- sweeps ---------------------------------------------------------------------------------------

def test_sweep_adds_point_and_parameter_columns() -> None:
    refill = {"4": {"1": [9, 3, 2, 1]}}
    r = sweep(SPEC, {"starting_money": [50, 80], "refill": {"standard": None, "coal 9": refill}}, 2,
              seeds=0, progress=False)
    df = r.games
    assert list(df.columns[:3]) == ["point", "starting_money", "refill"]
    assert str(df["starting_money"].dtype) == "Int64" and str(df["refill"].dtype) == "string"
    assert df.groupby("point")[["starting_money", "refill"]].first().values.tolist() == [
        [50, "standard"], [50, "coal 9"], [80, "standard"], [80, "coal 9"]]
    assert (df.groupby("point")["seed"].apply(lambda s: sorted(set(s))) == [[0, 1]] * 4).all()
    s = r.summary()
    assert list(s.columns[:3]) == ["starting_money", "refill", "bot"] and len(s) == 4
    plain = sweep(SPEC, {"refill": [refill]}, 1, seeds=0, progress=False).games
    assert plain["refill"].iloc[0] == json.dumps(refill)  # dict values as JSON text


def test_sweep_doubling_coal_refill_lowers_the_coal_price() -> None:
    """R108 what-if, measured: coal refill x2 for every player count and step, 30 random games.

    Random bots hardly buy coal from the standard full market, so both points start with a scarce
    coal market (6 tokens) where the refill matters. Same seeds at both points (paired games).
    """
    base = get_edition("original").tables["refill"]
    double = {p: {st: [2 * v[0], *v[1:]] for st, v in steps.items()} for p, steps in base.items()}
    r = sweep(SPEC, {"refill": {"standard": None, "double coal": double}}, 30, seeds=0,
              rules={"initial_market": {"coal": 6}}, per_round=True, progress=False)
    coal = r.market[r.market["resource"] == "coal"]
    per_game = coal.groupby(["refill", "game"])["next_price"].mean().unstack(0)
    diff = per_game["standard"] - per_game["double coal"]
    assert per_game["double coal"].mean() < per_game["standard"].mean()
    assert diff.mean() > 2 * diff.std() / len(diff) ** 0.5  # not noise: over 2 standard errors
    refilled = coal.groupby("refill")["refilled"].sum()
    assert refilled["double coal"] > refilled["standard"]


# --- stopping early -------------------------------------------------------------------------------

def test_stop_callable_keeps_the_finished_games() -> None:
    r = run(games=10, stop=lambda res: len(res) >= 3)
    assert len(r) == 3 and r.stopped and sorted(r.games["game"].unique()) == [0, 1, 2]


def test_stop_after_seconds_keeps_the_finished_games() -> None:
    r = run(games=50, stop=0.0)  # checked after each game: stops after the first
    assert len(r) == 1 and r.stopped and len(r.games) == 4


def test_ctrl_c_keeps_the_finished_games() -> None:
    def interrupt(res) -> bool:
        if len(res) >= 2:
            raise KeyboardInterrupt
        return False

    r = run(games=10, stop=interrupt)
    assert len(r) == 2 and r.stopped


def test_stop_in_parallel_keeps_whole_chunks(client) -> None:
    r = run(games=64, backend="dask", client=client, stop=lambda res: len(res) >= 1)
    assert r.stopped and 1 <= len(r) < 64
    assert r.games.groupby("game").size().eq(4).all()


# --- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw,match", [
    ({"bots": ["random", "nobot"]}, "unknown bot 'nobot'"),
    ({"bots": ["random", "random"]}, "one per player"),
    ({"bots": [RandomBot(seed=1)]}, "not the instance"),
    ({"rules": {"coal_price": 3}}, "unknown rule parameter"),
    ({"rules": {"starting_money": -5}}, "starting_money"),
    ({"bidding": "loudest"}, "bidding"),
    ({"backend": "cloud"}, "unknown backend"),
    ({"games": None}, "games must be"),
    ({"seeds": [1, 2], "games": 3}, "2 seeds for 3 games"),
])
def test_bad_input_is_a_clear_error(kw, match) -> None:
    args = {"games": 2, "progress": False, **kw}
    with pytest.raises(ValueError, match=match):
        simulate(SPEC, **args)


def test_bad_sweep_parameter() -> None:
    with pytest.raises(ValueError, match="cannot sweep 'players'"):
        sweep(SPEC, {"players": [3, 4]}, 1, progress=False)


# --- command line ---------------------------------------------------------------------------------

def test_cli_writes_parquet_and_csv(tmp_path, capsys) -> None:
    out, rounds = tmp_path / "r.parquet", tmp_path / "rounds.csv"
    args = ["simulate", "--players", "3", "--bots", "random", "--games", "4", "--seed", "7",
            "--rules", '{"starting_money": 60}', "--no-progress"]
    assert main([*args, "--out", str(out), "--per-round", str(rounds)]) == 0
    text = capsys.readouterr().out
    assert "4 of 4 games" in text and "random" in text and "95% CI" in text
    expected = simulate({"players": 3}, 4, seeds=7, rules={"starting_money": 60}, progress=False,
                        per_round=True)
    assert_frame_equal(pd.read_parquet(out), expected.games)
    back = pd.read_csv(rounds)
    assert list(back.columns) == list(expected.rounds.columns) and len(back) == len(expected.rounds)
    assert list(back["money"]) == list(expected.rounds["money"])
    csv = tmp_path / "r.csv"
    assert main([*args, "--out", str(csv)]) == 0
    assert list(pd.read_csv(csv)["score"]) == list(expected.games["score"])


def test_cli_backend_choices_are_the_runners(capsys) -> None:
    assert main(["simulate", "--games", "1", "--no-progress", "--backend", "cloud"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'cloud'" in err and all(repr(b) in err for b in BACKENDS)


@pytest.mark.parametrize("argv,match", [
    (["--bots", "random,nobot,random"], "unknown bot 'nobot'"),
    (["--rules", '{"starting_money": 60'], "--rules is not valid JSON"),
    (["--rules", '{"speed": 1}'], "unknown rule parameter"),
    (["--out", "results.xlsx"], "must end in .parquet, .pq or .csv"),
])
def test_cli_bad_input_exits_2_with_a_message(argv, match, capsys) -> None:
    assert main(["simulate", "--games", "1", "--no-progress", *argv]) == 2
    assert match in capsys.readouterr().err


def test_cli_refuses_parquet_without_pyarrow_before_playing(monkeypatch, tmp_path, capsys) -> None:
    """No game is played (and none lost) when the output cannot be written: the check comes first."""
    import importlib.util

    from powergrid_nb.play import simulation

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pyarrow" else real(name, *a))
    played = []
    monkeypatch.setattr(simulation, "simulate", lambda *a, **k: played.append(1))
    out = tmp_path / "r.parquet"
    assert main(["simulate", "--games", "1000", "--no-progress", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "writing parquet needs pyarrow" in err and "pip install 'powergrid_nb[parquet]'" in err
    assert not played and not out.exists()


def test_cli_refuses_a_place_it_cannot_write_before_playing(tmp_path, capsys) -> None:
    """Under a file, no folder can be made: refused at once (the permission check works the same way)."""
    (tmp_path / "notes.txt").write_text("x")
    out = tmp_path / "notes.txt" / "r.csv"
    assert main(["simulate", "--games", "1", "--no-progress", "--out", str(out)]) == 2
    assert "cannot write there" in capsys.readouterr().err


def test_cli_refuses_a_folder_as_the_output(tmp_path, capsys) -> None:
    (tmp_path / "r.csv").mkdir()
    assert main(["simulate", "--games", "1", "--no-progress", "--out", str(tmp_path / "r.csv")]) == 2
    assert "is a folder; give a file name" in capsys.readouterr().err
