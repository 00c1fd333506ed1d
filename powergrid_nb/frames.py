"""pandas DataFrames of a position, built on demand for the Plotly views and ipywidgets panels.

Every function returns a fresh DataFrame and never changes the game. This is the only engine
module that imports pandas; it is never used in the hot path (legal actions, apply, search).
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

import pandas as pd

from . import bureaucracy, resources
from .actions import Action, Open
from .errors import IllegalAction
from .game import PHASE_NAMES
from .plants import FUELS, PLANTS, RESOURCES, STEP3, allocate, capacities, production

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "cities_frame", "connections_frame", "history_frame", "owned_plants_frame", "plants_frame",
    "players_frame", "price_ladder_frame", "refill_preview", "resources_frame",
]

STORAGE_COLUMNS = ("storage_coal", "storage_oil", "storage_garbage", "storage_uranium", "storage_hybrid")
_FUEL_INDEX = {r: k for k, r in enumerate(RESOURCES)}


def _cat(values: list[Any], categories: Any, ordered: bool = False) -> pd.Categorical:
    return pd.Categorical(values, categories=list(categories), ordered=ordered)


def _resource(values: list[Any]) -> pd.Categorical:
    """Resource names as an ordered categorical: coal < oil < garbage < uranium."""
    return _cat(values, RESOURCES, ordered=True)


def _fuel(values: list[Any]) -> pd.Categorical:
    return _cat(values, FUELS)


def _phase_name(values: list[Any]) -> pd.Categorical:
    return _cat(values, [PHASE_NAMES[k] for k in sorted(PHASE_NAMES)], ordered=True)


def _typed(rows: list[dict[str, Any]], columns: list[str], dtypes: dict[str, Any],
           index: str | None = None) -> pd.DataFrame:
    """A frame from row dicts with explicit dtypes (works for zero rows too)."""
    data = {c: [r[c] for r in rows] for c in columns}
    df = pd.DataFrame({c: pd.Series(data[c], dtype=dtypes.get(c, object)) for c in columns},
                      columns=columns)
    return df.set_index(index) if index else df


def _na(x: Any) -> Any:
    return pd.NA if x is None else x


# --- players ---------------------------------------------------------------------------------

def players_frame(g: Game) -> pd.DataFrame:
    """One row per participant in player order (the Trust too, ``is_trust``); index: name."""
    s, ctx = g.s, g.ctx
    current = g.current_player
    ranking = g.ranking()
    auction = s.auction
    participants = list(s.order) + [p for p in range(len(ctx.names)) if p not in s.order]
    rows = []
    for p in participants:
        name, cities = ctx.names[p], len(s.mine[p])
        trust = p == ctx.trust
        powered = bureaucracy.score(g, p)  # R99: what the player could power now
        row: dict[str, Any] = {
            "player": name, "order": s.order.index(p) + 1 if p in s.order else pd.NA,
            "seat": s.seats.index(p) + 1 if p in s.seats else pd.NA,
            "money": s.money[p], "cities": cities, "plants": tuple(sorted(s.plants[p])),
            **dict(zip(RESOURCES, s.tokens[p], strict=True)),
            **dict(zip(STORAGE_COLUMNS, capacities(s.plants[p]), strict=True)),
            "can_power": pd.NA if trust else powered,
            "income_now": pd.NA if trust else ctx.edition.payment(powered),
            "production": production(s.plants[p]),
            "rank": pd.NA if trust else ranking.index(name) + 1,
            "is_current": name == current, "is_trust": trust,
            "still_in_auction": s.phase == 2 and p in s.active,
            "bought_this_round": p in s.bought,
            "high_bidder": auction is not None and auction[2] == p,
            "must_discard": s.discard == p,
        }
        rows.append(row)
    ints = ["order", "seat", "money", "cities", *RESOURCES, *STORAGE_COLUMNS, "can_power", "income_now",
            "production", "rank"]
    bools = ["is_current", "is_trust", "still_in_auction", "bought_this_round", "high_bidder",
             "must_discard"]
    columns = ["player", *ints[:4], "plants", *ints[4:], *bools]
    dtypes = {"player": "string", **dict.fromkeys(ints, "Int64"), **dict.fromkeys(bools, bool)}
    return _typed(rows, columns, dtypes, index="player")


# --- plants ----------------------------------------------------------------------------------

def fuel_cost(g: Game, plant: int) -> int | None:
    """Cost at today's prices of one run of fuel for ``plant`` (cheapest first, the depot after an
    empty track, R50/R126); hybrids take the cheapest coal/oil mix; green plants 0; None if short."""
    p = PLANTS[plant]
    if p.is_green:
        return 0
    if p.is_hybrid:
        mixes = [(c, p.tokens - c, 0, 0) for c in range(p.tokens + 1)]
    else:
        mixes = [tuple(p.tokens if k == _FUEL_INDEX[p.fuel] else 0 for k in range(4))]
    costs = []
    for amounts in mixes:
        with suppress(IllegalAction):
            costs.append(resources.purchase_cost(g, amounts))
    return min(costs) if costs else None


def plants_frame(g: Game) -> pd.DataFrame:
    """One row per card of the plant market, cheapest first; the Step 3 card (when there) has
    ``plant`` <NA> and ``is_step3`` True. ``biddable_now``: the player to act may open it now."""
    s = g.s
    current = set(g.current_market())
    openable = {a.plant for a in g.legal_actions() if isinstance(a, Open)}
    auction = s.auction
    rows = []
    for pos, card in enumerate(s.market, 1):
        row: dict[str, Any] = {"position": pos, "is_step3": card == STEP3,
                               "market": "current" if card in current else "future"}
        if card == STEP3:
            row.update(plant=pd.NA, fuel=None, tokens=pd.NA, cities=pd.NA, storage=pd.NA,
                       min_bid=pd.NA, discounted=False, biddable_now=False, in_auction=False,
                       high_bid=pd.NA, leader=pd.NA, cities_per_token=float("nan"),
                       fuel_cost_now=pd.NA, fuel_cost_per_city=float("nan"))
        else:
            p = PLANTS[card]
            cost = fuel_cost(g, card)
            running = auction is not None and auction[0] == card
            row.update(plant=card, fuel=p.fuel, tokens=p.tokens, cities=p.cities, storage=p.storage,
                       min_bid=g.min_bid(card), discounted=card == s.discount,
                       biddable_now=card in openable, in_auction=running,
                       high_bid=auction[1] if running else pd.NA,
                       leader=g.ctx.names[auction[2]] if running else pd.NA,
                       cities_per_token=p.cities / p.tokens if p.tokens else float("nan"),
                       fuel_cost_now=_na(cost),
                       fuel_cost_per_city=float("nan") if cost is None else cost / p.cities)
        rows.append(row)
    columns = ["plant", "fuel", "tokens", "cities", "storage", "market", "position", "is_step3",
               "min_bid", "discounted", "biddable_now", "in_auction", "high_bid", "leader",
               "cities_per_token", "fuel_cost_now", "fuel_cost_per_city"]
    df = _typed(rows, columns, {
        **dict.fromkeys(["plant", "tokens", "cities", "storage", "position", "min_bid", "high_bid",
                         "fuel_cost_now"], "Int64"),
        **dict.fromkeys(["is_step3", "discounted", "biddable_now", "in_auction"], bool),
        "cities_per_token": float, "fuel_cost_per_city": float, "leader": "string"})
    df["fuel"] = _fuel(list(df["fuel"]))
    df["market"] = _cat(list(df["market"]), ["current", "future"], ordered=True)
    return df


def owned_plants_frame(g: Game) -> pd.DataFrame:
    """One row per owned plant (owners in player order, plants by number) with the tokens shown
    on it (one legal placement, :func:`powergrid_nb.plants.allocate`); ``acquired``: 1 = oldest."""
    s = g.s
    rows = []
    for p in s.order:
        placed = allocate(s.plants[p], s.tokens[p])
        for n in sorted(s.plants[p]):
            card = PLANTS[n]
            rows.append({"owner": g.ctx.names[p], "plant": n, "fuel": card.fuel, "tokens": card.tokens,
                         "cities": card.cities, "storage": card.storage,
                         "acquired": s.plants[p].index(n) + 1,
                         **{r: placed[n].get(r, 0) for r in RESOURCES},
                         "stored": sum(placed[n].values())})
    ints = ["plant", "tokens", "cities", "storage", "acquired", *RESOURCES, "stored"]
    df = _typed(rows, ["owner", "plant", "fuel", *ints[1:]],
                {"owner": "string", **dict.fromkeys(ints, "Int64")})
    df["fuel"] = _fuel(list(df["fuel"]))
    return df


# --- resources -------------------------------------------------------------------------------

def refill_preview(g: Game) -> dict[str, int]:
    """Tokens per resource the next phase-5 refill would move now (current step and supply, map
    rules such as R125 included), by running the engine's refill on a copy (R78-R81)."""
    c = g.copy()
    bureaucracy.refill(c)
    return {r: c.s.res[k] - g.s.res[k] for k, r in enumerate(RESOURCES)}


