"""Lesson 6, the what-if lab: reading a comparison of rule sets with its uncertainty.

:func:`powergrid_nb.compare` already gives the paired differences with 95% intervals
(``Comparison.difference``) and ``SimulationResult.summary`` the win rates with Wilson intervals; this
module only *reads* them: :func:`verdict` turns a difference and its interval into a sentence,
:func:`read_comparison` adds that sentence to ``Comparison.difference``, :func:`by_sample_size`
recomputes the difference over the first *n* games of the same run (how the interval shrinks), and
:func:`games_for_half_width` says how many games a win rate needs for a given precision,
:func:`check_prediction` says whether the games support a prediction, and :func:`payment_figure`
draws income tables.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from powergrid_nb.engine.newgame import new_game
from powergrid_nb.play.comparison import MEASURES, Comparison
from powergrid_nb.play.results import SimulationResult, mean_interval, wilson

from .style import projector

__all__ = ["by_sample_size", "chance_text", "check_prediction", "conclusion_text", "established",
           "games_for_half_width", "longest_text", "means_text", "median_interval", "paired_differences",
           "payment_figure", "read_comparison", "same_length_text", "sample_size_figure", "sample_size_text",
           "verdict"]

UNITS = {"win_rate": "", "rounds": " rounds", "money": " Elektro"}
DIGITS = {"money": 0}
GAME_LEVEL = ("rounds",)  # the same for every player of a game: one row per variant is enough


def verdict(mean: float, low: float, high: float, what: str = "the difference", unit: str = "",
            percent: bool = False, digits: int = 2) -> str:
    """One sentence: the difference with its 95% interval, and whether the interval excludes zero. A
    number too small for ``digits`` decimals is written to its first significant digit (+0.0004, not
    +0.00), so an interval that excludes zero by a hair says so in its numbers too."""
    def f(x: float) -> str:
        if percent:
            return f"{x:+.1%}"
        if x != 0 and round(x, digits) == 0:
            return f"{x:+.{-math.floor(math.log10(abs(x)))}f}"
        return f"{x:+.{digits}f}"
    if math.isnan(low) or math.isnan(high):
        return f"{what}: {f(mean)}{unit}, no interval (fewer than 2 games): we cannot tell."
    head = f"{what}: {f(mean)} [{f(low)}, {f(high)}]{unit}"
    if low > 0:
        return f"{head}: the whole interval is above zero, so it goes up."
    if high < 0:
        return f"{head}: the whole interval is below zero, so it goes down."
    return f"{head}: the interval includes zero, so these games cannot tell."


def check_prediction(predicted: str | None, mean: float, low: float, high: float) -> str:
    """What the games say about a prediction ("up", "down" or "no change"; None: none written yet)."""
    if predicted is None:
        return "no prediction written yet: write it down before you look at the result."
    if predicted not in ("up", "down", "no change"):
        raise ValueError(f"a prediction is 'up', 'down' or 'no change', not {predicted!r}")
    if math.isnan(low) or math.isnan(high):
        return "no interval (fewer than 2 games): play more games."
    sign = "up" if low > 0 else "down" if high < 0 else None
    if sign is None:
        if predicted == "no change":
            return ("consistent with no change, but not a proof of it: the interval still allows effects "
                    f"from {low:+.3g} to {high:+.3g}.")
        return ("these games cannot tell: the interval includes zero. Play more games, or accept that "
                "the effect is small.")
    if sign == predicted:
        return f"the games support the prediction: the whole interval is on the '{sign}' side of zero."
    return f"the games contradict the prediction: the whole interval is on the '{sign}' side of zero."


def payment_figure(variants: Mapping[str, Mapping[str, Any] | None], players: int = 4, up_to: int = 20,
                   title: str = "Income by cities powered") -> go.Figure:
    """The payment table (R110) under each rule set, read from the engine (``Game.income``)."""
    fig = go.Figure()
    for label, rules in variants.items():
        g = new_game(players, seed=1, rules=dict(rules) if rules else None)
        xs = list(range(up_to + 1))
        fig.add_scatter(x=xs, y=[g.income(k) for k in xs], mode="lines+markers", name=label)
    fig.update_layout(title=title, xaxis_title="cities powered", yaxis_title="income",
                      height=460, legend_title="rule set", legend={"orientation": "h", "y": -0.25, "x": 0},
                      margin={"b": 130})
    return projector(fig, unit="Elektro per round")


def established(mean: float, low: float, high: float) -> bool:
    """Whether a difference's 95% interval excludes zero (the games show its sign)."""
    return bool(low > 0 or high < 0)


