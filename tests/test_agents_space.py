"""The agents' action space, observations and returns, checked against the engine.

The mask is exactly the legal decisions up to the documented coarsening (an auction opens at the
minimum bid, a bid is a ladder raise, a discard keeps the most tokens); encode and decode are inverses;
observations are built from what a player may see, so two games that differ only in the deck's order
look the same to everyone.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from _position import random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from powergrid_nb import new_game
from powergrid_nb.agents import BID_STEPS, ActionSpace, NotInSpace, ObservationSpec, rank_returns
from powergrid_nb.bots import make_bot
from powergrid_nb.engine.actions import Bid, Discard, Open
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.io.visibility import redeal

SETUPS = [(p, ed, mp) for p in range(2, 7) for ed in ("original", "recharged") for mp in ("germany", "usa")]


def coarsened_away(g, a, legal) -> bool:
    """Whether the space leaves ``a`` out on purpose, a sibling with an index standing for it."""
    if isinstance(a, Open):
        return a.bid > g.min_bid(a.plant)
    if isinstance(a, Bid):
        return a.amount - g.auction.bid not in BID_STEPS
    if isinstance(a, Discard):
        return any(isinstance(b, Discard) and b.plant == a.plant and sum(b.keep or ()) > sum(a.keep or ())
                   for b in legal) or any(isinstance(b, Discard) and b.plant == a.plant and b.keep != a.keep
                                          for b in legal[:legal.index(a)])
    return False


def check_position(space: ActionSpace, g) -> None:
    legal = g.legal_actions()
    encoded = space.encoded(g)
    mask = space.mask(g)
    assert set(np.flatnonzero(mask)) == set(encoded)
    kept = []
    for a in legal:
        if coarsened_away(g, a, legal):
            with pytest.raises(NotInSpace):
                space.encode(g, a, legal)
        else:
            i = space.encode(g, a, legal)
            assert space.decode(g, i) == a  # decode inverts encode
            kept.append(a)
    assert sorted(map(str, encoded.values())) == sorted(map(str, kept))  # nothing more, nothing less
    for i in encoded:
        assert space.encode(g, space.decode(g, i), legal) == i  # encode inverts decode
    assert encoded, "a position with a player to act always has an index to play"


@settings(max_examples=30, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10_000))
def test_the_mask_is_exactly_the_legal_decisions_up_to_the_coarsening(setup, seed) -> None:
    players, edition, map_ = setup
    g = new_game(players, map=map_, edition=edition, seed=seed)
    space = ActionSpace(g.map)
    rng = random.Random(seed)
    while not g.is_over:
        if rng.random() < 0.15:  # a sample of positions: every phase of a whole game
            check_position(space, g)
        g.apply(space.decode(g, rng.choice(sorted(space.encoded(g)))))
    assert not space.mask(g).any()  # nothing to decide once the game is over


def test_the_space_is_the_same_size_for_every_player_count_and_edition() -> None:
    sizes = {ActionSpace(new_game(p, map="germany", edition=ed, seed=1).map).n
             for p in range(2, 7) for ed in ("original", "recharged")}
    assert len(sizes) == 1


def test_the_blocks_tile_the_space_in_the_documented_order() -> None:
    space = ActionSpace(new_game(3, seed=1).map)
    names = [b.name for b in space.blocks]
    assert names == ["mark", "open", "bid", "pass", "discard", "buy", "build", "power", "done"]
    assert space.blocks[0].start == 0 and sum(b.size for b in space.blocks) == space.n
    assert all(a.start + a.size == b.start for a, b in zip(space.blocks, space.blocks[1:], strict=False))


def test_an_index_outside_the_mask_raises_naming_the_legal_indices() -> None:
    g = new_game(3, seed=1)
    space = ActionSpace(g.map)
    bad = next(i for i in range(space.n) if i not in space.encoded(g))
    with pytest.raises(IllegalAction) as e:
        space.decode(g, bad)
    for i, a in space.encoded(g).items():
        assert f"{i} = {a}" in str(e.value)
    with pytest.raises(IllegalAction, match=f"outside 0..{space.n - 1}"):
        space.decode(g, space.n)


def test_an_opening_above_the_minimum_bid_has_no_index_but_its_minimum_does() -> None:
    g = new_game(3, seed=1)
    space = ActionSpace(g.map)
    who, plant = g.current_player, g.current_market()[0]
    with pytest.raises(NotInSpace, match="minimum bid"):
        space.encode(g, Open(who, plant, g.min_bid(plant) + 1))
    at_minimum = Open(who, plant, g.min_bid(plant))
    assert space.decode(g, space.encode(g, at_minimum)) == at_minimum


def test_our_bots_decisions_map_to_a_legal_index_nearby() -> None:
    for seed, edition in ((1, "original"), (2, "recharged")):
        g = new_game(4, edition=edition, seed=seed)
        space = ActionSpace(g.map)
        bots = {p: make_bot("heuristic", seed=i) for i, p in enumerate(g.players)}
        while not g.is_over:
            a = bots[g.current_player].act(g)
            i = space.nearest(g, a)
            assert i in space.encoded(g), a
            g.apply(space.decode(g, i))


# --- observations ------------------------------------------------------------------------------------------

def test_two_games_differing_only_in_the_deck_order_look_the_same_to_every_player() -> None:
    for players, edition, moves in ((3, "original", 40), (4, "recharged", 120), (2, "recharged", 200)):
        g = random_game(players, edition=edition, seed=5, moves=moves)
        spec = ObservationSpec(len(g.participants), list(g.map.cities))
        for seed in range(3):
            h = redeal(g, g.players[0], seed=seed)  # every card nobody sees, dealt again
            deck = g.to_dict()["state"]["deck"]
            assert h.to_dict()["state"]["deck"] != deck or len(deck) < 3
            for p in g.players:
                assert np.array_equal(spec.of(g, p), spec.of(h, p))


def test_the_observation_has_its_documented_parts_and_the_viewer_first() -> None:
    g = random_game(4, seed=3, moves=150)
    spec = ObservationSpec(len(g.participants), list(g.map.cities))
    v = spec.of(g, "Cy")
    assert v.shape == (spec.size,) and v.dtype == np.float32
    assert list(spec.slices) == ["game", "players", "market", "resources", "auction", "map"]
    parts = spec.named(g.observation("Cy", history=False), g.play_area)
    assert parts["players"][0][0] == g.money("Cy") and parts["players"][0][1] == len(g.cities_of("Cy"))
    assert list(parts["resources"]) == [g.resource_market()[r] for r in ("coal", "oil", "garbage", "uranium")]
    for row, city in zip(parts["map"], spec.cities, strict=True):
        assert row[1] == float("Cy" in g.owners(city))  # the viewer's own houses in column 1
    assert all(np.concatenate([parts[k].ravel() for k in spec.slices]) == v)


def test_the_observation_leaves_out_the_history() -> None:
    g = random_game(3, seed=2, moves=60)
    assert g.observation("Ada", history=False)["history"] == []
    assert g.observation("Ada")["history"]  # the default is unchanged


# --- returns ---------------------------------------------------------------------------------------------

def test_rank_returns_run_from_plus_one_to_minus_one_and_sum_to_zero() -> None:
    g = random_game(4, seed=1, moves=10_000)
    assert g.is_over
    r = rank_returns(g)
    assert sorted(g.ranks().values()) == [1, 2, 3, 4]  # no tie in this game
    ranks = g.ranks()
    assert r == pytest.approx({p: 1 - 2 * (ranks[p] - 1) / 3 for p in g.players})
    assert sum(r.values()) == pytest.approx(0)
    assert r[g.ranking()[0]] == max(r.values())


def test_players_sharing_a_place_share_its_returns() -> None:
    from powergrid_nb.agents import rewards

    class Tied:  # four players, two sharing second place (O16)
        players = ["A", "B", "C", "D"]

        def ranks(self) -> dict[str, int]:
            return {"A": 1, "B": 2, "C": 2, "D": 4}

    r = rewards.rank_returns(Tied())  # type: ignore[arg-type]
    assert r == pytest.approx({"A": 1, "B": 0, "C": 0, "D": -1})


def test_the_auction_and_market_parts_say_who_leads_which_plant_at_what_bid() -> None:
    g = new_game(4, seed=9)
    space = ActionSpace(g.map)
    g.apply(space.decode(g, space.blocks[1].start + 2))  # the opener takes the third plant of the market
    a = g.auction
    viewer = g.players[1]
    spec = ObservationSpec(len(g.participants), list(g.map.cities))
    parts = spec.named(g.observation(viewer, history=False), g.play_area)
    seats = g.seat_order[g.seat_order.index(viewer):] + g.seat_order[:g.seat_order.index(viewer)]
    auction = parts["auction"]
    f = len(auction) - 3 * len(seats) - 2  # the plant's features
    assert auction[0] == 1 and auction[2] == a.plant and auction[1 + f] == a.bid
    assert list(auction[2 + f:2 + f + len(seats)]) == [float(p == a.leader) for p in seats]
    assert list(auction[2 + f + len(seats):2 + f + 2 * len(seats)]) == [float(p in a.bidders) for p in seats]
    market = g.current_market() + g.future_market()
    assert [row[1] for row in parts["market"]] == [float(p) for p in market]
