"""RULES.md §1 Setup (R1-R12), §10 player-count table (R105-R107), §13 initial resource market
(R112-R114), §15 plant deck (R118-R121), §16 edition differences (R122-R123); W3, W17."""

from __future__ import annotations

import itertools

import pytest
from _helpers_setup import (
    CARD_TABLE,
    COUNTS,
    DECK_PLANTS,
    EDITIONS,
    PLUG,
    TABLE,
    buy_uncontested,
    row,
    scenario,
)

from powergrid_nb import PLANTS, Power, new_game
from powergrid_nb.engine.board.maps import MapError
from powergrid_nb.engine.editions import get_edition
from powergrid_nb.engine.phases.resources import TOTALS, next_price, spaces, supply
from powergrid_nb.engine.rules.plants import ALL_CARDS, STEP3, capacities, fits, needs, production

ALL_PLANTS = [*range(3, 41), 42, 44, 46, 50]
GRID = list(itertools.product(EDITIONS, COUNTS))


def _supply(g):
    return supply(g.s.res, [sum(t[k] for t in g.s.tokens) for k in range(4)])


# --- §1 Setup ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("edition", "players"), GRID)
def test_R1_43_cards_42_plants_and_step3_all_accounted_for(edition, players):
    """R1: 42 plants 03-40, 42, 44, 46, 50 plus one Step 3 card, each exactly once at set-up."""
    g = new_game(players, edition=edition, seed=3)
    cards = g.s.market + g.s.deck + g.s.removed
    assert sorted(cards) == [*ALL_PLANTS, STEP3]
    assert len(cards) == 43


@pytest.mark.parametrize("edition", EDITIONS)
def test_R1_84_tokens_and_22_houses_are_hard_limits(edition):
    """R1: 24 coal, 24 oil, 24 garbage, 12 uranium; 22 houses per player (R67)."""
    g = new_game(3, edition=edition, seed=3)
    assert TOTALS == (24, 24, 24, 12)
    assert [m + s for m, s in zip(g.s.res, _supply(g), strict=True)] == [24, 24, 24, 12]
    assert g.ctx.max_cities == 22


@pytest.mark.parametrize("edition", EDITIONS)
def test_R2_bank_is_unlimited_income_always_paid(edition):
    """R2/O2: the bank never runs out: six players with 1000 E each still get their 10 E."""
    names = ["Ada", "Bo", "Cy", "Dee", "Eli", "Fay"]
    g = scenario(edition, 6, round=2, phase=5, money=dict.fromkeys(names, 1000))
    for n in g.player_order:
        g.apply(Power(n))
    assert [g.money(n) for n in names] == [1010] * 6


@pytest.mark.parametrize(("edition", "players"), GRID)
def test_R3_regions_count_and_connected(edition, players):
    """R3 (R105/R106, O5): 3/3/4/5/5 regions, one connected group; default random (O24)."""
    g = new_game(players, edition=edition, seed=5)
    assert len(g.regions) == row(edition, "regions", players)
    assert g.map.is_connected_regions(g.regions)


def test_R3_disconnected_or_wrong_size_region_choice_rejected():
    """R3: the chosen regions MUST be adjacent to one another, and their number fixed by R105."""
    m = new_game(3, seed=1).map
    connected = set(m.connected_region_sets(3))
    bad = next(s for s in itertools.combinations(sorted(m.regions), 3) if s not in connected)
    with pytest.raises((MapError, ValueError)):
        new_game(3, regions=list(bad), seed=1)
    with pytest.raises((MapError, ValueError)):
        new_game(3, regions=list(next(iter(connected)))[:2], seed=1)
    good = sorted(connected)[0]
    assert new_game(3, regions=list(good), seed=1).regions == good


