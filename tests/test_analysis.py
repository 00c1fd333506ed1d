"""analyze(): the candidates of each phase, Monte-Carlo playouts with common random numbers,
the decisive moves it must recognise, stopping early, the same result on every backend, bad input."""

from __future__ import annotations

import pytest
from _position import position, random_game
from pandas.testing import assert_frame_equal

from powergrid_nb import Bid, Build, BuyResources, Done, Open, Pass, Power
from powergrid_nb.bots import HeuristicBot, RandomBot, play
from powergrid_nb.bots.planner import cheapest_cities
from powergrid_nb.play.analysis import Analysis, Candidate, analyze, default_candidates
from powergrid_nb.play.analysis.playout import _Bidder

QUICK = dict(playouts=12, seed=5, progress=False)


def ending_build() -> object:
    """Round 12, Step 2, building: Ada (last to build) can add her 21st city and end the game (R96)
    powering 21 while Bo powers 18; if she waits, the rich Bo fuels his plants and wins the tie on money."""
    return position(["Ada", "Bo"], round=12, phase=4, step=2, order=["Bo", "Ada"], to_act=["Ada"], who={
        "Ada": {"money": 60, "plants": [50, 44, 39, 37], "tokens": (0, 0, 0, 2), "cities": list(range(20))},
        "Bo": {"money": 300, "plants": [38, 36, 33, 34], "tokens": (3, 0, 3, 0),
               "cities": list(range(1, 21))}})


def last_uranium() -> object:
    """Both players have 21 cities, so the game ends this round. Ada powers 21; Bo powers 18, or 23
    with the one uranium token left on the market, and would then win the tie on money (R100)."""
    return position(["Ada", "Bo"], round=12, phase=3, step=2, order=["Bo", "Ada"], to_act=["Ada", "Bo"],
                    resources={"coal": 10, "oil": 5, "garbage": 5, "uranium": 1}, who={
        "Ada": {"money": 60, "plants": [50, 44, 39, 37], "tokens": (0, 0, 0, 1), "cities": list(range(21))},
        "Bo": {"money": 300, "plants": [38, 36, 33, 34], "tokens": (3, 0, 3, 0), "cities": list(range(21))}})


def mid_game(phase: int, seed: int = 3) -> object:
    g = random_game(4, seed=seed)
    play(g, [HeuristicBot(seed=k) for k in range(4)], until=lambda h: h.round >= 4 and h.phase == phase)
    return g


# --- the decisive moves ----------------------------------------------------------------------------

def test_the_build_that_ends_the_game_wins_outright_R96() -> None:
    a = analyze(ending_build(), playouts=40, seed=1, progress=False)
    best = a.frame.iloc[0]
    assert best["candidate"].startswith("build 1:")
    assert best["win_probability"] > 0.95
    assert (a.frame["win_probability"].iloc[1:] < 0.3).all()
    assert a.separated and not a.partial


def test_buying_the_last_uranium_denies_the_rival_the_fuel_they_need_R48() -> None:
    a = analyze(last_uranium(), playouts=40, seed=1, progress=False)
    assert list(a.frame["candidate"]) == ["buy uranium 1", "buy nothing"]
    assert a.frame["win_probability"].iloc[0] > 0.95 > 0.3 > a.frame["win_probability"].iloc[1]
    assert "buy uranium 1" in a.suggestion and "clearly ahead" in a.suggestion


# --- the candidates --------------------------------------------------------------------------------

def test_auction_candidates_open_plants_with_bid_limits_and_pass() -> None:
    g = mid_game(2)
    me = g.current_player
    cs = default_candidates(g, me)
    assert 2 <= len(cs) <= 8
    opens = [c for c in cs if c.kind == "open"]
    assert opens and all(isinstance(c.actions[0], Open) and c.bid_limit >= c.actions[0].bid for c in opens)
    assert all(g.is_legal(c.actions[0]) for c in cs)
    assert any(isinstance(c.actions[0], Pass) for c in cs) == g.is_legal(Pass(me))


