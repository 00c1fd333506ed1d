"""The Game: legal actions, apply, undo, copy, read-only facts and scores (R14, R99-R104)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from . import auction, building, bureaucracy, resources, rounds
from .actions import Action, Bid, Build, BuyResources, Discard, Done, MarkCity, Open, Pass, Power
from .errors import IllegalAction
from .rounds import PHASE_NAMES
from .state import State
from .steps import current_market
from .trust import TRUST_NAME

if TYPE_CHECKING:
    from collections.abc import Iterable

    import pandas as pd

    from .editions import Edition
    from .maprules import MapRule
    from .maps import GameMap
    from .network import PlanStep
    from .trust import TrustPolicy

_PHASE_ACTIONS: dict[int, tuple[type[Action], ...]] = {
    0: (MarkCity,), 2: (Open, Bid, Pass, Discard), 3: (BuyResources, Done), 4: (Build, Done),
    5: (Power,)}
_MODULES = {2: auction, 3: resources, 4: building, 5: bureaucracy}


class Event(NamedTuple):
    """One line of the history: a decision or something the game did."""

    round: int
    phase: int
    step: int
    player: str | None
    kind: str
    amount: int
    detail: str


class Context:
    """What stays fixed for a whole game (shared by copies): players, map, edition, options."""

    def __init__(self, names: list[str], trust: bool, edition: Edition, game_map: GameMap,
                 regions: tuple[str, ...], options: dict[str, Any], seed: int,
                 map_rules: list[MapRule], trust_policy: TrustPolicy | None) -> None:
        self.names = names + ([TRUST_NAME] if trust else [])
        self.humans = list(range(len(names)))
        self.trust = len(names) if trust else None
        self.index = {n: i for i, n in enumerate(self.names)}
        self.edition, self.map, self.regions = edition, game_map, regions
        self.options, self.seed, self.map_rules = options, seed, map_rules
        self.trust_policy = trust_policy
        self.cities, self.dist = game_map.distance_matrix(regions)
        self.cidx = {c: i for i, c in enumerate(self.cities)}
        n = len(names)
        self.refill_players = n  # R109: the Trust game uses the 2-player row
        self.plant_limit = edition.plant_limit(n)
        self.step2_cities, self.end_cities = edition.step2_cities(n), edition.end_cities(n)
        self.max_cities = edition.tables["max_cities"]
        self.pass_action = [Pass(x) for x in self.names]
        self.done_action = [Done(x) for x in self.names]
        self.buy_one = [[BuyResources(x, *(int(k == i) for k in range(4))) for i in range(4)]
                        for x in self.names]
        self.build_one = [[Build(x, c) for c in self.cities] for x in self.names]
        self.mark_one = [[MarkCity(x, c) for c in self.cities] for x in self.names]


class Game:
    """A game of Power Grid. Create one with :func:`powergrid_nb.new_game` or :func:`load`."""

    def __init__(self, ctx: Context, state: State, history: list[tuple] | None = None) -> None:
        self.ctx, self.s = ctx, state
        self._history: list[tuple] = list(history) if history is not None else []
        self._stack: list[Action] = []
        self._root = (state.clone(), len(self._history))
        self._conn: dict[int, tuple] = {}
        self._legal: list[Action] | None = None

    # --- the OpenSpiel-like contract -------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal decision of the player to act (atomic: one token, one city, one bid)."""
        if self._legal is None:
            p = self._current()
            if p is None or self.s.over:
                self._legal = []
            elif self.s.phase == 0:
                taken = set(self.s.marked)
                self._legal = [a for a, c in zip(self.ctx.mark_one[p], self.ctx.cities, strict=True)
                               if c not in taken]
            else:
                self._legal = _MODULES[self.s.phase].legal(self, p)
        return list(self._legal)

    def apply(self, action: Action | str) -> None:
        """Apply a legal action; raise :class:`IllegalAction` (state unchanged) otherwise."""
        if isinstance(action, str):
            action = Action.parse(action)
        p = self._check_turn(action)
        composite = isinstance(action, Build) and len(action.cities) > 1
        saved = (self.s.clone(), len(self._history), dict(self._conn)) if composite else None
        self._log(action.kind, action.player, _amount(action), str(action))
        try:
            if self.s.phase == 0:
                self._mark(action, p)  # type: ignore[arg-type]
            elif isinstance(action, Done):  # R15: the end of one's turn in phase 3 or 4
                self.s.to_act.pop(0)
            else:
                _MODULES[self.s.phase].apply(self, action, p)
        except IllegalAction:
            if saved is not None:
                self.s, self._conn = saved[0], saved[2]
                del self._history[saved[1]:]
            else:
                self._history.pop()
            raise
        self._stack.append(action)
        self._legal = None
        self._advance()

    push = apply

    def undo(self, n: int = 1) -> list[Action]:
        """Take back the last ``n`` decisions (any depth); returns them, oldest first."""
        if not 0 <= n <= len(self._stack):
            raise ValueError(f"can undo 0 to {len(self._stack)} actions, not {n}")
        if n == 0:
            return []
        keep, undone = self._stack[:-n], self._stack[-n:]
        self.s = self._root[0].clone()
        del self._history[self._root[1]:]
        self._stack, self._conn, self._legal = [], {}, None
        for a in keep:
            self.apply(a)
        return undone

    def pop(self) -> Action:
        """Undo the last decision and return it (like python-chess ``Board.pop``)."""
        return self.undo(1)[0]

    def copy(self) -> Game:
        """An independent game in the same position, with the same undo stack and history."""
        g = Game.__new__(Game)
        g.ctx, g.s = self.ctx, self.s.clone()
        g._history, g._stack, g._root = self._history[:], self._stack[:], self._root
        g._conn, g._legal = dict(self._conn), self._legal
        return g

    clone = copy

    # --- read-only facts ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.s.over

    @property
    def round(self) -> int:
        return self.s.round

    @property
    def phase(self) -> int:
        """1-5 as in R13; 0 while start cities are marked; 6 once the game is over."""
        return self.s.phase

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.s.phase]

    @property
    def step(self) -> int:
        return self.s.step

    @property
    def players(self) -> list[str]:
        """The human players' names, in seating order of creation."""
        return [self.ctx.names[p] for p in self.ctx.humans]

    @property
    def current_player(self) -> str | None:
        p = self._current()
        return None if p is None or self.s.over else self.ctx.names[p]

    @property
    def player_order(self) -> list[str]:
        return [self.ctx.names[p] for p in self.s.order]

    @property
    def seat_order(self) -> list[str]:
        return [self.ctx.names[p] for p in self.s.seats]

    @property
    def edition(self) -> str:
        return self.ctx.edition.name

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
        return self.ctx.plant_limit

    @property
    def trust(self) -> str | None:
        return None if self.ctx.trust is None else self.ctx.names[self.ctx.trust]

    @property
    def history(self) -> list[Event]:
        """The event log: decisions and what the game did (draws, refills, incomes, steps)."""
        return [Event(*e) for e in self._history]

    @property
    def actions(self) -> list[Action]:
        """The decisions applied since the game was created or loaded (the undo stack)."""
        return list(self._stack)

    def money(self, player: str) -> int:
        return self.s.money[self._index(player)]

    def cities_of(self, player: str) -> list[str]:
        return list(self.s.mine[self._index(player)])

    def plants_of(self, player: str) -> list[int]:
        return sorted(self.s.plants[self._index(player)])

    def tokens_of(self, player: str) -> dict[str, int]:
        return dict(zip(resources.RESOURCES, self.s.tokens[self._index(player)], strict=True))

    def current_market(self) -> list[int]:
        return current_market(self)

    def future_market(self) -> list[int]:
        """Visible, not biddable (R12); ends with the Step 3 card (plants.STEP3 = 99) while it waits (R90)."""
        return [] if self.s.step == 3 else self.s.market[4:]

    def min_bid(self, plant: int) -> int:
        """Minimum opening bid of a plant now, with the Recharged discount (R28, R40)."""
        return self.ctx.edition.min_bid(self, plant)

    def build_cost(self, player: str, city: str) -> int | None:
        """What ``player`` would pay to add ``city`` now (R56-R60), or None if not allowed."""
        return building.city_cost(self, self._index(player), city)[0]

    def purchase_cost(self, player: str, coal: int = 0, oil: int = 0, garbage: int = 0,
                      uranium: int = 0) -> int:
        """What ``player`` would pay for these tokens now (R50, R126), checked as ``apply`` checks a
        purchase: raises IllegalAction naming the rule (storage R48, supply R52, money R31)."""
        a = BuyResources(player, coal, oil, garbage, uranium)
        if not any(a.amounts):
            return 0
        return resources.check(self, a, self._index(player))[0]

    def power_outcome(self, player: str, plants: Iterable[int] = (), hybrid_coal: int | None = None
                      ) -> bureaucracy.PowerOutcome:
        """What running ``plants`` would do for ``player`` now: tokens burnt, cities powered and income
        (R72-R77); raises IllegalAction as ``apply`` would. ``hybrid_coal`` None: as much coal as possible."""
        return bureaucracy.check(self, Power(player, tuple(plants), hybrid_coal), self._index(player))

    def plan_build(self, player: str, cities: list[str]) -> list[PlanStep]:
        """Price a build of ``cities`` in this order with the paths each city pays for (R54-R64)."""
        from .network import price_plan
        return price_plan(self, player, cities)

    def scores(self) -> dict[str, int]:
        """Cities each player can power now with their plants and tokens (R99); final at the end."""
        return {self.ctx.names[p]: bureaucracy.score(self, p) for p in self.ctx.humans}

    def ranking(self) -> list[str]:
        """Players best first by R100-R102 (cities powered, money, [ORIG] cities)."""
        return [self.ctx.names[p] for p in sorted(self.ctx.humans, key=self._rank_key, reverse=True)]

    @property
    def winners(self) -> list[str]:
        """Winner(s) once the game is over; several only when the tie-breaks cannot split (O16)."""
        if not self.s.over:
            return []
        keys = {p: self._rank_key(p) for p in self.ctx.humans}
        best = max(keys.values())
        return [self.ctx.names[p] for p, k in keys.items() if k == best]

    @property
    def winner(self) -> str | None:
        w = self.winners
        return w[0] if len(w) == 1 else None

    def returns(self) -> dict[str, float]:
        """1 for a sole winner, 1/k for k sharing the victory, 0 otherwise (bots and simulations)."""
        w = self.winners
        return {n: (1 / len(w) if n in w else 0.0) for n in self.players}

    # --- serialisation and frames (delegated) ----------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The whole position as JSON-ready data: the save format and the scenario format."""
        from .io import game_to_dict
        return game_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        from .io import game_from_dict
        return game_from_dict(data)

    def save(self, path: str) -> None:
        from .io import save
        save(self, path)

    def observation(self, player: str) -> dict[str, Any]:
        """The position as ``player`` may see it: deck order and unseen removals hidden."""
        from .io import observation
        return observation(self, player)

    def for_player(self, player: str, seed: int | None = None) -> Game:
        """A copy whose hidden cards are re-dealt at random: what a fair bot may search."""
        from .io import redeal
        return redeal(self, player, seed)

    def players_frame(self) -> pd.DataFrame:
        from .frames import players_frame
        return players_frame(self)

    def plants_frame(self) -> pd.DataFrame:
        from .frames import plants_frame
        return plants_frame(self)

    def resources_frame(self) -> pd.DataFrame:
        from .frames import resources_frame
        return resources_frame(self)

    def cities_frame(self, player: str | None = None) -> pd.DataFrame:
        from .frames import cities_frame
        return cities_frame(self, player)

    def connections_frame(self) -> pd.DataFrame:
        from .frames import connections_frame
        return connections_frame(self)

    def history_frame(self) -> pd.DataFrame:
        from .frames import history_frame
        return history_frame(self)

    def __repr__(self) -> str:
        state = "over" if self.s.over else f"{self.current_player} to act"
        return (f"<Game {self.edition} {self.ctx.map.name} {len(self.ctx.humans)}p round {self.round}"
                f" step {self.step} phase {self.phase} ({self.phase_name}), {state}>")

    def _ipython_display_(self) -> None:
        """In a notebook a game shows itself as the table to play it on (``powergrid_nb.panels``).

        As python-chess's boards render themselves, the display module loads only here, so the
        engine itself never imports widgets or plotting.
        """
        from IPython.display import display

        from .panels import play
        display(play(self))

    # --- internals --------------------------------------------------------------------------
    def _index(self, player: str) -> int:
        try:
            return self.ctx.index[player]
        except KeyError:
            raise KeyError(f"no player {player!r}; players are {self.ctx.names}") from None

    def _log(self, kind: str, player: str | None, amount: int, detail: str) -> None:
        s = self.s
        self._history.append((s.round, s.phase, s.step, player, kind, amount, detail))

    def _pay(self, p: int, amount: int, why: str) -> None:
        if amount:
            self.s.money[p] -= amount
            self._log("pay", self.ctx.names[p], -amount, why)

    def _earn(self, p: int, amount: int, why: str) -> None:
        self.s.money[p] += amount
        self._log("income", self.ctx.names[p], amount, why)

    def _rank_key(self, p: int) -> tuple[int, ...]:
        return (bureaucracy.score(self, p), *self.ctx.edition.tiebreak(self, p))

    def _current(self) -> int | None:
        s = self.s
        if s.phase == 2:
            if s.discard is not None:
                return s.discard
            if s.auction is not None:
                return s.auction[3][0]
            return s.active[0] if s.active else None
        return s.to_act[0] if s.to_act else None

    def _check_turn(self, a: Action) -> int:
        s = self.s
        if not isinstance(a, Action):
            raise TypeError(f"expected an Action, got {type(a).__name__}")
        if s.over:
            raise IllegalAction("the game is over", "R96", a)
        p = self.ctx.index.get(a.player)
        if p is None or p == self.ctx.trust:
            raise IllegalAction(f"{a.player!r} is not a player of this game "
                                f"({', '.join(self.players)})", "R5", a)
        cur = self._current()
        allowed = _PHASE_ACTIONS.get(s.phase, ())
        if not isinstance(a, allowed):
            kinds = ", ".join(c.__name__ for c in allowed)
            raise IllegalAction(f"phase {s.phase} ({self.phase_name}) takes {kinds}", "R13", a)
        if p != cur:
            raise IllegalAction(f"it is {self.ctx.names[cur]}'s turn, not {a.player}'s "  # type: ignore[index]
                                f"(phase {s.phase}, {self.phase_name})", "R14", a)
        return p

    def _mark(self, a: MarkCity, p: int) -> None:
        rounds.mark(self, a, p)

    def _advance(self) -> None:
        rounds.advance(self)

    def _enter(self, ph: int) -> None:
        rounds.enter(self, ph)


def _amount(a: Action) -> int:
    if isinstance(a, Open):
        return a.bid
    if isinstance(a, Bid):
        return a.amount
    if isinstance(a, BuyResources):
        return sum(a.amounts)
    if isinstance(a, Build):
        return len(a.cities)
    if isinstance(a, Discard):
        return a.plant
    return 0

