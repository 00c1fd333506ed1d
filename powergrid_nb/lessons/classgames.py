"""Lessons 0 and 7, a class that plays: the games a class played in rooms, read beside bot games.

A class's games come as the save files the rooms export (``powergrid-nb room export``, the teacher
view's **Export**, ``RoomStore.export``): one file per table, read with :func:`load_class`. Bot games
on the same set-up (:func:`bot_games`: the table's players, map, regions, edition and options, a fresh
deck per game) show what the package's bots do with the same start. The tidy frames
(:func:`plant_prices`, :func:`fuel_purchases`, :func:`leaders`, :func:`income_per_round`) read each
game's typed history through :mod:`powergrid_nb.position.timeline` and :attr:`Game.history`; every
row names its ``group`` ("class" or "bots"), its ``table`` (the class table whose set-up it is) and
its ``game``. Comparisons take the **game** as the unit (a table's purchases are not independent of
one another): :func:`per_game`, :func:`difference` (a bootstrap interval of class minus bots).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from powergrid_nb.bots import make_bot, play
from powergrid_nb.engine.events import TokensBought
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import load, new_game
from powergrid_nb.engine.rules.plants import RESOURCES
from powergrid_nb.play.results import mean_interval
from powergrid_nb.position.timeline import auctions_frame, rounds_frame

__all__ = ["CLASS", "BOTS", "FUEL_COLORS", "bot_games", "difference", "fuel_figure", "fuel_mix",
           "fuel_purchases", "income_figure", "income_per_round", "last_leaders", "lead_changes",
           "leader_table", "leaders", "load_class", "per_game", "per_round", "plant_prices", "prices_figure",
           "same_setup", "sentence", "tables_frame"]

CLASS, BOTS = "class", "bots"  # the two groups of every frame
FUEL_COLORS = {"coal": "#7f4f24", "oil": "#111111", "garbage": "#e9c46a", "uranium": "#d62828"}
_COLORS = {CLASS: "#d62728", BOTS: "#6c7a89"}
Games = Mapping[str, Game]  # a class: table name -> its game
BotGames = Mapping[str, Sequence[Game]]  # table name -> bot games on its set-up


def load_class(path: str | Path) -> dict[str, Game]:
    """The class's games: every exported save file (``*.json``) of the folder ``path`` by name, or the
    one file ``path``; the table's name is the file's name without ``.json``."""
    p = Path(path)
    files = sorted(p.glob("*.json")) if p.is_dir() else [p]
    if not files:
        raise FileNotFoundError(f"no exported games (*.json) in {p}: export the class's rooms there "
                                "(`powergrid-nb room export ROOM FILE.json`, or Export in the teacher's "
                                "view)")
    return {f.stem: load(str(f)) for f in files}


def same_setup(g: Game, seed: int) -> Game:
    """A new game on the set-up of ``g`` (its players, map, regions, edition and options) with the
    deck and order that ``seed`` deals."""
    cfg = g.to_dict()["config"]
    return new_game(cfg["players"], map=cfg["map"], edition=cfg["edition"], regions=cfg["regions"],
                    seed=seed, **cfg["options"])


def bot_games(tables: Games, games: int, bots: str = "heuristic", seed: int = 0) -> dict[str, list[Game]]:
    """``games`` bot games on the set-up of each table (seeds ``seed``, ``seed`` + 1, ...): every seat
    played by ``bots``, to the end when the class's game ended, else up to the round the class reached
    (nothing later is compared)."""
    out: dict[str, list[Game]] = {}
    for name, g in tables.items():
        last, over = g.round, g.is_over
        played = []
        for i in range(games):
            b = same_setup(g, seed + i)
            seats = [make_bot(bots, seed=(seed + i) * 100 + k) for k in range(len(b.players))]
            play(b, seats, until=None if over else (lambda h, last=last: h.round > last))
            played.append(b)
        out[name] = played
    return out


def _each(tables: Games, bots: BotGames | None) -> Iterator[tuple[str, str, str, Game]]:
    """(group, table, game label, game) for the class's games, then the bots'."""
    for name, g in tables.items():
        yield CLASS, name, name, g
    for name, games in (bots or {}).items():
        for i, g in enumerate(games, 1):
            yield BOTS, name, f"{name} / bot game {i}", g


def _label(df: pd.DataFrame, group: str, table: str, game: str) -> pd.DataFrame:
    df.insert(0, "game", game)
    df.insert(0, "table", table)
    df.insert(0, "group", group)
    return df


def _concat(frames: list[pd.DataFrame], empty: pd.DataFrame) -> pd.DataFrame:
    return pd.concat(frames, ignore_index=True) if frames else empty


def tables_frame(tables: Games) -> pd.DataFrame:
    """One row per table: its players, map, edition, the rounds reached, whether the game ended, and
    its winners (R99-R103; empty while the game runs)."""
    rows = [{"table": name, "players": len(g.players), "names": ", ".join(g.players), "map": g.map.name,
             "edition": g.edition, "round": g.round, "over": g.is_over,
             "winners": ", ".join(g.winners) if g.is_over else ""} for name, g in tables.items()]
    return pd.DataFrame(rows, columns=["table", "players", "names", "map", "edition", "round", "over",
                                       "winners"])


def plant_prices(tables: Games, bots: BotGames | None = None) -> pd.DataFrame:
    """One row per plant a player bought at auction: ``round``, ``step``, ``player``, ``plant`` (its
    number, the ordinary minimum bid, R28), ``price`` and ``premium`` (price − number, Elektro), and
    ``discounted`` (bought below its number: the Recharged discount, R40). The Trust's takes are left
    out."""
    frames = []
    for group, table, game, g in _each(tables, bots):
        a = auctions_frame(g)
        a = a[~a["trust"]][["round", "step", "player", "plant", "price", "premium", "discounted"]]
        frames.append(_label(a.reset_index(drop=True), group, table, game))
    empty = _label(auctions_frame(new_game(3, seed=0))[["round", "step", "player", "plant", "price",
                                                        "premium", "discounted"]], CLASS, "", "")
    return _concat(frames, empty)


def fuel_purchases(tables: Games, bots: BotGames | None = None) -> pd.DataFrame:
    """One row per purchase of resource tokens (R50): ``round``, ``player``, the tokens of each
    resource, ``tokens`` (all of them), ``cost`` (Elektro) and ``per_token`` (cost / tokens: one
    purchase can mix resources, so this is its average price)."""
    rows = []
    for group, table, game, g in _each(tables, bots):
        for e in g.history:
            if isinstance(e, TokensBought) and sum(e.tokens):
                rows.append({"group": group, "table": table, "game": game, "round": e.round,
                             "player": e.player, **dict(zip(RESOURCES, e.tokens, strict=True)),
                             "tokens": sum(e.tokens), "cost": e.cost, "per_token": e.cost / sum(e.tokens)})
    columns = ["group", "table", "game", "round", "player", *RESOURCES, "tokens", "cost", "per_token"]
    return pd.DataFrame(rows, columns=columns)


def fuel_mix(fuel: pd.DataFrame) -> pd.DataFrame:
    """Tokens bought of each resource by group: ``tokens``, ``share`` of the group's tokens, ``games``."""
    rows = []
    for group, part in fuel.groupby("group", sort=False):
        total = int(part["tokens"].sum())
        for r in RESOURCES:
            n = int(part[r].sum())
            rows.append({"group": group, "resource": r, "tokens": n, "share": n / total if total else
                         float("nan"), "games": part["game"].nunique()})
    return pd.DataFrame(rows, columns=["group", "resource", "tokens", "share", "games"])


