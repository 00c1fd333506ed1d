"""The set-up's checks, shared by a new game and a loaded one: the options (``OPTIONS``), the players'
names, and the context a game is played in (the edition's tables, the Trust, the map rules).

Saves (``io/saves.py``) check a loaded game's settings with these same functions, so they live below
both :mod:`~powergrid_nb.engine.newgame` and the game itself.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .board.maprules import default_map_rules
from .context import Context
from .editions import MAX_PLAYERS, MIN_PLAYERS
from .limits import MAX_NAME, name_problem, shown
from .trust import TRUST_NAME, TRUST_POLICIES, TrustPolicy

if TYPE_CHECKING:
    from .board.maps import GameMap
    from .editions import Edition

DEFAULT_NAMES = ("Ada", "Bo", "Cy", "Dee", "Eli", "Fay")

OPTIONS: dict[str, tuple[Any, str]] = {
    "bidding": ("seat", "O3: bids go round by 'seat' (clockwise, default) or by player 'order'"),
    "discount_test": ("first", "O7a: R42 tests the 'first' replacement of a phase 2, or 'every'"),
    "removed": (None, "O4/R10: plants removed at set-up (ORIG: a number; RECH: [plug, socket])"),
    "map_rules": (None, "O21: map rules on/off; default on in Recharged, off in the original"),
    "trust": (None, "O22: 2-player Recharged against the Trust; default on for 2p Recharged"),
    "trust_policy": ("default", "O22: the Trust's behaviour, a name or a TrustPolicy object"),
    "starting_cities": (False, "R134-R136 / O23: the default-starting-cities variant"),
    "start_markers": ("abstract", "O23: what marks a start city: an 'abstract' marker, or a 'uranium' "
                                  "token taken from the supply for the rest of the game"),
    "rules": (None, "what-if: overrides of the edition's tables, see editions.RULE_PARAMETERS"),
}


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """Fill defaults and reject unknown or malformed options with a helpful message."""
    unknown = set(options) - set(OPTIONS)
    if unknown:
        known = "; ".join(f"{k} ({v[1]})" for k, v in OPTIONS.items())
        raise ValueError(f"unknown option(s) {sorted(unknown)}; known options: {known}")
    out = {k: options.get(k, v[0]) for k, v in OPTIONS.items()}
    if out["bidding"] not in ("seat", "order"):
        raise ValueError("option bidding must be 'seat' or 'order' (O3)")
    if out["discount_test"] not in ("first", "every"):
        raise ValueError("option discount_test must be 'first' or 'every' (O7)")
    if out["start_markers"] not in ("abstract", "uranium"):
        raise ValueError("option start_markers must be 'abstract' or 'uranium' (O23)")
    if out["start_markers"] == "uranium" and not out["starting_cities"]:
        raise ValueError("option start_markers='uranium' marks start cities: it needs "
                         "starting_cities=True (R134)")
    if out["rules"] is not None:  # as JSON would store it (string keys), so saves compare equal
        out["rules"] = json.loads(json.dumps(out["rules"]))
    return out


def player_names(players: int | list[str] | tuple[str, ...]) -> list[str]:
    """The players' names: ``players`` is a count (the default names) or the names, checked (R105)."""
    if isinstance(players, int) and not isinstance(players, bool):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Power Grid is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players} "
                             "(R105)")
        return list(DEFAULT_NAMES[:players])
    if isinstance(players, str | bytes) or not isinstance(players, list | tuple):
        raise ValueError(f"players is a count ({MIN_PLAYERS}-{MAX_PLAYERS}) or a list of names, "
                         f"not {shown(players)}")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"Power Grid is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)} "
                         "(R105)")
    names = [n if isinstance(n, str) else str(n) for n in players]
    for n in names:
        problem = name_problem(n, MAX_NAME, ":,")
        if problem:
            raise ValueError(f"bad player name {shown(n)}: {problem} (a name is 1 to {MAX_NAME} printable "
                             "characters, without ':' or ',' and without spaces around it)")
    if len(set(names)) != len(names):
        raise ValueError(f"player names must be distinct: {names}")
    return names


def make_context(names: list[str], game_map: GameMap, edition: Edition,
                 regions: tuple[str, ...], seed: int, options: dict[str, Any]) -> Context:
    """The context of a game with these settings: whether the Trust plays and its policy (R128, O22),
    the map rules (O21); ``options`` as :func:`check_options` returns them."""
    trust = options["trust"]
    if trust is None:
        trust = edition.trust_plays(len(names))
    if trust and not (edition.capabilities["trust"] and len(names) == 2):
        raise ValueError("the Trust plays only in 2-player Recharged games (R128)")
    if trust and TRUST_NAME in names:
        raise ValueError(f"the name {TRUST_NAME!r} is the Trust's in a 2-player Recharged game")
    options = {**options, "trust": bool(trust)}
    policy = options["trust_policy"]
    if isinstance(policy, str):
        if policy not in TRUST_POLICIES:
            raise ValueError(f"unknown trust_policy {policy!r}; known: {sorted(TRUST_POLICIES)}")
        policy = TRUST_POLICIES[policy]()
    elif not isinstance(policy, TrustPolicy):
        raise ValueError("trust_policy must be a name or a TrustPolicy instance")
    options["trust_policy"] = policy.name
    rules = default_map_rules(game_map.name, edition, options["map_rules"])
    return Context(names, bool(trust), edition, game_map, regions, options, seed, rules,
                   policy if trust else None)
