"""Lesson 4, turn order and catch-up: how much does buying and building last hold the leader back?

Phase 1 ranks the players by cities, ties by the biggest plant (R18-R19); phases 3 and 4 then go in
*reverse* order (R45, R54), so the leader buys resources after the others have taken the cheap tokens
and builds after they have taken the free cities. The rule parameter ``reverse_order`` switches that
off (``[]``: leader first in both) or keeps one phase (``[3]``, ``[4]``). The functions here play rule
sets on common seeds (:func:`run_rule_sets`), name the leader after round *k* (:func:`leaders`) and
measure the leader's win rate (:func:`leader_win_rates`, :func:`leader_difference`), the spread of
the final cities and the game length (:func:`outcomes`), and replay one position's phases 3 and 4
under each rule set (:func:`phases_3_and_4`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from powergrid_nb.bots import HeuristicBot, play
from powergrid_nb.engine.events import HouseBuilt, PlantBought, TokensBought, tokens_text
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.play.results import SimulationResult, mean_interval, wilson
from powergrid_nb.play.simulation import sweep

from .style import projector
from .whatif_reading import verdict

__all__ = ["VARIANTS", "differences_text", "leader_difference", "leader_figure", "leader_rate_text",
           "leader_win_rates", "leaders", "order_text", "outcomes", "outcomes_text", "phase_effects",
           "phase_text",
           "phases_3_and_4", "player_order", "run_rule_sets", "turn_figure", "turn_summary", "what_changed",
           "with_rules"]

# label -> value of the rule parameter reverse_order (None: the rules as printed, R45 and R54)
VARIANTS: dict[str, list[int] | None] = {"standard": None, "leader first": [],
                                          "resources reversed only": [3], "building reversed only": [4]}


def player_order(cities: Mapping[str, int], biggest: Mapping[str, int]) -> list[str]:
    """Phase 1's order worked out by hand, as the lesson does it (R18-R19): most cities first, ties by the
    biggest plant; players still tied keep the order they are given in (R22). The game's own order is
    ``g.player_order``; the tests check the two agree, and :func:`leaders` reads the engine's."""
    names = list(cities)
    return sorted(names, key=lambda p: (-cities[p], -biggest.get(p, 0), names.index(p)))


def run_rule_sets(games: int, seeds: int = 1, players: int = 4,
                  variants: Mapping[str, list[int] | None] = VARIANTS, bots: Any = "heuristic",
                  **kwargs: Any) -> SimulationResult:
    """Play every ``reverse_order`` variant on the same seeds (``sweep``, ``per_round=True``); the
    frames have a ``reverse_order`` column with the variant's label."""
    return sweep({"players": players}, {"reverse_order": dict(variants)}, games_per_point=games, bots=bots,
                 seeds=seeds, per_round=True, **{"progress": False, **kwargs})


def leaders(result: SimulationResult, after_round: int) -> pd.DataFrame:
    """The leader after round ``after_round`` of every game that lasted longer: the first in the next
    round's player order as the engine set it (``rounds["place"]``: most cities, ties by the biggest
    plant, R18-R22).

    One row per (variant, game): ``leader``, ``cities`` (the leader's after the round), ``lead`` (over
    the most any other player had), ``by_plant`` (no lead in cities: the tie was broken by the plant),
    ``won`` (the leader's share of the victory, 1/k when k share it), ``rounds``.
    """
    rounds, games = result.rounds, result.games
    if rounds is None:
        raise ValueError("leaders needs the per-round frames: simulate or sweep with per_round=True")
    keys = ["point", "game"] if "point" in games else ["game"]
    label = ["reverse_order"] if "reverse_order" in games else []
    humans = rounds[~rounds["is_trust"]]
    first = humans[(humans["round"] == after_round + 1) & (humans["place"] == 1)]
    cities = humans[humans["round"] == after_round].set_index([*keys, "player"])["cities"]
    by_game = games.set_index([*keys, "player"]).sort_index()
    rows = []
    for key, leader in zip(first[keys].itertuples(index=False), first["player"], strict=True):
        key = tuple(key)
        mine = int(cities.loc[(*key, leader)])
        others = cities.loc[key].drop(leader)
        g = by_game.loc[key]
        row = dict(zip(keys, key, strict=True))
        if label:
            row["reverse_order"] = g["reverse_order"].iloc[0]
        row.update(seed=int(g["seed"].iloc[0]), leader=leader, cities=mine, lead=mine - int(others.max()),
                   by_plant=mine == int(others.max()), won=float(g.loc[leader, "win_share"]),
                   rounds=int(g["rounds"].iloc[0]))
        rows.append(row)
    return pd.DataFrame(rows)


