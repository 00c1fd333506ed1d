"""views.update on a live FigureWidget leaves exactly what a fresh build of the view has."""

from __future__ import annotations

import plotly.graph_objects as go

from powergrid_nb import new_game, views


def shown(fig: go.Figure) -> dict:
    out = fig.to_plotly_json()
    data = [{k: v for k, v in t.items() if k != "uid"} for t in out["data"]]
    return {"data": data, "layout": out["layout"]}


def test_an_update_that_removes_every_shape_leaves_no_shape_list():
    g = new_game(["You", "Bo"], seed=1)
    fig = go.FigureWidget(views.resources_figure(g, player="You"))
    assert fig.layout.shapes  # the player's room and money lines
    views.update(fig, g, player=None)
    assert "shapes" not in fig.to_plotly_json()["layout"]
    assert shown(fig) == shown(go.FigureWidget(views.resources_figure(g, player=None)))


def test_an_update_that_adds_shapes_back_shows_them():
    g = new_game(["You", "Bo"], seed=1)
    fig = go.FigureWidget(views.resources_figure(g, player=None))
    views.update(fig, g, player="You")
    assert shown(fig) == shown(go.FigureWidget(views.resources_figure(g, player="You")))