def leaders(tables: Games, bots: BotGames | None = None) -> pd.DataFrame:
    """One row per round of each game: ``leader``, first in that round's player order (most cities,
    ties the highest plant, R18-R19; in round 1 the order after the auction, R21), and
    ``changed``: the leader is not the previous round's (False in the first round)."""
    frames = []
    for group, table, game, g in _each(tables, bots):
        r = rounds_frame(g)
        first = r[r["place"] == 1][["round", "player"]].rename(columns={"player": "leader"})
        first = first.sort_values("round").reset_index(drop=True)
        first["changed"] = first["leader"].ne(first["leader"].shift()) & first.index.to_series().gt(0)
        frames.append(_label(first, group, table, game))
    return _concat(frames, pd.DataFrame(columns=["group", "table", "game", "round", "leader", "changed"]))


def leader_table(lead: pd.DataFrame) -> pd.DataFrame:
    """Who led each round, one row per class table and one column per round (the class's games)."""
    c = lead[lead["group"] == CLASS]
    return c.pivot(index="table", columns="round", values="leader").rename_axis(columns="round")


def lead_changes(lead: pd.DataFrame) -> pd.DataFrame:
    """Per game: ``rounds`` with a leader, ``changes`` (rounds whose leader was not the previous
    round's) and ``per_round``: changes / (rounds − 1), the chance that a new round has a new leader
    (NaN for a game of one round), comparable between games of different lengths."""
    g = lead.groupby(["group", "table", "game"], sort=False)
    out = g.agg(rounds=("round", "size"), changes=("changed", "sum")).reset_index()
    out["changes"] = out["changes"].astype(int)
    out["per_round"] = (out["changes"] / (out["rounds"] - 1)).where(out["rounds"] > 1)
    return out


