"""The heuristic bot's sound basics, as properties over whole games (issue 27), and the end game.

Every configuration (both editions, both maps, 2-6 players) and the rule sets the notebooks play. The
1,000-game run of the same checks is ``benchmarks/bots.py`` (docs/benchmarks.md, "Bots").
"""

from __future__ import annotations

import pytest
from _tiers import quick
from test_bots import at, clear_board, free_cities, poke, turn

from benchmarks.bots import CONFIGS, MAX_ROUNDS, STALL_RULES, audit_game, stall_games
from powergrid_nb import new_game
from powergrid_nb.bots import HeuristicBot, RandomBot, play
from powergrid_nb.bots.fuel import FALLBACK, buyback_cost
from powergrid_nb.engine.actions import Build
from powergrid_nb.engine.events import PlantsRun
from powergrid_nb.engine.game import Game

GAMES = 2 if quick() else 6  # per configuration (40 of them)
STALL_GAMES = 10 if quick() else 40  # per rule set and player count


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}p{'-start' if c[3] else ''}")
def test_R74_R77_every_power_run_has_the_best_net_value_and_no_bid_exceeds_the_limit(config) -> None:
    """In bureaucracy the bot runs the plants whose income less the buy-back cost of the tokens burnt
    is highest; it never bids above its limit (round 1's forced purchase at a minimum bid aside, R35)."""
    edition, game_map, players, start = config
    for i in range(GAMES):
        g = new_game(players, map=game_map, edition=edition, seed=100 + i, starting_cities=start)
        bots = [RandomBot(i + k) if i % 2 and k % 2 else HeuristicBot(i + k) for k in range(players)]
        audit = audit_game(g, bots)
        assert audit.power > 0 and audit.bids > 0
        assert (audit.power_off, audit.bids_over) == (0, 0)


@pytest.mark.parametrize("rules", STALL_RULES)
@pytest.mark.parametrize("players", [3, 4])
def test_R96_default_bots_end_every_game_within_30_rounds(rules: str, players: int) -> None:
    """No stalls: the standard rules and every what-if the notebooks run (capped income, 45 Elektro,
    end_cities 15-19)."""
    _, _, rounds = stall_games((rules, players, STALL_GAMES, 7_000))
    assert max(rounds) <= MAX_ROUNDS


def with_market(g, cards: list[int]):
    """``g`` in Step 3 with only ``cards`` on sale and nothing left in the deck (the rest boxed)."""
    d = g.to_dict()
    st = d["state"]
    owned = {c for p in st["players"].values() for c in p["plants"]}
    everything = [c for w in ("market", "deck", "removed", "boxed") for c in st[w] if c != "step3"]
    st["market"], st["deck"], st["step"] = list(cards), [], 3
    st["boxed"] = [c for c in everything if c not in cards and c not in owned] + ["step3"]
    st["removed"] = []
    return Game.from_dict(d)


def stalemate(my_money: int = 300, rival_money: int = 320):
    """Phase 4, the end at 12 cities: the bot to build and one rival own 10 cities each and power them
    all with eco plants; the bot can reach 12 but would then lose on money (R100) to the rival. The
    two other players own nothing."""
    g = at(phase=4, rules={"end_cities": 12})
    me = g.current_player
    rival = next(n for n in g.players if n != me)
    g = clear_board(g)
    free = free_cities(g)
    for name in g.players:
        g = poke(g, name, plants=[], tokens=[0, 0, 0, 0], money=0)
    g = poke(g, me, plants=[50, 37], money=my_money, cities=free[:10])  # 6 + 4 cities, no fuel
    g = poke(g, rival, plants=[44, 27, 22], money=rival_money, cities=free[10:20])  # 5 + 3 + 2
    return g, me


def test_R96_a_bot_that_cannot_gain_by_waiting_ends_a_game_it_loses() -> None:
    """Nothing on sale can raise its capacity and it earns no more than the leader: holding back only
    drags the game on, so it builds to the end threshold."""
    g, me = stalemate()
    g = with_market(g, [])
    bot = HeuristicBot()
    rival = bot.rival_best(g, me)
    assert not bot.waiting_helps(g, me, rival)
    acts = turn(g, bot, me)
    assert g.city_count(me) + sum(isinstance(a, Build) for a in acts) >= g.end_cities


def test_R96_a_losing_bot_holds_back_while_a_bigger_plant_it_can_afford_is_on_show() -> None:
    g, me = stalemate()
    g = with_market(g, [36, 38, 39, 40, 42, 46])  # 38 powers 7 more: 300 Elektro buy it
    bot = HeuristicBot()
    assert bot.waiting_helps(g, me, bot.rival_best(g, me))
    acts = turn(g, bot, me)
    assert g.city_count(me) + sum(isinstance(a, Build) for a in acts) < g.end_cities


def test_buyback_cost_is_the_market_cost_and_prices_a_shortfall_at_the_dearest_space() -> None:
    g = new_game(4, seed=3)
    assert buyback_cost(g, (3, 1, 0, 0)) == g.market_cost(3, 1, 0, 0)
    counts = g.resource_counts()
    short = (0, 0, 0, counts[3] + 2)  # two uranium more than the market holds
    dearest = max(FALLBACK[3], g.resource_track.buy_cost(3, 1, 1))
    assert buyback_cost(g, short) == g.market_cost(0, 0, 0, counts[3]) + 2 * dearest


def test_R99_the_log_says_why_a_bot_ran_fewer_plants_than_it_could() -> None:
    """When a run powers fewer cities than possible, the log line says how many were possible, the
    income given up and what the tokens kept are worth; a HeuristicBot gives up no more than it keeps."""
    seen = 0
    for seed in range(12):
        g = new_game(4, seed=seed)
        play(g, [HeuristicBot(seed + k) for k in range(4)])
        for e in g.history:
            if isinstance(e, PlantsRun) and e.possible is not None and e.possible > e.powered:
                seen += 1
                assert e.forgone == g.income(e.possible) - g.income(e.powered)
                assert f"not the {e.possible} possible: {e.forgone} Elektro less income" in e.text()
                if e.kept is not None:
                    assert e.forgone <= e.kept
                    assert f"for {e.kept} Elektro of tokens kept" in e.text()
    assert seen >= 10