def test_candidates_in_a_running_auction_are_raises_up_to_limits_and_pass() -> None:
    g = mid_game(2)
    me = g.current_player
    x = g.current_market()[0]
    g.apply(Open(me, x, g.min_bid(x)))
    cs = default_candidates(g, g.current_player)
    assert cs[-1].label == "pass"
    raises = [c for c in cs if c.kind == "bid"]
    assert raises and all(c.actions == (Bid(g.current_player, g.min_bid(x) + 1),) for c in raises)
    assert len({c.bid_limit for c in raises}) == len(raises)


def test_building_candidates_are_the_planners_cheapest_sets() -> None:
    g = mid_game(4)
    me = g.current_player
    cs = default_candidates(g, me, limit=20)
    sets = {tuple(c.actions[0].cities) for c in cs if isinstance(c.actions[0], Build)}
    assert any(c.label == "build nothing" and c.actions == (Done(me),) for c in cs)
    for k in range(1, 3):
        found = cheapest_cities(g, me, k, g.money(me))
        if found is not None:
            assert found[0] in sets


def test_buying_candidates_include_nothing_and_all_one_resource_can_store() -> None:
    g = last_uranium()
    cs = default_candidates(g, "Ada")
    assert [c.label for c in cs] == ["buy nothing", "buy uranium 1"]
    assert cs[1].actions == (BuyResources("Ada", uranium=1), Done("Ada"))


def test_bureaucracy_candidates_are_the_ways_to_run_plants_most_first() -> None:
    g = mid_game(5)
    cs = default_candidates(g, g.current_player, limit=50)
    powers = [a for a in g.legal_actions() if isinstance(a, Power)]
    assert {c.actions[0] for c in cs} == set(powers[:50])
    assert len(cs[0].actions[0].plants) == max(len(a.plants) for a in powers)


def test_a_run_below_the_most_is_explained_with_the_suggestion_R99() -> None:
    """The note of a run powering fewer cities than possible is the engine's reason (as in the log);
    the suggestion repeats it when that run is the best."""
    g = mid_game(5)
    me = g.current_player
    runs = [a for a in g.legal_actions() if isinstance(a, Power)]
    most = max(g.power_outcome(me, a.plants, a.hybrid_coal).powered for a in runs)
    least = min(runs, key=lambda a: (g.power_outcome(me, a.plants, a.hybrid_coal).powered, a.plants))
    out = g.power_outcome(me, least.plants, least.hybrid_coal)
    assert out.powered < most
    a = analyze(g, candidates=[least], **QUICK)
    label = a.candidates[0].label
    assert out.fewer.startswith(f"not the {most} possible: ")
    assert a.notes[label] == f"it powers {out.powered}, {out.fewer}"
    assert a.suggestion.endswith(f". {label.capitalize()}: {a.notes[label]}")
    full = analyze(g, **QUICK)
    for c in full.candidates:
        said = g.power_outcome(me, c.actions[0].plants, c.actions[0].hybrid_coal)
        assert (full.notes[c.label] == "") == (said.powered == most)
    assert (full.notes[full.best.label] in full.suggestion) or not full.notes[full.best.label]


def test_a_playout_past_its_deadline_is_dropped_and_not_counted() -> None:
    """A time budget holds inside a playout too, so slow bots (search) keep to it: a playout still
    running at the deadline gives no result, and the analysis counts only finished ones."""
    import time

    from powergrid_nb.play.analysis.playout import PlayoutJob, play_candidate

    g = mid_game(2)
    c = default_candidates(g, g.current_player)[0]
    job = PlayoutJob(g.copy(), g.current_player, c, ("heuristic",) * 4, ("heuristic",) * 4, time.time() - 1)
    assert play_candidate(job, seed=3).rows == []
    assert play_candidate(job._replace(deadline=None), seed=3).rows
    a = analyze(g, bots="search", playouts=50, seed=1, progress=False, time_budget=0.5, max_candidates=2)
    assert a.partial and a.stopped_by == "time budget" and a.playouts < 50


