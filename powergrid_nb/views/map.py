"""The map view: cities by region, links with their costs, houses by slot, networks and a build plan.

Drawn with plain scatter traces (x = longitude, y = latitude), so it renders offline, over the
country's outline (a layout shape from the map file's ``outline``). Where everything goes is the
board's layout for the figure's size (:mod:`.mapboard`, :func:`._fit.board`): cities too close for
their marker and slot row (three slots under each city) are moved apart a little; each link cost
takes a place as near its link's middle as is clear of every marker, slot row and other cost; each
city label one of five places beside its own marker (a ``textposition``), clear of every marker,
slot, link cost and other label, and not as near another city's marker as its own. Names and
costs are 12 px. The map fills the figure's width (small margins); the plan's note and a compact
legend (its entries in rows) go under it; zoom and pan survive refreshes (``uirevision``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd
import plotly.graph_objects as go

from powergrid_nb.engine.gamelog import possessive
from powergrid_nb.frames import cities_rows, connections_rows

from ._base import base_layout, new_figure, player_color, player_symbol, scatter, view
from ._fit import COST
from .mapboard import COST_FONT, MARGIN, Board, board, fit_height, outline_paths, table_width

if TYPE_CHECKING:
    from powergrid_nb.engine.board.network import PlanStep
    from powergrid_nb.engine.game import Game

GREY, LINK, FAINT = "#9A9A9A", "#8C8C8C", "#D0D0D0"
FADED = 0.3              # opacity of regions and links outside the play area
FORBIDDEN = "#C62828"
OUTLINE = "#555555"      # thin dark-grey ring around the (pale) city markers
TINT = 0.4               # share of the region colour in a city marker (the rest is white): pale, so
                         # no city looks like a player's (saturated, dark-edged) house
LAND, COAST = "#F4F1E8", "#C9C2AE"   # the country outline: a pale land fill and its border
CITY_HOVER = ("<b>%{customdata[0]}</b><br>region %{customdata[1]} (in play: %{customdata[2]})<br>"
              "houses: %{customdata[3]}")


def _segments(points: list[list[tuple[float, float]]]) -> tuple[list[float | None], list[float | None]]:
    """Polylines as one x/y pair of lists, separated by None (one trace draws them all)."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for line in points:
        xs += [p[0] for p in line] + [None]
        ys += [p[1] for p in line] + [None]
    return xs, ys


def mix(colour: str, other: str = "#FFFFFF", share: float = TINT) -> str:
    """``share`` of ``colour`` mixed with ``other`` (hex colours "#rgb" or "#rrggbb")."""
    def rgb(c: str) -> list[int]:
        h = c.lstrip("#")
        h = "".join(ch * 2 for ch in h) if len(h) == 3 else h
        return [int(h[i:i + 2], 16) for i in (0, 2, 4)]

    return "#" + "".join(f"{round(share * a + (1 - share) * b):02X}"
                         for a, b in zip(rgb(colour), rgb(other), strict=True))


def fit_ranges(g: Game, pad: float = 0.04, below: float = 0.0, above: float = 0.0
               ) -> tuple[list[float], list[float]]:
    """x (lon) and y (lat) axis ranges: the cities' bounding box plus ``pad`` of the larger span
    (in screen units) on every side, and ``below``/``above`` extra degrees of latitude."""
    lons = [c.lon for c in g.map.cities.values()]
    lats = [c.lat for c in g.map.cities.values()]
    ratio = scale_ratio(g)
    m = pad * max(max(lons) - min(lons), (max(lats) - min(lats)) * ratio, 1.0)
    return ([min(lons) - m, max(lons) + m], [min(lats) - m / ratio - below, max(lats) + m / ratio + above])


def scale_ratio(g: Game) -> float:
    """y/x screen ratio that makes a degree of latitude and of longitude look right at mid-map."""
    lats = [c.lat for c in g.map.cities.values()]
    return 1 / math.cos(math.radians((min(lats) + max(lats)) / 2))


def _slot_state(row: Mapping[str, Any], k: int, col: str) -> str:
    """The owner of slot ``k``, "open" if the step has opened it, else "not open"."""
    if not pd.isna(row[col]):
        return str(row[col])
    return "open" if k < row["houses"] + row["open_slots"] else "not open"