def _player_means(cmp: Comparison, measure: str) -> pd.DataFrame:
    """Like ``cmp.difference`` for the mean of ``measure`` over each game's players, paired by game."""
    col = MEASURES[measure][0]
    per_game = cmp.games.groupby(["variant", "game"], observed=True)[col].mean().unstack("variant")
    rows = []
    for v in cmp.labels[1:]:
        d = (per_game[v] - per_game[cmp.labels[0]]).dropna()
        m, lo, hi = mean_interval(d.tolist())
        rows.append({"variant": v, "versus": cmp.labels[0], "player": "mean of the players", "pairs": len(d),
                     measure: m, f"{measure}_low": lo, f"{measure}_high": hi})
    return pd.DataFrame(rows)


def _hd_weights(n: int) -> np.ndarray:
    """Harrell-Davis weights of the median for n sorted values: W_i = I(i/n) - I((i-1)/n), I the Beta
    ((n+1)/2, (n+1)/2) distribution function (integrated numerically: no scipy needed)."""
    a = (n + 1) / 2
    x = np.linspace(0.0, 1.0, 20001)[1:-1]
    logpdf = (a - 1) * (np.log(x) + np.log1p(-x))
    pdf = np.exp(logpdf - logpdf.max())
    cdf = np.concatenate([[0.0], np.cumsum((pdf[1:] + pdf[:-1]) / 2)])
    cdf = np.concatenate([[0.0], cdf / cdf[-1], [1.0]])
    grid = np.concatenate([[0.0], x, [1.0]])
    at = np.interp(np.arange(n + 1) / n, grid, cdf)
    return np.diff(at)


def median_interval(values: Sequence[float], level: float = 0.95, resamples: int = 2000,
                    seed: int = 0) -> tuple[float, float, float]:
    """(median, low, high): the Harrell-Davis median (a weighted mean of the sorted values, weights
    centred on the middle one) with a percentile bootstrap interval (``resamples`` resamples of the
    values with replacement, seeded, so a notebook shows the same interval each run). A few extreme
    values move a mean and its t interval; they move a median little. Unlike the middle value itself,
    the Harrell-Davis median of whole numbers (rounds) moves smoothly, so its bootstrap interval does
    not collapse onto one whole number."""
    xs = np.array([float(x) for x in values if not pd.isna(x)])
    if len(xs) == 0:
        return math.nan, math.nan, math.nan
    if len(xs) < 2:
        return float(xs[0]), math.nan, math.nan
    w = _hd_weights(len(xs))
    med = float(np.sort(xs) @ w)
    rng = np.random.default_rng(seed)
    boot = np.sort(rng.choice(xs, size=(resamples, len(xs)), replace=True), axis=1) @ w
    tail = (1 - level) / 2
    return med, float(np.quantile(boot, tail)), float(np.quantile(boot, 1 - tail))


def paired_differences(cmp: Comparison, measure: str, mean_of_players: bool = False) -> pd.DataFrame:
    """One row per variant (not the first), game and player: ``difference`` = the measure in that
    variant minus the first variant's in the same game (same seed), for the same player; with
    ``mean_of_players`` the player is "mean of the players" and the measure is averaged per game first."""
    col = MEASURES[measure][0]
    df = cmp.games.assign(value=cmp.games[col].astype(float))
    if mean_of_players:
        df = df.groupby(["variant", "game"], observed=True)["value"].mean().reset_index()
        df["player"] = "mean of the players"
    base = df[df["variant"] == cmp.labels[0]].set_index(["game", "player"])["value"]
    parts = []
    for v in cmp.labels[1:]:
        other = df[df["variant"] == v].set_index(["game", "player"])["value"]
        d = (other - base).dropna().rename("difference").reset_index()
        parts.append(d.assign(variant=v))
    return pd.concat(parts, ignore_index=True)[["variant", "game", "player", "difference"]]