def test_R3_default_regions_vary_with_the_seed():
    """R3/O24: the default play area is a random connected set (seeded)."""
    sets = {new_game(4, seed=s).regions for s in range(20)}
    assert len(sets) > 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_R4_cities_outside_play_area_do_not_exist(edition):
    """R4: only the cities of the chosen regions exist; others cannot be built in."""
    g = scenario(edition, 4, phase=4, plants={"Ada": [11], "Bo": [12], "Cy": [13], "Dee": [14]})
    assert set(g.ctx.cities) == set(g.map.cities_in(g.regions))
    assert len(g.ctx.cities) == 7 * len(g.regions)
    outside = next(c for c in g.map.cities if c not in g.ctx.cities)
    inside = g.ctx.cities[0]
    assert g.build_cost("Dee", outside) is None
    assert g.build_cost("Dee", inside) == 10


@pytest.mark.parametrize(("edition", "players"), GRID)
def test_R5_R6_fifty_elektro_and_no_cities_each(edition, players):
    """R5: every player starts with 50 E (both editions); R6: city count 0."""
    g = new_game(players, edition=edition, seed=9)
    assert [g.money(n) for n in g.players] == [50] * players
    assert all(g.cities_of(n) == [] and g.plants_of(n) == [] for n in g.players)


@pytest.mark.parametrize("edition", EDITIONS)
def test_R7_initial_order_by_lot_and_seats_fixed(edition):
    """R7: the initial order is random (seeded); seat order = that order at set-up (O3)."""
    firsts, orders = set(), set()
    for seed in range(30):
        g = new_game(4, edition=edition, seed=seed, trust=False)
        assert sorted(g.player_order) == sorted(g.players)
        assert g.seat_order == g.player_order
        firsts.add(g.player_order[0])
        orders.add(tuple(g.player_order))
    assert len(firsts) == 4 and len(orders) > 5


@pytest.mark.parametrize("edition", EDITIONS)
def test_R7_same_seed_same_setup_different_seeds_different_decks(edition):
    """R7/R10/R11: a seed fixes the set-up completely; other seeds deal other decks."""
    a, b = new_game(4, edition=edition, seed=42), new_game(4, edition=edition, seed=42)
    assert a.to_dict() == b.to_dict()
    decks = {tuple(new_game(4, edition=edition, seed=s).s.deck) for s in range(10)}
    assert len(decks) == 10


@pytest.mark.parametrize(("edition", "n"), [("original", (24, 18, 6, 2)), ("recharged", (24, 18, 9, 2))])
def test_R8_initial_market_per_edition_rest_is_supply(edition, n):
    """R8: the market is filled per §13 for the edition; all other tokens form the supply."""
    g = new_game(5, edition=edition, seed=1)
    assert g.s.res == list(n)
    assert _supply(g) == [24 - n[0], 24 - n[1], 24 - n[2], 12 - n[3]]


@pytest.mark.parametrize("players", COUNTS)
def test_R9_original_opening_market_fixed(players):
    """R9 [ORIG]: current market 03-06, future market 07-10, ascending."""
    g = new_game(players, seed=players)
    assert g.current_market() == [3, 4, 5, 6]
    assert g.future_market() == [7, 8, 9, 10]


@pytest.mark.parametrize("players", COUNTS)
def test_R10_original_deck_13_on_top_step3_at_bottom(players):
    """R10 [ORIG]: 13 on top, Step 3 at the bottom, 8/8/4/0/0 removed unseen -> 26/26/30/34/34."""
    g = new_game(players, seed=17)
    deck = g.s.deck
    assert deck[0] == 13 and deck[-1] == STEP3
    assert len(deck) - 1 == DECK_PLANTS["original"][players - 2]
    assert len(g.s.removed) == row("original", "removed", players)
    assert set(deck[1:-1]) | set(g.s.removed) == set(ALL_PLANTS) - {3, 4, 5, 6, 7, 8, 9, 10, 13}
    obs = g.observation(g.players[0])["state"]
    assert obs["removed"] == {"size": len(g.s.removed)} and obs["deck"]["top"] == 13


def test_R10_original_removed_count_configurable_O4():
    """R10/O4: option removed=<int> overrides the number of plants boxed unseen."""
    g = new_game(4, seed=17, removed=2)
    assert len(g.s.removed) == 2 and len(g.s.deck) == 33