def _cost_text(cost: Any) -> str:
    return "not allowed" if pd.isna(cost) else str(int(cost))


def _city_hover(cities: dict[str, dict[str, Any]], names: list[str], slots: list[str],
                player: str | None) -> list[list[str]]:
    """The hover's data of each city of ``names``: name, region, in play, its houses by slot, each
    slot's state and the build cost for ``player``."""
    data = []
    for city in names:
        row = cities[city]
        owners = [_slot_state(row, k, c) for k, c in enumerate(slots)]
        houses = ", ".join(f"{c[5:]}: {o}" for c, o in zip(slots, owners, strict=True))
        if row["marked"]:
            houses += " (marked start city)"
        data.append([str(city), row["region"], "yes" if row["in_play"] else "no", houses, *owners,
                     _cost_text(row["build_cost"]) if player is not None else ""])
    return data


def _hover_template(slots: list[str], player: str | None) -> str:
    return CITY_HOVER + (f"<br>build cost for {player}: %{{customdata[{4 + len(slots)}]}}"
                         if player is not None else "") + "<extra></extra>"


def _city_traces(g: Game, b: Board, cities: dict[str, dict[str, Any]], slots: list[str],
                 player: str | None, hover: bool = True) -> list[dict]:
    """One marker trace per region of the map: a pale tint of the region colour, so the players'
    saturated houses stand out (regions outside the play area greyed and faded). ``hover=False``: no
    hovers (the board layer: the pieces layer over it takes them)."""
    in_play = set(g.regions)
    traces = []
    for region, colour in g.map.regions.items():
        names = [c for c, row in cities.items() if row["region"] == region]
        playing = region in in_play
        hovers = (dict(customdata=_city_hover(cities, names, slots, player),
                       hovertemplate=_hover_template(slots, player)) if hover else dict(hoverinfo="skip"))
        traces.append(scatter(
            x=[b.xy[c][0] for c in names], y=[b.xy[c][1] for c in names], mode="markers+text",
            text=names, textposition=[b.text[c] for c in names], **hovers, cliponaxis=False,
            name=region if playing else f"{region} (not in play)", legendgroup="regions",
            opacity=1.0 if playing else FADED,
            textfont=dict(size=b.font, color="#222222" if playing else GREY),
            marker=dict(size=15, color=mix(colour) if playing else mix(colour, "#B0B0B0", 0.4),
                        line=dict(width=1, color=OUTLINE))))
    return traces


# an empty slot: opened by the step (a hollow ring) or not yet (a faint dot)
SLOT_NAMES = {"open": "open slot", "not open": "slot not open yet"}
SLOT_STYLES = {"open": dict(symbol="circle-open", size=10, color="#444444", line=dict(width=2)),
               "not open": dict(symbol="circle", size=6, color="#C8C8C8", line=dict(width=0))}


def house_marker(g: Game, name: str) -> dict[str, Any]:
    """A participant's house: their colour and shape, dark-edged."""
    return dict(size=13, color=player_color(g, name), symbol=player_symbol(g, name),
                line=dict(width=1.5, color="#111111"))


def _target_trace(b: Board, cities: dict[str, dict[str, Any]], slots: list[str], player: str | None) -> dict:
    """The pieces layer's cities: undrawn markers over the board's, which take the hovers and clicks."""
    names = [str(c) for c in cities]
    return scatter(x=[b.xy[c][0] for c in names], y=[b.xy[c][1] for c in names], mode="markers",
                   text=names, name="cities", legendgroup="regions", showlegend=False,
                   customdata=_city_hover(cities, names, slots, player),
                   hovertemplate=_hover_template(slots, player), cliponaxis=False,
                   marker=dict(size=15, color="rgba(0,0,0,0)", line=dict(width=0)))


def _legend_stubs(g: Game, steps: bool) -> list[dict]:
    """The board layer's legend entries for what the pieces layer draws (slots, players, the plan):
    traces with no point, drawn nowhere."""
    def stub(name: str, group: str, **style: Any) -> dict:
        return scatter(x=[None], y=[None], name=name, legendgroup=group, showlegend=True, hoverinfo="skip",
                       **style)

    slots = [stub(SLOT_NAMES[s], "slots", mode="markers", marker=SLOT_STYLES[s]) for s in SLOT_NAMES]
    players = [stub(name, "players", mode="markers", marker=house_marker(g, name)) for name in g.participants]
    plan = [stub("plan", "plan", mode="lines", line=dict(width=5, color=GREY, dash="dash"))] if steps else []
    return [*slots, *players, *plan]


