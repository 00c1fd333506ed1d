"""The figure of an :class:`~powergrid_nb.play.analysis.Analysis`: each candidate's win probability with its
95% interval, best at the top."""

from __future__ import annotations

from typing import TYPE_CHECKING

import plotly.graph_objects as go

from powergrid_nb.engine.gamelog import possessive

from ._base import FONT

if TYPE_CHECKING:
    from powergrid_nb.play.analysis import Analysis

BEST, OTHER, TIED = "#009E73", "#0072B2", "#56B4E9"  # Okabe-Ito, as the player colours


def analysis_figure(a: Analysis, *, width: int | None = None) -> go.Figure:
    """Horizontal bars: win probability per candidate, error bars = 95% Wilson intervals; the best in
    green, candidates not clearly worse than it (paired interval reaching 0) in light blue."""
    df = a.frame.iloc[::-1]  # Plotly draws the first category at the bottom
    fig = go.Figure()
    if len(df):
        colours = [BEST if i == len(df) - 1 else TIED if hi >= 0 else OTHER
                   for i, hi in enumerate(df["vs_best_high"])]
        text = [f"{p:.0%} [{lo:.0%}-{hi:.0%}]" for p, lo, hi in
                zip(df["win_probability"], df["ci_low"], df["ci_high"], strict=True)]
        custom = list(zip(df["vs_best"], df["mean_rank"], df["mean_powered"], df["mean_money"],
                          strict=True))
        fig.add_bar(
            x=df["win_probability"], y=df["candidate"], orientation="h", marker_color=colours,
            error_x=dict(type="data", symmetric=False, array=df["ci_high"] - df["win_probability"],
                         arrayminus=df["win_probability"] - df["ci_low"], color="#333", thickness=1.5),
            customdata=custom,
            hovertemplate=("<b>%{y}</b><br>wins %{x:.1%}<br>vs the best %{customdata[0]:+.1%}"
                           "<br>mean rank %{customdata[1]:.2f}<br>cities powered %{customdata[2]:.1f}"
                           "<br>money %{customdata[3]:.0f} Elektro<extra></extra>"),
            name="win probability")
        fig.add_scatter(  # the numbers beyond the interval's end, so that no bar or whisker crosses them
            x=df["ci_high"] + 0.01, y=df["candidate"], mode="text", text=text, textposition="middle right",
            cliponaxis=False, hoverinfo="skip", name="")
    partial = "" if not a.partial else (" - stopped once the best was clear" if a.stopped_by == "separation"
                                        else f" - partial (stopped by {a.stopped_by})")
    title = (f"{possessive(a.player)} decision, round {a.round}, {a.phase_name}: "
             f"chance to win<br><sup>{a.playouts} playouts per candidate{partial}; bars: 95% intervals; "
             f"green: best, light blue: not clearly worse</sup>")
    top = max([0.0, *a.frame["ci_high"]]) if len(df) else 1.0
    upper = max(0.3, top + 0.24)  # room for the numbers right of the longest interval
    step = 0.2 if upper > 0.6 else 0.1
    ticks = [round(i * step, 1) for i in range(int(min(1.0, upper) / step + 1e-9) + 1)]
    fig.update_layout(
        title=dict(text=title, x=0, xanchor="left"), font=FONT, template="plotly_white",
        height=140 + 44 * max(1, len(df)), width=width, margin=dict(l=10, r=20, t=80, b=50),
        showlegend=False, bargap=0.35,
        xaxis=dict(title="chance to win (share of playouts won)", tickformat=".0%", tickvals=ticks,
                   range=[0, upper], zeroline=True),
        yaxis=dict(automargin=True, ticksuffix="  "))
    return fig
