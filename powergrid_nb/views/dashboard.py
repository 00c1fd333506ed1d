"""The dashboard: one compact figure of a game in progress (map, resource prices, players, status).

Built from its own small traces (not the other views), so it depends only on the frames.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from powergrid_nb.engine.gamelog import count, verb

from ._base import RESOURCE_COLORS, base_layout, player_color, player_symbol, to_int, view
from .map import fit_ranges
from .players import player_label

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

HOUSE_FILL = ("#FFFFFF", "#D9D9D9", "#A6A6A6", "#737373")  # city fill by houses built: 0, 1, 2, 3
WIDE = 1.2        # maps wider than tall by more than this get the 2 x 2 layout (map top left)
PLOT_W = 1060     # plot width (px) assumed when sizing the map's row: a 1100 px wide figure


def status_text(g: Game) -> str:
    """ "Round 3 · Step 1 · Phase: auction · Cy to act" (or the winners once the game is over)."""
    if g.is_over:
        return f"Round {g.round} · Step {g.step} · Game over · winner(s): {', '.join(g.winners)}"
    who = f" · {g.current_player} to act" if g.current_player else ""
    return f"Round {g.round} · Step {g.step} · Phase: {g.phase_name}{who}"


def auction_text(g: Game) -> str:
    """The auction running now, if any: "Auction: plant 13, Bo leads at 15 Elektro"."""
    a = g.auction
    if a is None:
        return ""
    return f"Auction: plant {a.plant}, {a.leader} {verb(a.leader, 'leads')} at {a.bid} Elektro"


def _cities(n: int | None) -> str:
    """ "1 city", "3 cities" ("" for the Trust, which never powers)."""
    return "" if n is None else count(n, "city", "cities")


def _ratio(g: Game) -> float:
    """y/x scale of the map panel (a degree of longitude shrinks with cos(latitude))."""
    lats = [c.lat for c in g.map.cities.values()]
    mid = sum(lats) / len(lats) if lats else 0.0
    return 1 / max(0.3, math.cos(math.radians(max(-80.0, min(80.0, mid)))))


def _aspect(g: Game) -> float:
    """Width / height of the fitted map panel on screen."""
    (x0, x1), (y0, y1) = fit_ranges(g)
    return (x1 - x0) / max((y1 - y0) * _ratio(g), 1e-9)


def _grid(g: Game, height: int) -> tuple[go.Figure, dict[str, tuple[int, int]]]:
    """The subplots and where each panel sits: a tall map spans the left column beside three charts;
    a wide map sits top left, its row as tall as the map needs, with the charts around it."""
    titles = {"map": f"Play area ({g.map.name})", "tokens": "Next token (Elektro; tokens on the market)",
              "money": "Money (Elektro)", "cities": "Cities: owned / can power now"}
    aspect = _aspect(g)
    if aspect <= WIDE:
        at = {"map": (1, 1), "tokens": (1, 2), "money": (2, 2), "cities": (3, 2)}
        fig = make_subplots(rows=3, cols=2, column_widths=[0.6, 0.4], horizontal_spacing=0.08,
                            vertical_spacing=0.12, specs=[[{"rowspan": 3}, {}], [None, {}], [None, {}]],
                            subplot_titles=[titles[k] for k in ("map", "tokens", "money", "cities")])
        return fig, at
    at = {"map": (1, 1), "tokens": (1, 2), "cities": (2, 1), "money": (2, 2)}
    top = min(0.62, max(0.4, (0.6 * PLOT_W / aspect + 30) / max(height - 130, 200)))
    fig = make_subplots(rows=2, cols=2, column_widths=[0.6, 0.4], row_heights=[top, 1 - top],
                        horizontal_spacing=0.08, vertical_spacing=0.13,
                        subplot_titles=[titles[k] for k in ("map", "tokens", "cities", "money")])
    return fig, at


def _map_traces(g: Game, player: str | None) -> list[go.Scatter]:
    cf = g.cities_frame(player)
    cn = g.connections_frame()
    pos = {str(c): (float(r["lon"]), float(r["lat"])) for c, r in cf.iterrows()}
    xs: list[Any] = []
    ys: list[Any] = []
    for a, b in zip(cn.loc[cn["in_play"], "city_a"], cn.loc[cn["in_play"], "city_b"], strict=True):
        xs += [pos[a][0], pos[b][0], None]
        ys += [pos[a][1], pos[b][1], None]
    traces = [go.Scatter(x=xs, y=ys, mode="lines", line=dict(color="#BBBBBB", width=1.5),
                         hoverinfo="skip", showlegend=False, name="connections")]
    out = cf[~cf["in_play"]]
    traces.append(go.Scatter(x=list(out["lon"]), y=list(out["lat"]), mode="markers", name="not in play",
                             marker=dict(size=6, color="#E5E5E5"), showlegend=False,
                             text=[str(c) for c in out.index],
                             hovertemplate="%{text} (not in play)<extra></extra>"))
    inp = cf[cf["in_play"]]
    houses = [int(h) for h in inp["houses"]]
    owners = [", ".join(o) or ("nobody (a marked start city)" if m else "nobody")
              for o, m in zip(inp["owners"], inp["marked"], strict=True)]
    if player is not None:
        costs = [f"{player} {verb(player, 'builds')} for {c} Elektro" if to_int(c) is not None
                 else f"{player} cannot build"
                 for c in inp["build_cost"]]
    else:
        costs = [""] * len(inp)
    regions = g.map.regions
    traces.append(go.Scatter(
        x=list(inp["lon"]), y=list(inp["lat"]), mode="markers", name="cities", showlegend=False,
        marker=dict(size=15, color=[HOUSE_FILL[min(h, 3)] for h in houses],
                    line=dict(color=[regions.get(str(r), "#555555") for r in inp["region"]], width=2)),
        text=[str(c) for c in inp.index],
        customdata=[[h, o, c, count(h, "house")] for h, o, c in zip(houses, owners, costs, strict=True)],
        hovertemplate="<b>%{text}</b>: %{customdata[3]}: %{customdata[1]}<br>%{customdata[2]}"
                      "<extra></extra>"))
    span = max(1e-6, max(cf["lon"]) - min(cf["lon"])) if len(cf) else 1.0
    dx = span * 0.016
    for name in g.participants:
        hx, hy, hc = [], [], []
        for city, r in inp.iterrows():
            own = list(r["owners"])
            for slot, owner in enumerate(own):
                if owner == name:
                    hx.append(float(r["lon"]) + (slot - (len(own) - 1) / 2) * dx)
                    hy.append(float(r["lat"]) - dx * 0.2)
                    hc.append(str(city))
        traces.append(go.Scatter(
            # one point at (None, None) keeps a participant without houses in the legend
            x=hx or [None], y=hy or [None], mode="markers", name=name, legendgroup=name, text=hc,
            showlegend=True,
            marker=dict(size=10, symbol=player_symbol(g, name), color=player_color(g, name),
                        line=dict(color="#000000", width=1)),
            hovertemplate=f"{name}: house in %{{text}}<extra></extra>"))
    return traces


@view("dashboard")
def dashboard(g: Game, *, player: str | None = None, height: int = 900) -> go.Figure:
    """A compact overview of a game in progress: the play area with houses per player (city fill:
    houses built), next-token prices with token counts, money and cities per player, and the status
    (round, step, phase, who acts, a running auction) in the title.

    ``player``: whose build costs the city hovers show (None: the player to act, if any).
    Traces (fixed; n = participants): 0 connections, 1 cities out of play, 2 cities in play,
    3..3+n-1 houses per participant, then next-token prices, money, cities owned, can power now.
    """
    who = player if player is not None else g.current_player
    if who == g.trust:
        who = None
    fig, at = _grid(g, height)
    for tr in _map_traces(g, who):
        fig.add_trace(tr, *at["map"])
    rf = g.resources_frame().drop_duplicates("resource")
    res = [str(r) for r in rf["resource"]]
    price = [to_int(x) for x in rf["next_price"]]
    tokens = [int(x) for x in rf["market_total"]]
    fig.add_trace(go.Bar(x=res, y=price, name="next token", showlegend=False,
                         marker=dict(color=[RESOURCE_COLORS[r] for r in res]),
                         text=[f"{t} left" if p is not None else "none"
                               for p, t in zip(price, tokens, strict=True)],
                         textposition="outside", customdata=[[t] for t in tokens],
                         hovertemplate="%{x}: next token %{y} Elektro, %{customdata[0]} on the market"
                                       "<extra></extra>"), *at["tokens"])
    pf = g.players_frame()
    names = [str(n) for n in pf.index]
    labels = [player_label(o, n) for o, n in zip(pf["order"], names, strict=True)]
    colors = [player_color(g, n) for n in names]
    # the Trust has no purse: no bar, "–" (as in the players view)
    money = [0 if n == g.trust else to_int(x) for n, x in zip(names, pf["money"], strict=True)]
    fig.add_trace(go.Bar(x=labels, y=money, name="money", showlegend=False, marker=dict(color=colors),
                         text=["–" if n == g.trust else str(m) for n, m in zip(names, money, strict=True)],
                         textposition="outside",
                         customdata=[["no money (the Trust)" if n == g.trust else f"{m} Elektro"]
                                     for n, m in zip(names, money, strict=True)],
                         hovertemplate="%{x}: %{customdata[0]}<extra></extra>"), *at["money"])
    cities = [to_int(x) for x in pf["cities"]]
    can = [to_int(x) for x in pf["can_power"]]
    fig.add_trace(go.Bar(x=labels, y=cities, name="cities owned", showlegend=False, marker=dict(color=colors),
                         text=cities, textposition="outside", offsetgroup="owned",
                         customdata=[[_cities(n)] for n in cities],
                         hovertemplate="%{x}: %{customdata[0]} owned<extra></extra>"), *at["cities"])
    fig.add_trace(go.Bar(x=labels, y=can, name="can power now", showlegend=False, offsetgroup="power",
                         marker=dict(color=colors, opacity=0.55, pattern=dict(shape="/", fgcolor="#FFFFFF")),
                         text=can, textposition="outside", customdata=[[_cities(n)] for n in can],
                         hovertemplate="%{x}: can power %{customdata[0]} now<extra></extra>"), *at["cities"])
    # the map fitted to its cities, aspect kept by shrinking the panel ("domain"), not by widening a range
    xr, yr = fit_ranges(g)
    fig.update_xaxes(visible=False, range=xr, constrain="domain", row=at["map"][0], col=at["map"][1])
    fig.update_yaxes(visible=False, range=yr, constrain="domain", scaleanchor="x", scaleratio=_ratio(g),
                     row=at["map"][0], col=at["map"][1])
    for key, unit in (("tokens", "Elektro"), ("money", "Elektro"), ("cities", "cities")):
        fig.update_yaxes(rangemode="tozero", autorangeoptions=dict(include=[0, 5]), title_text=unit,
                         row=at[key][0], col=at[key][1])
    title = status_text(g)
    extra = auction_text(g) if g.phase_name == "auction" else ""
    if extra:
        title += f"<br><sup>{extra}</sup>"
    # the houses legend right under the map (the bottom of the figure when the map fills the left column)
    below = min(fig.layout.yaxis.domain) - 0.005 if at["cities"][1] == 1 else -0.04
    base_layout(fig, title, height=height, barmode="group",
                legend=dict(orientation="h", x=0, y=below, yanchor="top", title_text="houses: "))
    fig.update_layout(margin=dict(l=20, r=20, t=90, b=40))
    fig.update_traces(cliponaxis=False, selector=dict(type="bar"))
    return fig
