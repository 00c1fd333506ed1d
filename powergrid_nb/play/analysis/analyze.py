"""analyze(): what should the player to act do here, and how much does it matter?

Each candidate decision (:mod:`.candidates`) is played out to the end of the game many times from the
position as the player sees it: the cards they cannot see dealt again for each playout, every later
decision (theirs too) made by bots. Playout *i* of every candidate uses the same re-deal and the same
bot seeds (common random numbers), so the differences between candidates are not noise. The playouts
run on the one game runner (:func:`powergrid_nb.play.runner.run`): locally, on a process pool or on Dask,
with the same results for the same seed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from powergrid_nb.engine.actions import Power
from powergrid_nb.engine.faces import face
from powergrid_nb.play.results import mean_interval, wilson
from powergrid_nb.play.runner import BotSpec, Outcome, bot_label, build_bot, check_backend, game_seeds, run

from .candidates import Candidate, default_candidates, parse_candidates
from .playout import PlayoutJob, play_candidate

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

    from powergrid_nb.engine.game import Game

__all__ = ["Analysis", "analyze"]

MIN_PLAYOUTS_TO_SEPARATE = 30  # paired intervals from fewer playouts are too rough to stop on
FRAME_COLUMNS = ["candidate", "kind", "win_probability", "ci_low", "ci_high", "vs_best", "vs_best_low",
                 "vs_best_high", "mean_rank", "mean_powered", "mean_money", "playouts"]


class Analysis:
    """The result of :func:`analyze`: ``frame`` (one row per candidate, best first), ``best``,
    ``suggestion``, ``figure()``; ``partial`` when it stopped before every playout was made; ``notes``:
    per candidate label, what a reader should know beyond the numbers (why a run of plants powers fewer
    cities than possible), also said in ``suggestion``."""

    def __init__(self, game: Game, player: str, candidates: list[Candidate], outs: list[Outcome],
                 asked: int, seed: int, seconds: float, stopped_by: str | None, confidence: float) -> None:
        self.player, self.candidates, self.seed = player, candidates, seed
        self.round, self.phase, self.decisions = game.round, game.phase, len(game.actions)
        self.phase_name = game.phase_name
        self.notes = {c.label: _note(game, c) for c in candidates}
        self.asked, self.seconds, self.stopped_by, self.confidence = asked, seconds, stopped_by, confidence
        rows = _complete(outs, player, len(candidates))
        self._wins = [[r["win_share"] for r in rs] for rs in rows]
        self._stats = [tuple(sum(r[k] for r in rs) / len(rs) if rs else math.nan
                             for k in ("rank", "score", "money")) for rs in rows]
        self.playouts = len(rows[0]) if candidates else 0

    # --- what it found -------------------------------------------------------------------------------
    @property
    def partial(self) -> bool:
        """Whether fewer playouts than asked for were made (stopped early, Ctrl-C, time budget)."""
        return self.playouts < self.asked

    @property
    def best(self) -> Candidate:
        """The candidate with the highest win probability (the first row of ``frame``)."""
        return next(c for c in self.candidates if c.label == self.frame["candidate"].iloc[0])

    @property
    def separated(self) -> bool:
        """Whether the best candidate is ahead of every other one with the analysis' confidence."""
        return separated(self._wins, self.confidence)

    @property
    def suggestion(self) -> str:
        """The engine's suggestion in words, with its uncertainty."""
        if self.playouts == 0:
            return "no playout finished: no suggestion"
        row = self.frame.iloc[0]
        text = (f"{row['candidate']}: wins {row['win_probability']:.0%} "
                f"[{row['ci_low']:.0%}-{row['ci_high']:.0%}] of {self.playouts} playouts")
        if len(self.frame) > 1:
            second = self.frame.iloc[1]
            margin = row["win_probability"] - second["win_probability"]
            sure = "clearly" if self.separated else "not clearly"
            text += f"; {margin:+.0%} over the next best ({second['candidate']}), {sure} ahead"
        if self.stopped_by == "separation":
            text += " (stopped once the best was clear)"
        elif self.partial:
            text += f" (partial: stopped by {self.stopped_by})"
        note = self.notes.get(row["candidate"], "")
        return f"{text}. {row['candidate'].capitalize()}: {note}" if note else text

    def figure(self) -> go.Figure:
        """The candidates' win probabilities with their 95% intervals, as bars (Plotly)."""
        return face("views").analysis_figure(self)  # plugged in from above: play knows no views

    def __repr__(self) -> str:
        flag = f", stopped early by {self.stopped_by}" if self.partial else ""
        return (f"<Analysis of {self.player}'s decision (round {self.round}, phase {self.phase}): "
                f"{len(self.candidates)} candidates x {self.playouts} playouts{flag}>")

    def _repr_html_(self) -> str:
        from html import escape
        note = f"<p><b>Suggestion</b>: {escape(self.suggestion)}</p>"
        return note + self.frame.to_html(index=False, float_format=lambda v: f"{v:.3f}")

    def wins(self, candidate: str) -> list[float]:
        """The win share of ``candidate`` (its label) in each playout finished for every candidate, in
        playout order: playout *i* of two candidates shares its deal, so the lists pair up."""
        labels = [c.label for c in self.candidates]
        if candidate not in labels:
            raise ValueError(f"no candidate {candidate!r}; the candidates are {', '.join(labels)}")
        return list(self._wins[labels.index(candidate)])

    # --- the numbers ---------------------------------------------------------------------------------
    @cached_property
    def frame(self) -> pd.DataFrame:
        """One row per candidate, best first, with the columns :data:`FRAME_COLUMNS`."""
        import pandas as pd

        wins, n = self._wins, self.playouts
        if n == 0:
            return pd.DataFrame(columns=FRAME_COLUMNS)
        means = [sum(w) / n for w in wins]
        top = max(range(len(wins)), key=lambda i: means[i])
        rows = []
        for i, c in enumerate(self.candidates):
            lo, hi = wilson(sum(wins[i]), n)
            d, dlo, dhi = paired(wins[top], wins[i], 0.95)
            stats = self._stats[i]
            rows.append({"candidate": c.label, "kind": c.kind, "win_probability": means[i], "ci_low": lo,
                         "ci_high": hi, "vs_best": 0.0 - d, "vs_best_low": 0.0 - dhi,
                         "vs_best_high": 0.0 - dlo,
                         "mean_rank": stats[0], "mean_powered": stats[1], "mean_money": stats[2],
                         "playouts": n})
        df = pd.DataFrame(rows, columns=FRAME_COLUMNS)
        return df.sort_values(["win_probability", "mean_rank"], ascending=[False, True],
                              kind="stable").reset_index(drop=True)


