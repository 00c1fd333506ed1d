"""One fixed ``Discrete`` action space for every decision of a game on a given map.

Each index is one decision in words an agent can learn ("open the 2nd plant of the market", "build in
Berlin"); which decision it is depends on the position (whose turn, the market, the plants held), and
:meth:`ActionSpace.mask` says which indices are legal now. The blocks, in index order:

====================  =========================================================================
block                 decision
====================  =========================================================================
``mark``              mark a starting city (the map's cities in :attr:`ActionSpace.cities` order)
``open``              open an auction for the plant in slot k of the current market, at its
                      minimum bid (R30; the Recharged discount's 1 Elektro included)
``bid``               raise the running auction's bid by 1, 2, 3, 5, 10 or 20 (:data:`BID_STEPS`)
``pass``              pass: in an auction, or on opening one (R31, R35)
``discard``           box the plant in slot k of the player's plants, sorted, keeping the most
                      tokens that fit (the first such keep of ``legal_actions``) (R36-R37)
``buy``               buy one token of coal, oil, garbage or uranium (R46-R50)
``build``             build in a city (R56-R63)
``power``             run a subset of the player's plants (bit k: slot k, sorted) with ``h`` coal
                      burnt by the hybrids (``h`` = 0 when no hybrid runs) (R72-R76)
``done``              end one's turn in phase 3 or 4
====================  =========================================================================

The coarsening, documented and tested: an auction is opened at the minimum bid only (a higher
opening is a bid after it), a bid is one of the ladder's raises, and a discard keeps the most tokens.
Every other legal decision has exactly one index, and :meth:`ActionSpace.decode` inverts
:meth:`ActionSpace.encode` on the legal ones. :meth:`ActionSpace.encoded` (every legal action encoded)
is the reference; the environments read the same indices from the position
(:class:`~powergrid_nb.agents.fastmask.FastLegal`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from powergrid_nb.engine.actions import (
    Action,
    Bid,
    Build,
    BuyResources,
    Discard,
    Done,
    MarkCity,
    Open,
    Pass,
    Power,
)
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.rules.plants import RESOURCES

if TYPE_CHECKING:
    from powergrid_nb.engine.board.maps import GameMap
    from powergrid_nb.engine.game import Game

__all__ = ["BID_STEPS", "HYBRID_MAX", "OPEN_SLOTS", "PLANT_SLOTS", "ActionSpace", "Block", "NotInSpace"]

OPEN_SLOTS = 8  # the current market has 4 plants (6 in Step 3); room for variants with more
BID_STEPS = (1, 2, 3, 5, 10, 20)
PLANT_SLOTS = 5  # a player holds at most 4 plants (2 players), one more while discarding
POWER_SLOTS = 4  # plants run at once: at most the plant limit
HYBRID_MAX = 12  # coal the hybrids burn at once: at most 2 hybrids x 3 (room to spare)


class NotInSpace(ValueError):
    """An action the space has no index for (see the coarsening in :mod:`powergrid_nb.agents.space`)."""


@dataclass(frozen=True)
class Block:
    """A run of indices meaning one kind of decision: ``start`` to ``start + size - 1``."""

    name: str
    start: int
    size: int
    meaning: str


class ActionSpace:
    """The action space of games on ``game_map`` (the same for every player count and edition)."""

    def __init__(self, game_map: GameMap) -> None:
        self.cities: tuple[str, ...] = tuple(sorted(game_map.cities))
        self._city = {c: i for i, c in enumerate(self.cities)}
        n_cities = len(self.cities)
        spec = [("mark", n_cities, "mark the starting city cities[i]"),
                ("open", OPEN_SLOTS, "open an auction for current-market slot i at its minimum bid"),
                ("bid", len(BID_STEPS), "raise the bid by BID_STEPS[i]"),
                ("pass", 1, "pass"),
                ("discard", PLANT_SLOTS, "box the player's plant in slot i (sorted), keep the most tokens"),
                ("buy", len(RESOURCES), "buy one token of RESOURCES[i]"),
                ("build", n_cities, "build in cities[i]"),
                ("power", (1 << POWER_SLOTS) * (HYBRID_MAX + 1),
                 "run the plants of bitmask i // (HYBRID_MAX+1) with i % (HYBRID_MAX+1) coal in hybrids"),
                ("done", 1, "end the turn (phases 3 and 4)")]
        blocks, start = [], 0
        for name, size, meaning in spec:
            blocks.append(Block(name, start, size, meaning))
            start += size
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self._start = {b.name: b.start for b in blocks}
        self.n: int = start

    def block_of(self, index: int) -> Block:
        """The block ``index`` belongs to (ValueError outside the space)."""
        for b in self.blocks:
            if b.start <= index < b.start + b.size:
                return b
        raise ValueError(f"action index {index} is outside the space 0..{self.n - 1}")

    # --- encode ---------------------------------------------------------------------------------------
    def encode(self, g: Game, action: Action, legal: list[Action] | None = None,
               memo: dict[Any, Any] | None = None) -> int:
        """The index of ``action`` in the position ``g`` (:class:`NotInSpace` if it has none: an
        opening above the minimum bid, a bid off the ladder, a discard keeping fewer tokens).
        ``memo``: a dict kept over the actions of one position (the market and minimum bids, read once)."""
        s = self._start
        # the phases' frequent kinds first: phases 3-5 list many of them
        if isinstance(action, Build):
            if len(action.cities) != 1:
                raise NotInSpace(f"{action}: one city at a time")
            return s["build"] + self._city[action.cities[0]]
        if isinstance(action, BuyResources):
            counts = action.amounts
            if sum(counts) != 1:
                raise NotInSpace(f"{action}: one token at a time")
            return s["buy"] + counts.index(1)
        if isinstance(action, Power):
            memo = {} if memo is None else memo
            held = memo.get("held")
            if held is None:
                held = memo["held"] = sorted(g.plants_of(action.player))  # the player to act's
            bits = sum(1 << held.index(p) for p in action.plants)
            coal = action.hybrid_coal or 0
            if coal > HYBRID_MAX or bits >= 1 << POWER_SLOTS:
                raise NotInSpace(f"{action}: more than the space holds")
            return s["power"] + bits * (HYBRID_MAX + 1) + coal
        if isinstance(action, Done):
            return s["done"]
        if isinstance(action, MarkCity):
            return s["mark"] + self._city[action.city]
        if isinstance(action, Open):
            memo = {} if memo is None else memo
            if "market" not in memo:
                memo["market"] = {p: (k, g.min_bid(p)) for k, p in enumerate(g.current_market())}
            slot, minimum = memo["market"].get(action.plant, (None, None))
            if slot is None or action.bid != minimum:
                raise NotInSpace(f"{action}: an auction opens at the minimum bid only")
            return s["open"] + slot
        if isinstance(action, Bid):
            a = g.auction
            step = action.amount - a.bid if a is not None else None
            if step not in BID_STEPS:
                raise NotInSpace(f"{action}: a bid raises by one of {BID_STEPS}")
            return s["bid"] + BID_STEPS.index(step)
        if isinstance(action, Pass):
            return s["pass"]
        if isinstance(action, Discard):
            if action.keep != self._most_kept(g, action.plant, legal):
                raise NotInSpace(f"{action}: a discard keeps the most tokens that fit")
            return s["discard"] + sorted(g.plants_of(action.player)).index(action.plant)
        raise NotInSpace(f"{action!r}: no block for this kind of action")

    def nearest(self, g: Game, action: Action) -> int:
        """The index closest to a legal ``action`` (our bots' decisions played in the space): an opening
        above the minimum bid opens at the minimum, a bid off the ladder is the largest ladder raise not
        above it, a discard keeps the most tokens; every other action is :meth:`encode`'s."""
        legal = g.legal_actions()
        try:
            return self.encode(g, action, legal)
        except NotInSpace:
            pass
        s = self._start
        if isinstance(action, Open):
            return s["open"] + g.current_market().index(action.plant)
        if isinstance(action, Bid) and g.auction is not None:
            step = action.amount - g.auction.bid
            return s["bid"] + max(i for i, k in enumerate(BID_STEPS) if k <= step or i == 0)
        if isinstance(action, Discard):
            return s["discard"] + sorted(g.plants_of(action.player)).index(action.plant)
        raise NotInSpace(f"{action}: no index near it")

    @staticmethod
    def _most_kept(g: Game, plant: int, legal: list[Action] | None) -> tuple[int, ...] | None:
        keeps = [a.keep for a in (legal if legal is not None else g.legal_actions())
                 if isinstance(a, Discard) and a.plant == plant]
        return max(keeps, key=lambda k: sum(k or ()), default=None)  # max keeps the first of the largest

    # --- mask and decode --------------------------------------------------------------------------------
    def encoded(self, g: Game) -> dict[int, Action]:
        """Every legal decision of ``g`` that has an index, by index."""
        if g.is_over:
            return {}
        legal = g.legal_actions()
        out: dict[int, Action] = {}
        memo: dict[Any, Any] = {}
        for a in legal:
            try:
                i = self.encode(g, a, legal, memo)
            except NotInSpace:
                continue
            out.setdefault(i, a)
        return out

    def mask(self, g: Game, encoded: dict[int, Action] | None = None) -> np.ndarray:
        """A 0/1 vector (``int8``, length :attr:`n`): 1 at each index legal now."""
        m = np.zeros(self.n, dtype=np.int8)
        m[list(self.encoded(g) if encoded is None else encoded)] = 1
        return m

    def decode(self, g: Game, index: int, encoded: dict[int, Action] | None = None) -> Action:
        """The decision ``index`` stands for in ``g``; :class:`IllegalAction` naming the legal indices
        when it is not legal now. ``encoded``: :meth:`encoded` of ``g`` if already at hand."""
        legal = self.encoded(g) if encoded is None else encoded
        if index not in legal:
            what = self.describe([index])[0] if 0 <= index < self.n else f"outside 0..{self.n - 1}"
            now = "; ".join(f"{i} = {legal[i]}" for i in sorted(legal))
            raise IllegalAction(f"action index {index} ({what}) is not legal now; the legal indices are: "
                                f"{now}")
        return legal[index]

    def describe(self, indices: Iterable[int]) -> list[str]:
        """Each index in words, as "block[k]: what it does" (the position says which plant or city)."""
        return [self._words(int(i)) for i in indices]

    def _words(self, i: int) -> str:
        b = self.block_of(i)
        k = i - b.start
        h = HYBRID_MAX + 1
        slots = [str(s) for s in range(POWER_SLOTS) if (k // h) >> s & 1]
        words = {"mark": lambda: f"mark {self.cities[k]} as a starting city",
                 "open": lambda: f"open slot {k} of the current market at its minimum bid",
                 "bid": lambda: f"raise the bid by {BID_STEPS[k]}",
                 "pass": lambda: "pass",
                 "discard": lambda: f"box plant {k} (lowest first), keeping the most tokens",
                 "buy": lambda: f"buy one {RESOURCES[k]}",
                 "build": lambda: f"build in {self.cities[k]}",
                 "power": lambda: (f"run plants {', '.join(slots) or 'none'} (lowest first), "
                                   f"{k % h} coal in hybrids"),
                 "done": lambda: "done"}
        return f"{b.name}[{k}]: {words[b.name]()}"
