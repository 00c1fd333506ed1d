"""history_frame (powergrid_nb/frames.py): one row per typed event, its fields as typed columns."""

from __future__ import annotations

import random
import re

import pandas as pd
from test_frames import START_MONEY, played, positions  # the same cached random games

from powergrid_nb import frames as F
from powergrid_nb import new_game
from powergrid_nb.engine.gamelog import sentence
from powergrid_nb.engine.rules.plants import RESOURCES


def test_history_frame_money_delta_sums_to_money():
    """Every Elektro moved is in some event's money_delta: deltas sum to money minus the start money."""
    for g in positions():
        df = F.history_frame(g)
        assert len(df) == len(g.history)
        sums = df.groupby("player")["money_delta"].sum()
        for name in g.players:
            assert sums.get(name, 0) == g.money(name) - START_MONEY
        assert list(df["money_delta"]) == [e.money_delta for e in g.history]


def test_history_frame_when_who_and_kind_follow_events():
    g = played("recharged", "germany", 6, ())[0][-1]
    df = F.history_frame(g)
    for row, e in zip(df.itertuples(index=False), g.history, strict=True):
        assert (row.round, row.phase, row.step, row.kind) == (e.round, e.phase, e.step, e.kind)
        assert (pd.isna(row.player) if e.who is None else row.player == e.who)
    assert df.loc[df["phase"] == 4, "phase_name"].eq("building").all()
    assert df.loc[df["phase"] == 2, "phase_name"].eq("auction").all()


def test_history_frame_columns_and_dtypes():
    """The typed columns, nullable: Int64 numbers, strings, categorical kind and phase name."""
    df = F.history_frame(played("original", "usa", 3, ())[0][-1])
    assert list(df.columns) == F.HISTORY_COLUMNS == [
        "round", "phase", "phase_name", "step", "kind", "player", "action", "plant", "plants", "price",
        "cost", "city", "coal", "oil", "garbage", "uranium", "powered", "income", "money_delta", "rule",
        "reason", "text"]
    ints = ["round", "phase", "step", "plant", "price", "cost", *RESOURCES, "powered", "income",
            "money_delta"]
    assert all(str(df[c].dtype) == "Int64" for c in ints)
    assert all(str(df[c].dtype) == "string" for c in ("player", "action", "city", "rule", "reason", "text"))
    assert set(df["kind"].cat.categories) >= {"decision", "plant", "buy", "house", "powered", "income"}


def test_history_frame_text_is_each_events_sentence():
    g = played("recharged", "usa", 4, ())[0][-1]
    df = F.history_frame(g)
    assert df["text"].iloc[0] == "Round 1 begins."
    bought = df[df["kind"] == "plant"]
    assert len(bought) and all(
        t == (f"{p} buys plant {n} for {c} Elektro." if c else f"{p} takes plant {n}.")
        for t, p, n, c in zip(*(bought[k] for k in ("text", "player", "plant", "price")), strict=True))


def _rows_of(g, kind: str) -> tuple[pd.DataFrame, list]:
    df = F.history_frame(g)
    return df[df["kind"] == kind], [e for e in g.history if e.kind == kind]


def test_history_frame_plant_rows_hold_plant_and_price():
    g = played("recharged", "germany", 6, ())[0][-1]
    rows, events = _rows_of(g, "plant")
    assert len(events) > 10
    assert list(zip(rows["plant"], rows["price"], strict=True)) == [(e.plant, e.price) for e in events]
    assert list(rows["money_delta"]) == [-e.price for e in events]
    assert F.history_frame(g).loc[lambda d: d["kind"] != "plant", "price"].isna().all()


def test_history_frame_buy_rows_hold_tokens_and_cost():
    g = played("original", "usa", 3, ())[0][-1]
    rows, events = _rows_of(g, "buy")
    assert len(events) > 5
    assert [tuple(r) for r in rows[list(RESOURCES)].itertuples(index=False)] == [e.tokens for e in events]
    assert list(rows["cost"]) == [e.cost for e in events]


def test_history_frame_house_rows_hold_city_and_cost():
    g = played("original", "usa", 3, ())[0][-1]
    rows, events = _rows_of(g, "house")
    assert list(zip(rows["city"], rows["cost"], strict=True)) == [(e.city, e.cost) for e in events]
    assert len(events) == sum(len(g.cities_of(n)) for n in g.players)


def test_history_frame_power_rows_hold_plants_burnt_tokens_powered_and_income():
    g = played("original", "germany", 2, ())[0][-1]
    rows, events = _rows_of(g, "powered")
    assert list(rows["plants"]) == [e.plants for e in events]
    assert list(rows["powered"]) == [e.powered for e in events]
    assert [tuple(r) for r in rows[list(RESOURCES)].itertuples(index=False)] == [e.burnt for e in events]
    income, paid = _rows_of(g, "income")
    assert list(zip(income["powered"], income["income"], income["money_delta"], strict=True)) == \
        [(e.powered, e.income, e.income) for e in paid]


def test_history_frame_refill_rows_fill_their_resource_column_only():
    g = played("original", "germany", 2, ())[0][-1]
    rows, events = _rows_of(g, "refill")
    assert events
    for (_, row), e in zip(rows.iterrows(), events, strict=True):
        assert row[e.resource] == e.tokens
        assert all(pd.isna(row[r]) for r in RESOURCES if r != e.resource)


def test_history_frame_rule_rows_name_the_rule():
    """Steps, boxed cards and discounts carry the rule (and boxed cards the reason) they follow."""
    g = played("recharged", "germany", 6, ())[0][-1]
    df = F.history_frame(g)
    for kind in ("step", "box", "discount"):
        rows, events = _rows_of(g, kind)
        assert events and list(rows["rule"]) == [e.rule for e in events]
    rows, events = _rows_of(g, "box")
    assert list(rows["reason"]) == [e.reason for e in events]
    assert df.loc[df["kind"] == "decision", "rule"].isna().all()


def test_history_frame_action_column_holds_decisions_only() -> None:
    """The history frame's ``action`` column is the decision's text form, NA for engine events."""
    from powergrid_nb import new_game

    g = new_game(3, seed=5)
    first = g.legal_actions()[0]
    g.apply(first)
    h = g.history_frame()
    decisions = h[h["action"].notna()]
    assert list(decisions["action"]) == [str(first)]
    assert decisions.iloc[0]["player"] == first.player
    assert h[h["kind"] == "draw"]["action"].isna().all()


def test_history_frame_text_addresses_the_seat_named_you_as_the_log_does():
    g = new_game(["You", "Bo", "Cy"], seed=1)
    rng = random.Random(1)
    for _ in range(120):
        g.apply(rng.choice(g.legal_actions()))
    df = F.history_frame(g)
    mine = df.loc[df["player"] == "You", "text"].tolist()
    assert mine and all(t.startswith(("You ", "Your ")) for t in mine)
    assert not [t for t in mine if re.match(r"You (bids|passes|is|buys|opens|has)\b", t)]
    assert list(df["text"]) == [sentence(e) for e in g.history]  # the game log's words, event by event
