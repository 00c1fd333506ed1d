"""Bot benchmarks (docs/benchmarks.md): the measured strength bars, self-play speed and a long legality run.

    .venv/bin/python benchmarks/bots.py                      # everything, defaults below (about 10 min)
    .venv/bin/python benchmarks/bots.py --search-games 0     # skip the (slow) search bar
    .venv/bin/python benchmarks/bots.py --property 100       # 4,000 legality games (default 1,000)

1. HeuristicBot vs three RandomBots, 4 players, Germany, original (target: wins >= 90%).
2. SearchBot vs three HeuristicBots (target: clearly more than the 25% share), with its budget.
3. HeuristicBot self-play speed: games/s on one core, beside the frozen bot of 10d45e5
   (benchmarks/frozen_bot; target: the new one at least 0.8x the old one's games per CPU second).
4. Property run: HeuristicBot (self-play and mixed with RandomBots) never makes an illegal move, over
   both editions, both maps, 2-6 players, with and without start cities (the 2-player Recharged games
   include the Trust); and its sound basics (:func:`audit_game`): every power run at the best net
   value, no bid above its limit.
5. Stalls: rounds per game of four (and three) default HeuristicBots under the rule sets the notebooks
   play (:data:`STALL_RULES`); target: none over 30 rounds.
Win rates come with Wilson 95% intervals; seats are rotated so every bot plays every seat equally.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.frozen_bot import OldHeuristicBot  # noqa: E402
from powergrid_nb import new_game  # noqa: E402
from powergrid_nb.bots.base import Bot, RandomBot, play  # noqa: E402
from powergrid_nb.bots.fuel import buyback_cost  # noqa: E402
from powergrid_nb.bots.heuristic import HeuristicBot  # noqa: E402
from powergrid_nb.bots.search import SearchBot  # noqa: E402
from powergrid_nb.engine.actions import Bid, Open  # noqa: E402
from powergrid_nb.engine.game import Game  # noqa: E402
from powergrid_nb.lessons.questions.lesson6 import capped  # noqa: E402
from powergrid_nb.play.runner import bot_seed  # noqa: E402
from powergrid_nb.play.tournaments import tournament  # noqa: E402

CONFIGS = [(e, m, n, sc) for e in ("original", "recharged") for m in ("germany", "usa")
           for n in range(2, 7) for sc in (False, True)]


def bar(label: str, rate: float, lo: float, hi: float, games: int, target: str) -> str:
    return (f"{label:<34} win rate {rate:6.1%}  95% CI [{lo:5.1%}, {hi:5.1%}]  over {games} games"
            f"  (target {target})")


def strength(args: argparse.Namespace) -> None:
    if args.random_games:
        t = time.perf_counter()
        r = tournament([HeuristicBot, RandomBot], args.random_games, players=4, seed=args.seed,
                       progress=not args.quiet, workers=args.workers)
        dt = time.perf_counter() - t
        h = r.summary.loc["heuristic"]
        print(bar("HeuristicBot vs 3 RandomBots", h.win_rate, h.ci_low, h.ci_high, int(h.games), ">= 90%"))
        print(f"{'':<34} mean cities powered {h.mean_score:.1f} (random: "
              f"{r.summary.loc['random', 'mean_score']:.1f}); {dt:.1f} s wall, {args.workers} worker(s)")
        print()
    if args.search_games:
        bot = SearchBot(0, rollouts=args.rollouts, horizon=args.horizon)
        t = time.perf_counter()
        r = tournament([bot, HeuristicBot], args.search_games, players=4, seed=args.seed + 10_000,
                       progress=not args.quiet, workers=args.workers)
        dt = time.perf_counter() - t
        s = r.summary.loc["search"]
        print(bar("SearchBot vs 3 HeuristicBots", s.win_rate, s.ci_low, s.ci_high, int(s.games),
                  "clearly > 25%"))
        horizon = "to the end of the game" if args.horizon is None else f"{args.horizon} rounds"
        print(f"{'':<34} budget: {args.rollouts} re-deals per key decision x every candidate, rollouts "
              f"{horizon} (HeuristicBot policy)")
        print(f"{'':<34} mean cities powered {s.mean_score:.1f} (heuristic: "
              f"{r.summary.loc['heuristic', 'mean_score']:.1f}); {dt:.0f} s wall, "
              f"{dt * args.workers / args.search_games:.1f} CPU-s per game, {args.workers} worker(s)")
        probes = []
        for i in range(4):  # the budget in numbers: the search bot in each seat of one game
            g = new_game(4, seed=args.seed + 20_000)
            probe = SearchBot(i, rollouts=args.rollouts, horizon=args.horizon)
            bots: list = [HeuristicBot(k) for k in range(4)]
            bots[i] = probe
            t = time.perf_counter()
            play(g, bots)
            probes.append((probe.searched, probe.simulations, time.perf_counter() - t))
        searched = sum(p[0] for p in probes) / 4
        sims = sum(p[1] for p in probes) / 4
        secs = sum(p[2] for p in probes) / 4
        print(f"{'':<34} per game (one seed, each seat): {searched:.0f} key decisions searched, {sims:.0f} "
              f"rollouts, {secs:.1f} s, {1000 * secs / max(searched, 1):.0f} ms per key decision")
        print()


def speed(args: argparse.Namespace) -> None:
    """Self-play speed of the HeuristicBot and of the frozen one of 10d45e5, side by side: the same
    seeds, alternating game by game, so that the machine's load falls on both alike."""
    if not args.selfplay:
        return
    kinds = {"HeuristicBot": HeuristicBot, "10d45e5's (frozen)": OldHeuristicBot}
    for cls in kinds.values():
        g = new_game(4, seed=10**6)
        play(g, [cls(i) for i in range(4)])  # warm-up: map, caches
    wall = dict.fromkeys(kinds, 0.0)
    cpu = dict.fromkeys(kinds, 0.0)
    rounds = dict.fromkeys(kinds, 0)
    decisions = dict.fromkeys(kinds, 0)
    for i in range(args.selfplay):
        for name, cls in kinds.items():
            g = new_game(4, seed=args.seed + i)
            t, c = time.perf_counter(), time.process_time()
            play(g, [cls(args.seed + i + k) for k in range(4)])
            wall[name] += time.perf_counter() - t
            cpu[name] += time.process_time() - c
            rounds[name] += g.round
            decisions[name] += len(g.actions)
    from powergrid_nb import accel
    print(f"Self-play speed, 4p Germany original, one core, {args.selfplay} games each, side by side "
          f"({accel.status()['engine']} engine; the frozen bot is pure Python, so compare with "
          f"POWERGRID_NB_ACCEL=0):")
    for name in kinds:
        n = args.selfplay
        print(f"  {name:<20} {n / wall[name]:6.1f} games/s ({n / cpu[name]:.1f} per CPU second; "
              f"{rounds[name] / n:.1f} rounds/game, {decisions[name] / n:.0f} decisions/game, "
              f"{decisions[name] / wall[name]:,.0f} decisions/s)")
    new, old = (args.selfplay / cpu[k] for k in kinds)
    print(f"  the new one's games per CPU second: {new / old:.2f} x the old one's (target >= 0.8)")
    print()


