"""Steps and transitions: RULES.md §8 R88-R95 (O11, O12, O13); worked examples W20, W21, W22, W24."""

from __future__ import annotations

import pytest
from _helpers_steps import (
    S3,
    build_turn,
    done_phase,
    events,
    filler,
    pass_phase2,
    power_none,
    refills,
    scenario,
    to_phase,
)
from _position import assert_illegal

from powergrid_nb import Build, Open, Pass, new_game
from powergrid_nb.engine.rules.plants import STEP3

M8 = [13, 14, 15, 16, 17, 18, 19, 20]
BIG = [40, 42, 44, 46]  # the only deck cards left besides the Step 3 card: replacements never interfere


def _boxes(g, since=0):
    return [e.plant for e in events(g, "box", since)]


# --- R88 Step 1 -----------------------------------------------------------------------------------

def test_R88_new_game_starts_in_step1():
    """R88: the game starts in Step 1."""
    for edition in ("original", "recharged"):
        g = new_game(4, edition=edition, seed=5, regions=["cyan", "red", "yellow", "blue"])
        assert g.step == 1


def test_R88_step1_one_house_per_city_first_house_10():
    """R88: Step 1 allows 1 house per city; a first house costs 10."""
    g = scenario(phase=4, step=1, market=M8)
    assert g.build_cost("Dee", "Essen") == 10
    build_turn(g, "Essen")
    assert g.money("Dee") == 40
    assert g.build_cost("Cy", "Essen") is None
    assert_illegal(g, Build("Cy", "Essen"), "R58")


def test_R88_step1_refill_column():
    """R88: Step 1 uses the Step-1 refill column (4p: 5 / 3 / 2 / 1)."""
    g = scenario(phase=5, step=1, market=M8)
    power_none(g)
    assert refills(g) == [5, 3, 2, 1]


# --- R89 Step 2 / W20 -----------------------------------------------------------------------------

def test_W20_step2_start_before_phase5_boxes_lowest_and_uses_step2_refill():
    """W20 / R89: at the end of phase 4 a player with 7 cities starts Step 2: box the lowest current
    plant, draw a replacement, and refill with the Step-2 column (4p: 6 / 4 / 3 / 2)."""
    g = scenario(phase=4, step=1, market=M8, deck=[30, *BIG], rest="removed", cities={"Ada": filler(7)})
    done_phase(g)
    assert (g.phase, g.step) == (5, 2)
    assert _boxes(g) == [13]
    assert g.s.market == [14, 15, 16, 17, 18, 19, 20, 30]
    power_none(g)
    assert refills(g) == [6, 4, 3, 2]


def test_W20_players_still_to_build_stay_at_one_house_per_city():
    """W20 / R89: the 7th city built early in phase 4 does not start Step 2 during that phase 4."""
    g = scenario(phase=4, step=1, market=M8, cities={"Dee": filler(6)}, money={"Dee": 300})
    build_turn(g, "Essen")
    assert len(g.cities_of("Dee")) == 7
    assert (g.step, g.current_player) == (1, "Cy")
    assert g.build_cost("Cy", "Essen") is None
    assert_illegal(g, Build("Cy", "Essen"), "R58")
    done_phase(g)
    assert g.step == 2


def test_R89_several_players_trigger_step2_once():
    """R89: several players at the threshold still start Step 2 only once (one plant boxed)."""
    g = scenario(phase=4, step=1, market=M8, deck=BIG, rest="removed",
                 cities={"Ada": filler(7), "Bo": filler(8, start=7)})
    done_phase(g)
    assert [e.new_step for e in events(g, "step")] == [2]
    assert _boxes(g) == [13]


def test_R89_below_threshold_stays_in_step1():
    """R89: with 6 cities (4p threshold 7) the game stays in Step 1 and refills from the Step-1 column."""
    g = scenario(phase=4, step=1, market=M8, cities={"Ada": filler(6)})
    to_phase(g, 5)
    assert g.step == 1 and _boxes(g) == []
    power_none(g)
    assert refills(g) == [5, 3, 2, 1]


@pytest.mark.parametrize(("players", "edition", "threshold"),
                         [(2, "original", 10), (3, "original", 7), (6, "original", 6), (4, "recharged", 7)])
def test_R89_threshold_from_player_count_table(players, edition, threshold):
    """R89 / R105-R106: the Step-2 threshold of the player-count table."""
    for cities, step in ((threshold - 1, 1), (threshold, 2)):
        g = scenario(players, edition, phase=4, step=1, market=M8, cities={"Ada": filler(cities)})
        done_phase(g)
        assert g.step == step, (cities, g.step)


