"""What an agent is paid: at the end by the final ranking (the default), by the win, or shaped."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["REWARDS", "SHAPING", "rank_returns", "shaped_step", "win_returns"]


def rank_returns(g: Game) -> dict[str, float]:
    """The final ranking (R99-R103, with the edition's tie-breaks) as returns: +1 for first place, -1 for
    last, evenly spaced between; players sharing a place share the average of the places they hold."""
    ranks = g.ranks()
    n = len(g.players)
    if n < 2:
        return dict.fromkeys(g.players, 0.0)
    value = {r: 1 - 2 * (r - 1) / (n - 1) for r in range(1, n + 1)}
    out = {}
    for p in g.players:
        same = sum(1 for q in g.players if ranks[q] == ranks[p])
        places = range(ranks[p], ranks[p] + same)
        out[p] = sum(value[r] for r in places) / same
    return out


def win_returns(g: Game) -> dict[str, float]:
    """1 for a sole winner, 1/k for k sharing the victory, 0 otherwise (``g.returns()``)."""
    return g.returns()


SHAPING = 0.01  # per city built: small beside the final +-1, so the ranking still decides


def shaped_step(g: Game, player: str, cities_before: int) -> float:
    """The shaped part of one decision's reward (``reward="shaped"``: a learning aid, not the game's aim):
    :data:`SHAPING` for each city ``player`` built with it; the final rank returns still come at the end."""
    return SHAPING * (len(g.cities_of(player)) - cities_before)


REWARDS: dict[str, Callable[[Game], dict[str, float]]] = {"rank": rank_returns, "win": win_returns}