def _note(game: Game, c: Candidate) -> str:
    """What a reader should know of a candidate beyond its numbers: for a run of plants below the most
    the player could power, how many it powers and why (the log's words, R99); else ""."""
    if len(c.actions) != 1 or not isinstance(a := c.actions[0], Power):
        return ""
    out = game.power_outcome(a.player, a.plants, a.hybrid_coal)
    return f"it powers {out.powered}, {out.fewer}" if out.fewer else ""


def _complete(outs: list[Outcome], player: str, k: int) -> list[list[dict[str, Any]]]:
    """The player's outcome rows per candidate over the playouts finished for every candidate."""
    by: dict[int, dict[int, dict[str, Any]]] = {}
    for o in outs:
        if not o.rows:  # a playout dropped at the time budget
            continue
        row = next(r for r in o.rows if r["player"] == player)
        by.setdefault(o.game, {})[o.point] = row
    games = sorted(gm for gm, got in by.items() if len(got) == k)
    return [[by[gm][i] for gm in games] for i in range(k)]


def paired(a: Sequence[float], b: Sequence[float], confidence: float) -> tuple[float, float, float]:
    """Mean of a - b over paired playouts, with its two-sided t interval at ``confidence`` ((-1, 1)
    from fewer than 2 pairs)."""
    mean, low, high = mean_interval([x - y for x, y in zip(a, b, strict=True)], confidence)
    if math.isnan(low):
        return (0.0 if math.isnan(mean) else mean), -1.0, 1.0
    return mean, low, high


def separated(wins: list[list[float]], confidence: float) -> bool:
    """Whether the best candidate beats each other one with ``confidence`` (paired, one-sided,
    Bonferroni over the others), after at least :data:`MIN_PLAYOUTS_TO_SEPARATE` playouts."""
    if len(wins) < 2 or len(wins[0]) < MIN_PLAYOUTS_TO_SEPARATE:
        return False
    n = len(wins[0])
    means = [sum(w) / n for w in wins]
    top = max(range(len(wins)), key=lambda i: means[i])
    one_sided = 1 - (1 - confidence) / (len(wins) - 1)
    two_sided = 2 * one_sided - 1
    return all(paired(wins[top], w, two_sided)[1] > 0 for i, w in enumerate(wins) if i != top)


