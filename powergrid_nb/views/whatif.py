"""What-if figures: the outcomes of a comparison (:func:`powergrid_nb.play.comparison.compare`) and the
effect of a swept rule parameter (:func:`powergrid_nb.play.simulation.sweep`), with their intervals."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from powergrid_nb.play.comparison import MEASURES
from powergrid_nb.play.results import mean_interval, wilson

from ._base import base_layout

if TYPE_CHECKING:
    from powergrid_nb.play.comparison import Comparison
    from powergrid_nb.play.results import SimulationResult

# Variants get their own palette (Paul Tol's "bright", colour-blind safe), so they are not read as the
# player colours of the other views; players are named on the axes.
VARIANT_COLORS = ("#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377", "#BBBBBB")
SERIES_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")
SERIES_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "pentagon", "star")
UNITS = {"win_rate": "", "rounds": " rounds", "money": " Elektro"}


def variant_color(i: int) -> str:
    return VARIANT_COLORS[i % len(VARIANT_COLORS)]


def _errors(df: pd.DataFrame, m: str) -> dict:
    """Asymmetric error bars from a frame's ``m``, ``m_low`` and ``m_high`` columns."""
    return dict(type="data", symmetric=False, array=(df[f"{m}_high"] - df[m]).fillna(0).tolist(),
                arrayminus=(df[m] - df[f"{m}_low"]).fillna(0).tolist(), thickness=1.5, width=4)


def _fmt(m: str) -> str:
    return "%{y:.1%}" if m == "win_rate" else "%{y:.2f}" + UNITS[m]


def compare_figure(comparison: Comparison, *, height: int = 720, width: int | None = None) -> go.Figure:
    """Top row: per variant, the win rate per player (95% Wilson intervals), the distribution of game
    length and of each player's money at the end. Bottom row: each later variant minus the first,
    paired by seed, with 95% intervals (a bar whose interval misses 0 is a real difference)."""
    c = comparison
    frame, diff, games = c.frame, c.difference, c.games
    first = c.labels[0]
    fig = make_subplots(rows=2, cols=3, vertical_spacing=0.2, horizontal_spacing=0.08, subplot_titles=(
        "Win rate (95% interval; dashed: fair share)", "Game length (rounds)", "Money at the end (Elektro)",
        "Win rate: difference", "Game length: difference", "Money: difference"))
    lengths = games.drop_duplicates(["variant", "game"])
    for i, label in enumerate(c.labels):
        color = variant_color(i)
        f = frame[frame["variant"] == label]
        fig.add_trace(go.Bar(x=f["player"].tolist(), y=f["win_rate"].tolist(), name=label, legendgroup=label,
                             marker_color=color, error_y=_errors(f, "win_rate"), offsetgroup=str(i),
                             customdata=f[["games", "win_rate_low", "win_rate_high"]].values.tolist(),
                             hovertemplate=f"{label}<br>%{{x}}: %{{y:.1%}} won "
                                           "[%{customdata[1]:.1%}, %{customdata[2]:.1%}] "
                                           "of %{customdata[0]} games<extra></extra>"), row=1, col=1)
        n = lengths[lengths["variant"] == label]["rounds"].tolist()
        fig.add_trace(go.Box(y=n, x=["all games"] * len(n), name=label, legendgroup=label, showlegend=False,
                             marker_color=color, boxmean=True, offsetgroup=str(i),
                             hovertemplate=f"{label}: %{{y}} rounds<extra></extra>"), row=1, col=2)
        g = games[games["variant"] == label]
        fig.add_trace(go.Box(y=g["money"].tolist(), x=g["player"].astype(str).tolist(), name=label,
                             legendgroup=label, showlegend=False, marker_color=color, boxmean=True,
                             offsetgroup=str(i), hovertemplate=f"{label}<br>%{{x}}: %{{y}} Elektro"
                                                               "<extra></extra>"), row=1, col=3)
    for i, label in enumerate(c.labels[1:], 1):
        d = diff[diff["variant"] == label]
        for col, m in enumerate(MEASURES, 1):
            part = d.drop_duplicates("variant") if m == "rounds" else d
            x = ["all games"] * len(part) if m == "rounds" else part["player"].tolist()
            fig.add_trace(go.Bar(
                x=x, y=part[m].tolist(), name=label, legendgroup=label, showlegend=False,
                marker_color=variant_color(i), error_y=_errors(part, m), offsetgroup=str(i),
                customdata=part[["pairs", f"{m}_low", f"{m}_high"]].values.tolist(),
                hovertemplate=f"{label} − {first}<br>%{{x}}: {_fmt(m)} "
                              f"[{_fmt(m).replace('y', 'customdata[1]')}, "
                              f"{_fmt(m).replace('y', 'customdata[2]')}] over %{{customdata[0]}} paired games"
                              "<extra></extra>"), row=2, col=col)
    for col in (1, 2, 3):
        fig.add_hline(y=0, line=dict(color="#555555", width=1), row=2, col=col)
    if c.players:
        fig.add_hline(y=1 / len(c.players), line=dict(color="#555555", width=1, dash="dash"), row=1, col=1)
    for row in (1, 2):
        fig.update_yaxes(tickformat=".0%", row=row, col=1)
    fig.update_yaxes(title_text="won", row=1, col=1)
    fig.update_yaxes(title_text="rounds", row=1, col=2)
    fig.update_yaxes(title_text="Elektro", row=1, col=3)
    fig.update_yaxes(title_text="difference (won)", row=2, col=1)
    fig.update_yaxes(title_text="difference (rounds)", row=2, col=2)
    fig.update_yaxes(title_text="difference (Elektro)", row=2, col=3)
    fig.update_xaxes(title_text="player", row=2, col=1)
    fig.update_xaxes(title_text="player", row=2, col=3)
    per = len(c.seeds)
    title = f"{len(c.labels)} variants, the same {per} seeds each; bottom: each minus “{first}”, paired"
    if c.partial:
        title += f" — PARTIAL: stopped after {len(c.result)} of {per * len(c.labels)} games"
    base_layout(fig, title, height=height, width=width, barmode="group", boxmode="group",
                legend=dict(orientation="h", x=0, y=-0.14, xanchor="left", yanchor="top",
                            title=dict(text="variant ")))
    fig.update_layout(title_font_size=15, margin=dict(l=60, r=20, t=80, b=90))
    return fig


