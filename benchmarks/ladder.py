"""The bots' rating ladder: each bot against three copies of the one below it, ratings for all, economics.

    .venv/bin/python benchmarks/ladder.py                               # random, heuristic, search-2
    .venv/bin/python benchmarks/ladder.py --bots heuristic,search-2,search-4 --games 10
    .venv/bin/python benchmarks/ladder.py --bots random,heuristic --games 50 --csv ladder.csv

Entries. ``--bots`` lists the ladder, weakest first. An entry is a name of :data:`ENTRIES` (every bot
of ``powergrid_nb.bots.BOTS`` plus presets such as ``search-2``), optionally with keyword arguments
for its class: ``search:rollouts=4``, ``heuristic:horizon=4,slack=1`` (values are Python literals,
else strings). A new preset is one line in :data:`ENTRIES`: a factory ``f(seed=...) -> Bot``.

Games. For each consecutive pair (previous P, next X) of the ladder, X plays against three copies of
P: 4 players, Germany, original edition by default. Each of ``--games`` seeds is played 4 times,
X in each seat (``game.seat_order``, seat 0 being the first player by lot), and every pair uses the
same seeds (common random numbers: the pairs face the same deals). The bot of ``game.players[k]``
is seeded with ``runner.bot_seed(seed, k)``, as ``simulate`` and ``tournament`` seed theirs.

Pairwise win rate. X's win share (``Game.returns()``: 1 for a sole winner, 1/k for k tied winners)
averaged over the pair's games, with a Wilson 95% interval over the games (as if independent; the
four games of a seed share its deal). 25% is equal strength.

Ratings (Bradley-Terry on an Elo scale). Each game is broken into pairwise results between X and each
copy of P by final rank (``Game.ranks()``): the better rank wins, a shared rank counts half to each
(copies of P against each other say nothing about strengths and are left out). The model says entry
i beats j with probability g_i / (g_i + g_j); rating_i = 400 log10(g_i), so 400 points are 10:1 odds
in one pairwise comparison. The strengths maximise the likelihood, found by the MM algorithm of
Hunter (2004, "MM algorithms for generalized Bradley-Terry models"):
g_i <- W_i / sum_j N_ij / (g_i + g_j), W_i the wins of i and N_ij the comparisons of i and j,
normalised to a geometric mean of 1 each step, until no log-strength moves more than 1e-10.
Every pair of entries that met also gets one virtual tie (half a win each way, ``PRIOR``): without
it a perfect record (HeuristicBot never ranks below a RandomBot) has no finite maximum; with it such
a rating is finite but set by the prior, so read it as "at least this far apart" (the report marks
it; the bootstrap cannot move it either, as every resample is a sweep too). The ratings are
shifted so that the anchor (``--anchor``, default heuristic = 1000, else the first entry) has its
value. 95% intervals: the seeds are resampled with replacement (each seed brings all its games, in
every pair: the unit the common random numbers tie together), the ratings refitted and anchored, and
the 2.5th and 97.5th percentiles of 1,000 resamples taken (``--bootstrap``).

Economics, per entry, from its own decisions in every game it played (as X and as P):
- premium: price paid for a plant over its face value (the plant's number), mean per purchase, in
  round 1, round 2 and rounds 3+ (``PlantBought`` events);
- bureaucracy: the share of its power decisions (``Power`` in phase 5, recorded before each is
  applied) whose run earns the maximum income among ``Game.power_options(player)``; and the share at
  the maximum of income less the market value of the tokens the run burns (``Game.market_cost`` of
  them now, what buying them back would cost). A decision where some option burns more than the
  market could sell is left out of that second share (rare);
- rounds per game, the share of its games in which it ended the game (its player was the first to
  reach ``Game.end_cities`` in the final round's building phase, counted from the ``HouseBuilt``
  events), and its win share in those games.

Progress goes to stderr. Ctrl-C stops the run (the games in progress are dropped) and the tables
cover the games that finished. ``--csv PATH`` writes one row per player of each game (:data:`COLUMNS`).
"""

from __future__ import annotations

