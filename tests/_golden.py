"""The golden corpus: seeded games recorded from the engine at commit bab14b2 (the uniform-random
games); the bot games with a HeuristicBot or SearchBot seat were re-recorded at 241fe51, whose new
heuristic plays differently (issue 27), and those with a SearchBot again for its new search, the
engine unchanged.

Each game stores its set-up, the text of every action and a digest of the position after each action
(money, plants, tokens and cities of every participant, both plant markets, the resource market, step,
round, phase, player order and who acts). Replaying a game must give the same actions and digests:
no refactoring may change a single game. ``scripts/record_golden.py`` records the corpus.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from pathlib import Path
from typing import Any

from powergrid_nb import new_game
from powergrid_nb.bots import BOTS, Bot
from powergrid_nb.engine.game import Game

CORPUS = Path(__file__).parent / "golden" / "corpus.json.gz"
BOT_KWARGS: dict[str, dict[str, Any]] = {"search": {"rollouts": 1, "horizon": 1}}


def resource_market(g: Game) -> list[int]:
    """Tokens of coal, oil, garbage and uranium on the market."""
    return list(g.resource_market().values())


def position(g: Game) -> list[Any]:
    """The facts a digest covers, in a fixed order."""
    people = g.player_order
    return [g.round, g.phase, g.step, g.is_over, people, g.current_player,
            [[g.money(p), g.plants_of(p), list(g.tokens_of(p).values()), g.cities_of(p)] for p in people],
            g.current_market(), g.future_market(), resource_market(g)]


def digest(g: Game) -> str:
    text = json.dumps(position(g), separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def start(spec: dict[str, Any]) -> Game:
    return new_game(spec["players"], map=spec["map"], edition=spec["edition"], seed=spec["seed"],
                    **spec.get("options", {}))


def make_bots(spec: dict[str, Any]) -> list[Bot]:
    return [BOTS[name](seed=spec["seed"] * 10 + i, **BOT_KWARGS.get(name, {}))
            for i, name in enumerate(spec["bots"])]


def play(spec: dict[str, Any], limit: int = 20_000) -> tuple[list[str], list[str]]:
    """Play a spec from scratch: (action texts, digests after each action)."""
    g = start(spec)
    actions: list[str] = []
    digests: list[str] = []
    if spec["kind"] == "random":
        rng = random.Random(spec["seed"])

        def choose() -> Any:
            return rng.choice(g.legal_actions())
    else:
        seats = dict(zip(g.players, make_bots(spec), strict=True))

        def choose() -> Any:
            return seats[g.current_player].act(g)
    while not g.is_over and len(actions) < limit:
        a = choose()
        g.apply(a)
        actions.append(str(a))
        digests.append(digest(g))
    return actions, digests


def specs() -> list[dict[str, Any]]:
    """The games of the corpus: uniform-random games over every configuration, then bot games."""
    out: list[dict[str, Any]] = []
    seed = 1000
    for edition in ("original", "recharged"):
        for map_name in ("germany", "usa"):
            for players in range(2, 7):
                for _ in range(10):
                    seed += 1
                    out.append({"kind": "random", "players": players, "map": map_name,
                                "edition": edition, "seed": seed})
    variants = [{"starting_cities": True}, {"bidding": "order"}, {"discount_test": "every"},
                {"map_rules": False}, {"map_rules": True}]
    for i in range(20):
        seed += 1
        edition = ("original", "recharged")[i % 2]
        opts = dict(variants[i % len(variants)])
        out.append({"kind": "random", "players": 2 + i % 5, "map": ("germany", "usa")[i // 2 % 2],
                    "edition": edition, "seed": seed, "options": opts})
    kinds = ["heuristic", "search", "builder", "random"]
    for focus in kinds:
        others = [k for k in kinds if k != focus and k != "search"]
        for i in range(20):
            seed += 1
            players = 2 + i % 5
            rivals = [others[(i + j) % len(others)] for j in range(players - 1)]
            if focus != "search" and i % 5 == 0 and players > 2:
                rivals[0] = "search"
            out.append({"kind": "bots", "players": players, "map": ("germany", "usa")[i % 2],
                        "edition": ("original", "recharged")[i // 2 % 2], "seed": seed,
                        "bots": [focus, *rivals]})
    return out


def read() -> list[dict[str, Any]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        return json.load(f)


def write(games: list[dict[str, Any]]) -> None:
    CORPUS.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(games, separators=(",", ":")).encode()
    with open(CORPUS, "wb") as f:
        f.write(gzip.compress(data, compresslevel=9, mtime=0))
