"""Power Grid as a Gymnasium environment: one seat learns, our bots play the others.

``PowerGridEnv(players=4, seat=0, opponents="heuristic")``: observations are dicts like the PettingZoo
environment's (``observation`` and ``action_mask``; ``info["action_mask"]`` and :meth:`action_masks`
give the mask too, for maskable learners). Each ``step`` makes the seat's decision, then the bots'
decisions until the seat is to act again or the game is over. The reward comes at the end (``"rank"``:
+1 first to -1 last; ``"win"``; ``"shaped"``: plus 0.01 per city built).

``illegal="raise"`` (the default) raises :class:`~powergrid_nb.engine.errors.IllegalAction` naming the legal
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

from powergrid_nb.bots import Bot, make_bot
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.game import Game

from .position import Position

__all__ = ["PowerGridEnv"]


class PowerGridEnv(gym.Env):
    """One seat of a Power Grid game against our bots (see the module's text)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, players: int = 4, seat: int = 0,
                 opponents: str | Sequence[str] | Mapping[str, str] = "heuristic", map: str = "germany",
                 edition: str = "original", reward: str = "rank", illegal: str = "raise",
                 render_mode: str | None = None, **options: Any) -> None:
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
        self.pos = Position({"players": self.names, "map": map, "edition": edition, **options}, reward)
        self.illegal, self.render_mode = illegal, render_mode
        self.observation_space = self.pos.observation_space()
        self.action_space = spaces.Discrete(self.pos.space.n)
        self._bots: dict[str, Bot] = {}

    @property
    def game(self) -> Game:
        return self.pos.game

    # --- Gymnasium's contract -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31))
        self.pos.new_game(game_seed)
        self._bots = {p: make_bot(b, seed=game_seed + i) for i, (p, b) in enumerate(self.opponents.items())}
        self._play_bots()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        g = self.game
        if g.is_over:
            raise RuntimeError("the game is over: call reset() for a new one")
        try:
            reward = self.pos.decide(int(action))
        except IllegalAction:
            if self.illegal == "raise":
                raise
            return self._obs(), -1.0, True, False, {**self._info(), "illegal": int(action)}
        self._play_bots()
        if g.is_over:
            reward += self.pos.final()[self.agent]
        return self._obs(), float(reward), g.is_over, False, self._info()

    def render(self) -> str | None:
        return f"you are {self.agent}; {self.pos.render()}" if self.render_mode == "ansi" else None

    # --- masks -----------------------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """The legal indices now as booleans (sb3-contrib's ``MaskablePPO`` reads this method)."""
        return self._mask().astype(bool)

    def _mask(self) -> np.ndarray:
        return self.pos.mask(self.agent)

    def _obs(self) -> dict[str, np.ndarray]:
        return self.pos.observe(self.agent)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "round": self.game.round, "phase": self.game.phase}

    def _play_bots(self) -> None:
        g = self.game
        while not g.is_over and g.current_player != self.agent:
            self.pos.apply(self._bots[g.current_player].act(g))  # type: ignore[index]
