"""Map files: reading and validating ``powergrid_nb.map/1`` JSON, applying edition blocks, and the
city graph a map's connections form.

``powergrid_nb.engine.board.maps`` turns the validated parts into a ``GameMap`` (and re-exports ``SCHEMA``,
``City`` and ``MapError``); the schema itself is described in ``maps/README.md``.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from heapq import heappop, heappush
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from powergrid_nb.engine.editions import EDITIONS, Original
from powergrid_nb.engine.limits import (
    MAX_MAP_CITIES,
    MAX_PLACE_NAME,
    MAX_TABLE_VALUE,
    PLACE_FORBIDDEN,
    name_problem,
    shown,
)

if TYPE_CHECKING:
    import networkx as nx

SCHEMA = "powergrid_nb.map/1"
_TOP_KEYS = {"schema", "name", "title", "description", "regions", "cities", "connections",
             "twins", "editions", "outline"}
_OUTLINE_KEYS = {"source", "polygons"}
_CITY_KEYS = {"name", "region", "lat", "lon"}
_EDIT_KEYS = {"rename_cities", "set_costs", "remove_connections", "add_connections"}
_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_NAMED = 10  # cut-off cities named in a "not connected" message
BASE_EDITION = Original.name  # a map file's board is the original edition's; "editions" holds the changes


class MapError(ValueError):
    """A map file, map dict or region selection is invalid; the message says where."""


@dataclass(frozen=True, slots=True)
class City:
    """One city of a map."""

    name: str
    region: str
    lat: float
    lon: float


class MapParts(NamedTuple):
    """A validated map (one edition applied), ready to become a ``GameMap``."""

    name: str
    title: str
    cities: dict[str, City]
    regions: dict[str, str]  # region -> colour
    connections: list[tuple[str, str, int]]
    twins: list[tuple[str, str]]
    edition: str


def did_you_mean(name: object, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``known``, or ""."""
    close = difflib.get_close_matches(str(name), list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def city_graph(cities: Mapping[str, City], connections: Iterable[tuple[str, str, int]]) -> nx.Graph:
    """A new networkx graph of ``cities`` (in order; attributes ``region``, ``lat``, ``lon``) joined
    by ``connections`` (attribute ``cost``; a pair given twice keeps its cheaper cost)."""
    import networkx as nx  # on first use: importing networkx costs more memory than the engine

    g = nx.Graph()
    g.add_nodes_from((n, {"region": c.region, "lat": c.lat, "lon": c.lon}) for n, c in cities.items())
    for a, b, cost in adjacency_edges(connections):
        g.add_edge(a, b, cost=cost)
    return g


def adjacency_edges(connections: Iterable[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
    """The connections with a pair given twice kept once, at its cheaper cost (first-seen order)."""
    best: dict[frozenset[str], tuple[str, str, int]] = {}
    for a, b, cost in connections:
        key = frozenset((a, b))
        if key not in best or cost < best[key][2]:
            best[key] = (best[key][0], best[key][1], cost) if key in best else (a, b, cost)
    return list(best.values())


def adjacency(nodes: Iterable[str], connections: Iterable[tuple[str, str, int]]
              ) -> dict[str, dict[str, int]]:
    """City -> neighbour -> link cost, over the connections with both ends among ``nodes``.

    The engine's load path uses these plain tables rather than networkx, whose import alone costs
    more memory than a whole simulation; ``tests/test_map_graph.py`` checks them against networkx."""
    adj: dict[str, dict[str, int]] = {n: {} for n in nodes}
    for a, b, cost in adjacency_edges(connections):
        if a in adj and b in adj:
            adj[a][b] = adj[b][a] = cost
    return adj


def components(adj: Mapping[str, Iterable[str]]) -> list[set[str]]:
    """The connected parts of a graph given as node -> neighbours."""
    seen: set[str] = set()
    parts = []
    for start in adj:
        if start in seen:
            continue
        part, todo = {start}, [start]
        while todo:
            for m in adj[todo.pop()]:
                if m not in part:
                    part.add(m)
                    todo.append(m)
        seen |= part
        parts.append(part)
    return parts


def shortest_costs(names: Sequence[str], adj: Mapping[str, Mapping[str, int]]) -> list[list[int | None]]:
    """Cheapest total link cost between every pair of ``names`` (row: from, column: to; None where no
    path): Dijkstra from each city, over city indices (a new game's play area, in about a millisecond)."""
    index = {n: i for i, n in enumerate(names)}
    links = [[(index[m], c) for m, c in adj[n].items()] for n in names]
    rows = []
    for source in range(len(names)):
        dist: list[int | None] = [None] * len(names)
        heap = [(0, source)]
        while heap:
            d, i = heappop(heap)
            if dist[i] is not None:
                continue
            dist[i] = d
            for j, c in links[i]:
                if dist[j] is None:
                    heappush(heap, (d + c, j))
        rows.append(dist)
    return rows


def cut_off(adj: Mapping[str, Iterable[str]], order: Iterable[str]) -> str:
    """"" if the graph ``adj`` (node -> neighbours) is connected, else which cities its largest
    part (ties: the part with the earliest city) cannot reach, e.g. ``no path from 'A' to 'D', 'E'``;
    ``order`` lists the graph's cities in file order."""
    rank = {n: i for i, n in enumerate(order)}
    parts = sorted(components(adj), key=lambda p: (-len(p), min(map(rank.__getitem__, p))))
    if len(parts) <= 1:
        return ""
    lost = sorted(set(adj) - parts[0], key=rank.__getitem__)
    more = f" and {len(lost) - _NAMED} more" if len(lost) > _NAMED else ""
    first = min(parts[0], key=rank.__getitem__)
    return f"no path from {first!r} to {', '.join(map(repr, lost[:_NAMED]))}{more}"


def _fail(where: str) -> Callable[[str], MapError]:
    return lambda msg: MapError(f"{where}: {msg}")


def _link(e: Any, n: int, at: str, fail: Callable[[str], MapError]) -> list[Any]:
    """Check the shape [city_a, city_b] (n=2) or [city_a, city_b, cost] (n=3)."""
    if not isinstance(e, list) or len(e) != n or not all(isinstance(x, str) for x in e[:2]):
        raise fail(f"{at}: must be [city_a, city_b{', cost' if n == 3 else ''}], got {e!r}")
    return e


def parse_map(data: Any, where: str, edition: str) -> MapParts:
    """Validate a schema dict (the base map and every edition) and return ``edition`` of it.

    ``where`` (a file name or ``<dict>``) starts every error message."""
    fail = _fail(where)
    if not isinstance(data, dict):
        raise fail("top level must be a JSON object")
    if data.get("schema") != SCHEMA:
        raise fail(f"schema: expected {SCHEMA!r}, got {data.get('schema')!r}")
    for k in data:
        if k not in _TOP_KEYS:
            raise fail(f"unknown field {k!r}{did_you_mean(k, _TOP_KEYS)}")
    for k in ("name", "title"):
        if not isinstance(data.get(k), str) or not data[k].strip():
            raise fail(f"{k}: must be a non-empty string")
    parse_outline(data, where)
    editions = data.get("editions", {})
    if not isinstance(editions, dict) or BASE_EDITION in editions:
        raise fail(f"editions: must be an object of edition name -> changes (not {BASE_EDITION!r})")
    known = dict.fromkeys([*EDITIONS, *editions])
    if edition not in known:
        raise fail(f"unknown edition {edition!r}; choose from {', '.join(known)}")
    result = _build(data, where, BASE_EDITION if edition in editions else edition)
    for name, block in editions.items():
        applied = _apply_edition(data, block, f"{where}: editions.{name}")
        parts = _build(applied, f"{where}: editions.{name} (applied)", name)
        if name == edition:
            result = parts
    return result


def parse_outline(data: Mapping[str, Any], where: str) -> list[list[tuple[float, float]]]:
    """The optional ``outline`` of a map dict, validated: its polygons as rings of (lon, lat)
    points (a ring closes by itself), or [] when the map has none. Only drawn, never played on."""
    fail = _fail(where)
    out = data.get("outline")
    if out is None:
        return []
    if not isinstance(out, dict) or set(out) != _OUTLINE_KEYS:
        raise fail('outline: must be {"source": "...", "polygons": [[[lon, lat], ...], ...]}')
    if not isinstance(out["source"], str) or not out["source"].strip():
        raise fail("outline.source: must say where the outline comes from (a non-empty string)")
    if not isinstance(out["polygons"], list) or not out["polygons"]:
        raise fail("outline.polygons: must be a non-empty list of rings")
    rings = []
    for i, ring in enumerate(out["polygons"]):
        if not isinstance(ring, list) or len(ring) < 3:
            raise fail(f"outline.polygons[{i}]: a ring needs at least 3 [lon, lat] points")
        for j, p in enumerate(ring):
            if not (isinstance(p, list) and len(p) == 2
                    and all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)
                    and -180 <= p[0] <= 180 and -90 <= p[1] <= 90):
                raise fail(f"outline.polygons[{i}][{j}]: must be [lon, lat] with lon in [-180, 180] "
                           f"and lat in [-90, 90], got {p!r}")
        rings.append([(float(x), float(y)) for x, y in ring])
    return rings


def _build(data: dict[str, Any], where: str, edition: str) -> MapParts:
    """Validate regions, cities, connections and twins, then the graph they form."""
    fail = _fail(where)
    regions = data.get("regions")
    if not isinstance(regions, dict) or not regions:
        raise fail('regions: must be a non-empty object of region -> {"color": ...}')
    for r, v in regions.items():
        problem = name_problem(r, MAX_PLACE_NAME, PLACE_FORBIDDEN)
        if problem:
            raise fail(f"regions: region {shown(r)}: {problem} (actions name places in text)")
        col = v.get("color") if isinstance(v, dict) else None
        if not isinstance(r, str) or not r or not isinstance(col, str) or not _COLOR.fullmatch(col):
            raise fail(f'regions.{r}: needs a "color" like "#00bcd4", got {v!r}')
    colors: dict[str, str] = {r: v["color"] for r, v in regions.items()}
    raw = data.get("cities")
    if not isinstance(raw, list) or not raw or len(raw) > MAX_MAP_CITIES:
        raise fail(f"cities: must be a list of 1 to {MAX_MAP_CITIES} cities")
    cities: dict[str, City] = {}
    for i, c in enumerate(raw):
        at = f"cities[{i}]"
        if not isinstance(c, dict) or set(c) != _CITY_KEYS:
            raise fail(f"{at}: must be an object with exactly name, region, lat, lon; got {c!r}")
        nm, rg = c["name"], c["region"]
        problem = name_problem(nm, MAX_PLACE_NAME, PLACE_FORBIDDEN)
        if problem:
            raise fail(f"{at}: city name {shown(nm)}: {problem} (actions name cities in text: "
                       "'Ada: build Essen, Köln')")
        if nm in cities:
            raise fail(f"{at}: duplicate city {nm!r}")
        if not isinstance(rg, str) or rg not in colors:
            raise fail(f"{at}: city {nm!r} has unknown region {rg!r}{did_you_mean(rg, colors)}")
        for k, lim in (("lat", 90), ("lon", 180)):
            x = c[k]
            if isinstance(x, bool) or not isinstance(x, int | float) or not -lim <= x <= lim:
                raise fail(f"{at}: city {nm!r}: {k} must be a number in [-{lim}, {lim}]")
        cities[nm] = City(nm, rg, float(c["lat"]), float(c["lon"]))
    links: list[tuple[str, str, int]] = []
    twins: list[tuple[str, str]] = []
    for field, n, out in (("connections", 3, links), ("twins", 2, twins)):
        raw = data.get(field, [] if field == "twins" else None)  # twins is optional
        if not isinstance(raw, list):
            raise fail(f"{field}: must be a list")
        seen: dict[frozenset[str], int] = {}
        for i, e in enumerate(raw):
            at = f"{field}[{i}]"
            a, b = _link(e, n, at, fail)[:2]
            for x in (a, b):
                if x not in cities:
                    raise fail(f"{at}: unknown city {x!r}{did_you_mean(x, cities)}")
            if a == b:
                raise fail(f"{at}: self-link {a!r}-{b!r}")
            if frozenset((a, b)) in seen:
                raise fail(f"{at}: duplicate {a!r}-{b!r} (also {field}[{seen[frozenset((a, b))]}])")
            seen[frozenset((a, b))] = i
            if n == 3 and (isinstance(e[2], bool) or not isinstance(e[2], int)
                           or not 0 <= e[2] <= MAX_TABLE_VALUE):
                raise fail(f"{at}: cost of {a!r}-{b!r} must be a whole number from 0 to "
                           f"{MAX_TABLE_VALUE:,}, got {shown(e[2], 30)}")
            out.append(tuple(e))  # type: ignore[arg-type]
    for r in colors:
        members = [n for n, c in cities.items() if c.region == r]
        if not members:
            raise fail(f"regions.{r}: region has no cities")
        lost = cut_off(adjacency(members, links), members)  # only the region's own links
        if lost:
            raise fail(f"regions.{r}: region's cities are not connected by its own links: {lost}")
    lost = cut_off(adjacency(cities, links), cities)
    if lost:
        raise fail(f"connections: the map graph is not connected: {lost}")
    return MapParts(data["name"], data["title"], cities, colors, links, twins, edition)


def _apply_edition(base: dict[str, Any], block: Any, where: str) -> dict[str, Any]:
    """Return a copy of the (validated) ``base`` with one edition block applied.

    Renames come first; the other entries use the new names. The result is validated by
    the caller, which catches bad costs and unknown cities in added links.
    """
    fail = _fail(where)
    if not isinstance(block, dict) or not set(block) <= _EDIT_KEYS:
        raise fail(f"must be an object with keys among {', '.join(sorted(_EDIT_KEYS))}")
    out = copy.deepcopy(base)
    out.pop("editions", None)
    cities = {c["name"]: c for c in out["cities"]}
    conns: list[list[Any]] = out["connections"]

    def find(e: Any, n: int, at: str) -> int:
        a, b = _link(e, n, at, fail)[:2]
        for i, x in enumerate(conns):
            if {x[0], x[1]} == {a, b}:
                return i
        raise fail(f"{at}: no connection {a!r}-{b!r}")

    for i, r in enumerate(block.get("rename_cities", [])):
        at = f"rename_cities[{i}]"
        if not isinstance(r, dict) or not {"from", "to"} <= set(r) <= {"from", "to", "lat", "lon"}:
            raise fail(f'{at}: must be {{"from", "to"[, "lat", "lon"]}}, got {r!r}')
        old, new = r["from"], r["to"]
        if not isinstance(old, str) or old not in cities:
            raise fail(f"{at}: unknown city {old!r}{did_you_mean(old, cities)}")
        if not isinstance(new, str) or new in cities:
            raise fail(f"{at}: new name {new!r} is not a string or already a city")
        cities[new] = cities.pop(old)
        cities[new].update({"name": new, **{k: r[k] for k in ("lat", "lon") if k in r}})
        for e in (*conns, *out.get("twins", [])):
            e[:2] = [new if x == old else x for x in e[:2]]
    for i, e in enumerate(block.get("remove_connections", [])):
        del conns[find(e, 2, f"remove_connections[{i}]")]
    for i, e in enumerate(block.get("add_connections", [])):
        a, b = _link(e, 3, f"add_connections[{i}]", fail)[:2]
        if any({x[0], x[1]} == {a, b} for x in conns):
            raise fail(f"add_connections[{i}]: connection {a!r}-{b!r} already exists")
        conns.append(list(e))
    for i, e in enumerate(block.get("set_costs", [])):
        conns[find(e, 3, f"set_costs[{i}]")][2] = e[2]
    return out


def read_json(path: Path) -> Any:
    """The parsed JSON of a map file; ``MapError`` (with line and column) if unreadable."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(f"{path}: cannot read map file: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError(f"{path}: invalid JSON at line {exc.lineno}, column {exc.colno}: "
                       f"{exc.msg}") from exc
