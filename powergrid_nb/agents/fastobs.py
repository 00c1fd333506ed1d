"""The observation vector of :class:`~powergrid_nb.agents.observation.ObservationSpec` read straight from
the game's public queries, each part rewritten only when what it shows changed.

:meth:`ObservationSpec.of` builds ``g.observation(player)`` (the whole position as data, some 25 µs)
and fills the vector from it; it stays the reference that nothing hidden leaks, and the fast vector
equals it for every player at every decision (tests/test_agents_fast.py). Here one vector is kept per
game with the players in the game's own order (:attr:`Game.participants`); a player's observation is
that vector gathered into their seat order (viewer first), a fresh array. Each part is compared with
what it last showed (money, plants, tokens and cities of each player, the order, the auction, the
resource market, round, phase and step) and rewritten only on a change.

When the caller says who decided since the last look (``acted``: the environments apply every decision
themselves), less is read. Within a phase only the rows of those players, of the Trust (which plays on
its own) and, in phase 2, of the last auction's leader (who may have won it since); the plants, the
order and the auction only in phase 2, the tokens in phases 2, 3 and 5, the houses in phase 4, the
resource market in phase 3 after a purchase (where the rules change them); everything when the round,
phase or step changes; while the same auction runs, only its part. Without ``acted`` every part is
read (a game taken back is followed too).

The cards (the deck's size and visible top, the plants boxed, the market with the Step 3 card in its
place) are read again when one may have moved: when the round, the step, the market or anyone's plants
differ from the last look (every draw, boxing or card put under the deck changes one of them, and
within a round a market never comes back to an earlier set of cards).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from powergrid_nb.engine.rules.phases import Phase

from .observation import (
    FLAGS_AT,
    HELD,
    MARKET,
    PHASES_AT,
    PLANT_FEATURES,
    PLAYER_FEATURES,
    STEPS_AT,
    ObservationSpec,
    _plant,
)

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["FastObserver"]

F = PLANT_FEATURES
# the phases as plain module constants: read on every decision (an enum member's lookup costs more)
AUCTION, RESOURCES, BUILDING, BUREAUCRACY = Phase.AUCTION, Phase.RESOURCES, Phase.BUILDING, Phase.BUREAUCRACY


class FastObserver:
    """:meth:`ObservationSpec.of` for games of this ``spec``, from the public queries (see the module)."""

    def __init__(self, spec: ObservationSpec) -> None:
        self.spec = spec
        sl = spec.slices
        self._game_at, self._players_at = sl["game"].start, sl["players"].start
        self._market_at, self._res_at = sl["market"].start, sl["resources"].start
        self._auction = sl["auction"]
        # the auction part: running, the plant's features, then the high bid at _bid_at and the one-hots
        # of the leader, the bidders and the player discarding (P each) after it
        self._bid_at = self._auction.start + 1 + F
        self._map_at = sl["map"].start
        self._city = {c: i for i, c in enumerate(spec.cities)}
        self._game: Game | None = None

    def of(self, g: Game, player: str, acted: Collection[str] | None = None) -> np.ndarray:
        """``spec.of(g, player)``, equal value for value, as a fresh ``float32`` array. ``acted``: who
        decided since the last look at ``g``, when the caller applies every decision (the environments);
        within a phase only their rows (and the Trust's) are read again. None: anyone may have."""
        if g is not self._game:
            self._start(g)
            acted = None
        perm = self._perms.get(player)
        if perm is None:
            perm = self._perm(g, player)
        self._update(g, acted)
        return self._v.take(perm)

    # --- one game ---------------------------------------------------------------------------------------
    def _start(self, g: Game) -> None:
        """Forget the last game: a blank vector for ``g`` with its cities in play (fixed at set-up)."""
        self._game = g
        self._names = g.participants
        self._index = {n: j for j, n in enumerate(self._names)}
        self._unseated = [j for j, n in enumerate(self._names) if n not in g.seat_order]  # the Trust
        p = len(self._names)
        if p != self.spec.players:
            raise ValueError(f"this observation is for {self.spec.players} players, the game has {p}")
        self._v = np.zeros(self.spec.size, dtype=np.float32)
        self._grid = self._v[self._map_at:self._map_at + len(self.spec.cities) * (1 + p)].reshape(-1, 1 + p)
        self._grid[self.spec._in_play(g.play_area), 0] = 1.0
        self._perms: dict[str, np.ndarray] = {}
        # what each player's row shows: money, plants (in the order bought), tokens, cities (in order)
        self._money: list[int | None] = [None] * p
        self._plants: list[list[int] | None] = [None] * p
        self._tokens: list[tuple[int, ...] | None] = [None] * p
        self._cities: list[list[str]] = [[] for _ in range(p)]
        self._shown: dict[str, Any] = {}  # what the other parts show

    def _perm(self, g: Game, viewer: str) -> np.ndarray:
        """Where each value of ``viewer``'s vector is in the game-order vector: the players' rows, the
        auction's one-hots and the map's house columns in seat order from the viewer, then the Trust."""
        g.player_index(viewer)  # KeyError naming the players, as g.observation
        seats = g.seat_order
        i = seats.index(viewer)
        rows = seats[i:] + seats[:i]
        rows += [n for n in self._names if n not in rows]
        src = [self._names.index(n) for n in rows]
        p, perm = len(src), np.arange(self.spec.size)
        for k, j in enumerate(src):
            at = self._players_at
            perm[at + k * PLAYER_FEATURES:at + (k + 1) * PLAYER_FEATURES] = \
                np.arange(at + j * PLAYER_FEATURES, at + (j + 1) * PLAYER_FEATURES)
            for group in range(3):  # the leader, the bidders, the player discarding
                at = self._bid_at + 1 + group * p
                perm[at + k] = at + j
            cols = self._map_at + np.arange(len(self.spec.cities)) * (1 + p) + 1
            perm[cols + k] = cols + j
        self._perms[viewer] = perm
        return perm

    def _update(self, g: Game, acted: Collection[str] | None) -> None:
        v, shown, names = self._v, self._shown, self._names
        # game: round, phase, step, over (the deck's parts come with the cards below)
        now = (g.round, g.phase, g.step, g.is_over)
        moved = shown.get("game") != now or acted is None  # a new phase, or who knows: read everything
        ph = now[1]
        if moved:
            at = self._game_at
            v[at:at + FLAGS_AT] = 0.0
            v[at] = now[0]
            v[at + PHASES_AT + ph] = 1.0
            v[at + STEPS_AT + now[2] - 1] = 1.0
            v[at + FLAGS_AT] = now[3]
            shown["game"] = now
        elif ph == AUCTION and self._same_auction(g):
            return  # bids and passes only: nothing else changed
        # players: money, cities, plants, tokens, then each plant; the map's houses
        at = self._players_at
        plants_now = moved or ph == AUCTION
        if moved:
            rows: Iterable[int] = range(len(names))
        else:  # within a phase a decision changes its maker's row; the Trust plays on its own, and the
            # last auction's leader may have won it since
            rows = {self._index[n] for n in acted}.union(self._unseated)  # type: ignore[union-attr]
            if ph == AUCTION and (shown_a := shown.get("auction")) and shown_a[0] is not None:
                rows.add(self._index[shown_a[0].leader])
        paid = False  # anyone's money changed: in phase 3 only a purchase moves the resource market
        for j in rows:
            name = names[j]
            o = at + j * PLAYER_FEATURES
            money = g.money(name)
            if money != self._money[j]:
                v[o] = self._money[j] = money
                paid = True
            if plants_now:
                plants = g.plants_in_order(name)
                if plants != self._plants[j]:
                    v[o + 2] = len(plants)
                    v[o + 9:o + PLAYER_FEATURES] = _held(tuple(sorted(plants)[:HELD]))
                    self._plants[j] = plants
            if moved or ph in (AUCTION, RESOURCES, BUREAUCRACY):
                tokens = g.held(name)
                if tokens != self._tokens[j]:
                    v[o + 3:o + 3 + len(tokens)] = tokens
                    self._tokens[j] = tokens
            if moved or ph == BUILDING:
                cities = g.cities_of(name)
                if cities != self._cities[j]:
                    self._map(j, cities)
        if plants_now:
            # the order changes between phases only (R18-R22: in phase 1, and after round 1's auctions)
            order = g.player_order if moved else shown["order"][0]
            bought = g.bought_this_round
            if shown.get("order") != (order, bought):
                for j, name in enumerate(names):
                    o = at + j * PLAYER_FEATURES
                    v[o + 7] = order.index(name) if name in order else 0
                    v[o + 8] = name in bought
                shown["order"] = (order, bought)
            now_a = (g.auction, g.discarding)
            if shown.get("auction", ()) != now_a:
                self._auction_part(*now_a)
                shown["auction"] = now_a
        # the cards: the deck, the boxed plants and the market, when one may have moved
        if plants_now or ph == BUILDING:
            cards = (now[0], now[2], g.current_market(), g.future_market(), self._plants[:])
            if shown.get("cards") != cards:
                self._cards(g)
                shown["cards"] = cards
        if plants_now:
            discount = g.discount
            if shown.get("discount", ()) != discount:
                self._discount(discount)
        if moved or (ph == RESOURCES and (paid or self._unseated)):
            res = g.resource_counts()
            if shown.get("resources") != res:
                v[self._res_at:self._res_at + len(res)] = res
                shown["resources"] = res

    def _same_auction(self, g: Game) -> bool:
        """Whether the auction shown last is still running (then only its bid, leader and bidders
        changed: a plant is bought only as its auction ends); its part is brought up to date."""
        a, shown = g.auction, self._shown.get("auction")
        if a is None or shown is None or (old := shown[0]) is None or old.plant != a.plant:
            return False
        if old != a:  # only the bid, the leader and the bidders move: write what did
            v, index, p = self._v, self._index, len(self._names)
            at = self._bid_at
            v[at] = a.bid
            if old.leader != a.leader:
                v[at + 1 + index[old.leader]] = 0.0
                v[at + 1 + index[a.leader]] = 1.0
            if old.bidders != a.bidders:
                for n in old.bidders:
                    v[at + 1 + p + index[n]] = 0.0
                for n in a.bidders:
                    v[at + 1 + p + index[n]] = 1.0
            self._shown["auction"] = (a, None)
        return True

    def _map(self, j: int, cities: list[str]) -> None:
        """Player ``j``'s houses: the new ones after those shown, or all of them afresh."""
        before = self._cities[j]
        col = self._grid[:, 1 + j]
        if cities[:len(before)] != before:
            col[:] = 0.0
            before = []
        city = self._city
        for c in cities[len(before):]:
            col[city[c]] = 1.0
        self._v[self._players_at + j * PLAYER_FEATURES + 1] = len(cities)
        self._cities[j] = cities

    def _cards(self, g: Game) -> None:
        """The deck's parts, the boxed count and the market (current then future, the Step 3 card in
        its place while it waits)."""
        v, at = self._v, self._game_at
        v[at + 12:at + 15] = (g.deck_size, g.deck_top is not None, len(g.boxed_plants()))
        market = tuple((g.current_market() + g.future_market())[:MARKET])
        v[self._market_at:self._market_at + MARKET * (F + 1)] = _market(market)
        self._market = market
        self._discount(g.discount)

    def _discount(self, discount: int | None) -> None:
        """The discount flag of the market part: off under the plant that had it, on under ``discount``."""
        at, market = self._market_at + F, self._market
        old = self._shown.get("discount")
        if old is not None and old in market:
            self._v[at + market.index(old) * (F + 1)] = 0.0
        if discount is not None and discount in market:
            self._v[at + market.index(discount) * (F + 1)] = 1.0
        self._shown["discount"] = discount

    def _auction_part(self, a: Any, discarding: str | None) -> None:
        """The auction part afresh: the running auction ``a`` (``g.auction``) and who discards."""
        v, at, index, p = self._v, self._bid_at, self._index, len(self._names)
        v[self._auction] = 0.0
        if a is not None:
            v[self._auction.start] = 1.0
            v[self._auction.start + 1:at] = _plant(a.plant)
            v[at] = a.bid
            v[at + 1 + index[a.leader]] = 1.0
            for n in a.bidders:
                v[at + 1 + p + index[n]] = 1.0
        if discarding is not None:
            v[at + 1 + 2 * p + index[discarding]] = 1.0


def _held(plants: tuple[int, ...]) -> np.ndarray:
    """The features of up to :data:`HELD` plants (lowest first), zeros after: computed once per set."""
    f = _HELD.get(plants)
    if f is None:
        f = np.zeros(HELD * F, dtype=np.float32)
        for k, plant in enumerate(plants):
            f[k * F:(k + 1) * F] = _plant(plant)
        if len(_HELD) > 10_000:
            _HELD.clear()
        _HELD[plants] = f
    return f


_HELD: dict[tuple[int, ...], np.ndarray] = {}


def _market(cards: tuple[Any, ...]) -> np.ndarray:
    """The market part for these cards (up to :data:`MARKET`), no discount: computed once per market."""
    f = _MARKETS.get(cards)
    if f is None:
        f = np.zeros(MARKET * (F + 1), dtype=np.float32)
        for k, card in enumerate(cards):
            f[k * (F + 1):k * (F + 1) + F] = _plant(card)
        if len(_MARKETS) > 10_000:
            _MARKETS.clear()
        _MARKETS[cards] = f
    return f


_MARKETS: dict[tuple[Any, ...], np.ndarray] = {}
