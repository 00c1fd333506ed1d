"""RULES.md §4 Phase 2 — auction power plants, part 1: R24-R35 (and the Trust in phase 2, R130).

R36-R44, W18 and W19 are in test_rules_auction_limit.py.
"""

from __future__ import annotations

import pytest
from _helpers_setup import EDITIONS, area_cities, buy_uncontested, everyone_drops, scenario
from _position import assert_illegal

from powergrid_nb import Bid, Game, Open, Pass, new_game
from powergrid_nb.engine.events import CardDrawn, PlantBought
from powergrid_nb.engine.rules.plants import STEP3


def _bidders(g):
    return list(g.auction.bidders)


@pytest.mark.parametrize("edition", EDITIONS)
def test_R24_at_most_one_plant_per_round(edition):
    """R24: a player acquires at most one plant per round; after buying they are never asked again."""
    g = scenario(edition, 4, round=2)
    asked = []
    buy_uncontested(g, 3)
    while g.phase == 2:
        asked.append(g.current_player)
        if g.current_player == "Bo" and g.s.auction is None:
            g.apply(Open("Bo", 4, g.min_bid(4)))
        else:
            g.apply(Pass(g.current_player))
    assert "Ada" not in asked
    assert g.plants_of("Ada") == [3] and g.plants_of("Bo") == [4]
    assert [e.player for e in g.history if e.kind == "plant"] == ["Ada", "Bo"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R25_buyer_cannot_bid_in_later_auctions(edition):
    """R25: a player who bought this round is not a bidder of later auctions; bidding is rejected."""
    g = scenario(edition, 4, round=2)
    buy_uncontested(g, 3)
    g.apply(Open("Bo", 4, 4))
    assert _bidders(g) == ["Cy", "Dee", "Bo"]
    assert_illegal(g, Bid("Ada", 10), "R14")
    assert_illegal(g, Open("Ada", 5, 5), "R14")


@pytest.mark.parametrize("edition", EDITIONS)
def test_R26_opener_is_first_active_player_in_order(edition):
    """R26: the opener is the first still-active player in player order; they open or pass."""
    g = scenario(edition, 4, round=2, order=["Cy", "Ada", "Dee", "Bo"], seats=["Ada", "Bo", "Cy", "Dee"])
    assert g.current_player == "Cy"
    kinds = {type(a) for a in g.legal_actions()}
    assert kinds == {Open, Pass} and all(a.player == "Cy" for a in g.legal_actions())
    g.apply(Pass("Cy"))
    assert g.current_player == "Ada"


@pytest.mark.parametrize("edition", EDITIONS)
def test_R26_bid_without_running_auction_rejected(edition):
    """R26: with no auction running the opener must open or pass; a bare bid is illegal."""
    g = scenario(edition, 4, round=2)
    assert_illegal(g, Bid("Ada", 5), "R26")


@pytest.mark.parametrize("omit", ["auction_round", "seat_order"])
def test_R26_scenario_defaults_start_phase2_with_first_in_order(omit):
    """R26 + brief: a phase-2 scenario may omit auction_round (everyone active, first in player
    order opens) and seat_order (seats default to the player order, O3)."""
    d = new_game(4, seed=7).to_dict()
    st = d["state"]
    st["round"] = 2
    del st[omit]
    g = Game.from_dict(d)
    assert g.current_player == st["player_order"][0]
    assert g.s.active == g.s.order
    assert g.seat_order == st.get("seat_order", st["player_order"])


@pytest.mark.parametrize("edition", EDITIONS)
def test_R27_passing_the_phase_ends_participation(edition):
    """R27: a player who passes the phase takes no part in later auctions and gets no plant."""
    g = scenario(edition, 4, round=2)
    g.apply(Pass("Ada"))
    g.apply(Open("Bo", 4, 4))
    assert _bidders(g) == ["Cy", "Dee", "Bo"]
    everyone_drops(g)
    while g.phase == 2:
        assert g.current_player != "Ada"
        g.apply(Pass(g.current_player))
    assert g.plants_of("Ada") == [] and g.money("Ada") == 50


@pytest.mark.parametrize("edition", EDITIONS)
def test_R28_future_market_plant_rejected(edition):
    """R28: only current-market plants may be opened (never the future market)."""
    g = scenario(edition, 4, round=2)
    assert g.future_market() == [7, 8, 9, 10]
    e = assert_illegal(g, Open("Ada", 8, 8), "R28")
    assert "future market" in str(e)
    assert_illegal(g, Open("Ada", 30, 30), "R28")
    assert_illegal(g, "Ada: open 9 at 12", "R28")


@pytest.mark.parametrize("edition", EDITIONS)
def test_R28_step3_card_never_selectable(edition):
    """R28: the Step 3 card in the market cannot be opened."""
    g = scenario(edition, 4, round=2, deck_top=[STEP3])
    buy_uncontested(g, 3)
    assert STEP3 in g.s.market
    assert all(not (isinstance(a, Open) and a.plant == STEP3) for a in g.legal_actions())
    assert_illegal(g, Open("Bo", STEP3, 40), "R28")


@pytest.mark.parametrize("edition", EDITIONS)
def test_R28_bid_below_minimum_rejected_above_allowed(edition):
    """R28: the opening bid is at least the plant's number; opening above it is allowed."""
    g = scenario(edition, 4, round=2, discount=None)
    assert_illegal(g, Open("Ada", 5, 4), "R28")
    assert min(a.bid for a in g.legal_actions() if isinstance(a, Open) and a.plant == 5) == 5
    g.apply(Open("Ada", 5, 11))
    everyone_drops(g)
    assert g.plants_of("Ada") == [5] and g.money("Ada") == 39


@pytest.mark.parametrize("edition", EDITIONS)
def test_R29_bidding_goes_clockwise_by_seat_O3(edition):
    """R29/O3: after the opener, bids go clockwise by seat, not by player order."""
    g = scenario(edition, 4, round=2, order=["Ada", "Bo", "Cy", "Dee"], seats=["Ada", "Dee", "Bo", "Cy"])
    g.apply(Open("Ada", 3, 3))
    assert everyone_drops(g) == ["Dee", "Bo", "Cy"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R29_bidding_by_player_order_option_O3(edition):
    """R29/O3: option bidding='order' rotates bids by player order instead."""
    g = scenario(edition, 4, round=2, order=["Ada", "Bo", "Cy", "Dee"], seats=["Ada", "Dee", "Bo", "Cy"],
                 bidding="order")
    g.apply(Open("Ada", 3, 3))
    assert everyone_drops(g) == ["Bo", "Cy", "Dee"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R29_rotation_continues_until_one_bidder_remains(edition):
    """R29/R30: raisers stay in the rotation; the last bidder left pays the high bid."""
    g = scenario(edition, 4, round=2, discount=None)
    steps = [Open("Ada", 3, 3), Bid("Bo", 4), Bid("Cy", 5), Pass("Dee"), Bid("Ada", 6), Pass("Bo"),
             Bid("Cy", 7)]
    for a in steps:
        assert g.current_player == a.player
        g.apply(a)
    assert g.current_player == "Ada"
    g.apply(Pass("Ada"))
    assert g.s.auction is None and g.plants_of("Cy") == [3] and g.money("Cy") == 43
    assert [g.money(n) for n in ("Ada", "Bo", "Dee")] == [50, 50, 50]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R29_bid_not_above_current_rejected(edition):
    """R29/O26: a raise must be above the high bid (at least +1)."""
    g = scenario(edition, 4, round=2)
    g.apply(Open("Ada", 4, 6))
    assert_illegal(g, Bid("Bo", 6), "R29")
    assert_illegal(g, Bid("Bo", 5), "R29")
    assert min(a.amount for a in g.legal_actions() if isinstance(a, Bid)) == 7
    g.apply(Bid("Bo", 7))
    assert g.auction.bid == 7


@pytest.mark.parametrize("edition", EDITIONS)
def test_R29_opening_during_an_auction_rejected(edition):
    """R29: while an auction runs the bidder raises or drops out; opening another is illegal."""
    g = scenario(edition, 4, round=2)
    g.apply(Open("Ada", 4, 4))
    assert_illegal(g, Open("Bo", 5, 5), "R29")


@pytest.mark.parametrize("edition", EDITIONS)
def test_R29_dropping_out_does_not_end_the_phase(edition):
    """R29: a player who drops out of an auction may open a later one."""
    g = scenario(edition, 4, round=2)
    g.apply(Open("Ada", 4, 4))
    g.apply(Pass("Bo"))
    everyone_drops(g)
    assert g.plants_of("Ada") == [4] and g.current_player == "Bo"
    g.apply(Open("Bo", 5, 5))
    everyone_drops(g)
    assert g.plants_of("Bo") == [5]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R30_unraised_opener_buys_at_opening_bid(edition):
    """R30: nobody outbids the opener: they pay their opening bid to the bank and take the plant."""
    g = scenario(edition, 4, round=2, discount=None)
    g.apply(Open("Ada", 6, 9))
    everyone_drops(g)
    assert g.plants_of("Ada") == [6] and g.money("Ada") == 41
    assert [e.money_delta for e in g.history if e.who == "Ada" and e.money_delta] == [-9]
    assert [(e.plant, e.price) for e in g.history if isinstance(e, PlantBought)] == [(6, 9)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R31_bid_above_cash_rejected(edition):
    """R31/O2: no opening bid or raise may exceed the bidder's money; exactly all of it is fine."""
    g = scenario(edition, 4, round=2, money={"Ada": 20, "Bo": 12})
    assert_illegal(g, Open("Ada", 4, 21), "R31")
    assert max(a.bid for a in g.legal_actions() if isinstance(a, Open)) == 20
    g.apply(Open("Ada", 4, 10))
    assert_illegal(g, Bid("Bo", 13), "R31")
    assert max(a.amount for a in g.legal_actions() if isinstance(a, Bid)) == 12
    g.apply(Bid("Bo", 12))
    everyone_drops(g)
    assert g.plants_of("Bo") == [4] and g.money("Bo") == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_R32_top_card_drawn_after_each_sale(edition):
    """R32: right after a sale the top deck card enters the market, sorted."""
    g = scenario(edition, 4, round=2, deck_top=[22, 16])
    size = len(g.s.deck)
    buy_uncontested(g, 4)
    assert g.s.market == [3, 5, 6, 7, 8, 9, 10, 22] and len(g.s.deck) == size - 1
    assert [e.plant for e in g.history if isinstance(e, CardDrawn)] == [22]
    assert g.s.deck[0] == 16


@pytest.mark.parametrize("edition", EDITIONS)
def test_R32_empty_deck_draws_nothing(edition):
    """R32: if the deck is empty nothing is drawn; the market shrinks."""
    g = scenario(edition, 4, round=2, deck=[])
    buy_uncontested(g, 4)
    assert g.s.market == [3, 5, 6, 7, 8, 9, 10] and g.s.deck == []


def test_R32_original_replacement_checked_by_R68():
    """R32 [ORIG]: after the draw, R68 boxes a too-small replacement and draws again."""
    c = area_cities("original")
    g = scenario("original", 4, round=2, market=[7, 8, 9, 10, 11, 12, 13, 14], deck_top=[5, 20],
                 cities={"Bo": c[:6]})
    buy_uncontested(g, 7)
    assert 5 in g.s.boxed and g.s.market == [8, 9, 10, 11, 12, 13, 14, 20]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R33_opener_who_won_next_active_opens(edition):
    """R33: if the opener won, the next still-active player in player order opens."""
    g = scenario(edition, 4, round=2, order=["Dee", "Bo", "Ada", "Cy"], seats=["Ada", "Bo", "Cy", "Dee"])
    buy_uncontested(g, 4)
    assert g.plants_of("Dee") == [4] and g.current_player == "Bo"


@pytest.mark.parametrize("edition", EDITIONS)
def test_R33_opener_may_open_again_after_losing(edition):
    """R33/C5: if another player won, the same opener may open another auction or pass."""
    g = scenario(edition, 4, round=2)
    g.apply(Open("Ada", 4, 4))
    g.apply(Bid("Bo", 5))
    everyone_drops(g)
    assert g.plants_of("Bo") == [4] and g.current_player == "Ada"
    assert Pass("Ada") in g.legal_actions() and Open("Ada", 5, 5) in g.legal_actions()
    g.apply(Open("Ada", 5, 5))
    everyone_drops(g)
    assert g.plants_of("Ada") == [5]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R34_last_opener_gets_plant_at_min_bid(edition):
    """R34: the last active player's auction has no rivals: the plant is theirs at once."""
    g = scenario(edition, 4, round=2, discount=None)
    for n in ("Ada", "Bo", "Cy"):
        g.apply(Pass(n))
    g.apply(Open("Dee", 6, 6))
    assert g.s.auction is None and g.plants_of("Dee") == [6] and g.money("Dee") == 44
    assert g.phase == 3


@pytest.mark.parametrize("edition", EDITIONS)
def test_R34_last_buyer_of_round1_not_asked_to_bid(edition):
    """R34: in round 1 the fourth opener buys at once (nobody else is active)."""
    g = scenario(edition, 4, discount=None)
    for plant in (4, 5, 6):
        buy_uncontested(g, plant)
    assert g.current_player == "Dee"
    g.apply(Open("Dee", 7, 7))
    assert g.phase == 3 and g.plants_of("Dee") == [7] and g.money("Dee") == 43


@pytest.mark.parametrize("edition", EDITIONS)
def test_R35_no_pass_in_round_1(edition):
    """R35: in round 1 passing the phase is forbidden; dropping out of an auction is allowed."""
    g = scenario(edition, 4)
    assert Pass("Ada") not in g.legal_actions()
    e = assert_illegal(g, Pass("Ada"), "R35")
    assert str(e).startswith("Ada: pass")
    assert_illegal(g, "Ada: pass", "R35")
    g.apply(Open("Ada", 4, 4))
    assert Pass("Bo") in g.legal_actions()
    g.apply(Pass("Bo"))
    assert g.current_player == "Cy"


@pytest.mark.provisional
def test_R130_trust_takes_largest_current_plant_free():
    """R130/O22: after the first player's auction the Trust takes the 4th current plant, free."""
    g = scenario("recharged", 2, market=[3, 4, 5, 6, 7, 8, 9, 10], deck_top=[20, 21, 22])
    assert g.player_order == ["Ada", "Trust", "Bo"]
    g.apply(Open("Ada", 5, 5))
    g.apply(Pass("Bo"))
    assert g.plants_of("Ada") == [5]
    assert g.plants_of("Trust") == [7] and g.money("Trust") == 0
    assert g.current_player == "Bo"


@pytest.mark.provisional
def test_R130_trust_never_bids():
    """R130/O22: the Trust is never asked to bid in an auction."""
    g = scenario("recharged", 2)
    g.apply(Open("Ada", 5, 5))
    assert _bidders(g) == ["Bo", "Ada"]
    assert_illegal(g, Bid("Trust", 6), "R5")