def _by_variant(df: pd.DataFrame) -> Iterable[tuple[str, pd.DataFrame]]:
    if "reverse_order" not in df:
        yield "", df
        return
    for label, grp in df.groupby("reverse_order", sort=False):
        yield str(label), grp


def leader_win_rates(result: SimulationResult, rounds: Sequence[int] = tuple(range(1, 9))) -> pd.DataFrame:
    """Per variant and round *k*: how often the leader after round *k* won, with a 95% Wilson interval;
    ``games`` = games that lasted longer than *k* rounds; ``fair_share`` = 1 / players."""
    players = result.games.groupby(["point", "game"] if "point" in result.games else "game").size()
    fair = float((1 / players).mean())
    rows = []
    for k in rounds:
        for label, grp in _by_variant(leaders(result, k)):
            n, wins = len(grp), float(grp["won"].sum())
            lo, hi = wilson(wins, n)
            rows.append({"reverse_order": label, "after_round": k, "games": n, "wins": wins,
                         "win_rate": wins / n if n else float("nan"), "low": lo, "high": hi,
                         "fair_share": fair})
    return pd.DataFrame(rows)


def leader_difference(result: SimulationResult, after_round: int, base: str = "standard") -> pd.DataFrame:
    """Each variant's leader win rate minus ``base``'s, paired by seed (the games both variants played
    past round ``after_round``), with a 95% t interval; ``pairs`` = the paired games."""
    df = leaders(result, after_round).set_index("seed")
    first = df[df["reverse_order"] == base]["won"]
    rows = []
    for label, grp in _by_variant(df.reset_index()):
        if label == base:
            continue
        both = grp.set_index("seed")["won"].to_frame().join(first.rename("base"), how="inner")
        mean, lo, hi = mean_interval((both["won"] - both["base"]).tolist())
        rows.append({"reverse_order": label, "versus": base, "pairs": len(both), "difference": mean,
                     "low": lo, "high": hi})
    return pd.DataFrame(rows)


PHASES = {"both phases": "standard", "resources (phase 3)": "resources reversed only",
          "building (phase 4)": "building reversed only"}


def phase_effects(result: SimulationResult, after_round: int) -> pd.DataFrame:
    """What reversing each phase does to the leader's win rate, starting from the leader first in both
    (``leader first``): per phase reversed (``both phases``, ``resources (phase 3)`` alone,
    ``building (phase 4)`` alone) the paired difference from ``leader first`` with its 95% interval
    (:func:`leader_difference`) and ``established`` (the interval excludes zero). A brake shows as a
    negative difference."""
    diff = leader_difference(result, after_round, base="leader first").set_index("reverse_order")
    rows = []
    for phase, label in PHASES.items():
        if label in diff.index:
            r = diff.loc[label]
            rows.append({"reversed": phase, "variant": label, "pairs": int(r["pairs"]),
                         "difference": r["difference"], "low": r["low"], "high": r["high"],
                         "established": bool(r["low"] > 0 or r["high"] < 0)})
    return pd.DataFrame(rows)


def outcomes(result: SimulationResult) -> pd.DataFrame:
    """Per variant, means over games with 95% t intervals: ``gap`` (cities of the player with the most
    minus the fewest at the end), ``winner_cities`` and ``rounds`` (game length); ``games`` = n."""
    g = result.games
    keys = ["point", "game"] if "point" in g else ["game"]
    per_game = g.groupby([*keys, "reverse_order"] if "reverse_order" in g else keys, observed=True).agg(
        gap=("cities", lambda c: int(c.max() - c.min())), rounds=("rounds", "first"),
        winner_cities=("cities", "max")).reset_index()
    rows = []
    for label, grp in _by_variant(per_game):
        row: dict[str, Any] = {"reverse_order": label, "games": len(grp)}
        for m in ("gap", "winner_cities", "rounds"):
            row[m], row[f"{m}_low"], row[f"{m}_high"] = mean_interval(grp[m].tolist())
        rows.append(row)
    return pd.DataFrame(rows)


