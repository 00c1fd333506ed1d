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

from .style import SMALL, projector

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["area_text", "centrality", "centrality_figure", "centrality_text", "connection_curve",
           "connection_figure", "cost_curve_text", "cost_table", "curve_summary", "first_mover",
           "first_mover_summary", "first_mover_text", "fork_text", "growth_costs", "links_paid", "map_view",
           "play_graph", "positions", "region_costs", "region_figure", "region_text", "slot_prices_by_step",
           "steiner_estimate", "steiner_plan", "steiner_sources", "steiner_text"]

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
    fig.update_layout(title=f"The cost of adding k cities<br><sup>mean over {n} positions, 95% intervals"
                            "</sup>",
                      height=680, legend={"orientation": "h", "y": -0.18}, margin={"t": 110, "r": 20})
    fig.update_yaxes(title_text="cost (Elektro)", row=1, col=1)
    fig.update_yaxes(title_text="gap (Elektro)", row=2, col=1)
    fig.update_xaxes(title_text="k (cities added in one turn)", dtick=1, row=2, col=1)
    return projector(fig, unit="Elektro")


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
                    textfont={"size": SMALL},
                    marker={"size": 14, "color": central["mean_cost"], "colorscale": "Viridis_r",
                            "line": {"color": "white", "width": 1},
                            "colorbar": {"title": {"text": "mean path<br>cost (E)"}}},
                    customdata=central[["mean_cost", "degree"]].to_numpy(), hovertext=central.index,
                    hovertemplate="%{hovertext}: %{customdata[0]:.1f} E on average to the others,"
                                  " %{customdata[1]} links<extra></extra>")
    fig.update_layout(title="Central and remote cities<br><sup>mean cheapest path cost to every other city "
                            f"in play, all {len(central)} counted</sup>",
                      height=680, xaxis_title="longitude (degrees)", yaxis_title="latitude (degrees)",
                      margin={"t": 110, "r": 20}, plot_bgcolor="white")
    fig.update_xaxes(range=[central["lon"].min() - 0.8, central["lon"].max() + 0.8], constrain="domain")
    fig.update_yaxes(scaleanchor="x", scaleratio=1.5)  # about right for Germany's latitude
    return projector(fig, unit="Elektro")


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
                      height=480, xaxis_title="region", yaxis_title="link cost (Elektro)",
                      margin={"t": 110, "r": 20})
    return projector(fig, unit="Elektro")


# --- the lesson's sentences, from the numbers just computed ----------------------------------------

def area_text(g: Game, player: str) -> str:
    """The play area as a graph, and who builds (Markdown)."""
    graph = play_graph(g)
    costs = [d["cost"] for _, _, d in graph.edges(data=True)]
    return (f"The play area is a graph of {graph.number_of_nodes()} cities and {graph.number_of_edges()} "
            f"links; link costs run from {min(costs)} to {max(costs)} E (mean "
            f"{sum(costs) / len(costs):.1f} E). It is round {g.round}, Step {g.step}, and {player} is to "
            f"build, with houses in {', '.join(g.cities_of(player))}.")


def fork_text(g: Game, player: str, want: Sequence[str]) -> str:
    """The Steiner fork of section 2 (Markdown): the Steiner tree's price of ``want`` against what the
    engine charges, the paths it charges, the links paid more than once (R62) and what a house at the
    tree's junction would change."""
    engine = plan_targets(g, player, want)
    if engine is None:
        raise ValueError(f"{player} cannot add {', '.join(want)} in one turn")
    steiner = steiner_estimate(g, player, want)
    ends = [*g.cities_of(player), *want]
    tree = steiner_tree(play_graph(g), ends, weight="cost")
    forks = ", ".join(c for c in tree if c not in ends)
    junction = next(c for c in tree if tree.degree(c) > 2)  # where the Steiner tree branches
    with_fork = plan_targets(g, player, [*want, junction])
    paths = "; ".join(f"{s.city} pays {' – '.join(s.path)} ({s.connection} E of links + {s.slot_price} E "
                      "slot)" for s in g.plan_build(player, list(engine.cities)))
    links = links_paid(g, player, want)
    twice = links[links["paid"] > 1]
    extra = int((twice["cost"] * (twice["paid"] - 1)).sum())
    named = ", ".join(f"{r.link} ({r.cost} E, paid {r.paid} times: for {r['for']})"
                      for _, r in twice.iterrows())
    whole = "exactly the difference" if extra == engine.total - steiner else "part of the difference"
    again = (f"The link paid more than once is {named}: {extra} E paid again, {whole}. " if len(twice)
             else "No link is paid twice here. ")
    fork = ""
    if with_fork is not None:
        cheaper = "less" if with_fork.total < engine.total else "not less"
        fork = (f"Building a house at the fork {junction} as well ({' → '.join(with_fork.cities)}) gets "
                f"three cities for {with_fork.total} E, {cheaper} than the two alone: a house at the "
                f"junction is part of the network, so each city's path can start there.")
    return (f"The Steiner tree runs through {forks} without a house there and would price the two cities "
            f"at {steiner} E; the engine charges {engine.total} E, {engine.total - steiner} E more. The "
            f"engine's plan (`fork.plan_build`) says why: {paths}. " + again + fork)