@pytest.mark.parametrize("players", COUNTS)
def test_R11_recharged_market_8_plug_top_plug_removals_plug_socket(players):
    """R11/O4 [RECH]: 8 random plug plants sorted; a plug plant on top; removals 1+5/2+6/1+3/0/0;
    deck 28/26/30/34/34 + Step 3 at the bottom."""
    g = new_game(players, edition="recharged", seed=23)
    assert len(g.s.market) == 8 and set(g.s.market) <= PLUG and g.s.market == sorted(g.s.market)
    deck = g.s.deck
    assert deck[0] in PLUG and deck[-1] == STEP3
    assert len(deck) - 1 == DECK_PLANTS["recharged"][players - 2]
    k_plug, k_socket = row("recharged", "removed", players)
    assert len([c for c in g.s.removed if c in PLUG]) == k_plug
    assert len([c for c in g.s.removed if c not in PLUG]) == k_socket
    assert sorted(g.s.market + deck[:-1] + g.s.removed) == ALL_PLANTS


def test_R11_recharged_market_random_and_removals_configurable():
    """R11: the opening market is not fixed (differs between seeds); O4 removals configurable."""
    assert len({tuple(new_game(4, edition="recharged", seed=s).s.market) for s in range(10)}) > 1
    g = new_game(4, edition="recharged", seed=1, removed=[3, 2])
    assert len([c for c in g.s.removed if c in PLUG]) == 3
    assert len([c for c in g.s.removed if c not in PLUG]) == 2
    assert len(g.s.deck) - 1 == 42 - 8 - 5


@pytest.mark.parametrize("edition", EDITIONS)
def test_R12_market_sorted_lowest_four_current(edition):
    """R12: a drawn card is sorted in at once; the lowest 4 are the current market."""
    g = scenario(edition, 4, market=[3, 4, 6, 7, 8, 9, 10, 11], deck_top=[5])
    buy_uncontested(g, 3)
    assert g.s.market == [4, 5, 6, 7, 8, 9, 10, 11]
    assert g.current_market() == [4, 5, 6, 7] and g.future_market() == [8, 9, 10, 11]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R12_step3_card_sorts_above_every_plant(edition):
    """R12: while the Step 3 card is in the market it sorts above every plant (future market)."""
    g = scenario(edition, 4, market=[3, 4, 5, 6, 7, 8, 9, 10], deck_top=[STEP3])
    buy_uncontested(g, 3)
    assert g.s.market[-1] == STEP3 and g.future_market()[-1] == STEP3
    assert g.current_market() == [4, 5, 6, 7]


# --- §10 Player-count table --------------------------------------------------------------------

@pytest.mark.parametrize("players", COUNTS)
def test_R105_original_player_count_table(players):
    """R105 [ORIG]: regions, removed, plant limit, Step-2 and end thresholds."""
    ed = get_edition("original")
    assert ed.regions(players) == row("original", "regions", players)
    assert ed.tables["removed"][str(players)] == row("original", "removed", players)
    assert ed.plant_limit(players) == row("original", "limit", players)
    assert ed.step2_cities(players) == row("original", "step2", players)
    assert ed.end_cities(players) == row("original", "end", players)


@pytest.mark.parametrize("players", COUNTS)
def test_R106_recharged_player_count_table(players):
    """R106 [RECH]: regions (O5), plug+socket removals (O4), limit 3, thresholds."""
    ed = get_edition("recharged")
    assert ed.regions(players) == row("recharged", "regions", players)
    assert tuple(ed.tables["removed"][str(players)]) == row("recharged", "removed", players)
    assert ed.plant_limit(players) == 3
    assert ed.step2_cities(players) == row("recharged", "step2", players)
    assert ed.end_cities(players) == row("recharged", "end", players)


def test_R107_original_two_player_values():
    """R107: the 2004 2-player rules: end at 21, limit 4 plants, Step 2 at 10 cities."""
    g = new_game(2, seed=1)
    assert (g.ctx.end_cities, g.plant_limit, g.ctx.step2_cities) == (21, 4, 10)
    assert g.trust is None


