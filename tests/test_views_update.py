"""views.update on a live FigureWidget leaves exactly what a fresh build of the view has."""

from __future__ import annotations

import random

import plotly.graph_objects as go
import pytest

from powergrid_nb import new_game, views
from powergrid_nb.views._base import _REFRESHING, BUILDERS, Sketch, _parts


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


def _set(x: object) -> object:
    """Properties as set: None-valued keys dropped (plotly drops them when validating)."""
    if isinstance(x, dict):
        return {k: _set(v) for k, v in x.items() if v is not None}
    if isinstance(x, list | tuple):
        return [_set(v) for v in x]
    return x


def _compared(fig: object) -> object:
    """What update() copies from a fresh build (traces, annotations, shapes, title), as plain data."""
    if isinstance(fig, Sketch):
        return _set(list(_parts(fig)))
    assert isinstance(fig, go.Figure)
    return _set([[t.to_plotly_json() for t in fig.data],
                 {k: [o.to_plotly_json() for o in fig.layout[k]] for k in ("annotations", "shapes")},
                 fig.layout.title.to_plotly_json()])


@pytest.mark.parametrize("setup", [dict(players=4, seed=7),
                                   dict(players=3, seed=3, map="usa", edition="recharged")])
def test_a_refresh_sketch_holds_exactly_what_the_validated_figure_holds(setup):
    """Inside update() the views are built as plain-dict sketches (no plotly objects, subplots laid out once):
    at positions through a whole random game they equal the validated figure, so a refresh sends
    nothing for an unchanged view and leaves what a fresh build shows."""
    g = new_game(**setup)
    rng = random.Random(setup["seed"])
    checked = 0
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        if len(g.actions) % 40:
            continue
        for name, args in (("map", dict(player=g.players[0], plan=[], title="board")),
                           ("map", dict(player=g.players[1], plan=list(g.map.cities)[:3])), ("plants", {}),
                           ("resources", dict(player=g.players[0])), ("resources", {}), ("history", {}),
                           ("players", {})):
            built = BUILDERS[name](g, **args)
            token = _REFRESHING.set(True)
            try:
                sketch = BUILDERS[name](g, **args)
            finally:
                _REFRESHING.reset(token)
            assert isinstance(sketch, Sketch)
            assert _compared(sketch) == _compared(built), (name, len(g.actions))
            checked += 1
    assert checked >= 30
