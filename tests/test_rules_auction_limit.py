"""RULES.md §4 Phase 2 — auction power plants, part 2: plant limit R36-R37, no purchase R38-R39,
discount token R40-R44 [RECH]; W18, W19."""

from __future__ import annotations

import pytest
from _helpers_setup import (
    EDITIONS,
    buy_uncontested,
    everyone_drops,
    finish_phases_3_to_5,
    scenario,
)
from _position import assert_illegal

from powergrid_nb import Discard, Open, Pass, new_game
from powergrid_nb.engine.events import Discount, PlantBoxed
from powergrid_nb.engine.phases.resources import supply
from powergrid_nb.engine.rules.plants import STEP3

W19_MARKET = [4, 6, 8, 9, 10, 11, 12, 13]


def _boxes(g):
    return [(e.plant, e.rule) for e in g.history if isinstance(e, PlantBoxed)]


def _supply(g):
    return supply(g.s.res, [sum(t[k] for t in g.s.tokens) for k in range(4)])


# --- R36-R37 plant limit ---------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_R36_plant_limit_discard_not_the_new_plant(edition):
    """R36: over the limit the buyer MUST box one previously owned plant, never the new one."""
    g = scenario(edition, 4, round=2, plants={"Ada": [11, 12, 13]})
    buy_uncontested(g, 3)
    assert g.current_player == "Ada" and g.phase == 2
    legal = g.legal_actions()
    assert all(isinstance(a, Discard) for a in legal) and {a.plant for a in legal} == {11, 12, 13}
    e = assert_illegal(g, Discard("Ada", 3), "R36")
    assert str(e).startswith("Ada: discard 3")
    assert_illegal(g, Pass("Ada"), "R36")
    assert_illegal(g, Open("Ada", 4, 4), "R36")
    assert_illegal(g, Discard("Ada", 20), "R36")
    assert_illegal(g, Open("Bo", 4, 4), "R14")
    g.apply(Discard("Ada", 12))
    assert g.plants_of("Ada") == [3, 11, 13] and 12 in g.s.boxed
    assert g.current_player == "Bo"


@pytest.mark.parametrize("edition", EDITIONS)
def test_R36_no_discard_request_when_nobody_is_over_the_limit(edition):
    """R36: a Discard when nobody is over the limit is illegal."""
    g = scenario(edition, 4, round=2, plants={"Ada": [11, 12]})
    assert_illegal(g, Discard("Ada", 11), "R36")
    buy_uncontested(g, 3)
    assert g.plants_of("Ada") == [3, 11, 12] and g.current_player == "Bo"


@pytest.mark.parametrize("edition", EDITIONS)
def test_R37_discard_keeps_tokens_that_fit_rest_to_supply(edition):
    """R37/O10: after the discard the player keeps what fits (default: the most); the rest goes to
    the supply, never to the market."""
    g = scenario(edition, 4, round=2, plants={"Ada": [4, 8, 10]}, tokens={"Ada": {"coal": 10}},
                 resources={"coal": 14}, market=[13, 14, 15, 16, 17, 18, 19, 20])
    buy_uncontested(g, 13)
    market, sup = list(g.s.res), _supply(g)
    assert sup[0] == 0
    g.apply(Discard("Ada", 8))
    assert g.tokens_of("Ada")["coal"] == 8
    assert g.s.res == market and _supply(g)[0] == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_R37_player_may_keep_fewer_but_not_more_than_fits(edition):
    """R37/O10: any legal subset may be kept; keeping more than the remaining plants hold is illegal."""
    g = scenario(edition, 4, round=2, plants={"Ada": [4, 8, 10]}, tokens={"Ada": {"coal": 10}},
                 resources={"coal": 14}, market=[13, 14, 15, 16, 17, 18, 19, 20])
    buy_uncontested(g, 13)
    assert_illegal(g, Discard("Ada", 8, (9, 0, 0, 0)), "R37")
    assert_illegal(g, Discard("Ada", 8, (0, 1, 0, 0)), "R37")
    g.apply(Discard("Ada", 8, (5, 0, 0, 0)))
    assert g.tokens_of("Ada") == {"coal": 5, "oil": 0, "garbage": 0, "uranium": 0}
    assert _supply(g)[0] == 5


@pytest.mark.parametrize("edition", EDITIONS)
def test_R37_every_maximal_keep_offered_default_keeps_higher_priced_type_O10(edition):
    """R37/O10: with several maximal keeps the player chooses (all offered); the automated default
    keeps the type whose market price is higher (here oil at 5 over coal at 3)."""
    g = scenario(edition, 4, round=2, plants={"Ada": [3, 4, 5]}, tokens={"Ada": {"coal": 6, "oil": 6}},
                 resources={"coal": 18, "oil": 12}, market=[13, 14, 15, 16, 17, 18, 19, 20])
    buy_uncontested(g, 13)
    keeps = {a.keep for a in g.legal_actions() if a.plant == 3}
    assert keeps == {(6, 2, 0, 0), (5, 3, 0, 0), (4, 4, 0, 0)}
    g.apply(Discard("Ada", 3))
    assert g.tokens_of("Ada") == {"coal": 4, "oil": 4, "garbage": 0, "uranium": 0}


