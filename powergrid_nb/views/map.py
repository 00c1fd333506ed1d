"""The map view: cities by region, links with their costs, houses by slot, networks and a build plan.

Drawn with plain ``go.Scatter`` (x = longitude, y = latitude), so it renders offline.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pandas as pd
import plotly.graph_objects as go

from ._base import base_layout, participants, player_color, player_symbol, view

if TYPE_CHECKING:
    from ..game import Game
    from ..network import PlanStep

GREY, LINK, FAINT = "#9A9A9A", "#8C8C8C", "#D0D0D0"
FADED = 0.3              # opacity of regions and links outside the play area
FORBIDDEN = "#C62828"
CITY_HOVER = ("<b>%{customdata[0]}</b><br>region %{customdata[1]} (in play: %{customdata[2]})<br>"
              "houses: %{customdata[3]}")


def _xy(g: Game, city: str) -> tuple[float, float]:
    c = g.map.cities[city]
    return c.lon, c.lat


def _segments(points: list[list[tuple[float, float]]]) -> tuple[list[float | None], list[float | None]]:
    """Polylines as one x/y pair of lists, separated by None (one trace draws them all)."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for line in points:
        xs += [p[0] for p in line] + [None]
        ys += [p[1] for p in line] + [None]
    return xs, ys


def scale_ratio(g: Game) -> float:
    """y/x screen ratio that makes a degree of latitude and of longitude look right at mid-map."""
    lats = [c.lat for c in g.map.cities.values()]
    return 1 / math.cos(math.radians((min(lats) + max(lats)) / 2))


def slot_offsets(g: Game, n: int = 3) -> list[tuple[float, float]]:
    """(dx, dy) in degrees from a city to each of its ``n`` slots: a row just below the city."""
    lons = [c.lon for c in g.map.cities.values()]
    lats = [c.lat for c in g.map.cities.values()]
    ratio = scale_ratio(g)
    d = 0.018 * max(max(lons) - min(lons), (max(lats) - min(lats)) * ratio, 1.0)
    return [((k - (n - 1) / 2) * d, -1.3 * d / ratio) for k in range(n)]


def _slot_state(row: pd.Series, k: int, col: str) -> str:
    """The owner of slot ``k``, "open" if the step has opened it, else "not open"."""
    if not pd.isna(row[col]):
        return str(row[col])
    return "open" if k < row["houses"] + row["open_slots"] else "not open"


def _cost_text(cost: Any) -> str:
    return "not allowed" if pd.isna(cost) else str(int(cost))


def _city_traces(g: Game, cities: pd.DataFrame, slots: list[str], player: str | None) -> list[go.Scatter]:
    """One marker trace per region of the map (regions outside the play area faded)."""
    in_play = set(g.regions)
    hover = CITY_HOVER + (f"<br>build cost for {player}: %{{customdata[{4 + len(slots)}]}}"
                          if player is not None else "") + "<extra></extra>"
    traces = []
    for region, colour in g.map.regions.items():
        rows = cities[cities["region"] == region]
        playing = region in in_play
        data = []
        for city, row in rows.iterrows():
            owners = [_slot_state(row, k, c) for k, c in enumerate(slots)]
            houses = ", ".join(f"{c[5:]}: {o}" for c, o in zip(slots, owners, strict=True))
            if row["marked"]:
                houses += " (marked start city)"
            data.append([str(city), region, "yes" if row["in_play"] else "no", houses, *owners,
                         _cost_text(row["build_cost"]) if player is not None else ""])
        traces.append(go.Scatter(
            x=list(rows["lon"]), y=list(rows["lat"]), mode="markers+text", text=list(rows.index),
            textposition="top center", customdata=data, hovertemplate=hover,
            name=region if playing else f"{region} (not in play)", legendgroup="regions",
            legendgrouptitle_text="Regions", opacity=1.0 if playing else FADED,
            textfont=dict(size=12, color="#222222" if playing else GREY),
            marker=dict(size=16, color=colour, line=dict(width=1.5, color="white"))))
    return traces


