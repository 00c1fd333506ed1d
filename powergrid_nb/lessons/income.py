"""Lesson 5, income and the endgame: the concave payment table, money against cities, who ends the game
and how often a tie-break decides it.

The tables come from the engine (``g.income``, ``g.rules.payment``, R110; ``g.rules.end_cities``, R96);
the measurements read ``simulate`` frames (``games``: one row per game and player).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from powergrid_nb.engine import editions as _editions
from powergrid_nb.engine.editions import get_edition
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.play.results import mean_interval, wilson

from .style import projector

__all__ = ["EDITIONS", "HOW", "decided_by", "end_cities_table", "income_figure", "income_table",
           "marginal_now", "marginal_text", "money_text", "money_vs_cities", "money_vs_cities_figure",
           "position_text", "tie_summary", "tie_text", "trigger_conclusion", "trigger_figure",
           "trigger_summary",
           "trigger_text", "triggers"]

EDITIONS = tuple(_editions.EDITIONS)  # every edition, as the engine's registry lists them
HOW = ("most cities powered (R100)", "money left (R101)", "cities in network (R102)", "shared victory")


def income_table(editions: Sequence[str] = EDITIONS, most: int = 22) -> pd.DataFrame:
    """Income for 0..``most`` cities powered (R110, O14: 150 from 20 on), per edition, and the marginal
    income of the last city (``marginal`` = income(k) - income(k - 1); NaN for k = 0)."""
    rows = []
    for ed in editions:
        g = new_game(3, edition=ed, seed=0)
        for k in range(most + 1):
            rows.append({"edition": ed, "powered": k, "income": g.income(k),
                         "marginal": g.income(k) - g.income(k - 1) if k else float("nan")})
    return pd.DataFrame(rows)


def income_figure(table: pd.DataFrame) -> go.Figure:
    """Income (left) against cities powered; right: the marginal income of the k-th city and the average
    income per city, I(k)/k, of the first edition in the table (the editions' tables are the same)."""
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12, subplot_titles=(
        "Income I(k) for k cities", "Marginal I(k) - I(k-1) and average I(k)/k"))
    styles = dict(zip(EDITIONS, ({"color": "#1f77b4", "width": 4}, {"color": "#ff7f0e", "dash": "dot"}),
                      strict=False))  # by the registry's order
    for ed, t in table.groupby("edition", sort=False):
        line = styles.get(str(ed), {})
        fig.add_scatter(x=t["powered"], y=t["income"], mode="lines+markers", name=str(ed), line=line,
                        legendgroup=str(ed), row=1, col=1)
        fig.add_scatter(x=t["powered"], y=t["marginal"], mode="lines+markers", name=str(ed), line=line,
                        legendgroup=str(ed), showlegend=False, row=1, col=2)
    first = table[(table["edition"] == table["edition"].iloc[0]) & (table["powered"] > 0)]
    fig.add_scatter(x=first["powered"], y=first["income"] / first["powered"], mode="lines",
                    name="average per city", line={"color": "#2ca02c", "width": 3, "dash": "dash"},
                    row=1, col=2)
    fig.update_xaxes(title_text="cities powered", dtick=4)
    fig.update_yaxes(title_text="income", row=1, col=1)
    fig.update_yaxes(title_text="per city", row=1, col=2)
    fig.update_layout(title="The payment table, R110", height=500, template="plotly_white",
                      legend={"title": "edition", "orientation": "h", "y": -0.25, "x": 0}, margin={"b": 130})
    return projector(fig, unit="Elektro per round")


def end_cities_table(editions: Sequence[str] = EDITIONS) -> pd.DataFrame:
    """Cities that end the game (R96), by player count (rows) and edition (columns)."""
    rules = {ed: new_game(3, edition=ed, seed=0).rules for ed in editions}
    counts = range(_editions.MIN_PLAYERS, _editions.MAX_PLAYERS + 1)
    return pd.DataFrame({ed: [rules[ed].end_cities(n) for n in counts] for ed in editions},
                        index=pd.Index(counts, name="players"))


def _tiebreaks(edition: str) -> tuple[str, ...]:
    return get_edition(edition).tiebreaks