def last_leaders(tables: Games, bots: BotGames | None = None) -> pd.DataFrame:
    """One row per finished game: ``leader`` of its last round (:func:`leaders`) and ``won``: that
    player is among the winners (R99-R103). Games still being played have no row."""
    lead = leaders(tables, bots)
    rows = []
    for group, table, game, g in _each(tables, bots):
        mine = lead[lead["game"] == game]
        if g.is_over and len(mine):
            leader = str(mine.sort_values("round")["leader"].iloc[-1])
            rows.append({"group": group, "table": table, "game": game, "leader": leader,
                         "won": leader in g.winners})
    return pd.DataFrame(rows, columns=["group", "table", "game", "leader", "won"])


def income_per_round(tables: Games, bots: BotGames | None = None) -> pd.DataFrame:
    """One row per player and finished bureaucracy (R72, R110): ``round``, ``player``, ``powered``
    (cities), ``income`` (Elektro that round), ``money`` and ``cities`` at the round's end. Rounds
    without an income (the round being played, the last round of a finished game, R98) are left out,
    and so is the Trust."""
    frames = []
    for group, table, game, g in _each(tables, bots):
        r = rounds_frame(g)
        r = r[~r["is_trust"] & r["income"].notna()][["round", "player", "powered", "income", "money",
                                                       "cities"]]
        frames.append(_label(r.reset_index(drop=True), group, table, game))
    return _concat(frames, pd.DataFrame(columns=["group", "table", "game", "round", "player", "powered",
                                                 "income", "money", "cities"]))


def per_game(frame: pd.DataFrame, value: str) -> pd.DataFrame:
    """Each group's mean of ``value`` over its games (each game's own mean first: a game is the unit),
    with the Student-t 95% interval across games: ``mean``, ``low``, ``high``, ``games``, ``rows``."""
    rows = []
    for group, part in frame.groupby("group", sort=False):
        by_game = part.groupby("game")[value].mean().dropna()
        m, lo, hi = mean_interval(by_game.tolist())
        rows.append({"group": group, "mean": m, "low": lo, "high": hi, "games": len(by_game),
                     "rows": int(part[value].notna().sum())})
    return pd.DataFrame(rows, columns=["group", "mean", "low", "high", "games", "rows"])


def per_round(frame: pd.DataFrame, value: str) -> pd.DataFrame:
    """:func:`per_game` for each round: one row per (group, round)."""
    parts = [per_game(part, value).assign(round=r) for r, part in frame.groupby("round")]
    return _concat(parts, pd.DataFrame(columns=["group", "mean", "low", "high", "games", "rows", "round"]))


def difference(frame: pd.DataFrame, value: str, resamples: int = 2000,
               seed: int = 0) -> tuple[float, float, float]:
    """Class minus bots in the mean over games of ``value`` (each game's mean first), with a 95%
    percentile bootstrap interval (games resampled within each group); NaNs without games on a side,
    and NaN bounds with fewer than two games on a side (one game says nothing of the spread)."""
    means = {grp: part.groupby("game")[value].mean().dropna().tolist()
             for grp, part in frame.groupby("group", sort=False)}
    a, b = means.get(CLASS, []), means.get(BOTS, [])
    if not a or not b:
        return float("nan"), float("nan"), float("nan")
    if len(a) < 2 or len(b) < 2:
        return sum(a) / len(a) - sum(b) / len(b), float("nan"), float("nan")
    rng = random.Random(seed)
    diffs = sorted(sum(rng.choices(a, k=len(a))) / len(a) - sum(rng.choices(b, k=len(b))) / len(b)
                   for _ in range(resamples))
    return (sum(a) / len(a) - sum(b) / len(b), diffs[int(0.025 * resamples)],
            diffs[int(0.975 * resamples) - 1])


