"""The legal indices of :class:`~powergrid_nb.agents.space.ActionSpace` read straight from the position.

:meth:`ActionSpace.encoded` encodes each legal action, and an auction's opening lists every bid amount
of every plant (some 180 actions), a running auction every amount up to the bidder's money. Here the
auction's indices come from the market, the minimum bids, the high bid and the bidder's money (a
handful of indices, the actions built only for the index played); the other phases' few legal actions
are encoded by :meth:`ActionSpace.encoded` itself. The indices and actions are exactly
:meth:`ActionSpace.encoded`'s (tests/test_agents_fast.py checks every decision of whole games).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from powergrid_nb.engine.actions import Action, Bid, Open, Pass
from powergrid_nb.engine.rules.phases import Phase

from .space import BID_STEPS, ActionSpace

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["FastLegal"]

MASKS_KEPT = 5000  # masks kept by their legal indices
AUCTION = Phase.AUCTION  # read on every decision: a module constant, not the enum's slower lookup


class FastLegal:
    """The legal indices of ``space`` in a position, as :meth:`legal` (index -> what it plays)."""

    def __init__(self, space: ActionSpace) -> None:
        self.space = space
        start = {b.name: b.start for b in space.blocks}
        self._open, self._bid, self._pass = start["open"], start["bid"], start["pass"]
        self._masks: dict[tuple[int, ...], np.ndarray] = {}

    def legal(self, g: Game) -> dict[int, Any]:
        """The legal indices of ``g`` (the keys of ``space.encoded(g)``), each with what it plays: the
        action, or for an opening ``(plant, bid)``, for a raise the amount (see :meth:`action`)."""
        if g.is_over:
            return {}
        if g.phase == AUCTION and g.discarding is None:
            return self._auction(g)
        return self.space.encoded(g)  # the other phases list few actions: the reference encodes them

    def _auction(self, g: Game) -> dict[int, Any]:
        """Phase 2, nobody discarding, from :meth:`Game.bid_choices`: the ladder's raises among the
        allowed bids of a running auction, else the market's plants opened at their lowest bid; and
        pass where it is allowed."""
        c = g.bid_choices()
        assert c is not None
        out: dict[int, Any] = {}
        a = g.auction
        if a is not None:
            for k, step in enumerate(BID_STEPS):
                if a.bid + step in c.raises:
                    out[self._bid + k] = a.bid + step
        else:
            for k, plant in enumerate(g.current_market()):
                bids = c.openings.get(plant)
                if bids:
                    out[self._open + k] = (plant, bids.start)
        if c.may_pass:
            out[self._pass] = None
        return out

    def action(self, g: Game, legal: dict[int, Any], index: int) -> Action:
        """The action ``index`` plays (``legal``: :meth:`legal` of ``g``); IllegalAction naming the legal
        indices (:meth:`ActionSpace.decode`'s) when it is not legal now."""
        try:
            v = legal[index]
        except KeyError:
            return self.space.decode(g, index, self.space.encoded(g))  # raises, naming them
        if isinstance(v, Action):
            return v
        who: str = g.current_player  # type: ignore[assignment]
        if v is None:
            return Pass(who)
        if isinstance(v, tuple):
            return Open(who, *v)
        return Bid(who, v)

    def mask(self, legal: dict[int, Any]) -> np.ndarray:
        """The 0/1 mask (``int8``) of these legal indices."""
        return self.shared_mask(legal).copy()

    def shared_mask(self, legal: dict[int, Any]) -> np.ndarray:
        """:meth:`mask`, shared with the next calls for the same indices: read it, never write it."""
        key = tuple(legal)
        m = self._masks.get(key)
        if m is None:  # the same sets come back all game long (bids, purchases, runs)
            m = np.zeros(self.space.n, dtype=np.int8)
            m.put(list(key), 1)
            m.flags.writeable = False
            if len(self._masks) > MASKS_KEPT:
                self._masks.clear()
            self._masks[key] = m
        return m

    def encoded(self, g: Game) -> dict[int, Action]:
        """:meth:`legal` with every value an action: what :meth:`ActionSpace.encoded` gives."""
        legal = self.legal(g)
        return {i: self.action(g, legal, i) for i in legal}