def leader_figure(rates: pd.DataFrame, title: str = "Does the leader after round k win?",
                  games: int | None = None) -> go.Figure:
    """The leader's win rate against the round the lead is measured after, one line per variant, with
    95% Wilson intervals and the fair share as a dotted line; ``games``: the games played per rule set
    (in the title)."""
    fig = go.Figure()
    for i, (label, grp) in enumerate(_by_variant(rates)):
        x = grp["after_round"] + (i - 1.5) * 0.08  # side by side, so the error bars do not hide each other
        fig.add_scatter(x=x, y=grp["win_rate"], mode="lines+markers", name=label or "win rate",
                        error_y={"type": "data", "symmetric": False, "array": grp["high"] - grp["win_rate"],
                                 "arrayminus": grp["win_rate"] - grp["low"], "thickness": 1.2},
                        customdata=grp[["games", "low", "high"]],
                        hovertemplate="after round %{x:.0f}: %{y:.0%} [%{customdata[1]:.0%}, "
                                      "%{customdata[2]:.0%}], n = %{customdata[0]}<extra></extra>")
    fair = float(rates["fair_share"].iloc[0])
    fig.add_hline(y=fair, line_dash="dot", line_color="grey",
                  annotation_text=f"fair share {fair:.0%}", annotation_position="bottom right")
    lo, hi = int(rates["games"].min()), int(rates["games"].max())
    n = f"n = {lo}" if lo == hi else f"n = {lo}-{hi}"
    title += f"<br><sup>per rule set; a point counts the games that lasted past round k ({n})</sup>"
    fig.update_layout(title=title, xaxis_title="the lead is measured after round k",
                      yaxis_title="leader's win rate", yaxis_tickformat=".0%",
                      yaxis_range=[0, 1], height=520, legend_title="order in phases 3 and 4",
                      legend={"orientation": "h", "y": -0.2, "x": 0}, margin={"b": 140})
    return projector(fig, n=games)


def turn_summary(moves: pd.DataFrame) -> pd.DataFrame:
    """Per variant and player (in the order they bought resources): ``place`` in player order, the
    tokens bought and their cost, the cities built and their cost (Elektro)."""
    rows = []
    moves = moves[moves["what"] != "plant"]
    for (label, player), grp in moves.groupby(["variant", "player"], sort=False):
        res, city = grp[grp["what"] == "resources"], grp[grp["what"] == "city"]
        counts = res["item"].str.split(" ", n=1).str[1].value_counts(sort=False)
        rows.append({"variant": label, "player": player, "place": int(grp["place"].iloc[0]),
                     "resources": ", ".join(f"{n} {r}" for r, n in counts.items()) or "-",
                     "paid for resources": int(res["cost"].sum()),
                     "cities": ", ".join(city["item"]) or "-", "paid for cities": int(city["cost"].sum())})
    return pd.DataFrame(rows)


def what_changed(moves: pd.DataFrame, leader: str, base: str = "standard", other: str = "leader first"
                 ) -> list[str]:
    """Sentences (markdown) on what :func:`phases_3_and_4`'s two rule sets changed: what ``leader`` paid
    for resources under each, and every city that went to another player (or to nobody)."""
    s = turn_summary(moves).set_index(["variant", "player"])
    a, b = s.loc[(base, leader)], s.loc[(other, leader)]
    same = a["resources"] == b["resources"]
    lines = [f"The leader **{leader}** pays **{a['paid for resources']} Elektro** for {a['resources']} under "
             f"the {base} rules and **{b['paid for resources']} Elektro** for "
             + ("the same tokens" if same else b["resources"]) + f" with the {other} rule."]
    cities = moves[moves["what"] == "city"]
    taken = {v: dict(zip(grp["item"], grp["player"], strict=True)) for v, grp in cities.groupby("variant")}
    ta, tb = taken.get(base, {}), taken.get(other, {})
    for c in sorted(set(ta) | set(tb)):
        if ta.get(c) != tb.get(c):
            lines.append(f"**{c}** goes to {ta.get(c, 'nobody')} under the {base} rules and to "
                         f"{tb.get(c, 'nobody')} with the {other} rule.")
    return lines


