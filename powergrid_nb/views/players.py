"""The players view: money, cities against what each can power now, plants and their tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..frames import owned_plants_frame
from ..plants import RESOURCES
from ._base import base_layout, player_color, refreshing, to_int, view

if TYPE_CHECKING:
    from ..game import Game



def player_label(order: Any, name: str) -> str:
    """The y-axis label of a participant: their place in the player order, then the name."""
    return name if to_int(order) is None else f"{int(order)}. {name}"


def plant_text(row: Any) -> str:
    """One owned plant as text: "13 (eco)", "21 [2 coal/4]", "29 [1 coal+2 oil/6]"."""
    if not row["tokens"]:
        return f"{row['plant']} ({row['fuel']})"
    held = [f"{row[r]} {r}" for r in RESOURCES if row[r]] or [f"0 {row['fuel']}"]
    return f"{row['plant']} [{'+'.join(held)}/{row['storage']}]"


def plants_text(g: Game) -> dict[str, str]:
    """Each owner's plants, smallest first, joined with " · " (from ``owned_plants_frame``)."""
    out: dict[str, list[str]] = {}
    for _, row in owned_plants_frame(g).iterrows():
        out.setdefault(row["owner"], []).append(plant_text(row))
    return {k: " · ".join(v) for k, v in out.items()}


@view("players")
def players_figure(g: Game, *, height: int = 420) -> go.Figure:
    """Per participant in player order: cities owned vs cities they can power now, money with the
    income they would get now, and their plants with stored tokens/storage.

    Traces (fixed): 0 cities owned (bars), 1 can power now (bars), 2 money (bars), 3 plants table.
    """
    pf = g.players_frame()
    names = [str(n) for n in pf.index]
    current = [bool(x) for x in pf["is_current"]]
    # who is to act: a ▶ before the name (no heavy outline, which would blacken a short bar)
    labels = [("▶ " if c else "") + player_label(o, n)
              for c, o, n in zip(current, pf["order"], names, strict=True)]
    colors = [player_color(g, n) for n in names]
    cities = [to_int(x) for x in pf["cities"]]
    can = [to_int(x) for x in pf["can_power"]]
    trust = [n == g.trust for n in names]
    # the Trust has no money (R130): "–" and no bar, as in the table
    money = [None if t else to_int(x) for t, x in zip(trust, pf["money"], strict=True)]
    income = [to_int(x) for x in pf["income_now"]]
    plants = plants_text(g)

    fig = make_subplots(rows=1, cols=3, column_widths=[0.26, 0.22, 0.52], horizontal_spacing=0.07,
                        specs=[[{"type": "xy"}, {"type": "xy"}, {"type": "table"}]],
                        subplot_titles=("Cities owned / can power (hatched)", "Money (+ income now)",
                                        "Plants [tokens/storage]"))
    hover = "%{y}: %{x} %{meta}<extra></extra>"
    fig.add_trace(go.Bar(name="cities owned", y=labels, x=cities, orientation="h", meta="cities owned",
                         marker=dict(color=colors), text=cities, textposition="auto",
                         textangle=0, hovertemplate=hover, offsetgroup="owned"), row=1, col=1)
    fig.add_trace(go.Bar(name="can power now", y=labels, x=can, orientation="h",
                         meta="cities they can power now",
                         marker=dict(color=colors, opacity=0.55, pattern=dict(shape="/", fgcolor="#FFFFFF")),
                         text=can, textposition="auto", textangle=0, hovertemplate=hover,
                         offsetgroup="power"),
                  row=1, col=1)
    money_text = ["–" if m is None else f"{m}" if i is None else f"{m} (+{i})"
                  for m, i in zip(money, income, strict=True)]
    money_hover = ["no money (the Trust)" if m is None else f"{m} Elektro; income if powering now: "
                   + ("–" if i is None else f"{i} Elektro") for m, i in zip(money, income, strict=True)]
    fig.add_trace(go.Bar(name="money", y=labels, x=[0 if m is None else m for m in money], orientation="h",
                         showlegend=False, marker=dict(color=colors), text=money_text, textposition="outside",
                         textangle=0, cliponaxis=False, customdata=money_hover,
                         hovertemplate="%{y}: %{customdata}<extra></extra>"), row=1, col=2)
    fig.add_trace(go.Table(
        columnwidth=[0.22, 0.16, 0.62],
        header=dict(values=["<b>player</b>", "<b>income now (Elektro)</b>", "<b>plants</b>"], align="left",
                    fill_color="#EEEEEE", font=dict(size=14)),
        cells=dict(values=[labels,
                           ["–" if i is None else str(i) for i in income],
                           [plants.get(n, "none") for n in names]],
                   align="left", font=dict(size=13, color=[colors, ["#000000"] * len(names),
                                                           ["#000000"] * len(names)]),
                   height=28)), row=1, col=3)
    if not refreshing():  # update() leaves the axes as built
        # room between the names and the bars; whole-number city ticks
        fig.update_yaxes(autorange="reversed", automargin=True, ticksuffix="  ", row=1, col=1)
        fig.update_yaxes(autorange="reversed", showticklabels=False, row=1, col=2)
        fig.update_xaxes(title_text="cities", rangemode="tozero", tickformat="d",
                         autorangeoptions=dict(include=[0, 4]), row=1, col=1)
        fig.update_xaxes(title_text="Elektro", rangemode="tozero", row=1, col=2)
    who = [f"{g.current_player} to act"] if g.current_player else []
    base_layout(fig, " · ".join(["Players", f"round {g.round}", g.phase_name, *who]), height=height,
                barmode="group", showlegend=False)
    return fig
