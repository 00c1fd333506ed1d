"""pandas DataFrames of a position, built on demand for the Plotly views and ipywidgets panels.

Every function returns a fresh DataFrame and never changes the game. Only the game's public API is
read (:mod:`powergrid_nb.engine.queries`). This is the only engine module that imports pandas; it is never
used in the hot path (legal actions, apply, search).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pandas as pd

from powergrid_nb.engine import events as ev
from powergrid_nb.engine.gamelog import sentence
from powergrid_nb.engine.queries import STORAGE
from powergrid_nb.engine.rules.phases import PHASE_NAMES, Phase
from powergrid_nb.engine.rules.plants import FUELS, PLANTS, RESOURCES, STEP3, allocate, production

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = [
    "HISTORY_COLUMNS", "cities_frame", "cities_rows", "connections_frame", "connections_rows",
    "history_frame", "owned_plants_frame", "plants_frame", "plants_rows", "players_frame",
    "price_ladder_frame", "refill_preview", "resources_frame",
]

STORAGE_COLUMNS = tuple(f"storage_{k}" for k in STORAGE)
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
    order, seats = g.player_order, g.seat_order
    current, trust, auction = g.current_player, g.trust, g.auction
    ranking, scores = g.ranking(), g.scores()
    bidding = set(g.still_to_act) if g.phase == Phase.AUCTION else set()
    bought = set(g.bought_this_round)
    rows = []
    for name in order + [p for p in g.participants if p not in order]:
        plants = g.plants_of(name)
        is_trust = name == trust
        powered = scores.get(name)  # R99: what the player could power now (the Trust never powers)
        rows.append({
            "player": name, "order": order.index(name) + 1 if name in order else pd.NA,
            "seat": seats.index(name) + 1 if name in seats else pd.NA,
            "money": g.money(name), "cities": len(g.cities_of(name)), "plants": tuple(plants),
            **g.tokens_of(name),
            **{f"storage_{k}": v for k, v in g.storage_of(name).items()},
            "can_power": pd.NA if is_trust else powered,
            "income_now": pd.NA if is_trust else g.income(powered),  # type: ignore[arg-type]
            "production": production(plants),
            "rank": pd.NA if is_trust else ranking.index(name) + 1,
            "is_current": name == current, "is_trust": is_trust,
            "still_in_auction": name in bidding, "bought_this_round": name in bought,
            "high_bidder": auction is not None and auction.leader == name,
            "must_discard": g.discarding == name,
        })
    ints = ["order", "seat", "money", "cities", *RESOURCES, *STORAGE_COLUMNS, "can_power", "income_now",
            "production", "rank"]
    bools = ["is_current", "is_trust", "still_in_auction", "bought_this_round", "high_bidder",
             "must_discard"]
    columns = ["player", *ints[:4], "plants", *ints[4:], *bools]
    dtypes = {"player": "string", **dict.fromkeys(ints, "Int64"), **dict.fromkeys(bools, bool)}
    return _typed(rows, columns, dtypes, index="player")


# --- plants ----------------------------------------------------------------------------------

def fuel_cost(g: Game, plant: int) -> int | None:
    """Cost at today's prices of one run of fuel for ``plant``: :meth:`Game.fuel_cost`."""
    return g.fuel_cost(plant)


def plants_frame(g: Game) -> pd.DataFrame:
    """One row per card of the plant market, cheapest first; the Step 3 card (when there) has
    ``plant`` <NA> and ``is_step3`` True. ``biddable_now``: the player to act may open it now."""
    columns = ["plant", "fuel", "tokens", "cities", "storage", "market", "position", "is_step3",
               "min_bid", "discounted", "biddable_now", "in_auction", "high_bid", "leader",
               "cities_per_token", "fuel_cost_now", "fuel_cost_per_city"]
    df = _typed(plants_rows(g), columns, {
        **dict.fromkeys(["plant", "tokens", "cities", "storage", "position", "min_bid", "high_bid",
                         "fuel_cost_now"], "Int64"),
        **dict.fromkeys(["is_step3", "discounted", "biddable_now", "in_auction"], bool),
        "cities_per_token": float, "fuel_cost_per_city": float, "leader": "string"})
    df["fuel"] = _fuel(list(df["fuel"]))
    df["market"] = _cat(list(df["market"]), ["current", "future"], ordered=True)
    return df


