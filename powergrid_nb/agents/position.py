"""What the environments share: a game seen through the action space and the observation, its legal
indices read once per position, and the rewards of a decision and of the end.

The legal indices and the observations come from the fast forms (:class:`~.fastmask.FastLegal`,
:class:`~.fastobs.FastObserver`), equal to the references :meth:`ActionSpace.encoded` and
:meth:`ObservationSpec.of`; ``reference = True`` plays with the references instead (the benchmark's
and the tests' yardstick)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from powergrid_nb.engine.actions import Action
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game

from .fastmask import FastLegal
from .fastobs import FastObserver
from .observation import OBS_HIGH, ObservationSpec
from .rewards import REWARDS, shaped_step
from .space import ActionSpace

__all__ = ["KINDS", "Position"]

KINDS = (*REWARDS, "shaped")


class Position:
    """Games of one set-up (``players``: names; map, edition, options) for an environment: ``game`` is
    the one being played, its decisions made through :meth:`decide` and :meth:`apply` (the legal
    indices and the observer count on it); ``reward`` one of :data:`KINDS`."""

    def __init__(self, setup: dict[str, Any], reward: str = "rank") -> None:
        if reward not in KINDS:
            raise ValueError(f"reward is one of {list(KINDS)}, not {reward!r}")
        self.setup, self.reward = setup, reward
        self.game: Game = new_game(seed=0, **setup)
        self.space = ActionSpace(self.game.map)
        self.obs_spec = ObservationSpec(len(self.game.participants), list(self.game.map.cities))
        self.fast_legal = FastLegal(self.space)
        self.observer = FastObserver(self.obs_spec)
        self._reference = False
        self._legal: dict[int, Any] | None = None
        self._mask: np.ndarray | None = None  # the legal indices' mask, with _legal
        self._acted: set[str] | None = None  # who decided since the observer's last look (None: unknown)

    @property
    def reference(self) -> bool:
        """Whether the references play: :meth:`ActionSpace.encoded` and :meth:`ObservationSpec.of`
        (slower; the same indices, actions and observations)."""
        return self._reference

    @reference.setter
    def reference(self, on: bool) -> None:
        self._reference, self._legal, self._mask, self._acted = bool(on), None, None, None

    def new_game(self, seed: int) -> None:
        self.game = new_game(seed=seed, **self.setup)
        self._legal = self._mask = self._acted = None

    def observation_space(self) -> spaces.Dict:
        return spaces.Dict({"observation": spaces.Box(0.0, OBS_HIGH, (self.obs_spec.size,), np.float32),
                            "action_mask": spaces.Box(0, 1, (self.space.n,), np.int8)})

    def legal(self) -> dict[int, Any]:
        """The legal indices of the position now, each with what it plays (read once, until the next
        decision): :meth:`FastLegal.legal`, or :meth:`ActionSpace.encoded` for the reference."""
        if self._legal is None:
            self._legal = (self.space.encoded if self.reference else self.fast_legal.legal)(self.game)
        return self._legal

    def mask(self, player: str) -> np.ndarray:
        """``player``'s mask: the legal indices when they are to act, else all 0."""
        g = self.game
        if g.is_over or g.current_player != player:
            return np.zeros(self.space.n, dtype=np.int8)
        if self._mask is None:
            self._mask = self.fast_legal.shared_mask(self.legal())
        return self._mask.copy()  # the caller's to keep

    def observe(self, player: str) -> dict[str, np.ndarray]:
        """``player``'s observation vector and mask (the observer is told who decided since its last
        look: every decision goes through :meth:`decide` or :meth:`apply`)."""
        if self.reference:
            obs = self.obs_spec.of(self.game, player)
        else:
            obs = self.observer.of(self.game, player, self._acted)
            self._acted = set()
        return {"observation": obs, "action_mask": self.mask(player)}

    def decide(self, index: int) -> float:
        """Make the decision ``index`` of the player to act (IllegalAction naming the legal indices if it
        is not legal); returns its shaped reward (0 unless ``reward="shaped"``)."""
        g = self.game
        legal = self.legal()
        if self.reference:
            action = self.space.decode(g, int(index), legal)
        else:
            action = self.fast_legal.action(g, legal, int(index))
        if self.reward != "shaped":
            self.apply(action)
            return 0.0
        player: str = g.current_player  # type: ignore[assignment]
        before = len(g.cities_of(player))
        self.apply(action)
        return shaped_step(g, player, before)

    def apply(self, action: Action) -> None:
        """Apply a decision made outside the space (a bot's)."""
        self.game.apply(action)
        self._legal = self._mask = None
        if self._acted is not None:
            self._acted.add(action.player)

    def final(self) -> dict[str, float]:
        """The rewards at the end: by the ranking, or the win for ``reward="win"``."""
        return REWARDS["win" if self.reward == "win" else "rank"](self.game)

    def render(self) -> str:
        g = self.game
        return "\n".join([f"round {g.round}, step {g.step}, {g.phase_name}; {g.current_player} to act"]
                         + [f"  {p}: {g.money(p)} Elektro, plants {sorted(g.plants_of(p))}, "
                            f"{len(g.cities_of(p))} cities" for p in g.players])
