"""pandas DataFrames of a game's course, read from its history (``g.history_frame()``).

Each function takes a :class:`~powergrid_nb.game.Game` and returns a fresh frame; nothing here
changes the game. Only the event log and the public API are read, so a game loaded from a
scenario with a partial (or empty) history works too: the frames start where the log starts,
and money and cities are anchored on the present (money now minus every logged payment/income).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from .plants import PLANTS, RESOURCES
from .resources import next_price

if TYPE_CHECKING:
    from .game import Game

__all__ = ["auctions_frame", "market_history_frame", "rounds_frame"]

_SPENT = {2: "paid_for_plants", 3: "paid_for_resources", 4: "paid_for_building"}


def _frame(rows: list[dict[str, Any]], dtypes: dict[str, Any]) -> pd.DataFrame:
    """A frame with these columns and dtypes, also for zero rows."""
    return pd.DataFrame({c: pd.Series([r[c] for r in rows], dtype=t) for c, t in dtypes.items()},
                        columns=list(dtypes))


def _participants(g: Game) -> list[str]:
    return g.players + ([g.trust] if g.trust else [])


def _events(g: Game) -> list[dict[str, Any]]:
    """The history as plain dicts (pandas NA turned into None)."""
    h = g.history_frame()
    return [{k: (None if v is pd.NA else v) for k, v in row.items()} for row in h.to_dict("records")]


def _rounds(g: Game, events: list[dict[str, Any]]) -> range:
    first = min((e["round"] for e in events), default=g.round)
    return range(min(first, g.round), g.round + 1)


def rounds_frame(g: Game) -> pd.DataFrame:
    """One row per (round, participant), rounds in order, participants as ``g.players`` then the Trust.

    Columns: ``round``, ``player``, ``is_trust``, ``money`` (at the end of the round; the current
    round: now), ``money_change`` (that round's payments plus income), ``income`` (Elektro earned
    in phase 5; <NA> if not earned (yet)), ``powered`` (cities powered; <NA> if not (yet) powered),
    ``cities`` (owned at the end of the round), ``new_cities``, ``plants_bought`` (plants taken,
    the Trust's too), ``paid_for_plants``, ``paid_for_resources``, ``paid_for_building`` (positive
    Elektro), ``in_progress`` (the round being played).
    """
    events = _events(g)
    rounds = _rounds(g, events)
    names = _participants(g)
    acc: dict[tuple[int, str], dict[str, Any]] = {
        (r, p): {"delta": 0, "income": None, "powered": None, "houses": 0, "plants": 0,
                 **dict.fromkeys(_SPENT.values(), 0)} for r in rounds for p in names}
    total_delta = dict.fromkeys(names, 0)
    total_houses = dict.fromkeys(names, 0)
    for e in events:
        key = (e["round"], e["player"])
        if key not in acc:
            continue
        a, kind = acc[key], e["kind"]
        a["delta"] += e["money_delta"] or 0
        total_delta[e["player"]] += e["money_delta"] or 0
        if kind == "income":
            a["income"] = (a["income"] or 0) + e["amount"]
        elif kind == "powered":
            a["powered"] = (a["powered"] or 0) + e["amount"]
        elif kind == "house":
            a["houses"] += 1
            total_houses[e["player"]] += 1
        elif kind == "plant":
            a["plants"] += 1
        elif kind == "pay":
            a[_SPENT.get(e["phase"], "paid_for_plants")] -= e["amount"]
    money = {p: g.money(p) - total_delta[p] for p in names}  # before the first logged event
    cities = {p: len(g.cities_of(p)) - total_houses[p] for p in names}
    rows = []
    for r in rounds:
        for p in names:
            a = acc[(r, p)]
            money[p] += a["delta"]
            cities[p] += a["houses"]
            rows.append({"round": r, "player": p, "is_trust": p == g.trust, "money": money[p],
                         "money_change": a["delta"], "income": a["income"], "powered": a["powered"],
                         "cities": cities[p], "new_cities": a["houses"], "plants_bought": a["plants"],
                         **{c: a[c] for c in _SPENT.values()},
                         "in_progress": r == g.round and not g.is_over})
    ints = ["round", "money", "money_change", "income", "powered", "cities", "new_cities",
            "plants_bought", *_SPENT.values()]
    dtypes = {**dict.fromkeys(ints, "Int64"), "player": "string", "is_trust": bool, "in_progress": bool}
    order = ["round", "player", "is_trust", "money", "money_change", "income", "powered", "cities",
             "new_cities", "plants_bought", *_SPENT.values(), "in_progress"]
    return _frame(rows, {c: dtypes[c] for c in order})


def market_history_frame(g: Game) -> pd.DataFrame:
    """One row per (round, resource) for every round whose start is in the history.

    Columns: ``round``, ``resource`` (ordered categorical coal < oil < garbage < uranium),
    ``tokens`` (on the market as the round starts), ``next_price`` (of the next token then, R117;
    <NA> when none is left), ``refilled`` (tokens the phase-5 refill of that round moved; <NA>
    before it happens).
    """
    events = _events(g)
    start: dict[int, list[int]] = {}
    refilled: dict[tuple[int, str], int] = {}
    for e in events:
        if e["kind"] == "market" and e["round"] not in start:
            counts = [int(x) for x in str(e["detail"]).split() if x.lstrip("-").isdigit()]
            if len(counts) == len(RESOURCES):
                start[e["round"]] = counts
        elif e["kind"] == "refill" and e["detail"] in RESOURCES:
            key = (e["round"], e["detail"])
            refilled[key] = refilled.get(key, 0) + e["amount"]
    rows = [{"round": r, "resource": res, "tokens": n, "next_price": next_price(k, n),
             "refilled": refilled.get((r, res))}
            for r in sorted(start) for k, (res, n) in enumerate(zip(RESOURCES, start[r], strict=True))]
    df = _frame(rows, {"round": "Int64", "resource": object, "tokens": "Int64", "next_price": "Int64",
                       "refilled": "Int64"})
    df["resource"] = pd.Categorical(list(df["resource"]), categories=list(RESOURCES), ordered=True)
    return df


def auctions_frame(g: Game) -> pd.DataFrame:
    """One row per plant taken (auction sales and the Trust's takes), oldest first.

    Columns: ``round``, ``step``, ``player``, ``plant``, ``fuel``, ``cities`` (the card's),
    ``price`` (Elektro paid: the ``pay`` event "buys plant N" logged with the sale; 0 for the
    Trust), ``face_value`` (= the plant number, the ordinary minimum bid R28), ``premium``
    (price − face value), ``discounted`` (paid below face value: the Recharged discount, R40),
    ``trust`` (a Trust take, R130).
    """
    events = _events(g)
    rows = []
    for i, e in enumerate(events):
        if e["kind"] != "plant" or e["player"] is None:
            continue
        plant, trust = int(e["amount"]), e["player"] == g.trust
        price = 0  # the engine logs no payment of 0
        for prev in reversed(events[:i]):
            if prev["kind"] == "plant" or prev["round"] != e["round"]:
                break
            if prev["kind"] == "pay" and prev["player"] == e["player"] \
                    and prev["detail"] == f"buys plant {plant}":
                price = -int(prev["amount"])
                break
        card = PLANTS.get(plant)
        rows.append({"round": e["round"], "step": e["step"], "player": e["player"], "plant": plant,
                     "fuel": card.fuel if card else None, "cities": card.cities if card else None,
                     "price": price, "face_value": plant, "premium": price - plant,
                     "discounted": price < plant and not trust, "trust": trust})
    return _frame(rows, {"round": "Int64", "step": "Int64", "player": "string", "plant": "Int64",
                         "fuel": "string", "cities": "Int64", "price": "Int64", "face_value": "Int64",
                         "premium": "Int64", "discounted": bool, "trust": bool})