import argparse
import ast
import csv
import functools
import itertools
import math
import multiprocessing as mp
import os
import platform
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.frozen_bot import OldHeuristicBot  # noqa: E402
from powergrid_nb import IllegalAction, Phase, new_game  # noqa: E402
from powergrid_nb.bots import BOTS, Bot, SearchBot  # noqa: E402
from powergrid_nb.engine.events import HouseBuilt, PlantBought  # noqa: E402
from powergrid_nb.play.results import wilson  # noqa: E402
from powergrid_nb.play.runner import bot_seed  # noqa: E402

Factory = Callable[..., Bot]  # f(seed=...) -> Bot

# The ladder's entries: a name -> a factory f(seed=...) -> Bot. Every registered bot class, and presets.
ENTRIES: dict[str, Factory] = {
    **BOTS,
    "heuristic-10d45e5": OldHeuristicBot,  # the heuristic before issue 27, frozen (benchmarks/frozen_bot)
    "search-2": functools.partial(SearchBot, rollouts=2),
    "search-4": functools.partial(SearchBot, rollouts=4),
    # by time: the issue's budget (1 s a key decision on one core) and a quarter of it
    "search-0.25s": functools.partial(SearchBot, think_time=0.25),
    "search-1s": functools.partial(SearchBot, think_time=1.0),
}
DEFAULT_BOTS = "random,heuristic,search-2"
DEFAULT_GAMES = 12  # seeds per pair: 48 games each; a few minutes on 2 workers (docs/benchmarks.md)
PRIOR = 1.0  # virtual ties per pair of entries that met (see the docstring)
MAX_DECISIONS = 200_000
ROUND_BUCKETS = ("r1", "r2", "r3")  # round 1, round 2, rounds 3+

COLUMNS = [
    "pair", "challenger", "defender", "seed", "rotation", "player", "seat", "entry", "role", "rank",
    "win_share", "score", "cities", "money", "rounds", "ended_game",
    *[f"{k}_{b}" for b in ROUND_BUCKETS for k in ("plants", "premium")],
    "power_decisions", "power_max_income", "power_priced", "power_max_net", "cpu_s",
]


# --- entries --------------------------------------------------------------------------------------

def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"search:rollouts=4,horizon=None"`` -> ``("search", {"rollouts": 4, "horizon": None})``.

    A name of :data:`ENTRIES` is taken whole even if it holds a colon (``heuristic:cautious``).
    """
    spec = spec.strip()
    if spec in ENTRIES:
        return spec, {}
    # the longest entry name before a colon: "heuristic:cautious:slack=1" is a preset's arguments
    cuts = [i for i, c in enumerate(spec) if c == ":" and spec[:i] in ENTRIES]
    if not cuts:
        raise ValueError(f"unknown bot {spec.partition(':')[0]!r}; known: {', '.join(ENTRIES)}")
    name, rest = spec[:cuts[-1]], spec[cuts[-1] + 1:]
    kwargs: dict[str, Any] = {}
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, text = item.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise ValueError(f"{spec!r}: expected name:key=value,key=value, not {item!r}")
        try:
            kwargs[key] = ast.literal_eval(text.strip())
        except (ValueError, SyntaxError):
            kwargs[key] = text.strip()
    if not kwargs:
        raise ValueError(f"{spec!r}: no key=value after the colon")
    return name, kwargs


def factory(spec: str, check: bool = True) -> Factory:
    """The factory ``f(seed=...) -> Bot`` of an entry spec; with ``check``, ValueError if it names no
    bot or its arguments do not fit the bot's class (one bot is made to see)."""
    name, kwargs = parse_spec(spec)
    f = functools.partial(ENTRIES[name], **kwargs) if kwargs else ENTRIES[name]
    if not check:
        return f
    try:
        bot = f(seed=0)
    except TypeError as e:
        raise ValueError(f"{spec!r}: {e}") from None
    if not isinstance(bot, Bot):
        raise ValueError(f"{spec!r} made a {type(bot).__name__}, not a Bot")
    return f


