"""The environments' fast mask and observation equal their references at every
decision: :class:`FastLegal` gives exactly :meth:`ActionSpace.encoded`'s indices and actions, and
:class:`FastObserver` exactly :meth:`ObservationSpec.of`'s vector, for every player, over whole seeded
games of 2-6 players, both editions and both maps (the Trust and the starting-cities variant
included). tests/test_agents_envs.py checks that the environments play the same episodes with them.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from _position import random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from powergrid_nb import new_game
from powergrid_nb.agents import ActionSpace, ObservationSpec
from powergrid_nb.agents.fastmask import FastLegal
from powergrid_nb.agents.fastobs import FastObserver
from powergrid_nb.bots import make_bot
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.io.visibility import redeal

SETUPS = [(p, ed, mp) for p in range(2, 7) for ed in ("original", "recharged") for mp in ("germany", "usa")]


def whole_game(players, edition, map_, seed, **options):
    """The positions of a whole game, one after each decision: seat 0 picks a uniform index of the
    mask (long auctions on the bid ladder), the others are builder bots (games that reach Step 3)."""
    g = new_game(players, map=map_, edition=edition, seed=seed, **options)
    space = ActionSpace(g.map)
    rng = random.Random(seed)
    bots = {p: make_bot("builder", seed=seed + i) for i, p in enumerate(g.players)}
    yield g, space
    while not g.is_over:
        if g.current_player == g.players[0]:
            g.apply(space.decode(g, rng.choice(sorted(space.encoded(g)))))
        else:
            g.apply(bots[g.current_player].act(g))
        yield g, space


def options_for(seed: int) -> dict:
    return {"starting_cities": True} if seed % 2 else {}  # odd seeds: the start cities are marked first


def check_the_mask_at_every_decision(players, edition, map_, seed) -> set[int]:
    fast, phases = None, set()
    for g, space in whole_game(players, edition, map_, seed, **options_for(seed)):
        fast = fast or FastLegal(space)
        reference = space.encoded(g)
        legal = fast.legal(g)
        assert list(legal) == list(reference)
        assert fast.encoded(g) == reference  # the same action for every index
        assert np.array_equal(fast.mask(legal), space.mask(g, reference))
        phases.add(g.phase)
    return phases


def check_the_observation_at_every_decision(players, edition, map_, seed) -> set[int]:
    """Three fast observers against the reference: one reads everything, at every decision, for every
    player; two are told who decided since their last look (as the environments tell them), one
    looking at every decision, one now and then (the Gymnasium seat looks once the bots have played),
    each at a random player."""
    spec = observer = every = sometimes = None
    steps, rng, acted_every, acted_sometimes = set(), random.Random(seed), set(), set()
    for g, _space in whole_game(players, edition, map_, seed, **options_for(seed)):
        if spec is None:
            spec = ObservationSpec(len(g.participants), list(g.map.cities))
            observer, every, sometimes = FastObserver(spec), FastObserver(spec), FastObserver(spec)
        reference = {p: spec.of(g, p) for p in g.players}
        for p in g.players:
            assert np.array_equal(observer.of(g, p), reference[p]), (g.round, g.phase, p)
        p = rng.choice(g.players)
        assert np.array_equal(every.of(g, p, acted_every), reference[p]), (g.round, g.phase, p)
        if rng.random() < 0.4 or g.is_over:
            assert np.array_equal(sometimes.of(g, p, acted_sometimes), reference[p]), (g.round, g.phase, p)
            acted_sometimes = set()
        acted_every = {g.current_player}  # who makes the next decision
        acted_sometimes.add(g.current_player)
        steps.add(g.step)
    return steps


# --- the mask -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "edition", "map_"), SETUPS)
def test_the_fast_mask_and_actions_are_the_references_at_every_decision(players, edition, map_) -> None:
    phases = check_the_mask_at_every_decision(players, edition, map_, seed=players * 7)
    assert {2, 3, 4, 5} <= phases


@settings(max_examples=6, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10_000))
def test_the_fast_mask_is_the_reference_in_any_seeded_game(setup, seed) -> None:
    check_the_mask_at_every_decision(*setup, seed)


def test_an_illegal_index_raises_the_references_error_naming_the_legal_indices() -> None:
    g = new_game(3, seed=1)
    space = ActionSpace(g.map)
    fast = FastLegal(space)
    bad = next(i for i in range(space.n) if i not in space.encoded(g))
    with pytest.raises(IllegalAction) as reference:
        space.decode(g, bad)
    with pytest.raises(IllegalAction) as fast_error:
        fast.action(g, fast.legal(g), bad)
    assert str(fast_error.value) == str(reference.value)
    assert "the legal indices are" in str(fast_error.value)


# --- the observation ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "edition", "map_"), SETUPS)
def test_the_fast_observation_is_the_reference_for_every_player_at_every_decision(players, edition,
                                                                                   map_) -> None:
    steps = check_the_observation_at_every_decision(players, edition, map_, seed=players * 11)
    assert {1, 3} <= steps


@settings(max_examples=4, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10_000))
def test_the_fast_observation_is_the_reference_in_any_seeded_game(setup, seed) -> None:
    check_the_observation_at_every_decision(*setup, seed)


def test_the_fast_observation_of_two_games_differing_only_in_the_deck_order_is_the_same() -> None:
    for players, edition, moves in ((3, "original", 40), (4, "recharged", 120), (2, "recharged", 200)):
        g = random_game(players, edition=edition, seed=5, moves=moves)
        spec = ObservationSpec(len(g.participants), list(g.map.cities))
        observer = FastObserver(spec)
        for seed in range(3):
            h = redeal(g, g.players[0], seed=seed)  # every card nobody sees, dealt again
            for p in g.players:
                assert np.array_equal(observer.of(g, p), observer.of(h, p))


def test_the_fast_observation_is_a_fresh_array_the_caller_may_keep() -> None:
    g = random_game(4, seed=3, moves=150)
    observer = FastObserver(ObservationSpec(len(g.participants), list(g.map.cities)))
    first = observer.of(g, "Cy")
    kept = first.copy()
    first[:] = -1.0
    assert np.array_equal(observer.of(g, "Cy"), kept)
    assert observer.of(g, "Cy") is not observer.of(g, "Cy")


def test_the_fast_observation_follows_a_game_taken_back() -> None:
    g = random_game(4, seed=8, moves=300)
    spec = ObservationSpec(len(g.participants), list(g.map.cities))
    observer = FastObserver(spec)
    observer.of(g, "Ada")
    g.undo(40)
    for p in g.players:
        assert np.array_equal(observer.of(g, p), spec.of(g, p))


def test_the_fast_observation_refuses_an_unknown_player_as_the_reference_does() -> None:
    g = new_game(3, seed=1)
    observer = FastObserver(ObservationSpec(3, list(g.map.cities)))
    with pytest.raises(KeyError, match="no player 'Zed'"):
        observer.of(g, "Zed")
