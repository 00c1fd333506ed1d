"""Same games, before and after: the golden corpus recorded at bab14b2 replays move for move."""

from __future__ import annotations

import _golden
import pytest

GAMES = _golden.read()


def _id(spec: dict) -> str:
    opts = "-".join(f"{k}={v}" for k, v in spec.get("options", {}).items())
    who = "+".join(spec.get("bots", ())) or "random"
    return f"{spec['kind']}-{spec['players']}p-{spec['map']}-{spec['edition']}-{spec['seed']}-{who}{opts}"


def test_the_corpus_covers_every_configuration_and_bot() -> None:
    random_games = [s for s in GAMES if s["kind"] == "random"]
    assert len(random_games) >= 200
    configs = {(s["players"], s["map"], s["edition"]) for s in random_games}
    assert len(configs) == 5 * 2 * 2
    for bot in ("random", "builder", "heuristic", "search"):
        assert sum(s["kind"] == "bots" and s["bots"][0] == bot for s in GAMES) >= 20
    assert all(len(s["actions"]) == len(s["digests"]) > 0 for s in GAMES)


@pytest.mark.parametrize("spec", GAMES, ids=_id)
def test_a_recorded_game_replays_with_the_same_actions_and_positions(spec: dict) -> None:
    actions, digests = _golden.play(spec, limit=len(spec["actions"]) + 1)
    for i, (a, want_a, d, want_d) in enumerate(zip(actions, spec["actions"], digests, spec["digests"],
                                                   strict=False)):
        assert (a, d) == (want_a, want_d), f"game diverges at action {i}: {a!r} vs recorded {want_a!r}"
    assert len(actions) == len(spec["actions"])


@pytest.mark.parametrize("spec", GAMES[::15], ids=_id)
def test_a_recorded_game_replays_from_its_action_texts(spec: dict) -> None:
    g = _golden.start(spec)
    for i, (text, want) in enumerate(zip(spec["actions"], spec["digests"], strict=True)):
        g.apply(text)
        assert _golden.digest(g) == want, f"position differs after action {i}: {text!r}"
    assert g.is_over
