"""The resource market as supply curves: what the next token costs, what n tokens cost in all,
and how the curves move after the next refill.

One column per resource (coal, oil, garbage, uranium). Top row: the price of the k-th token
bought now (a step function); bottom row: the total cost of buying k tokens. Dashed: the same
after the next phase-5 refill if nobody buys. Prices come from the engine (the frames and the
game's ``resource_track``), never from a table here.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import accumulate
from typing import TYPE_CHECKING

import pandas as pd
import plotly.graph_objects as go

from powergrid_nb.engine.gamelog import count, verb
from powergrid_nb.engine.rules.plants import RESOURCES
from powergrid_nb.frames import price_ladder_frame

from ._base import (
    RESOURCE_COLORS,
    base_layout,
    player_color,
    player_symbol,
    refreshing,
    scatter,
    subplots,
    to_int,
    view,
)

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

KEY = "#8C8C8C"
LEGEND_PX = 58  # from the bottom of the plots down to the legend (below the x-axis titles)
NOTES_PX = 48  # from the legend's top down to the player's notes: room for a legend that wraps once


def _after_refill(g: Game, refill: dict[str, int]) -> dict[str, list[int]]:
    """Prices of every token buyable after the next refill if nobody buys first: the track at the
    engine's prices (R117), then any depot (R126) with what stays in the supply."""
    track, market, supply = g.resource_track, g.resource_market(), g.resource_supply()
    out = {}
    for k, r in enumerate(RESOURCES):
        prices = track.price_ladder(k, market[r] + refill[r])
        depot = g.depot_price(r)
        if depot is not None:
            prices += [depot] * max(0, supply[r] - refill[r])
        out[r] = prices
    return out


def _title(r: str, info: pd.Series) -> str:
    """A column's title: the next token's price, then (smaller, grey) the market's numbers, kept out of
    the plot area so no note covers a price step."""
    nxt = to_int(info["next_price"])
    if nxt is None:
        head = f"<b>{r}</b>: sold out"
    else:
        head = f"<b>{r}</b>: next token {nxt} E" + ("" if int(info["market_total"]) else " (depot)")
    lines = [f"market {int(info['market_total'])} · supply {int(info['supply'])}",
             f"on plants {int(info['held'])} · refill +{int(info['refill_next'])}"]
    depot = to_int(info["depot_price"])
    if depot is not None:
        lines.append(f"then the depot at {depot} E")
    small = "<br>".join(f"<span style='font-size:13px;color:#555555'>{t}</span>" for t in lines)
    return f"{head}<br>{small}"


def _tokens_cost(k: Iterable[int], other: Iterable[int]) -> list[list[object]]:
    """A curve's ``customdata``: per point "1 token costs" / "3 tokens cost" and the other curve's value."""
    return [[count(n, "token") + (" costs" if n == 1 else " cost"), int(v)]
            for n, v in zip(map(int, k), other, strict=True)]


def _ladder_hover(r: str, when: str) -> str:
    return (f"<b>{r}, {when}</b><br>token %{{x}} costs %{{y}} Elektro<br>"
            f"%{{customdata[0]}} %{{customdata[1]}} Elektro in all<extra></extra>")


def _total_hover(r: str, when: str) -> str:
    return (f"<b>{r}, {when}</b><br>%{{customdata[0]}} %{{y}} Elektro in all<br>"
            f"(token %{{x}}: %{{customdata[1]}} Elektro)<extra></extra>")


