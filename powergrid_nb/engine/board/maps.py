"""Map graphs: loading, play-area selection (R3, R105) and path costs (R4, R61).

Maps are JSON files in the ``powergrid_nb.map/1`` schema (see ``maps/README.md``), read and
validated by ``powergrid_nb.engine.board.mapfile``. Each ``GameMap`` is a networkx graph (``GameMap.graph``):
cities are nodes, connections are edges with a ``cost``. networkx is imported on the first use of a
graph: the engine's own tables (region connectivity, play-area distances) are plain dicts and tuples,
checked against networkx by the tests, because importing networkx alone costs more memory than a
whole simulation of 200 games.
"""

from __future__ import annotations

import functools
import itertools
import os
import random
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from powergrid_nb.engine.datafiles import package_dir

from .mapfile import (
    SCHEMA,
    City,
    MapError,
    MapParts,
    adjacency,
    city_graph,
    components,
    did_you_mean,
    parse_map,
    read_json,
    shortest_costs,
)

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["DEFAULT_MAP", "SCHEMA", "UNREACHABLE", "City", "GameMap", "MapError", "builtin_maps", "load_map"]

DEFAULT_MAP = "germany"  # what new_game and every form start with: one of builtin_maps()
UNREACHABLE = 10**9  # distance sentinel for pairs with no path inside the play area

Table = tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]


class GameMap:
    """A validated map: cities, regions, weighted undirected connections.

    The graphs (``graph``, ``region_graph``, ``play_graph``) are built on first use and frozen:
    they are shared by every game on this map, so never change their attributes either.
    """

    def __init__(self, name: str, title: str, cities: dict[str, City], regions: dict[str, str],
                 connections: Iterable[tuple[str, str, int]],
                 twins: Iterable[tuple[str, str]] = (), path: str | None = None,
                 edition: str = "original") -> None:
        self.name = name
        self.title = title
        self.cities = cities
        self.regions = regions
        self.connections = tuple((a, b, c) for a, b, c in connections)
        self.twins = tuple((a, b) for a, b in twins)
        self.edition = edition
        self._path = path
        self._graph: nx.Graph | None = None
        self._region_graph: nx.Graph | None = None
        self._adj: dict[str, frozenset[str]] | None = None  # region -> bordering regions
        self._sets: dict[int, tuple[tuple[str, ...], ...]] = {}
        self._play: dict[frozenset[str], nx.Graph] = {}
        self._dist: dict[frozenset[str], Table] = {}

    @property
    def path(self) -> str | None:
        """The JSON file this map was read from (None for a dict)."""
        return self._path

    def __repr__(self) -> str:
        return (f"GameMap({self.name!r}, edition={self.edition!r}, cities={len(self.cities)}, "
                f"connections={len(self.connections)})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameMap) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash((self.name, self.title, self.connections))

    def to_dict(self) -> dict[str, Any]:
        """The map in schema form (edition already applied, no ``editions`` block)."""
        return {
            "schema": SCHEMA, "name": self.name, "title": self.title,
            "regions": {r: {"color": c} for r, c in self.regions.items()},
            "cities": [{"name": c.name, "region": c.region, "lat": c.lat, "lon": c.lon}
                       for c in self.cities.values()],
            "connections": [[a, b, c] for a, b, c in self.connections],
            "twins": [[a, b] for a, b in self.twins],
        }

    @property
    def graph(self) -> nx.Graph:
        """The frozen city graph: nodes are city names in file order (``region``, ``lat``,
        ``lon``), edges the connections (``cost``); graph attributes ``name``, ``title``,
        ``edition``. Shared and cached: copy it (``nx.Graph(game_map.graph)``) to change it."""
        if self._graph is None:
            import networkx as nx

            g = city_graph(self.cities, self.connections)
            g.graph.update(name=self.name, title=self.title, edition=self.edition)
            self._graph = nx.freeze(g)
        return self._graph

    @property
    def region_graph(self) -> nx.Graph:
        """The frozen region graph (R3): nodes are regions (``color``), joined when at least one
        connection joins their cities."""
        if self._region_graph is None:
            import networkx as nx

            g = nx.Graph()
            g.add_nodes_from((r, {"color": c}) for r, c in self.regions.items())
            region = nx.get_node_attributes(self.graph, "region")
            g.add_edges_from((region[a], region[b]) for a, b in self.graph.edges
                             if region[a] != region[b])
            self._region_graph = nx.freeze(g)
        return self._region_graph

    def play_graph(self, regions: Iterable[str]) -> nx.Graph:
        """The frozen subgraph of the cities in ``regions`` and the connections with both ends
        there (R4, R61); cached per region set, graph attribute ``regions`` (sorted)."""
        key = frozenset(self._regions_arg(regions))
        if key not in self._play:  # a plain graph in file order (a subgraph view is neither)
            import networkx as nx

            names, full = self.cities_in(key), self.graph
            g = nx.Graph(**full.graph, regions=tuple(sorted(key)))
            g.add_nodes_from((n, full.nodes[n]) for n in names)
            g.add_edges_from((a, b, d) for a, b, d in full.edges(data=True) if a in g and b in g)
            self._play[key] = nx.freeze(g)
        return self._play[key]

    def _regions_arg(self, regions: Iterable[str]) -> list[str]:
        if isinstance(regions, str):
            raise MapError(f"{self.name}: regions must be a collection of names, not {regions!r}")
        out = list(regions)
        for r in out:
            if not isinstance(r, str) or r not in self.regions:
                raise MapError(f"{self.name}: unknown region {r!r}{did_you_mean(r, self.regions)}; "
                               f"regions are {', '.join(self.regions)}")
        return out

    def _connected(self, regions: Iterable[str]) -> bool:
        chosen = set(regions)
        adj = self._region_adj()
        return bool(chosen) and len(components({r: adj[r] & chosen for r in chosen})) == 1

    def _region_adj(self) -> dict[str, frozenset[str]]:
        if self._adj is None:
            region = {n: c.region for n, c in self.cities.items()}
            near: dict[str, set[str]] = {r: set() for r in self.regions}
            for a, b, _ in self.connections:
                if region[a] != region[b]:
                    near[region[a]].add(region[b])
                    near[region[b]].add(region[a])
            self._adj = {r: frozenset(n) for r, n in near.items()}
        return self._adj

    def region_adjacency(self) -> dict[str, frozenset[str]]:
        """Region -> bordering regions (joined by at least one connection)."""
        return dict(self._region_adj())

    def cities_in(self, regions: Iterable[str]) -> tuple[str, ...]:
        """Names of the cities in ``regions``, in file order."""
        chosen = set(self._regions_arg(regions))
        return tuple(n for n, c in self.cities.items() if c.region in chosen)

    def is_connected_regions(self, regions: Iterable[str]) -> bool:
        """True if ``regions`` form one connected group of bordering regions (R3)."""
        return self._connected(self._regions_arg(regions))

    def connected_region_sets(self, k: int) -> list[tuple[str, ...]]:
        """All connected sets of ``k`` regions, each sorted; the list sorted."""
        if k not in self._sets:
            self._sets[k] = tuple(s for s in itertools.combinations(sorted(self.regions), k)
                                  if self._connected(s)) if k >= 1 else ()
        return list(self._sets[k])

    def choose_regions(self, k: int, rng: random.Random) -> tuple[str, ...]:
        """A uniformly random connected set of ``k`` regions (R3, O24)."""
        sets = self.connected_region_sets(k)
        if not sets:
            raise MapError(f"{self.name}: no connected set of {k} regions (R3)")
        return rng.choice(sets)

    def validate_regions(self, regions: Iterable[str], k: int) -> tuple[str, ...]:
        """Check a play-area choice (R3, R105) and return it sorted."""
        chosen = self._regions_arg(regions)
        dupes = sorted({r for r in chosen if chosen.count(r) > 1})
        if dupes:
            raise MapError(f"{self.name}: region(s) chosen twice: {', '.join(dupes)} (R3)")
        if len(chosen) != k:
            raise MapError(f"{self.name}: the play area needs {k} regions (R3, R105), "
                           f"got {len(chosen)}")
        if not self._connected(chosen):
            raise MapError(f"{self.name}: regions {', '.join(sorted(chosen))} are not one "
                           "connected group of bordering regions (R3)")
        return tuple(sorted(chosen))

    def distance_matrix(self, regions: Iterable[str]) -> Table:
        """Play-area cities (file order) and all-pairs cheapest costs over links with both
        ends in the play area (R4, R61). ``UNREACHABLE`` marks pairs with no such path.

        Computed once per region set (Dijkstra over the links of ``play_graph``, without importing
        networkx) and cached as plain tuples for the engine's hot path."""
        key = frozenset(self._regions_arg(regions))
        if key not in self._dist:
            names = self.cities_in(key)
            rows = shortest_costs(names, adjacency(names, self.connections))
            self._dist[key] = (names, tuple(tuple(UNREACHABLE if d is None else d for d in row)
                                            for row in rows))
        return self._dist[key]


def _maps_dir() -> Path:
    here = package_dir()
    packaged = here / "_maps"
    return packaged if packaged.is_dir() else here.parent / "maps"


def builtin_maps() -> list[str]:
    """Names of the maps shipped with the package."""
    return list(_builtin_names())


@functools.cache
def _builtin_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in _maps_dir().glob("*.json") if not p.stem.startswith("_")))


