"""Tournaments between bots: one game per seed, seats rotated, win rates with Wilson intervals.

>>> from powergrid_nb.tournaments import tournament
>>> r = tournament(["heuristic", "random", "random", "random"], games=8, progress=False)
>>> r.summary[["games", "wins", "win_rate", "ci_low", "ci_high"]]  # doctest: +SKIP
"""

from __future__ import annotations

import copy
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from .bots.base import Bot, make_bot
from .newgame import new_game

BotSpec = str | Bot | Callable[..., Bot]
GAME_COLUMNS = ["game", "seed", "seat", "player", "entry", "bot", "score", "money", "cities", "rank",
                "winner", "win_share", "rounds", "decisions"]
SUMMARY_COLUMNS = ["games", "wins", "win_rate", "ci_low", "ci_high", "mean_score", "mean_rank",
                   "mean_money"]


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a proportion ``wins / n`` (95% for the default ``z``); (0, 1) if n = 0.

    ``wins`` may be fractional (shared victories count 1/k).
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n))) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class TournamentResult:
    """``games``: one row per game and seat; ``summary``: one row per bot (index ``bot``)."""

    games: pd.DataFrame
    summary: pd.DataFrame

    def __repr__(self) -> str:
        n = self.games["game"].nunique() if len(self.games) else 0
        return f"TournamentResult({n} games)\n{self.summary.to_string()}"

    def _repr_html_(self) -> str:
        n = self.games["game"].nunique() if len(self.games) else 0
        return f"<p>TournamentResult: {n} games</p>" + self.summary.to_html()


def bot_seed(game_seed: int, entry: int) -> int:
    """The seed of the bot of lineup entry ``entry`` in the game of ``game_seed`` (reproducible)."""
    return (game_seed * 1_000_003 + 7919 * (entry + 1)) % 2**32


def build_bot(spec: BotSpec, seed: int) -> Bot:
    """A fresh bot for one game: a registry name, a Bot class or factory, or an instance (copied and
    re-seeded)."""
    if isinstance(spec, str):
        return make_bot(spec, seed)
    if isinstance(spec, Bot):
        bot = copy.deepcopy(spec)
        bot.seed = seed
        bot.rng.seed(seed)
        return bot
    if callable(spec):
        bot = spec(seed=seed)
        if not isinstance(bot, Bot):
            raise TypeError(f"bot factory {spec!r} returned {type(bot).__name__}, not a Bot")
        return bot
    raise TypeError(f"a bot spec is a name, a Bot or a factory, not {type(spec).__name__}")


def lineup(bots: Sequence[BotSpec], players: int | None) -> list[BotSpec]:
    """One spec per seat: ``bots`` as given, the last one filling any remaining seats."""
    if not bots:
        raise ValueError("give at least one bot")
    n = len(bots) if players is None else players
    if not 2 <= n <= 6:
        raise ValueError(f"Power Grid is for 2 to 6 players, not {n}")
    if len(bots) > n:
        raise ValueError(f"{len(bots)} bots for {n} seats")
    return list(bots) + [bots[-1]] * (n - len(bots))


def labels(specs: Sequence[BotSpec]) -> list[str]:
    """The name each entry is reported under: the registry name, else the bot's ``name``."""
    return [s if isinstance(s, str) else build_bot(s, 0).name for s in specs]


def play_one(specs: Sequence[BotSpec], names: Sequence[str], game: int, seed: int, rotation: int,
             map: Any, edition: str, game_options: dict[str, Any]) -> list[dict[str, Any]]:
    """Play one game; rows for the games frame. Entry ``e`` sits at seat ``(e + rotation) % n``."""
    from .bots.base import play

    n = len(specs)
    g = new_game(n, map=map, edition=edition, seed=seed, **game_options)
    order = g.seat_order  # seat 0 is the first player by lot (R7), then clockwise
    at_seat = {(e + rotation) % n: e for e in range(n)}
    bots = {order[s]: build_bot(specs[at_seat[s]], bot_seed(seed, at_seat[s])) for s in range(n)}
    play(g, bots)
    scores, shares = g.scores(), g.returns()
    keys = {pl: g._rank_key(g.ctx.index[pl]) for pl in g.players}
    rows = []
    for s in range(n):
        pl, e = order[s], at_seat[s]
        rank = 1 + sum(keys[q] > keys[pl] for q in g.players)
        rows.append({"game": game, "seed": seed, "seat": s, "player": pl, "entry": e, "bot": names[e],
                     "score": scores[pl], "money": g.money(pl), "cities": len(g.cities_of(pl)),
                     "rank": rank, "winner": shares[pl] > 0, "win_share": shares[pl],
                     "rounds": g.round, "decisions": len(g.actions)})
    return rows