def ladder_specs(text: str) -> list[str]:
    """The ``--bots`` list: at least two distinct valid specs, weakest first."""
    specs: list[str] = []
    for s in filter(None, (s.strip() for s in text.split(","))):
        if specs and "=" in s and ":" not in s and ":" in specs[-1]:
            specs[-1] += "," + s  # "search:rollouts=4,horizon=2": more arguments of the same entry
        else:
            specs.append(s)
    if len(specs) < 2 or len(set(specs)) < len(specs):
        raise ValueError(f"a ladder needs at least two distinct entries, not {specs}")
    for s in specs:
        factory(s)
    return specs


# --- one game -------------------------------------------------------------------------------------

class Task(NamedTuple):
    """One game: challenger X in ``game.seat_order[rotation]`` against copies of the defender."""

    pair: int
    challenger: str
    defender: str
    seed: int
    rotation: int
    players: int = 4
    map: str = "germany"
    edition: str = "original"


def end_trigger(g: Any) -> str | None:
    """The player who first reached ``g.end_cities`` in the final round's building phase, or None."""
    count: dict[str, int] = {}
    for e in g.history:
        if isinstance(e, HouseBuilt):
            count[e.player] = count.get(e.player, 0) + 1
            if e.round == g.round and count[e.player] == g.end_cities and e.player in g.players:
                return e.player
    return None


def power_choice(g: Any, player: str, action: Any) -> tuple[bool, bool | None] | None:
    """(at maximum income, at maximum income less the burnt tokens' market value) of ``action``
    among ``g.power_options(player)``; the second None if some option burns more than the market
    sells; None if ``player`` has no power decision now."""
    options = g.power_options(player)
    if not options:
        return None
    income = {a: i for a, i, _ in options}
    at_max = income.get(action, -1) >= max(income.values())
    net: dict[Any, int] = {}
    for a, i, burnt in options:
        try:
            net[a] = i - g.market_cost(*burnt)
        except IllegalAction:
            return at_max, None
    return at_max, net.get(action, -1) >= max(net.values())


def play_game(task: Task) -> list[dict[str, Any]]:
    """Play one ladder game to the end; one row per player (see :data:`COLUMNS`)."""
    cpu = time.process_time()
    g = new_game(task.players, map=task.map, edition=task.edition, seed=task.seed)
    x = g.seat_order[task.rotation % len(g.players)]
    entry = {p: task.challenger if p == x else task.defender for p in g.players}
    bots = {p: factory(entry[p], check=False)(seed=bot_seed(task.seed, k)) for k, p in enumerate(g.players)}
    power = {p: [0, 0, 0, 0] for p in g.players}  # decisions, at max income, priced, at max net
    for _ in range(MAX_DECISIONS):
        if g.is_over:
            break
        p = g.current_player
        action = bots[p].act(g)
        choice = power_choice(g, p, action) if g.phase == Phase.BUREAUCRACY else None
        if choice is not None:
            at_max, at_net = choice
            tally = power[p]
            tally[0] += 1
            tally[1] += at_max
            if at_net is not None:
                tally[2] += 1
                tally[3] += at_net
        g.apply(action)
    else:
        raise RuntimeError(f"no end after {MAX_DECISIONS} decisions: {task}")
    bought = {p: {b: [0, 0] for b in ROUND_BUCKETS} for p in g.players}
    for e in g.history:
        if isinstance(e, PlantBought) and e.player in bought:
            b = bought[e.player][ROUND_BUCKETS[min(e.round, 3) - 1]]
            b[0] += 1
            b[1] += e.price - e.plant
    trigger = end_trigger(g)
    ranks, shares, scores = g.ranks(), g.returns(), g.scores()
    cpu = time.process_time() - cpu
    rows = []
    for p in g.players:
        row = {"pair": task.pair, "challenger": task.challenger, "defender": task.defender,
               "seed": task.seed, "rotation": task.rotation, "player": p, "seat": g.seat_order.index(p),
               "entry": entry[p], "role": "challenger" if p == x else "defender", "rank": ranks[p],
               "win_share": shares[p], "score": scores[p], "cities": g.city_count(p), "money": g.money(p),
               "rounds": g.round, "ended_game": p == trigger}
        for b in ROUND_BUCKETS:
            row[f"plants_{b}"], row[f"premium_{b}"] = bought[p][b]
        row.update(zip(("power_decisions", "power_max_income", "power_priced", "power_max_net"),
                       power[p], strict=True))
        row["cpu_s"] = round(cpu, 3)
        rows.append(row)
    return rows


