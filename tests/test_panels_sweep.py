"""The sweep panel ("Compare and sweep"): a rule parameter over a range, run in a background
thread with a progress bar and Stop; the figure shown is always a fresh sweep_figure of the result."""

from __future__ import annotations

import json
import time

import plotly.graph_objects as go
import pytest
from _panels import click, click_errors_fail, one, walk  # noqa: F401 (click_errors_fail: autouse)
from _position import random_game

import powergrid_nb.panels.sweep as sweep_module
from powergrid_nb.panels.sweep import SweepPanel
from powergrid_nb.views.whatif import sweep_figure


def plain(fig: go.Figure) -> str:
    """A figure's data and layout as JSON (NaN equal to NaN), without the trace ids a FigureWidget adds."""
    d = fig.to_dict()
    data = [{k: v for k, v in t.items() if k != "uid"} for t in d["data"]]
    return json.dumps({"data": data, "layout": d["layout"]}, sort_keys=True, default=str)


def fresh(panel: SweepPanel) -> str:
    """The figure a fresh build from the panel's result and choices gives."""
    return plain(sweep_figure(panel.result, panel.result.param_columns[0], by=panel.by.value))


def shown(panel: SweepPanel) -> str:
    (fig,) = one(panel, "pg-sweep-plot").children
    return plain(fig)


def setting(panel: SweepPanel, param: str, low: int, high: int, step: int, games: int,
            bots: str = "random") -> None:
    panel.param.value = param
    panel.low.value, panel.high.value, panel.step.value, panel.games.value = low, high, step, games
    for b in panel.bots:
        b.value = bots


def run(panel: SweepPanel) -> None:
    click(panel, "pg-sweep-run")
    panel.wait(60)
    assert not panel.running


def test_a_tiny_sweep_runs_in_the_background_and_fills_the_progress_bar() -> None:
    p = SweepPanel()
    setting(p, "starting_money", 30, 50, 10, 4)
    click(p, "pg-sweep-run")
    assert p.running or p.result is not None  # Run returns at once; the games play in a thread
    p.wait(60)
    assert len(p.result) == 3 * 4 and not p.result.stopped
    assert p.progress.value == p.progress.max == 12
    assert "Done: 12 of 12 games" in p.status.value
    assert sorted(set(p.result.games["starting_money"])) == [30, 40, 50]
    assert not one(p, "pg-sweep-run").disabled and one(p, "pg-sweep-stop").disabled


def test_the_figure_shown_is_a_fresh_sweep_figure_after_every_step() -> None:
    p = SweepPanel()
    steps = [lambda: (setting(p, "starting_money", 20, 60, 20, 3), run(p)),
             lambda: setattr(p.by, "value", "seat"),
             lambda: setattr(p.by, "value", "bot"),
             lambda: (setting(p, "plant_limit", 1, 3, 1, 2, bots="builder"), run(p)),
             lambda: setattr(p.by, "value", "player"),
             lambda: (setattr(p.players, "value", 2), setting(p, "end_cities", 10, 14, 2, 2), run(p)),
             lambda: (setting(p, "max_cities", 30, 10, 5, 2), run(p))]  # refused: the figure stays
    for i, step in enumerate(steps):
        step()
        assert shown(p) == fresh(p), f"step {i}"
        assert p.figure is one(p, "pg-sweep-plot").children[0]


def test_stop_keeps_the_games_played_and_marks_the_result_partial() -> None:
    p = SweepPanel()
    setting(p, "starting_money", 10, 90, 10, 40, bots="heuristic")  # 360 games: seconds, not instant
    click(p, "pg-sweep-run")
    deadline = time.monotonic() + 60
    while p.progress.value < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    click(p, "pg-sweep-stop")
    p.wait(60)
    assert p.result.stopped and 3 <= len(p.result) < 360
    assert "Stopped: a partial result" in p.status.value
    assert "PARTIAL" in p.figure.layout.title.text
    assert shown(p) == fresh(p)


@pytest.mark.parametrize("param, low, high, step, games, words", [
    ("starting_money", 60, 40, 10, 2, "empty range"),
    ("starting_money", 40, 60, 0, 2, "step must be 1 or more"),
    ("plant_limit", 0, 2, 1, 2, "plant_limit = 0 is below the smallest value the rules take, 1"),
    ("plant_limit", 0, 2, 1, 2, "R36: Plant limit"),
    ("end_cities", 15, 24, 1, 2, "end_cities = 22 (also 23, 24) cannot be played"),
    ("end_cities", 15, 24, 1, 2, "R96: The end check runs"),
    ("max_cities", 10, 20, 2, 2, "max_cities = 10 (also 12, 14, 16) cannot be played"),
    ("starting_money", 0, 100, 1, 2, "too many: at most 25"),
    ("starting_money", 0, 100, 10, 500, "games/value must be 1 to 181"),
], ids=lambda x: x if isinstance(x, str) and " " in x else None)
def test_a_bad_range_shows_a_message_and_runs_nothing(monkeypatch, param, low, high, step, games,
                                                       words) -> None:
    def no_games(*_a, **_k):
        raise AssertionError("a sweep was run")

    monkeypatch.setattr(sweep_module, "sweep", no_games)
    p = SweepPanel()
    setting(p, param, low, high, step, games)
    click(p, "pg-sweep-run")
    assert not p.running and p.result is None and p.plot.children == ()
    assert words in p.status.value.replace("&#x27;", "'")
    assert "#B00020" in p.status.value  # shown as an error


def test_each_parameter_starts_with_a_playable_range_around_its_value() -> None:
    p = SweepPanel()
    for name in sweep_module.RANGE_PARAMETERS:
        p.param.value = name
        assert p.low.value <= p.high.value
        assert p.plan(), name
        assert "now " in p.about.value and "(R" in p.about.value


def test_a_given_position_is_swept_from_where_it_stands() -> None:
    g = random_game(3, seed=2, moves=40)
    p = SweepPanel(base=g)
    assert [one(p, f"pg-sweep-bot-{i}") for i in range(3)]
    shown_widgets = list(walk(p))
    assert not any(x in shown_widgets for x in (p.players, p.map, p.edition))
    assert "from the position: 3 players" in one(p, "pg-sweep-base").value
    setting(p, "starting_money", 20, 40, 20, 2)
    run(p)
    assert len(p.result) == 4 and p.result.games["rounds"].min() >= g.round


def test_a_new_game_spec_is_a_base_too() -> None:
    p = SweepPanel(base={"players": 2, "map": "usa", "edition": "recharged"})
    assert p.seats == ["Ada", "Bo"]
    setting(p, "plant_limit", 2, 3, 1, 2)
    run(p)
    assert sorted(set(p.result.games["plant_limit"])) == [2, 3]


def test_sweep_figure_draws_only_a_swept_parameter() -> None:
    from powergrid_nb.play.simulation import sweep

    r = sweep({"players": 2}, {"plant_limit": [2, 3]}, games_per_point=2, bots="random", seeds=1,
              progress=False)
    with pytest.raises(ValueError, match="'end_cities' was not swept in this result; it sweeps"):
        sweep_figure(r, "end_cities")
    with pytest.raises(ValueError, match="by is 'player', 'seat' or 'bot'"):
        sweep_figure(r, by="colour")
    fig = sweep_figure(r)
    assert fig.layout.xaxis.title.text == "plant_limit" and list(fig.layout.xaxis.tickvals) == [2, 3]
