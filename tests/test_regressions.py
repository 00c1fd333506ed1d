"""Regression tests for bugs that random play and undo tend to expose: tokens and plants conserved
across undo/redo/discard (R1, R36, R37, R118), the Step 3 card never early (R10, R84, R90), hybrid
runs with tokens on other plants (R46, R49, R73, W28), and never a player without a legal move."""

from __future__ import annotations

import random

import pytest
from _helpers_props import (
    EDITIONS,
    MAPS,
    TOTALS,
    card_census,
    check_invariants,
    make,
    play,
)
from _position import assert_illegal, position

from powergrid_nb import BuyResources, Discard, Game, IllegalAction, Power, new_game
from powergrid_nb.engine.events import CardDrawn, Decision, PhaseBegins, PlantBoxed
from powergrid_nb.engine.rules.plants import ALL_CARDS, STEP3


def _params(seed: int, players: int = 3, edition: str = "original", map: str = "germany") -> dict:
    p = {"seed": seed, "players": players, "edition": edition, "map": map, "bidding": "seat",
         "discount_test": "first", "starting_cities": False}
    if edition == "recharged" and players == 2:
        p["trust"] = False
    return p


def _census_ok(g: Game) -> None:
    c = card_census(g)
    assert set(c) == ALL_CARDS and max(c.values()) == 1, c


# --- tokens and undo ------------------------------------------------------------------------

def _phase3(first_plants: list[int] | None = None) -> tuple[Game, str]:
    first = new_game(3, seed=1).player_order[-1]  # phase 3 runs in reverse order (R45)
    g = position(3, seed=1, phase=3, order="dealt", rest="shuffled",
                 who={first: {"plants": first_plants or [4, 8], "money": 50},
                      **{n: {"plants": [p]} for n, p in zip(
                          [x for x in ("Ada", "Bo", "Cy") if x != first], (10, 15), strict=True)}})
    assert g.current_player == first
    return g, first


def test_regression_buy_undo_buy_never_leaves_negative_tokens():
    """R1/R50: buy, undo, buy again: the market is restored exactly by each undo and tokens are
    never negative; coal 24 on the market costs 1 each for the first three (R117)."""
    g, p = _phase3()
    start = g.to_dict()
    for n in range(1, 6):
        g.apply(BuyResources(p, coal=1))
        assert g.s.res[0] == 24 - n and g.tokens_of(p)["coal"] == n
        g.undo(1)
        assert g.s.res[0] == 24 - (n - 1) and g.tokens_of(p)["coal"] == n - 1
        g.apply(BuyResources(p, coal=1))
        check_invariants(g)
    assert g.money(p) == 50 - (1 + 1 + 1 + 2 + 2)
    g.undo(5)
    assert g.to_dict() == start
    g.apply(BuyResources(p, coal=3))
    g.undo(1)
    g.apply(BuyResources(p, coal=2))
    assert g.s.res[0] == 22 and g.tokens_of(p)["coal"] == 2 and min(g.s.tokens[g.ctx.index[p]]) >= 0


