"""Read-only facts and questions about a game: what bots, views, panels and analysis may ask.

Everything outside the engine core uses these (and the frames), never the state itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import BuyResources, Power
from .board.queries import MapQueries
from .phases import bureaucracy, resources
from .phases.auction import BidChoices
from .phases.auction import choices as auction_choices
from .phases.rounds import PHASES
from .phases.steps import current_market
from .rules.phases import PHASE_NAMES, Phase
from .rules.plants import RESOURCES, capacities, card_out

if TYPE_CHECKING:

    from .board.maps import GameMap
    from .board.network import PlanStep
    from .context import Context
    from .editions import Edition
    from .state import State

STORAGE = (*RESOURCES, "hybrid")


class AuctionView(NamedTuple):
    """The running auction: the plant, the high bid, its bidder, and who still bids (next first)."""

    plant: int
    bid: int
    leader: str
    bidders: tuple[str, ...]


class Queries(MapQueries):
    """The read-only half of :class:`~powergrid_nb.engine.game.Game`."""

    ctx: Context
    s: State

    # --- the course of the game -----------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.s.over

    @property
    def round(self) -> int:
        return self.s.round

    @property
    def phase(self) -> Phase:
        """1-5 as in R13; 0 while start cities are marked; 6 once the game is over (an int)."""
        return self.s.phase

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.s.phase]

    @property
    def step(self) -> int:
        return self.s.step

    @property
    def current_player(self) -> str | None:
        s = self.s
        p = None if s.over else PHASES[s.phase].current(self)  # type: ignore[arg-type]
        return None if p is None else self.ctx.names[p]

    @property
    def still_to_act(self) -> list[str]:
        """Who has yet to act in this phase, in turn: the players who may still open an auction in
        phase 2 (R25), the turn list in phases 0 and 3-5."""
        s = self.s
        return self._names(s.active if s.phase == Phase.AUCTION else s.to_act)

    @property
    def auction(self) -> AuctionView | None:
        """The auction running now, or None (R29)."""
        a = self.s.auction
        if a is None:
            return None
        return AuctionView(a.plant, a.bid, self.ctx.names[a.leader], tuple(self._names(a.bidders)))

    @property
    def discarding(self) -> str | None:
        """The player who must box a plant now (over the limit, R36), or None."""
        d = self.s.discard
        return None if d is None else self.ctx.names[d]

    @property
    def bought_this_round(self) -> list[str]:
        """Who has taken a plant in this phase 2."""
        return self._names(self.s.bought)

    # --- the table --------------------------------------------------------------------------
    @property
    def players(self) -> list[str]:
        """The human players' names, in seating order of creation."""
        return [self.ctx.names[p] for p in self.ctx.humans]

    @property
    def participants(self) -> list[str]:
        """The players and, in a game against it, the Trust (last)."""
        return list(self.ctx.names)

    def player_index(self, player: str) -> int:
        """The player's position in :attr:`participants` (KeyError naming the players if unknown)."""
        return self._index(player)

    @property
    def player_order(self) -> list[str]:
        return self._names(self.s.order)

    @property
    def seat_order(self) -> list[str]:
        return self._names(self.s.seats)

    @property
    def edition(self) -> str:
        return self.ctx.edition.name

    @property
    def rules(self) -> Edition:
        """The edition's rule object: its tables (with any what-if overrides) and capabilities."""
        return self.ctx.edition

    @property
    def map(self) -> GameMap:
        return self.ctx.map

    @property
    def regions(self) -> tuple[str, ...]:
        return self.ctx.regions

    @property
    def seed(self) -> int:
        return self.ctx.seed

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.ctx.options)

    @property
    def plant_limit(self) -> int:
        """Plants a player may own (R36)."""
        return self.ctx.plant_limit

    @property
    def max_cities(self) -> int:
        """Houses per player (R67)."""
        return self.ctx.max_cities

    @property
    def step2_cities(self) -> int:
        """Cities that start Step 2 (R89)."""
        return self.ctx.step2_cities

    @property
    def end_cities(self) -> int:
        """Cities that end the game (R96)."""
        return self.ctx.end_cities

    @property
    def trust(self) -> str | None:
        return None if self.ctx.trust is None else self.ctx.names[self.ctx.trust]

    def income(self, powered: int) -> int:
        """Income for powering ``powered`` cities (R76, the payment table)."""
        return self.ctx.edition.payment(powered)

    # --- players ----------------------------------------------------------------------------
    def money(self, player: str) -> int:
        return self.s.money[self._index(player)]

    def cities_of(self, player: str) -> list[str]:
        """The player's cities in the order built."""
        return list(self.s.mine[self._index(player)])

    def plants_of(self, player: str) -> list[int]:
        return sorted(self.s.plants[self._index(player)])

    def tokens_of(self, player: str) -> dict[str, int]:
        return dict(zip(RESOURCES, self.s.tokens[self._index(player)], strict=True))

    def storage_of(self, player: str) -> dict[str, int]:
        """Tokens the player's plants can hold per pure type and for hybrids (R47, R49)."""
        return dict(zip(STORAGE, capacities(self.s.plants[self._index(player)]), strict=True))

    # --- markets ----------------------------------------------------------------------------
    def current_market(self) -> list[int]:
        return current_market(self)  # type: ignore[arg-type]

    def future_market(self) -> list[int]:
        """Visible, not biddable (R12); ends with the Step 3 card (plants.STEP3 = 99) while it waits (R90)."""
        return [] if self.s.step == 3 else self.s.market[4:]

    @property
    def discount(self) -> int | None:
        """The plant under Recharged's discount token (R40), or None."""
        return self.s.discount

    def min_bid(self, plant: int) -> int:
        """Minimum opening bid of a plant now, with the Recharged discount (R28, R40)."""
        return self.ctx.edition.min_bid(self, plant)  # type: ignore[arg-type]

    def bid_choices(self) -> BidChoices | None:
        """The auction decisions of the player to act, in short: the plants they may open with their
        bids, the raises of the running auction and whether they may pass (R28-R35, R40); None outside
        phase 2 or while someone must box a plant. ``legal_actions()`` lists the same decisions."""
        s = self.s
        if s.over or s.phase != Phase.AUCTION or s.discard is not None:
            return None
        p = PHASES[Phase.AUCTION].current(self)  # type: ignore[arg-type]
        return None if p is None else auction_choices(self, p)  # type: ignore[arg-type]

    @property
    def deck_size(self) -> int:
        """Cards left in the draw pile, the Step 3 card included while it waits there (R10, R90)."""
        return len(self.s.deck)

    @property
    def deck_top(self) -> int | str | None:
        """The draw pile's top as every player sees it: the plant when it is known (R10), else its
        back ("plug" or "socket", R119), None for an empty pile or an edition without card backs."""
        deck = self.s.deck
        if not deck:
            return None
        if self.s.top_known:
            return card_out(deck[0])
        return self.ctx.edition.card_back(deck[0])  # R119: the back shows plug or socket

    def boxed_plants(self) -> list[int]:
        """Plants out of the game face up, in the order they left (R36, R38, R68, R84, R89-R92)."""
        return list(self.s.boxed)

    def resource_market(self) -> dict[str, int]:
        """Tokens of each resource on the market (R82)."""
        return dict(zip(RESOURCES, self.s.res, strict=True))

    def resource_counts(self) -> tuple[int, ...]:
        """:meth:`resource_market` as a tuple in :data:`~powergrid_nb.engine.rules.plants.RESOURCES` order."""
        return tuple(self.s.res)

    def resource_supply(self) -> dict[str, int]:
        """Tokens of each resource in the supply: neither on the market nor on a plant (R1)."""
        return dict(zip(RESOURCES, resources.game_supply(self), strict=True))  # type: ignore[arg-type]

    @property
    def resource_track(self) -> resources.Track:
        """The price tracks of the resource market (R115-R117): ``next_price``, ``buy_cost``, ..."""
        return self.ctx.edition.track

    def token_price(self, resource: str) -> int | None:
        """What the next token of ``resource`` costs now: the track (R117), else the supply's price
        under a map rule (R126) while the supply has some; None if none can be bought."""
        k = resources.resource_index(resource)
        n = self.s.res[k]
        if n:
            return self.ctx.edition.track.next_of[k][n]
        price = resources.depot_price(self, k)  # type: ignore[arg-type]
        return price if price is not None and resources.game_supply(self)[k] > 0 else None  # type: ignore[arg-type]

    def fuel_cost(self, plant: int) -> int | None:
        """One run of fuel for ``plant`` at today's prices (R50, R126; hybrids: the cheapest mix)."""
        return resources.fuel_cost(self, plant)  # type: ignore[arg-type]

    def depot_price(self, resource: str) -> int | None:
        """The price of tokens bought from the supply once the track is empty (R126), or None."""
        return resources.depot_price(self, resources.resource_index(resource))  # type: ignore[arg-type]

    # --- previews ---------------------------------------------------------------------------
    def purchase_cost(self, player: str, coal: int = 0, oil: int = 0, garbage: int = 0,
                      uranium: int = 0) -> int:
        """What ``player`` would pay for these tokens now (R50, R126), checked as ``apply`` checks a
        purchase: raises IllegalAction naming the rule (storage R48, supply R52, money R31)."""
        a = BuyResources(player, coal, oil, garbage, uranium)
        if not any(a.amounts):
            return 0
        return resources.check(self, a, self._index(player))[0]  # type: ignore[arg-type]

    def market_cost(self, coal: int = 0, oil: int = 0, garbage: int = 0, uranium: int = 0) -> int:
        """What these tokens cost on the market now, cheapest first (R50, R126), whoever buys them;
        IllegalAction (R52) if the market and supply cannot provide them."""
        return resources.purchase_cost(self, (coal, oil, garbage, uranium))  # type: ignore[arg-type]

    def power_outcome(self, player: str, plants: Iterable[int] = (), hybrid_coal: int | None = None
                      ) -> bureaucracy.PowerOutcome:
        """What running ``plants`` would do for ``player`` now: tokens burnt, cities powered and income
        (R72-R77); raises IllegalAction as ``apply`` would. ``hybrid_coal`` None: as much coal as possible."""
        return bureaucracy.check(self, Power(player, tuple(plants), hybrid_coal),  # type: ignore[arg-type]
                                 self._index(player))

    def plan_build(self, player: str, cities: list[str]) -> list[PlanStep]:
        """Price a build of ``cities`` in this order with the paths each city pays for (R54-R64)."""
        from .board.network import price_plan
        return price_plan(self, player, cities)  # type: ignore[arg-type]

    # --- scores -----------------------------------------------------------------------------
    def scores(self) -> dict[str, int]:
        """Cities each player can power now with their plants and tokens (R99); final at the end."""
        return {self.ctx.names[p]: bureaucracy.score(self, p) for p in self.ctx.humans}  # type: ignore[arg-type]

    def rank_key(self, player: str) -> tuple[int, ...]:
        """What ranks ``player`` (higher is better): cities powered (R99), then the edition's
        tie-breaks (R100-R102: money, [ORIG] cities)."""
        return self._rank_key(self._index(player))

    def ranking(self) -> list[str]:
        """Players best first by R100-R102 (cities powered, money, [ORIG] cities); a tie the rules
        cannot split keeps the seating order of creation."""
        return [self.ctx.names[p] for p in sorted(self.ctx.humans, key=self._rank_key, reverse=True)]

    def ranks(self) -> dict[str, int]:
        """Each player's place (1 = best); players the tie-breaks cannot split share a place (O16)."""
        keys = {n: self.rank_key(n) for n in self.players}
        return {n: 1 + sum(other > k for other in keys.values()) for n, k in keys.items()}

    @property
    def winners(self) -> list[str]:
        """Winner(s) once the game is over; several only when the tie-breaks cannot split (O16)."""
        if not self.s.over:
            return []
        return [n for n, r in self.ranks().items() if r == 1]

    @property
    def winner(self) -> str | None:
        w = self.winners
        return w[0] if len(w) == 1 else None

    def returns(self) -> dict[str, float]:
        """1 for a sole winner, 1/k for k sharing the victory, 0 otherwise (bots and simulations)."""
        w = self.winners
        return {n: (1 / len(w) if n in w else 0.0) for n in self.players}

    # --- internals --------------------------------------------------------------------------
    def _index(self, player: str) -> int:
        try:
            return self.ctx.index[player]
        except KeyError:
            raise KeyError(f"no player {player!r}; players are {self.ctx.names}") from None

    def _names(self, idx: Iterable[int]) -> list[str]:
        names = self.ctx.names
        return [names[p] for p in idx]

    def _rank_key(self, p: int) -> tuple[int, ...]:
        return (bureaucracy.score(self, p), *self.ctx.edition.tiebreak(self, p))  # type: ignore[arg-type]

    # --- queries added for the bots and planner ---
    def plants_in_order(self, player: str) -> list[int]:
        """The player's plants in the order acquired (:meth:`plants_of` sorts them; bots break ties by it)."""
        return list(self.s.plants[self._index(player)])

    def held(self, player: str) -> tuple[int, ...]:
        """:meth:`tokens_of` as a tuple in :data:`~powergrid_nb.engine.rules.plants.RESOURCES` order."""
        return tuple(self.s.tokens[self._index(player)])

    def city_count(self, player: str) -> int:
        """``len(cities_of(player))``."""
        return len(self.s.mine[self._index(player)])

    def largest_network(self) -> int:
        """The most cities any player has connected, the Trust's houses not counted (R133): the count
        that starts Step 2 (R89), ends the game (R96) and, in the original edition, boxes small plants
        (R68)."""
        mine = self.s.mine
        return max(len(mine[p]) for p in self.ctx.humans)

    def house_total(self) -> int:
        """Houses on the board: ``sum(city_count(q) for q in participants)``."""
        return sum(len(m) for m in self.s.mine)

    def power_options(self, player: str) -> list[tuple[Power, int, tuple[int, int, int, int]]]:
        """(run, income, tokens burnt) of each legal Power, in order (:meth:`power_outcome`, phase 5)."""
        if self.s.over or self.s.phase != Phase.BUREAUCRACY or self.current_player != player:
            return []
        return bureaucracy.options(self, self._index(player))  # type: ignore[arg-type]

    # --- queries added for frames, views and panels ---
    def next_refill(self) -> dict[str, int]:
        """Tokens of each resource the next phase-5 refill would move now, if nobody buys first: the
        step, the supply and map rules such as R125 included (R78-R81); found by refilling a copy."""
        c = self.copy()  # type: ignore[attr-defined]
        bureaucracy.refill(c)
        before = self.s.res
        return {r: c.s.res[k] - before[k] for k, r in enumerate(RESOURCES)}

    def storage_room(self, player: str) -> dict[str, int]:
        """How many more tokens of each resource (that one alone) the player's plants could store now
        (R48, R49: hybrids shared by coal and oil); the market and money left out."""
        from .rules.plants import fits
        p = self._index(player)
        cap, held = capacities(self.s.plants[p]), self.s.tokens[p]
        totals = self.ctx.edition.track.totals
        room = {}
        for k, r in enumerate(RESOURCES):
            x = 0
            while x < totals[k] and fits(cap, [h + (x + 1 if i == k else 0) for i, h in enumerate(held)]):
                x += 1
            room[r] = x
        return room
