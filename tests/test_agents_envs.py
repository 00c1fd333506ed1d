"""The agents' adapters pass their libraries' own checks: PettingZoo's ``api_test`` and
``seed_test`` (2-6 players, both editions), Gymnasium's ``check_env``, OpenSpiel's
``random_sim_test``; OpenSpiel's MCTS bot plays a whole game against our heuristic bot."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pytest.importorskip("pyspiel")

import pyspiel  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from powergrid_nb import agents  # noqa: E402
from powergrid_nb.agents.openspiel import GAME_NAME, SEEDS, facts  # noqa: E402
from powergrid_nb.bots import make_bot  # noqa: E402
from powergrid_nb.engine.errors import IllegalAction  # noqa: E402


def first_illegal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


# --- PettingZoo ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("edition", ["original", "recharged"])
def test_the_aec_environment_passes_pettingzoos_api_test(players, edition) -> None:
    api_test(agents.env(players=players, edition=edition, map="usa" if players % 2 else "germany"),
             num_cycles=150)


def test_the_aec_environment_passes_pettingzoos_seed_test() -> None:
    seed_test(lambda: agents.raw_env(players=4, edition="recharged"), num_cycles=80)


def test_a_whole_aec_game_ends_with_rank_rewards_that_sum_to_zero() -> None:
    e = agents.raw_env(players=3)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(totals.values()) == pytest.approx([-1, 0, 1])
    assert e.agents == []


def test_the_raw_aec_environment_raises_on_an_illegal_index_naming_the_legal_ones() -> None:
    e = agents.raw_env(players=3)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    with pytest.raises(IllegalAction, match="the legal indices are"):
        e.step(first_illegal(obs["action_mask"]))


def test_the_wrapped_aec_environment_ends_the_game_on_an_illegal_move_as_pettingzoo_does(caplog) -> None:
    e = agents.env(players=3)
    e.reset(seed=1)
    offender = e.agent_selection
    e.step(first_illegal(e.observe(offender)["action_mask"]))
    assert "Illegal move made" in caplog.text
    assert all(e.terminations.values())
    assert e._cumulative_rewards[offender] == -1


def test_an_agent_not_to_act_sees_an_empty_mask() -> None:
    e = agents.raw_env(players=4)
    e.reset(seed=2)
    for a in e.agents:
        assert e.observe(a)["action_mask"].any() == (a == e.agent_selection)


def aec_episode(reference: bool, players: int, edition: str, seed: int) -> list:
    """Everything the AEC environment shows over a whole game: each step's ``last()`` and, now and
    then, every agent's observation."""
    e = agents.raw_env(players=players, edition=edition)
    e.pos.reference = reference
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen: list = []
    for k, _agent in enumerate(e.agent_iter()):
        obs, reward, term, trunc, _ = e.last()
        seen.append((e.agent_selection, obs["observation"].tolist(), obs["action_mask"].tolist(), reward,
                     term, trunc, dict(e.rewards)))
        if k % 17 == 0:
            seen.append([e.observe(a)["observation"].tolist() for a in e.agents])
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.parametrize(("players", "edition"), [(2, "recharged"), (4, "original"), (6, "recharged")])
def test_the_aec_environment_plays_the_same_episode_with_the_fast_forms_as_with_the_references(
        players, edition) -> None:
    assert aec_episode(False, players, edition, seed=players) == aec_episode(True, players, edition,
                                                                            seed=players)


# --- Gymnasium ------------------------------------------------------------------------------------------

def test_the_gymnasium_environment_passes_check_env() -> None:
    check_env(agents.gym_env(players=3, opponents="random", illegal="terminate"), skip_render_check=True)


def test_the_gymnasium_environment_plays_a_whole_game_against_our_bots() -> None:
    e = agents.gym_env(players=4, seat=2, opponents=["random", "heuristic", "builder"])
    obs, info = e.reset(seed=3)
    rng = np.random.default_rng(3)
    while True:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert np.array_equal(e.action_masks(), obs["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated:
            break
        assert reward == 0.0 and not truncated
    assert reward == pytest.approx(agents.rank_returns(e.game)["player_2"])


def test_the_gymnasium_environment_raises_on_an_illegal_index_by_default() -> None:
    e = agents.gym_env(players=3, opponents="random")
    obs, _ = e.reset(seed=1)
    with pytest.raises(IllegalAction, match="the legal indices are"):
        e.step(first_illegal(obs["action_mask"]))


def test_the_same_seed_gives_the_same_episode() -> None:
    def episode() -> list[int]:
        e = agents.gym_env(players=3, opponents="heuristic")
        obs, _ = e.reset(seed=11)
        out = []
        while True:
            a = int(np.flatnonzero(obs["action_mask"])[0])
            out.append(a)
            obs, _r, term, _t, _i = e.step(a)
            if term:
                return out + [e.game.round]

    assert episode() == episode()


def test_the_gymnasium_environment_plays_the_same_episode_with_the_fast_forms_as_with_the_references(
        ) -> None:
    def episode(reference: bool) -> list:
        e = agents.gym_env(players=4, seat=1, opponents=["heuristic", "builder", "random"])
        e.pos.reference = reference
        obs, info = e.reset(seed=5)
        rng = np.random.default_rng(5)
        seen = []
        while True:
            seen.append((obs["observation"].tolist(), obs["action_mask"].tolist(),
                         info["action_mask"].tolist(), info["round"], info["phase"]))
            obs, reward, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if term:
                return seen + [reward, e.game.round]

    assert episode(False) == episode(True)


# --- OpenSpiel ------------------------------------------------------------------------------------------

def test_the_openspiel_game_passes_the_random_simulation_test() -> None:
    game = agents.openspiel_game(players=2, edition="recharged")
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_openspiel_game_opens_with_its_sampled_chance_node() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == SEEDS
    state.apply_action(42)
    assert state.current_player() in range(3)
    assert state.game.seed == 42


def test_openspiels_mcts_bot_plays_a_whole_game_against_our_heuristic_bot() -> None:
    game = agents.openspiel_game(players=2)
    space = facts(game.get_parameters()).space
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=2, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    heuristic = make_bot("heuristic", seed=1)
    state = game.new_initial_state()
    state.apply_action(7)
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(space.nearest(state.game, heuristic.act(state.game)))
    assert sorted(state.returns()) == [-1.0, 1.0]