def _link_traces(g: Game, links: pd.DataFrame, show_costs: bool) -> list[go.Scatter]:
    """Links in play, links outside it (faded), and the cost label at each link's midpoint."""
    traces = []
    for playing, name in ((False, "links (not in play)"), (True, "links")):
        rows = links[links["in_play"] == playing]
        xs, ys = _segments([[_xy(g, a), _xy(g, b)] for a, b in zip(rows["city_a"], rows["city_b"],
                                                                   strict=True)])
        traces.append(go.Scatter(
            x=xs, y=ys, mode="lines", name=name, legendgroup="links", hoverinfo="skip",
            opacity=1.0 if playing else FADED + 0.2,
            line=dict(width=2 if playing else 1, color=LINK if playing else FAINT,
                      dash="solid" if playing else "dot")))
    rows = links if show_costs else links.iloc[:0]
    mids = [[(xa + xb) / 2, (ya + yb) / 2] for (xa, ya), (xb, yb) in
            ((_xy(g, a), _xy(g, b)) for a, b in zip(rows["city_a"], rows["city_b"], strict=True))]
    traces.append(go.Scatter(
        x=[m[0] for m in mids], y=[m[1] for m in mids], mode="text", name="link costs",
        text=[str(int(c)) for c in rows["cost"]], showlegend=False,
        customdata=[[a, b, int(c)] for a, b, c in zip(rows["city_a"], rows["city_b"], rows["cost"],
                                                     strict=True)],
        hovertemplate="%{customdata[0]} – %{customdata[1]}: %{customdata[2]} Elektro<extra></extra>",
        textfont=dict(size=11, color=["#444444" if p else "#BBBBBB" for p in rows["in_play"]])))
    return traces


def _slot_traces(g: Game, cities: pd.DataFrame, slots: list[str]) -> list[go.Scatter]:
    """Empty slots of cities in play: opened by the step (hollow) and not opened yet (faint x)."""
    offsets = slot_offsets(g, len(slots))
    pts: dict[str, list[tuple[float, float, str, str]]] = {"open": [], "not open": []}
    for city, row in cities[cities["in_play"]].iterrows():
        for k, col in enumerate(slots):
            state = _slot_state(row, k, col)
            if state in pts:
                pts[state].append((row["lon"] + offsets[k][0], row["lat"] + offsets[k][1], str(city),
                                   col[5:]))
    styles = {"open": dict(symbol="circle-open", size=10, color="#444444", line=dict(width=2)),
              "not open": dict(symbol="x-thin-open", size=7, color="#C8C8C8", line=dict(width=1.5))}
    names = {"open": "open slot", "not open": "slot not open yet (step)"}
    return [go.Scatter(x=[p[0] for p in pts[s]], y=[p[1] for p in pts[s]], mode="markers",
                       name=names[s], legendgroup="slots", marker=styles[s],
                       customdata=[[p[2], p[3]] for p in pts[s]],
                       hovertemplate=f"%{{customdata[0]}}: slot %{{customdata[1]}} {s}<extra></extra>")
            for s in pts]


def _house_traces(g: Game, cities: pd.DataFrame, slots: list[str]) -> list[go.Scatter]:
    """One trace per participant: a marker in their colour and symbol on each slot they hold."""
    offsets = slot_offsets(g, len(slots))
    traces = []
    for name in participants(g):
        pts = []
        for city in g.cities_of(name):
            row = cities.loc[city]
            k = next(k for k, c in enumerate(slots) if row[c] == name)
            pts.append((row["lon"] + offsets[k][0], row["lat"] + offsets[k][1], city, slots[k][5:]))
        traces.append(go.Scatter(
            x=[p[0] for p in pts], y=[p[1] for p in pts], mode="markers", name=name,
            legendgroup="players", legendgrouptitle_text="Players",
            customdata=[[p[2], p[3]] for p in pts],
            hovertemplate=f"<b>{name}</b>: house in %{{customdata[0]}} "
                          "(slot %{customdata[1]})<extra></extra>",
            marker=dict(size=13, color=player_color(g, name), symbol=player_symbol(g, name),
                        line=dict(width=1, color="#222222"))))
    return traces


def _network_traces(g: Game, links: pd.DataFrame, networks: list[str]) -> list[go.Scatter]:
    """One trace per participant: thick lines on links with both ends theirs (empty unless asked)."""
    traces = []
    for name in participants(g):
        mine = set(g.cities_of(name)) if name in networks else set()
        xs, ys = _segments([[_xy(g, a), _xy(g, b)] for a, b in zip(links["city_a"], links["city_b"],
                                                                   strict=True)
                            if a in mine and b in mine])
        traces.append(go.Scatter(x=xs, y=ys, mode="lines", name=f"{name}'s network", legendgroup="players",
                                 showlegend=name in networks, hoverinfo="skip", opacity=0.55,
                                 line=dict(width=7, color=player_color(g, name))))
    return traces


