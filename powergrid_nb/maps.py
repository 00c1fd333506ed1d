"""Map graphs: loading, validation, play-area selection (R3, R105) and path costs (R4, R61).

Maps are JSON files in the ``powergrid_nb.map/1`` schema (see ``maps/README.md``).
"""

from __future__ import annotations

import copy
import difflib
import functools
import itertools
import json
import os
import random
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = "powergrid_nb.map/1"
UNREACHABLE = 10**9  # distance sentinel for pairs with no path inside the play area
_TOP_KEYS = {"schema", "name", "title", "description", "regions", "cities", "connections",
             "twins", "editions"}
_CITY_KEYS = {"name", "region", "lat", "lon"}
_EDIT_KEYS = {"rename_cities", "set_costs", "remove_connections", "add_connections"}
_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


class MapError(ValueError):
    """A map file, map dict or region selection is invalid; the message says where."""


@dataclass(frozen=True, slots=True)
class City:
    """One city of a map."""

    name: str
    region: str
    lat: float
    lon: float


def _hint(name: object, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(str(name), list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _is_connected(nodes: Iterable[str], adj: Mapping[str, Iterable[str]]) -> bool:
    """True if ``nodes`` is non-empty and connected using only edges among ``nodes``."""
    todo = set(nodes)
    if not todo:
        return False
    stack = [todo.pop()]
    while stack:
        for n in adj.get(stack.pop(), ()):
            if n in todo:
                todo.remove(n)
                stack.append(n)
    return not todo


class GameMap:
    """A validated map: cities, regions, weighted undirected connections."""

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
        self._dist: dict[frozenset[str], tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]] = {}
        self._adj: dict[str, frozenset[str]] | None = None

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

    def _regions_arg(self, regions: Iterable[str]) -> list[str]:
        if isinstance(regions, str):
            raise MapError(f"{self.name}: regions must be a collection of names, not {regions!r}")
        out = list(regions)
        for r in out:
            if not isinstance(r, str) or r not in self.regions:
                raise MapError(f"{self.name}: unknown region {r!r}{_hint(r, self.regions)}; "
                               f"regions are {', '.join(self.regions)}")
        return out

    def region_adjacency(self) -> dict[str, frozenset[str]]:
        """Region -> bordering regions (joined by at least one connection)."""
        if self._adj is None:
            adj: dict[str, set[str]] = {r: set() for r in self.regions}
            for a, b, _ in self.connections:
                ra, rb = self.cities[a].region, self.cities[b].region
                if ra != rb:
                    adj[ra].add(rb)
                    adj[rb].add(ra)
            self._adj = {r: frozenset(s) for r, s in adj.items()}
        return dict(self._adj)

    def cities_in(self, regions: Iterable[str]) -> tuple[str, ...]:
        """Names of the cities in ``regions``, in file order."""
        chosen = set(self._regions_arg(regions))
        return tuple(n for n, c in self.cities.items() if c.region in chosen)

    def is_connected_regions(self, regions: Iterable[str]) -> bool:
        """True if ``regions`` form one connected group of bordering regions (R3)."""
        return _is_connected(self._regions_arg(regions), self.region_adjacency())

    def connected_region_sets(self, k: int) -> list[tuple[str, ...]]:
        """All connected sets of ``k`` regions, each sorted; the list sorted."""
        adj = self.region_adjacency()
        return [s for s in itertools.combinations(sorted(self.regions), k)
                if _is_connected(s, adj)] if k >= 1 else []

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
        if not _is_connected(chosen, self.region_adjacency()):
            raise MapError(f"{self.name}: regions {', '.join(sorted(chosen))} are not one "
                           "connected group of bordering regions (R3)")
        return tuple(sorted(chosen))

    def distance_matrix(
        self, regions: Iterable[str]
    ) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
        """Play-area cities (file order) and all-pairs cheapest costs over links with both
        ends in the play area (R4, R61). ``UNREACHABLE`` marks pairs with no such path."""
        key = frozenset(self._regions_arg(regions))
        if key not in self._dist:
            names = self.cities_in(key)
            idx = {n: i for i, n in enumerate(names)}
            n = len(names)
            d = [[0 if i == j else UNREACHABLE for j in range(n)] for i in range(n)]
            for a, b, c in self.connections:
                if a in idx and b in idx:
                    i, j = idx[a], idx[b]
                    d[i][j] = d[j][i] = min(d[i][j], c)
            for m in range(n):
                dm = d[m]
                for i in range(n):
                    di, dim = d[i], d[i][m]
                    if dim >= UNREACHABLE:
                        continue
                    for j in range(n):
                        if dim + dm[j] < di[j]:
                            di[j] = dim + dm[j]
            self._dist[key] = (names, tuple(tuple(row) for row in d))
        return self._dist[key]


def _fail(where: str) -> Callable[[str], MapError]:
    return lambda msg: MapError(f"{where}: {msg}")


def _link(e: Any, n: int, at: str, fail: Callable[[str], MapError]) -> list[Any]:
    """Check the shape [city_a, city_b] (n=2) or [city_a, city_b, cost] (n=3)."""
    if not isinstance(e, list) or len(e) != n or not all(isinstance(x, str) for x in e[:2]):
        raise fail(f"{at}: must be [city_a, city_b{', cost' if n == 3 else ''}], got {e!r}")
    return e


def _parse(data: Any, where: str, edition: str, path: str | None) -> GameMap:
    """Validate a schema dict (base map and every edition) and build ``edition``."""
    fail = _fail(where)
    if not isinstance(data, dict):
        raise fail("top level must be a JSON object")
    if data.get("schema") != SCHEMA:
        raise fail(f"schema: expected {SCHEMA!r}, got {data.get('schema')!r}")
    for k in data:
        if k not in _TOP_KEYS:
            raise fail(f"unknown field {k!r}{_hint(k, _TOP_KEYS)}")
    for k in ("name", "title"):
        if not isinstance(data.get(k), str) or not data[k].strip():
            raise fail(f"{k}: must be a non-empty string")
    editions = data.get("editions", {})
    if not isinstance(editions, dict) or "original" in editions:
        raise fail("editions: must be an object of edition name -> changes (not 'original')")
    if edition not in ("original", "recharged", *editions):
        raise fail(f"unknown edition {edition!r}; choose from "
                   f"{', '.join(dict.fromkeys(['original', 'recharged', *editions]))}")
    result = _build(data, where, "original" if edition in editions else edition, path)
    for name, block in editions.items():
        applied = _apply_edition(data, block, f"{where}: editions.{name}")
        gm = _build(applied, f"{where}: editions.{name} (applied)", name, path)
        if name == edition:
            result = gm
    return result


def _build(data: dict[str, Any], where: str, edition: str, path: str | None) -> GameMap:
    """Validate regions, cities, connections and twins; return the map."""
    fail = _fail(where)
    regions = data.get("regions")
    if not isinstance(regions, dict) or not regions:
        raise fail('regions: must be a non-empty object of region -> {"color": ...}')
    for r, v in regions.items():
        col = v.get("color") if isinstance(v, dict) else None
        if not isinstance(r, str) or not r or not isinstance(col, str) or not _COLOR.fullmatch(col):
            raise fail(f'regions.{r}: needs a "color" like "#00bcd4", got {v!r}')
    colors: dict[str, str] = {r: v["color"] for r, v in regions.items()}
    raw = data.get("cities")
    if not isinstance(raw, list) or not raw:
        raise fail("cities: must be a non-empty list")
    cities: dict[str, City] = {}
    for i, c in enumerate(raw):
        at = f"cities[{i}]"
        if not isinstance(c, dict) or set(c) != _CITY_KEYS:
            raise fail(f"{at}: must be an object with exactly name, region, lat, lon; got {c!r}")
        nm, rg = c["name"], c["region"]
        if not isinstance(nm, str) or not nm.strip() or nm != nm.strip():
            raise fail(f"{at}: name must be a non-empty string without outer spaces")
        if nm in cities:
            raise fail(f"{at}: duplicate city {nm!r}")
        if not isinstance(rg, str) or rg not in colors:
            raise fail(f"{at}: city {nm!r} has unknown region {rg!r}{_hint(rg, colors)}")
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
                    raise fail(f"{at}: unknown city {x!r}{_hint(x, cities)}")
            if a == b:
                raise fail(f"{at}: self-link {a!r}-{b!r}")
            if frozenset((a, b)) in seen:
                raise fail(f"{at}: duplicate {a!r}-{b!r} (also {field}[{seen[frozenset((a, b))]}])")
            seen[frozenset((a, b))] = i
            if n == 3 and (isinstance(e[2], bool) or not isinstance(e[2], int) or e[2] < 0):
                raise fail(f"{at}: cost of {a!r}-{b!r} must be an integer >= 0, got {e[2]!r}")
            out.append(tuple(e))  # type: ignore[arg-type]
    adj: dict[str, list[str]] = {n: [] for n in cities}
    local: dict[str, list[str]] = {n: [] for n in cities}
    for a, b, _ in links:
        adj[a].append(b)
        adj[b].append(a)
        if cities[a].region == cities[b].region:
            local[a].append(b)
            local[b].append(a)
    for r in colors:
        members = [n for n, c in cities.items() if c.region == r]
        if not members:
            raise fail(f"regions.{r}: region has no cities")
        if not _is_connected(members, local):
            raise fail(f"regions.{r}: region's cities are not connected by its own links")
    if not _is_connected(cities, adj):
        raise fail("connections: the map graph is not connected")
    return GameMap(data["name"], data["title"], cities, colors, links, twins, path, edition)


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
            raise fail(f"{at}: unknown city {old!r}{_hint(old, cities)}")
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


def _maps_dir() -> Path:
    here = Path(__file__).resolve().parent
    packaged = here / "_maps"
    return packaged if packaged.is_dir() else here.parent / "maps"


def builtin_maps() -> list[str]:
    """Names of the maps shipped with the package."""
    return sorted(p.stem for p in _maps_dir().glob("*.json") if not p.stem.startswith("_"))


def _read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(f"{path}: cannot read map file: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError(f"{path}: invalid JSON at line {exc.lineno}, column {exc.colno}: "
                       f"{exc.msg}") from exc


@functools.cache
def _load_builtin(name: str, edition: str) -> GameMap:
    path = _maps_dir() / f"{name}.json"
    return _parse(_read(path), str(path), edition, str(path))


def load_map(source: str | os.PathLike[str] | dict[str, Any] = "germany",
             edition: str = "original") -> GameMap:
    """Load a built-in map by name, a JSON map file, or a parsed schema dict.

    ``edition`` is "original" or "recharged" (or another name in the map's ``editions``);
    built-in maps are cached, so treat the result as read-only.
    """
    if not isinstance(edition, str):
        raise MapError(f"edition must be a string, got {edition!r}")
    edition = edition.lower()
    if isinstance(source, dict):
        return _parse(source, "<dict>", edition, None)
    if isinstance(source, str) and source.lower() in builtin_maps():
        return _load_builtin(source.lower(), edition)
    path = Path(source)
    if not path.is_file():
        raise MapError(f"{source}: no such map file and no built-in map of that name "
                       f"(built-in: {', '.join(builtin_maps())})")
    return _parse(_read(path), str(path), edition, str(path))
