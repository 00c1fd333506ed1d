"""Agents' environments (issue #14): steps per second of the PettingZoo and Gymnasium environments next
to the raw engine, in the same run.

Each row plays the same seeded games: **raw** picks a uniform legal action (``g.legal_actions()`` then
``g.apply``: the engine's cost of a decision); **space** does what an environment adds for a decision
(the mask from ``ActionSpace.encoded``, ``decode``, ``apply``) without the observation; **AEC** and
**Gymnasium** are the environments' whole ``last``/``step`` loop (observation vector and mask included),
the agent choosing a uniform index of the mask (Gymnasium: one seat, random bots at the others; only
the seat's steps are counted, the bots' time included). Rows run interleaved, ``--repeat`` times; the
figure is the median round's time per decision, and ``overhead`` is each row's time over raw's.

    python benchmarks/agents.py --players 4 --games 4 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import cores, cpu_model  # noqa: E402

from powergrid_nb import agents, new_game  # noqa: E402


def raw(players: int, seed: int) -> tuple[int, float]:
    g = new_game(players, seed=seed)
    rng = random.Random(seed)
    n, t = 0, time.perf_counter()
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    return n, time.perf_counter() - t


def space(players: int, seed: int) -> tuple[int, float]:
    g = new_game(players, seed=seed)
    sp = agents.ActionSpace(g.map)
    rng = random.Random(seed)
    n, t = 0, time.perf_counter()
    while not g.is_over:
        legal = sp.encoded(g)
        mask = sp.mask(g, legal)
        g.apply(sp.decode(g, rng.choice(np.flatnonzero(mask).tolist()), legal))
        n += 1
    return n, time.perf_counter() - t


def aec(players: int, seed: int) -> tuple[int, float]:
    e = agents.raw_env(players=players)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n, t = 0, time.perf_counter()
    for _agent in e.agent_iter():
        obs, _r, term, trunc, _i = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1
    return n, time.perf_counter() - t


def gym(players: int, seed: int) -> tuple[int, float]:
    e = agents.gym_env(players=players, opponents="random")
    obs, _ = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n, t = 0, time.perf_counter()
    while True:
        obs, _r, term, _t, _i = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1
        if term:
            return n, time.perf_counter() - t


ROWS = {"raw legal_actions + apply": raw, "space: mask + decode + apply": space, "PettingZoo AEC": aec,
        "Gymnasium (one seat)": gym}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=4, help="seeded games per row and round")
    ap.add_argument("--repeat", type=int, default=3, help="rounds, the rows interleaved in each")
    args = ap.parse_args()
    print(f"{cpu_model()}, {cores()} cores, Python {platform.python_version()}; load "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    per: dict[str, list[float]] = {k: [] for k in ROWS}
    counts: dict[str, int] = dict.fromkeys(ROWS, 0)
    for _ in range(args.repeat):
        for name, fn in ROWS.items():
            n = t = 0.0
            for seed in range(args.games):
                k, s = fn(args.players, seed)
                n, t = n + k, t + s
            per[name].append(t / n)
            counts[name] += int(n)
    base = statistics.median(per["raw legal_actions + apply"])
    print(f"{'row':32} {'decisions':>9} {'µs/decision':>12} {'(min-max)':>14} {'steps/s':>9} {'overhead':>9}")
    for name, times in per.items():
        med = statistics.median(times)
        spread = f"{min(times) * 1e6:>6.1f}-{max(times) * 1e6:<7.1f}"
        print(f"{name:32} {counts[name]:>9} {med * 1e6:>12.1f} {spread} {1 / med:>9.0f} {med / base:>8.1f}x")
    print("load after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"command: python benchmarks/agents.py --players {args.players} --games {args.games} "
          f"--repeat {args.repeat}")


if __name__ == "__main__":
    main()
