"""Lesson 3, networks: the map as a graph, what k cities cost, central and remote cities, being first.

The engine charges each new city its own cheapest path from the player's network (R60-R62: links are
never owned), so the cheapest k cities are an exact minimum-spanning-tree problem that
``powergrid_nb.bots.planner.cheapest_cities`` solves. ``connection_curve`` sets it against a Steiner-tree
planner, which prices the network as if links once paid were shared. ``growth_costs`` and
``region_costs`` say which regions are cheap to grow in, ``centrality`` which cities are central,
``slot_prices_by_step`` the rising house prices (R56) and ``first_mover`` what an opponent's house
in the cities you wanted costs you.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import networkx as nx
import pandas as pd
import plotly.graph_objects as go
from networkx.algorithms.approximation import steiner_tree

from powergrid_nb.bots.planner import cheapest_cities, plan_targets
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.play.results import mean_interval
from powergrid_nb.position.scenario import Scenario

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["centrality", "centrality_figure", "connection_curve", "connection_figure", "curve_summary",
           "first_mover", "first_mover_summary", "growth_costs", "links_paid", "play_graph", "positions",
           "region_costs", "region_figure", "slot_prices_by_step", "steiner_estimate", "steiner_plan",
           "steiner_sources"]

_NET = "__network__"  # the player's network contracted into one node


def positions(games: int, players: int = 4, round: int = 6, seed: int = 0) -> list[Game]:
    """Real positions: heuristic bots play ``games`` seeded games (seeds ``seed``, ``seed`` + 1, ...)
    on Germany to phase 4 (building) of ``round``; the player to act is the one to build."""
    from powergrid_nb.bots import HeuristicBot, play
    from powergrid_nb.engine.newgame import new_game

    out = []
    for s in range(seed, seed + games):
        g = new_game(players, seed=s)
        bots = [HeuristicBot(seed=k) for k in range(players)]
        play(g, bots, until=lambda h: h.round >= round and h.phase == Phase.BUILDING)
        if not g.is_over:
            out.append(g)
    return out


def play_graph(g: Game) -> nx.Graph:
    """The cities in play and their links (edge attribute ``cost``), as an editable copy."""
    return nx.Graph(g.map.play_graph(g.regions))


def _with_network(g: Game, player: str) -> tuple[nx.Graph, list[str]]:
    graph, net = play_graph(g), g.cities_of(player)
    if net:
        graph.add_edges_from((_NET, c, {"cost": 0}) for c in net)
    return graph, ([_NET] if net else [])


def steiner_estimate(g: Game, player: str, cities: Sequence[str]) -> int:
    """Slot prices of ``cities`` plus the links of networkx's Steiner tree joining them to the player's
    network: the price if links, once paid, were shared (they are not, R62)."""
    slots = g.slot_prices(player)
    graph, root = _with_network(g, player)
    terminals = [*root, *cities]
    links = steiner_tree(graph, terminals, weight="cost").size(weight="cost") if len(terminals) > 1 else 0
    return int(sum(slots[c] for c in cities) + links)


def links_paid(g: Game, player: str, cities: Sequence[str]) -> pd.DataFrame:
    """Every link the engine charges when ``player`` adds ``cities`` in the cheapest order
    (``plan_targets``), read from the paths the engine prices (``g.plan_build``, money left aside):
    one row per link with its ``cost``,
    how often it is ``paid`` and the cities whose paths use it (``for``), most paid first. A link
    paid more than once is R62 at work: links are never owned, each new city pays its own path."""
    plan = plan_targets(g, player, cities)
    if plan is None:
        raise ValueError(f"{player} cannot add {', '.join(cities)} in one turn")
    graph = g.map.play_graph(g.regions)
    paid: dict[frozenset[str], tuple[str, str, list[str]]] = {}  # link -> (ends as first met, cities)
    for step in plan.steps:  # g.plan_build's steps for this order, priced as if money were enough
        for a, b in zip(step.path, step.path[1:], strict=False):
            paid.setdefault(frozenset((a, b)), (a, b, []))[2].append(step.city)
    rows = [{"link": f"{a}–{b}", "cost": int(graph[a][b]["cost"]), "paid": len(by), "for": ", ".join(by)}
            for a, b, by in paid.values()]
    out = pd.DataFrame(rows, columns=["link", "cost", "paid", "for"])
    return out.sort_values(["paid", "cost"], ascending=False, kind="stable").reset_index(drop=True)


def steiner_plan(g: Game, player: str, k: int) -> tuple[str, ...] | None:
    """k cities chosen by growing a Steiner tree: each next city is the cheapest to reach (slot plus
    links) from any city the tree passes through, houses or not (shortest-path heuristic)."""
    graph, slots, net = g.map.play_graph(g.regions), g.slot_prices(player), g.cities_of(player)
    starts = [None] if net else sorted(slots)
    best: tuple[int, tuple[str, ...]] | None = None
    for start in starts:
        tree = set(net) if start is None else {start}
        houses = [] if start is None else [start]
        cost = 0 if start is None else slots[start]
        while len(houses) < k:
            dist, paths = nx.multi_source_dijkstra(graph, tree, weight="cost")
            options = [(slots[c] + dist[c], c) for c in slots if c not in houses and c in dist]
            if not options:
                break
            price, city = min(options)
            cost, tree = cost + price, tree | set(paths[city])
            houses.append(city)
        if len(houses) == k and (best is None or cost < best[0]):
            best = (cost, tuple(houses))
    return None if best is None else best[1]


def connection_curve(g: Game, player: str, ks: Iterable[int]) -> pd.DataFrame:
    """Per k: the exact planner's total for the cheapest k cities (``exact``, what the engine charges),
    the Steiner planner's cities priced by the engine (``steiner_price``) and by its own tree
    (``steiner_estimate``). Stops at the first k that cannot be built."""
    rows = []
    for k in ks:
        best = cheapest_cities(g, player, k)
        chosen = steiner_plan(g, player, k)
        if best is None or chosen is None:
            break
        plan = plan_targets(g, player, chosen)
        rows.append({"k": k, "exact": best[1], "steiner_price": plan.total if plan else math.nan,
                     "steiner_estimate": steiner_estimate(g, player, chosen), "cities": ", ".join(best[0])})
    return pd.DataFrame(rows)


METHODS = {"exact": "exact planner (what the engine charges)",
           "steiner_price": "Steiner planner's cities, engine price",
           "steiner_estimate": "Steiner planner's own estimate (links shared)"}


def curve_summary(curves: pd.DataFrame) -> pd.DataFrame:
    """Mean cost per k and method over positions (column ``position``) with 95% intervals, and the
    gap ``steiner_price - exact`` (what the Steiner planner overpays)."""
    curves = curves.assign(gap=curves["steiner_price"] - curves["exact"])
    rows = []
    for k, part in curves.groupby("k"):
        for col in [*METHODS, "gap"]:
            m, lo, hi = mean_interval(part[col].tolist())
            rows.append({"k": int(k), "method": col, "mean": m, "low": lo, "high": hi, "n": len(part)})
    return pd.DataFrame(rows)


def steiner_sources(curves: pd.DataFrame) -> dict[str, float]:
    """Where the Steiner planner's extra cost comes from, over all (position, k) rows of
    :func:`connection_curve`: ``gap`` (mean engine price of its cities minus the exact optimum) split
    into ``choice`` (its own estimate minus the optimum: the greedy, nearest-first choice of cities)
    and ``sharing`` (engine price minus its estimate: links it counted once but pays again, R62);
    ``under`` is the share of rows whose estimate is below the engine's price, ``over`` the share
    where its cities cost more than the optimum, ``rows`` the count."""
    price, est, exact = curves["steiner_price"], curves["steiner_estimate"], curves["exact"]
    gap = float((price - exact).mean())
    return {"rows": len(curves), "gap": gap, "choice": float((est - exact).mean()),
            "sharing": float((price - est).mean()), "under": float((est < price).mean()),
            "over": float((price > exact).mean())}


def connection_figure(summary: pd.DataFrame) -> go.Figure:
    """Cost of k cities by method (top) and the Steiner planner's overpayment (bottom), with intervals."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.68, 0.32], vertical_spacing=0.08)
    colors = {"exact": "#1565c0", "steiner_price": "#ef6c00", "steiner_estimate": "#9e9e9e", "gap": "#c62828"}
    for col, label in [*METHODS.items(), ("gap", "gap: Steiner planner's price - exact")]:
        part = summary[summary["method"] == col]
        shift = {"exact": -0.08, "steiner_price": 0.08}.get(col, 0.0)  # error bars side by side
        fig.add_scatter(x=part["k"] + shift, y=part["mean"], name=label, mode="lines+markers",
                        line={"color": colors[col], "dash": "dot" if col == "steiner_estimate" else "solid"},
                        error_y={"type": "data", "symmetric": False, "array": part["high"] - part["mean"],
                                 "arrayminus": part["mean"] - part["low"]},
                        row=2 if col == "gap" else 1, col=1)
    n = int(summary["n"].min()) if len(summary) else 0
    fig.update_layout(title=f"The cost of adding k cities (mean over {n} positions, 95% intervals)",
                      height=560, legend={"orientation": "h", "y": -0.15}, margin={"t": 60, "r": 20})
    fig.update_yaxes(title_text="cost (Elektro)", row=1, col=1)
    fig.update_yaxes(title_text="gap (Elektro)", row=2, col=1)
    fig.update_xaxes(title_text="k (cities added in one turn)", dtick=1, row=2, col=1)
    return fig