def plants_rows(g: Game) -> list[dict[str, Any]]:
    """The rows of :func:`plants_frame` as plain dicts (missing values <NA> or NaN): for code that
    reads them many times a second (the table's plant market), without building a frame."""
    current = g.current_market()
    choices = g.bid_choices()
    openable = {x for x, bids in choices.openings.items() if bids} if choices else set()
    auction, discount = g.auction, g.discount
    rows = []
    for pos, card in enumerate(current + g.future_market(), 1):
        row: dict[str, Any] = {"position": pos, "is_step3": card == STEP3,
                               "market": "current" if pos <= len(current) else "future"}
        if card == STEP3:
            row.update(plant=pd.NA, fuel=None, tokens=pd.NA, cities=pd.NA, storage=pd.NA,
                       min_bid=pd.NA, discounted=False, biddable_now=False, in_auction=False,
                       high_bid=pd.NA, leader=pd.NA, cities_per_token=float("nan"),
                       fuel_cost_now=pd.NA, fuel_cost_per_city=float("nan"))
        else:
            p = PLANTS[card]
            cost = fuel_cost(g, card)
            running = auction is not None and auction.plant == card
            row.update(plant=card, fuel=p.fuel, tokens=p.tokens, cities=p.cities, storage=p.storage,
                       min_bid=g.min_bid(card), discounted=card == discount,
                       biddable_now=card in openable, in_auction=running,
                       high_bid=auction.bid if running else pd.NA,  # type: ignore[union-attr]
                       leader=auction.leader if running else pd.NA,  # type: ignore[union-attr]
                       cities_per_token=p.cities / p.tokens if p.tokens else float("nan"),
                       fuel_cost_now=_na(cost),
                       fuel_cost_per_city=float("nan") if cost is None else cost / p.cities)
        rows.append(row)
    return rows


