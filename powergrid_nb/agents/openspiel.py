"""Power Grid as an OpenSpiel Python game: ``pyspiel.load_game("python_powergrid", {"players": 3})``.

Importing this module registers the game. Sequential, imperfect information (the deck), terminal
rewards by the final ranking (+1 first to -1 last, a zero-sum split; ties share).

Chance, in the documented *sampled* form: the game starts with one chance node whose outcome (one of
:data:`SEEDS`, uniform) is the seed of everything random in the game: the regions in play, the deck's
shuffle and so every later draw. After it, every node is a player's decision; the draws follow from
that seed as the engine deals them. Algorithms that need each draw as its own chance node (exact
expectimax over draws) do not apply; sampling-based ones (MCTS, CFR with outcome sampling, RL) do.

Parameters: ``players`` (``MIN_PLAYERS`` to ``MAX_PLAYERS``), ``map`` (a built-in map: ``builtin_maps()``),
``edition`` (a name of ``EDITIONS``); the defaults are :data:`DEFAULTS`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from powergrid_nb.engine.board.maps import DEFAULT_MAP
from powergrid_nb.engine.editions import DEFAULT_EDITION, MAX_PLAYERS, MIN_PLAYERS
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.engine.rules.plants import RESOURCES

from .fastmask import FastLegal
from .observation import ObservationSpec
from .rewards import rank_returns
from .space import ActionSpace

__all__ = ["GAME_NAME", "SEEDS", "PowerGridGame", "PowerGridState"]

GAME_NAME = "python_powergrid"
SEEDS = 1 << 16  # chance outcomes of the opening chance node: the game's seed
MAX_GAME_LENGTH = 5000  # decisions; a game of six uniform-random players takes about 1,500
DEFAULTS = {"players": 3, "map": DEFAULT_MAP, "edition": DEFAULT_EDITION}

_OUTCOMES = [(s, 1.0 / SEEDS) for s in range(SEEDS)]

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME, long_name="Power Grid (powergrid_nb)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS, min_num_players=MIN_PLAYERS,
    provides_information_state_string=False, provides_information_state_tensor=False,
    provides_observation_string=True, provides_observation_tensor=True,
    parameter_specification=dict(DEFAULTS))


class Facts:
    """The static facts of a parameter set: the set-up, the action space, the observation shape."""

    def __init__(self, params: dict[str, Any]) -> None:
        p = {**DEFAULTS, **params}
        self.setup = {"players": [f"player_{i}" for i in range(int(p["players"]))], "map": str(p["map"]),
                      "edition": str(p["edition"])}
        probe = new_game(seed=0, **self.setup)
        self.n_players = len(probe.players)
        self.space = ActionSpace(probe.map)
        self.fast = FastLegal(self.space)  # the legal indices read from the position (= space.encoded)
        self.obs_spec = ObservationSpec(len(probe.participants), list(probe.map.cities))


_FACTS: dict[tuple, Facts] = {}


def facts(params: dict[str, Any]) -> Facts:
    """The facts of ``params``, built once (OpenSpiel may hand states a game object of its own)."""
    key = tuple(sorted({**DEFAULTS, **params}.items()))
    if key not in _FACTS:
        _FACTS[key] = Facts(dict(key))
    return _FACTS[key]


class PowerGridGame(pyspiel.Game):
    """The game: its parameters' facts (:class:`Facts`) and OpenSpiel's game information."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        f = facts(p)
        info = pyspiel.GameInfo(num_distinct_actions=f.space.n, max_chance_outcomes=SEEDS,
                                num_players=f.n_players, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0, max_game_length=MAX_GAME_LENGTH)
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> PowerGridState:
        return PowerGridState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PowerGridObserver:
        return PowerGridObserver(facts(self.get_parameters()))


class PowerGridState(pyspiel.State):
    """A position: before the opening chance node, ``game`` is None."""

    def __init__(self, game: pyspiel.Game) -> None:
        super().__init__(game)
        self._pg = facts(game.get_parameters())
        self._pyspiel_game = game
        self.game: Game | None = None

    def current_player(self) -> int:
        g = self.game
        if g is None:
            return pyspiel.PlayerId.CHANCE
        if g.is_over:
            return pyspiel.PlayerId.TERMINAL
        return g.players.index(g.current_player)  # type: ignore[arg-type]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game is not None
        return sorted(self._pg.fast.legal(self.game))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return _OUTCOMES

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            self.game = new_game(seed=int(action), **self._pg.setup)
            return
        fast = self._pg.fast
        self.game.apply(fast.action(self.game, fast.legal(self.game), int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.game is None:
            return f"seed {action}"
        try:
            return str(self._pg.space.decode(self.game, int(action)))
        except ValueError:
            return " ".join(self._pg.space.describe([action]))

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.is_over

    def returns(self) -> list[float]:
        g = self.game
        if g is None or not g.is_over:
            return [0.0] * self._pg.n_players
        r = rank_returns(g)
        return [r[p] for p in g.players]

    def __deepcopy__(self, memo: dict) -> PowerGridState:
        other = PowerGridState(self._pyspiel_game)
        other.game = None if self.game is None else self.game.copy()
        return other

    def __str__(self) -> str:
        g = self.game
        if g is None:
            return "before the deal"
        return "\n".join([f"round {g.round} step {g.step} {g.phase_name}; {g.current_player} to act"]
                         + [f"{p}: {g.money(p)} E, plants {sorted(g.plants_of(p))}, {len(g.cities_of(p))} "
                            f"cities, " + " ".join(f"{r} {g.tokens_of(p)[r]}" for r in RESOURCES)
                            for p in g.players])


class PowerGridObserver:
    """What a player may see (``g.observation``), as OpenSpiel's observation tensor and string."""

    def __init__(self, facts: Facts) -> None:
        self._pg = facts
        spec = facts.obs_spec
        self.tensor = np.zeros(spec.size, np.float32)
        self.dict = {name: self.tensor[s] for name, s in spec.slices.items()}

    def set_from(self, state: PowerGridState, player: int) -> None:
        g = state.game
        if g is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = self._pg.obs_spec.of(g, g.players[player])

    def string_from(self, state: PowerGridState, player: int) -> str:
        g = state.game
        if g is None:
            return "before the deal"
        me = g.players[player]
        return (f"{me}: round {g.round} {g.phase_name}; money {g.money(me)}, "
                f"plants {sorted(g.plants_of(me))}, "
                f"market {g.current_market()}; {g.current_player} to act")


pyspiel.register_game(_GAME_TYPE, PowerGridGame)