@pytest.mark.parametrize(("edition", "players"), GRID)
def test_W17_thresholds(edition, players):
    """W17: regions, removed, plant limit, Step 2 and end thresholds of a new game."""
    g = new_game(players, edition=edition, seed=4)
    t = TABLE[edition]
    removed = t["removed"][players - 2]
    assert len(g.regions) == t["regions"][players - 2]
    assert len(g.s.removed) == (removed if edition == "original" else sum(removed))
    assert g.plant_limit == t["limit"][players - 2]
    assert g.ctx.step2_cities == t["step2"][players - 2]
    assert g.ctx.end_cities == t["end"][players - 2]


# --- §13 Initial resource market ----------------------------------------------------------------

def _filled(kind, n):
    return [(price, k) for price, k in spaces(kind, n) if k]


def test_R112_original_initial_market_spaces():
    """R112 [ORIG]: coal 1-8, oil 3-8, garbage 7-8 (3 per space), uranium on 14 and 16."""
    g = new_game(4, seed=1)
    c, o, gb, u = g.s.res
    assert _filled(0, c) == [(p, 3) for p in range(1, 9)]
    assert _filled(1, o) == [(p, 3) for p in range(3, 9)]
    assert _filled(2, gb) == [(7, 3), (8, 3)]
    assert _filled(3, u) == [(14, 1), (16, 1)]
    assert _supply(g) == [0, 6, 18, 10]


def test_R113_recharged_initial_market_spaces():
    """R113 [RECH] (O6): garbage 6-8 (9 tokens, 15 in supply); uranium on 14 and 16."""
    g = new_game(4, edition="recharged", seed=1)
    c, o, gb, u = g.s.res
    assert _filled(0, c) == [(p, 3) for p in range(1, 9)]
    assert _filled(1, o) == [(p, 3) for p in range(3, 9)]
    assert _filled(2, gb) == [(6, 3), (7, 3), (8, 3)]
    assert _filled(3, u) == [(14, 1), (16, 1)]
    assert _supply(g) == [0, 6, 15, 10]


@pytest.mark.parametrize(("edition", "garbage"), [("original", 6), ("recharged", 9)])
def test_R114_initial_count_form(edition, garbage):
    """R114: count form n = coal 24, oil 18, garbage 6 [ORIG] / 9 [RECH], uranium 2."""
    g = new_game(3, edition=edition, seed=2)
    assert g.to_dict()["state"]["resources"] == {"coal": 24, "oil": 18, "garbage": garbage, "uranium": 2}


@pytest.mark.parametrize(("edition", "garbage"), [("original", 7), ("recharged", 6)])
def test_W3_opening_resource_prices(edition, garbage):
    """W3: cheapest coal 1, oil 3, garbage 7 [ORIG] / 6 [RECH], uranium 14."""
    g = new_game(5, edition=edition, seed=8)
    assert [next_price(k, n) for k, n in enumerate(g.s.res)] == [1, 3, garbage, 14]


# --- §15 Plant deck composition ------------------------------------------------------------------

def test_R118_deck_is_42_plants_and_step3():
    """R118: every number 03-40 plus 42, 44, 46, 50, and one Step 3 card (43 cards)."""
    assert sorted(PLANTS) == ALL_PLANTS and len(PLANTS) == 42
    assert frozenset([*ALL_PLANTS, STEP3]) == ALL_CARDS


@pytest.mark.parametrize("edition", EDITIONS)
def test_R118_plant_number_is_its_minimum_bid(edition):
    """R118/R28: a plant's number is its minimum bid (no discount token on it)."""
    g = scenario(edition, 4, round=2, market=[11, 17, 23, 29, 30, 31, 32, 33], discount=None)
    assert [g.min_bid(p) for p in g.current_market()] == [11, 17, 23, 29]


