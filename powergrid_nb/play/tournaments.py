"""Tournaments between bots: :func:`~powergrid_nb.play.simulation.simulate` plus seat rotation.

A tournament plays new games through the same runner as ``simulate`` (:mod:`powergrid_nb.play.runner`:
the same seeding, backends and ranking: the rules' tie-breaks, players they cannot split sharing a
rank). What it adds is a lineup of bots rotated over the seats and a summary per bot with Wilson
intervals.

>>> from powergrid_nb.play.tournaments import tournament
>>> r = tournament(["heuristic", "random", "random", "random"], games=8, progress=False)
>>> r.summary[["games", "wins", "win_rate", "ci_low", "ci_high"]]  # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from .results import ROW_COLUMNS, wilson
from .runner import BotSpec, bot_label, bot_seed, build_bot, game_seeds, run
from .simulation import make_job

__all__ = ["GAME_COLUMNS", "SUMMARY_COLUMNS", "TournamentResult", "bot_seed", "build_bot", "labels",
           "lineup", "summarise", "tournament", "wilson"]

GAME_COLUMNS = ["game", "seed", "seat", "player", "entry", "bot", "score", "money", "cities", "rank",
                "winner", "win_share", "rounds", "decisions"]
SUMMARY_COLUMNS = ["games", "wins", "win_rate", "ci_low", "ci_high", "mean_score", "mean_rank",
                   "mean_money"]
_DTYPES = {**{c: ROW_COLUMNS[c] for c in GAME_COLUMNS if c != "seat"}, "start_position": "int64",
           "player": None, "bot": None, "winner": bool, "win_share": float}  # None: pandas' own str


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
    return [bot_label(s) for s in specs]


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
               workers: int | str | None = 1, backend: str | None = None, client: Any = None,
               **game_options: Any) -> TournamentResult:
    """Play ``games`` games between ``bots`` and tabulate them.

    ``bots``: one spec per seat (a name from ``powergrid_nb.bots.BOTS``, a Bot class or factory called
    with ``seed=``, or an instance used as a template: each game plays a fresh copy re-seeded for that
    game); with ``players`` larger than ``len(bots)`` the last spec fills the remaining seats. Game ``i``
    uses seed ``seed + i``; with ``seats_rotated`` entry ``e`` sits at seat ``(e + i) % players``, seat 0
    being the first player by lot (R7), so over a multiple of ``players`` games every bot plays every seat
    equally often; without, entry ``e`` sits at seat ``e``. Bots are seeded as ``simulate`` seeds them
    (from the game seed and the player they play), so game ``i`` is ``simulate``'s game for seed
    ``seed + i`` with the same bot at each player. ``backend``: as ``simulate``'s; by default
    ``"processes"`` with ``workers`` processes when ``workers > 1`` (specs must pickle; same results),
    else ``"local"``. ``game_options`` go to :func:`powergrid_nb.new_game` (e.g. ``starting_cities=True``,
    ``rules=...``).

    Returns a :class:`TournamentResult` with ``.games`` (one row per game and seat: game, seed, seat,
    player, entry, bot, score = cities powered, money, cities, rank (the rules' tie-breaks R99-R102;
    players they cannot split share a rank, O16), winner, win_share = 1/k for a victory shared by k,
    rounds, decisions) and ``.summary`` (per bot: games, wins = sum of win_share, win_rate,
    ci_low/ci_high = Wilson 95% interval, mean_score, mean_rank, mean_money).
    """
    if games < 0:
        raise ValueError(f"games must be >= 0, not {games}")
    specs = lineup(bots, players)
    spec = {"players": len(specs), "map": map, "edition": edition, **game_options}
    job, _ = make_job(spec, specs, rotate=1 if seats_rotated else 0, templates=True)
    if backend is None:
        parallel = isinstance(workers, int) and workers > 1 and games > 1
        backend = "processes" if parallel else "local"
    result = run([job], [{}], game_seeds(games, seed), backend=backend,
                 workers=None if backend == "local" else workers, client=client, progress=progress,
                 desc="tournament")
    frame = (result.frame(_DTYPES).rename(columns={"start_position": "seat"})
             .sort_values(["game", "seat"], kind="stable").reset_index(drop=True)[GAME_COLUMNS])
    return TournamentResult(frame, summarise(frame))