def decided_by(edition: str, standings: Mapping[str, tuple[int, int, int]]) -> tuple[list[str], str]:
    """The winners and what decided it, from each player's (cities powered, money, cities in network)
    at the end: most powered (R100), then the edition's tie-breaks in its order
    (``g.rules.tiebreaks``: money, R101; in the original also the network, R102); players still level
    share the victory."""
    keys = [0, *(1 if k == "money" else 2 for k in _tiebreaks(edition))]
    left = list(standings)
    for k in keys:
        best = max(standings[p][k] for p in left)
        left = [p for p in left if standings[p][k] == best]
        if len(left) == 1:
            return left, HOW[k]
    return left, HOW[3]


def tie_summary(games: pd.DataFrame, edition: str) -> pd.DataFrame:
    """How the winner was decided in each simulated game (``games`` of one edition), counted: one row
    per way (:data:`HOW`; R102 only in the original) with ``games``, ``share`` and its Wilson
    interval; ``n`` = games."""
    how = []
    for _, grp in games.groupby("game"):
        table = {r.player: (int(r.score), int(r.money), int(r.cities)) for r in grp.itertuples()}
        how.append(decided_by(edition, table)[1])
    n = len(how)
    rows = []
    for way in HOW:
        if way == HOW[2] and "network" not in _tiebreaks(edition):
            continue  # Recharged has no second tie-break
        k = how.count(way)
        lo, hi = wilson(k, n)
        rows.append({"edition": edition, "decided by": way, "games": k, "share": k / n if n else float("nan"),
                     "ci_low": lo, "ci_high": hi, "n": n})
    return pd.DataFrame(rows)


def triggers(games: pd.DataFrame, end_cities: int) -> pd.DataFrame:
    """``games`` with a column ``triggered``: the player had at least ``end_cities`` cities at the end,
    so they ended the game (R96; several players can end it in the same round)."""
    return games.assign(triggered=games["cities"] >= end_cities)


def trigger_summary(games: pd.DataFrame, end_cities: int) -> dict[str, Any]:
    """Who ends the game and whether it pays: the win rate of the players who ended it and of the
    others (shared wins count 1/k, Wilson intervals), the share of games a trigger won, the mean
    number of rounds with its interval, and the sample sizes."""
    t = triggers(games, end_cities)
    out: dict[str, Any] = {"games": int(t["game"].nunique())}
    for label, part in (("triggers", t[t["triggered"]]), ("others", t[~t["triggered"]])):
        n, wins = len(part), float(part["win_share"].sum())
        out[label] = {"n": n, "win_rate": wins / n if n else float("nan"), "ci": wilson(wins, n)}
    won = t[t["winner"]].groupby("game")["triggered"].any()
    out["games_won_by_a_trigger"] = {"k": int(won.sum()), "n": len(won), "share": float(won.mean()),
                                     "ci": wilson(int(won.sum()), len(won))}
    out["rounds"] = mean_interval(t.groupby("game")["rounds"].first().tolist())
    out["fair_share"] = float(1 / t.groupby("game").size().mean())
    return out


def money_vs_cities(games: pd.DataFrame) -> pd.DataFrame:
    """Money and cities at the end, winners against the others: means with 95% intervals and n."""
    rows = []
    for label, part in (("winners", games[games["winner"]]), ("others", games[~games["winner"]])):
        row: dict[str, Any] = {"group": label, "n": len(part)}
        for col in ("money", "score", "cities"):
            m, lo, hi = mean_interval(part[col].tolist())
            row.update({col: m, f"{col}_low": lo, f"{col}_high": hi})
        rows.append(row)
    return pd.DataFrame(rows)


def money_vs_cities_figure(games: pd.DataFrame, label: str = "") -> go.Figure:
    """Final money against cities powered, one point per player and game (a little jitter so equal
    points show), winners and the others in two colours, with each group's mean and 95% intervals;
    ``label`` (e.g. the edition) goes into the title."""
    fig = go.Figure()
    jitter = ((games["game"] * 7 + games["seat"] * 3) % 9 - 4) / 20
    summary = money_vs_cities(games)
    groups = (("others", ~games["winner"], "#9aa5b1"), ("winners", games["winner"], "#d62728"))
    opacity = 0.55 if len(games) <= 1000 else 0.3
    for group, mask, color in groups:
        part = games[mask]
        fig.add_scatter(x=part["score"] + jitter[mask], y=part["money"], mode="markers", name=group,
                        marker={"color": color, "size": 6, "opacity": opacity}, legendgroup=group,
                        hovertemplate="%{y} Elektro, %{x:.0f} cities powered")
    for group, _, color in groups:  # the means last, so no point hides them
        s = summary[summary["group"] == group].iloc[0]
        fig.add_scatter(x=[s["score"]], y=[s["money"]], mode="markers", name=f"{group}: mean (n = {s['n']})",
                        marker={"color": color, "size": 17, "symbol": "diamond",
                                "line": {"width": 2, "color": "black"}},
                        error_x={"type": "data", "symmetric": False, "array": [s["score_high"] - s["score"]],
                                 "arrayminus": [s["score"] - s["score_low"]], "color": "black"},
                        error_y={"type": "data", "symmetric": False, "array": [s["money_high"] - s["money"]],
                                 "arrayminus": [s["money"] - s["money_low"]], "color": "black"})
    fig.update_layout(title="Money left against cities powered at the end" + (f", {label}" if label else ""),
                      xaxis_title="cities powered at the end", yaxis_title="money left (Elektro)",
                      height=540, template="plotly_white", legend={"orientation": "h", "y": -0.22, "x": 0},
                      margin={"b": 150})
    return projector(fig, n=int(games["game"].nunique()))