def test_R89_second_house_for_15_from_next_phase4():
    """R89 / W20: after the Step-2 start a second house may be built in a city for 15 (+ links)."""
    g = scenario(phase=4, step=1, market=M8, cities={"Ada": filler(7), "Bo": ["Essen"], "Cy": ["Duisburg"]})
    to_phase(g, 4)
    assert (g.round, g.step) == (3, 2)
    build_turn(g)  # Dee
    assert g.current_player == "Cy"
    assert g.build_cost("Cy", "Essen") == 15  # Duisburg-Essen costs 0
    build_turn(g, "Essen")
    assert g.money("Cy") == 50 + 10 - 15


# --- R90 / W21: Step 3 card drawn in phase 2 ------------------------------------------------------

def _r90(step=2, edition="original", **kw):
    g = scenario(edition=edition, phase=2, step=step, market=M8, deck=[S3, *BIG], rest="removed", **kw)
    g.apply(Open("Ada", 13, 13))
    while g.s.auction is not None:
        g.apply(Pass(g.current_player))
    return g


def test_W21_step3_card_placed_as_highest_card_of_future_market():
    """W21 / R90 / R12: the Step 3 card goes in the market as the highest card; phase 2 goes on."""
    g = _r90()
    assert g.s.market == [14, 15, 16, 17, 18, 19, 20, STEP3]
    assert g.current_market() == [14, 15, 16, 17]
    assert g.future_market()[-1] == STEP3
    assert (g.phase, g.step, g.current_player) == (2, 2, "Bo")


def test_R90_deck_shuffled_when_step3_card_drawn():
    """R90: the deck is shuffled at once (same cards, new order)."""
    g = scenario(phase=2, step=2, market=M8, deck=[S3])  # all other cards below it, ascending
    before = [c for c in g.s.deck if c != STEP3]
    g.apply(Open("Ada", 13, 13))
    pass_phase2(g)
    assert sorted(g.s.deck) == sorted(before) and g.s.deck != before


def test_R90_step3_card_cannot_be_opened():
    """R28 / R90: the Step 3 card is never selectable."""
    g = _r90()
    assert not any(isinstance(a, Open) and a.plant == STEP3 for a in g.legal_actions())
    assert_illegal(g, Open("Bo", STEP3, 50), "R28")


def test_R90_phase2_continues_with_replacements():
    """R90: later sales in this phase 2 are replaced from the (shuffled) deck."""
    g = _r90()
    top = g.s.deck[0]
    g.apply(Open("Bo", 14, 14))
    while g.s.auction is not None:
        g.apply(Pass(g.current_player))
    assert events(g, "draw")[-1].plant == top
    assert g.s.market == sorted([15, 16, 17, 18, 19, 20, top]) + [STEP3]


def test_W21_end_of_phase2_boxes_lowest_and_step3_card_six_current_plants():
    """W21 / R90 / R93: at the end of phase 2 the lowest plant and the Step 3 card are boxed, no
    replacement; Step 3 begins with phase 3: 6 plants, all in the current market."""
    g = _r90()
    pass_phase2(g)
    assert _boxes(g)[-2:] == [STEP3, 14]
    assert (g.phase, g.step) == (3, 3)
    assert g.current_market() == [15, 16, 17, 18, 19, 20]
    assert g.future_market() == []


def test_W21_step3_rules_from_phase3_refill_and_third_house():
    """W21 / R90 / R93: Step 3 from phase 3: third house (20) in phase 4, Step-3 refill 4 / 5 / 4 / 2."""
    g = _r90(cities={"Bo": ["Essen"], "Cy": ["Essen"], "Dee": ["Duisburg"]})
    pass_phase2(g)
    done_phase(g)
    assert g.build_cost("Dee", "Essen") == 20
    build_turn(g, "Essen")
    done_phase(g)
    power_none(g)
    assert refills(g) == [4, 5, 4, 2]


def test_O7d_recharged_R43_runs_before_R90_cleanup():
    """O7(d) / R43 / R90: the unsold discounted plant is boxed and replaced first, then the lowest
    plant and the Step 3 card are boxed."""
    g = scenario(edition="recharged", phase=2, step=2, market=M8, deck=[S3, *BIG], rest="removed",
                 discount=13)
    g.apply(Open("Ada", 14, 14))
    while g.s.auction is not None:
        g.apply(Pass(g.current_player))
    pass_phase2(g)
    assert _boxes(g) == [13, STEP3, 15]
    assert len(g.s.market) == 6 and g.s.market[:5] == [16, 17, 18, 19, 20]
    assert g.step == 3


# --- R91 / W24 / O11: Step 3 card drawn in phase 4 [ORIG] -----------------------------------------

def _r91():
    return scenario(phase=4, step=2, market=[10, *M8[:7]], deck=[S3, *BIG], rest="removed",
                    cities={"Ada": ["Essen"], "Bo": ["Essen"], "Cy": ["Duisburg"], "Dee": filler(9)},
                    money={"Dee": 300})


