"""One playout of one candidate: the unseen cards dealt again, the candidate's line, then bots to the end.

Plain data and module-level functions, so the runner's process pools and Dask workers can take them.
Common random numbers: playout *i* of every candidate uses the same game seed, hence the same re-deal
(:func:`deal_seed`) and the same bot seeds (:func:`powergrid_nb.play.runner.bot_seed`); the differences
between candidates are the candidates', not the dice.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any, NamedTuple

from powergrid_nb.bots.base import Bot, play
from powergrid_nb.engine.actions import Bid, Open, Pass
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.play.runner import MAX_DECISIONS, BotSpec, Outcome, bot_seed, build_bot

if TYPE_CHECKING:
    from powergrid_nb.engine.actions import Action
    from powergrid_nb.engine.game import Game

    from .candidates import Candidate

__all__ = ["PlayoutJob", "deal_seed", "play_candidate"]


class PlayoutJob(NamedTuple):
    """What every playout of one candidate shares."""

    position: Game  # the real position; each playout deals the player's unseen cards again
    player: str
    candidate: Candidate
    bots: tuple[BotSpec, ...]  # one per player, in game.players order
    names: tuple[str, ...]
    deadline: float | None = None  # time.time() at which a playout still running is dropped (a time budget)


def deal_seed(seed: int) -> int:
    """The seed of the re-deal of playout ``seed`` (the same for every candidate)."""
    return random.Random(f"powergrid_nb.analyze/{seed}/deal").randrange(2**32)


class _Bidder(Bot):
    """The player's bot, except that in the candidate's auction it raises by 1 up to ``limit``."""

    name = "bidder"
    needs_view = False

    def __init__(self, inner: Bot, player: str, plant: int, limit: int, round_: int) -> None:
        super().__init__(inner.seed)
        self.inner, self.player, self.plant, self.limit, self.round = inner, player, plant, limit, round_

    def act(self, game: Game) -> Action:
        running = game.auction
        if (running is not None and running.plant == self.plant and game.round == self.round
                and game.phase == Phase.AUCTION and game.current_player == self.player):
            high = running.bid + 1
            if high <= min(self.limit, game.money(self.player)):
                return Bid(self.player, high)
            return Pass(self.player)
        return self.inner.act(game)


def play_candidate(job: PlayoutJob, seed: int, point: int = 0, game: int = 0) -> Outcome:
    """Playout number ``game`` (game seed ``seed``) of candidate number ``point``, to the end; an
    Outcome without rows if ``job.deadline`` passed first."""
    g = job.position
    h = g.for_player(job.player, seed=deal_seed(seed))
    c = job.candidate
    first: Any = c.actions[0]
    plant = first.plant if isinstance(first, Open) else (g.auction.plant if g.auction else None)
    for a in c.actions:
        h.apply(a)
    bots: list[Bot] = [build_bot(job.bots[k], bot_seed(seed, k)) for k in range(len(h.players))]
    me = h.players.index(job.player)
    if c.bid_limit is not None and plant is not None:
        bots[me] = _Bidder(bots[me], job.player, plant, c.bid_limit, g.round)
    deadline = job.deadline
    until = None if deadline is None else (lambda _h: time.time() >= deadline)
    try:
        play(h, bots, max_decisions=MAX_DECISIONS, until=until)
    except Exception as e:
        raise RuntimeError(f"playout {game} (seed {seed}) of {c.label!r} failed: {e!r}") from e
    if not h.is_over:  # out of time: no result (the analysis counts finished playouts only)
        return Outcome(point, game, [], None, None)
    ranks, shares, scores = h.ranks(), h.returns(), h.scores()
    rows = [{"game": game, "seed": seed, "player": p, "seat": k, "bot": job.names[k], "winner": ranks[p] == 1,
             "win_share": shares[p], "rank": ranks[p], "score": scores[p], "cities": h.city_count(p),
             "money": h.money(p), "rounds": h.round} for k, p in enumerate(h.players)]
    return Outcome(point, game, rows, None, None)  # not the whole history: playouts are many
