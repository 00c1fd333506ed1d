"""Power Grid as a PettingZoo AEC environment: ``env(players=4, map="germany", edition="original")``.

Agents are the game's players, named ``player_0``, ``player_1``, ... (PettingZoo's convention), acting in
the rules' order (the auction's bidders,
then the reverse order in phases 3 and 4, ...). Observations are dicts: ``observation`` (the vector of
:class:`~powergrid_nb.agents.observation.ObservationSpec`) and ``action_mask`` (1 at each index of
:class:`~powergrid_nb.agents.space.ActionSpace` legal now; all 0 for an agent not to act). Rewards come
at the end (``reward="rank"``: +1 first to -1 last, the default; ``"win"``: 1 for the winner; ``"shaped"``:
the rank returns plus 0.01 per city built, a learning aid).

Illegal moves: ``raw_env`` raises :class:`~powergrid_nb.engine.errors.IllegalAction` naming the legal indices;
``env`` follows PettingZoo's convention for its classic games (``TerminateIllegalWrapper``): an
illegal move ends the game, the offender gets -1 and the others 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from powergrid_nb.engine.game import Game

from .position import Position

__all__ = ["env", "raw_env"]


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming)
    """The AEC environment without wrappers (see the module's text)."""

    metadata = {"name": "powergrid_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 4, map: str = "germany", edition: str = "original",
                 reward: str = "rank", render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        names = [f"player_{i}" for i in range(players)]  # PettingZoo's naming; also the game's players
        self.pos = Position({"players": names, "map": map, "edition": edition, **options}, reward)
        self.render_mode = render_mode
        self.possible_agents = names
        obs = self.pos.observation_space()
        self.observation_spaces = {a: obs for a in names}
        self.action_spaces = {a: spaces.Discrete(self.pos.space.n) for a in names}

    @property
    def game(self) -> Game:
        return self.pos.game

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``seed`` fixes its deck, regions and everything random (None: a random seed)."""
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        self.pos.new_game(seed)
        for i, a in enumerate(self.possible_agents):
            self.action_spaces[a].seed(seed + i)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False  # whether some reward in self.rewards is not 0
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.game.current_player or self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.pos.observe(agent)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        reward = self.pos.decide(int(action))  # IllegalAction naming the legal indices
        g = self.pos.game
        over = g.is_over
        if reward or over or self._rewarded:  # else clearing and adding the rewards would change nothing
            self._clear_rewards()
            self.rewards[agent] += reward
            if over:
                final = self.pos.final()
                for a in self.agents:
                    self.rewards[a] += final[a]
                self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self._rewarded = any(self.rewards.values())
        # once the game is over, the last to act stays selected: each agent then steps None to leave
        self.agent_selection = agent if over else g.current_player

    def render(self) -> str | None:
        return self.pos.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's usual wrappers: an illegal move ends the game with -1 for
    its maker (``TerminateIllegalWrapper``), out-of-range indices are refused, and the AEC order is
    enforced (``raw_env`` raises on an illegal move instead)."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