# --- R38-R39 no plant bought ------------------------------------------------------------------------

def test_R38_no_purchase_boxes_lowest_original():
    """R38 [ORIG]: after round 1, if nobody bought a plant, box the lowest and draw a replacement."""
    g = scenario("original", 4, round=2, deck_top=[25])
    for n in ("Ada", "Bo", "Cy", "Dee"):
        g.apply(Pass(n))
    assert g.phase == 3
    assert _boxes(g) == [(3, "R38")]
    assert g.s.market == [4, 5, 6, 7, 8, 9, 10, 25]


def test_R38_not_applied_when_a_plant_was_bought_original():
    """R38 [ORIG]: one purchase is enough: nothing is boxed at the end of phase 2."""
    g = scenario("original", 4, round=2, deck_top=[25, 26])
    buy_uncontested(g, 5)
    for n in ("Bo", "Cy", "Dee"):
        g.apply(Pass(n))
    assert g.phase == 3 and _boxes(g) == [] and g.s.market == [3, 4, 6, 7, 8, 9, 10, 25]


def test_R39_recharged_no_purchase_boxes_only_once():
    """R39/O8 [RECH]: R38 is not applied separately; R43 alone removes one plant."""
    g = scenario("recharged", 4, round=2, deck_top=[25, 26])
    for n in ("Ada", "Bo", "Cy", "Dee"):
        g.apply(Pass(n))
    assert _boxes(g) == [(3, "R43")]
    assert g.s.market == [4, 5, 6, 7, 8, 9, 10, 25]


# --- R40-R44 discount token [RECH] ------------------------------------------------------------------

def test_R40_discount_token_on_lowest_current_plant_every_phase2():
    """R40: at the start of every phase 2 the token goes on the lowest current plant: bid from 1."""
    g = new_game(4, edition="recharged", seed=19)
    low = g.current_market()[0]
    assert g.s.discount == low and g.min_bid(low) == 1
    assert [g.min_bid(p) for p in g.current_market()[1:]] == g.current_market()[1:]
    while g.phase == 2:
        buy_uncontested(g, g.current_market()[-1])
    finish_phases_3_to_5(g)
    assert g.round == 2
    assert g.s.discount == g.current_market()[0] and g.min_bid(g.s.discount) == 1
    assert [e.round for e in g.history if isinstance(e, Discount) and e.plant is not None] == [1, 2]


def test_R41_discounted_plant_bought_token_removed():
    """R41: buying the discounted plant (here for 1 E) removes the token."""
    g = scenario("recharged", 4, round=2, market=W19_MARKET, deck_top=[20])
    assert_illegal(g, Open("Ada", 4, 0), "R28")
    g.apply(Open("Ada", 4, 1))
    everyone_drops(g)
    assert g.plants_of("Ada") == [4] and g.money("Ada") == 49
    assert g.s.discount is None and g.min_bid(6) == 6


def test_R42_first_replacement_below_discount_is_boxed():
    """R42: the first replacement lower than the discounted plant is boxed, the token removed
    (its plant back to its normal minimum) and another card drawn."""
    g = scenario("recharged", 4, round=2, market=W19_MARKET, deck_top=[3, 20])
    buy_uncontested(g, 6)
    assert _boxes(g) == [(3, "R42")]
    assert g.s.discount is None and g.min_bid(4) == 4
    assert g.s.market == [4, 8, 9, 10, 11, 12, 13, 20]


def test_R42_only_the_first_replacement_is_tested_O7a():
    """R42/O7a: a lower card drawn as the second replacement of the phase stays; token stays."""
    g = scenario("recharged", 4, round=2, market=W19_MARKET, deck_top=[20, 3, 21])
    buy_uncontested(g, 6)
    buy_uncontested(g, 8)
    assert _boxes(g) == [] and g.s.discount == 4
    assert g.current_market() == [3, 4, 9, 10]


def test_R42_every_draw_tested_with_option_O7a():
    """R42/O7a: option discount_test='every' tests every draw while the token lies."""
    g = scenario("recharged", 4, round=2, market=W19_MARKET, deck_top=[20, 3, 21], discount_test="every")
    buy_uncontested(g, 6)
    buy_uncontested(g, 8)
    assert _boxes(g) == [(3, "R42")] and g.s.discount is None
    assert g.s.market == [4, 9, 10, 11, 12, 13, 20, 21]


def test_R42_step3_card_never_triggers_O7b():
    """R42/O7b: the Step 3 card counts as higher than every plant."""
    g = scenario("recharged", 4, round=2, market=W19_MARKET, deck_top=[STEP3])
    buy_uncontested(g, 6)
    assert STEP3 in g.s.market and g.s.discount == 4 and _boxes(g) == []