LAYERS = ("all", "board", "pieces")


def _cost_at(b: Board, a: str, c: str) -> tuple[float, float]:
    """Where the cost of the link a-c sits: t of the way from a to c, and s px to its side."""
    if (a, c) not in b.costs:
        t, s = b.costs.get((c, a), (0.5, 0.0))
        a, c, t = c, a, t
    else:
        t, s = b.costs[(a, c)]
    (xa, ya), (xc, yc) = b.xy[a], b.xy[c]
    dx, dy = (xc - xa), (yc - ya) * b.ratio  # screen units
    d = math.hypot(dx, dy) or 1.0
    k = s / b.scale / d  # the side step, from pixels to screen units along the normal
    return xa + t * dx + k * dy, ya + (t * dy - k * dx) / b.ratio


def _link_traces(b: Board, links: list[dict[str, Any]], show_costs: bool, hover: bool = True) -> list[dict]:
    """Links in play, links outside it (faded), and the cost label on each link (where the board
    found it room, the midpoint if it can)."""
    traces = []
    for playing, name in ((False, "links (not in play)"), (True, "links")):
        xs, ys = _segments([[b.xy[r["city_a"]], b.xy[r["city_b"]]] for r in links if r["in_play"] == playing])
        traces.append(scatter(
            x=xs, y=ys, mode="lines", name=name, legendgroup="links", hoverinfo="skip",
            opacity=1.0 if playing else FADED + 0.2,
            line=dict(width=2 if playing else 1, color=LINK if playing else FAINT,
                      dash="solid" if playing else "dot")))
    rows = links if show_costs else []
    mids = [_cost_at(b, r["city_a"], r["city_b"]) for r in rows]
    traces.append(scatter(
        x=[m[0] for m in mids], y=[m[1] for m in mids], mode="markers+text", name="link costs",
        text=[str(r["cost"]) for r in rows], showlegend=False, textposition="middle center",
        marker=dict(symbol="square", size=2 * COST - 1, color="rgba(255,255,255,0.9)", line=dict(width=0)),
        customdata=[[r["city_a"], r["city_b"], r["cost"]] for r in rows],
        hovertemplate="%{customdata[0]} – %{customdata[1]}: %{customdata[2]} Elektro<extra></extra>",
        hoverinfo=None if hover else "skip",
        textfont=dict(size=COST_FONT, weight="bold",
                      color=["#505050" if r["in_play"] else "#C4C4C4" for r in rows])))
    return traces


def _slot_traces(b: Board, cities: dict[str, dict[str, Any]], slots: list[str]) -> list[dict]:
    """Empty slots of cities in play: opened by the step (hollow ring) and not opened yet (faint dot)."""
    offsets = b.slots
    pts: dict[str, list[tuple[float, float, str, str]]] = {"open": [], "not open": []}
    for city, row in cities.items():
        if not row["in_play"]:
            continue
        for k, col in enumerate(slots):
            state = _slot_state(row, k, col)
            if state in pts:
                x, y = b.xy[str(city)]
                pts[state].append((x + offsets[k][0], y + offsets[k][1], str(city), col[5:]))
    return [scatter(x=[p[0] for p in pts[s]], y=[p[1] for p in pts[s]], mode="markers",
                    name=SLOT_NAMES[s], legendgroup="slots", marker=SLOT_STYLES[s],
                    customdata=[[p[2], p[3]] for p in pts[s]],
                    hovertemplate=f"%{{customdata[0]}}: slot %{{customdata[1]}} {s}<extra></extra>")
            for s in pts]