def _play_args(args: tuple) -> list[dict[str, Any]]:
    return play_one(*args)


def summarise(games: pd.DataFrame) -> pd.DataFrame:
    """Per bot: games, wins (sum of win shares), win rate with its Wilson 95% interval, means."""
    rows = []
    for bot, df in games.groupby("bot", sort=False):
        n, w = len(df), float(df["win_share"].sum())
        lo, hi = wilson(w, n)
        rows.append({"bot": bot, "games": n, "wins": w, "win_rate": w / n if n else math.nan,
                     "ci_low": lo, "ci_high": hi, "mean_score": float(df["score"].mean()),
                     "mean_rank": float(df["rank"].mean()), "mean_money": float(df["money"].mean())})
    return pd.DataFrame(rows, columns=["bot", *SUMMARY_COLUMNS]).set_index("bot")


def tournament(bots: Sequence[BotSpec], games: int, players: int | None = None, seats_rotated: bool = True,
               seed: int = 0, map: Any = "germany", edition: str = "original", progress: bool = True,
               workers: int = 1, **game_options: Any) -> TournamentResult:
    """Play ``games`` games between ``bots`` and tabulate them.

    ``bots``: one spec per seat (a name from ``powergrid_nb.bots.BOTS``, a Bot class or factory called
    with ``seed=``, or an instance used as a template: each game plays a fresh copy re-seeded for that
    game); with ``players`` larger than ``len(bots)`` the last spec fills the remaining seats. Game ``i``
    uses seed ``seed + i``; with ``seats_rotated`` entry ``e`` sits at seat ``(e + i) % players``, seat 0
    being the first player by lot (R7), so over a multiple of ``players`` games every bot plays every seat
    equally often. ``workers > 1`` plays games in that many processes (specs must pickle; same results).
    ``game_options`` go to :func:`powergrid_nb.new_game` (e.g. ``starting_cities=True``, ``rules=...``).

    Returns a :class:`TournamentResult` with ``.games`` (one row per game and seat: game, seed, seat,
    player, entry, bot, score = cities powered, money, cities, rank, winner, win_share = 1/k for a victory
    shared by k, rounds, decisions) and ``.summary`` (per bot: games, wins = sum of win_share, win_rate,
    ci_low/ci_high = Wilson 95% interval, mean_score, mean_rank, mean_money).
    """
    if games < 0:
        raise ValueError(f"games must be >= 0, not {games}")
    specs = lineup(bots, players)
    names = labels(specs)
    n = len(specs)
    jobs = [(specs, names, i, seed + i, i % n if seats_rotated else 0, map, edition, game_options)
            for i in range(games)]
    rows: list[dict[str, Any]] = []
    from tqdm.auto import tqdm

    bar = tqdm(total=games, desc="tournament", unit="game", disable=not progress)
    try:
        if workers > 1 and games > 1:
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            # fork on Linux (no __main__ guard needed in scripts), spawn elsewhere
            method = "fork" if sys.platform.startswith("linux") else "spawn"
            with ProcessPoolExecutor(workers, mp_context=mp.get_context(method)) as pool:
                for out in pool.map(_play_args, jobs):
                    rows += out
                    bar.update()
        else:
            for job in jobs:
                rows += play_one(*job)
                bar.update()
    finally:
        bar.close()
    frame = pd.DataFrame(rows, columns=GAME_COLUMNS).astype(
        {"game": "int64", "seed": "int64", "seat": "int64", "entry": "int64", "score": "int64",
         "money": "int64", "cities": "int64", "rank": "int64", "winner": bool, "win_share": float,
         "rounds": "int64", "decisions": "int64"})
    return TournamentResult(frame, summarise(frame))