def marginal_now(g: Game) -> pd.DataFrame:
    """Per player of ``g``: cities owned, the most cities their plants and stored fuel can power now
    (``g.scores()``, R73, R99: capped by the cities owned), the income that earns and what one more
    powered city would add (R110)."""
    score = g.scores()
    return pd.DataFrame([{"player": p, "cities": g.city_count(p), "can power": k, "income": g.income(k),
                          "one more city adds": g.income(k + 1) - g.income(k)}
                         for p, k in ((p, score[p]) for p in g.players)])


def trigger_figure(summaries: Mapping[str, Mapping[str, Any]]) -> go.Figure:
    """Win rate of the players who ended the game and of the others, per edition, with Wilson
    intervals and the fair share (1 / players) as a line; ``summaries``: edition -> trigger_summary."""
    fig = go.Figure()
    for label, color in (("triggers", "#d62728"), ("others", "#9aa5b1")):
        xs = list(summaries)
        ys = [summaries[e][label]["win_rate"] for e in xs]
        lo = [summaries[e][label]["ci"][0] for e in xs]
        hi = [summaries[e][label]["ci"][1] for e in xs]
        ns = [summaries[e][label]["n"] for e in xs]
        up = [h - y for h, y in zip(hi, ys, strict=True)]
        down = [y - low for y, low in zip(ys, lo, strict=True)]
        fig.add_bar(x=xs, y=ys, name="ended the game" if label == "triggers" else "did not",
                    marker_color=color, customdata=ns, hovertemplate="%{y:.0%} of %{customdata} player-games",
                    error_y={"type": "data", "symmetric": False, "array": up, "arrayminus": down})
    fair = next(iter(summaries.values()))["fair_share"]
    fig.add_hline(y=fair, line={"dash": "dash", "color": "black"}, annotation_text=f"fair share {fair:.0%}",
                  annotation_position="top right")
    games = {int(s["games"]) for s in summaries.values()}
    fig.update_layout(title="Who wins: those who ended the game, and the others<br><sup>win rate with its "
                            "95% interval; shared wins count 1/k</sup>",
                      barmode="group", xaxis_title="edition", yaxis={"title": "win rate", "tickformat": ".0%",
                                                                     "range": [0, 1.05]},
                      height=500, template="plotly_white", legend={"orientation": "h", "y": -0.22, "x": 0},
                      margin={"b": 140})
    return projector(fig, n=games.pop() if len(games) == 1 else None)


# The lesson's sentences, written from the numbers it has just computed (the notebook shows them as
# Markdown; a result is never typed into the text).

def marginal_text(table: pd.DataFrame, edition: str = "original") -> str:
    """Markdown: the marginal income of the first and the last paid city, where income stops, whether the
    table is concave (marginal income never rises: diminishing returns) and how the average income per
    city falls (:func:`income_table`)."""
    t = table[table["edition"] == edition].set_index("powered")
    cap = int(t.index[t["income"] == t["income"].max()].min())
    concave = t["marginal"].dropna().is_monotonic_decreasing
    return (f"The first city powered adds **{t.loc[1, 'marginal']:.0f} Elektro** a round; city number {cap} "
            f"adds only **{t.loc[cap, 'marginal']:.0f}**; beyond {cap} nothing (income stays "
            f"{t.loc[cap, 'income']} Elektro, O14). The marginal income "
            + ("never rises: the table is **concave**, with **diminishing returns** to cities. "
               if concave else "rises somewhere: not concave. ")
            + f"Average income per city falls from {t.loc[1, 'income']:.0f} (1 city) to "
            f"{t.loc[cap, 'income'] / cap:.1f} ({cap} cities).")