def growth_costs(g: Game, k: int = 4) -> pd.DataFrame:
    """Per city in play: the link cost of growing a network started there to ``k`` cities by always
    adding the nearest free city (Prim's order over the play area's distances, slot prices left out)."""
    cities, dist = g.distance_table()
    regions = {c: d["region"] for c, d in g.map.play_graph(g.regions).nodes(data=True)}
    rows = []
    for i, city in enumerate(cities):
        tree, best, total = {i}, list(dist[i]), 0
        for _ in range(k - 1):
            j = min((j for j in range(len(cities)) if j not in tree), key=best.__getitem__)
            total += best[j]
            tree.add(j)
            best = [min(a, b) for a, b in zip(best, dist[j], strict=True)]
        rows.append({"city": city, "region": regions[city], "links": total})
    return pd.DataFrame(rows).set_index("city")


def region_costs(growth: pd.DataFrame) -> pd.DataFrame:
    """Mean growth cost per region over all its cities (from growth_costs), with the cheapest and the
    dearest city (``min``, ``max``), cheapest region first. Every city of the region is counted: a
    complete count, not a sample, so the mean has no sampling interval."""
    rows = [{"region": r, "cities": len(part), "mean": float(part["links"].mean()),
             "min": int(part["links"].min()), "max": int(part["links"].max())}
            for r, part in growth.groupby("region")]
    return pd.DataFrame(rows).set_index("region").sort_values("mean")