# --- many games -----------------------------------------------------------------------------------

def tasks_for(specs: Sequence[str], games: int, seed: int = 0, players: int = 4, game_map: str = "germany",
              edition: str = "original") -> list[Task]:
    """Every game of the ladder, seed by seed (so a stopped run leaves the pairs balanced)."""
    pairs = list(itertools.pairwise(specs))
    return [Task(k, x, p, seed + i, r, players, game_map, edition)
            for i in range(games) for k, (p, x) in enumerate(pairs) for r in range(players)]


def _ignore_sigint() -> None:  # pool workers: Ctrl-C is the parent's to handle
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_ladder(tasks: Sequence[Task], workers: int = 1, progress: bool = False
               ) -> tuple[list[dict[str, Any]], bool]:
    """Play the tasks; (rows of the finished games, whether Ctrl-C stopped the run early)."""
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()

    tty = sys.stderr.isatty()
    every = 1 if tty else max(1, len(tasks) // 20)

    def done(new: list[dict[str, Any]], k: int) -> None:
        rows.extend(new)
        if progress and (k % every == 0 or k == len(tasks)):
            el = time.perf_counter() - t0
            start, end = ("\r", "  ") if tty else ("", "\n")
            sys.stderr.write(f"{start}[{k}/{len(tasks)}] games, {el:.0f} s; last: {new[0]['challenger']} "
                             f"vs 3 {new[0]['defender']}{end}")
            sys.stderr.flush()

    stopped = False
    try:
        if workers <= 1:
            for k, t in enumerate(tasks, 1):
                done(play_game(t), k)
        else:
            context = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
            others = set(mp.active_children())
            with ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_sigint) as pool:
                todo = iter(tasks)  # a few games ahead of the workers: nothing much to cancel on Ctrl-C
                pending = {pool.submit(play_game, t) for t in itertools.islice(todo, 2 * workers)}
                try:
                    k = 0
                    while pending:
                        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for f in finished:
                            k += 1
                            done(f.result(), k)
                            pending.update(pool.submit(play_game, t) for t in itertools.islice(todo, 1))
                except BaseException:
                    for f in pending:
                        f.cancel()
                    # the pool's workers would finish the games they hold (a search game takes many
                    # seconds) and nobody wants those results any more
                    for child in set(mp.active_children()) - others:
                        child.terminate()
                    raise
    except KeyboardInterrupt:
        stopped = True
    if progress and tty:
        sys.stderr.write("\n")
    return rows, stopped


# --- Bradley-Terry --------------------------------------------------------------------------------

def pairwise_wins(rows: Iterable[dict[str, Any]], specs: Sequence[str]) -> dict[int, np.ndarray]:
    """Per seed: ``w[i, j]`` = pairwise wins of entry i over entry j (ties half), challenger against
    each defender of the same game, by final rank."""
    index = {s: i for i, s in enumerate(specs)}
    games: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        games.setdefault((r["pair"], r["seed"], r["rotation"]), []).append(r)
    out: dict[int, np.ndarray] = {}
    for (_, seed, _), players in games.items():
        w = out.setdefault(seed, np.zeros((len(specs), len(specs))))
        x = next(r for r in players if r["role"] == "challenger")
        i = index[x["entry"]]
        for d in players:
            if d is x:
                continue
            j = index[d["entry"]]
            s = 1.0 if x["rank"] < d["rank"] else 0.5 if x["rank"] == d["rank"] else 0.0
            w[i, j] += s
            w[j, i] += 1 - s
    return out


def connected(n: np.ndarray) -> bool:
    """Whether every entry is linked to every other through comparisons (``n[i, j] > 0``)."""
    k = n.shape[0]
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(n[i] > 0):
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return len(seen) == k