def analyze(game: Game, player: str | None = None, candidates: Iterable[Any] | None = None,
            playouts: int = 200, bots: BotSpec | Sequence[BotSpec] = "heuristic", seed: int | None = None,
            backend: str = "local", workers: int | str | None = None, client: Any = None,
            progress: bool = True, time_budget: float | None = None, confidence: float = 0.95,
            stop_when_separated: bool = False, stop: Callable[[Analysis], bool] | None = None,
            max_candidates: int = 8) -> Analysis:
    """Compare the decisions of the player to act by Monte-Carlo playouts to the end of the game.

    ``candidates``: None for the meaningful decisions of the phase (:func:`default_candidates`: which
    plant to open and how high to bid, how many tokens of each resource, the cheapest sets of 0, 1, 2, ...
    cities, which plants to run), or a list of actions, action texts (``"open 13 at 13"``), lists of them
    (a line) or :class:`Candidate` s. ``playouts`` per candidate; ``bots``: who plays every later
    decision, one spec for all seats or one per player. ``seed``: the same seed gives the same
    result on every backend (None: a random one, kept in ``Analysis.seed``).

    Stops early, keeping what it has (``partial``): Ctrl-C, ``time_budget`` seconds (playouts still
    running then are dropped, so slow bots such as ``"search"`` keep to it too),
    ``stop_when_separated`` (the best candidate ahead of all others with ``confidence``), or
    ``stop(analysis_so_far) -> bool`` (checked after each playout; in parallel, each chunk).
    """
    if game.is_over:
        raise ValueError("the game is over: there is no decision left to analyse")
    me = game.current_player
    if player is not None and player not in game.players:
        raise ValueError(f"{player!r} is not a player of this game ({', '.join(game.players)})")
    if player is not None and player != me:
        raise ValueError(f"it is {me}'s turn (round {game.round}, phase {game.phase}, "
                         f"{game.phase_name}): analyze() looks at the decision "
                         f"of the player to act; leave player out or play on to {player}'s turn")
    assert me is not None
    if type(playouts) is not int or playouts < 1:
        raise ValueError(f"playouts must be a whole number >= 1, not {playouts!r}")
    if not 0.5 <= confidence < 1:
        raise ValueError(f"confidence is a probability between 0.5 and 1, not {confidence!r}")
    if time_budget is not None and not time_budget > 0:
        raise ValueError(f"time_budget is a number of seconds > 0, not {time_budget!r}")
    check_backend(backend, client)
    seats = _bots(game, bots)
    chosen = (default_candidates(game, me, max_candidates) if candidates is None
              else parse_candidates(game, me, candidates))
    seeds = game_seeds(playouts, seed)
    names = tuple(bot_label(b) for b in seats)
    deadline = None if time_budget is None else time.time() + time_budget
    jobs = [PlayoutJob(game.copy(), me, c, seats, names, deadline) for c in chosen]
    t0 = time.perf_counter()
    why: list[str] = []

    def so_far(result: Any) -> Analysis:
        return Analysis(game, me, chosen, result.outcomes, playouts, seeds[0], result.seconds, None,
                        confidence)

    def check(result: Any) -> bool:
        if time_budget is not None and time.perf_counter() - t0 >= time_budget:
            why.append("time budget")
        elif stop_when_separated and len(result) % len(chosen) == 0 and separated(
                [[r["win_share"] for r in rs] for rs in _complete(result.outcomes, me, len(chosen))],
                confidence):
            why.append("separation")
        elif stop is not None and stop(so_far(result)):
            why.append("stop")
        return bool(why)

    result = run(jobs, [{} for _ in jobs], seeds, backend=backend, workers=workers, client=client,
                 progress=progress, stop=check, desc="analyze", play_fn=play_candidate)
    stopped_by = why[0] if why else ("interrupted" if result.stopped else None)
    return Analysis(game, me, chosen, result.outcomes, playouts, seeds[0], result.seconds, stopped_by,
                    confidence)


def _bots(game: Game, bots: Any) -> tuple[BotSpec, ...]:
    n = len(game.players)
    seats = [bots] if isinstance(bots, str) or callable(bots) else list(bots)
    if len(seats) == 1:
        seats *= n
    if len(seats) != n:
        raise ValueError(f"give one bot for all seats or one per player ({n}: {', '.join(game.players)}), "
                         f"not {len(seats)}")
    for b in seats:
        try:
            build_bot(b, 0)
        except (TypeError, ValueError) as e:
            raise ValueError(f"bots: {e}") from None
    return tuple(seats)
