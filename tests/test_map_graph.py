"""Each map is a networkx graph: the city graph, the region graph (R3), play-area graphs and their
distances (R4, R61), and graph-based map validation (connected map, connected regions)."""

from __future__ import annotations

import copy
import itertools
import json
import random

import networkx as nx
import pytest

from powergrid_nb.engine.board.maps import UNREACHABLE, City, GameMap, MapError, load_map

BOARDS = [(name, edition) for name in ("germany", "usa") for edition in ("original", "recharged")]


def _tiny() -> dict:
    """West {A, B, C} joined to east {D, E} by C-D only."""
    return {
        "schema": "powergrid_nb.map/1", "name": "tiny", "title": "Tiny",
        "regions": {"west": {"color": "#f00"}, "east": {"color": "#00f"}},
        "cities": [{"name": n, "region": r, "lat": 1.0, "lon": float(i)}
                   for i, (n, r) in enumerate([("A", "west"), ("B", "west"), ("C", "west"),
                                               ("D", "east"), ("E", "east")])],
        "connections": [["A", "B", 3], ["B", "C", 4], ["A", "C", 9], ["C", "D", 0], ["D", "E", 12]],
    }


def _region_graph(gm: GameMap) -> nx.Graph:
    """The region graph built independently of the module: regions joined by a connection."""
    g = nx.Graph()
    g.add_nodes_from(gm.regions)
    g.add_edges_from((gm.cities[a].region, gm.cities[b].region) for a, b, _ in gm.connections
                     if gm.cities[a].region != gm.cities[b].region)
    return g


@pytest.mark.parametrize(("name", "edition"), BOARDS)
def test_graph_has_the_cities_and_connections_with_costs(name, edition):
    gm = load_map(name, edition)
    g = gm.graph
    assert isinstance(g, nx.Graph) and not g.is_directed() and not g.is_multigraph()
    assert list(g.nodes) == list(gm.cities)  # file order
    for n, data in g.nodes(data=True):
        c = gm.cities[n]
        assert data == {"region": c.region, "lat": c.lat, "lon": c.lon}
    assert g.number_of_edges() == len(gm.connections)
    assert {frozenset((a, b)): d["cost"] for a, b, d in g.edges(data=True)} == {
        frozenset((a, b)): c for a, b, c in gm.connections}
    assert g.graph == {"name": name, "title": gm.title, "edition": edition}
    assert nx.is_connected(g)


def test_recharged_germany_graph_has_its_own_costs():
    orig, rech = load_map("germany").graph, load_map("germany", "recharged").graph
    assert orig["Dortmund"]["Essen"]["cost"] != rech["Dortmund"]["Essen"]["cost"] == 5
    assert "Mainz" in rech and "Mainz" not in orig and "Wiesbaden" in orig


def test_graphs_are_cached_and_frozen():
    gm = load_map("usa")
    assert gm.graph is gm.graph and nx.is_frozen(gm.graph)
    assert gm.region_graph is gm.region_graph and nx.is_frozen(gm.region_graph)
    area = gm.play_graph(["red", "yellow", "green"])
    assert area is gm.play_graph(("green", "red", "yellow")) and nx.is_frozen(area)
    for g in (gm.graph, gm.region_graph, area):
        with pytest.raises(nx.NetworkXError, match="Frozen"):
            g.add_edge("Seattle", "Miami", cost=1)
    assert nx.Graph(gm.graph).add_edge("Seattle", "Miami", cost=1) is None  # a copy is editable


@pytest.mark.parametrize(("name", "edition"), BOARDS)
def test_play_graph_is_the_induced_subgraph(name, edition):
    gm = load_map(name, edition)
    for regions in [(r,) for r in gm.regions] + gm.connected_region_sets(3) + gm.connected_region_sets(5):
        area = gm.play_graph(regions)
        inside = set(gm.cities_in(regions))
        assert list(area.nodes) == list(gm.cities_in(regions))
        assert {frozenset((a, b)): d["cost"] for a, b, d in area.edges(data=True)} == {
            frozenset((a, b)): c for a, b, c in gm.connections if a in inside and b in inside}
        assert area.graph["regions"] == tuple(sorted(regions))
    with pytest.raises(MapError, match="unknown region 'rad'.*did you mean 'red'"):
        gm.play_graph(["rad"])


@pytest.mark.parametrize(("name", "edition"), BOARDS)
def test_play_area_distances_equal_networkx_shortest_paths(name, edition):
    """Every table (connected sets of 3-5 regions, the whole map and some disconnected pairs)
    against nx.shortest_path_length on a graph built here from the connections."""
    gm = load_map(name, edition)
    sets = [s for k in (3, 4, 5) for s in gm.connected_region_sets(k)] + [tuple(gm.regions)]
    sets += [s for s in itertools.combinations(sorted(gm.regions), 2) if not gm.is_connected_regions(s)]
    for regions in sets:
        names, d = gm.distance_matrix(regions)
        assert names == gm.cities_in(regions)
        inside = set(names)
        g = nx.Graph()
        g.add_nodes_from(names)
        g.add_weighted_edges_from(((a, b, c) for a, b, c in gm.connections
                                   if a in inside and b in inside), weight="w")
        for i, a in enumerate(names):
            lengths = nx.shortest_path_length(g, a, weight="w")
            assert d[i] == tuple(lengths.get(b, UNREACHABLE) for b in names), (regions, a)
        assert type(d) is tuple and all(type(row) is tuple for row in d)
        assert all(type(x) is int for row in d for x in row)  # plain ints for the hot path
        assert (UNREACHABLE in {x for row in d for x in row}) == (not gm.is_connected_regions(regions))