def _plan_traces(g: Game, who: str | None, steps: list[PlanStep]) -> tuple[list[go.Scatter], list[str]]:
    """Paths of the plan (dashed), numbered order markers, step costs; and the annotation lines."""
    colour = player_color(g, who) if who else GREY
    xs, ys = _segments([[_xy(g, c) for c in s.path] for s in steps if s.path])
    order: list[tuple[float, float, str, str, str]] = []
    costs: list[tuple[float, float, str]] = []
    dx = slot_offsets(g)[-1][0] * 2
    for k, s in enumerate(steps, 1):
        if s.city not in g.map.cities:
            continue
        x, y = _xy(g, s.city)
        ok = not s.rule
        what = f"{s.cost} Elektro (total {s.total})" if ok else f"{s.rule} {s.reason}"
        order.append((x, y, str(k) if ok else "✕", colour if ok else FORBIDDEN, f"{k}. {s.city}: {what}"))
        if ok:
            costs.append((x + dx, y, f"+{s.cost}"))
    traces = [
        go.Scatter(x=xs, y=ys, mode="lines", name="plan", legendgroup="plan", hoverinfo="skip",
                   showlegend=bool(steps), line=dict(width=5, color=colour, dash="dash")),
        go.Scatter(x=[o[0] for o in order], y=[o[1] for o in order], mode="markers+text", name="plan order",
                   legendgroup="plan", showlegend=False, text=[o[2] for o in order],
                   textposition="middle center", textfont=dict(size=13, color="white"),
                   customdata=[[o[4]] for o in order], hovertemplate="%{customdata[0]}<extra></extra>",
                   marker=dict(size=24, color=[o[3] for o in order], line=dict(width=2, color="white"))),
        go.Scatter(x=[c[0] for c in costs], y=[c[1] for c in costs], mode="text", name="plan costs",
                   legendgroup="plan", showlegend=False, text=[c[2] for c in costs],
                   textposition="middle right", hoverinfo="skip",
                   textfont=dict(size=15, color=colour))]
    if not steps:
        return traces, []
    allowed = [s for s in steps if not s.rule]
    total = allowed[-1].total if allowed else 0
    done = ", ".join(f"{s.city} {s.cost}" for s in allowed) or "nothing can be built"
    lines = [f"Plan for {who}: {done} → total {total}"]
    red = f'<span style="color:{FORBIDDEN}">'
    lines += [f"{red}✕ {s.city}: {s.rule} {s.reason}</span>" for s in steps if s.rule]
    return traces, lines


@view("map")
def map_figure(g: Game, *, player: str | None = None, networks: list[str] | None = None,
               plan: list[str] | None = None, show_costs: bool = True, height: int = 700) -> go.Figure:
    """The board: cities by region, links and costs, houses by slot, and optionally the build costs
    for ``player`` (hover), highlighted ``networks`` and a ``plan`` of cities to build in order
    (for ``player``, default the player to act)."""
    cities = g.cities_frame(player)
    links = g.connections_frame()
    slots = [c for c in cities.columns if c.startswith("slot_")]
    who = player if player is not None else g.current_player
    steps: list[PlanStep] = []
    notes: list[str] = []
    if plan:
        if who is None:
            notes = ["Plan: no player to plan for (the game is over)"]
        else:
            steps = g.plan_build(who, list(plan))
    plan_traces, lines = _plan_traces(g, who, steps)
    fig = go.Figure([*_link_traces(g, links, show_costs), *_network_traces(g, links, list(networks or [])),
                     *plan_traces[:1], *_city_traces(g, cities, slots, player),
                     *_slot_traces(g, cities, slots), *_house_traces(g, cities, slots), *plan_traces[1:]])
    title = f"{g.map.title} — round {g.round}, step {g.step}, {g.phase_name}"
    base_layout(fig, title, height=height, hovermode="closest",
                legend=dict(groupclick="toggleitem", itemsizing="constant"))
    # Always exactly one annotation (hidden when empty), so update() can refresh it in place.
    text = "<br>".join(notes + lines)
    fig.add_annotation(text=text, visible=bool(text), xref="paper", yref="paper", x=0.01, y=0.01,
                       xanchor="left", yanchor="bottom", showarrow=False, align="left",
                       bgcolor="rgba(255,255,255,0.85)", font=dict(size=14, color="#222222"))
    fig.update_xaxes(title_text="longitude (°)", showgrid=False, zeroline=False)
    fig.update_yaxes(title_text="latitude (°)", showgrid=False, zeroline=False, scaleanchor="x",
                     scaleratio=round(scale_ratio(g), 3))
    return fig
