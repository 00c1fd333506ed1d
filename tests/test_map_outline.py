"""The optional ``outline`` of a map file: validated on load, shipped with the built-in
maps (public-domain data, a few hundred points), drawn under the map view; maps without one load
and draw as before."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from powergrid_nb import new_game
from powergrid_nb.engine.board.mapfile import parse_outline
from powergrid_nb.engine.board.maps import MapError, load_map
from powergrid_nb.views import map_figure
from powergrid_nb.views.mapboard import board, outline

ROOT = Path(__file__).resolve().parents[1]


def builtin(name: str) -> dict:
    return json.loads((ROOT / "maps" / f"{name}.json").read_text(encoding="utf-8"))


def near_or_inside(p: tuple[float, float], ring: list[tuple[float, float]], tol: float) -> bool:
    """Is ``p`` inside the ring (even-odd rule), or within ``tol`` degrees of its edge?"""
    x, y = p
    inside = False
    edges = list(zip(ring, ring[1:] + ring[:1], strict=True))
    for (x0, y0), (x1, y1) in edges:
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside

    def dist(a: tuple[float, float], b: tuple[float, float]) -> float:
        dx, dy = b[0] - a[0], b[1] - a[1]
        t = max(0.0, min(1.0, ((x - a[0]) * dx + (y - a[1]) * dy) / (dx * dx + dy * dy or 1.0)))
        return math.hypot(x - a[0] - t * dx, y - a[1] - t * dy)

    return inside or min(dist(a, b) for a, b in edges) <= tol


@pytest.mark.parametrize("name", ["germany", "usa"])
def test_builtin_outline_is_small_public_domain_data(name):
    data = builtin(name)["outline"]
    assert "public domain" in data["source"] and "scripts/make_outlines.py" in data["source"]
    assert ("Natural Earth" if name == "germany" else "Census Bureau") in data["source"]
    points = sum(len(r) for r in data["polygons"])
    assert 100 <= points <= 400 and all(len(r) >= 4 for r in data["polygons"])
    rings = [[(float(x), float(y)) for x, y in r] for r in data["polygons"]]
    assert parse_outline(builtin(name), name) == rings


@pytest.mark.parametrize("edition", ["original", "recharged"])
@pytest.mark.parametrize("name", ["germany", "usa"])
def test_every_city_is_on_the_country(name, edition):
    """The outline reads as the country: every city inside it (coastal ones within 0.1 degree)."""
    m = load_map(name, edition)
    rings = [list(r) for r in outline(m.path)]
    lost = [c.name for c in m.cities.values()
            if not any(near_or_inside((c.lon, c.lat), r, 0.1) for r in rings)]
    assert lost == []


@pytest.mark.parametrize(("change", "message"), [
    (lambda o: o.pop("source"), "outline: must be"),
    (lambda o: o.update(source=" "), "outline.source"),
    (lambda o: o.update(extra=1), "outline: must be"),
    (lambda o: o.update(polygons=[]), "outline.polygons: must be a non-empty list"),
    (lambda o: o["polygons"].append([[1, 2], [3, 4]]), "outline.polygons[5]: a ring needs at least 3"),
    (lambda o: o["polygons"][0].__setitem__(3, [200, 50]), "outline.polygons[0][3]: must be [lon, lat]"),
    (lambda o: o["polygons"][0].__setitem__(0, [9.5, True]), "outline.polygons[0][0]"),
])
def test_bad_outline_is_refused_with_where(change, message):
    data = builtin("germany")
    change(data["outline"])
    with pytest.raises(MapError) as e:
        load_map(data)
    assert message in str(e.value)


def test_a_map_without_outline_loads_and_draws_as_before(tmp_path):
    data = builtin("germany")
    del data["outline"]
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert load_map(str(path)).to_dict() == load_map("germany").to_dict()  # same map, edition aside
    g = new_game(3, map=str(path), seed=1)
    fig = map_figure(g)
    assert list(fig.layout.shapes) == [] and outline(str(path)) == ()
    assert not board(g).clashes


def test_outline_drawn_under_the_board():
    """One filled path per ring, in data coordinates, below the traces; the axes show it whole."""
    g = new_game(3, map="germany", seed=1)
    fig = map_figure(g)
    rings = builtin("germany")["outline"]["polygons"]
    assert len(fig.layout.shapes) == len(rings)
    shape = fig.layout.shapes[0]
    assert shape.type == "path" and shape.layer == "below" and shape.xref == "x" and shape.yref == "y"
    assert shape.path.startswith(f"M{rings[0][0][0]},{rings[0][0][1]}L") and shape.path.endswith("Z")
    assert shape.fillcolor and shape.line.color


def test_editions_keep_the_outline():
    data = builtin("usa")
    again = copy.deepcopy(data)
    assert load_map(again, "recharged").to_dict()["cities"]  # the edition block applies with it
    assert again == data  # loading changes nothing
