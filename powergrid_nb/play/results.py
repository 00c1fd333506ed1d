"""The finished games of a run as tidy pandas frames, and win rates with Wilson intervals.

:class:`SimulationResult` is what :func:`~powergrid_nb.play.simulation.simulate` and
:func:`~powergrid_nb.play.simulation.sweep` return; :func:`~powergrid_nb.play.tournaments.tournament` reads
its rows too. The rows come from :func:`powergrid_nb.play.runner.play_one`; the ``rank`` column is the
rules' ranking (see :mod:`powergrid_nb.play.runner`): players the tie-breaks cannot split share a rank.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from typing import Any, NamedTuple

import pandas as pd

__all__ = ["GAME_COLUMNS", "ROW_COLUMNS", "Outcome", "SimulationResult", "mean_interval", "wilson"]


class Outcome(NamedTuple):
    """One finished game: its rows (one per player) and, with ``per_round``, its round frames."""

    point: int
    game: int
    rows: list[dict[str, Any]]
    rounds: pd.DataFrame | None
    market: pd.DataFrame | None
    auctions: pd.DataFrame | None = None

GAME_COLUMNS = {  # simulate's tidy frame: one row per (game, player)
    "game": "int64", "seed": "int64", "player": "string", "seat": "int64", "start_position": "int64",
    "bot": "string", "winner": "bool", "win_share": "float64", "rank": "int64", "score": "int64",
    "cities": "int64", "money": "int64", "rounds": "int64", "plants_bought": "int64",
    "paid_for_plants": "int64", "mean_premium": "float64", "powered_last": "Int64"}
ROW_COLUMNS = {**GAME_COLUMNS, "entry": "int64", "decisions": "int64"}  # everything a row holds


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


def mean_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): the mean with its Student-t interval; NaN bounds for fewer than 2 values."""
    xs = [float(x) for x in values if not pd.isna(x)]
    if not xs:
        return math.nan, math.nan, math.nan
    mean = statistics.fmean(xs)
    if len(xs) < 2:
        return mean, math.nan, math.nan
    half = _t_quantile(1 - (1 - level) / 2, len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    return mean, mean - half, mean + half


def _t_quantile(p: float, df: int) -> float:
    """Student-t quantile: exact for 1 and 2 degrees of freedom, Abramowitz-Stegun 26.7.5 above
    (within 0.01 of the table from 3 on; no scipy needed)."""
    z = statistics.NormalDist().inv_cdf(p)
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        a = 4 * p * (1 - p)
        return 2 * (p - 0.5) * math.sqrt(2 / a)
    g = [(z**3 + z) / 4, (5 * z**5 + 16 * z**3 + 3 * z) / 96,
         (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
         (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160]
    return z + sum(gi / df**(i + 1) for i, gi in enumerate(g))


class SimulationResult:
    """The finished games of a simulation.

    ``games``: one row per (game, player): ``game`` (0, 1, ...), ``seed``, ``player``, ``seat`` (index
    in ``game.players`` = in ``bots``), ``start_position`` (0 = first in player order when the run
    starts), ``bot``, ``winner``, ``win_share`` (1/k for k tied winners), ``rank`` (1 + the players
    ranked strictly above by the rules: cities powered R99, then the edition's tie-breaks R100-R102;
    players the tie-breaks cannot split share a rank, O16), ``score`` (cities powered at the end,
    R99), ``cities``, ``money``, ``rounds``, ``plants_bought``, ``paid_for_plants``,
    ``mean_premium`` (price - plant number, NaN if none; these three over the whole history, a fork's
    too), ``powered_last`` (cities powered in the last phase 5), plus ``point`` and one column per
    swept parameter for a :func:`sweep`. ``rounds`` (one row per game, round and
    participant, from :func:`~powergrid_nb.position.timeline.rounds_frame`) and ``market`` (per game,
    round and resource, from :func:`~powergrid_nb.position.timeline.market_history_frame`) and
    ``auctions`` (per game, every plant taken, with its price and face value, from
    :func:`~powergrid_nb.position.timeline.auctions_frame`)
    when ``per_round=True``.
    ``stopped`` is true when the run ended early (Ctrl-C or ``stop``); ``seeds`` are those asked for.
    """

    def __init__(self, outs: list[Outcome], params: list[dict[str, Any]], seeds: list[int],
                 per_round: bool, backend: str, stopped: bool = False, seconds: float = 0.0) -> None:
        self._outs, self._params, self._per_round = outs, params, per_round
        self.seeds, self.backend, self.stopped, self.seconds = seeds, backend, stopped, seconds
        self.param_columns = list(params[0]) if params and params[0] else []
        self._cache: dict[str, pd.DataFrame | None] = {}

    def __len__(self) -> int:
        """Games finished."""
        return len(self._outs)

    def __repr__(self) -> str:
        flag = ", stopped early" if self.stopped else ""
        return f"<SimulationResult {len(self)} games, {self.backend}, {self.seconds:.1f} s{flag}>"

    @property
    def outcomes(self) -> list[Outcome]:
        """The finished games as the runner returned them, in the order they finished."""
        return list(self._outs)

    def add(self, outs: list[Outcome], seconds: float) -> None:
        """Record more finished games (the runner calls this as games come in)."""
        self._outs.extend(outs)
        self.seconds = seconds
        self._cache.clear()

    def _sorted(self) -> list[Outcome]:
        return sorted(self._outs, key=lambda o: (o.point, o.game))

    def _with_params(self, df: pd.DataFrame, points: list[int]) -> pd.DataFrame:
        if not self.param_columns:
            return df
        df.insert(0, "point", pd.Series(points, dtype="int64"))
        for k, name in enumerate(self.param_columns, 1):
            df.insert(k, name, _param_series([self._params[p][name] for p in points]))
        return df

    def frame(self, columns: dict[str, Any] = GAME_COLUMNS) -> pd.DataFrame:
        """The rows of the finished games, in (point, game, seat) order, with these columns and dtypes
        (any of :data:`ROW_COLUMNS`; ``entry`` is the bot's index in the lineup, ``decisions`` the
        decisions of the game), plus the sweep's columns."""
        outs = self._sorted()
        rows = [r for o in outs for r in o.rows]
        df = pd.DataFrame({c: pd.Series([r[c] for r in rows], dtype=t) for c, t in columns.items()})
        return self._with_params(df, [o.point for o in outs for _ in o.rows])

    @property
    def games(self) -> pd.DataFrame:
        if "games" not in self._cache:
            self._cache["games"] = self.frame(GAME_COLUMNS)
        return self._cache["games"]  # type: ignore[return-value]

    def _concat(self, which: str) -> pd.DataFrame | None:
        if not self._per_round:
            return None
        if which not in self._cache:
            outs = [o for o in self._sorted() if getattr(o, which) is not None]
            if not outs:
                self._cache[which] = None
                return None
            df = pd.concat([getattr(o, which) for o in outs], ignore_index=True)
            self._cache[which] = self._with_params(df, [o.point for o in outs for _ in
                                                        range(len(getattr(o, which)))])
        return self._cache[which]

    @property
    def rounds(self) -> pd.DataFrame | None:
        return self._concat("rounds")

    @property
    def market(self) -> pd.DataFrame | None:
        return self._concat("market")

    @property
    def auctions(self) -> pd.DataFrame | None:
        return self._concat("auctions")

    def summary(self, by: str | Sequence[str] | None = None, z: float = 1.96) -> pd.DataFrame:
        """Win rate per bot (and per swept parameter), with a Wilson interval (95% for ``z=1.96``).

        ``by`` = e.g. ``"seat"`` or ``["seat", "bot"]``; default: the swept parameters and ``bot``.
        A row's ``seats`` counts player-games; ``win_rate`` = shared wins / seats; ``fair_share`` is
        what a bot equal to the others would get (1 / players).
        """
        df = self.games
        keys = [by] if isinstance(by, str) else list(by or [*self.param_columns, "bot"])
        if df.empty:
            return pd.DataFrame(columns=[*keys, "seats", "wins", "win_rate", "ci_low", "ci_high"])
        df = df.assign(_fair=1 / df.groupby(["point", "game"] if "point" in df else "game")["seat"]
                       .transform("size"))
        out = df.groupby(keys, sort=True, dropna=False).agg(
            seats=("win_share", "size"), wins=("win_share", "sum"), fair_share=("_fair", "mean"),
            mean_score=("score", "mean"), mean_cities=("cities", "mean"), mean_money=("money", "mean"),
            mean_rounds=("rounds", "mean")).reset_index()
        out.insert(len(keys) + 2, "win_rate", out["wins"] / out["seats"])
        lo, hi = zip(*(wilson(w, n, z) for w, n in zip(out["wins"], out["seats"], strict=True)), strict=True)
        out.insert(len(keys) + 3, "ci_low", list(lo))
        out.insert(len(keys) + 4, "ci_high", list(hi))
        return out


def _param_series(values: list[Any]) -> pd.Series:
    if all(v is None or type(v) is int for v in values):
        return pd.Series(values, dtype="Int64")
    return pd.Series(["default" if v is None else v if isinstance(v, str) else json.dumps(v)
                      for v in values], dtype="string")