def test_R43_unsold_discount_plant_boxed():
    """R43: still unsold at the end of phase 2, the discounted plant is boxed and replaced."""
    g = scenario("recharged", 4, round=2, market=W19_MARKET, deck_top=[20, 21])
    buy_uncontested(g, 6)
    for n in ("Bo", "Cy", "Dee"):
        g.apply(Pass(n))
    assert g.phase == 3 and _boxes(g) == [(4, "R43")]
    assert g.s.market == [8, 9, 10, 11, 12, 13, 20, 21] and g.s.discount is None


def test_R43_unsold_discount_plant_boxed_in_round_1():
    """R43: also in round 1, when every player bought another plant."""
    g = scenario("recharged", 4, deck_top=[20, 21, 22, 23, 24])
    for plant in (4, 5, 6, 7):
        buy_uncontested(g, plant)
    assert _boxes(g) == [(3, "R43")]
    assert g.s.market == [8, 9, 10, 20, 21, 22, 23, 24]


def test_R43_before_step3_cleanup_O7d():
    """R43/O7d: with the Step 3 card out this phase 2, R43 is done before the R90 clean-up."""
    g = scenario("recharged", 4, round=2, market=W19_MARKET, deck_top=[STEP3])
    buy_uncontested(g, 6)
    for n in ("Bo", "Cy", "Dee"):
        g.apply(Pass(n))
    boxed = [b for b, _ in _boxes(g)]
    assert boxed[0] == 4 and STEP3 in boxed and STEP3 not in g.s.market


def test_R44_discount_meaningless_outside_phase2():
    """R44: after phase 2 there is no discount: minimum bids are the plant numbers again."""
    g = scenario("recharged", 4, round=2, market=W19_MARKET, deck_top=[20])
    buy_uncontested(g, 8)
    for n in ("Bo", "Cy", "Dee"):
        g.apply(Pass(n))
    assert g.phase == 3 and g.s.discount is None
    assert [g.min_bid(p) for p in g.current_market()] == g.current_market()


def test_R44_original_has_no_discount_token():
    """R122 D4 / R40: the original edition never places the token."""
    g = new_game(4, seed=19)
    assert g.s.discount is None and g.min_bid(3) == 3
    assert not [e for e in g.history if isinstance(e, Discount)]


# --- Worked examples ---------------------------------------------------------------------------------

def test_W18_original_2p_limit_4():
    """W18 [ORIG] 2p: a 4th plant needs no discard; with a 5th one of the 4 old ones is boxed."""
    g = scenario("original", 2, round=2, plants={"Ada": [11, 12, 13]})
    buy_uncontested(g, 3)
    assert g.plants_of("Ada") == [3, 11, 12, 13] and g.current_player == "Bo"
    g = scenario("original", 2, round=2, plants={"Ada": [11, 12, 13, 14]})
    buy_uncontested(g, 3)
    assert {a.plant for a in g.legal_actions()} == {11, 12, 13, 14}
    assert_illegal(g, Discard("Ada", 3), "R36")
    g.apply(Discard("Ada", 14))
    assert g.plants_of("Ada") == [3, 11, 12, 13]


@pytest.mark.parametrize(("edition", "players"), [("original", 3), ("original", 4), ("original", 5),
                                                  ("original", 6), ("recharged", 2), ("recharged", 3),
                                                  ("recharged", 4), ("recharged", 5), ("recharged", 6)])
def test_W18_limit_3_fourth_plant_forces_discard(edition, players):
    """W18: 3-6 players (or Recharged): owning 3 and buying a 4th forces boxing one of the 3."""
    g = scenario(edition, players, round=2, plants={"Ada": [11, 12, 13]})
    buy_uncontested(g, 3)
    assert g.current_player == "Ada" and {a.plant for a in g.legal_actions()} == {11, 12, 13}
    assert_illegal(g, Discard("Ada", 3), "R36")
    g.apply(Discard("Ada", 11))
    assert g.plants_of("Ada") == [3, 12, 13]


def test_W19_discount_token():
    """W19: market 04 06 08 09: token on 04 (bid 1), 06 costs 6; 06 sold, 03 drawn -> 03 boxed, token
    removed (04 back to 4), another card drawn; an unsold discounted 04 is boxed and replaced."""
    g = scenario("recharged", 4, round=1, phase=5, to_act=[], market=W19_MARKET, deck_top=[14, 3, 20])
    assert (g.round, g.phase) == (2, 2)  # R84 put 13 under the deck and drew 14
    assert g.current_market() == [4, 6, 8, 9] and g.s.discount == 4
    assert (g.min_bid(4), g.min_bid(6)) == (1, 6)
    opener = g.current_player
    g.apply(Open(opener, 6, 6))
    everyone_drops(g)
    assert _boxes(g) == [(3, "R42")] and g.s.discount is None and g.min_bid(4) == 4
    assert g.s.market == [4, 8, 9, 10, 11, 12, 14, 20]
    g = scenario("recharged", 4, round=2, market=W19_MARKET, deck_top=[21])
    for n in ("Ada", "Bo", "Cy", "Dee"):
        g.apply(Pass(n))
    assert _boxes(g) == [(4, "R43")] and 4 not in g.s.market and 21 in g.s.market