def _medians(cmp: Comparison, measure: str, mean_of_players: bool) -> pd.DataFrame:
    """Like ``cmp.difference`` for one measure, with the median paired difference and its bootstrap
    interval instead of the mean and its t interval."""
    # game length is the same for every player of a game: one difference per game, not one per player
    diffs = paired_differences(cmp, measure, mean_of_players or measure in GAME_LEVEL)
    rows = []
    for (v, player), grp in diffs.groupby(["variant", "player"], sort=False):
        m, lo, hi = median_interval(grp["difference"].tolist())
        rows.append({"variant": v, "versus": cmp.labels[0], "player": player, "pairs": len(grp),
                     measure: m, f"{measure}_low": lo, f"{measure}_high": hi})
    out = pd.DataFrame(rows)
    order = {p: i for i, p in enumerate(cmp.players)}
    return out.sort_values(["variant", "player"], key=lambda c: c.map(
        {v: i for i, v in enumerate(cmp.labels)} if c.name == "variant" else order).fillna(0), kind="stable")


def read_comparison(cmp: Comparison, measure: str = "rounds", player: str | None = None,
                    mean_of_players: bool = False, statistic: str = "mean") -> pd.DataFrame:
    """``cmp.difference`` for one measure ("win_rate", "rounds", "money") with a ``reading`` sentence per
    row; game length is one row per variant, the others one per player (or only ``player``'s), or with
    ``mean_of_players`` one per variant for the mean over each game's players (paired by game).
    ``statistic="median"``: the median paired difference with a bootstrap interval
    (:func:`median_interval`) instead of the mean with a t interval: robust to a few extreme games."""
    if measure not in MEASURES:
        raise ValueError(f"measure is one of {', '.join(MEASURES)}, not {measure!r}")
    if statistic not in ("mean", "median"):
        raise ValueError(f"statistic is 'mean' or 'median', not {statistic!r}")
    if statistic == "median":
        d = _medians(cmp, measure, mean_of_players)
        if measure in GAME_LEVEL and not mean_of_players:
            d = d.assign(player=player if player is not None else cmp.players[0])
    else:
        d = _player_means(cmp, measure) if mean_of_players else cmp.difference
    if player is not None:
        d = d[d["player"] == player]
    elif measure in GAME_LEVEL:
        d = d.drop_duplicates("variant")
    out = d[["variant", "versus", "player", "pairs", measure, f"{measure}_low", f"{measure}_high"]].copy()
    out = out.rename(columns={measure: "difference", f"{measure}_low": "low", f"{measure}_high": "high"})
    if (measure in GAME_LEVEL and player is None) or mean_of_players:
        out = out.drop(columns="player")
    words = MEASURES[measure][1]
    out["reading"] = [
        verdict(r.difference, r.low, r.high,
                what=("median difference, " if statistic == "median" else "")
                + f"{r.variant} vs {r.versus}, {words}" + (f" of {r.player}" if "player" in out else "")
                + (", mean of the players" if mean_of_players else "")
                + f" (n = {r.pairs} paired games)",
                unit=UNITS[measure], percent=measure == "win_rate", digits=DIGITS.get(measure, 2))
        for r in out.itertuples()]
    return out.reset_index(drop=True)


def _first_games(cmp: Comparison, n: int) -> Comparison:
    """The same comparison over its first ``n`` seeds only (its games, not new ones)."""
    outs = [o for o in cmp.result.outcomes if o.game < n]
    params = [{"variant": x} for x in cmp.labels]  # what compare gives the runner
    sub = SimulationResult(outs, params, cmp.seeds[:n], False, cmp.result.backend)
    return Comparison(sub, cmp.labels, cmp.players)


def by_sample_size(cmp: Comparison, sizes: Sequence[int], measure: str = "rounds",
                   player: str | None = None, statistic: str = "mean") -> pd.DataFrame:
    """The difference from the first variant and its 95% interval over the first *n* games of ``cmp``
    for each *n* in ``sizes`` (at most the games played): how the interval narrows as games are added."""
    frames = []
    for n in sorted({min(int(s), len(cmp.seeds)) for s in sizes}):
        f = read_comparison(_first_games(cmp, n), measure, player, statistic=statistic)
        f = f.drop(columns="reading")
        f.insert(0, "games", n)
        frames.append(f)
    out = pd.concat(frames, ignore_index=True)
    out["width"] = out["high"] - out["low"]
    return out


