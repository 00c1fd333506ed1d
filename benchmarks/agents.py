"""Agents' environments: steps per second of the PettingZoo and Gymnasium environments next
to the raw engine, in the same run.

Each row plays seeded games (the same seeds in every row):

- **raw**: a uniform pick of ``g.legal_actions()``, then ``g.apply`` (the engine's cost of a decision);
- **raw, same games**: the decisions of the **space fast** row's games replayed the raw way
  (``g.legal_actions()`` then ``g.apply``): the engine's cost on exactly the games the agents play
  (a uniform index of the mask makes other games than a uniform legal action: auctions on the bid
  ladder, more decisions);
- **space**: what an environment adds for a decision without the observation: the legal indices, the
  mask, the action of the index picked, ``apply``; *reference* with ``ActionSpace.encoded`` (every legal
  action encoded), *fast* with ``FastLegal`` (the indices read from the position);
- **encoding**: the space fast row plus the observation vector of the player to act
  (``FastObserver``, told who decided since its last look, as the environments do): all the encoding
  an environment does for a decision, without PettingZoo's or Gymnasium's own API (the target's
  "overhead of encoding");
- **PettingZoo AEC**: the environment's whole ``agent_iter``/``last``/``step`` loop, observation vector
  and mask included;
- **Gymnasium**: one seat against random bots; the row counts the seat's ``step`` calls and its time
  is the episode's time less the bots' own decisions (``_play_bots``, timed the same way: each bot's
  ``act`` and the ``apply`` of its action), so it is the seat's decision, the environment's work and
  the observation after the bots have played. *per game decision*: the episode's whole time (the
  bots' decisions included) over all the game's decisions after ``reset`` (the seat's and the bots'):
  what a learner's loop costs per decision of the game.

The *reference* rows play the environments with ``pos.reference = True`` (``ActionSpace.encoded`` and
``ObservationSpec.of`` from the observation dict, as before the fast forms): the same episodes,
index for index. The agent is a uniform index of the mask, picked as cheaply as raw's pick from a list.
Rows run interleaved, ``--repeat`` times; the figure is the median round's time per decision;
``x raw`` is a row's time over raw's, ``over raw`` its extra time over raw's ((row - raw) / raw), and
``x same`` its time over *raw, same games*.

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
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import cores, cpu_model  # noqa: E402

from powergrid_nb import agents, new_game  # noqa: E402
from powergrid_nb.agents.fastmask import FastLegal  # noqa: E402
from powergrid_nb.agents.fastobs import FastObserver  # noqa: E402
from powergrid_nb.agents.observation import ObservationSpec  # noqa: E402
from powergrid_nb.engine.actions import Action  # noqa: E402


def pick(mask: np.ndarray, rng: random.Random) -> int:
    """The agent: a uniform legal index (as cheap as raw's pick from a list)."""
    legal = mask.nonzero()[0]
    return int(legal[int(rng.random() * len(legal))])


def raw(players: int, seed: int) -> tuple[int, float]:
    g = new_game(players, seed=seed)
    rng = random.Random(seed)
    n, t = 0, time.perf_counter()
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    return n, time.perf_counter() - t


_PLAYED: dict[tuple[int, int], list[Action]] = {}


def played(players: int, seed: int) -> list[Action]:
    """The decisions of the space fast row's game (recorded once, untimed)."""
    if (players, seed) not in _PLAYED:
        g = new_game(players, seed=seed)
        fast = FastLegal(agents.ActionSpace(g.map))
        rng, out = random.Random(seed), []
        while not g.is_over:
            legal = fast.legal(g)
            out.append(fast.action(g, legal, pick(fast.mask(legal), rng)))
            g.apply(out[-1])
        _PLAYED[players, seed] = out
    return _PLAYED[players, seed]


def raw_same_games(players: int, seed: int) -> tuple[int, float]:
    decisions = played(players, seed)
    g = new_game(players, seed=seed)
    t = time.perf_counter()
    for a in decisions:
        g.legal_actions()
        g.apply(a)
    return len(decisions), time.perf_counter() - t


def space_reference(players: int, seed: int) -> tuple[int, float]:
    g = new_game(players, seed=seed)
    sp = agents.ActionSpace(g.map)
    rng = random.Random(seed)
    n, t = 0, time.perf_counter()
    while not g.is_over:
        legal = sp.encoded(g)
        g.apply(sp.decode(g, pick(sp.mask(g, legal), rng), legal))
        n += 1
    return n, time.perf_counter() - t


def space_fast(players: int, seed: int, observe: bool = False) -> tuple[int, float]:
    """``FastLegal``'s work for a decision; with ``observe``, the encoding row: also the observation of
    the player to act (FastObserver, told who decided since its last look, as the environments do)."""
    g = new_game(players, seed=seed)
    fast = FastLegal(agents.ActionSpace(g.map))
    observer = FastObserver(ObservationSpec(players, list(g.map.cities))) if observe else None
    rng = random.Random(seed)
    acted: set[str] | None = None
    n, t = 0, time.perf_counter()
    while not g.is_over:
        if observer is not None:
            observer.of(g, g.current_player, acted)  # type: ignore[arg-type]
        legal = fast.legal(g)
        action = fast.action(g, legal, pick(fast.mask(legal), rng))
        g.apply(action)
        if observer is not None:
            acted = {action.player}
        n += 1
    return n, time.perf_counter() - t


def aec(players: int, seed: int, reference: bool = False) -> tuple[int, float]:
    e = agents.raw_env(players=players)
    e.pos.reference = reference
    e.reset(seed=seed)
    rng = random.Random(seed)
    n, t = 0, time.perf_counter()
    for _agent in e.agent_iter():
        obs, _r, term, trunc, _i = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(pick(obs["action_mask"], rng))
        n += 1
    return n, time.perf_counter() - t


def gym(players: int, seed: int, reference: bool = False, per_game_decision: bool = False
        ) -> tuple[int, float]:
    e = agents.gym_env(players=players, opponents="random")
    e.pos.reference = reference
    obs, _ = e.reset(seed=seed)
    before = len(e.game.actions)  # the bots' opening decisions, made by reset()
    bots, play_bots = [0.0], e._play_bots

    def timed_bots() -> None:  # the bots' decisions (act + apply), taken out of the seat's time
        t0 = time.perf_counter()
        play_bots()
        bots[0] += time.perf_counter() - t0

    e._play_bots = timed_bots
    rng = random.Random(seed)
    n, t = 0, time.perf_counter()
    while True:
        obs, _r, term, _t, _i = e.step(pick(obs["action_mask"], rng))
        n += 1
        if term:
            t = time.perf_counter() - t
            if per_game_decision:  # every decision of the game after reset, the bots' time included
                return len(e.game.actions) - before, t
            return n, t - bots[0]


RAW, SAME = "raw legal_actions + apply", "raw, same games"
ROWS: dict[str, Callable[[int, int], tuple[int, float]]] = {
    RAW: raw,
    SAME: raw_same_games,
    "space reference": space_reference,
    "space fast": space_fast,
    "encoding (space + observation)": lambda p, s: space_fast(p, s, observe=True),
    "PettingZoo AEC reference": lambda p, s: aec(p, s, reference=True),
    "PettingZoo AEC": aec,
    "Gymnasium seat reference": lambda p, s: gym(p, s, reference=True),
    "Gymnasium seat": gym,
    "Gymnasium per game decision": lambda p, s: gym(p, s, per_game_decision=True),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=4, help="seeded games per row and round")
    ap.add_argument("--repeat", type=int, default=3, help="rounds, the rows interleaved in each")
    args = ap.parse_args()
    print(f"{cpu_model()}, {cores()} cores, Python {platform.python_version()}; load "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    for seed in range(args.games):
        played(args.players, seed)
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
    base, same = statistics.median(per[RAW]), statistics.median(per[SAME])
    print(f"{'row':30} {'decisions':>9} {'µs/decision':>12} {'(min-max)':>14} {'steps/s':>8} "
          f"{'x raw':>6} {'over raw':>9} {'x same':>7}")
    for name, times in per.items():
        med = statistics.median(times)
        spread = f"{min(times) * 1e6:>6.1f}-{max(times) * 1e6:<7.1f}"
        print(f"{name:30} {counts[name]:>9} {med * 1e6:>12.1f} {spread} {1 / med:>8.0f} "
              f"{med / base:>5.1f}x {(med - base) / base:>8.1f}x {med / same:>6.1f}x")
    print("load after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"command: python benchmarks/agents.py --players {args.players} --games {args.games} "
          f"--repeat {args.repeat}")


if __name__ == "__main__":
    main()