def test_each_candidates_wins_per_playout_pair_up_and_make_its_win_probability() -> None:
    a = analyze(mid_game(3), **QUICK)
    for c in a.candidates:
        w = a.wins(c.label)
        assert len(w) == a.playouts
        row = a.frame.set_index("candidate").loc[c.label]
        assert sum(w) / len(w) == pytest.approx(row["win_probability"])
    with pytest.raises(ValueError, match="no candidate 'nope'"):
        a.wins("nope")


def test_a_bid_limit_raises_by_one_until_reached_then_passes() -> None:
    g = mid_game(2)
    me = g.current_player
    x = g.current_market()[0]
    low = g.min_bid(x)
    g.apply(Open(me, x, low))
    g.apply(Bid(g.current_player, low + 1))
    while g.current_player != me:
        g.apply(Pass(g.current_player))
    assert g.auction is not None and g.auction.plant == x  # the others passed: back to the opener
    assert _Bidder(RandomBot(0), me, x, low + 5, g.round).act(g) == Bid(me, low + 2)
    assert _Bidder(RandomBot(0), me, x, low + 1, g.round).act(g) == Pass(me)


# --- playouts --------------------------------------------------------------------------------------

def test_common_random_numbers_give_the_same_candidate_twice_the_same_playouts() -> None:
    g = mid_game(4)
    me = g.current_player
    same = [Candidate("done", (Done(me),)), Candidate("done again", (Done(me),))]
    a = analyze(g, candidates=same, **QUICK)
    assert (a.frame[["win_probability", "mean_rank", "mean_powered", "mean_money"]].nunique() == 1).all()
    assert (a.frame[["vs_best", "vs_best_low", "vs_best_high"]] == 0).all().all()