def test_directly_built_map_uses_the_cheaper_of_a_twice_given_link():
    cities = {n: City(n, "r", 0.0, float(i)) for i, n in enumerate("ABC")}
    gm = GameMap("t", "T", cities, {"r": "#000"}, [("A", "B", 5), ("B", "A", 3)])
    assert gm.graph["A"]["B"]["cost"] == 3
    assert gm.distance_matrix(["r"]) == (("A", "B", "C"), ((0, 3, UNREACHABLE), (3, 0, UNREACHABLE),
                                                            (UNREACHABLE, UNREACHABLE, 0)))


# --- region connectivity (R3) agrees with networkx --------------------------------------------


@pytest.mark.parametrize(("name", "edition"), BOARDS)
def test_region_connectivity_agrees_with_networkx(name, edition):
    gm = load_map(name, edition)
    rg = _region_graph(gm)
    assert list(gm.region_graph.nodes) == list(gm.regions)
    assert {frozenset(e) for e in gm.region_graph.edges} == {frozenset(e) for e in rg.edges}
    assert gm.region_adjacency() == {r: frozenset(rg[r]) for r in gm.regions}
    assert dict(gm.region_graph.nodes(data="color")) == gm.regions
    for k in range(0, len(gm.regions) + 2):
        combos = list(itertools.combinations(sorted(gm.regions), k))
        expected = [s for s in combos if s and nx.is_connected(rg.subgraph(s))]
        assert gm.connected_region_sets(k) == expected
        for s in combos:
            assert gm.is_connected_regions(s) == (s in expected)
            assert gm.is_connected_regions(reversed(s)) == (s in expected)


def test_connected_region_sets_returns_a_fresh_list():
    gm = load_map("germany")
    gm.connected_region_sets(3).clear()
    assert len(gm.connected_region_sets(3)) == 13


def test_choose_regions_unchanged_for_seeded_games():
    """Pinned from the hand-written implementation: seeded games must pick the same regions."""
    germany, usa = load_map("germany"), load_map("usa", "recharged")
    assert [germany.choose_regions(3, random.Random(s)) for s in range(4)] == [
        ("brown", "cyan", "red"), ("blue", "cyan", "yellow"), ("blue", "brown", "yellow"),
        ("blue", "purple", "red")]
    assert [usa.choose_regions(4, random.Random(s)) for s in range(4)] == [
        ("brown", "purple", "red", "yellow"), ("brown", "cyan", "red", "yellow"),
        ("brown", "cyan", "green", "red"), ("brown", "green", "purple", "red")]


# --- validation uses the graph: unreachable cities are named -----------------------------------


def test_disconnected_map_file_names_the_cut_off_cities(tmp_path):
    data = _tiny()
    data["connections"].remove(["C", "D", 0])
    path = tmp_path / "split.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(MapError, match=r"split.json: connections: the map graph is not connected: "
                                       r"no path from 'A' to 'D', 'E'$"):
        load_map(path)


def test_city_cut_off_from_its_region_is_named():
    data = json.loads(json.dumps(load_map("germany").to_dict()))
    data["connections"] = [c for c in data["connections"] if "Flensburg" not in c[:2]]
    with pytest.raises(MapError, match=r"<dict>: regions.cyan: region's cities are not connected by "
                                       r"its own links: no path from 'Bremen' to 'Flensburg'$"):
        load_map(data)


def test_edition_that_cuts_a_city_off_is_named():
    data = json.loads(json.dumps(load_map("usa").to_dict()))
    data["editions"] = {"cut": {"remove_connections": [["Miami", "Tampa"]]}}
    with pytest.raises(MapError, match=r"editions.cut \(applied\): regions.green: .* no path from "
                                       r"'Atlanta' to 'Miami'$"):
        load_map(data, "cut")


def test_many_cut_off_cities_are_counted():
    """The largest part is the reference; ten cut-off cities are named (file order), the rest counted."""
    data = copy.deepcopy(_tiny())
    for region, prefix, n in (("far", "F", 20), ("isle", "I", 7)):
        data["regions"][region] = {"color": "#0f0"}
        names = [f"{prefix}{i}" for i in range(n)]
        data["cities"] += [{"name": x, "region": region, "lat": 2.0, "lon": 0.0} for x in names]
        data["connections"] += [[a, b, 1] for a, b in itertools.pairwise(names)]
    with pytest.raises(MapError, match=r"not connected: no path from 'F0' to 'A', 'B', 'C', 'D', 'E', "
                                       r"'I0', 'I1', 'I2', 'I3', 'I4' and 2 more$"):
        load_map(data)


def test_playing_a_game_does_not_import_networkx():
    """The engine's tables are its own; networkx (24 MB of modules) loads only when a graph is asked
    for, so simulation workers stay small (docs/benchmarks.md, memory)."""
    import subprocess
    import sys

    code = ("import random, sys, powergrid_nb as pg\n"
            "g = pg.new_game(3, map='usa', seed=2); ch = random.Random(2).choice\n"
            "while not g.is_over: g.apply(ch(g.legal_actions()))\n"
            "assert 'networkx' not in sys.modules, 'networkx imported by a game'\n"
            "g.map.graph\n"
            "assert 'networkx' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