def sample_size_figure(frame: pd.DataFrame, unit: str = "rounds",
                       title: str = "The interval narrows as games are added") -> go.Figure:
    """:func:`by_sample_size`'s differences against the number of games, with their 95% intervals; the
    title gives the unit and the most games read."""
    fig = go.Figure()
    groups = list(frame.groupby("variant", sort=False, observed=True))
    for i, (variant, grp) in enumerate(groups):
        shift = 1 + 0.04 * (i - (len(groups) - 1) / 2)  # side by side, so the error bars do not overlap
        fig.add_scatter(x=grp["games"] * shift, y=grp["difference"], mode="lines+markers", name=str(variant),
                        customdata=grp["games"],
                        hovertemplate="%{customdata} games: %{y:+.2f}<extra></extra>",
                        error_y={"type": "data", "symmetric": False, "array": grp["high"] - grp["difference"],
                                 "arrayminus": grp["difference"] - grp["low"]})
    fig.add_hline(y=0, line_dash="dot", line_color="grey")
    ticks = sorted(frame["games"].unique())
    fig.update_xaxes(tickvals=ticks, ticktext=[str(t) for t in ticks])
    fig.update_layout(title=title, xaxis_title="games per rule set (paired seeds, log scale)",
                      yaxis_title=f"difference from {frame['versus'].iloc[0]}", xaxis_type="log",
                      height=500, legend_title="rule set", legend={"orientation": "h", "y": -0.25, "x": 0},
                      margin={"b": 140})
    return projector(fig, n=int(frame["games"].max()), unit=unit)


def games_for_half_width(p: float, half_width: float) -> int:
    """The fewest games for which a win rate of ``p`` has a 95% Wilson interval no wider than
    ``half_width`` on either side of ``p``."""
    if not 0 < half_width < 1:
        raise ValueError("half_width is a share between 0 and 1, e.g. 0.05 for 5 points")
    def ok(n: int) -> bool:
        lo, hi = wilson(p * n, n)
        return p - lo <= half_width and hi - p <= half_width
    n = 1
    while not ok(n):
        n *= 2
    lo, hi = n // 2, n
    while lo + 1 < hi:  # the interval shrinks with n: bisect between the last failing and first good n
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


# The lesson's sentences, written from the numbers it has just computed (the notebook shows them as
# Markdown; a result is never typed into the text).

def means_text(by_mean: pd.DataFrame, unit: str = "rounds") -> str:
    """Markdown: the mean paired differences of :func:`read_comparison` (one row per variant), for
    comparison with the medians."""
    return "The means, for comparison: " + "; ".join(
        f"{r.variant}: {r.difference:+.2f} [{r.low:+.2f}, {r.high:+.2f}] {unit}"
        for r in by_mean.itertuples()) + "."


def same_length_text(diffs: pd.DataFrame, base: str = "standard") -> str:
    """Markdown: per variant of ``diffs`` (:func:`paired_differences` of "rounds"), in how many paired games
    the game is shorter, as long and longer than under ``base``; and, where the middle of the sorted
    differences falls among the equal ones and the median (:func:`median_interval`) is about zero, why the
    median and the mean can then differ."""
    lines, middle = [], []
    for v, g in diffs.groupby("variant", sort=False):
        n = len(g)
        less, same = int((g["difference"] < 0).sum()), int((g["difference"] == 0).sum())
        lines.append(f"- **{v}**: shorter in {less}, as long in {same}, longer in {n - less - same} of {n} "
                     "paired games")
        if less < n / 2 <= less + same and abs(median_interval(g["difference"].tolist())[0]) < 0.05:
            middle.append(str(v))
    text = f"Game length against the {base} rules, game by game:\n" + "\n".join(lines)
    if middle:
        text += ("\n\nFor " + " and ".join(middle) + ", the middle of the sorted differences falls among the "
                 "games of equal length, so the median difference is about zero: it answers *does the "
                 "typical game change?* The mean also weighs how much longer the longer games are: it "
                 "answers *how many rounds more, on average?* Both are true; they answer different "
                 "questions.")
    return text


def conclusion_text(found: Mapping[tuple[str, str], Mapping[str, float]],
                    predictions: Mapping[tuple[str, str], str]) -> str:
    """Markdown: each prediction, keyed (variant, measure), against what the games found (a row of
    :func:`read_comparison` with ``difference``, ``low`` and ``high``), read with :func:`check_prediction`."""
    return "\n".join(
        f"- **{v}, {m}** (predicted: {predictions[(v, m)]}): "
        + check_prediction(predictions[(v, m)], r["difference"], r["low"], r["high"])
        for (v, m), r in found.items())


