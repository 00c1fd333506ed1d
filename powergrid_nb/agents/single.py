"""Power Grid as a Gymnasium environment: one seat learns, our bots play the others.

``PowerGridEnv(players=4, seat=0, opponents="heuristic")``: observations are dicts like the PettingZoo
environment's (``observation`` and ``action_mask``; ``info["action_mask"]`` and :meth:`action_masks`
give the mask too, for maskable learners). Each ``step`` makes the seat's decision, then the bots'
decisions until the seat is to act again or the game is over. The reward comes at the end (``"rank"``:
+1 first to -1 last; ``"win"``; ``"shaped"``: plus 0.01 per city built).

``illegal="raise"`` (the default) raises :class:`~powergrid_nb.errors.IllegalAction` naming the legal
indices; ``illegal="terminate"`` ends the episode with reward -1 instead (what a learner that ignores
the mask needs, and what ``gymnasium.utils.env_checker.check_env``, which samples unmasked actions,
exercises).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..errors import IllegalAction
from ..game import Game
from ..newgame import new_game
from .observation import OBS_HIGH, ObservationSpec
from .rewards import REWARDS, shaped_step
from .space import ActionSpace

__all__ = ["PowerGridEnv"]


class PowerGridEnv(gym.Env):
    """One seat of a Power Grid game against our bots (see the module's text)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, players: int = 4, seat: int = 0,
                 opponents: str | Sequence[str] | Mapping[str, str] = "heuristic", map: str = "germany",
                 edition: str = "original", reward: str = "rank", illegal: str = "raise",
                 render_mode: str | None = None, **options: Any) -> None:
        if reward not in (*REWARDS, "shaped"):
            raise ValueError(f"reward is one of {[*REWARDS, 'shaped']}, not {reward!r}")
        if illegal not in ("raise", "terminate"):
            raise ValueError(f"illegal is 'raise' or 'terminate', not {illegal!r}")
        if not 0 <= seat < players:
            raise ValueError(f"seat is 0..{players - 1} for {players} players, not {seat}")
        self.names = [f"player_{i}" for i in range(players)]
        self.agent = self.names[seat]
        others = [n for n in self.names if n != self.agent]
        if isinstance(opponents, str):
            opponents = dict.fromkeys(others, opponents)
        elif not isinstance(opponents, Mapping):
            if len(opponents) != len(others):
                raise ValueError(f"{len(others)} opponents needed, one per other seat; got {list(opponents)}")
            opponents = dict(zip(others, opponents, strict=True))
        self.opponents = dict(opponents)
        self._setup = {"players": self.names, "map": map, "edition": edition, **options}
        self.reward_kind, self.illegal, self.render_mode = reward, illegal, render_mode
        self.game: Game = new_game(seed=0, **self._setup)
        self.space = ActionSpace(self.game.map)
        self.obs_spec = ObservationSpec(len(self.game.participants), list(self.game.map.cities))
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, OBS_HIGH, (self.obs_spec.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.space.n,), np.int8)})
        self.action_space = spaces.Discrete(self.space.n)
        self._bots: dict[str, Bot] = {}
        self._legal: dict[int, Any] | None = None

    # --- Gymnasium's contract -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31))
        self.game = new_game(seed=game_seed, **self._setup)
        self._bots = {p: make_bot(b, seed=game_seed + i) for i, (p, b) in enumerate(self.opponents.items())}
        self._play_bots()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        g = self.game
        if g.is_over:
            raise RuntimeError("the game is over: call reset() for a new one")
        try:
            decision = self.space.decode(g, int(action), self._encoded())
        except IllegalAction:
            if self.illegal == "raise":
                raise
            return self._obs(), -1.0, True, False, {**self._info(), "illegal": int(action)}
        before = len(g.cities_of(self.agent))
        g.apply(decision)
        self._legal = None
        reward = shaped_step(g, self.agent, before) if self.reward_kind == "shaped" else 0.0
        self._play_bots()
        if g.is_over:
            reward += REWARDS["win" if self.reward_kind == "win" else "rank"](g)[self.agent]
        return self._obs(), float(reward), g.is_over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        g = self.game
        return (f"round {g.round}, {g.phase_name}; you are {self.agent}\n"
                + "\n".join(f"  {p}: {g.money(p)} Elektro, plants {sorted(g.plants_of(p))}, "
                            f"{len(g.cities_of(p))} cities" for p in g.players))

    # --- masks -----------------------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """The legal indices now as booleans (sb3-contrib's ``MaskablePPO`` reads this method)."""
        return self._mask().astype(bool)

    def _encoded(self) -> dict[int, Any]:
        """The legal indices of the position now, by index (kept until the next decision)."""
        if self._legal is None:
            self._legal = self.space.encoded(self.game)
        return self._legal

    def _mask(self) -> np.ndarray:
        g = self.game
        if g.is_over or g.current_player != self.agent:
            return np.zeros(self.space.n, dtype=np.int8)
        return self.space.mask(g, self._encoded())

    def _obs(self) -> dict[str, np.ndarray]:
        g = self.game
        return {"observation": self.obs_spec.of(g, self.agent),
                "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "round": self.game.round, "phase": self.game.phase}

    def _play_bots(self) -> None:
        g = self.game
        while not g.is_over and g.current_player != self.agent:
            who = g.current_player
            g.apply(self._bots[who].act(g))  # type: ignore[index]
        self._legal = None