def centrality(g: Game) -> pd.DataFrame:
    """Per city in play: mean cheapest path cost to every other city in play (Elektro), closeness
    (its inverse, networkx with ``distance="cost"``), degree (links), coordinates; most central first."""
    graph = g.map.play_graph(g.regions)
    close = nx.closeness_centrality(graph, distance="cost")
    rows = [{"city": c, "region": d["region"], "lat": d["lat"], "lon": d["lon"], "degree": graph.degree(c),
             "closeness": close[c], "mean_cost": 1 / close[c] if close[c] else math.inf}
            for c, d in graph.nodes(data=True)]
    return pd.DataFrame(rows).set_index("city").sort_values("mean_cost")


def centrality_figure(g: Game, central: pd.DataFrame, labels: int = 3) -> go.Figure:
    """The play area drawn from the map's coordinates, cities coloured by their mean path cost; the
    ``labels`` most central and most remote cities are named."""
    graph = g.map.play_graph(g.regions)
    xs, ys = [], []
    for a, b in graph.edges:
        xs += [graph.nodes[a]["lon"], graph.nodes[b]["lon"], None]
        ys += [graph.nodes[a]["lat"], graph.nodes[b]["lat"], None]
    fig = go.Figure(go.Scatter(x=xs, y=ys, mode="lines", line={"color": "#cfcfcf", "width": 1.5},
                               hoverinfo="skip", showlegend=False))
    named = set(central.index[:labels]) | set(central.index[-labels:])
    fig.add_scatter(x=central["lon"], y=central["lat"], mode="markers+text", showlegend=False,
                    text=[c if c in named else "" for c in central.index], textposition="top center",
                    textfont={"size": 11},
                    marker={"size": 14, "color": central["mean_cost"], "colorscale": "Viridis_r",
                            "line": {"color": "white", "width": 1},
                            "colorbar": {"title": {"text": "mean path<br>cost (E)"}}},
                    customdata=central[["mean_cost", "degree"]].to_numpy(), hovertext=central.index,
                    hovertemplate="%{hovertext}: %{customdata[0]:.1f} E on average to the others,"
                                  " %{customdata[1]} links<extra></extra>")
    fig.update_layout(title="Central and remote cities: mean cheapest path cost to every other city",
                      height=560, xaxis_title="longitude (degrees)", yaxis_title="latitude (degrees)",
                      margin={"t": 60, "r": 20}, plot_bgcolor="white")
    fig.update_xaxes(range=[central["lon"].min() - 0.8, central["lon"].max() + 0.8], constrain="domain")
    fig.update_yaxes(scaleanchor="x", scaleratio=1.5)  # about right for Germany's latitude
    return fig


