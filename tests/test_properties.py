"""Property-based random games: invariants after every action (R1, R5, R31/O2, R36, R49, R58, R67,
R118), illegal actions leave the game untouched, undo/copy, determinism and action round trips.

The random player is a seeded ``random.Random`` choosing uniformly among ``g.legal_actions()``;
hypothesis draws the seed, player count, edition, map and flow options (derandomized)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from _helpers_props import (
    Ledger,
    candidates,
    check_invariants,
    discard_accepts,
    game_params,
    label,
    make,
    mutations,
    play,
    props,
    replay,
)
from hypothesis import given
from hypothesis import strategies as st

from powergrid_nb import Action, Build, BuyResources, Discard, IllegalAction, Power
from powergrid_nb.engine.events import CardDrawn
from powergrid_nb.engine.rules.plants import STEP3, needs


def _full_game_check(params: dict) -> None:
    g = make(params)
    rng = random.Random(params["seed"])
    led = Ledger(g)
    check_invariants(g, led.money, label(params))

    def each(g, a):
        where = f"{label(params)} after #{len(g.actions)} {a}"
        check_invariants(g, led.update(g), where)
        for b in g.legal_actions():  # every listed action is accepted
            h = g.copy()
            h.apply(b)

    play(g, rng, each=each)
    assert g.is_over and g.phase == 6 and g.current_player is None and g.legal_actions() == []
    assert g.winners and set(g.winners) <= set(g.players)
    assert max(len(g.cities_of(p)) for p in g.players) >= g.ctx.end_cities  # R96


@props(30)
@given(game_params())
def test_random_games_keep_every_invariant(params):
    """R1 tokens 24/24/24/12, R118 42 plants + Step 3 once each, R5/O2 money = 50 + ledger >= 0,
    R67 <= 22 houses, R58 houses per city <= step, R49 tokens fit plants, R36 plant limit; the game
    ends, and every state before the end has a legal action, each of which applies."""
    _full_game_check(params)


@pytest.mark.provisional
@props(8)
@given(game_params(trust=True))
def test_random_trust_games_keep_every_invariant(params):
    """O22 (provisional): 2-player Recharged games against the Trust keep the same invariants."""
    _full_game_check(params)


@pytest.mark.slow  # about 10 s an example: `make test` runs 3 of the 16 examples, `make test-all` all
@props(16, quick=3)
@given(game_params(), st.randoms(use_true_random=False))
def test_actions_not_listed_are_rejected_and_change_nothing(params, rnd):
    """R13/R14/R28/R29/R31/R48/R51/R58/R72: an action (atomic form) that legal_actions does not list
    raises IllegalAction and leaves to_dict(), the undo stack and legal_actions unchanged."""
    g = make(params)
    rng = random.Random(rnd.randrange(2**32))

    def each(g, _):
        if rng.random() > 0.15:
            return
        legal = set(g.legal_actions())
        before, stack = g.to_dict(), g.actions
        for c in candidates(g, rng):
            if c in legal:
                continue
            if isinstance(c, Discard) and discard_accepts(g, c):  # O10: any subset that fits
                g.apply(c)
                g.undo(1)
                continue
            with pytest.raises(IllegalAction):
                g.apply(c)
            assert g.to_dict() == before, f"{label(params)}: {c} changed the game"
            assert g.actions == stack and set(g.legal_actions()) == legal

    play(g, rng, each=each)


@pytest.mark.slow  # about 6 s an example: `make test` runs 3 of the 16 examples, `make test-all` all
@props(16, quick=3)
@given(game_params(), st.randoms(use_true_random=False))
def test_one_field_changed_is_listed_or_rejected(params, rnd):
    """An action built from a legal one by changing one field (player, plant, bid, resource, city,
    run set, hybrid coal) is either in legal_actions or rejected with IllegalAction (state kept).
    Discards are judged by the R36/R37/O10 oracle (any kept subset that fits is allowed)."""
    g = make(params)
    rng = random.Random(rnd.randrange(2**32))

    def each(g, _):
        if rng.random() > 0.2 or g.is_over:
            return
        legal = g.legal_actions()
        before = g.to_dict()
        for a in rng.sample(legal, min(4, len(legal))):
            for m in mutations(g, a, rng):
                if m in legal:
                    continue
                if isinstance(m, Discard) and discard_accepts(g, m):
                    continue
                try:
                    g.apply(m)
                except IllegalAction:
                    assert g.to_dict() == before
                    continue
                g.undo(1)
                pytest.fail(f"{label(params)}: {m} (from legal {a}) is not listed but was accepted")

    play(g, rng, each=each)


@props(12)
@given(game_params(), st.randoms(use_true_random=False))
def test_composite_buy_and_build_equal_their_atomic_steps(params, rnd):
    """R50/R54: a composite BuyResources / Build is accepted exactly when the same tokens / cities
    taken one at a time are each listed in turn, and leads to the same state."""
    g = make(params)
    rng = random.Random(rnd.randrange(2**32))

    def each(g, _):
        if g.phase not in (3, 4) or rng.random() > 0.3:
            return
        p = g.current_player
        if g.phase == 3:
            amounts = [rng.choice((0, 0, 1, 2, 3)) for _ in range(4)]
            if sum(amounts) < 2:
                return
            atoms = [BuyResources(p, *[int(i == k) for i in range(4)]) for k in range(4)
                     for _ in range(amounts[k])]
            comp: Action = BuyResources(p, *amounts)
        else:
            listed = [a.city for a in g.legal_actions() if isinstance(a, Build)]
            pool = listed + rng.sample(sorted(g.ctx.cities), 3)
            cities = list(dict.fromkeys(rng.sample(pool, min(len(pool), rng.randint(2, 4)))))
            if len(cities) < 2:
                return
            atoms, comp = [Build(p, c) for c in cities], Build(p, *cities)
        h = g.copy()
        ok = True
        for a in atoms:
            if a not in h.legal_actions():
                ok = False
                break
            h.apply(a)
        before = g.to_dict()
        try:
            g.apply(comp)
        except IllegalAction:
            assert not ok, f"{label(params)}: {comp} rejected although its steps are legal"
            assert g.to_dict() == before
            return
        assert ok, f"{label(params)}: {comp} accepted although a step is not listed"
        assert g.to_dict()["state"] == h.to_dict()["state"], f"{label(params)}: {comp}"

    play(g, rng, each=each)


@props(15)
@given(game_params(), st.integers(1, 500), st.integers(1, 60), st.randoms(use_true_random=False))
def test_undo_then_reapply_gives_identical_game(params, cut, k, rnd):
    """undo(k) then re-applying the undone actions gives the same to_dict(); undo returns them."""
    g = make(params)
    rng = random.Random(rnd.randrange(2**32))
    played = play(g, rng, cut)
    k = min(k, len(played))
    before, stack = g.to_dict(), g.actions
    undone = g.undo(k)
    assert undone == played[len(played) - k:]
    assert g.actions == played[:len(played) - k]
    replay(g, undone)
    assert g.to_dict() == before and g.actions == stack
    check_invariants(g)


@props(10)
@given(game_params(), st.integers(0, 400))
def test_undo_everything_returns_to_the_start(params, cut):
    """undo(len(actions)) restores the initial to_dict(); pop() undoes one action at a time."""
    g = make(params)
    start = g.to_dict()
    played = play(g, random.Random(params["seed"]), cut)
    mid = g.to_dict()
    if played:
        assert g.pop() == played[-1]
        g.apply(played[-1])
        assert g.to_dict() == mid
    g.undo(len(played))
    assert g.to_dict() == start and g.actions == []
    with pytest.raises(ValueError):
        g.undo(1)


@props(10)
@given(game_params(), st.integers(0, 300))
def test_copy_is_independent(params, cut):
    """copy() shares nothing mutable: playing or undoing either game leaves the other unchanged."""
    g = make(params)
    rng = random.Random(params["seed"])
    play(g, rng, cut)
    c = g.copy()
    assert c.to_dict() == g.to_dict() and c.actions == g.actions
    before = g.to_dict()
    play(c, random.Random(1), 80)
    assert g.to_dict() == before
    check_invariants(g)
    copy_state = c.to_dict()
    play(g, random.Random(2), 80)
    if g.actions:
        g.undo(min(5, len(g.actions)))
    assert c.to_dict() == copy_state
    check_invariants(c)


@props(10)
@given(game_params())
def test_same_seed_and_actions_give_the_same_game(params):
    """new_game is reproducible: the same seed and the same actions give the same to_dict(),
    draws and shuffles included, to the end of the game."""
    g, h = make(params), make(params)
    assert g.to_dict() == h.to_dict()
    actions = play(g, random.Random(params["seed"]))
    replay(h, actions)
    assert h.to_dict() == g.to_dict() and h.is_over


@props(12)
@given(game_params())
def test_action_text_and_dict_round_trip(params):
    """Action.parse(str(a)) == a and Action.from_dict(a.to_dict()) == a for every listed action."""
    g = make(params)
    seen: set[Action] = set()

    def each(g, _):
        seen.update(g.legal_actions())

    each(g, None)
    play(g, random.Random(params["seed"]), each=each)
    for a in seen:
        assert Action.parse(str(a)) == a, str(a)
        assert Action.from_dict(a.to_dict()) == a, a.to_dict()
        assert hash(Action.parse(str(a))) == hash(a)


@props(12)
@given(game_params())
def test_step3_card_is_drawn_only_after_the_cards_above_it(params):
    """R10/R11/R84/R90: in Steps 1-2 the Step 3 card's deck index falls only by the draws made."""
    g = make(params)
    pos = {"i": g.s.deck.index(STEP3), "h": len(g.history)}

    def each(g, a):
        if pos["i"] is None:
            return
        new = g.history[pos["h"]:]
        draws = sum(1 for e in new if isinstance(e, CardDrawn))
        pos["h"] += len(new)
        if STEP3 in g.s.deck:
            assert g.s.deck.index(STEP3) == pos["i"] - draws, f"{label(params)} after {a}"
            pos["i"] = g.s.deck.index(STEP3)
        else:
            assert draws >= pos["i"] + 1, f"{label(params)}: Step 3 card drawn early after {a}"
            pos["i"] = None

    play(g, random.Random(params["seed"]), each=each)