def test_regression_buy_undo_in_random_games_restores_every_count():
    """R1: in random games every purchase, undone at once, restores the whole position."""
    for seed in range(6):
        g = make(_params(seed, 2 + seed % 5, EDITIONS[seed % 2], MAPS[seed // 3 % 2]))
        rng = random.Random(seed)
        while not g.is_over:
            a = rng.choice(g.legal_actions())
            if isinstance(a, BuyResources):
                before = g.to_dict()
                g.apply(a)
                g.undo(1)
                assert g.to_dict() == before, (seed, a)
            g.apply(a)
            assert min(min(t) for t in g.s.tokens) >= 0 and min(g.s.res) >= 0
            assert all(g.s.res[k] + sum(t[k] for t in g.s.tokens) <= TOTALS[k] for k in range(4))


# --- plants and discards --------------------------------------------------------------------

def _to_discard(seed: int, players: int = 3) -> Game:
    """A random game played up to a pending R36 discard."""
    g = make(_params(seed, players))
    rng = random.Random(seed)
    while g.s.discard is None:
        assert not g.is_over, f"seed {seed}: no discard in this game"
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_regression_plants_conserved_across_undo_redo_and_discard(seed):
    """R36/R118: with a discard pending, every discard option, undo and redo keep each of the 43
    cards in exactly one place; the boxed plant goes to the box and only there."""
    g = _to_discard(seed)
    p = g.s.discard
    _census_ok(g)
    assert len(g.s.plants[p]) == g.plant_limit + 1
    for a in g.legal_actions():
        h = g.copy()
        h.apply(a)
        _census_ok(h)
        assert a.plant in h.s.boxed and a.plant not in h.s.plants[p]
        assert len(h.s.plants[p]) == g.plant_limit
    a = g.legal_actions()[0]
    g.apply(a)
    after = g.to_dict()
    g.undo(1)
    _census_ok(g)
    assert g.s.discard == p
    g.apply(a)
    assert g.to_dict() == after
    k = min(4, len(g.actions))
    redo = g.undo(k)
    _census_ok(g)
    for b in redo:
        g.apply(b)
        _census_ok(g)
    assert g.to_dict() == after


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_regression_discard_never_draws_a_plant(seed):
    """R36/R37: boxing a plant over the limit draws nothing (deck and market unchanged); the tokens
    not kept go to the supply, never to the resource market."""
    g = _to_discard(seed)
    p = g.s.discard
    for a in g.legal_actions():
        h = g.copy()
        deck, market, res = list(h.s.deck), list(h.s.market), list(h.s.res)
        h.apply(a)
        new = h.history[len(g.history):]
        end = next((i for i, e in enumerate(new) if isinstance(e, PhaseBegins)), len(new))  # phase 2 over
        assert [type(e) for e in new[:end]] == [Decision, PlantBoxed], (a, new)
        assert new[0].action == a and new[1].plant == a.plant, (a, new)
        if end == len(new):
            assert h.s.deck == deck and h.s.market == market, a
        assert h.s.res == res and h.s.tokens[p] == list(a.keep), a


def test_regression_discard_keeping_any_subset_that_fits():
    """O10: the owner keeps any legal subset of tokens; keeping more than fits is rejected (R37)."""
    g = _to_discard(2)
    p = g.s.discard
    name = g.ctx.names[p]
    a = g.legal_actions()[0]
    assert isinstance(a, Discard)
    assert_illegal(g, Discard(name, a.plant, [k + 5 for k in a.keep]), "R37")
    h = g.copy()
    h.apply(Discard(name, a.plant, (0, 0, 0, 0)))
    assert h.s.tokens[p] == [0, 0, 0, 0]
    check_invariants(h)


# --- the Step 3 card ------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_regression_step3_card_index_falls_only_by_draws(edition):
    """R10/R11/R84/R90: in Steps 1-2 the Step 3 card's deck index decreases by exactly the number
    of draws, the R84 plant goes under it, and it is drawn only once no card lies above it."""
    for seed in range(4):
        g = make(_params(seed, 3 + seed, edition))
        rng = random.Random(seed)
        idx, seen = g.s.deck.index(STEP3), len(g.history)
        while STEP3 in g.s.deck:
            g.apply(rng.choice(g.legal_actions()))
            new = g.history[seen:]
            seen += len(new)
            draws = sum(isinstance(e, CardDrawn) for e in new)
            if STEP3 in g.s.deck:
                assert g.s.deck.index(STEP3) == idx - draws, (seed, new)
                idx -= draws
                assert g.step in (1, 2)
            else:
                drawn = [e.plant for e in new if isinstance(e, CardDrawn)]
                assert STEP3 in drawn and drawn.index(STEP3) == idx, (seed, drawn, idx)


# --- hybrids --------------------------------------------------------------------------------

def _phase5(tokens: list[int]) -> tuple[Game, str]:
    first = new_game(3, seed=1).player_order[0]  # phase 5 in player order
    g = position(3, seed=1, phase=5, order="dealt", rest="shuffled",
                 who={first: {"plants": [5, 10], "tokens": tokens, "cities": [0, 1, 2]}})
    assert g.current_player == first
    return g, first


def test_regression_hybrid_uses_coal_stored_beyond_the_coal_plant():
    """R49/R73: plants 05 (hybrid) + 10 (coal) with 4 coal: both run, burning all 4 coal; 3 cities
    powered pay 44 (R110)."""
    g, p = _phase5([4, 0, 0, 0])
    assert Power(p, [5, 10], 2) in g.legal_actions()
    money = g.money(p)
    g.apply(Power(p, [5, 10]))
    assert g.tokens_of(p) == {"coal": 0, "oil": 0, "garbage": 0, "uranium": 0}
    assert g.money(p) == money + 44


def test_regression_hybrid_and_coal_plant_need_four_tokens():
    """R73: 05 + 10 with 3 coal and no oil cannot run together; each runs alone."""
    g, p = _phase5([3, 0, 0, 0])
    listed = {a.plants for a in g.legal_actions()}
    assert (5, 10) not in listed and {(5,), (10,), ()} <= listed
    for hc in (None, 0, 1, 2):
        assert_illegal(g, Power(p, [5, 10], hc), "R73")


def test_regression_coal_plant_cannot_burn_oil():
    """R46: with 2 oil (held by the hybrid) and no coal, plant 10 (coal) cannot run; 05 can."""
    g, p = _phase5([0, 2, 0, 0])
    assert [a for a in g.legal_actions() if 10 in a.plants] == []
    before = g.to_dict()
    with pytest.raises(IllegalAction):
        g.apply(Power(p, [10]))
    assert g.to_dict() == before
    g.apply(Power(p, [5], 0))
    assert g.tokens_of(p)["oil"] == 0


def test_regression_hybrid_takes_the_oil_when_coal_is_needed_elsewhere():
    """R73: 2 coal + 2 oil: 05 + 10 run only with the hybrid burning 0 coal."""
    g, p = _phase5([2, 2, 0, 0])
    assert [a for a in g.legal_actions() if a.plants == (5, 10)] == [Power(p, [5, 10], 0)]
    before = g.to_dict()
    with pytest.raises(IllegalAction):
        g.apply(Power(p, [5, 10], 1))
    assert g.to_dict() == before
    g.apply(Power(p, [5, 10]))
    assert g.tokens_of(p)["coal"] == 0 and g.tokens_of(p)["oil"] == 0


@pytest.mark.parametrize("hc", [1, 2])
def test_regression_hybrid_coal_on_a_run_without_hybrids_is_rejected(hc):
    """R46: a run without hybrid plants burns no hybrid coal; Power(p, [10], hybrid_coal=hc) is not
    listed and must be rejected rather than silently recorded."""
    g, p = _phase5([4, 0, 0, 0])
    assert Power(p, [10], hc) not in g.legal_actions()
    assert_illegal(g, Power(p, [10], hc), "R46")


# --- never stuck ----------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("map_", MAPS)
def test_regression_no_player_is_ever_left_without_a_legal_move(edition, map_):
    """Every player to act has at least one listed action and every listed action applies."""
    for players in range(2, 7):
        g = make(_params(players * 7, players, edition, map_))
        rng = random.Random(players)
        while not g.is_over:
            legal = g.legal_actions()
            assert legal, repr(g)
            for a in legal:
                g.copy().apply(a)
            g.apply(rng.choice(legal))


def test_regression_round1_player_who_cannot_afford_a_plant_has_a_usable_move():
    """R35 with O2: in round 1 a player who cannot pay any minimum bid must still have a listed
    action that the engine accepts (listing Pass and then rejecting it leaves them stuck)."""
    g = new_game(3, seed=1)
    d = g.to_dict()
    d["state"]["players"][g.current_player]["money"] = 2
    h = Game.from_dict(d)
    legal = h.legal_actions()
    assert legal
    for a in legal:
        h.copy().apply(a)


def test_regression_composite_build_failure_restores_state_and_costs():
    """R54/R60: a composite Build whose second city is illegal is rejected as a whole; the state and
    the connection costs afterwards are those of before."""
    rng = random.Random(5)
    g = make(_params(5, 4))
    while not (g.phase == 4 and g.cities_of(g.current_player)):
        g.apply(rng.choice(g.legal_actions()))
    p = g.current_player
    good = next(a.city for a in g.legal_actions() if hasattr(a, "city"))
    costs = {c: g.build_cost(p, c) for c in g.ctx.cities}
    before = g.to_dict()
    with pytest.raises(IllegalAction):
        g.apply(f"{p}: build {good}, Atlantis")
    assert g.to_dict() == before
    assert {c: g.build_cost(p, c) for c in g.ctx.cities} == costs


def test_regression_undo_stops_at_a_loaded_position():
    """undo() cannot go behind the position a game was loaded from; undoing returns to it."""
    g = make(_params(4, 4))
    play(g, random.Random(4), 150)
    h = Game.from_dict(g.to_dict())
    assert h.actions == []
    with pytest.raises(ValueError):
        h.undo(1)
    start = h.to_dict()
    play(h, random.Random(5), 40)
    h.undo(len(h.actions))
    assert h.to_dict() == start