def turn_figure(summary: pd.DataFrame, title: str = "One position, two turn orders") -> go.Figure:
    """:func:`turn_summary` as bars: what each player paid for resources and for cities under each rule
    set, players in player order (the leader first)."""
    from plotly.subplots import make_subplots
    fig = make_subplots(rows=1, cols=2, subplot_titles=("paid for resources", "paid for cities"),
                        horizontal_spacing=0.12)
    order = summary.drop_duplicates("player").sort_values("place")
    names = [f"{p} ({n}.)" for p, n in zip(order["player"], order["place"], strict=True)]
    for i, (label, grp) in enumerate(summary.groupby("variant", sort=False)):
        grp = grp.set_index("player").loc[order["player"]]
        panels = [("paid for resources", "resources"), ("paid for cities", "cities")]
        for col, (what, hover) in enumerate(panels, 1):
            fig.add_bar(x=names, y=grp[what], name=str(label), legendgroup=str(label), showlegend=col == 1,
                        marker_color=("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728")[i % 4],
                        text=grp[hover], textposition="none",
                        hovertemplate="%{x}: %{y} Elektro for %{text}<extra>" + str(label) + "</extra>",
                        row=1, col=col)
    fig.update_layout(title=title, barmode="group", height=480, legend_title="turn order",
                      legend={"orientation": "h", "y": -0.28, "x": 0}, margin={"b": 150})
    fig.update_yaxes(title_text="Elektro", row=1, col=1)
    fig.update_yaxes(title_text="Elektro", row=1, col=2)
    fig.update_xaxes(title_text="player (place in order)")
    return projector(fig, unit="Elektro, one round")


def with_rules(g: Game, rules: Mapping[str, Any] | None) -> Game:
    """The same position as ``g`` with other rule parameters (``None``: the rules as they are)."""
    d = g.to_dict()
    cfg = d["config"]
    opts = dict(cfg.get("options", {}))
    if rules is not None:
        opts["rules"] = {**(opts.get("rules") or {}), **rules}
    return Game.from_dict({**d, "config": {**cfg, "options": opts}})


def phases_3_and_4(g: Game, variants: Mapping[str, Mapping[str, Any] | None], seed: int = 0) -> pd.DataFrame:
    """Play this round from ``g`` (in phase 1 or 2: phase 3's order is fixed when it begins) to the end
    of phase 4 under each rule set with the same heuristic bots; one row per token or house bought in
    phases 3 and 4, in the order they happened: ``variant``, ``turn`` (1 = first to act), ``player``,
    ``place`` (1 = the leader, in player order), ``what`` ("resources"/"city"), ``item`` (the token
    or the city), ``cost`` (Elektro); plus a row per plant bought in the rest of the auction (``what`` =
    "plant"), which the rule sets share: check that they are the same."""
    if g.phase > Phase.AUCTION:
        raise ValueError(f"g is in phase {g.phase}: give a position in phase 1 or 2 of the round, before "
                         "phase 3's order is set")
    rows = []
    for label, rules in variants.items():
        h = with_rules(g, rules)
        r = h.round
        play(h, [HeuristicBot(seed=seed + k) for k in range(len(h.players))],
             until=lambda x, r=r: x.round != r or x.phase >= Phase.BUREAUCRACY)
        place = {p: i + 1 for i, p in enumerate(h.player_order)}
        turns: dict[tuple[str, str], int] = {}
        for e in h.history[len(g.history):]:
            if isinstance(e, PlantBought):
                rows.append({"variant": label, "turn": 0, "player": e.player, "place": place[e.player],
                             "what": "plant", "item": str(e.plant), "cost": e.price})
            elif isinstance(e, TokensBought | HouseBuilt):
                turns.setdefault((e.kind, e.player), len([t for t in turns if t[0] == e.kind]) + 1)
                what, item = ("resources", tokens_text(e.tokens)) if isinstance(e, TokensBought) else (
                    "city", e.city)
                rows.append({"variant": label, "turn": turns[(e.kind, e.player)], "player": e.player,
                             "place": place[e.player], "what": what, "item": item, "cost": e.cost})
    return pd.DataFrame(rows, columns=["variant", "turn", "player", "place", "what", "item", "cost"])


# The lesson's sentences, written from the numbers it has just computed (the notebook shows them as
# Markdown; a result is never typed into the text).

def order_text(cities: Mapping[str, int], biggest: Mapping[str, int], engine_order: Sequence[str]) -> str:
    """Markdown: a table of each player's cities, biggest plant and place in ``engine_order`` (the
    game's ``player_order``), and whether :func:`player_order` by hand gives the same order."""
    ours = player_order(cities, biggest)
    order = list(engine_order)
    rows = "\n".join(f"| {p} | {cities[p]} | {biggest[p]} | {order.index(p) + 1} |" for p in ours)
    return ("| player | cities | biggest plant | place in player order |\n|---|---|---|---|\n" + rows + "\n\n"
            f"Sorting by cities and then by the biggest plant gives **{', '.join(ours)}**; the engine's "
            f"player order is **{', '.join(order)}** ({'the same' if ours == order else 'different'}). "
            f"The leader is **{order[0]}**.")


