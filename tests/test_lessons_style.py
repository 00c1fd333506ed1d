"""Figures for a projector (powergrid_nb.lessons.style): fonts a student reads from the back of the room,
and the sample size and unit in the title; every figure of lessons 1-3 goes through it."""

import functools

import pandas as pd
import plotly.graph_objects as go
import pytest

from powergrid_nb import new_game
from powergrid_nb.lessons import capital, market, networks
from powergrid_nb.lessons.style import BODY, SMALL, TITLE, projector


def test_projector_sets_student_sized_fonts_and_a_larger_title():
    fig = projector(go.Figure(layout={"title": "Prices"}))
    assert fig.layout.font.size == BODY >= 16 and fig.layout.title.font.size == TITLE > BODY
    assert fig.layout.xaxis.tickfont.size == SMALL >= 16 and fig.layout.legend.font.size >= 16


def test_projector_adds_the_sample_size_and_unit_to_the_first_line_of_the_title():
    fig = projector(go.Figure(layout={"title": "Prices<br><sup>mean</sup>"}), n=40, unit="Elektro")
    assert fig.layout.title.text == "Prices (Elektro; n = 40 games)<br><sup>mean</sup>"
    assert projector(go.Figure(layout={"title": "Prices"})).layout.title.text == "Prices"


@functools.cache
def _figures():
    g = new_game(4, map="germany", edition="original", seed=1)
    hist = pd.DataFrame({"round": [1, 1], "resource": ["coal", "oil"], "price": [2.0, 3.0], "low": 1.0,
                         "high": 4.0, "sold_out": 0.0, "sold_out_low": 0.0, "sold_out_high": 0.3, "games": 7})
    spikes = pd.DataFrame({"game": [0, 1], "resource": "coal", "peak": [3.0, 4.0], "peak_round": 1,
                           "sold_out": 0})
    table = capital.plant_table(g, powered=3, city=20)
    auctions = pd.DataFrame({"edition": "original", "plant": [10, 10, 10], "premium": [0, 1, 2],
                             "discounted": False})
    curse = {"original": pd.DataFrame({"n": [7, 7], "win_rate": [0.2, 0.3], "low": 0.1, "high": 0.5,
                                       "mean_premium": [3.0, 1.0]}, index=[1, 2])}
    growth = networks.growth_costs(g, k=3)
    return {"supply curve": market.supply_curve_figure(g),
            "refill": market.refill_figure(market.refill_table(("original",))),
            "price history": market.price_history_figure(hist),
            "spikes": market.spike_figure(spikes, hist),
            "payback": capital.economics_figure(table),
            "premiums": capital.premium_figure(capital.premium_by_plant(auctions, min_sales=1)),
            "curse": capital.curse_figure(curse),
            "regions": networks.region_figure(g, networks.region_costs(growth), 3),
            "centrality": networks.centrality_figure(g, networks.centrality(g)),
            "map": networks.map_view(g)}


@pytest.mark.parametrize("name", ["supply curve", "refill", "price history", "spikes", "payback", "premiums",
                                  "curse", "regions", "centrality", "map"])
def test_every_lesson_figure_is_sized_for_a_projector(name):
    fig = _figures()[name]
    assert fig.layout.font.size >= 16 and fig.layout.title.font.size > fig.layout.font.size
    for trace in fig.data:  # text drawn on the plot by the lesson modules (the map view lays out its own)
        if name != "map" and getattr(trace, "textfont", None) is not None and trace.textfont.size:
            assert trace.textfont.size >= 14, (name, trace.name)


def test_sample_sizes_and_units_are_in_the_titles():
    figs = _figures()
    assert "(Elektro; n = 7 games)" in figs["price history"].layout.title.text
    assert "(Elektro; n = 2 games)" in figs["spikes"].layout.title.text
    assert "(n = 7 games)" in figs["curse"].layout.title.text
    for name in ("supply curve", "price history", "premiums", "regions", "centrality"):
        assert "Elektro" in figs[name].layout.title.text, name
