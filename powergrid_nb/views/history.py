"""The history view: money, cities, cities powered and income per round and player; the resource
prices over the rounds; auction prices paid against the plants' face values."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
import plotly.graph_objects as go

from powergrid_nb.engine.gamelog import count
from powergrid_nb.position.timeline import auctions_frame, market_history_frame, rounds_frame

from ._base import (
    RESOURCE_COLORS,
    base_layout,
    player_color,
    player_symbol,
    refreshing,
    scatter,
    subplots,
    view,
)

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

# (rounds_frame column, panel title with unit): the four small multiples, in trace order
PANELS = (("money", "Money at the end of the round (Elektro)"), ("cities", "Cities owned"),
          ("powered", "Cities powered"), ("income", "Income (Elektro)"))
HUMAN_ONLY = {"money", "powered", "income"}  # the Trust has no money, never powers


def _values(s: pd.Series) -> list[Any]:
    return [None if x is pd.NA else int(x) for x in s]


def _amount(y: Any, unit: str) -> str:
    """A point's value in words: "12 Elektro", "1 city", "3 cities" ("" for no value)."""
    if y is None:
        return ""
    return f"{y} Elektro" if unit == "Elektro" else count(y, "city", "cities")


def _line(g: Game, name: str, x: list[Any], y: list[Any], now: list[str], what: str, unit: str,
          legend: bool) -> dict:
    """One participant's line of a panel; the hover "Ada, round 3: 2 cities owned" (``customdata``:
    the "so far" note of the round in progress, the value in words)."""
    return scatter(x=x, y=y, name=name, legendgroup=name, showlegend=legend, mode="lines+markers",
                   line=dict(color=player_color(g, name), width=3),
                   customdata=[[n, _amount(v, unit)] for n, v in zip(now, y, strict=True)],
                   marker=dict(symbol=player_symbol(g, name), size=9, color=player_color(g, name)),
                   hovertemplate=f"{name}, round %{{x}}%{{customdata[0]}}: %{{customdata[1]}}{what}"
                                 "<extra></extra>")