def sentence(frame: pd.DataFrame, value: str, what: str, unit: str,
             more: str = "the class's games are higher than the bots'",
             less: str = "the class's games are lower than the bots'", digits: int = 1) -> str:
    """A sentence comparing the class with the bots on ``value`` (e.g. ``what`` = "premium paid over a
    plant's number", ``unit`` = "Elektro"): each mean with its interval and its number of games, the
    difference with its bootstrap interval, and what that allows us to say (``more`` or ``less`` when
    the interval leaves out 0); numbers with ``digits`` decimals."""
    s = per_game(frame, value).set_index("group")
    if CLASS not in s.index or BOTS not in s.index:
        return f"No comparison of {what}: one side has no games with it."
    c, b = s.loc[CLASS], s.loc[BOTS]
    d, lo, hi = difference(frame, value)
    units = f" {unit}" if unit else ""

    def part(r: pd.Series) -> str:
        span = "" if pd.isna(r["low"]) else f" [{r['low']:.{digits}f}, {r['high']:.{digits}f}]"
        return (f"{r['mean']:.{digits}f}{units}{span} over {int(r['games'])} "
                f"game{'s' if r['games'] != 1 else ''}")

    if pd.isna(lo):
        return (f"Mean {what}: class {part(c)}, bots {part(b)}. Class minus bots: {d:+.{digits}f}{units}, "
                "with no interval: each side needs two games or more before these games can tell anything.")
    if lo > 0 or hi < 0:
        verdict = more if d > 0 else less
    else:
        verdict = "these games cannot tell the class from the bots (the interval holds 0)"
    return (f"Mean {what}: class {part(c)}, bots {part(b)} (95% intervals across games). Class minus "
            f"bots: {d:+.{digits}f}{units} [{lo:+.{digits}f}, {hi:+.{digits}f}] (bootstrap over games): "
            f"{verdict}.")


def _layout(fig: go.Figure, title: str, **kw: Any) -> go.Figure:
    fig.update_layout(title=title, template="plotly_white", font={"size": 15}, height=460,
                      legend={"orientation": "h", "y": -0.2}, margin={"t": 80, "b": 100}, **kw)
    return fig


def prices_figure(prices: pd.DataFrame) -> go.Figure:
    """Price paid against the plant's number, one point per purchase (class in colour, bots in grey,
    a little jitter so equal points show), with the minimum bid (price = number, R28) as a line."""
    fig = go.Figure()
    top = int(prices["plant"].max()) if len(prices) else 50
    fig.add_scatter(x=[0, top + 2], y=[0, top + 2], mode="lines", name="price = plant number (R28)",
                    line={"dash": "dash", "color": "black"})
    counts = []
    for group in (BOTS, CLASS):
        part = prices[prices["group"] == group]
        jitter = (part.index.to_series() * 7 % 9 - 4) / 12
        fig.add_scatter(x=part["plant"] + jitter, y=part["price"], mode="markers",
                        name=f"{group} ({len(part)} purchases, {part['game'].nunique()} games)",
                        marker={"color": _COLORS[group], "size": 9 if group == CLASS else 6,
                                "opacity": 0.9 if group == CLASS else 0.35},
                        customdata=part[["player", "round"]].astype(str).to_numpy(),
                        hovertemplate="plant %{x:.0f}: %{y} Elektro, %{customdata[0]}, round "
                                      "%{customdata[1]}<extra></extra>")
        counts.append(f"{group} n = {len(part)}")
    # a few bot bids far above the rest would flatten every other point: the axis stops above the class's
    # dearest plant and the bots' 99th percentile, and says how many points lie above it
    ceiling = float(max(prices[prices["group"] == CLASS]["price"].max() if (prices["group"] == CLASS).any()
                        else 0, prices["price"].quantile(0.99) if len(prices) else 0, top)) * 1.1
    above = int((prices["price"] > ceiling).sum())
    if above:
        fig.add_annotation(text=f"{above} purchase{'s' if above != 1 else ''} above {ceiling:.0f} Elektro "
                                "not shown", xref="paper", yref="paper", x=0.01, y=0.99, showarrow=False,
                           font={"size": 13}, xanchor="left")
    return _layout(fig, f"Price paid for a plant against its number (Elektro; {', '.join(counts)})",
                   xaxis_title="plant number = minimum bid (Elektro)", yaxis_title="price paid (Elektro)",
                   yaxis_range=[0, ceiling])