@view("resources")
def resources_figure(g: Game, *, player: str | None = None, height: int = 620) -> go.Figure:
    """Supply curves of the four resources now and after the next refill; with ``player``, how many
    tokens of each they can still store and afford."""
    if player is not None and player not in g.participants:
        raise ValueError(f"unknown player {player!r}; expected one of {', '.join(g.participants)}")
    rf = g.resources_frame().groupby("resource", observed=True).first()
    lf = price_ladder_frame(g)
    afters = _after_refill(g, {r: int(rf.loc[r, "refill_next"]) for r in RESOURCES})
    money = g.money(player) if player is not None else 0
    rooms = g.storage_room(player) if player is not None else dict.fromkeys(RESOURCES, 0)
    hybrid = player is not None and g.storage_of(player)["hybrid"] > 0
    titles = [_title(r, rf.loc[r]) for r in RESOURCES]
    fig = subplots(rows=2, cols=4, shared_xaxes="columns", subplot_titles=titles,
                   vertical_spacing=0.1, horizontal_spacing=0.05)
    pcolor = player_color(g, player) if player is not None else KEY
    psymbol = player_symbol(g, player) if player is not None else "circle"
    notes: list[dict] = []
    shapes: list[dict] = []
    data: list[dict] = []
    axes: dict[str, dict] = {}
    for c, r in enumerate(RESOURCES, 1):
        color = RESOURCE_COLORS[r]
        info = rf.loc[r]
        lad = lf[lf["resource"] == r]
        mkt, dep = lad[lad["source"] == "market"], lad[lad["source"] == "depot"]
        k, price = [int(x) for x in lad["k"]], [int(x) for x in lad["price_of_kth"]]
        total = [int(x) for x in lad["cumulative_cost"]]
        after = afters[r]
        after_total = list(accumulate(after))
        ka = list(range(1, len(after) + 1))
        line = dict(color=color, width=3, shape="hv")
        dashed = dict(color=color, width=2, dash="dash", shape="hv")
        traces = [
            scatter(x=[int(x) for x in mkt["k"]], y=[int(x) for x in mkt["price_of_kth"]],
                    customdata=_tokens_cost(mkt["k"], mkt["cumulative_cost"]), mode="lines+markers",
                    line=line, marker=dict(size=7, color=color), name=f"{r}: price now",
                    legendgroup="now", showlegend=False, hovertemplate=_ladder_hover(r, "now")),
            scatter(x=[int(x) for x in dep["k"]], y=[int(x) for x in dep["price_of_kth"]],
                    customdata=_tokens_cost(dep["k"], dep["cumulative_cost"]), mode="lines+markers",
                    line=dict(color=color, width=2, dash="dot", shape="hv"),
                    marker=dict(size=9, color="white", symbol="square", line=dict(color=color, width=2)),
                    name=f"{r}: depot", legendgroup="depot", showlegend=False,
                    hovertemplate=_ladder_hover(r, "from the supply depot")),
            scatter(x=ka, y=after, customdata=_tokens_cost(ka, after_total), mode="lines", line=dashed,
                    opacity=0.7, name=f"{r}: price after refill", legendgroup="after", showlegend=False,
                    hovertemplate=_ladder_hover(r, "after the next refill")),
            scatter(x=k, y=total, customdata=_tokens_cost(k, price), mode="lines+markers",
                    line=dict(color=color, width=3),
                    marker=dict(size=7, color=[color if s == "market" else "white" for s in lad["source"]],
                                symbol=["circle" if s == "market" else "square" for s in lad["source"]],
                                line=dict(color=color, width=2)),
                    name=f"{r}: total now", legendgroup="now", showlegend=False,
                    hovertemplate=_total_hover(r, "now")),
            scatter(x=ka, y=after_total, customdata=_tokens_cost(ka, after), mode="lines",
                    line=dict(color=color, width=2, dash="dash"), opacity=0.7,
                    name=f"{r}: total after refill", legendgroup="after", showlegend=False,
                    hovertemplate=_total_hover(r, "after the next refill")),
        ]
        # What the player can buy: stored within their plants' room and paid from their money.
        afford = sum(1 for t in total if t <= money) if player is not None else 0
        limit = min(afford, rooms[r])
        traces.append(scatter(
            x=k[:limit], y=total[:limit], mode="markers", legendgroup="player", showlegend=False,
            marker=dict(size=13, color=pcolor, symbol=psymbol, line=dict(color="white", width=1)),
            name=f"{player}: can buy {r}" if player else f"{r}: player", hovertemplate=(
                f"<b>{player} can buy %{{x}} {r}</b><br>for %{{y}} Elektro<extra></extra>")))
        top, bottom = f"{'' if c == 1 else c}", f"{c + 4}"
        for i, t in enumerate(traces):
            axis = top if i < 3 else bottom
            t.update(xaxis=f"x{axis}", yaxis=f"y{axis}")
        data += traces
        if player is not None:
            shared = hybrid and r in ("coal", "oil")
            other = "oil" if r == "coal" else "coal"
            notes.append(dict(
                text=f"{player}: room {rooms[r]} · affords {afford}<br>→ can buy {limit}"
                     + (f"<br>(hybrid room shared with {other})" if shared else ""),
                xref=f"x{bottom} domain", yref="paper", x=0.5, y=0, yshift=-LEGEND_PX - NOTES_PX,
                xanchor="center", yanchor="top", showarrow=False, align="center",
                font=dict(size=13, color=pcolor)))
            mark = dict(color=pcolor, width=1.5, dash="dot")
            shapes.append(dict(type="line", xref=f"x{bottom} domain", yref=f"y{bottom}", x0=0, x1=1,
                               y0=money, y1=money, line=mark))
            shapes += [dict(type="line", xref=f"x{axis}", yref=f"y{axis} domain", x0=rooms[r] + 0.5,
                            x1=rooms[r] + 0.5, y0=0, y1=1, line=mark) for axis in (top, bottom)]
        # fixed ranges: update() never touches the axes
        xmax = int(info["total"])
        span = dict(range=[0.3, xmax + 0.7], dtick=4 if xmax > 12 else 2)
        axes.update({f"xaxis{top}": span, f"xaxis{bottom}": dict(title_text="tokens bought", **span),
                     f"yaxis{top}": dict(range=[0, 17.5], dtick=4, minor=dict(dtick=2, showgrid=True)),
                     f"yaxis{bottom}": dict(rangemode="tozero")})
    # Legend keys (grey, no data): one entry per kind of curve; clicking one toggles all four. The depot
    # (R126) is a map rule: its key shows only where this game has one (same traces either way, for update).
    depot_rule = any(g.depot_price(r) is not None for r in RESOURCES)
    for name, group, style in (
            ("price / total now", "now", dict(mode="lines+markers", line=dict(color=KEY, width=3))),
            ("after the next refill", "after",
             dict(mode="lines", line=dict(color=KEY, width=2, dash="dash"))),
            ("from the depot", "depot", dict(mode="markers", marker=dict(
                size=9, symbol="square", color="white", line=dict(color=KEY, width=2)))),
            (f"{player} can buy (dotted: room, money)", "player", dict(mode="markers", marker=dict(
                size=13, color=pcolor, symbol=psymbol)))):
        data.append(scatter(x=[None], y=[None], name=name, legendgroup=group, hoverinfo="skip",
                            showlegend={"player": player is not None, "depot": depot_rule}.get(group, True),
                            **style))
    fig.add_traces(data)
    if not refreshing():  # update() leaves the axes as built
        axes["yaxis"]["title_text"] = "price (Elektro)"
        axes["yaxis5"]["title_text"] = "total cost (Elektro)"
        fig.update_layout(axes)
    fig.update_annotations(font_size=14)  # subplot titles
    fig.layout.annotations = list(fig.layout.annotations) + notes
    fig.layout.shapes = shapes
    title = f"Resource market · round {g.round}, phase {g.phase} ({g.phase_name}), step {g.step}"
    if player is not None:
        title += f" · {player} {verb(player, 'has')} {money} Elektro"
    # Nothing is written over the curves: the market's numbers are in the column titles (up to four
    # lines, so the title sits at the very top); under the x axes the legend, then the player's notes.
    margin = dict(l=60, r=20, t=145, b=160)
    base_layout(fig, title, height=height, hovermode="closest", legend=dict(
        orientation="h", x=0, xanchor="left", y=-LEGEND_PX / max(1, height - margin["t"] - margin["b"]),
        yanchor="top"))
    fig.update_layout(title=dict(yref="container", y=0.985, yanchor="top"))
    if not refreshing():
        fig.update_layout(margin=margin)
    return fig
