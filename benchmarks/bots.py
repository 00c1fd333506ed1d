"""Bot benchmarks (docs/benchmarks.md): the measured strength bars, self-play speed and a long legality run.

    .venv/bin/python benchmarks/bots.py                      # everything, defaults below (about 10 min)
    .venv/bin/python benchmarks/bots.py --search-games 0     # skip the (slow) search bar
    .venv/bin/python benchmarks/bots.py --property 100       # 4,000 legality games (default 1,000)

1. HeuristicBot vs three RandomBots, 4 players, Germany, original (target: wins >= 90%).
2. SearchBot vs three HeuristicBots (target: clearly more than the 25% share), with its budget.
3. HeuristicBot self-play speed: games/s on one core.
4. Property run: HeuristicBot (self-play and mixed with RandomBots) never makes an illegal move, over
   both editions, both maps, 2-6 players, with and without start cities (the 2-player Recharged games
   include the Trust).
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from powergrid_nb import new_game  # noqa: E402
from powergrid_nb.bots.base import RandomBot, play  # noqa: E402
from powergrid_nb.bots.heuristic import HeuristicBot  # noqa: E402
from powergrid_nb.bots.search import SearchBot  # noqa: E402
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
    if not args.selfplay:
        return
    g = new_game(4, seed=10**6)
    play(g, [HeuristicBot(i) for i in range(4)])  # warm-up: map, caches
    rounds = decisions = 0
    t, cpu = time.perf_counter(), time.process_time()
    for i in range(args.selfplay):
        g = new_game(4, seed=args.seed + i)
        play(g, [HeuristicBot(args.seed + i + k) for k in range(4)])
        rounds += g.round
        decisions += len(g.actions)
    dt, dcpu = time.perf_counter() - t, time.process_time() - cpu
    print(f"HeuristicBot self-play, 4p Germany original, one core: {args.selfplay / dt:.1f} games/s "
          f"({args.selfplay / dcpu:.1f} per CPU second; {rounds / args.selfplay:.1f} rounds/game, "
          f"{decisions / args.selfplay:.0f} decisions/game, {decisions / dt:,.0f} decisions/s; the bot reads "
          f"the game itself through the public queries, no re-dealt view)")
    print()


def legal_games(job: tuple) -> tuple[tuple, int, int, int]:
    """Play ``games`` games of one configuration asserting legality; (config, games, decisions, rounds)."""
    (edition, game_map, players, start), games, seed = job
    decisions = rounds = 0
    for i in range(games):
        g = new_game(players, map=game_map, edition=edition, seed=seed + i, starting_cities=start)
        mixed = i % 2 == 1
        bots = [RandomBot(seed + k) if mixed and k % 2 else HeuristicBot(seed + k) for k in range(players)]
        seats = dict(zip(g.players, bots, strict=True))
        n = 0
        while not g.is_over:
            a = seats[g.current_player].act(g)
            if a not in g.legal_actions():
                raise AssertionError(f"illegal {a} in {g!r} (config {job[0]}, seed {seed + i})")
            g.apply(a)
            n += 1
            if n > 20_000:
                raise AssertionError(f"no end after 20,000 decisions (config {job[0]}, seed {seed + i})")
        decisions += n
        rounds += g.round
    return job[0], games, decisions, rounds


def legality(args: argparse.Namespace) -> None:
    if not args.property:
        return
    jobs = [(c, args.property, args.seed + 1000 * k) for k, c in enumerate(CONFIGS)]
    t = time.perf_counter()
    if args.workers > 1:
        import multiprocessing as mp
        with ProcessPoolExecutor(args.workers, mp_context=mp.get_context("fork")) as pool:
            results = list(pool.map(legal_games, jobs))
    else:
        results = [legal_games(j) for j in jobs]
    dt = time.perf_counter() - t
    games = sum(r[1] for r in results)
    decisions = sum(r[2] for r in results)
    longest = max(results, key=lambda r: r[3] / r[1])
    print(f"Legality: {games} games ({len(CONFIGS)} configurations x {args.property}; half self-play, half "
          f"with RandomBots), {decisions:,} bot decisions, 0 illegal, every game ended; {dt:.0f} s wall")
    print(f"{'':<10} longest configuration on average: {longest[0]} {longest[3] / longest[1]:.1f} rounds")
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