def _house_traces(g: Game, b: Board, cities: dict[str, dict[str, Any]], slots: list[str]) -> list[dict]:
    """One trace per participant: a marker in their colour and symbol on each slot they hold.

    Without houses the trace holds one point at (None, None): drawn nowhere, but Plotly keeps a
    trace with no points out of the legend, and every participant belongs there."""
    offsets = b.slots
    traces = []
    for name in g.participants:
        pts = []
        for city in g.cities_of(name):
            row = cities[city]
            k = next(k for k, c in enumerate(slots) if row[c] == name)
            pts.append((b.xy[city][0] + offsets[k][0], b.xy[city][1] + offsets[k][1], city, slots[k][5:]))
        traces.append(scatter(
            x=[p[0] for p in pts] or [None], y=[p[1] for p in pts] or [None], mode="markers", name=name,
            legendgroup="players", showlegend=True,
            customdata=[[p[2], p[3]] for p in pts],
            hovertemplate=f"<b>{name}</b>: house in %{{customdata[0]}} "
                          "(slot %{customdata[1]})<extra></extra>",
            marker=house_marker(g, name)))
    return traces


def _network_traces(g: Game, b: Board, links: list[dict[str, Any]], networks: list[str]) -> list[dict]:
    """One trace per participant: thick lines on links with both ends theirs (empty unless asked)."""
    traces = []
    for name in g.participants:
        mine = set(g.cities_of(name)) if name in networks else set()
        xs, ys = _segments([[b.xy[r["city_a"]], b.xy[r["city_b"]]] for r in links
                            if r["city_a"] in mine and r["city_b"] in mine])
        traces.append(scatter(x=xs, y=ys, mode="lines", name=f"{possessive(name)} network",
                              legendgroup="players", showlegend=name in networks, hoverinfo="skip",
                              opacity=0.55, line=dict(width=7, color=player_color(g, name))))
    return traces