@view("history")
def history_figure(g: Game, *, height: int = 800) -> go.Figure:
    """Over the rounds, per player (colour + symbol; one legend click toggles a player everywhere).

    Traces (fixed; n = participants, the Trust last): money[n], cities[n], powered[n], income[n],
    next-token price per resource[4], auction price vs face value[n], the y = x diagonal[1].
    """
    names = g.participants
    rf, mf, af = rounds_frame(g), market_history_frame(g), auctions_frame(g)
    auctions = "Auctions: price paid vs face value (Elektro)"
    if g.rules.capabilities.get("discount_token"):  # R40: explain the points far below the diagonal
        auctions += "<br><span style='font-size:13px'>open marker: bought with the discount token</span>"
    fig = subplots(rows=3, cols=2, vertical_spacing=0.14, horizontal_spacing=0.1,
                   subplot_titles=[t for _, t in PANELS] + [
                       "Next-token price at the start of the round (Elektro)", auctions])
    for k, (col, _) in enumerate(PANELS):
        unit = "Elektro" if col in ("money", "income") else "cities"
        what = {"powered": " powered", "cities": " owned", "income": " income"}.get(col, "")
        for name in names:
            rows = rf[rf["player"] == name]
            empty = col in HUMAN_ONLY and name == g.trust
            x = [] if empty else _values(rows["round"])
            y = [] if empty else _values(rows[col])
            now = [] if empty else [" (in progress: so far)" if p else "" for p in rows["in_progress"]]
            fig.add_trace(_line(g, name, x, y, now, what, unit, legend=col == "cities"),
                          row=k // 2 + 1, col=k % 2 + 1)
    for res, color in RESOURCE_COLORS.items():
        rows = mf[mf["resource"] == res]
        fig.add_trace(scatter(x=_values(rows["round"]), y=_values(rows["next_price"]), name=f"{res} price",
                              legendgroup=f"resource {res}", mode="lines+markers",
                              line=dict(color=color, width=3), marker=dict(size=8, color=color),
                              customdata=[[t] for t in _values(rows["tokens"])],
                              hovertemplate=f"{res}, round %{{x}}: next token %{{y}} Elektro "
                                            "(%{customdata[0]} on the market)<extra></extra>"),
                      row=3, col=1)
    for name in names:
        rows = af[af["player"] == name]
        how = ["<br>bought with the discount token (R40)" if d else "<br>a Trust take (free)" if t else ""
               for d, t in zip(rows["discounted"], rows["trust"], strict=True)]
        custom = [[r, p, h] for r, p, h in zip(_values(rows["round"]), _values(rows["premium"]), how,
                                               strict=True)]
        # open marker: a discount purchase, far below the diagonal for a reason
        color, symbol = player_color(g, name), player_symbol(g, name)
        fig.add_trace(scatter(
            x=_values(rows["face_value"]), y=_values(rows["price"]), name=name, legendgroup=name,
            showlegend=False, mode="markers", customdata=custom,
            marker=dict(symbol=[f"{symbol}-open" if d else symbol for d in rows["discounted"]], size=12,
                        color=color, line=dict(color=[color if d else "#FFFFFF" for d in rows["discounted"]],
                                               width=[2.5 if d else 1 for d in rows["discounted"]])),
            hovertemplate=f"{name}: plant %{{x}} for %{{y}} Elektro<br>round %{{customdata[0]}}, "
                          "premium %{customdata[1]:+d} Elektro%{customdata[2]}<extra></extra>"),
            row=3, col=2)
    top = max([10, *_values(af["face_value"]), *_values(af["price"])])
    fig.add_trace(scatter(x=[0, top], y=[0, top], name="paid = face value", mode="lines",
                          line=dict(color="#888888", dash="dash", width=2), hoverinfo="skip"),
                  row=3, col=2)
    # the round being played: shaded (the title says so), its values are "so far"
    live = [int(r) for r in rf.loc[rf["in_progress"], "round"].unique()]
    for k in range(len(PANELS)):
        axis = "" if k == 0 else str(k + 1)
        for r in live:
            fig.add_shape(type="rect", xref=f"x{axis}", yref=f"y{axis} domain", x0=r - 0.5, x1=r + 0.5,
                          y0=0, y1=1, fillcolor="#F0F0F0", line=dict(width=0), layer="below")
    if not live:  # game over: an invisible placeholder, so update() leaves the same (non-empty) shape list
        fig.add_shape(type="rect", xref="x", yref="y domain", x0=1, x1=1, y0=0, y1=0, visible=False)
    if not refreshing():  # update() leaves the axes as built
        zero = dict(rangemode="tozero", autorangeoptions=dict(include=[0, 5]))  # integer ticks when small
        rounds = dict(title_text="round", dtick=1, tick0=1,
                      autorangeoptions=dict(include=[1, 2], clipmin=0.5))
        for k, (col, _) in enumerate(PANELS):
            fig.update_xaxes(**rounds, row=k // 2 + 1, col=k % 2 + 1)
            fig.update_yaxes(title_text="Elektro" if col in ("money", "income") else "cities", **zero,
                             row=k // 2 + 1, col=k % 2 + 1)
        fig.update_xaxes(**rounds, row=3, col=1)
        fig.update_yaxes(title_text="Elektro", **zero, row=3, col=1)
        fig.update_xaxes(title_text="plant number = face value (Elektro)", **zero, row=3, col=2)
        # a little room under 0, so the Trust's free takes (price 0) are not cut by the axis
        fig.update_yaxes(title_text="price paid (Elektro)", autorangeoptions=dict(include=[-1.5, 10]),
                         zeroline=True, row=3, col=2)
    state = "game over" if g.is_over else \
        f"round {g.round}, {g.phase_name} · shaded: round {g.round}, still in progress (values so far)"
    base_layout(fig, f"History · {state}", height=height, legend=dict(groupclick="togglegroup"))
    return fig