def fuel_figure(fuel: pd.DataFrame, min_games: int = 3) -> go.Figure:
    """Left: the share of each resource in the tokens each group bought (n tokens in the legend).
    Right: the average price per token paid, per group and round, with 95% intervals across games, in
    the rounds that at least ``min_games`` of the group's games reached (a round few games reach has
    no useful interval, and those games are not a sample of the others)."""
    mix = fuel_mix(fuel)
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.14, subplot_titles=(
        "Which fuel: share of tokens bought",
        f"Price per token paid (Elektro), by round<br>(rounds {min_games} or more games reached)"))
    for r in RESOURCES:
        part = mix[mix["resource"] == r]
        fig.add_bar(x=[f"{g} ({int(mix[mix['group'] == g]['tokens'].sum())} tokens)" for g in part["group"]],
                    y=part["share"], name=r, marker_color=FUEL_COLORS[r], legendgroup=r,
                    hovertemplate=r + ": %{y:.0%} of the tokens<extra></extra>", row=1, col=1)
    pr = per_round(fuel, "per_token")
    pr = pr[pr["games"] >= min_games]
    for group in (BOTS, CLASS):
        p = pr[pr["group"] == group]
        fig.add_scatter(x=p["round"], y=p["mean"], mode="lines+markers", name=f"{group}: mean per token",
                        line={"color": _COLORS[group]}, customdata=p["games"],
                        error_y={"type": "data", "symmetric": False,
                                 "array": (p["high"] - p["mean"]).fillna(0),
                                 "arrayminus": (p["mean"] - p["low"]).fillna(0)},
                        hovertemplate="round %{x}: %{y:.1f} Elektro per token, %{customdata} games"
                                      "<extra></extra>", row=1, col=2)
    fig.update_layout(barmode="stack")
    fig.update_yaxes(tickformat=".0%", title_text="share of tokens", row=1, col=1)
    fig.update_yaxes(title_text="Elektro per token", row=1, col=2)
    fig.update_xaxes(title_text="round", dtick=1, row=1, col=2)
    games = {g: fuel[fuel["group"] == g]["game"].nunique() for g in (CLASS, BOTS)}
    return _layout(fig, f"Fuel bought (class: {games[CLASS]} games, bots: {games[BOTS]} games; 95% "
                        "intervals across games)")


def income_figure(income: pd.DataFrame, min_games: int = 3) -> go.Figure:
    """Income per player and round (Elektro): each class player as a thin line, and each group's mean
    per round with its 95% interval across games as a band, in the rounds that at least
    ``min_games`` of the group's games reached."""
    fig = go.Figure()
    players = income[income["group"] == CLASS].groupby(["table", "player"])
    for k, ((table, player), part) in enumerate(players):
        fig.add_scatter(x=part["round"], y=part["income"], mode="lines",
                        line={"width": 1, "color": "#f4a6a6"},
                        name="one class player", legendgroup="players", showlegend=k == 0,
                        hovertemplate=f"{player} ({table}): " + "%{y} Elektro in round %{x}<extra></extra>")
    pr = per_round(income, "income")
    pr = pr[pr["games"] >= min_games]
    for group in (BOTS, CLASS):
        p = pr[pr["group"] == group].dropna(subset=["low"])
        color = _COLORS[group]
        fig.add_scatter(x=list(p["round"]) + list(p["round"])[::-1], y=list(p["high"]) + list(p["low"])[::-1],
                        fill="toself", line={"width": 0}, fillcolor=color, opacity=0.2, hoverinfo="skip",
                        name=f"{group}: 95% interval", legendgroup=group)
        q = pr[pr["group"] == group]
        fig.add_scatter(x=q["round"], y=q["mean"], mode="lines+markers", line={"color": color, "width": 3},
                        name=f"{group}: mean per player", legendgroup=group, customdata=q["games"],
                        hovertemplate="round %{x}: %{y:.1f} Elektro, %{customdata} games<extra></extra>")
    n = {g: income[income["group"] == g]["game"].nunique() for g in (CLASS, BOTS)}
    return _layout(fig, f"Income per player and round (Elektro; class: {players.ngroups} players in "
                        f"{n[CLASS]} games, bots: {n[BOTS]} games;<br>means in the rounds {min_games} or "
                        "more games reached)", xaxis={"title": "round", "dtick": 1},
                   yaxis={"title": "income (Elektro per round)", "rangemode": "tozero"})

