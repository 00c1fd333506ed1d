"""Lesson 2, power plants as capital: what a plant earns at today's prices, and what plants sell for.

``plant_table(g)`` is every plant card's economics at the fuel prices of a position: cities per token,
fuel cost per city, the extra income it adds to a player who already powers ``powered`` cities and
the rounds that income takes to repay what the plant really costs: its face value *and* the cities
it needs (``city_price`` each; ``city_price(g)`` reads it from the position), undiscounted
(``payback``) and discounted (``npv``, ``discounted_payback``). ``hybrid_option`` measures what a coal/oil
plant's freedom to pick the cheaper fuel is worth over simulated market histories. The auction
helpers read ``simulate(..., per_round=True).auctions``: premiums by plant, the "winner's curse"
(do the players who overpay win less?) and the Recharged discount token (R40-R44).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pandas as pd
import plotly.graph_objects as go

from powergrid_nb.engine.rules.plants import PLANTS, RESOURCES
from powergrid_nb.play.results import mean_interval, wilson

from .style import SMALL, projector

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game
    from powergrid_nb.engine.phases.resources import Track

__all__ = ["city_price", "complements", "complements_text", "curse_figure", "curse_text", "discount_sales",
           "discount_text", "discounted_payback", "economics_figure", "edition_auctions", "green_premium",
           "green_text", "hybrid_costs", "hybrid_option", "hybrid_text", "marginal_income", "npv",
           "payback_rounds", "plant_table", "plant_text", "premium_by_plant", "premium_figure",
           "premium_text", "returns_text", "sunk_text", "winners_curse"]

FUEL_COLORS = {"coal": "#6d4c41", "oil": "#212121", "garbage": "#f9a825", "uranium": "#d32f2f",
               "hybrid": "#7b1fa2", "eco": "#2e7d32", "fusion": "#0277bd"}


def marginal_income(g: Game, powered: int, cities: int) -> int:
    """The income a plant powering ``cities`` more adds to a player who powers ``powered`` (R110)."""
    return g.income(powered + cities) - g.income(powered)


def payback_rounds(price: float, extra_income: float, fuel_cost: float) -> float:
    """Rounds of (extra income - fuel) to repay ``price``; inf when a run earns nothing net."""
    net = extra_income - fuel_cost
    return price / net if net > 0 else math.inf


def npv(price: float, net: float, rounds: int, rate: float) -> float:
    """Net present value of paying ``price`` now for ``net`` Elektro at the end of each of the next
    ``rounds`` rounds, discounted at ``rate`` per round: -price + sum_t net / (1 + rate)^t."""
    return -price + sum(net / (1 + rate) ** t for t in range(1, rounds + 1))


def discounted_payback(price: float, net: float, rate: float, most: int = 50) -> float:
    """The fewest whole rounds whose discounted net income repays ``price`` (NPV >= 0); inf if none
    within ``most`` rounds (a net of 0 or less, or a rate that shrinks the stream below the price)."""
    total = 0.0
    for t in range(1, most + 1):
        total += net / (1 + rate) ** t
        if total >= price:
            return float(t)
    return math.inf


def city_price(g: Game, k: int = 3) -> float:
    """What a new city costs at this position, in Elektro: the cheapest ``k`` cities of each player
    (slot prices and links, ``planner.cheapest_cities``, as the engine charges them) divided by
    ``k``, averaged over the players who can add ``k`` cities."""
    from powergrid_nb.bots.planner import cheapest_cities

    per = [found[1] / k for p in g.players if (found := cheapest_cities(g, p, k)) is not None]
    return sum(per) / len(per) if per else math.nan


def plant_table(g: Game, powered: int = 3, city: float = 0.0, rate: float = 0.0,
                rounds: int = 5) -> pd.DataFrame:
    """Every plant card at the fuel prices of ``g`` for a buyer who already powers ``powered`` cities
    and must build the cities a new plant supplies, at ``city`` Elektro each (``city_price(g)``).

    Columns: fuel, tokens, cities, ``cities_per_token`` (NaN for green plants), ``fuel_cost`` (one
    run at today's prices, ``g.fuel_cost``; NaN if the market cannot supply it), ``fuel_per_city``,
    ``extra_income`` (marginal, R110), ``net_per_round`` (extra income - fuel), ``cities_cost``
    (cities x ``city``), ``capital`` (face value, the plant's number, + cities_cost), ``payback``
    (rounds of net income to repay the capital), ``discounted_payback`` (the same at ``rate`` per
    round, whole rounds) and ``npv`` (over the next ``rounds`` rounds at ``rate``).
    """
    rows = []
    for n, p in sorted(PLANTS.items()):
        fuel = g.fuel_cost(n)
        cost = math.nan if fuel is None else float(fuel)
        extra = marginal_income(g, powered, p.cities)
        capital = n + p.cities * city
        known = fuel is not None
        rows.append({"plant": n, "fuel": p.fuel, "tokens": p.tokens, "cities": p.cities,
                     "cities_per_token": p.cities / p.tokens if p.tokens else math.nan,
                     "fuel_cost": cost, "fuel_per_city": cost / p.cities,
                     "extra_income": extra, "net_per_round": extra - cost,
                     "cities_cost": p.cities * city, "capital": capital,
                     "payback": payback_rounds(capital, extra, cost) if known else math.nan,
                     "discounted_payback": (discounted_payback(capital, extra - cost, rate) if known
                                            else math.nan),
                     "npv": npv(capital, extra - cost, rounds, rate) if known else math.nan})
    return pd.DataFrame(rows).set_index("plant")


def plant_text(g: Game, table: pd.DataFrame, powered: int, city: float, rate: float, rounds: int,
               plant: int = 16) -> str:
    """The lesson's reading of :func:`plant_table` (Markdown): cities per token, fuel per city, how many
    plants repay card and cities and in how many rounds, the cities' share of the capital, and ``plant``
    as the worked example."""
    fuelled = table[table["tokens"] > 0]
    best = fuelled["cities_per_token"].idxmax()
    cheap, dear = fuelled["fuel_per_city"].idxmin(), fuelled["fuel_per_city"].idxmax()
    finite = table[table["payback"] < math.inf]
    card_only = (finite.index / finite["net_per_round"]).median()
    market = ", ".join(f"{n} {r}" for r, n in g.resource_market().items())
    t, p = table.round(2), table.loc[plant]
    return (
        f"At this position's prices (on the market: {market}), plant {best} gives the most cities per token "
        f"({t.loc[best, 'cities_per_token']}). Fuel per city ranges from {t.loc[cheap, 'fuel_per_city']} E "
        f"(plant {cheap}, {t.loc[cheap, 'fuel']}) to {t.loc[dear, 'fuel_per_city']} E (plant {dear}, "
        f"{t.loc[dear, 'fuel']}). A new city costs {city:.1f} E here (slot and links). Of the {len(table)} "
        f"plants, {len(finite)} repay their capital at all for a company powering {powered} cities, with a "
        f"median payback of **{finite['payback'].median():.1f} rounds** "
        f"({finite['discounted_payback'].median():.0f} whole rounds discounted at {rate:.0%} a round); "
        f"counting the card alone, as if the cities were free, the median would be {card_only:.2f} rounds. "
        f"The cities are a median {(finite['cities_cost'] / finite['capital']).median():.0%} of a plant's "
        f"capital. Plant {plant} ({PLANTS[plant].cities} cities, {PLANTS[plant].fuel}) costs {plant} + "
        f"{p['cities_cost']:.0f} = {p['capital']:.0f} E and nets {p['net_per_round']:.0f} E a round: a "
        f"payback of {p['payback']:.1f} rounds ({p['discounted_payback']:.0f} discounted), an NPV over "
        f"{rounds} rounds of {p['npv']:.0f} E.")


def complements(g: Game, plant: int, powered: int, city: float) -> pd.DataFrame:
    """Plant and cities as complements: for a company with ``powered`` cities and just the capacity to
    power them, what it spends and earns a round (R110) buying ``plant`` alone, only the cities the plant
    supplies (at ``city`` Elektro each), or both. Cities powered = min(capacity, cities): a plant earns
    only with cities to power, cities only with capacity (and fuel) to power them."""
    n, face = PLANTS[plant].cities, plant
    fuel = g.fuel_cost(plant)
    fuel = math.nan if fuel is None else float(fuel)
    rows = []
    for what, capacity, cities, spent in (("plant only", powered + n, powered, face),
                                          ("cities only", powered, powered + n, n * city),
                                          ("plant and cities", powered + n, powered + n, face + n * city)):
        more = min(capacity, cities) - powered
        burn = fuel if more else 0.0
        extra = marginal_income(g, powered, more)
        rows.append({"buy": what, "spent (Elektro)": spent, "cities powered": powered + more,
                     "extra income (Elektro/round)": extra, "fuel (Elektro/round)": burn,
                     "net (Elektro/round)": extra - burn})
    return pd.DataFrame(rows).set_index("buy")


def complements_text(table: pd.DataFrame, plant: int) -> str:
    """The lesson's sentence on :func:`complements` (Markdown)."""
    alone, cities, both = (table.loc[x] for x in ("plant only", "cities only", "plant and cities"))
    return (f"Bought alone, plant {plant} adds **{alone['net (Elektro/round)']:.0f} E** a round, and so do "
            f"its {PLANTS[plant].cities} cities without it ({cities['net (Elektro/round)']:.0f} E); together "
            f"they add {both['net (Elektro/round)']:.0f} E a round for {both['spent (Elektro)']:.0f} E. The "
            f"whole value is in the pair: that is what makes them complements, and why a plant's payback "
            f"must count its cities.")


def sunk_text(table: pd.DataFrame, plant: int, city: float, rate: float) -> str:
    """The lesson's sentence on sunk and opportunity cost for ``plant`` (Markdown), from
    :func:`plant_table` at a new city's price ``city`` and the discount rate ``rate``."""
    p = table.loc[plant]
    run = p["net_per_round"]
    decision = ("run it: a run earns more than its fuel" if run > 0 else
                "leave it idle: a run earns less than its fuel, whatever the card cost")
    return (f"Before the auction, plant {plant}'s {plant} E have an **opportunity cost**: the same money "
            f"would build {plant / city:.2f} cities at {city:.1f} E each, and the whole capital of "
            f"{p['capital']:.0f} E could earn elsewhere; the discount rate of {rate:.0%} a round is that "
            f"opportunity cost per round. Once paid, the {plant} E are **sunk**: no rule gives them back "
            f"(a plant boxed for a fourth returns nothing, R36). From then on only the next run counts: "
            f"extra income {p['extra_income']:.0f} E against fuel {p['fuel_cost']:.0f} E, so {decision}.")


def green_premium(table: pd.DataFrame) -> pd.DataFrame:
    """Green plants (eco, fusion: no fuel) against the fuelled ones, from :func:`plant_table`: per group
    the number of cards, the mean face value per city supplied and the mean fuel cost per city per run
    at the table's prices; for the green row, ``repaid_in`` = the rounds the fuel it saves per city
    takes to repay its extra face value per city (inf if it saves nothing). Every card of the game is
    counted once: a census of the deck, not a sample, so no interval."""
    runs = table[table["fuel_cost"].notna()].assign(price_per_city=lambda t: t.index / t["cities"],
                                                  green=lambda t: t["tokens"] == 0)
    rows = []
    for green, part in runs.groupby("green"):
        rows.append({"plants": "green (eco, fusion)" if green else "fuelled", "cards": len(part),
                     "face value per city": part["price_per_city"].mean(),
                     "fuel per city per round": part["fuel_per_city"].mean()})
    out = pd.DataFrame(rows).set_index("plants")
    if len(out) == 2:
        fuelled, green = out.loc["fuelled"], out.loc["green (eco, fusion)"]
        extra = green["face value per city"] - fuelled["face value per city"]
        saved = fuelled["fuel per city per round"] - green["fuel per city per round"]
        out["repaid_in"] = [math.nan, extra / saved if saved > 0 else math.inf]
    return out


def economics_figure(table: pd.DataFrame, title: str = "Power plants as capital") -> go.Figure:
    """Payback rounds against face value, one marker per plant, coloured by fuel (from plant_table)."""
    fig = go.Figure()
    for fuel, part in table.groupby("fuel", sort=False):
        shown = part[part["payback"].replace(math.inf, math.nan).notna()]
        fig.add_scatter(x=shown.index, y=shown["payback"], mode="markers+text", name=str(fuel),
                        text=[str(n) for n in shown.index], textposition="top center",
                        textfont={"size": SMALL - 2},
                        marker={"size": 11, "color": FUEL_COLORS.get(str(fuel))},
                        customdata=shown[["cities", "fuel_cost", "net_per_round"]].to_numpy(),
                        hovertemplate="plant %{x}: %{customdata[0]} cities, fuel %{customdata[1]} E,"
                                      " net %{customdata[2]} E/round<br>"
                                      "payback %{y:.1f} rounds<extra></extra>")
    fig.update_layout(title=title, height=560, legend_title_text="fuel",
                      xaxis_title="plant number = face value (Elektro)",
                      yaxis_title="payback (rounds)<br>net income to repay card + cities",
                      margin={"t": 90, "r": 20})
    return projector(fig)


def hybrid_costs(market: pd.DataFrame, track: Track, tokens: int = 2) -> pd.DataFrame:
    """Per game and round: what ``tokens`` coal, ``tokens`` oil and the cheapest coal/oil mix cost on
    the market at the start of the round (``simulate(..., per_round=True).market``, ``g.resource_track``).
    Rounds where the market cannot supply the run are left out."""
    wide = market.pivot_table(index=["game", "round"], columns="resource", values="tokens").reset_index()
    coal_k, oil_k = RESOURCES.index("coal"), RESOURCES.index("oil")
    rows = []
    for game, rnd, nc, no in zip(wide["game"], wide["round"], wide["coal"], wide["oil"], strict=True):
        coal = track.buy_cost(coal_k, int(nc), tokens)
        oil = track.buy_cost(oil_k, int(no), tokens)
        mixes = [(track.buy_cost(coal_k, int(nc), c) if c else 0, track.buy_cost(oil_k, int(no), tokens - c)
                  if tokens - c else 0) for c in range(tokens + 1)]
        best = [a + b for a, b in mixes if a is not None and b is not None]
        if coal is None or oil is None or not best:
            continue
        rows.append({"game": game, "round": rnd, "coal": coal, "oil": oil, "hybrid": min(best)})
    return pd.DataFrame(rows)


def hybrid_option(costs: pd.DataFrame) -> pd.DataFrame:
    """What choosing the fuel each round saves (Elektro per run), averaged per game first, then over
    games with a 95% interval: against coal only, oil only, and the better of the two in hindsight."""
    per_game = costs.groupby("game")[["coal", "oil", "hybrid"]].mean()
    savings = {"vs coal only": per_game["coal"] - per_game["hybrid"],
               "vs oil only": per_game["oil"] - per_game["hybrid"],
               "vs the better fuel of the game": per_game[["coal", "oil"]].min(axis=1) - per_game["hybrid"]}
    rows = []
    for what, s in savings.items():
        m, lo, hi = mean_interval(s.tolist())
        rows.append({"saving": what, "mean": m, "low": lo, "high": hi, "games": len(s)})
    return pd.DataFrame(rows).set_index("saving")


def edition_auctions(results: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Auctions of several runs in one frame with an ``edition`` column, the Trust's plants left out."""
    parts = [a[~a["trust"]].assign(edition=name) for name, a in results.items()]
    return pd.concat(parts, ignore_index=True)


def _mean_row(values: pd.Series) -> dict[str, float]:
    m, lo, hi = mean_interval(values.tolist())
    return {"n": len(values), "mean": m, "low": lo, "high": hi}


def premium_by_plant(auctions: pd.DataFrame, min_sales: int = 3) -> pd.DataFrame:
    """Mean premium (price - face value) per edition and plant with a 95% interval, for plants sold at
    least ``min_sales`` times; discounted sales (R40) are left out."""
    full = auctions[~auctions["discounted"]]
    rows = [{"edition": ed, "plant": int(pl), **_mean_row(part["premium"].astype(float))}
            for (ed, pl), part in full.groupby(["edition", "plant"])]
    out = pd.DataFrame(rows)
    return out[out["n"] >= min_sales].reset_index(drop=True)


def premium_figure(by_plant: pd.DataFrame) -> go.Figure:
    """Mean premium per plant with its interval, one trace per edition (from premium_by_plant)."""
    fig = go.Figure()
    for i, (ed, part) in enumerate(by_plant.groupby("edition")):
        fig.add_scatter(x=part["plant"] + (i - 0.5) * 0.3, y=part["mean"], mode="markers", name=str(ed),
                        error_y={"type": "data", "symmetric": False, "array": part["high"] - part["mean"],
                                 "arrayminus": part["mean"] - part["low"]},
                        customdata=part[["plant", "n"]].to_numpy(),
                        hovertemplate="plant %{customdata[0]}: %{y:.1f} E over face value"
                                      " (n = %{customdata[1]})<extra>" + str(ed) + "</extra>")
    fig.add_hline(y=0, line={"color": "grey", "dash": "dot"})
    fig.update_layout(title="What plants sell for above their face value<br><sup>mean premium per plant, "
                            "95% interval; plants sold at least 3 times</sup>", height=520,
                      xaxis_title="plant number (face value, Elektro)", yaxis_title="premium (Elektro)",
                      legend_title_text="edition", margin={"t": 110, "r": 20})
    return projector(fig, unit="Elektro")


def winners_curse(games: pd.DataFrame) -> pd.DataFrame:
    """Win rate by the place of a player's mean premium within their game (1 = paid the most over face
    value), with Wilson intervals; players who bought nothing are left out."""
    g = games.dropna(subset=["mean_premium"]).copy()
    g["premium_place"] = g.groupby("game")["mean_premium"].rank(ascending=False, method="first").astype(int)
    rows = []
    for place, part in g.groupby("premium_place"):
        wins, n = float(part["win_share"].sum()), len(part)
        lo, hi = wilson(wins, n)
        rows.append({"premium_place": int(place), "n": n, "mean_premium": part["mean_premium"].mean(),
                     "win_rate": wins / n, "low": lo, "high": hi})
    return pd.DataFrame(rows).set_index("premium_place")


def discount_sales(auctions: pd.DataFrame) -> pd.DataFrame:
    """Per edition: sales, discounted sales (R40) and their share, the share of those sold for 1 Elektro
    (Wilson intervals) and the mean price of a discounted plant (t interval)."""
    rows = []
    for ed, part in auctions.groupby("edition"):
        disc = part[part["discounted"]]
        n, d = len(part), len(disc)
        at1 = int((disc["price"] == 1).sum())
        share_lo, share_hi = wilson(d, n)
        one_lo, one_hi = wilson(at1, d)
        m, lo, hi = mean_interval(disc["price"].astype(float).tolist())
        rows.append({"edition": ed, "sales": n, "discounted": d, "share": d / n if n else math.nan,
                     "share_low": share_lo, "share_high": share_hi, "sold_at_1": at1,
                     "at_1_share": at1 / d if d else math.nan, "at_1_low": one_lo, "at_1_high": one_hi,
                     "mean_price": m, "price_low": lo, "price_high": hi})
    return pd.DataFrame(rows).set_index("edition")


def curse_figure(curse: dict[str, pd.DataFrame]) -> go.Figure:
    """Win rate by premium place within the game, one trace per edition (from winners_curse)."""
    fig = go.Figure()
    for ed, part in curse.items():
        fig.add_bar(x=[f"{p}." for p in part.index], y=part["win_rate"], name=ed,
                    error_y={"type": "data", "symmetric": False, "array": part["high"] - part["win_rate"],
                             "arrayminus": part["win_rate"] - part["low"]},
                    customdata=part[["n", "mean_premium"]].to_numpy(),
                    hovertemplate="premium place %{x}: won %{y:.0%} (n = %{customdata[0]}), mean premium "
                                  "%{customdata[1]:.1f} E<extra>" + ed + "</extra>")
    games = max((int(part["n"].max()) for part in curse.values() if len(part)), default=None)
    fig.update_layout(title="Do the players who pay the most over face value win?<br>"
                            "<sup>share of games won by place, 95% Wilson intervals</sup>",
                      height=480, barmode="group", yaxis_tickformat=".0%", legend_title_text="edition",
                      xaxis_title="place in the game by mean premium paid (1. = paid the most)",
                      yaxis_title="games won (share)", margin={"t": 110, "r": 20})
    return projector(fig, n=games)


def returns_text(table: pd.DataFrame, late: pd.DataFrame, plant: int, powered: tuple[int, int]) -> str:
    """The lesson's sentence on diminishing returns (Markdown): ``plant``'s extra income and payback for
    a company powering ``powered[0]`` cities (``table``) and ``powered[1]`` (``late``)."""
    few, many = powered
    return (f"Plant {plant} ({PLANTS[plant].cities} cities) adds {table.loc[plant, 'extra_income']} E a "
            f"round to a company powering {few} cities but only {late.loc[plant, 'extra_income']} E to one "
            f"powering {many}: its payback (card and cities) grows from {table.loc[plant, 'payback']:.2f} to "
            f"{late.loc[plant, 'payback']:.2f} rounds.")


def green_text(green: pd.DataFrame) -> str:
    """The lesson's sentence on :func:`green_premium` (Markdown)."""
    row, fuel = green.loc["green (eco, fusion)"], green.loc["fuelled"]
    return (f"A green plant's face value is {row['face value per city']:.1f} E per city supplied, a "
            f"fuelled one's {fuel['face value per city']:.1f} E ({int(row['cards'])} green and "
            f"{int(fuel['cards'])} fuelled cards). At today's prices a fuelled plant burns "
            f"{fuel['fuel per city per round']:.2f} E of fuel per city each round, so the green plant's "
            f"extra price is repaid by the fuel it saves in about **{row['repaid_in']:.1f} rounds**. It also "
            f"carries no fuel risk: no price spike and no denial (lesson 1) can switch it off.")


def hybrid_text(option: pd.DataFrame, costs: pd.DataFrame) -> str:
    """The lesson's sentence on :func:`hybrid_option` (Markdown)."""
    v, c = option.loc["vs the better fuel of the game"], option.loc["vs coal only"]
    return (f"Over {int(v['games'])} simulated games ({len(costs)} rounds), choosing the fuel every round "
            f"saved {c['mean']:.2f} E per run against burning coal only (95% interval {c['low']:.2f} to "
            f"{c['high']:.2f}) and {v['mean']:.2f} E ({v['low']:.2f} to {v['high']:.2f}) against the fuel "
            f"that turned out cheaper over the whole game, chosen in hindsight. A run cost "
            f"{costs['coal'].mean():.1f} E in coal and {costs['oil'].mean():.1f} E in oil on average.")


def premium_text(auctions: pd.DataFrame, by_plant: pd.DataFrame, games: int) -> str:
    """The lesson's reading of the auctions (Markdown), per edition: plants sold without discount, the
    share sold at exactly face value (the reserve price: no second bidder above it), the median premium
    of the others and the three highest mean premiums by plant."""
    lines = []
    for ed, part in auctions[~auctions["discounted"]].groupby("edition"):
        top = by_plant[by_plant["edition"] == ed].nlargest(3, "mean")
        at_face = int((part["premium"] == 0).sum())
        lo, hi = wilson(at_face, len(part))
        raised = part.loc[part["premium"] > 0, "premium"]
        best = ", ".join(f"plant {int(r.plant)} +{r.mean:.1f} E [{r.low:.1f}, {r.high:.1f}] (n = {int(r.n)})"
                         for r in top.itertuples())
        bid_up = (f"the other {len(raised)} were bid up, by a median {raised.median():.0f} E"
                  if len(raised) else "none was bid up")
        lines.append(f"- **{ed}**: {len(part)} plants sold without discount in {games} games; "
                     f"{at_face / len(part):.0%} [{lo:.0%}, {hi:.0%}] went for exactly their face value, the "
                     f"reserve price; {bid_up}. The highest mean premiums: {best}.")
    return "\n".join(lines)


def curse_text(curse: dict[str, pd.DataFrame], edition: str = "original") -> str:
    """The lesson's sentence on :func:`winners_curse` for ``edition`` (Markdown)."""
    o = curse[edition]
    hi, lo = o.loc[o.index.min()], o.loc[o.index.max()]
    chance = 1 / len(o)
    return (f"In the {edition} edition the player who paid the highest mean premium of their game won "
            f"{hi['win_rate']:.0%} of the games ({hi['low']:.0%}–{hi['high']:.0%}, n = {int(hi['n'])}); "
            f"the one who paid the least won {lo['win_rate']:.0%} ({lo['low']:.0%}–{lo['high']:.0%}, "
            f"n = {int(lo['n'])}). With {len(o)} places, a place that did not matter would win about "
            f"{chance:.0%}.")


def discount_text(disc: pd.DataFrame, auctions: pd.DataFrame, games: int) -> str:
    """The lesson's sentence on the Recharged discount token (Markdown), from :func:`discount_sales`."""
    r = disc.loc["recharged"]
    common = auctions[auctions["discounted"]]["plant"].value_counts().head(5)
    often = ", ".join(f"{int(p)} ({n}×)" for p, n in common.items())
    return (f"In {games} Recharged games, {int(r['discounted'])} of {int(r['sales'])} plants bought were "
            f"discounted ({r['share']:.0%}, 95% interval {r['share_low']:.0%}–{r['share_high']:.0%}). "
            f"{int(r['sold_at_1'])} of them went for the reserve of 1 E ({r['at_1_share']:.0%}, "
            f"{r['at_1_low']:.0%}–{r['at_1_high']:.0%}): nobody raised the opening bid; the mean price of "
            f"a discounted plant was {r['mean_price']:.1f} E ({r['price_low']:.1f}–{r['price_high']:.1f}). "
            f"The plants most often bought with the token: {often}.")
