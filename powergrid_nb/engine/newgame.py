"""Where a game begins: set up new (R1-R12: players, map and regions, edition, options) or read back from
a save. The functions that return a :class:`Game` live here, above ``game.py``; the checks of the set-up
are ``options.py`` and the save format is ``io/saves.py``, both below the game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from .board.maps import GameMap, load_map
from .editions import get_edition
from .events import PhaseBegins
from .game import Game
from .io import saves
from .limits import MAX_SEED, check_int
from .options import check_options, make_context, player_names
from .phases import rounds
from .rules.phases import Phase
from .state import State


def new_game(players: int | list[str] = 4, map: str | dict | GameMap = "germany",
             edition: str = "original", regions: list[str] | tuple[str, ...] | None = None,
             seed: int | None = None, **options: Any) -> Game:
    """Start a game: ``players`` is a count (2-6) or a list of names.

    ``regions`` defaults to a seeded random connected set of the size R105/R106 asks (R3, O24).
    The same seed and the same actions always give the same game. Options: see ``OPTIONS``.
    """
    names = player_names(players)
    opts = check_options(options)
    edition = edition.lower() if isinstance(edition, str) else edition
    ed = get_edition(edition, opts["rules"])  # before the map: an unknown edition is its own error
    game_map = map if isinstance(map, GameMap) else load_map(map, edition)
    if seed is None:
        seed = random.SystemRandom().getrandbits(32)  # the OS's entropy, as secrets: not OpenSSL's 3 MB
    seed = check_int(seed, "seed", 0, MAX_SEED)
    rng = random.Random(seed)
    k = ed.regions(len(names))
    chosen = game_map.choose_regions(k, rng) if regions is None else \
        game_map.validate_regions(regions, k)
    ctx = make_context(names, game_map, ed, tuple(chosen), seed, opts)
    s = State()
    n = len(names)
    s.seats = list(range(n))
    rng.shuffle(s.seats)  # R7: order by lot; seats clockwise in the same order (O3)
    s.order = s.seats[:]
    if ctx.trust_policy is not None:
        s.order = ctx.trust_policy.seat(s.order, ctx.trust)  # R129
    s.money = [ed.tables["starting_money"]] * n + ([0] if ctx.trust is not None else [])
    total = len(ctx.names)
    s.plants = [[] for _ in range(total)]
    s.tokens = [[0, 0, 0, 0] for _ in range(total)]
    s.mine = [[] for _ in range(total)]
    s.market, s.deck, s.removed, s.top_known = ed.setup_plants(rng, n, opts["removed"])
    s.res = ed.initial_resources()
    g = Game(ctx, s)
    if opts["starting_cities"]:
        s.phase = Phase.START_CITIES
        s.to_act = rounds.turns(ctx, s.order, Phase.START_CITIES)
        g._event(PhaseBegins, Phase.START_CITIES)
    else:
        rounds.enter(g, Phase.PLAYER_ORDER)
    rounds.advance(g)
    g._set_root()
    return g


def load(path: str | Path) -> Game:
    """Read a game saved with ``g.save(path)``; a malformed file raises :class:`SaveFileError`."""
    return saves.load(path, Game)