def test_W24_step3_card_drawn_by_R68_in_phase4_boxed_at_once_with_lowest():
    """W24 / R91: R68 boxes 10, the replacement is the Step 3 card: it and the lowest plant are
    boxed at once without replacement; the deck is shuffled; 6 plants remain (8 - 1 + 1 - 2)."""
    g = _r91()
    g.apply(Build("Dee", "Düsseldorf"))  # Dee's 10th city
    assert _boxes(g) == [10, STEP3, 13]
    assert g.s.market == [14, 15, 16, 17, 18, 19]
    assert sorted(g.s.deck) == BIG and g.s.deck != BIG
    assert (g.phase, g.step) == (4, 2)


def test_O11a_capacity_unchanged_for_rest_of_phase4():
    """W24 / O11(a): players still to build in this phase 4 stay at 2 houses per city (Step 2)."""
    g = _r91()
    build_turn(g, "Düsseldorf")
    assert g.current_player == "Cy"
    assert g.build_cost("Cy", "Essen") is None
    assert_illegal(g, Build("Cy", "Essen"), "R58")


def test_O11b_phase5_of_this_round_uses_step3_refill_and_update():
    """W24 / R91 / O11(b): Step 3 from phase 5 of this round: refill 4 / 5 / 4 / 2, R85 update."""
    g = _r91()
    build_turn(g, "Düsseldorf")
    done_phase(g)
    assert (g.phase, g.step) == (5, 3)
    n = len(g.history)
    power_none(g)
    assert refills(g) == [4, 5, 4, 2]
    assert _boxes(g, n) == [14]  # R85: box the lowest, draw one
    assert len(g.s.market) == 6 and g.s.market[:5] == [15, 16, 17, 18, 19]


def test_O11c_R68_keeps_running_with_replacements_from_shuffled_deck():
    """O11(c): after the Step 3 card, R68 goes on in the same phase 4, replacing from the deck."""
    g = scenario(phase=4, step=2, market=M8, deck=[S3, *BIG], rest="removed",
                 cities={"Dee": filler(12)}, money={"Dee": 500})
    g.apply(Build("Dee", "Essen"))  # 13th city: 13 boxed, Step 3 card drawn, 14 boxed with it
    assert _boxes(g) == [13, STEP3, 14]
    top = g.s.deck[0]
    g.apply(Build("Dee", "Duisburg", "Düsseldorf"))  # 15th city: 15 is too small
    assert _boxes(g)[-1] == 15
    assert g.s.market == sorted([16, 17, 18, 19, 20, top])


def test_O11d_step2_threshold_in_same_phase4_applies_step2_first():
    """O11(d) / R94: Step 3 card drawn in phase 4 of Step 1 while a player reaches 7 cities: Step-2
    effects (box lowest, draw) come first, then Step 3 (refill 4 / 5 / 4 / 2)."""
    g = scenario(phase=4, step=1, market=[7, *M8[:7]], deck=[S3, *BIG], rest="removed",
                 cities={"Dee": filler(6)}, money={"Dee": 300})
    build_turn(g, "Essen")  # 7 is too small: replaced by the Step 3 card, boxed with 13
    assert _boxes(g) == [7, STEP3, 13]
    done_phase(g)
    assert [e.new_step for e in events(g, "step")] == [2, 3]
    assert _boxes(g)[-1] == 14
    assert (g.phase, g.step, len(g.s.market)) == (5, 3, 6)
    power_none(g)
    assert refills(g) == [4, 5, 4, 2]


# --- R92 / W22 / O12: Step 3 card drawn in phase 5 ------------------------------------------------

def test_W22_step3_card_drawn_in_phase5_update():
    """W22 / R92: 3p, Step 2; the R84 draw is the Step 3 card: it and the lowest plant are boxed
    without replacement, 6 plants remain, this refill used the Step-2 column (5 / 3 / 2 / 1), and
    Step 3 (refill 3 / 4 / 3 / 1) starts with phase 1 of the next round."""
    g = scenario(3, phase=5, step=2, market=M8, deck=[S3, *BIG], rest="removed")
    power_none(g)
    assert refills(g) == [5, 3, 2, 1]
    assert [e.plant for e in events(g, "under")] == [20]
    assert _boxes(g) == [STEP3, 13]
    assert all(e.step == 2 for e in events(g, "box"))
    assert sorted(g.s.deck) == sorted([20, *BIG]) and g.s.deck[-1] != 20  # shuffled
    step3 = events(g, "step")
    assert [(e.new_step, e.round, e.phase) for e in step3] == [(3, 3, 1)]
    assert g.current_market() == [14, 15, 16, 17, 18, 19]
    to_phase(g, 5)
    power_none(g)
    assert refills(g) == [3, 4, 3, 1]