def _series(df: pd.DataFrame, by: str) -> pd.Series:
    """The name of each row's line: a player with their bot, a seat, or a bot."""
    if by == "player":
        return df["player"].astype(str) + " (" + df["bot"].astype(str) + ")"
    if by == "seat":
        return "seat " + (df["seat"] + 1).astype(str)
    return df[by].astype(str)


def sweep_figure(result: SimulationResult, param: str | None = None, *, by: str = "player",
                 height: int = 440, width: int | None = None) -> go.Figure:
    """The effect of the swept ``param`` (default: the one swept): left the win rate of each line
    (``by``: ``"player"``, ``"seat"`` or ``"bot"``) with 95% Wilson intervals, right the mean game
    length with its 95% interval, both against the parameter's value."""
    swept = list(result.param_columns)
    if param is None:
        if len(swept) != 1:
            raise ValueError(f"the result sweeps {swept or 'no parameter'}: name the one to draw, param=...")
        param = swept[0]
    if param not in swept:
        raise ValueError(f"{param!r} was not swept in this result; it sweeps {swept}")
    if by not in ("player", "seat", "bot"):
        raise ValueError(f"by is 'player', 'seat' or 'bot', not {by!r}")
    games = result.games
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12, subplot_titles=(
        "Win rate (95% interval; dashed: fair share)", "Game length (mean rounds, 95% interval)"))
    if not games.empty:
        games = games.assign(_line=_series(games, by))
        numeric = pd.api.types.is_numeric_dtype(games[param])
        lines = games["_line"].nunique()
        values = sorted(games[param].dropna().unique().tolist()) if numeric else []
        gap = min((b - a for a, b in zip(values, values[1:], strict=False)), default=1)
        for k, (line, grp) in enumerate(games.groupby("_line", sort=False)):
            # lines side by side around each value, so their error bars do not hide each other
            dodge = (k - (lines - 1) / 2) * 0.12 * gap / max(1, lines - 1) if numeric else 0
            rows = []
            for value, pt in grp.groupby(param, sort=True):
                share = float(pt["win_share"].sum())
                lo, hi = wilson(share, len(pt))
                rows.append({param: value, "win_rate": share / len(pt), "win_rate_low": lo,
                             "win_rate_high": hi, "n": len(pt)})
            s = pd.DataFrame(rows)
            color, symbol = SERIES_COLORS[k % len(SERIES_COLORS)], SERIES_SYMBOLS[k % len(SERIES_SYMBOLS)]
            fig.add_trace(go.Scatter(
                x=(s[param] + dodge).tolist() if numeric else s[param].tolist(), y=s["win_rate"].tolist(),
                name=str(line), mode="lines+markers",
                line=dict(color=color, width=2), marker=dict(color=color, symbol=symbol, size=9),
                error_y=_errors(s, "win_rate"),
                customdata=s[["n", "win_rate_low", "win_rate_high", param]].astype(object).values.tolist(),
                hovertemplate=f"{line}<br>{param} = %{{customdata[3]}}: %{{y:.1%}} won "
                              "[%{customdata[1]:.1%}, %{customdata[2]:.1%}] of %{customdata[0]} games"
                              "<extra></extra>"), row=1, col=1)
        lengths = games.drop_duplicates(["point", "game"])
        rows = [dict(zip(("rounds", "rounds_low", "rounds_high"), mean_interval(pt["rounds"].tolist()),
                         strict=True)) | {param: value, "n": len(pt)}
                for value, pt in lengths.groupby(param, sort=True)]
        s = pd.DataFrame(rows)
        fig.add_trace(go.Scatter(
            x=s[param].tolist(), y=s["rounds"].tolist(), name="game length", mode="lines+markers",
            showlegend=False, line=dict(color="#333333", width=2), marker=dict(color="#333333", size=8),
            error_y=_errors(s, "rounds"), customdata=s[["n", "rounds_low", "rounds_high"]].values.tolist(),
            hovertemplate=f"{param} = %{{x}}: %{{y:.2f}} rounds [%{{customdata[1]:.2f}}, "
                          "%{customdata[2]:.2f}] over %{customdata[0]} games<extra></extra>"), row=1, col=2)
        players = games.groupby(["point", "game"])["player"].size().iloc[0]
        fig.add_hline(y=1 / players, line=dict(color="#555555", width=1, dash="dash"), row=1, col=1)
        axis = dict(type="linear" if numeric else "category", title_text=param)
        if numeric:
            axis["tickvals"] = values
        fig.update_xaxes(**axis)
    fig.update_yaxes(tickformat=".0%", title_text="won", rangemode="tozero", row=1, col=1)
    fig.update_yaxes(title_text="rounds", row=1, col=2)
    n = len(games.drop_duplicates(["point", "game"])) if not games.empty else 0
    title = f"Sweep of {param}: {n} games, the same seeds at every value"
    if result.stopped:
        title += " — PARTIAL: stopped early"
    base_layout(fig, title, height=height, width=width,
                legend=dict(orientation="h", x=0, y=-0.22, xanchor="left", yanchor="top"))
    fig.update_layout(title_font_size=15, margin=dict(l=60, r=20, t=80, b=100))
    return fig