def resources_frame(g: Game) -> pd.DataFrame:
    """Tidy market: one row per (resource, track space), cheapest space first (R115, R116), with
    the per-resource totals repeated on each row."""
    held = resources.held_total(g)
    supply = resources.supply(g.s.res, held)
    refill = refill_preview(g)
    rows = []
    for k, r in enumerate(RESOURCES):
        n = g.s.res[k]
        depot = resources.depot_price(g, k)
        nxt = resources.next_price(k, n) if n else (depot if supply[k] > 0 else None)
        for i, (price, tokens) in enumerate(resources.spaces(k, n), 1):
            rows.append({"resource": r, "space": i, "price": price,
                         "capacity": 1 if k == resources.URANIUM else 3, "tokens": tokens,
                         "market_total": n, "held": held[k], "supply": supply[k],
                         "total": resources.TOTALS[k], "next_price": _na(nxt),
                         "depot_price": _na(depot), "refill_next": refill[r]})
    columns = ["resource", "space", "price", "capacity", "tokens", "market_total", "held", "supply",
               "total", "next_price", "depot_price", "refill_next"]
    df = _typed(rows, columns, dict.fromkeys(columns[1:], "Int64"))
    df["resource"] = _resource(list(df["resource"]))
    return df


def price_ladder_frame(g: Game) -> pd.DataFrame:
    """One row per (resource, k): the price of the k-th token bought now and the total for k
    (R50); after the track, tokens of a depot (R126) with ``source`` "depot"."""
    supply = resources.supply(g.s.res, resources.held_total(g))
    rows = []
    for k, r in enumerate(RESOURCES):
        ladder = [(p, "market") for p in resources.price_ladder(k, g.s.res[k])]
        depot = resources.depot_price(g, k)
        if depot is not None:
            ladder += [(depot, "depot")] * max(0, supply[k])
        total = 0
        for i, (price, source) in enumerate(ladder, 1):
            total += price
            rows.append({"resource": r, "k": i, "price_of_kth": price, "cumulative_cost": total,
                         "source": source})
    columns = ["resource", "k", "price_of_kth", "cumulative_cost", "source"]
    df = _typed(rows, columns, dict.fromkeys(columns[1:4], "Int64"))
    df["resource"] = _resource(list(df["resource"]))
    df["source"] = _cat(list(df["source"]), ["market", "depot"])
    return df