class Audit(NamedTuple):
    """What one game's bot decisions showed (:func:`audit_game`)."""

    decisions: int
    rounds: int
    power: int        # power decisions of HeuristicBots
    power_off: int    # ... whose run was not at the best net value (income less the tokens' buy-back cost)
    bids: int         # opens and raises of HeuristicBots
    bids_over: int    # ... above the bot's limit (its valuation less the money it keeps), R35 aside


def audit_game(g: Game, bots: list[Bot], limit: int = 20_000) -> Audit:
    """Play ``g`` to the end with ``bots`` (in ``g.players`` order), asserting every move legal, and
    count the HeuristicBots' decisions that break the sound basics: a power run below the best net value
    (:func:`powergrid_nb.bots.fuel.buyback_cost`), a bid above the bot's limit (except round 1's forced
    purchase at a minimum bid, R35)."""
    seats = dict(zip(g.players, bots, strict=True))
    n = power = power_off = bids = bids_over = 0
    while not g.is_over:
        me = g.current_player
        bot = seats[me]
        options = g.power_options(me) if isinstance(bot, HeuristicBot) else []
        a = bot.act(g)
        if a not in g.legal_actions():
            raise AssertionError(f"illegal {a} in round {g.round} (seed {g.seed})")
        if options:
            net = {run: income - buyback_cost(g, burnt) for run, income, burnt in options}
            power += 1
            power_off += net[a] < max(net.values())
        if isinstance(bot, HeuristicBot) and isinstance(a, (Open, Bid)):
            amount = a.bid if isinstance(a, Open) else a.amount
            plant = a.plant if isinstance(a, Open) else g.auction.plant
            forced = g.round == 1 and isinstance(a, Open) and amount == g.min_bid(plant)  # R35
            bids += 1
            bids_over += amount > bot.limit(g, me, plant) and not forced
        g.apply(a)
        n += 1
        if n > limit:
            raise AssertionError(f"no end after {limit:,} decisions (seed {g.seed})")
    return Audit(n, g.round, power, power_off, bids, bids_over)


def legal_games(job: tuple) -> tuple[tuple, int, Audit]:
    """Play ``games`` games of one configuration, auditing each; (config, games, summed audit)."""
    (edition, game_map, players, start), games, seed = job
    total = Audit(0, 0, 0, 0, 0, 0)
    for i in range(games):
        g = new_game(players, map=game_map, edition=edition, seed=seed + i, starting_cities=start)
        mixed = i % 2 == 1
        bots = [RandomBot(seed + k) if mixed and k % 2 else HeuristicBot(seed + k) for k in range(players)]
        a = audit_game(g, bots)
        total = Audit(*(x + y for x, y in zip(total, a, strict=True)))
    return job[0], games, total