def bradley_terry(wins: np.ndarray, prior: float = PRIOR, tol: float = 1e-10,
                  max_iter: int = 200_000) -> np.ndarray:
    """Bradley-Terry ratings on an Elo scale (400 log10 of the strengths, mean 0) by Hunter's MM.

    ``wins[..., i, j]``: wins of i over j (ties counted half to each); leading axes are fitted
    independently (the bootstrap fits all its resamples at once). ``prior``: virtual ties added to
    every pair that met. ValueError if the comparisons do not link every entry, or some entry never
    wins with ``prior`` 0.
    """
    w = np.asarray(wins, dtype=float)
    n = w + np.swapaxes(w, -1, -2)
    met = n > 0
    if not all(connected(m) for m in met.reshape(-1, *met.shape[-2:])):
        raise ValueError("the comparisons do not link every entry: no common scale")
    w = w + prior / 2 * met
    n = n + prior * met
    won = w.sum(axis=-1)
    if np.any(won <= 0):
        raise ValueError("an entry never wins: its maximum-likelihood rating is minus infinity")
    log_g = np.zeros(won.shape)
    for _ in range(max_iter):
        g = np.exp(log_g)
        new = np.log(won) - np.log((n / (g[..., :, None] + g[..., None, :])).sum(axis=-1))
        new -= new.mean(axis=-1, keepdims=True)
        step = np.max(np.abs(new - log_g)) if new.size else 0.0
        log_g = new
        if step < tol:
            break
    else:
        raise RuntimeError(f"the MM fit did not converge in {max_iter} steps")
    return 400 / math.log(10) * log_g


def ratings(rows: Sequence[dict[str, Any]], specs: Sequence[str], anchor: tuple[str, float],
            bootstrap: int = 1000, seed: int = 0, prior: float = PRIOR
            ) -> dict[str, tuple[float, float, float]]:
    """Each entry's rating with its bootstrap 95% interval over seeds: ``{spec: (rating, lo, hi)}``."""
    per_seed = pairwise_wins(rows, specs)
    stack = np.array([per_seed[s] for s in sorted(per_seed)])
    a = list(specs).index(anchor[0])
    point = bradley_terry(stack.sum(axis=0), prior)
    point = point - point[a] + anchor[1]
    if bootstrap and len(stack) > 1:
        rng = np.random.default_rng(seed)
        picks = rng.integers(0, len(stack), size=(bootstrap, len(stack)))
        fits = bradley_terry(stack[picks].sum(axis=1), prior)
        fits = fits - fits[:, [a]] + anchor[1]
        lo, hi = np.percentile(fits, [2.5, 97.5], axis=0)
    else:
        lo = hi = np.full(len(specs), np.nan)
    return {s: (float(point[i]), float(lo[i]), float(hi[i])) for i, s in enumerate(specs)}


# --- the report -----------------------------------------------------------------------------------

def pair_table(rows: Sequence[dict[str, Any]], specs: Sequence[str]) -> list[dict[str, Any]]:
    """Per pair: games, the challenger's mean win share with its Wilson 95% interval, mean scores."""
    out = []
    for k, (p, x) in enumerate(itertools.pairwise(specs)):
        xs = [r for r in rows if r["pair"] == k and r["role"] == "challenger"]
        ds = [r for r in rows if r["pair"] == k and r["role"] == "defender"]
        share = sum(r["win_share"] for r in xs)
        lo, hi = wilson(share, len(xs))
        out.append({"challenger": x, "defender": p, "games": len(xs),
                    "win_share": share / len(xs) if xs else math.nan, "lo": lo, "hi": hi,
                    "score_x": _mean(r["score"] for r in xs), "score_p": _mean(r["score"] for r in ds),
                    "cpu_s": _mean(r["cpu_s"] for r in xs)})
    return out