def owned_plants_frame(g: Game) -> pd.DataFrame:
    """One row per owned plant (owners in player order, plants by number) with the tokens shown
    on it (one legal placement, :func:`powergrid_nb.engine.rules.plants.allocate`); ``acquired``: 1 =
    oldest."""
    rows = []
    for name in g.player_order:
        taken = g.plants_in_order(name)
        placed = allocate(taken, list(g.tokens_of(name).values()))
        for n in sorted(taken):
            card = PLANTS[n]
            rows.append({"owner": name, "plant": n, "fuel": card.fuel, "tokens": card.tokens,
                         "cities": card.cities, "storage": card.storage, "acquired": taken.index(n) + 1,
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
    rules such as R125 included, R78-R81): :meth:`Game.next_refill`."""
    return g.next_refill()


def _held(g: Game) -> dict[str, int]:
    """Tokens of each resource on the participants' plants."""
    held = dict.fromkeys(RESOURCES, 0)
    for name in g.participants:
        for r, n in g.tokens_of(name).items():
            held[r] += n
    return held


def resources_frame(g: Game) -> pd.DataFrame:
    """Tidy market: one row per (resource, track space), cheapest space first (R115, R116), with
    the per-resource totals repeated on each row."""
    track, market, supply, held = g.resource_track, g.resource_market(), g.resource_supply(), _held(g)
    refill = g.next_refill()
    rows = []
    for k, r in enumerate(RESOURCES):
        n, nxt, depot = market[r], g.token_price(r), g.depot_price(r)
        rooms = [room for _, room in track.spaces_of[k]]
        for i, ((price, tokens), room) in enumerate(zip(track.spaces(k, n), rooms, strict=True), 1):
            rows.append({"resource": r, "space": i, "price": price, "capacity": room, "tokens": tokens,
                         "market_total": n, "held": held[r], "supply": supply[r],
                         "total": track.totals[k], "next_price": _na(nxt),
                         "depot_price": _na(depot), "refill_next": refill[r]})
    columns = ["resource", "space", "price", "capacity", "tokens", "market_total", "held", "supply",
               "total", "next_price", "depot_price", "refill_next"]
    df = _typed(rows, columns, dict.fromkeys(columns[1:], "Int64"))
    df["resource"] = _resource(list(df["resource"]))
    return df


def price_ladder_frame(g: Game) -> pd.DataFrame:
    """One row per (resource, k): the price of the k-th token bought now and the total for k
    (R50); after the track, tokens of a depot (R126) with ``source`` "depot"."""
    track, market, supply = g.resource_track, g.resource_market(), g.resource_supply()
    rows = []
    for k, r in enumerate(RESOURCES):
        ladder = [(p, "market") for p in track.price_ladder(k, market[r])]
        depot = g.depot_price(r)
        if depot is not None:
            ladder += [(depot, "depot")] * max(0, supply[r])
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
    slots = [f"slot_{p}" for p in g.rules.tables["build_prices"]]
    columns = ["city", "region", "lat", "lon", "in_play", "marked", "houses", *slots, "open_slots",
               "owners"] + (["build_cost", "affordable"] if player is not None else [])
    dtypes = {"city": "string", "lat": float, "lon": float, "in_play": bool, "marked": bool,
              "houses": "Int64", "open_slots": "Int64", "build_cost": "Int64", "affordable": bool,
              **dict.fromkeys(slots, "string")}
    df = _typed(cities_rows(g, player), columns, dtypes, index="city")
    df["region"] = _cat(list(df["region"]), g.map.regions)
    return df


def cities_rows(g: Game, player: str | None = None) -> list[dict[str, Any]]:
    """The rows of :func:`cities_frame` as plain dicts (missing values <NA>), without the frame."""
    slots = [f"slot_{p}" for p in g.rules.tables["build_prices"]]
    houses, in_play, marked, step = g.houses(), set(g.play_area), set(g.marked_cities), g.step
    costs = g.build_costs(player) if player is not None else {}
    money = g.money(player) if player is not None else 0
    rows = []
    for name, city in g.map.cities.items():
        owners = houses.get(name, [])
        playing = name in in_play
        row: dict[str, Any] = {
            "city": name, "region": city.region, "lat": city.lat, "lon": city.lon, "in_play": playing,
            "marked": name in marked, "houses": len(owners),
            **{c: owners[i] if i < len(owners) else pd.NA for i, c in enumerate(slots)},
            "open_slots": max(0, step - len(owners)) if playing else 0, "owners": tuple(owners)}
        if player is not None:
            cost = costs.get(name)
            row["build_cost"] = _na(cost)
            row["affordable"] = cost is not None and cost <= money
        rows.append(row)
    return rows


def connections_frame(g: Game) -> pd.DataFrame:
    """One row per connection of the map; ``in_play``: both ends in the play area (R4)."""
    return _typed(connections_rows(g), ["city_a", "city_b", "cost", "in_play"],
                  {"city_a": "string", "city_b": "string", "cost": "Int64", "in_play": bool})


def connections_rows(g: Game) -> list[dict[str, Any]]:
    """The rows of :func:`connections_frame` as plain dicts, without the frame."""
    inside = set(g.play_area)
    return [{"city_a": a, "city_b": b, "cost": c, "in_play": a in inside and b in inside}
            for a, b, c in g.map.connections]


# --- history ---------------------------------------------------------------------------------

def _tokens(t: tuple[int, ...] | None) -> dict[str, Any]:
    return {} if t is None else dict(zip(RESOURCES, t, strict=True))


# the typed columns each kind of event fills (every other column <NA> on its rows)
_FIELDS: dict[type[ev.Event], Callable[[Any], dict[str, Any]]] = {
    ev.Decision: lambda e: {"action": str(e.action)},
    ev.MarketAtRoundStart: lambda e: _tokens(e.tokens),
    ev.Discount: lambda e: {"plant": e.plant, "rule": e.rule},
    ev.PlantBought: lambda e: {"plant": e.plant, "price": e.price},
    ev.CardDrawn: lambda e: {"plant": e.plant},
    ev.PlantBoxed: lambda e: {"plant": e.plant, "rule": e.rule, "reason": e.reason, **_tokens(e.kept)},
    ev.PlantUnderDeck: lambda e: {"plant": e.plant},
    ev.TokensBought: lambda e: {"cost": e.cost, **_tokens(e.tokens)},
    ev.TrustFuel: lambda e: _tokens(e.tokens),
    ev.HouseBuilt: lambda e: {"city": e.city, "cost": e.cost},
    ev.PlantsRun: lambda e: {"plants": e.plants, "powered": e.powered, **_tokens(e.burnt)},
    ev.Income: lambda e: {"powered": e.powered, "income": e.income},
    ev.Refill: lambda e: {e.resource: e.tokens},
    ev.StepBegins: lambda e: {"rule": e.rule},
    ev.MapRuleApplied: lambda e: {"plant": e.plant, "rule": e.rule, "reason": e.reason},
}
_INTS = ["round", "phase", "step", "plant", "price", "cost", *RESOURCES, "powered", "income", "money_delta"]
_STRINGS = ["player", "action", "city", "rule", "reason", "text"]
HISTORY_COLUMNS = ["round", "phase", "phase_name", "step", "kind", "player", "action", "plant", "plants",
                   "price", "cost", "city", *RESOURCES, "powered", "income", "money_delta", "rule",
                   "reason", "text"]


def history_frame(g: Game) -> pd.DataFrame:
    """One row per history event (:attr:`Game.history`), oldest first; columns :data:`HISTORY_COLUMNS`.

    When: ``round``, ``phase`` (0-6), ``phase_name``, ``step``; what: ``kind`` (the event's
    ``kind``), ``player`` (who it is about, <NA> for the game's own doings), ``text`` (its sentence
    as the game log words it: "You buy 2 coal ..." for the seat named "You"), ``money_delta``
    (Elektro it moved to (+) or from (-) the player; 0 if none).
    The event's own fields, <NA> on rows of kinds without them: ``action`` (a decision's text form,
    ``str(action)``), ``plant`` (bought, drawn, boxed, under the deck, discounted or triggering a
    map rule; 99 is the Step 3 card), ``plants`` (the tuple run), ``price`` (paid for a plant),
    ``cost`` (paid for tokens or a house), ``city`` (built in), ``coal``..``uranium`` (tokens bought,
    taken by the Trust, burnt, kept when boxing, on the market as the round starts, or refilled),
    ``powered`` (cities), ``income``, ``rule`` and ``reason`` (why a card left, a step began...).
    """
    history = g.history
    data: dict[str, list[Any]] = {c: [None] * len(history) for c in HISTORY_COLUMNS}
    for i, e in enumerate(history):
        data["round"][i], data["phase"][i], data["step"][i] = e.round, e.phase, e.step
        data["kind"][i], data["player"][i], data["text"][i] = e.kind, e.who, sentence(e)
        data["money_delta"][i] = e.money_delta
        data["phase_name"][i] = PHASE_NAMES.get(e.phase)
        fill = _FIELDS.get(type(e))
        if fill is not None:
            for c, v in fill(e).items():
                data[c][i] = v
    df = pd.DataFrame({c: pd.Series(data[c], dtype="Int64" if c in _INTS else
                                    "string" if c in _STRINGS else object)
                       for c in HISTORY_COLUMNS}, columns=HISTORY_COLUMNS)
    df["phase_name"] = _phase_name(data["phase_name"])
    df["kind"] = _cat(data["kind"], ev.EVENT_TYPES)
    return df