def longest_text(cmp: Comparison, variant: str) -> str:
    """Markdown: the median and the longest game under the first rule set and under ``variant``, with n."""
    length = cmp.games.groupby("variant", observed=True)["rounds"].agg(["median", "max"])
    n = cmp.games.groupby("variant", observed=True)["game"].nunique()
    base = cmp.labels[0]
    std, other = length.loc[base], length.loc[variant]
    return (f"A clue for the replays: the median game lasts {std['median']:g} rounds under the {base} "
            f"rules and {other['median']:g} with the {variant}; the longest lasts {std['max']:g} and "
            f"{other['max']:g} rounds (n = {n[base]} games each).")


def chance_text(wins: pd.DataFrame) -> str:
    """Markdown: how many win-rate differences (:func:`read_comparison` for "win_rate") have an interval
    that includes zero, which exclude it, and how many would by chance alone (one in twenty)."""
    clear = wins[(wins["low"] > 0) | (wins["high"] < 0)]
    n_pairs = int(wins["pairs"].iloc[0])
    parts = [
        f"{len(wins) - len(clear)} of the {len(wins)} win-rate differences have an interval that "
        f"includes zero (n = {n_pairs} paired games each). For those, these games cannot tell whether the "
        "change helps or hurts that player. That is *not* the same as \"no effect\": the interval says how "
        "large an effect "
        "could still hide in it."]
    if len(clear):
        parts.append("Excluding zero: " + ", ".join(f"{r.player} under {r.variant} ({r.difference:+.1%})"
                                                    for r in clear.itertuples())
                     + f". Among {len(wins)} intervals of changes that treat every seat alike, a few like "
                     "this are what chance alone produces (next paragraph).")
    parts.append(f"About one 95% interval in twenty excludes zero by chance alone even when nothing changed: "
                 f"with the {len(wins)} intervals above, about {len(wins) / 20:.1f} would, and here "
                 f"{len(clear)} did.")
    return "\n\n".join(parts)


def sample_size_text(shrink: pd.DataFrame, diffs: pd.DataFrame, variant: str, games: int) -> str:
    """Markdown: how :func:`by_sample_size`'s interval for ``variant`` shrinks against 1/sqrt(n), and
    for every variant where its width grows as games are added, which added game made it grow
    (``diffs``: :func:`paired_differences` of the same measure; ``games``: the games of the run)."""
    parts = []
    w = shrink[shrink["variant"] == variant].set_index("games")["width"]
    pairs = [(n, m) for n in w.index for m in w.index if m >= 4 * n]
    if pairs:
        n, m = max(pairs)
        sure = shrink[(shrink["variant"] == variant) & ((shrink["low"] > 0) | (shrink["high"] < 0))]
        when = (f"its interval excludes zero with {', '.join(map(str, sure['games']))} games and "
                "includes it with the other numbers of games above"
                if len(sure) else f"its interval still includes zero after {games} games")
        parts.append(f"{variant}'s effect on game length is small: {when}.")
        parts.append(
            f"For {variant} the interval is {w[n]:.2f} rounds wide after {n} games and {w[m]:.2f} "
            f"rounds after {m}: {m / n:.0f} times the games give an interval {w[m] / w[n]:.0%} as wide, "
            f"where 1/√{m / n:.0f} = {(n / m) ** 0.5:.0%} is expected. With few games the ratio wobbles, "
            "because the spread of the differences is itself estimated from those few games.")
    lines = []
    for v, grp in shrink.groupby("variant", sort=False, observed=True):
        width = grp.set_index("games")["width"]
        wider = [(a, b) for a, b in zip(width.index, width.index[1:], strict=False) if width[b] > width[a]]
        if not wider:
            lines.append(f"- **{v}**: the interval narrows at every step, from {width.iloc[0]:.2f} to "
                         f"{width.iloc[-1]:.2f} rounds.")
            continue
        d = diffs[diffs["variant"] == v].set_index("game")["difference"]
        steps = []
        for a, b in wider:
            added = d[(d.index >= a) & (d.index < b)]
            far = (added - d[d.index < b].median()).abs().idxmax()
            steps.append(f"from {a} to {b} games ({width[a]:.2f} to {width[b]:.2f} rounds; among the games "
                         f"added, game {far} differs by {d[far]:+.0f} rounds)")
        lines.append(f"- **{v}**: the interval widens " + "; ".join(steps) + ".")
    parts.append(
        "How the width changes as games are added:\n" + "\n".join(lines) + "\n\nThe width of a t "
        "interval is the spread of the differences over √n. In a small sample the spread is estimated from "
        "the games themselves, so a game far from the others raises it more than the larger n lowers the "
        "width; over many games such a game weighs less, and the width falls like 1/√n.")
    return "\n\n".join(parts)
