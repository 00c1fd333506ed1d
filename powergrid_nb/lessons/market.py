"""Lesson 1, the resource market: supply curves, refills as supply shocks, price spikes and denial.

Everything is read from the engine: the price track (``g.resource_track``, ``g.market_cost``,
``g.token_price``, R50, R115-R117), the refill table (``g.rules.refill``, R108), simulated games'
market history (``simulate(..., per_round=True).market``) and ``analyze`` for denial buys.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from powergrid_nb.bots import HeuristicBot
from powergrid_nb.engine.actions import BuyResources
from powergrid_nb.engine.editions import EDITIONS, MAX_PLAYERS, MIN_PLAYERS
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import PLANTS, RESOURCES
from powergrid_nb.play.analysis import analyze
from powergrid_nb.play.analysis.candidates import Candidate, default_candidates
from powergrid_nb.play.results import mean_interval, wilson
from powergrid_nb.views import RESOURCE_COLORS

from .style import SMALL, projector

__all__ = ["cost_text", "denial_candidates", "denial_figure", "denial_positions", "denial_study",
           "denial_summary", "denial_text", "externality", "externality_table", "externality_text",
           "history_text", "next_buyer_table", "paired_difference", "price_history", "price_history_figure",
           "price_spikes", "refill_figure", "refill_table", "refill_wide", "shortfall", "spike_figure",
           "spike_summary", "spike_text", "supply_curve", "supply_curve_figure"]


def supply_curve(g: Game, resource: str) -> pd.DataFrame:
    """One row per token on the market of ``resource``, in the order they are bought (cheapest first,
    R50): ``k`` (tokens bought), ``marginal`` (the price of the k-th token), ``total`` (what k tokens
    cost, ``g.market_cost``), ``average`` (total / k) and ``next_buyer`` (what the next token costs
    once k are bought: the price the next buyer faces; NaN when the market is empty, R52)."""
    n = g.resource_market()[resource]
    ladder = g.resource_track.price_ladder(RESOURCES.index(resource), n)
    rows = []
    for k in range(1, n + 1):
        total = g.market_cost(**{resource: k})
        rows.append({"k": k, "marginal": ladder[k - 1], "total": total, "average": round(total / k, 2),
                     "next_buyer": ladder[k] if k < n else None})
    df = pd.DataFrame(rows, columns=["k", "marginal", "total", "average", "next_buyer"])
    return df.astype({"next_buyer": "Int64"})


def next_buyer_table(g: Game, resource: str, ks: Sequence[int] = (0, 1, 2, 3, 4, 5, 6)) -> pd.DataFrame:
    """What the next buyer pays for one token of ``resource`` after you bought k, for each k."""
    curve = supply_curve(g, resource).set_index("k")
    first = g.token_price(resource)
    rows = []
    for k in ks:
        if k > len(curve):
            break
        after = first if k == 0 else curve.loc[k, "next_buyer"]
        rows.append({"you buy": k, "you pay (Elektro)": 0 if k == 0 else int(curve.loc[k, "total"]),
                     "next buyer pays for 1 (Elektro)": "sold out" if pd.isna(after) else int(after)})
    return pd.DataFrame(rows)


def cost_text(g: Game, resource: str, k: int) -> str:
    """The lesson's sentence on buying ``k`` tokens of ``resource`` (Markdown): total, average and
    marginal cost from :func:`supply_curve`, and which of marginal and average is higher."""
    curve = supply_curve(g, resource).set_index("k")
    k = min(k, len(curve))
    row = curve.loc[k]
    mc, ac = float(row["marginal"]), float(row["average"])
    order = ("above the average: token {k} costs more than the tokens before it did on average, so it pulls "
             "the average up" if mc > ac else "equal to the average: the tokens bought so far all cost the "
             "same, the curve is still flat here").format(k=k)
    return (f"With {g.resource_market()[resource]} {resource} on the market, {k} {resource} cost "
            f"**{row['total']:.0f} Elektro** in total (the engine's `g.market_cost({resource}={k})`): an "
            f"average cost of $AC({k}) = {row['total']:.0f}/{k} = {ac:.2f}$ Elektro per token, while token "
            f"number {k} alone costs $MC({k}) = {mc:.0f}$ (its marginal cost). The marginal cost is {order}.")


def externality(g: Game, resource: str, mine: int, theirs: int) -> int | None:
    """What buying ``mine`` tokens of ``resource`` now adds to the bill of the next buyer of ``theirs``
    tokens: $C(m + t) - C(m) - C(t)$ with $C$ the market's total cost (cheapest first, R50); None when
    the market holds fewer than ``mine + theirs``."""
    if mine + theirs > g.resource_market()[resource]:
        return None

    def cost(k: int) -> int:
        return g.market_cost(**{resource: k}) if k else 0

    return cost(mine + theirs) - cost(mine) - cost(theirs)


def externality_table(g: Game, resource: str, theirs: int, ks: Sequence[int] = range(0, 10)) -> pd.DataFrame:
    """Per purchase of k tokens of ``resource`` now: what you pay, what the next buyer of ``theirs`` tokens
    then pays, and the externality (what your k tokens add to that buyer's bill, :func:`externality`);
    stops where the market cannot sell both."""
    rows = []
    for k in ks:
        extra = externality(g, resource, k, theirs)
        if extra is None:
            break
        rows.append({"you buy": k, "you pay (Elektro)": g.market_cost(**{resource: k}) if k else 0,
                     f"next buyer pays for {theirs} (Elektro)": g.market_cost(**{resource: theirs}) + extra,
                     "externality (Elektro)": extra})
    return pd.DataFrame(rows)


def externality_text(g: Game, resource: str, mine: int, theirs: int) -> str:
    """The lesson's sentence on the externality of buying ``mine`` tokens of ``resource`` before a buyer
    of ``theirs`` (Markdown), from :func:`externality_table` at the position ``g``."""
    t = externality_table(g, resource, theirs, range(0, g.resource_market()[resource] + 1))
    pay = f"next buyer pays for {theirs} (Elektro)"
    first = t.iloc[0]
    row = t[t["you buy"] == mine].iloc[0]
    last = t.iloc[-1]
    return (f"If the first buyer takes {mine} {resource} (paying {row['you pay (Elektro)']} Elektro), "
            f"the next buyer pays {row[pay]} Elektro for {theirs} {resource} instead of {first[pay]}: "
            f"**{row['externality (Elektro)']} Elektro more**, a cost the first buyer's purchase puts on "
            f"the next one and does not bear. Buying {last['you buy']} would raise that buyer's bill by "
            f"{last['externality (Elektro)']} Elektro. The money goes to the bank, not to the first buyer: "
            f"nobody gains what the next buyer loses.")


def supply_curve_figure(g: Game, resources: Sequence[str] = RESOURCES) -> go.Figure:
    """Left: the marginal price of each token bought now (a step function); right: the total cost of
    buying k tokens. One line per resource, from the market of ``g``."""
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12, subplot_titles=(
        "Marginal price: the k-th token costs", "Total cost of buying k tokens"))
    # equal tracks draw on top of each other: oil wide underneath, garbage dashed on top, so both show
    style = {"coal": {"width": 3}, "oil": {"width": 6}, "garbage": {"width": 2.5, "dash": "dash"},
             "uranium": {"width": 3}}
    for r in sorted(resources, key=lambda x: x != "oil"):
        c = supply_curve(g, r)
        if c.empty:
            continue
        line = {"color": RESOURCE_COLORS[r], **style.get(r, {})}
        fig.add_scatter(x=c["k"], y=c["marginal"], mode="lines", line={"shape": "hv", **line},
                        name=r, legendgroup=r, legendrank=RESOURCES.index(r), row=1, col=1)
        fig.add_scatter(x=c["k"], y=c["total"], mode="lines", line=line, name=r, legendgroup=r,
                        showlegend=False, row=1, col=2)
    fig.update_xaxes(title_text="tokens bought, k (tokens)")
    fig.update_yaxes(rangemode="tozero")
    fig.update_yaxes(title_text="price of the k-th token (Elektro)", row=1, col=1)
    fig.update_yaxes(title_text="total for k tokens (Elektro)", row=1, col=2)
    fig.update_layout(title="The supply curves of the resource market now", height=520,
                      template="plotly_white", legend={"title": "resource", "orientation": "h", "y": -0.25},
                      margin={"t": 110, "b": 110})
    return projector(fig, unit="Elektro")


def refill_table(editions: Sequence[str] = tuple(EDITIONS)) -> pd.DataFrame:
    """The refill (R108) as a tidy frame: ``edition``, ``players``, ``step``, ``resource``, ``tokens``
    moved from the supply to the market each phase 5 (if the supply has them)."""
    rows = []
    for ed in editions:
        rules = new_game(2, edition=ed, seed=0).rules
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            for step in (1, 2, 3):
                for r, k in zip(RESOURCES, rules.refill(players, step), strict=True):
                    rows.append({"edition": ed, "players": players, "step": step, "resource": r, "tokens": k})
    return pd.DataFrame(rows)


def refill_figure(table: pd.DataFrame, edition: str = "original") -> go.Figure:
    """Tokens refilled per round by player count, one panel per step, bars by resource."""
    t = table[table["edition"] == edition]
    fig = make_subplots(rows=1, cols=3, shared_yaxes=True, subplot_titles=("Step 1", "Step 2", "Step 3"),
                        horizontal_spacing=0.04)
    for col, step in enumerate((1, 2, 3), 1):
        for r in RESOURCES:
            s = t[(t["step"] == step) & (t["resource"] == r)]
            fig.add_bar(x=s["players"], y=s["tokens"], name=r, marker_color=RESOURCE_COLORS[r],
                        legendgroup=r, showlegend=col == 1, row=1, col=col)
    fig.update_xaxes(title_text="players", dtick=1)
    fig.update_yaxes(title_text="tokens refilled per round", row=1, col=1)
    fig.update_layout(title=f"The refill (R108, {edition} edition): supply added each round", barmode="group",
                      height=480, template="plotly_white", margin={"t": 110, "b": 120},
                      legend={"title": "resource", "orientation": "h", "y": -0.3})
    return projector(fig, unit="tokens per round")


def refill_wide(table: pd.DataFrame, edition: str = "original") -> pd.DataFrame:
    """:func:`refill_table` as the rulebook prints it: players by step, "coal / oil / garbage / uranium"."""
    t = table[table["edition"] == edition].set_index(["players", "step", "resource"])["tokens"]
    players = sorted({p for p, _, _ in t.index})
    return pd.DataFrame({f"Step {s}": [" / ".join(str(int(t[(p, s, r)])) for r in RESOURCES) for p in players]
                         for s in (1, 2, 3)}, index=pd.Index(players, name="players"))


def price_history(market: pd.DataFrame, min_games: int = 1) -> pd.DataFrame:
    """Per round and resource over simulated games (``simulate(..., per_round=True).market``): the
    mean price of the next token as the round starts with its 95% interval (``price``, ``low``,
    ``high``; over the games where some is left: sold-out rounds are counted apart), ``sold_out``
    (share of games with none on the market) with its Wilson interval
    and ``games`` (games still running in that round: the sample size; rounds with fewer than
    ``min_games`` are left out)."""
    rows = []
    for (rnd, r), grp in market.groupby(["round", "resource"], observed=True):
        if len(grp) < min_games:
            continue
        prices = grp["next_price"].dropna().astype(float).tolist()
        mean, lo, hi = mean_interval(prices) if prices else (float("nan"),) * 3
        out = int((grp["tokens"] == 0).sum())
        slo, shi = wilson(out, len(grp))
        rows.append({"round": int(rnd), "resource": str(r), "price": mean, "low": lo, "high": hi,
                     "sold_out": out / len(grp), "sold_out_low": slo, "sold_out_high": shi,
                     "games": len(grp)})
    return pd.DataFrame(rows)


def price_history_figure(history: pd.DataFrame) -> go.Figure:
    """Mean next-token price per round with 95% bands, one line per resource."""
    fig = go.Figure()
    for r in RESOURCES:
        h = history[history["resource"] == r]
        color = RESOURCE_COLORS[r]
        fig.add_scatter(x=list(h["round"]) + list(h["round"])[::-1], y=list(h["high"]) + list(h["low"])[::-1],
                        fill="toself", line={"width": 0}, fillcolor=color, opacity=0.2, hoverinfo="skip",
                        legendgroup=r, showlegend=False)
        fig.add_scatter(x=h["round"], y=h["price"], mode="lines+markers", name=r, line={"color": color},
                        legendgroup=r, customdata=h[["games"]],
                        hovertemplate="round %{x}: %{y:.1f} Elektro (n = %{customdata[0]} games)")
    fig.update_layout(title="Price of the next token at the start of each round<br>"
                            "<sup>mean over the games still running, 95% interval</sup>",
                      xaxis_title="round", yaxis_title="price of the next token (Elektro)", height=520,
                      template="plotly_white",
                      legend={"title": "resource", "orientation": "h", "y": -0.25},
                      margin={"t": 110, "b": 110})
    fig.update_xaxes(dtick=1)
    return projector(fig, n=int(history["games"].max()) if len(history) else None, unit="Elektro")


def price_spikes(market: pd.DataFrame) -> pd.DataFrame:
    """Per game and resource (``simulate(..., per_round=True).market``): the ``peak`` price of the next
    token at the start of any round of that game, the first ``peak_round`` it was reached, and
    ``sold_out`` (rounds that started with none on the market: no next token at any price). A mean
    over games per round smooths such spikes away; these are each game's own."""
    rows = []
    for (game, r), grp in market.groupby(["game", "resource"], observed=True):
        prices = grp.dropna(subset=["next_price"])
        top = prices.loc[prices["next_price"].astype(float).idxmax()] if len(prices) else None
        rows.append({"game": int(game), "resource": str(r),
                     "peak": float(top["next_price"]) if top is not None else math.nan,
                     "peak_round": int(top["round"]) if top is not None else pd.NA,
                     "sold_out": int((grp["tokens"] == 0).sum())})
    return pd.DataFrame(rows)


def spike_summary(spikes: pd.DataFrame, history: pd.DataFrame) -> pd.DataFrame:
    """Per resource: ``games``, the median and the highest per-game peak (:func:`price_spikes`), the
    highest mean over games of any round (``mean_top``, from :func:`price_history`), the share of games
    whose own peak was above that mean (``above``, Wilson interval ``above_low``-``above_high``) and the
    games with a sold-out round (``sold_out_games``)."""
    rows = []
    for r in RESOURCES:
        s = spikes[spikes["resource"] == r]
        h = history[history["resource"] == r]
        if s.empty or h.empty:
            continue
        top = float(h["price"].max())
        k, n = int((s["peak"] > top).sum()), len(s)
        lo, hi = wilson(k, n)
        rows.append({"resource": r, "games": n, "median_peak": float(s["peak"].median()),
                     "max_peak": float(s["peak"].max()), "mean_top": top, "above": k / n if n else math.nan,
                     "above_low": lo, "above_high": hi, "sold_out_games": int((s["sold_out"] > 0).sum())})
    return pd.DataFrame(rows).set_index("resource")


def spike_figure(spikes: pd.DataFrame, history: pd.DataFrame) -> go.Figure:
    """Each game's peak price of the next token per resource (a box with every game as a point) against
    the highest round mean of :func:`price_history` (a bar): the spikes the means hide."""
    fig = go.Figure()
    for r in RESOURCES:
        s = spikes[spikes["resource"] == r]
        h = history[history["resource"] == r]
        if s.empty:
            continue
        color = RESOURCE_COLORS[r]
        fig.add_box(x=[r] * len(s), y=s["peak"], name=r, marker_color=color, boxpoints="all", jitter=0.5,
                    pointpos=0, customdata=s[["game", "peak_round"]].to_numpy(), showlegend=False,
                    hovertemplate="game %{customdata[0]}: peak %{y} Elektro in round %{customdata[1]}"
                                  "<extra></extra>")
        if not h.empty:
            fig.add_scatter(x=[r], y=[h["price"].max()], mode="markers", showlegend=r == RESOURCES[0],
                            name="highest mean of a round", legendgroup="mean",
                            marker={"symbol": "line-ew-open", "size": 40, "color": "black",
                                    "line": {"width": 3}},
                            hovertemplate="highest round mean: %{y:.1f} Elektro<extra></extra>")
    fig.update_layout(title="Each game's highest price of the next token<br><sup>one point per game</sup>",
                      yaxis_title="peak price of the next token (Elektro)", xaxis_title="resource",
                      height=520, template="plotly_white", legend={"orientation": "h", "y": -0.25},
                      margin={"t": 110, "b": 110})
    return projector(fig, n=int(spikes["game"].nunique()), unit="Elektro")


def history_text(history: pd.DataFrame, games: int) -> str:
    """The lesson's summary of :func:`price_history` (Markdown): per resource the round-1 price, the
    lowest and the highest round mean with their intervals, and the round most often sold out."""
    lines = []
    for r, h in history.groupby("resource", sort=False):
        h = h.set_index("round")
        lo_r, hi_r = h["price"].idxmin(), h["price"].idxmax()
        low, high = h.loc[lo_r], h.loc[hi_r]
        lines.append(f"- **{r}**: {h['price'].iloc[0]:.1f} Elektro in round {h.index[0]}; "
                     f"lowest {low['price']:.1f} [{low['low']:.1f}, {low['high']:.1f}] in round {lo_r}, "
                     f"highest {high['price']:.1f} [{high['low']:.1f}, {high['high']:.1f}] in round {hi_r} "
                     f"(n = {high['games']} games)")
    out = history.loc[history["sold_out"].idxmax()]
    if out["sold_out"] > 0:
        dry = (f"A market was sold out at the start of a round most often for **{out['resource']}** "
               f"in round {out['round']}: in {out['sold_out']:.0%} "
               f"[{out['sold_out_low']:.0%}, {out['sold_out_high']:.0%}] of {out['games']} games.")
    else:
        dry = (f"No market was sold out at the start of any round in these {games} games (for a "
               f"single round, the 95% upper bound of that share is {out['sold_out_high']:.0%}).")
    head = f"Mean price of the next token over {games} games (95% intervals):"
    return "\n".join([head, *lines]) + "\n\n" + dry


def spike_text(summary: pd.DataFrame) -> str:
    """The lesson's summary of :func:`spike_summary` (Markdown): per resource the highest round mean
    against each game's own peak, with Wilson intervals of the share of games above it."""
    lines = [f"- **{r}**: the highest mean of a round was {s['mean_top']:.1f} Elektro; each game's own peak: "
             f"median {s['median_peak']:.0f}, highest {s['max_peak']:.0f}; "
             f"{s['above']:.0%} [{s['above_low']:.0%}, {s['above_high']:.0%}] of the {int(s['games'])} games "
             f"went above the highest mean; {int(s['sold_out_games'])} games had a round start with none "
             "left."
             for r, s in summary.iterrows()]
    return "Each game's own peak price of the next token (95% Wilson intervals):\n" + "\n".join(lines)


# --- denial ----------------------------------------------------------------------------------------

def paired_difference(x: Sequence[float], y: Sequence[float],
                      z: float = 1.959964) -> tuple[float, float, float]:
    """(mean of y - x, low, high): the difference of two paired win rates (win shares in [0, 1], one
    pair per playout) with Newcombe's hybrid score interval for paired proportions (1998, method 10),
    built from the two Wilson intervals and the correlation of the pairs. Unlike a t interval it is
    honest at 0 and n: 12 wins of 12 against 0 of 12 is not a certain difference of 1."""
    n = len(x)
    if n == 0 or n != len(y):
        return math.nan, math.nan, math.nan
    a = sum(p * q for p, q in zip(x, y, strict=True))              # both win
    b = sum(p * (1 - q) for p, q in zip(x, y, strict=True))        # only x wins
    c = sum((1 - p) * q for p, q in zip(x, y, strict=True))        # only y wins
    d = n - a - b - c
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n, z)
    l2, u2 = wilson(a + c, n, z)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(margins) if margins > 0 else 0.0
    diff = p2 - p1
    low = diff - math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2))
    high = diff + math.sqrt(max(0.0, (u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2))
    return diff, max(-1.0, low), min(1.0, high)


def shortfall(g: Game, player: str, resource: str) -> int:
    """Tokens of ``resource`` ``player`` lacks to run once every plant of theirs that burns only that
    resource (hybrids left out): their need minus what they have stored; 0 if none."""
    need = sum(PLANTS[x].tokens for x in g.plants_of(player) if PLANTS[x].fuel == resource)
    return max(0, need - g.tokens_of(player).get(resource, 0))


def denial_candidates(g: Game, me: str) -> dict[str, Any] | None:
    """The first opponent who buys later this phase and lacks a fuel that ``me`` can store more of
    than the heuristic buys: the normal buy (the heuristic's), the denial buy (the heuristic's with
    as much of that fuel as ``me`` can store and pay for) and whether it leaves the opponent short."""
    market, room = g.resource_market(), g.storage_room(me)
    normal = default_candidates(g, me)[0]
    base = [0, 0, 0, 0]
    for a in normal.actions:
        if isinstance(a, BuyResources):
            base = [x + y for x, y in zip(base, a.amounts, strict=True)]
    for opp in (p for p in g.still_to_act if p != me):
        for k, r in enumerate(RESOURCES):
            short = shortfall(g, opp, r)
            if not short or room[r] <= base[k] or market[r] <= base[k]:
                continue  # the opponent needs none, or there is nothing more to take
            want = list(base)
            want[k] = min(room[r], market[r])
            while want[k] > base[k] and not g.is_legal(BuyResources(me, *want)):
                want[k] -= 1
            if want[k] == base[k]:
                continue  # no money for more
            buy = BuyResources(me, *want)
            deny = Candidate(f"deny {opp} {r}: " + str(buy).split(": ", 1)[1],
                             (buy, *normal.actions[-1:]), None, "buy")
            return {"player": me, "opponent": opp, "resource": r, "normal": normal, "denial": deny,
                    "taken": want[k] - base[k], "opponent_short": short,
                    "left": market[r] - want[k], "leaves_short": market[r] - want[k] < short}
    return None


def denial_positions(games: int, players: int = 4, seed: int = 0, min_round: int = 3,
                     edition: str = "original", behind: int = 1) -> list[dict[str, Any]]:
    """Phase-3 positions from heuristic games (seeds ``seed``, ``seed`` + 1, ...; at most one per game:
    the sharpest denial from round ``min_round`` on) where the player to act, still in the race (at
    most ``behind`` cities behind the leader), can buy up a fuel an opponent who buys after them lacks
    (:func:`shortfall`). Each: ``game`` (the position), ``seed``, ``round``, ``player``, ``opponent``,
    ``resource``, ``normal`` and ``denial`` (candidates for :func:`analyze`), ``taken`` (tokens the
    denial buys beyond the normal buy), ``left`` (tokens of that fuel it leaves on the market),
    ``opponent_short`` and ``leaves_short`` (the market then holds fewer than the opponent lacks)."""
    found = []
    for i in range(games):
        g = new_game(players, edition=edition, seed=seed + i)
        bots = dict(zip(g.players, (HeuristicBot(seed=seed + i + k) for k in range(players)), strict=True))
        hits = []
        while not g.is_over:
            me = g.current_player
            if (g.phase == Phase.RESOURCES and g.round >= min_round and me is not None
                    and g.city_count(me) + behind >= g.largest_network()):
                hit = denial_candidates(g, me)
                if hit is not None:
                    hits.append({"game": g.copy(), "seed": seed + i, "round": g.round, **hit})
            g.apply(bots[me].act(g))  # type: ignore[index]
        if hits:  # the sharpest one: leaves the opponent short, else leaves the fewest tokens behind
            found.append(max(hits, key=lambda h: (h["leaves_short"], -h["left"], h["round"])))
    return found


def denial_study(positions: list[dict[str, Any]], playouts: int, seed: int = 1) -> pd.DataFrame:
    """For each position, ``analyze`` the normal buy against the denial buy on the same playouts:
    win probabilities with Wilson intervals (``normal_low`` ...), the paired difference denial - normal
    with its 95% interval (:func:`paired_difference`: honest when every playout went the same way),
    and ``clear`` (the interval excludes 0)."""
    rows = []
    for i, pos in enumerate(positions):
        a = analyze(pos["game"], candidates=[pos["normal"], pos["denial"]], playouts=playouts,
                    seed=seed + i, progress=False)
        f = a.frame.set_index("candidate")
        n_row, d_row = f.loc[pos["normal"].label], f.loc[pos["denial"].label]
        normal, denial = a.wins(pos["normal"].label), a.wins(pos["denial"].label)
        diff, lo, hi = paired_difference(normal, denial)
        rows.append({"seed": pos["seed"], "round": pos["round"], "player": pos["player"],
                     "opponent": pos["opponent"], "resource": pos["resource"], "denial": pos["denial"].label,
                     "left": pos["left"], "leaves_short": pos["leaves_short"],
                     "p_normal": n_row["win_probability"], "p_denial": d_row["win_probability"],
                     "normal_low": n_row["ci_low"], "normal_high": n_row["ci_high"],
                     "denial_low": d_row["ci_low"], "denial_high": d_row["ci_high"],
                     "diff": diff, "diff_low": lo, "diff_high": hi, "clear": lo > 0 or hi < 0,
                     "playouts": int(a.playouts)})
    return pd.DataFrame(rows)


def denial_summary(study: pd.DataFrame) -> dict[str, Any]:
    """How many positions the denial clearly changed, each way, with Wilson intervals of the shares."""
    n = len(study)
    better = int((study["diff_low"] > 0).sum()) if n else 0
    worse = int((study["diff_high"] < 0).sum()) if n else 0
    return {"positions": n, "clear": better + worse, "clear_ci": wilson(better + worse, n),
            "better": better, "better_ci": wilson(better, n), "worse": worse, "worse_ci": wilson(worse, n),
            "mean_diff": mean_interval(study["diff"].tolist()) if n else (float("nan"),) * 3}


def denial_figure(study: pd.DataFrame) -> go.Figure:
    """Each position's paired difference in win probability, denial minus normal buy, with its 95%
    interval; red where the interval excludes 0."""
    s = study.reset_index(drop=True)
    labels = [f"game {r.seed}, round {r['round']}: {r.player} denies {r.opponent} {r.resource}"
              for _, r in s.iterrows()]
    colors = ["#d62728" if c else "#7f7f7f" for c in s["clear"]]
    fig = go.Figure(go.Scatter(
        x=s["diff"], y=labels, mode="markers", marker={"color": colors, "size": 9}, showlegend=False,
        error_x={"type": "data", "symmetric": False, "array": s["diff_high"] - s["diff"],
                 "arrayminus": s["diff"] - s["diff_low"], "color": "#555"},
        customdata=s[["playouts"]], hovertemplate="%{x:+.0%} (n = %{customdata[0]} paired playouts)"))
    fig.add_vline(x=0, line={"color": "black", "width": 1})
    playouts = int(s["playouts"].max()) if len(s) else 0
    fig.update_layout(title="Denial minus normal buy: change in win probability<br>"
                            f"<sup>{len(s)} positions, {playouts} paired playouts each, "
                            "95% paired intervals</sup>",
                      xaxis={"title": "change in the buyer's win probability (points)", "tickformat": "+.0%",
                             "range": [-1.08, 1.08]}, template="plotly_white",
                      yaxis={"autorange": "reversed", "tickfont": {"size": SMALL}},
                      height=max(360, 160 + 34 * len(s)), margin={"l": 20, "t": 110})
    return projector(fig)


def denial_text(summary: dict[str, Any], study: pd.DataFrame) -> str:
    """The lesson's sentence on the denial study (Markdown), from :func:`denial_summary` and
    :func:`denial_study`: how many positions the denial clearly changed, each way, and the mean change."""
    s, n = summary, summary["positions"]
    if not n:
        return "No position of these games offered a denial."
    m, lo, hi = s["mean_diff"]
    playouts = int(study["playouts"].max())
    return (f"In **{s['clear']} of {n} positions** ({s['clear'] / n:.0%}, 95% interval "
            f"{s['clear_ci'][0]:.0%}–{s['clear_ci'][1]:.0%}) the denial's win probability was clearly "
            f"different from the normal buy's, with {playouts} paired playouts per position: better in "
            f"{s['better']}, worse in {s['worse']}. On average the denial changed the buyer's win "
            f"probability by {m:+.1%} [{lo:+.1%}, {hi:+.1%}] (n = {n} positions). The denial left the "
            f"opponent short of fuel in {int(study['leaves_short'].sum())} of them.")
