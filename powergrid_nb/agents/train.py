"""A small learner for the agents' notebook: a linear softmax policy over the masked action space,
trained with REINFORCE on the Gymnasium environment (numpy only, CPU, minutes).

It is a demonstration of the interfaces, not a strong player: the learning curve (win share against
the opponents, with 95% Wilson intervals, over evaluation games on fixed seeds) shows it learning.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from powergrid_nb.play.results import wilson

__all__ = ["LinearPolicy", "learning_curve", "train_reinforce"]


def _features(obs: np.ndarray) -> np.ndarray:
    """The observation squashed to a learnable scale (counts and money span 0..hundreds)."""
    return np.log1p(obs)


@dataclass
class LinearPolicy:
    """Logits = W x + b over the action space; illegal indices are masked out of the softmax."""

    n_obs: int
    n_actions: int
    seed: int = 0
    w: np.ndarray = field(init=False)
    b: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        rng = np.random.default_rng(self.seed)
        self.w = rng.normal(0, 0.01, (self.n_actions, self.n_obs))
        self.b = np.zeros(self.n_actions)
        self.rng = rng

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ x + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, obs: dict[str, np.ndarray], greedy: bool = False) -> int:
        p = self.probs(_features(obs["observation"]), obs["action_mask"])
        return int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))


def _episode(env: object, policy: LinearPolicy, seed: int, learn: bool, lr: float, baseline: float = 0.0
             ) -> float:
    obs, _ = env.reset(seed=seed)  # type: ignore[attr-defined]
    steps = []
    reward = 0.0
    while True:
        x = _features(obs["observation"])
        p = policy.probs(x, obs["action_mask"])
        a = int(policy.rng.choice(len(p), p=p))
        steps.append((x, p, a))
        obs, r, terminated, truncated, _ = env.step(a)  # type: ignore[attr-defined]
        reward += r
        if terminated or truncated:
            break
    if learn:  # REINFORCE: every step gets the final return less the baseline, averaged over the game
        scale = lr * (reward - baseline) / len(steps)
        for x, p, a in steps:
            grad = -p
            grad[a] += 1.0
            policy.w += scale * np.outer(grad, x)
            policy.b += scale * grad
    return reward


def learning_curve(env: object, policy: LinearPolicy, games: int, seed: int = 10_000) -> dict[str, float]:
    """Win share of the policy over ``games`` evaluation games (fixed seeds), with its Wilson interval."""
    wins = sum(_episode(env, policy, seed + k, learn=False, lr=0.0) >= 1.0 - 1e-9 for k in range(games))
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": wins, "win_share": wins / games, "low": lo, "high": hi}


def train_reinforce(env: object, episodes: int, eval_every: int = 50, eval_games: int = 40, lr: float = 0.5,
                    seed: int = 0, progress: Callable[[int, dict[str, float]], None] | None = None,
                    stop: Callable[[], bool] | None = None) -> tuple[LinearPolicy, pd.DataFrame]:
    """Train a :class:`LinearPolicy` for ``episodes`` games of ``env`` (a Gymnasium environment of this
    package); evaluate before training and every ``eval_every`` episodes. Returns the policy and the
    learning curve (one row per evaluation: ``episodes`` trained, ``win_share``, ``low``, ``high``,
    ``games``). ``progress(episode, row)`` is called after each evaluation; ``stop()`` ends early."""
    space = env.observation_space["observation"].shape[0]  # type: ignore[attr-defined]
    policy = LinearPolicy(space, env.action_space.n, seed=seed)  # type: ignore[attr-defined]
    rows = [{"episodes": 0, **learning_curve(env, policy, eval_games)}]
    baseline = 0.0
    for k in range(1, episodes + 1):
        r = _episode(env, policy, seed * 1_000_000 + k, learn=True, lr=lr, baseline=baseline)
        baseline += 0.05 * (r - baseline)  # the running mean return
        if k % eval_every == 0 or k == episodes:
            rows.append({"episodes": k, **learning_curve(env, policy, eval_games)})
            if progress is not None:
                progress(k, rows[-1])
        if stop is not None and stop():
            break
    return policy, pd.DataFrame(rows)