def position_text(now: pd.DataFrame) -> str:
    """Markdown: for each player of :func:`marginal_now`, the next city's marginal income against their
    average income per city powered, and whether one more city raises or lowers that average."""
    lines = []
    for _, r in now.iterrows():
        k, income, extra = int(r["can power"]), int(r["income"]), int(r["one more city adds"])
        if k == 0:
            lines.append(f"- **{r['player']}** powers no city: the first would add {extra} Elektro.")
            continue
        avg = income / k
        lines.append(f"- **{r['player']}** powers {k}: the average is {income} / {k} = **{avg:.2f}** Elektro "
                     f"per city, the next city adds **{extra}**, "
                     + ("less than the average, so the average falls." if extra < avg else
                        "no less than the average, so the average does not fall."))
    return "\n".join(lines)


def money_text(games: pd.DataFrame, edition: str) -> str:
    """Markdown: money left and cities powered at the end, winners against the others
    (:func:`money_vs_cities`), with 95% intervals and n."""
    mv = money_vs_cities(games).set_index("group")
    w, o = mv.loc["winners"], mv.loc["others"]
    return (f"**{edition}** ({games['game'].nunique()} games): winners ended with {w['money']:.0f} Elektro "
            f"[{w['money_low']:.0f}, {w['money_high']:.0f}] (n = {int(w['n'])}), the others with "
            f"{o['money']:.0f} [{o['money_low']:.0f}, {o['money_high']:.0f}] (n = {int(o['n'])}); "
            f"winners powered {w['score']:.1f} cities [{w['score_low']:.1f}, {w['score_high']:.1f}], "
            f"the others {o['score']:.1f} [{o['score_low']:.1f}, {o['score_high']:.1f}].")


def trigger_text(summary: Mapping[str, Any], edition: str, end_cities: int, players: int = 4) -> str:
    """Markdown: :func:`trigger_summary` of one edition in a sentence, every rate with its interval and n."""
    tr, ot, won, (m, lo, hi) = summary["triggers"], summary["others"], summary["games_won_by_a_trigger"], \
        summary["rounds"]
    return (f"**{edition}**, {players} players (ends at {end_cities} cities), {summary['games']} games: the "
            f"players who ended the game won {tr['win_rate']:.1%} [{tr['ci'][0]:.1%}, {tr['ci'][1]:.1%}] of "
            f"the time (n = {tr['n']} player-games), the others {ot['win_rate']:.1%} [{ot['ci'][0]:.1%}, "
            f"{ot['ci'][1]:.1%}] (n = {ot['n']}); a player who ended it won {won['share']:.1%} "
            f"[{won['ci'][0]:.1%}, {won['ci'][1]:.1%}] of the games (n = {won['n']}). Games lasted "
            f"{m:.1f} rounds [{lo:.1f}, {hi:.1f}].")


def trigger_conclusion(summaries: Mapping[str, Mapping[str, Any]]) -> str:
    """Markdown: in which editions the players who ended the game won more than a fair share (the lower
    end of their interval above it)."""
    fair = next(iter(summaries.values()))["fair_share"]
    above = [ed for ed, s in summaries.items() if s["triggers"]["ci"][0] > fair]
    where = "both editions" if len(above) == len(summaries) == 2 else ", ".join(above) or "neither edition"
    if above:
        return (f"In {where} the players who ended the game won clearly more than a fair share ({fair:.0%}): "
                "the lower end of their 95% interval is above it.")
    return (f"In {where} did the players who ended the game win clearly more than a fair share ({fair:.0%}): "
            "their 95% intervals reach it.")


def tie_text(ties: pd.DataFrame, edition: str) -> str:
    """Markdown: how often a tie on cities powered had to be broken (or shared) in ``edition``
    (:func:`tie_summary`), with a Wilson interval and n."""
    t = ties[ties["edition"] == edition]
    first = t.iloc[0]
    n = int(first["n"])
    broken = int(t.iloc[1:]["games"].sum())
    lo, hi = wilson(broken, n)
    return (f"**{edition}**: the winner had the most cities powered outright in {first['games']} of {n} "
            f"games; a tie on cities powered had to be broken (or shared) in **{broken / n:.0%}** "
            f"[{lo:.0%}, {hi:.0%}] of them (n = {n} games).")
