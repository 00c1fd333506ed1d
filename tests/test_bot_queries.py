"""The quick forms of the queries bots and agents ask agree with the engine's other answers, over whole
games.

``slot_price_row`` is ``slot_prices`` as a row, ``resource_counts`` is ``resource_market`` as a tuple,
``power_options`` gives what ``power_outcome`` gives for each legal run (R72-R77), a score is the most
cities any run the holdings allow powers (R99), ``bid_choices`` are the legal auction decisions in
short (R28-R35), and the deck's size and top and the boxed plants are what a player's observation shows.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from _helpers_props import game_params, label, make, play, props
from hypothesis import given

from powergrid_nb import Bid, Game, Open, Pass
from powergrid_nb.engine.rules.plants import production, run_options


def _check_position(g: Game, where: str) -> None:
    cities = g.distance_table()[0]
    assert g.resource_counts() == tuple(g.resource_market().values()), where
    for player in g.players:
        row, slots = g.slot_price_row(player), g.slot_prices(player)
        assert row == [slots.get(c) for c in cities], where
        mine = g.cities_of(player)
        if mine and not g.is_over:  # with cities queued this turn (R63), as a bot plans a turn
            after = [c for c, x in slots.items() if x is not None][:2]
            assert g.slot_price_row(player, after) == [g.slot_prices(player, after).get(c) for c in cities]


def _check_power(g: Game, where: str) -> None:
    acting = g.current_player
    for player in g.players:
        options = g.power_options(player)
        if g.phase != 5 or player != acting:
            assert options == [], where  # only the player to power has runs to choose from
            continue
        assert [a for a, _, _ in options] == g.legal_actions(), where
        for a, income, burnt in options:
            out = g.power_outcome(player, a.plants, a.hybrid_coal)
            assert (income, burnt) == (out.income, tuple(out.burn.values())), f"{a}: {where}"


def _each_decision(params: dict, check: Callable[[Game, str], None]) -> None:
    """A uniform-random game of ``params``, ``check(game, where)`` after each decision."""
    g = make(params)
    play(g, random.Random(params["seed"]), each=lambda h, a: check(h, f"after {a} in {label(params)}"))


@props(40)
@given(game_params())
def test_slot_row_and_resource_counts_match_their_dict_forms(params) -> None:
    _each_decision(params, _check_position)


@props(40)
@given(game_params())
def test_r72_r77_power_options_give_each_legal_runs_outcome(params) -> None:
    _each_decision(params, _check_power)


@props(30)
@given(game_params())
def test_r99_a_score_is_the_most_cities_any_feasible_run_powers(params) -> None:
    _each_decision(params, _check_score)


def _check_score(g: Game, where: str) -> None:
    scores = g.scores()
    for player in g.players:
        most = max((min(production(sub), g.city_count(player))
                    for sub, _ in run_options(g.plants_in_order(player), g.held(player))), default=0)
        assert scores[player] == max(most, 0), f"{player} {where}"


def _check_bids(g: Game, where: str) -> None:
    c = g.bid_choices()
    if g.is_over or g.phase != 2 or g.discarding is not None:
        assert c is None, where
        return
    who = g.current_player
    listed = [Bid(who, b) for b in c.raises]
    listed += [Open(who, plant, b) for plant, bids in c.openings.items() for b in bids]
    listed += [Pass(who)] if c.may_pass else []
    assert listed == g.legal_actions(), where
    assert not (c.raises and c.openings), where  # a running auction or openings, never both (R29)


def _check_cards(g: Game, where: str) -> None:
    st = g.observation(g.players[0], history=False)["state"]
    assert (g.deck_size, g.deck_top) == (st["deck"]["size"], st["deck"].get("top")), where
    assert len(g.boxed_plants()) == len(st.get("boxed") or ()), where


@props(40)
@given(game_params())
def test_r28_r35_bid_choices_are_the_legal_auction_decisions_in_short(params) -> None:
    _each_decision(params, _check_bids)


@props(30)
@given(game_params(trust=True))
def test_r28_r35_bid_choices_with_the_trust(params) -> None:
    _each_decision(params, _check_bids)


@props(30)
@given(game_params())
def test_the_deck_size_top_and_boxed_plants_are_what_an_observation_shows(params) -> None:
    _each_decision(params, _check_cards)