def slot_prices_by_step(g: Game) -> pd.DataFrame:
    """The price of the 1st, 2nd and 3rd house in a city in each Step (R56, R58): NA where closed."""
    prices = g.rules.tables["build_prices"]
    rows = {f"Step {s}": {f"house {i + 1}": (p if i < s else pd.NA) for i, p in enumerate(prices)}
            for s in (1, 2, 3)}
    return pd.DataFrame(rows).T


def first_mover(g: Game, player: str, rival: str, ks: Iterable[int], step: int) -> pd.DataFrame:
    """Per k, in Step ``step``: the cheapest k cities for ``player`` when free (``free``), and again
    once ``rival`` already has a house in each of them (``taken``); ``loss`` = taken - free."""
    rows = []
    for k in ks:
        base = Scenario.from_game(g)
        base.set_step(step)
        free = cheapest_cities(base.game(), player, k)
        if free is None:
            break
        taken_sc = base.fork()
        taken_sc.set_cities(rival, [*taken_sc.cities(rival), *(c for c in free[0]
                                                               if c not in taken_sc.cities(rival))])
        taken = cheapest_cities(taken_sc.game(), player, k)
        rows.append({"k": k, "step": step, "free": free[1], "taken": taken[1] if taken else math.nan,
                     "loss": (taken[1] - free[1]) if taken else math.nan})
    return pd.DataFrame(rows)


def first_mover_summary(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """Mean loss per Step and k over positions (frames of first_mover) with 95% intervals."""
    both = pd.concat(list(frames), ignore_index=True)
    rows = []
    for (step, k), part in both.groupby(["step", "k"]):
        m, lo, hi = mean_interval(part["loss"].tolist())
        rows.append({"step": int(step), "k": int(k), "free": part["free"].mean(),
                     "taken": part["taken"].mean(), "loss": m, "low": lo, "high": hi,
                     "n": int(part["loss"].notna().sum())})
    return pd.DataFrame(rows)


def region_figure(g: Game, regions: pd.DataFrame, k: int) -> go.Figure:
    """Mean link cost of growing to ``k`` cities per region (from region_costs): bars without an
    interval, since every city of the region is counted (a complete count has no sampling error)."""
    labels = [f"{r} (n = {n} cities)" for r, n in zip(regions.index, regions["cities"], strict=True)]
    fig = go.Figure(go.Bar(x=labels, y=regions["mean"],
                           marker_color=[g.map.regions.get(r, "grey") for r in regions.index],
                           customdata=regions[["min", "max"]].to_numpy(), showlegend=False,
                           hovertemplate="%{x}: %{y:.1f} E (cities from %{customdata[0]} to "
                                         "%{customdata[1]} E)<extra></extra>"))
    fig.update_layout(title=f"Links paid to grow from one city to {k}, by region<br>"
                            "<sup>mean over all the region's cities: a complete count, no interval</sup>",
                      height=380, xaxis_title="region", yaxis_title="link cost (Elektro)",
                      margin={"t": 60, "r": 20})
    return fig
