"""What stays fixed for a whole game (shared by copies): players, map, edition, options, tables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Build, BuyResources, Done, MarkCity, Pass
from .trust import TRUST_NAME

if TYPE_CHECKING:
    from .board.maprules import MapRule
    from .board.maps import GameMap
    from .editions import Edition
    from .trust import TrustPolicy


class Context:
    """Players (indices into ``names``; the Trust last), map, edition, options and the shared
    action objects that ``legal_actions`` hands out (actions are immutable)."""

    def __init__(self, names: list[str], trust: bool, edition: Edition, game_map: GameMap,
                 regions: tuple[str, ...], options: dict[str, Any], seed: int,
                 map_rules: list[MapRule], trust_policy: TrustPolicy | None) -> None:
        self.names = names + ([TRUST_NAME] if trust else [])
        self.humans = list(range(len(names)))
        self.trust = len(names) if trust else None
        self.index = {n: i for i, n in enumerate(self.names)}
        self.edition, self.map, self.regions = edition, game_map, regions
        self.options, self.seed, self.map_rules = options, seed, map_rules
        self.trust_policy = trust_policy
        self.cities, self.dist = game_map.distance_matrix(regions)
        self.cidx = {c: i for i, c in enumerate(self.cities)}
        n = len(names)
        self.refill_players = n  # R109: the Trust game uses the 2-player row
        self.plant_limit = edition.plant_limit(n)
        self.step2_cities, self.end_cities = edition.step2_cities(n), edition.end_cities(n)
        self.max_cities = edition.tables["max_cities"]
        self.build_prices: tuple[int, ...] = tuple(edition.tables["build_prices"])
        self.reverse_phases = frozenset(edition.tables["reverse_order"])  # R45, R54
        rows = _action_rows(tuple(self.names), self.cities)
        self.pass_action, self.done_action, self.buy_one, self.build_one, self.mark_one = rows


_ROWS: dict[tuple, tuple] = {}


def _action_rows(names: tuple[str, ...], cities: tuple[str, ...]) -> tuple:
    """The atomic actions of every participant (shared by games with the same names and play area)."""
    key = (names, cities)
    rows = _ROWS.get(key)
    if rows is None:
        rows = ([Pass(x) for x in names], [Done(x) for x in names],
                [[BuyResources(x, *(int(k == i) for k in range(4))) for i in range(4)] for x in names],
                [[Build(x, c) for c in cities] for x in names],
                [[MarkCity(x, c) for c in cities] for x in names])
        if len(_ROWS) > 256:
            _ROWS.clear()
        _ROWS[key] = rows
    return rows