def economics(rows: Sequence[dict[str, Any]], specs: Sequence[str]) -> dict[str, dict[str, float]]:
    """Per entry, from its own players' rows: see the module docstring."""
    out = {}
    for s in specs:
        mine = [r for r in rows if r["entry"] == s]
        games = {(r["pair"], r["seed"], r["rotation"]): r["rounds"] for r in mine}
        ended = [r for r in mine if r["ended_game"]]
        e: dict[str, float] = {"games": len(games), "rounds": _mean(games.values())}
        for b in ROUND_BUCKETS:
            n = sum(r[f"plants_{b}"] for r in mine)
            e[f"plants_{b}"] = n
            e[f"premium_{b}"] = sum(r[f"premium_{b}"] for r in mine) / n if n else math.nan
        dec = sum(r["power_decisions"] for r in mine)
        priced = sum(r["power_priced"] for r in mine)
        e["power_decisions"] = dec
        e["max_income"] = sum(r["power_max_income"] for r in mine) / dec if dec else math.nan
        e["max_net"] = sum(r["power_max_net"] for r in mine) / priced if priced else math.nan
        e["unpriced"] = dec - priced
        e["ended"] = len(ended) / len(games) if games else math.nan
        e["ended_games"] = len(ended)
        e["ended_win"] = _mean(r["win_share"] for r in ended)
        out[s] = e
    return out


def _mean(values: Iterable[float]) -> float:
    v = list(values)
    return sum(v) / len(v) if v else math.nan


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:6.1%}"


def _num(x: float, fmt: str = "6.1f") -> str:
    return f"{'-':>{fmt.split('.')[0]}}" if math.isnan(x) else format(x, fmt)


def report(rows: Sequence[dict[str, Any]], specs: Sequence[str], anchor: tuple[str, float],
           bootstrap: int = 1000, seed: int = 0) -> str:
    """The printed tables: ratings, pairwise win rates, economics."""
    w = max(10, *(len(s) for s in specs))
    lines = [f"Ratings: Bradley-Terry, Elo scale, {anchor[0]} = {anchor[1]:g}; 95% interval: "
             f"{bootstrap} resamples of the seeds"]
    try:
        rated = ratings(rows, specs, anchor, bootstrap, seed)
    except ValueError as e:
        lines.append(f"  no ratings: {e}")
    else:
        total = sum(pairwise_wins(rows, specs).values())
        lines.append(f"{'entry':<{w}}  rating  95% interval     pairwise won-lost")
        for i, s in enumerate(specs):
            r, lo, hi = rated[s]
            # a clean sweep has no finite maximum: the virtual ties alone set that gap
            swept = [f"swept {specs[j]}" for j in range(len(specs)) if total[i, j] and not total[j, i]]
            swept += [f"swept by {specs[j]}" for j in range(len(specs)) if total[j, i] and not total[i, j]]
            note = f"  ({'; '.join(swept)})" if swept else ""
            lines.append(f"{s:<{w}}  {r:6.0f}  [{_num(lo, '6.0f')}, {_num(hi, '6.0f')}]  "
                         f"{total[i].sum():7.1f}-{total[:, i].sum():<7.1f}{note}".rstrip())
        if any(total[i, j] and not total[j, i] for i in range(len(specs)) for j in range(len(specs))):
            lines.append("(swept: never ranked below that neighbour; such a gap is set by the prior of one "
                         "virtual tie and grows with the games: read it as a floor)")
    lines += ["", "Pairwise: the challenger against three copies of the entry below it; its win share "
              "(ties shared; 25% = equal), Wilson 95%",
              f"{'challenger':<{w}}  {'vs 3x':<{w}}  games  win share  95% interval     "
              f"score: it / the three  CPU s/game"]
    for p in pair_table(rows, specs):
        lines.append(f"{p['challenger']:<{w}}  {p['defender']:<{w}}  {p['games']:5d}  "
                     f"{_pct(p['win_share']):>9}  [{p['lo']:5.1%}, {p['hi']:6.1%}]  "
                     f"{_num(p['score_x'], '11.1f')} / {_num(p['score_p'], '4.1f'):<9}  "
                     f"{_num(p['cpu_s'], '10.2f')}")
    econ = economics(rows, specs)
    lines += ["", "Economics: each entry's own decisions in all the games it played",
              f"{'entry':<{w}}  games  rounds  premium r1    r2   r3+  plants r1/r2/r3+  max income  "
              f"max net   ends  wins then"]
    for s, e in econ.items():
        plants = f"{e['plants_r1']:.0f}/{e['plants_r2']:.0f}/{e['plants_r3']:.0f}"
        lines.append(f"{s:<{w}}  {e['games']:5.0f}  {_num(e['rounds'], '6.1f')}  "
                     f"{_num(e['premium_r1'], '10.1f')}  {_num(e['premium_r2'], '4.1f')}  "
                     f"{_num(e['premium_r3'], '4.1f')}  {plants:<16}  "
                     f"{_pct(e['max_income']):>10}  {_pct(e['max_net']):>7}  {_pct(e['ended']):>6}  "
                     f"{_pct(e['ended_win']):>9}".rstrip())
    decisions = sum(e["power_decisions"] for e in econ.values())
    unpriced = sum(e["unpriced"] for e in econ.values())
    lines += [
        "premium: mean Elektro paid over the plant's number, per purchase.",
        f"max income, max net: share of its power decisions ({decisions:.0f} in all) at the maximum income "
        "of its options,",
        f"and at the maximum of income less the market value of the tokens burnt ({unpriced:.0f} left out: "
        "unpriceable).",
        "ends: share of its games in which it was first to reach the end's cities (last round); wins then: "
        "its win share there."]
    return "\n".join(lines)


