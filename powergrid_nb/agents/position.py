"""What the environments share: a game seen through the action space and the observation, its legal
indices read once per position, and the rewards of a decision and of the end."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..actions import Action
from ..game import Game
from ..newgame import new_game
from .observation import OBS_HIGH, ObservationSpec
from .rewards import REWARDS, shaped_step
from .space import ActionSpace

__all__ = ["KINDS", "Position"]

KINDS = (*REWARDS, "shaped")


class Position:
    """Games of one set-up (``players``: names; map, edition, options) for an environment: ``game`` is
    the one being played; ``reward`` one of :data:`KINDS`."""

    def __init__(self, setup: dict[str, Any], reward: str = "rank") -> None:
        if reward not in KINDS:
            raise ValueError(f"reward is one of {list(KINDS)}, not {reward!r}")
        self.setup, self.reward = setup, reward
        self.game: Game = new_game(seed=0, **setup)
        self.space = ActionSpace(self.game.map)
        self.obs_spec = ObservationSpec(len(self.game.participants), list(self.game.map.cities))
        self._legal: dict[int, Action] | None = None

    def new_game(self, seed: int) -> None:
        self.game = new_game(seed=seed, **self.setup)
        self._legal = None

    def observation_space(self) -> spaces.Dict:
        return spaces.Dict({"observation": spaces.Box(0.0, OBS_HIGH, (self.obs_spec.size,), np.float32),
                            "action_mask": spaces.Box(0, 1, (self.space.n,), np.int8)})

    def legal(self) -> dict[int, Action]:
        """The legal indices of the position now, by index (read once, until the next decision)."""
        if self._legal is None:
            self._legal = self.space.encoded(self.game)
        return self._legal

    def mask(self, player: str) -> np.ndarray:
        """``player``'s mask: the legal indices when they are to act, else all 0."""
        g = self.game
        if g.is_over or g.current_player != player:
            return np.zeros(self.space.n, dtype=np.int8)
        return self.space.mask(g, self.legal())

    def observe(self, player: str) -> dict[str, np.ndarray]:
        return {"observation": self.obs_spec.of(self.game, player), "action_mask": self.mask(player)}

    def decide(self, index: int) -> float:
        """Make the decision ``index`` of the player to act (IllegalAction naming the legal indices if it
        is not legal); returns its shaped reward (0 unless ``reward="shaped"``)."""
        g = self.game
        player = g.current_player
        before = len(g.cities_of(player))  # type: ignore[arg-type]
        self.apply(self.space.decode(g, int(index), self.legal()))
        return shaped_step(g, player, before) if self.reward == "shaped" else 0.0  # type: ignore[arg-type]

    def apply(self, action: Action) -> None:
        """Apply a decision made outside the space (a bot's)."""
        self.game.apply(action)
        self._legal = None

    def final(self) -> dict[str, float]:
        """The rewards at the end: by the ranking, or the win for ``reward="win"``."""
        return REWARDS["win" if self.reward == "win" else "rank"](self.game)

    def render(self) -> str:
        g = self.game
        return "\n".join([f"round {g.round}, step {g.step}, {g.phase_name}; {g.current_player} to act"]
                         + [f"  {p}: {g.money(p)} Elektro, plants {sorted(g.plants_of(p))}, "
                            f"{len(g.cities_of(p))} cities" for p in g.players])