def test_R119_recharged_plug_socket_backs_top_visible():
    """R119 [RECH]: plug = 03-15 (13), socket = 16-50 (29); the top card's back is visible."""
    assert len([p for p in PLANTS if p in PLUG]) == 13 and len([p for p in PLANTS if p not in PLUG]) == 29
    g = scenario("recharged", 4, round=2, deck_top=[25, 14])
    assert g.observation("Ada")["state"]["deck"]["top"] == "socket"
    buy_uncontested(g, 4)  # discount on 3: 25 is drawn (not below 3)
    assert g.observation("Ada")["state"]["deck"]["top"] == "plug"
    assert new_game(4, edition="recharged", seed=5).observation("Ada")["state"]["deck"]["top"] == "plug"


@pytest.mark.parametrize("number", ALL_PLANTS)
def test_R120_card_list(number):
    """R120 [EXT]: fuel, k, cities of every plant; storage 2k."""
    p = PLANTS[number]
    assert (p.fuel, p.tokens, p.cities) == CARD_TABLE[number]
    assert p.storage == 2 * p.tokens


def test_R120_fuel_counts():
    """R120: coal 9, oil 8, hybrid 5, garbage 6, uranium 6, eco 7, fusion 1."""
    counts = {f: sum(1 for p in PLANTS.values() if p.fuel == f) for f in
              ("coal", "oil", "hybrid", "garbage", "uranium", "eco", "fusion")}
    assert counts == {"coal": 9, "oil": 8, "hybrid": 5, "garbage": 6, "uranium": 6, "eco": 7, "fusion": 1}


def test_R121_cross_checks_with_the_seeds_examples():
    """R121: 07+10+15 burn 4 coal + 3 oil for 7 cities; 14 stores 4 garbage; 05 stores 4 mixed;
    03 stores 4 oil; 13 stores nothing and supplies 1; 33 supplies 4; 07 holds 6 oil."""
    assert needs([7, 10, 15]) == (4, 3, 0, 0, 0) and production([7, 10, 15]) == 7
    assert capacities([14])[2] == 4 and needs([14])[2] == 2 and production([14]) == 2
    assert fits(capacities([5]), (2, 2, 0, 0)) and not fits(capacities([5]), (3, 2, 0, 0))
    assert fits(capacities([3]), (0, 4, 0, 0)) and not fits(capacities([3]), (0, 5, 0, 0))
    assert capacities([13]) == (0, 0, 0, 0, 0) and production([13]) == 1
    assert production([33]) == 4 and capacities([7])[1] == 6 and production([7]) == 2


# --- §16 Edition differences ----------------------------------------------------------------------

def test_R122_each_game_uses_exactly_one_edition_column():
    """R122: D1 market, D2 top card, D4 discount token, D8 2p limit, D11 garbage differ per game."""
    o = new_game(2, edition="original", seed=6)
    r = new_game(2, edition="recharged", seed=6)
    assert o.s.market == [3, 4, 5, 6, 7, 8, 9, 10] and o.s.deck[0] == 13 and o.s.top_known
    assert set(r.s.market) <= PLUG and r.s.deck[0] in PLUG and not r.s.top_known
    assert o.s.discount is None and r.s.discount == r.current_market()[0]
    assert (o.plant_limit, r.plant_limit) == (4, 3)
    assert (o.s.res[2], r.s.res[2]) == (6, 9)
    assert (o.trust, r.trust) == (None, "Trust")


def test_R123_identical_in_both_editions():
    """R123: starting money, payment table, refill table, build prices, track, plant numbers."""
    o, r = get_edition("original").tables, get_edition("recharged").tables
    for key in ("starting_money", "payment", "refill", "build_prices", "max_cities", "regions"):
        assert o[key] == r[key], key
    assert o["starting_money"] == 50 and o["build_prices"] == [10, 15, 20]
    assert o["payment"][:7] == [10, 22, 33, 44, 54, 64, 73] and o["payment"][20] == 150
    assert new_game(3, seed=1).s.res[:2] == new_game(3, edition="recharged", seed=1).s.res[:2]


@pytest.mark.parametrize("players", ["4", b"4", 4.0, None])
def test_R105_players_is_a_count_or_a_list_of_names(players) -> None:
    with pytest.raises(ValueError, match="players is a count \\(2-6\\) or a list of names, not"):
        new_game(players)
