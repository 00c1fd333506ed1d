"""Property: bots never make an illegal move, whatever the edition, map, player count or seed.

A sample runs here; benchmarks/bots.py plays 1,000 such games (see docs/benchmarks.md)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from powergrid_nb import new_game
from powergrid_nb.bots import HeuristicBot, RandomBot


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6),
       edition=st.sampled_from(["original", "recharged"]), map_=st.sampled_from(["germany", "usa"]),
       heuristic_seats=st.integers(1, 6))
def test_bots_only_make_legal_moves_to_the_end(seed, players, edition, map_, heuristic_seats) -> None:
    g = new_game(players, map=map_, edition=edition, seed=seed)
    bots = {p: (HeuristicBot(seed + i) if i < heuristic_seats else RandomBot(seed + i))
            for i, p in enumerate(g.players)}
    for _ in range(20_000):
        if g.is_over:
            break
        action = bots[g.current_player].act(g)
        assert action in g.legal_actions(), action
        g.apply(action)
    assert g.is_over