def write_csv(path: str | Path, rows: Sequence[dict[str, Any]]) -> None:
    """The per-game rows (one per player of each game) as CSV."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)


def _commit() -> str:
    try:
        p = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).resolve().parent,
                           capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return p.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--bots", default=DEFAULT_BOTS,
                    help=f"the ladder, weakest first: entries ({', '.join(ENTRIES)}) or name:key=value,...")
    ap.add_argument("--games", type=int, default=DEFAULT_GAMES,
                    help="seeds per pair (each played once with the challenger in every seat)")
    ap.add_argument("--players", type=int, default=4, help="players per game")
    ap.add_argument("--map", default="germany", help="map")
    ap.add_argument("--edition", default="original", choices=("original", "recharged"), help="edition")
    ap.add_argument("--anchor", default="heuristic=1000",
                    help="entry=rating fixed on the scale (the first entry if that one is not in the ladder)")
    ap.add_argument("--bootstrap", type=int, default=1000, help="resamples of the seeds for the intervals")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes")
    ap.add_argument("--seed", type=int, default=0, help="first game seed")
    ap.add_argument("--csv", default=None, help="also write the per-game rows (one per player) here")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = ap.parse_args(argv)
    try:
        specs = ladder_specs(args.bots)
        name, _, value = args.anchor.rpartition("=")
        anchor = (name if name in specs else specs[0], float(value))
    except ValueError as e:
        ap.error(str(e))
    if args.games < 1:
        ap.error("--games must be at least 1")

    print("powergrid_nb bot rating ladder")
    print(f"  command: {' '.join([Path(sys.executable).name, *(sys.argv if argv is None else argv)])}")
    print(f"  python {platform.python_version()} on {platform.platform()}, {os.cpu_count()} CPUs, "
          f"{args.workers} worker process(es); commit {_commit()}")
    print(f"  date: {time.strftime('%Y-%m-%d %H:%M:%S %z')}")
    print(f"  ladder: {' < '.join(specs)}; {args.players} players, {args.map}, {args.edition}; "
          f"{args.games} seeds x {args.players} seats per pair (seeds {args.seed}-"
          f"{args.seed + args.games - 1}, the same in every pair)")
    print()
    tasks = tasks_for(specs, args.games, args.seed, args.players, args.map, args.edition)
    t = time.perf_counter()
    rows, stopped = run_ladder(tasks, args.workers, progress=not args.quiet)
    wall = time.perf_counter() - t
    games = len(rows) // args.players
    if stopped:
        print(f"INTERRUPTED: {games} of {len(tasks)} games finished; the tables use those")
    if not rows:
        return 130 if stopped else 1
    print(report(rows, specs, anchor, args.bootstrap, args.seed))
    cpu = sum(r["cpu_s"] for r in rows) / args.players
    print(f"\n{games} games in {wall:.1f} s wall, {cpu:.1f} CPU-s in the games, {args.workers} worker(s)")
    if args.csv:
        write_csv(args.csv, rows)
        print(f"per-game rows: {args.csv}")
    return 130 if stopped else 0


if __name__ == "__main__":
    sys.exit(main())
