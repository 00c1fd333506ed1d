"""pandas DataFrames of a game's course, read from its typed history (:attr:`Game.history`).

Each function takes a :class:`~powergrid_nb.engine.game.Game` and returns a fresh frame; nothing here
changes the game. Only the events' fields and the public API are read, so a game loaded from a
scenario with a partial (or empty) history works too: the frames start where the log starts,
and money and cities are anchored on the present (money now minus every logged ``money_delta``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from powergrid_nb.engine.events import (
    Event,
    HouseBuilt,
    Income,
    MarketAtRoundStart,
    PlantBought,
    PlantsRun,
    PlayerOrder,
    Refill,
    TokensBought,
)
from powergrid_nb.engine.rules.plants import PLANTS, RESOURCES

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["auctions_frame", "market_history_frame", "rounds_frame"]

SPENT = ("paid_for_plants", "paid_for_resources", "paid_for_building")


def _frame(rows: list[dict[str, Any]], dtypes: dict[str, Any]) -> pd.DataFrame:
    """A frame with these columns and dtypes, also for zero rows."""
    return pd.DataFrame({c: pd.Series([r[c] for r in rows], dtype=t) for c, t in dtypes.items()},
                        columns=list(dtypes))


def _rounds(g: Game, history: list[Event]) -> range:
    first = history[0].round if history else g.round
    return range(min(first, g.round), g.round + 1)


def rounds_frame(g: Game) -> pd.DataFrame:
    """One row per (round, participant), rounds in order, participants as ``g.participants`` (the Trust
    last).

    Columns: ``round``, ``player``, ``is_trust``, ``place`` (in the round's player order, 1 = first:
    the last order set in the round, the one phases 3-5 use, R18-R22; <NA> if the history has no order
    for that round), ``money`` (at the end of the round; the current
    round: now), ``money_change`` (that round's payments plus income), ``income`` (Elektro earned
    in phase 5; <NA> if not earned (yet)), ``powered`` (cities powered; <NA> if not (yet) powered),
    ``cities`` (owned at the end of the round), ``new_cities``, ``plants_bought`` (plants taken,
    the Trust's too), ``paid_for_plants``, ``paid_for_resources``, ``paid_for_building`` (positive
    Elektro), ``in_progress`` (the round being played).
    """
    history = g.history
    rounds = _rounds(g, history)
    names = g.participants
    acc: dict[tuple[int, str | None], dict[str, Any]] = {
        (r, p): {"delta": 0, "income": None, "powered": None, "houses": 0, "plants": 0,
                 **dict.fromkeys(SPENT, 0)} for r in rounds for p in names}
    total_delta = dict.fromkeys(names, 0)
    total_houses = dict.fromkeys(names, 0)
    place: dict[tuple[int, str], int] = {}
    for e in history:
        if isinstance(e, PlayerOrder):
            place.update({(e.round, p): i for i, p in enumerate(e.order, 1)})
            continue
        a = acc.get((e.round, e.who))
        if a is None:
            continue
        who = str(e.who)
        a["delta"] += e.money_delta
        total_delta[who] += e.money_delta
        if isinstance(e, Income):
            a["income"] = (a["income"] or 0) + e.income
        elif isinstance(e, PlantsRun):
            a["powered"] = (a["powered"] or 0) + e.powered
        elif isinstance(e, HouseBuilt):
            a["houses"] += 1
            a["paid_for_building"] += e.cost
            total_houses[who] += 1
        elif isinstance(e, PlantBought):
            a["plants"] += 1
            a["paid_for_plants"] += e.price
        elif isinstance(e, TokensBought):
            a["paid_for_resources"] += e.cost
    money = {p: g.money(p) - total_delta[p] for p in names}  # before the first logged event
    cities = {p: len(g.cities_of(p)) - total_houses[p] for p in names}
    live = not g.is_over
    rows = []
    for r in rounds:
        for p in names:
            a = acc[(r, p)]
            money[p] += a["delta"]
            cities[p] += a["houses"]
            rows.append({"round": r, "player": p, "is_trust": p == g.trust, "place": place.get((r, p)),
                         "money": money[p],
                         "money_change": a["delta"], "income": a["income"], "powered": a["powered"],
                         "cities": cities[p], "new_cities": a["houses"], "plants_bought": a["plants"],
                         **{c: a[c] for c in SPENT}, "in_progress": live and r == g.round})
    ints = ["round", "place", "money", "money_change", "income", "powered", "cities", "new_cities",
            "plants_bought", *SPENT]
    dtypes = {**dict.fromkeys(ints, "Int64"), "player": "string", "is_trust": bool, "in_progress": bool}
    order = ["round", "player", "is_trust", "place", "money", "money_change", "income", "powered", "cities",
             "new_cities", "plants_bought", *SPENT, "in_progress"]
    return _frame(rows, {c: dtypes[c] for c in order})


def market_history_frame(g: Game) -> pd.DataFrame:
    """One row per (round, resource) for every round whose start is in the history.

    Columns: ``round``, ``resource`` (ordered categorical coal < oil < garbage < uranium),
    ``tokens`` (on the market as the round starts), ``next_price`` (of the next token then, R117;
    <NA> when none is left), ``refilled`` (tokens the phase-5 refill of that round moved; <NA>
    before it happens).
    """
    start: dict[int, tuple[int, ...]] = {}
    refilled: dict[tuple[int, str], int] = {}
    for e in g.history:
        if isinstance(e, MarketAtRoundStart):
            start.setdefault(e.round, e.tokens)
        elif isinstance(e, Refill):
            key = (e.round, e.resource)
            refilled[key] = refilled.get(key, 0) + e.tokens
    track = g.resource_track
    rows = [{"round": r, "resource": res, "tokens": n, "next_price": track.next_price(k, n),
             "refilled": refilled.get((r, res))}
            for r in sorted(start) for k, (res, n) in enumerate(zip(RESOURCES, start[r], strict=True))]
    df = _frame(rows, {"round": "Int64", "resource": object, "tokens": "Int64", "next_price": "Int64",
                       "refilled": "Int64"})
    df["resource"] = pd.Categorical(list(df["resource"]), categories=list(RESOURCES), ordered=True)
    return df


def auctions_frame(g: Game) -> pd.DataFrame:
    """One row per plant taken (auction sales and the Trust's takes), oldest first.

    Columns: ``round``, ``step``, ``player``, ``plant``, ``fuel``, ``cities`` (the card's),
    ``price`` (Elektro paid; 0 for the Trust), ``face_value`` (= the plant number, the ordinary
    minimum bid R28), ``premium`` (price − face value), ``discounted`` (paid below face value: the
    Recharged discount, R40), ``trust`` (a Trust take, R130).
    """
    rows = []
    for e in g.history:
        if not isinstance(e, PlantBought):
            continue
        plant, price, trust = e.plant, e.price, e.player == g.trust
        card = PLANTS.get(plant)
        rows.append({"round": e.round, "step": e.step, "player": e.player, "plant": plant,
                     "fuel": card.fuel if card else None, "cities": card.cities if card else None,
                     "price": price, "face_value": plant, "premium": price - plant,
                     "discounted": price < plant and not trust, "trust": trust})
    return _frame(rows, {"round": "Int64", "step": "Int64", "player": "string", "plant": "Int64",
                         "fuel": "string", "cities": "Int64", "price": "Int64", "face_value": "Int64",
                         "premium": "Int64", "discounted": bool, "trust": bool})