def test_power_is_listed_for_every_feasible_run():
    """R72/R73: phase 5 lists every feasible run, each with an explicit hybrid coal count."""
    g = make({"seed": 3, "players": 3, "edition": "original", "map": "germany", "bidding": "seat",
              "discount_test": "first", "starting_cities": False})
    rng = random.Random(3)
    while not g.is_over:
        if g.phase == 5:
            for a in g.legal_actions():
                assert isinstance(a, Power)
                assert (a.hybrid_coal is not None) == (needs(a.plants)[4] > 0), a
        g.apply(rng.choice(g.legal_actions()))


_DIGEST = """
import hashlib, json, random, sys
sys.path.insert(0, sys.argv[1])
from _helpers_props import make, play
games = [(3, "original", "germany"), (4, "recharged", "usa"), (6, "original", "usa")]
for i, (n, ed, mp) in enumerate(games):
    g = make({"seed": 40 + i, "players": n, "edition": ed, "map": mp, "bidding": "seat",
              "discount_test": "first", "starting_cities": ed == "recharged"})
    play(g, random.Random(i))
    print(hashlib.sha256(json.dumps(g.to_dict(), sort_keys=True).encode()).hexdigest())
"""


def test_same_seed_gives_the_same_game_in_every_process():
    """Reproducibility does not depend on Python's string hashing (PYTHONHASHSEED): regions, deals,
    shuffles and Trust houses come only from the seed."""
    here = str(Path(__file__).parent)
    runs = [subprocess.run([sys.executable, "-c", _DIGEST, here], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": h}).stdout for h in ("1", "2")]
    assert runs[0] == runs[1] and len(runs[0].split()) == 3