# The rule sets the stall check plays: the defaults, and the what-ifs the notebooks run (lesson 6's
# capped income and 45 Elektro, the end_cities sweep of notebooks/03_what_if.ipynb and lesson 6).
STALL_RULES = {"standard": {}, "capped income": {"payment": capped(10)}, "45 Elektro": {"starting_money": 45},
               **{f"end_cities {n}": {"end_cities": n} for n in (15, 17, 19)}}
MAX_ROUNDS = 30


def stall_games(job: tuple) -> tuple[str, int, list[int]]:
    """Rounds of ``games`` games of ``players`` default HeuristicBots under one rule set of
    :data:`STALL_RULES` (Germany, original)."""
    name, players, games, seed = job
    rounds = []
    for i in range(games):
        g = new_game(players, seed=seed + i, rules=STALL_RULES[name])
        play(g, [HeuristicBot(bot_seed(seed + i, k)) for k in range(players)])
        rounds.append(g.round)
    return name, players, rounds


def _pool_map(f: Any, jobs: list, workers: int) -> list:
    if workers > 1:
        import multiprocessing as mp
        with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork")) as pool:
            return list(pool.map(f, jobs))
    return [f(j) for j in jobs]


def legality(args: argparse.Namespace) -> None:
    if not args.property:
        return
    jobs = [(c, args.property, args.seed + 1000 * k) for k, c in enumerate(CONFIGS)]
    t = time.perf_counter()
    results = _pool_map(legal_games, jobs, args.workers)
    dt = time.perf_counter() - t
    games = sum(r[1] for r in results)
    audit = Audit(*(sum(r[2][k] for r in results) for k in range(len(Audit._fields))))
    longest = max(results, key=lambda r: r[2].rounds / r[1])
    print(f"Legality: {games} games ({len(CONFIGS)} configurations x {args.property}; half self-play, "
          f"half with RandomBots), {audit.decisions:,} bot decisions, 0 illegal, every game ended; "
          f"{dt:.0f} s wall")
    mean = longest[2].rounds / longest[1]
    print(f"{'':<10} longest configuration on average: {longest[0]} {mean:.1f} rounds")
    print(f"Sound basics (HeuristicBot's decisions in those games): {audit.power_off} of {audit.power:,} "
          f"power runs below the best net value; {audit.bids_over} of {audit.bids:,} bids above the "
          f"bot's limit")
    print()


def stalls(args: argparse.Namespace) -> None:
    if not args.stall_games:
        return
    jobs = [(name, players, args.stall_games, args.seed + 5000)
            for name in STALL_RULES for players in (3, 4)]
    t = time.perf_counter()
    results = _pool_map(stall_games, jobs, args.workers)
    dt = time.perf_counter() - t
    print(f"Stalls: games of default HeuristicBots, Germany, original, {args.stall_games} per rule set "
          f"and player count; rounds per game ({dt:.0f} s wall):")
    for name, players, rounds in results:
        rounds.sort()
        over = sum(r > MAX_ROUNDS for r in rounds)
        print(f"  {name:<16} {players}p  median {rounds[len(rounds) // 2]:3d}  longest {rounds[-1]:3d}  "
              f"over {MAX_ROUNDS}: {over}")
    print()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--random-games", type=int, default=200, help="games of HeuristicBot vs 3 RandomBots")
    ap.add_argument("--search-games", type=int, default=100, help="games of SearchBot vs 3 HeuristicBots")
    ap.add_argument("--rollouts", type=int, default=2, help="SearchBot budget: re-deals per key decision")
    ap.add_argument("--horizon", type=int, default=None, help="SearchBot rollout rounds (none: whole game)")
    ap.add_argument("--selfplay", type=int, default=50, help="games for the self-play speed")
    ap.add_argument("--property", type=int, default=25, help="legality games per configuration (40 configs)")
    ap.add_argument("--stall-games", type=int, default=100,
                    help="games per rule set and player count for the stall check (12 of them)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes")
    ap.add_argument("--seed", type=int, default=0, help="first game seed")
    ap.add_argument("--quiet", action="store_true", help="no progress bars")
    args = ap.parse_args(argv)

    print("powergrid_nb bot benchmark")
    print(f"  command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"  python {platform.python_version()} on {platform.platform()}, {os.cpu_count()} CPUs, "
          f"{args.workers} worker process(es)")
    print(f"  date: {time.strftime('%Y-%m-%d %H:%M:%S %z')}")
    print()
    speed(args)
    strength(args)
    legality(args)
    stalls(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