def test_O12_step3_card_drawn_as_step2_replacement():
    """O12 / R92: the Step-2 start draws the Step 3 card: boxed with the lowest plant; this phase 5
    still refills from the Step-2 column and does the R84 update; 6 cards (4 + 2) until Step 3."""
    g = scenario(phase=4, step=1, market=M8, deck=[S3, *BIG], rest="removed", cities={"Ada": filler(7)})
    done_phase(g)
    assert _boxes(g) == [13, STEP3, 14]
    assert (g.phase, g.step) == (5, 2)
    assert g.current_market() == [15, 16, 17, 18] and g.future_market() == [19, 20]
    power_none(g)
    assert refills(g) == [6, 4, 3, 2]
    assert [e.plant for e in events(g, "under")] == [20]
    assert (g.round, g.step) == (3, 3)
    assert len(g.current_market()) == 6 and g.current_market()[:5] == [15, 16, 17, 18, 19]


# --- R94: Step 3 before Step 2 --------------------------------------------------------------------

def test_R94_step3_card_in_step1_phase2_applies_step2_effects_first():
    """R94 / R90: Step 3 card drawn in phase 2 of Step 1: at the end of phase 2 first box the lowest
    and draw (Step 2), then box the lowest and the Step 3 card; Step 3 from phase 3."""
    g = _r90(step=1)
    pass_phase2(g)
    assert [e.new_step for e in events(g, "step")] == [2, 3]
    boxes = _boxes(g)
    assert boxes[0] == 14 and boxes[1:] == [STEP3, 15]
    assert (g.phase, g.step, len(g.current_market())) == (3, 3, 6)


def test_R94_step3_card_in_step1_phase5():
    """R94 / R92: drawn in phase 5 of Step 1: next round starts Step 2 effects, then Step 3."""
    g = scenario(phase=5, step=1, market=M8, deck=[S3, *BIG], rest="removed")
    power_none(g)
    assert refills(g) == [5, 3, 2, 1]
    assert [(e.new_step, e.round, e.phase) for e in events(g, "step")] == [(2, 3, 1), (3, 3, 1)]
    assert _boxes(g) == [STEP3, 13, 14]
    assert len(g.current_market()) == 6


def test_R94_step2_threshold_never_checked_in_step3():
    """R94: once in Step 3 the Step-2 threshold is not checked again (only the R85 box)."""
    g = scenario(phase=4, step=3, market=M8[:6], boxed=[S3], deck=BIG, rest="removed",
                 cities={"Ada": filler(7)})
    done_phase(g)
    assert events(g, "step") == [] and _boxes(g) == []
    power_none(g)
    assert _boxes(g) == [13]


# --- R93 / R95 / O13 --------------------------------------------------------------------------------

def test_R93_step3_market_six_current_plants_all_biddable():
    """R93: in Step 3 all (up to 6) plants are in the current market and biddable."""
    g = scenario(phase=2, step=3, market=M8[:6], boxed=[S3], deck=BIG, rest="removed")
    assert g.current_market() == M8[:6] and g.future_market() == []
    g.apply(Open("Ada", 18, 18))
    assert g.auction.plant == 18


def test_R95_sale_not_replaced_when_deck_empty():
    """R95: in Step 3 with an empty deck a sold plant is not replaced."""
    g = scenario(phase=2, step=3, market=M8[:6], boxed=[S3], rest="removed")
    assert g.s.deck == []
    g.apply(Open("Ada", 18, 18))
    while g.s.auction is not None:
        g.apply(Pass(g.current_player))
    assert g.s.market == [13, 14, 15, 16, 17] and events(g, "draw") == []


def test_R95_phase5_boxes_lowest_without_replacement():
    """R95 / R85: every phase 5 still boxes the lowest plant; the market shrinks."""
    g = scenario(phase=5, step=3, market=M8[:6], boxed=[S3], rest="removed")
    power_none(g)
    assert g.s.market == [14, 15, 16, 17, 18]


@pytest.mark.parametrize("edition", ["original", "recharged"])
def test_O13_empty_market_skips_auction(edition):
    """O13: with an empty market phase 2 is skipped; [RECH] no discount token is placed."""
    g = scenario(edition=edition, phase=5, step=3, market=[30], boxed=[S3], rest="removed")
    power_none(g)
    assert g.s.market == []
    assert (g.round, g.phase) == (3, 3)
    assert g.s.discount is None and events(g, "discount") == []


def test_O13_fewer_plants_than_players_nothing_left_to_open():
    """O13 / R95: when the market runs dry in phase 2 the others can only pass."""
    g = scenario(phase=2, step=3, market=[30], boxed=[S3], rest="removed")
    g.apply(Open("Ada", 30, 30))
    while g.s.auction is not None:
        g.apply(Pass(g.current_player))
    assert g.current_player == "Bo"
    assert g.legal_actions() == [Pass("Bo")]
    pass_phase2(g)
    assert g.phase == 3