def test_the_same_seed_gives_the_same_analysis_locally_on_processes_and_on_dask() -> None:
    from dask import distributed  # the dev extra installs it: a missing dask fails, never skips

    g = mid_game(3)
    local = analyze(g, playouts=6, seed=9, progress=False)
    pooled = analyze(g, playouts=6, seed=9, progress=False, backend="processes", workers=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        dask = analyze(g, playouts=6, seed=9, progress=False, backend="dask", client=client)
    assert_frame_equal(local.frame, pooled.frame)
    assert_frame_equal(local.frame, dask.frame)
    assert local.seed == pooled.seed == dask.seed == 9


def test_the_frame_has_intervals_around_each_win_probability_best_first() -> None:
    a = analyze(mid_game(2), **QUICK)
    f = a.frame
    assert list(f.columns[:5]) == ["candidate", "kind", "win_probability", "ci_low", "ci_high"]
    assert ((f["ci_low"] <= f["win_probability"]) & (f["win_probability"] <= f["ci_high"])).all()
    assert f["win_probability"].is_monotonic_decreasing
    assert (f["playouts"] == 12).all() and a.playouts == 12
    assert a.best.label == f["candidate"].iloc[0]


def test_the_analysis_does_not_change_the_game() -> None:
    g = mid_game(4)
    before = g.to_dict()
    analyze(g, **QUICK)
    assert g.to_dict() == before


def test_the_figure_draws_each_candidate_with_its_interval() -> None:
    a = analyze(mid_game(2), **QUICK)
    fig = a.figure()
    bars = fig.data[0]
    assert list(bars.y) == list(a.frame["candidate"][::-1])
    assert list(bars.x) == list(a.frame["win_probability"][::-1])
    upper = a.frame["ci_high"] - a.frame["win_probability"]
    assert list(bars.error_x.array) == pytest.approx(list(upper[::-1]))
    assert f"{a.player}'s decision" in fig.layout.title.text


# --- stopping early --------------------------------------------------------------------------------

def test_it_stops_once_the_best_candidate_is_separated() -> None:
    a = analyze(ending_build(), playouts=400, seed=1, progress=False, stop_when_separated=True)
    assert a.partial and a.stopped_by == "separation" and a.separated
    assert 30 <= a.playouts < 400
    assert a.suggestion.endswith("(stopped once the best was clear)")


def test_a_time_budget_returns_what_it_has_marked_partial(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    analyze_module = importlib.import_module("powergrid_nb.play.analysis.analyze")

    ticks = iter(range(1_000_000))  # a clock that moves 0.1 s per reading, whatever the machine's load

    class Clock:
        time = staticmethod(analyze_module.time.time)  # the playouts' deadline: the real clock

        @staticmethod
        def perf_counter() -> float:
            return next(ticks) / 10

    monkeypatch.setattr(analyze_module, "time", Clock)
    a = analyze(mid_game(2), playouts=10_000, seed=1, progress=False, time_budget=2.0, max_candidates=2)
    assert a.partial and a.stopped_by == "time budget"
    assert a.suggestion.endswith("(partial: stopped by time budget)")
    assert a.playouts < 10_000 and len(a.frame) == len(a.candidates)


def test_a_stop_callback_stops_it() -> None:
    calls: list[Analysis] = []
    a = analyze(mid_game(4), playouts=50, seed=1, progress=False,
                stop=lambda so_far: calls.append(so_far) or len(calls) >= 3)
    assert a.partial and a.stopped_by == "stop" and len(calls) == 3


# --- bad input -------------------------------------------------------------------------------------

def test_a_finished_game_has_no_decision_to_analyse() -> None:
    g = random_game(2, seed=1)
    play(g, [HeuristicBot(seed=0), HeuristicBot(seed=1)])
    with pytest.raises(ValueError, match="the game is over"):
        analyze(g, **QUICK)


@pytest.mark.parametrize("n", [0, -3, 2.5])
def test_playouts_must_be_a_positive_whole_number(n) -> None:
    with pytest.raises(ValueError, match="playouts must be a whole number >= 1"):
        analyze(mid_game(2), playouts=n, progress=False)


def test_only_the_player_to_act_can_be_analysed() -> None:
    g = ending_build()
    with pytest.raises(ValueError, match="it is Ada's turn .*leave player out or play on to Bo's turn"):
        analyze(g, player="Bo", **QUICK)
    with pytest.raises(ValueError, match="'Zed' is not a player"):
        analyze(g, player="Zed", **QUICK)


def test_a_candidate_of_another_player_is_refused() -> None:
    with pytest.raises(ValueError, match="candidate 1 .*is Bo's decision; the analysis is of Ada's"):
        analyze(ending_build(), candidates=["Bo: done"], **QUICK)


def test_a_candidate_of_another_phase_is_refused_with_the_rule() -> None:
    with pytest.raises(ValueError, match=r"candidate 2 \(open 3 at 3\) is not a legal decision now "
                                         r"\(phase 4, building, Ada to act\).*R13") as e:
        analyze(ending_build(), candidates=["done", "open 3 at 3"], **QUICK)
    assert "Rule R13:" in str(e.value)


def test_an_unknown_candidate_is_named() -> None:
    with pytest.raises(ValueError, match=r"candidate 1 \('fly to the moon'\) is not an action"):
        analyze(ending_build(), candidates=["fly to the moon"], **QUICK)


def test_an_unknown_bot_is_refused_before_any_playout() -> None:
    with pytest.raises(ValueError, match="bots: unknown bot 'genius'"):
        analyze(ending_build(), bots="genius", **QUICK)


def test_user_candidates_as_texts_and_lines() -> None:
    g = ending_build()
    a = analyze(g, candidates=["done", ["build Würzburg", "done"]], **QUICK)
    assert set(a.frame["candidate"]) == {"done", "build Würzburg; done"}
    assert a.best.label == "build Würzburg; done"


def test_the_analysis_benchmark_runs_and_checks_backends_agree() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    cmd = [sys.executable, "benchmarks/analyze.py", "--playouts", "2", "--engines", "python"]
    r = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = [x for x in r.stdout.splitlines() if x.startswith("python ")]
    assert [x.split()[1] for x in rows] == ["processes", "local", "processes,"], r.stdout
    assert all(" 8 " in x for x in rows), r.stdout