def _rate(r: Any) -> str:
    return f"{r.win_rate:.0%} [{r.low:.0%}, {r.high:.0%}] (n = {int(r.games)})"


def leader_rate_text(rates: pd.DataFrame, after_round: int) -> str:
    """Markdown: the leader's win rate after ``after_round`` under the standard rules and with the leader
    first (:func:`leader_win_rates`), against the fair share."""
    at = rates[rates["after_round"] == after_round].set_index("reverse_order")
    fair = float(at["fair_share"].iloc[0])
    above = at.loc["standard", "low"] > fair
    return (f"The leader after round {after_round} wins **{_rate(at.loc['standard'])}** of the games under "
            f"the standard rules and **{_rate(at.loc['leader first'])}** when buying and building first. "
            f"The fair share is {fair:.0%}: "
            + (f"even with the brake, being ahead after round {after_round} is worth a lot." if above else
               "with this many games the standard rules' interval still reaches the fair share."))


def differences_text(diff: pd.DataFrame) -> str:
    """Markdown: one line per row of :func:`leader_difference`, the paired difference read with
    :func:`~powergrid_nb.lessons.whatif_reading.verdict`."""
    return "\n".join(
        "- " + verdict(r.difference, r.low, r.high, percent=True,
                       what=f"leader's win rate, {r.reverse_order} minus {r.versus} "
                            f"(n = {r.pairs} paired games)")
        for r in diff.itertuples())


def _effect(r: Any) -> str:
    return ("lowers the leader's win rate (a brake)" if r["high"] < 0 else
            "raises the leader's win rate (it helps the leader)" if r["low"] > 0 else
            "cannot be told from no change")


def phase_text(eff: pd.DataFrame) -> str:
    """Markdown: each phase's effect (:func:`phase_effects`) read with its interval, which phase does the
    holding back, and the first-mover disadvantage it puts on the leader."""
    e = eff.set_index("reversed")
    lines = ["- " + verdict(r["difference"], r["low"], r["high"], percent=True, what=(
        f"leader's win rate, {phase} reversed minus leader first in both (n = {int(r['pairs'])} paired "
        "games)"))
             for phase, r in e.iterrows()]
    both, res3, bld4 = (e.loc[p] for p in PHASES)
    said = (f"In these games, reversing the resource order alone {_effect(res3)}; reversing the building "
            f"order alone {_effect(bld4)}; reversing both, as the rules do, {_effect(both)}.")
    phases = (("the resource order (phase 3)", res3), ("the building order (phase 4)", bld4))
    brakes = [name for name, r in phases if r["high"] < 0]
    if res3["high"] < 0 and not both["high"] < 0:
        said += (" What the reverse order in phase 3 takes from the leader, building last in phase 4 gives "
                 "back: a question for a replay is what building last is worth to the leader.")
    elif bld4["high"] < 0 and not both["high"] < 0:
        said += (" What the reverse order in phase 4 takes from the leader, buying last in phase 3 gives "
                 "back: a question for a replay is what buying last is worth to the leader.")
    who = (" and ".join(brakes) + (" holds" if len(brakes) == 1 else " hold") + " the leader back when "
           "reversed alone" if brakes else "neither phase alone can be told from no change at this number of "
           "games")
    said += (" The leader moves first in the player order but last where moving early pays: a "
             f"**first-mover disadvantage** written into the rules. Of the two phases, {who}.")
    return "\n".join(lines) + "\n\n" + said + (
        " Three differences are read at once here, so one of them can exclude zero by chance alone "
        "(lesson 6, section 3).")


def outcomes_text(out: pd.DataFrame, variants: Sequence[str] = ("standard", "leader first")) -> str:
    """Markdown: the mean gap between the most and the fewest cities and the mean game length of each of
    ``variants`` (:func:`outcomes`), with their intervals and n."""
    o = out.set_index("reverse_order")
    return "\n".join(
        f"- {v}: a gap of **{o.loc[v, 'gap']:.1f} cities** [{o.loc[v, 'gap_low']:.1f}, "
        f"{o.loc[v, 'gap_high']:.1f}] and **{o.loc[v, 'rounds']:.1f} rounds** [{o.loc[v, 'rounds_low']:.1f}, "
        f"{o.loc[v, 'rounds_high']:.1f}] (n = {int(o.loc[v, 'games'])} games)" for v in variants)