def _game_map(parts: MapParts, path: str | None) -> GameMap:
    return GameMap(parts.name, parts.title, parts.cities, parts.regions, parts.connections,
                   parts.twins, path, parts.edition)


@functools.cache
def _load_builtin(name: str, edition: str) -> GameMap:
    path = _maps_dir() / f"{name}.json"  # errors name the map, not where the package is installed
    return _game_map(parse_map(read_json(path), f"built-in map {name!r}", edition), str(path))


def load_map(source: str | os.PathLike[str] | dict[str, Any] = "germany",
             edition: str = "original") -> GameMap:
    """Load a built-in map by name, a JSON map file, or a parsed schema dict.

    ``edition`` is a name of :data:`~powergrid_nb.engine.editions.EDITIONS` (or another name in
    the map's ``editions``);
    built-in maps are cached, so treat the result as read-only.
    """
    if not isinstance(edition, str):
        raise MapError(f"edition must be a string, got {edition!r}")
    edition = edition.lower()
    if isinstance(source, dict):
        return _game_map(parse_map(source, "<dict>", edition), None)
    if isinstance(source, str) and source.lower() in builtin_maps():
        return _load_builtin(source.lower(), edition)
    path = Path(source)
    if not path.is_file():
        raise MapError(f"{source}: no such map file and no built-in map of that name "
                       f"(built-in: {', '.join(builtin_maps())})")
    return _game_map(parse_map(read_json(path), str(path), edition), str(path))