# --- map -------------------------------------------------------------------------------------

def cities_frame(g: Game, player: str | None = None) -> pd.DataFrame:
    """One row per city of the whole map (file order); index: city. With ``player``: what that
    player would pay to add each city now (``build_cost``, <NA> when not allowed, R56-R60)."""
    s, ctx = g.s, g.ctx
    prices = ctx.edition.tables["build_prices"]
    slots = [f"slot_{p}" for p in prices]
    money = g.money(player) if player is not None else 0
    rows = []
    for name, city in ctx.map.cities.items():
        owners = [ctx.names[p] for p in s.houses.get(name, ())]
        in_play = name in ctx.cidx
        row: dict[str, Any] = {
            "city": name, "region": city.region, "lat": city.lat, "lon": city.lon, "in_play": in_play,
            "marked": name in s.marked, "houses": len(owners),
            **{c: owners[i] if i < len(owners) else pd.NA for i, c in enumerate(slots)},
            "open_slots": max(0, s.step - len(owners)) if in_play else 0, "owners": tuple(owners)}
        if player is not None:
            cost = g.build_cost(player, name)
            row["build_cost"] = _na(cost)
            row["affordable"] = cost is not None and cost <= money
        rows.append(row)
    columns = ["city", "region", "lat", "lon", "in_play", "marked", "houses", *slots, "open_slots",
               "owners"] + (["build_cost", "affordable"] if player is not None else [])
    dtypes = {"city": "string", "lat": float, "lon": float, "in_play": bool, "marked": bool,
              "houses": "Int64", "open_slots": "Int64", "build_cost": "Int64", "affordable": bool,
              **dict.fromkeys(slots, "string")}
    df = _typed(rows, columns, dtypes, index="city")
    df["region"] = _cat(list(df["region"]), ctx.map.regions)
    return df


def connections_frame(g: Game) -> pd.DataFrame:
    """One row per connection of the map; ``in_play``: both ends in the play area (R4)."""
    inside = g.ctx.cidx
    rows = [{"city_a": a, "city_b": b, "cost": c, "in_play": a in inside and b in inside}
            for a, b, c in g.ctx.map.connections]
    return _typed(rows, ["city_a", "city_b", "cost", "in_play"],
                  {"city_a": "string", "city_b": "string", "cost": "Int64", "in_play": bool})


# --- history ---------------------------------------------------------------------------------

def history_frame(g: Game) -> pd.DataFrame:
    """One row per history event, oldest first. ``action``: the decision's text on decision rows;
    ``money_delta``: the Elektro a pay (negative) or income (positive) event moved, else 0."""
    decisions = set(Action._registry)
    rows = [{**e._asdict(), "phase_name": PHASE_NAMES.get(e.phase),
             "action": e.detail if e.kind in decisions else None,
             "money_delta": e.amount if e.kind in ("pay", "income") else 0} for e in g.history]
    columns = ["round", "phase", "phase_name", "step", "player", "kind", "action", "amount", "detail",
               "money_delta"]
    dtypes = {**dict.fromkeys(["round", "phase", "step", "amount", "money_delta"], "Int64"),
              **dict.fromkeys(["player", "kind", "action", "detail"], "string")}
    df = _typed(rows, columns, dtypes)
    df["phase_name"] = _phase_name(list(df["phase_name"]))
    return df
