"""A picture that travels: a displayed Game leaves a static picture (SVG + HTML) that a saved
notebook shows on GitHub or nbviewer, beside the live table JupyterLab shows."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from powergrid_nb import new_game
from powergrid_nb.views.picture import CHAR_WIDTH, position_html, position_svg

SVG = "{http://www.w3.org/2000/svg}"


def _played(players: int, map: str, rounds: int, seed: int = 3):
    g = new_game(players, map=map, seed=seed)
    rng = random.Random(seed)
    while g.round < rounds and not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("map", ["germany", "usa"])
def test_the_map_picture_draws_every_city_and_house(map):
    g = _played(5, map, 10)
    root = ET.fromstring(position_svg(g))
    circles = root.findall(f"{SVG}circle")
    assert len(circles) == len(g.map.cities)
    houses = [r for r in root.findall(f"{SVG}rect") if r.find(f"{SVG}title") is not None]
    assert len(houses) == sum(len(o) for o in g.houses().values()) > 0
    for r in houses:
        owner = r.find(f"{SVG}title").text.split(":")[0]
        assert owner in g.participants


@pytest.mark.parametrize("map", ["germany", "usa"])
def test_city_names_in_the_picture_never_overlap(map):
    g = _played(6, map, 14, seed=5)
    boxes = []
    for t in ET.fromstring(position_svg(g)).findall(f"{SVG}text"):
        size, x, y = float(t.get("font-size")), float(t.get("x")), float(t.get("y"))
        boxes.append((x, y - size, x + CHAR_WIDTH * size * len(t.text), y))
        assert t.text in g.houses()
    assert boxes
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_the_picture_is_self_contained():
    """No script, no stylesheet or image from anywhere: it renders the same offline and on GitHub."""
    page = position_html(_played(4, "germany", 5))
    assert "<script" not in page and "<link" not in page and "<img" not in page
    assert re.findall(r"https?://[^\"' ]+", page) == ["http://www.w3.org/2000/svg"]


def test_the_state_of_play_is_in_the_picture():
    g = _played(4, "germany", 6)
    page = position_html(g)
    assert f"round {g.round} · step {g.step} · phase {g.phase} ({g.phase_name})" in page
    for p in g.players:
        assert f"{p}</td><td style=\"padding:2px 8px;text-align:left\">{g.money(p)} E" in page


def test_a_displayed_game_leaves_the_live_table_and_the_picture(monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, raw=False: shown.append((obj, raw)))
    g = _played(3, "germany", 3)
    g._ipython_display_()
    ((bundle, raw),) = shown
    assert raw and "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/html"] == position_html(g)
    assert g.picture().data == position_html(g)