def _plan_traces(g: Game, b: Board, who: str | None, steps: list[PlanStep]
                 ) -> tuple[list[dict], list[str]]:
    """Paths of the plan (dashed), numbered order markers, step costs; and the annotation lines."""
    colour = player_color(g, who) if who else GREY
    xs, ys = _segments([[b.xy[c] for c in s.path] for s in steps if s.path])
    order: list[tuple[float, float, str, str, str]] = []
    costs: list[tuple[float, float, str]] = []
    dx = b.slots[-1][0] * 2
    for k, s in enumerate(steps, 1):
        if s.city not in g.map.cities:
            continue
        x, y = b.xy[s.city]
        ok = not s.rule
        what = f"{s.cost} Elektro (total {s.total})" if ok else f"{s.rule} {s.reason}"
        order.append((x, y, str(k) if ok else "✕", colour if ok else FORBIDDEN, f"{k}. {s.city}: {what}"))
        if ok:
            costs.append((x + dx, y, f"+{s.cost}"))
    traces = [
        scatter(x=xs, y=ys, mode="lines", name="plan", legendgroup="plan", hoverinfo="skip",
                showlegend=bool(steps), line=dict(width=5, color=colour, dash="dash")),
        # on the city's marker, no bigger: its name beside it stays clear
        scatter(x=[o[0] for o in order], y=[o[1] for o in order], mode="markers+text",
                name="plan order", legendgroup="plan", showlegend=False, text=[o[2] for o in order],
                textposition="middle center", textfont=dict(size=12, color="white", weight="bold"),
                customdata=[[o[4]] for o in order], hovertemplate="%{customdata[0]}<extra></extra>",
                marker=dict(size=17, color=[o[3] for o in order], line=dict(width=1.5, color="white"))),
        # each step's cost is in the plan's note and the order marker's hover; drawn beside the city
        # it covered names and link costs, so the trace holds it undrawn
        scatter(x=[c[0] for c in costs], y=[c[1] for c in costs], mode="text", visible=False,
                name="plan costs", legendgroup="plan", showlegend=False, text=[c[2] for c in costs],
                textposition="middle right", hoverinfo="skip",
                textfont=dict(size=13, color=colour))]
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
               plan: list[str] | None = None, show_costs: bool = True, height: int | None = None,
               width: int | None = None, title: str | None = None, link_hover: bool = True,
               layer: str = "all") -> go.Figure:
    """The board: cities by region, links and costs, houses by slot, and optionally the build costs
    for ``player`` (hover), highlighted ``networks`` and a ``plan`` of cities to build in order
    (for ``player``, default the player to act).

    ``width``: a fixed width (None: the figure fills its container; the board is laid out for
    ``mapboard.table_width``, the play table's narrowest map box); ``height``: None, as tall as the
    map is across that width (``mapboard.fit_height``: a tall map like Germany's is tall); ``title``:
    instead of the map, round, step and phase (a fixed one changes less often); ``link_hover=False``:
    the link-cost labels take no hovers or clicks (cities near them do). Zoom and pan survive
    ``update`` (``uirevision``).

    ``layer``: "all", or one of two figures of the same size drawn over each other (the play table's
    map): "board", what changes only with the play area (the outline, links and costs, cities and
    their names, and the legend), and "pieces" over it, transparent, what changes at a click (slots,
    houses, networks, the plan and its note, and the cities' hovers and clicks). A browser draws a
    figure anew at every update, so a click redraws the pieces only."""
    if layer not in LAYERS:
        raise ValueError(f"layer: {layer!r} is not one of {', '.join(LAYERS)}")
    # the rows of cities_frame and connections_frame, without building the frames (a refresh a click)
    cities = {r["city"]: r for r in cities_rows(g, player)}
    links = connections_rows(g)
    slots = [c for c in next(iter(cities.values())) if c.startswith("slot_")]
    who = player if player is not None else g.current_player
    steps: list[PlanStep] = []
    notes: list[str] = []
    if plan and layer != "board":  # the board draws no plan
        if who is None:
            notes = ["Plan: no player to plan for (the game is over)"]
        else:
            steps = g.plan_build(who, list(plan))
    if height is None:  # as tall as the map is across the width it is laid out for
        height = fit_height(g, width or table_width(g))
    b = board(g, height, width)
    plan_traces, lines = _plan_traces(g, b, who, steps)
    if layer == "board":  # the plan's legend entry whenever a plan may come: the board stays as it is
        data = [*_link_traces(b, links, show_costs, link_hover),
                *_city_traces(g, b, cities, slots, player, False), *_legend_stubs(g, plan is not None)]
        lines, notes = [], []
    else:
        pieces = [*_network_traces(g, b, links, list(networks or [])), *plan_traces[:1]]
        if layer == "all":
            pieces = [*_link_traces(b, links, show_costs, link_hover), *pieces,
                      *_city_traces(g, b, cities, slots, player)]
        else:
            pieces.append(_target_trace(b, cities, slots, player))
        data = [*pieces, *_slot_traces(b, cities, slots), *_house_traces(g, b, cities, slots),
                *plan_traces[1:]]
    fig = new_figure(data)
    if title is None:
        title = f"{g.map.title} — round {g.round}, step {g.step}, {g.phase_name}"
    base_layout(fig, title, height=height, hovermode="closest", uirevision=f"{g.map.name}/{g.map.edition}",
                # compact: its entries in rows at the foot of the figure (the map takes the width),
                # under the plan's note
                legend=dict(groupclick="toggleitem", itemsizing="constant", font=dict(size=12),
                            orientation="h", traceorder="normal", x=0, xanchor="left", y=0,
                            yanchor="bottom", yref="container"))
    fig.update_layout(margin={**MARGIN, "b": MARGIN["b"] + b.below}, width=width,
                      shapes=[dict(type="path", path=path, xref="x", yref="y", layer="below",
                                   fillcolor=LAND, line=dict(color=COAST, width=1))
                              for path in (outline_paths(g) if layer != "pieces" else [])])
    if layer == "pieces":  # over the board: see-through, its title and legend the board's
        fig.update_layout(paper_bgcolor="rgba(0,0,0,0)", plot_bgcolor="rgba(0,0,0,0)", showlegend=False,
                          title_font_color="rgba(0,0,0,0)")
    # Always exactly one annotation (hidden when empty), so update() can refresh it in place.
    text = "<br>".join(notes + lines)
    fig.add_annotation(text=text, visible=bool(text), xref="paper", yref="paper", x=0, y=0,
                       xanchor="left", yanchor="top", showarrow=False, align="left",
                       bgcolor="rgba(255,255,255,0.85)", font=dict(size=14, color="#222222"))
    # Fitted to the country and its cities; "domain" shrinks the plot area rather than widening a
    # range to keep the aspect (a wide map keeps to the top: the plan note goes below it).
    # No ticks: a board needs no degrees (the hovers name the cities).
    hidden = dict(showgrid=False, zeroline=False, showticklabels=False, ticks="", title_text=None,
                  constrain="domain")
    fig.update_xaxes(range=b.xrange, **hidden)
    fig.update_yaxes(range=b.yrange, scaleanchor="x", scaleratio=b.ratio, constraintoward="top", **hidden)
    return fig