def cost_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per k, from :func:`curve_summary`: the mean cost of k cities by method, the exact planner's
    ``marginal`` cost of the k-th city, $MC(k) = C(k) - C(k-1)$, its ``average`` cost per city,
    $AC(k) = C(k)/k$, and the number of ``positions``."""
    wide = summary.pivot(index="k", columns="method", values="mean")
    wide["marginal (exact)"] = wide["exact"].diff().fillna(wide["exact"])
    wide["average (exact)"] = wide["exact"] / wide.index
    wide["positions"] = summary.groupby("k")["n"].first()
    return wide


def cost_curve_text(wide: pd.DataFrame) -> str:
    """The marginal against the average cost of connecting (Markdown), from :func:`cost_table`: where
    the marginal cost is lowest, and where the average is lowest and the next city pulls it up."""
    mc, ac = wide["marginal (exact)"], wide["average (exact)"]
    kmax = int(wide.index.max())
    k_mc = int(mc.loc[2:].idxmin()) if kmax >= 2 else 1
    k_ac = int(ac.idxmin())
    head = (f"The first city costs $MC(1) = {mc[1]:.1f}$ E; from the second on, the marginal cost is "
            f"lowest at k = {k_mc}, $MC({k_mc}) = {mc[k_mc]:.1f}$ E, and city {kmax} costs $MC({kmax}) = "
            f"{mc[kmax]:.1f}$ E. ")
    if k_ac < kmax:
        nxt = k_ac + 1
        more = "more than" if mc[nxt] > ac[k_ac] else "as much as"  # never less: AC(k_ac) is the least
        tail = (f"The average cost per city falls from $AC(1) = {ac[1]:.1f}$ to its lowest, $AC({k_ac}) = "
                f"{ac[k_ac]:.1f}$ E at k = {k_ac}; city {nxt} costs $MC({nxt}) = {mc[nxt]:.1f}$ E, {more} "
                f"that average, and $AC({kmax}) = {ac[kmax]:.1f}$ E: the average is lowest where the "
                f"marginal cost crosses it")
    else:
        tail = (f"The average cost per city falls over every k, from $AC(1) = {ac[1]:.1f}$ to $AC({kmax}) = "
                f"{ac[kmax]:.1f}$ E: no city up to {kmax} costs more than the average before it")
    return head + tail + f" (means over {int(wide['positions'].min())} positions)."


def steiner_text(wide: pd.DataFrame, summary: pd.DataFrame, curves: pd.DataFrame, positions: int) -> str:
    """The exact against the Steiner planner (Markdown): the Steiner planner's overpayment at the largest
    k with its interval, and its two sources (:func:`steiner_sources`)."""
    gap = summary[summary["method"] == "gap"].set_index("k")
    kmax = gap.index.max()
    src = steiner_sources(curves)

    def share(x: float) -> str:
        return f"{x / src['gap']:.0%}" if src["gap"] else "none"

    which = ("most of the difference is the choice, not R62." if src["choice"] > src["sharing"] else
             "most of the difference is R62, links paid again.")
    return (f"Over {positions} positions, the exact planner's {kmax} cheapest cities cost "
            f"{wide.loc[kmax, 'exact']:.0f} E on average. The Steiner planner's choice costs "
            f"{gap.loc[kmax, 'mean']:.1f} E more (95% interval {gap.loc[kmax, 'low']:.1f} to "
            f"{gap.loc[kmax, 'high']:.1f}). Across all {src['rows']} (position, k) pairs, the Steiner "
            f"planner paid more than the optimum in {src['over']:.0%} of them. Its own estimate was below "
            f"the engine's price in {src['under']:.0%} of them: of its {src['gap']:.2f} E mean overpayment, "
            f"{src['sharing']:.2f} E ({share(src['sharing'])}) is links it counted as shared and pays again, "
            f"and {src['choice']:.2f} E ({share(src['choice'])}) is its choice of cities: " + which)


def region_text(regions: pd.DataFrame, growth: pd.DataFrame, k: int) -> str:
    """The cheapest and the dearest region to grow in, and the cheapest start cities (Markdown)."""
    cheap, dear = regions.iloc[0], regions.iloc[-1]
    starts = ", ".join(f"{c} ({v} E)" for c, v in growth["links"].nsmallest(3).items())
    return (f"Growing from one city to {k} costs {cheap['mean']:.1f} E in links on average in the "
            f"{cheap.name} region (its cities from {cheap['min']:.0f} to {cheap['max']:.0f} E, all "
            f"{int(cheap['cities'])} counted) and {dear['mean']:.1f} E in the {dear.name} region "
            f"({dear['min']:.0f} to {dear['max']:.0f} E, all {int(dear['cities'])}). "
            f"The cheapest start cities: {starts}.")


def centrality_text(central: pd.DataFrame) -> str:
    """The most central and the most remote city, and where the best-linked cities rank (Markdown)."""
    top, low = central.iloc[0], central.iloc[-1]
    hubs = central[central["degree"] == central["degree"].max()]
    ranks = [list(central.index).index(c) + 1 for c in hubs.index]
    return (f"{top.name} is the most central city in play: {top['mean_cost']:.1f} E on average to each of "
            f"the other {len(central) - 1} cities, with {top['degree']} links; {low.name} is the most remote "
            f"({low['mean_cost']:.1f} E). The {len(hubs)} cities with the most links "
            f"({hubs['degree'].iloc[0]}) rank {', '.join(map(str, ranks))} of {len(central)} by "
            f"closeness: the cost of the links counts, not only their number.")


def first_mover_text(first: pd.DataFrame, k: int = 3) -> str:
    """What a rival's houses in a company's cheapest ``k`` cities cost it in Steps 1 and 2 (Markdown),
    from :func:`first_mover_summary`."""
    s1 = first[(first["step"] == 1) & (first["k"] == k)].iloc[0]
    s2 = first[(first["step"] == 2) & (first["k"] == k)].iloc[0]
    clear = ("more" if s1["low"] > s2["high"] else "less" if s1["high"] < s2["low"]
             else "not clearly more or less")
    return (f"With a rival already in its {k} cheapest cities, a company's cheapest {k} cities cost "
            f"{s1['loss']:.1f} E more in Step 1 (95% interval {s1['low']:.1f}–{s1['high']:.1f}; it must "
            f"build elsewhere) and {s2['loss']:.1f} E more in Step 2 ({s2['low']:.1f}–{s2['high']:.1f}; the "
            f"second slot costs 5 more, or a detour is cheaper), over n = {int(s1['n'])} positions: "
            f"{s1['loss'] / s1['free']:.0%} and {s2['loss'] / s2['free']:.0%} of what they cost free "
            f"({s1['free']:.0f} and {s2['free']:.0f} E). Being first was worth {clear} in Step 1 than in "
            f"Step 2 (by the intervals).")


def map_view(g: Game, **options: object) -> go.Figure:
    """The package's map (``views.map_figure`` with ``options``) with the lessons' projector-sized title
    and legend; the board's own labels keep the sizes the view lays out so that none overlap. A plan's
    path is drawn under the link costs, so that no cost on its way is hidden."""
    from powergrid_nb.views import map_figure

    fig = projector(map_figure(g, **options))  # type: ignore[arg-type]
    names = [t.name for t in fig.data]
    if "plan" in names and "link costs" in names and names.index("plan") > names.index("link costs"):
        traces = list(fig.data)
        path = traces.pop(names.index("plan"))
        traces.insert(names.index("link costs"), path)
        fig.data = tuple(traces)
    return fig
