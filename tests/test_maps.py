"""Map data and the maps module: R3 (connected regions), R4/R61 (play-area paths), R105, W7/W8."""

from __future__ import annotations

import copy
import csv
import itertools
import json
import random
from pathlib import Path

import pytest

from powergrid_nb.engine.board.maps import UNREACHABLE, City, GameMap, MapError, builtin_maps, load_map

REF = Path(__file__).resolve().parent / "reference_maps"  # a copy of shared/reference/maps
SHARED_REF = Path(__file__).resolve().parents[2] / "shared" / "reference" / "maps"
MAPS = ("germany", "usa")

# The "Recharged (2018) board: differences" table of reference/maps/SOURCES.md.
RECHARGED = {
    "germany": {
        "rename": {"Torgelow": ("Stralsund", 54.31, 13.09), "Wiesbaden": ("Mainz", 49.99, 8.25)},
        "removed": set(),
        "added": {},
        "costs": {("Dortmund", "Essen"): 5, ("Mannheim", "Saarbrücken"): 16},
        "count": 83,
    },
    "usa": {
        "rename": {},
        "removed": {frozenset(("Boise", "Cheyenne")), frozenset(("Cincinnati", "Raleigh"))},
        "added": {frozenset(("Knoxville", "Raleigh")): 11},
        "costs": {("Chicago", "Omaha"): 12, ("Houston", "Santa Fe"): 20},
        "count": 86,
    },
}


def _csv(name: str) -> list[dict[str, str]]:
    with open(REF / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _links(gm: GameMap) -> dict[frozenset[str], int]:
    return {frozenset((a, b)): c for a, b, c in gm.connections}


def _dist(gm: GameMap, regions, a: str, b: str) -> int:
    names, d = gm.distance_matrix(regions)
    return d[names.index(a)][names.index(b)]


def _small_map() -> dict:
    """A 2-region custom map: west {A, B, C}, east {D, E}."""
    return {
        "schema": "powergrid_nb.map/1",
        "name": "tiny",
        "title": "Tiny Land",
        "regions": {"west": {"color": "#ff0000"}, "east": {"color": "#00f"}},
        "cities": [
            {"name": "A", "region": "west", "lat": 1.0, "lon": 1.0},
            {"name": "B", "region": "west", "lat": 1.5, "lon": 2.0},
            {"name": "C", "region": "west", "lat": 2.0, "lon": 1.0},
            {"name": "D", "region": "east", "lat": 1.0, "lon": 5.0},
            {"name": "Ä", "region": "east", "lat": 2.0, "lon": 5.0},
        ],
        "connections": [["A", "B", 3], ["B", "C", 4], ["A", "C", 9], ["C", "D", 0], ["D", "Ä", 12]],
        "twins": [],
    }


# --- built-in data agrees with the reference tables (R3, O1) -------------------------------


def test_builtin_maps_listed():
    assert builtin_maps() == ["germany", "usa"]


@pytest.mark.parametrize("name", MAPS)
def test_O1_cities_regions_coordinates_match_reference(name):
    rows = _csv(f"{name}_cities.csv")
    gm = load_map(name)
    assert gm.name == name and gm.title == {"germany": "Germany", "usa": "USA"}[name]
    assert gm.edition == "original" and gm.twins == ()
    assert list(gm.cities) == [r["city"] for r in rows]
    for r in rows:
        city = City(r["city"], r["region"], float(r["lat"]), float(r["lon"]))
        assert gm.cities[r["city"]] == city
    assert set(gm.regions) == {r["region"] for r in rows}
    assert all(c.startswith("#") for c in gm.regions.values())


@pytest.mark.parametrize("name", MAPS)
def test_R3_42_cities_in_6_regions_of_7(name):
    gm = load_map(name)
    assert len(gm.cities) == 42 and len(gm.regions) == 6
    for region in gm.regions:
        assert len(gm.cities_in([region])) == 7


@pytest.mark.parametrize("name", MAPS)
def test_O1_connections_and_costs_match_reference(name):
    rows = _csv(f"{name}_connections.csv")
    gm = load_map(name)
    assert gm.connections == tuple((r["city_a"], r["city_b"], int(r["cost"])) for r in rows)
    assert len(gm.connections) == {"germany": 83, "usa": 87}[name]


@pytest.mark.parametrize("name", MAPS)
@pytest.mark.parametrize("edition", ["original", "recharged"])
def test_R3_region_adjacency_matches_reference(name, edition):
    pairs = {frozenset((r["region_a"], r["region_b"])) for r in _csv("regions.csv")
             if r["map"] == name}
    adj = load_map(name, edition).region_adjacency()
    derived = {frozenset((a, b)) for a, ns in adj.items() for b in ns}
    assert derived == pairs and len(pairs) == 9


def test_map_json_is_utf8_not_escaped():
    text = Path(load_map("germany").path).read_text(encoding="utf-8")
    assert "Düsseldorf" in text and "\\u00fc" not in text


# --- Recharged board -----------------------------------------------------------------------


@pytest.mark.parametrize("name", MAPS)
def test_recharged_differences_exactly_as_in_sources(name):
    orig, rech, diff = load_map(name), load_map(name, "Recharged"), RECHARGED[name]
    assert rech.edition == "recharged" and len(rech.connections) == diff["count"]
    rename = {old: new for old, (new, _, _) in diff["rename"].items()}
    assert list(rech.cities) == [rename.get(c, c) for c in orig.cities]
    for old, (new, lat, lon) in diff["rename"].items():
        assert old not in rech.cities
        assert rech.cities[new] == City(new, orig.cities[old].region, lat, lon)
    expected = {frozenset(rename.get(c, c) for c in k): v for k, v in _links(orig).items()
                if k not in diff["removed"]}
    expected |= diff["added"]
    expected |= {frozenset(k): v for k, v in diff["costs"].items()}
    assert _links(rech) == expected


def test_recharged_germany_renamed_cities_keep_their_links():
    links = _links(load_map("germany", "recharged"))
    assert {k: v for k, v in links.items() if "Stralsund" in k} == {
        frozenset(("Schwerin", "Stralsund")): 19, frozenset(("Rostock", "Stralsund")): 19,
        frozenset(("Berlin", "Stralsund")): 15}
    assert {k: v for k, v in links.items() if "Mainz" in k} == {
        frozenset(("Frankfurt-M", "Mainz")): 0, frozenset(("Köln", "Mainz")): 21,
        frozenset(("Saarbrücken", "Mainz")): 10, frozenset(("Mannheim", "Mainz")): 11,
        frozenset(("Trier", "Mainz")): 18}


def test_builtin_loads_are_cached_and_case_insensitive():
    assert load_map("GERMANY") is load_map("germany")
    assert load_map("usa", "recharged") is load_map("USA", "RECHARGED")
    assert load_map("germany") != load_map("germany", "recharged")


# --- W7/W8 distances, R4/R61 play area -----------------------------------------------------


def test_W7_W8_germany_connection_costs():
    gm = load_map("germany")
    everything = gm.regions
    assert _dist(gm, everything, "Essen", "Duisburg") == 0
    assert _dist(gm, everything, "Essen", "Düsseldorf") == 2
    assert _dist(gm, everything, "Münster", "Dortmund") == 2
    assert _dist(gm, everything, "Essen", "Aachen") == 11
    assert _dist(gm, everything, "Essen", "Köln") == 6
    assert _dist(gm, everything, "Düsseldorf", "Duisburg") == 2  # B adds Duisburg: 10 + 2 + 0
    assert _dist(gm, everything, "Düsseldorf", "Köln") == 4  # W8: 15 + 4 from new Düsseldorf


def test_R61_distance_matrix_symmetric_zero_diagonal_and_cached():
    gm = load_map("usa")
    names, d = gm.distance_matrix(["red", "yellow", "green"])
    assert names == gm.cities_in(["red", "yellow", "green"]) and len(names) == 21
    assert all(d[i][i] == 0 for i in range(21))
    assert all(d[i][j] == d[j][i] < UNREACHABLE for i in range(21) for j in range(21))
    assert gm.distance_matrix(("green", "red", "yellow")) is gm.distance_matrix(
        ["red", "yellow", "green"])


def test_R4_paths_stay_inside_play_area_hand_example():
    # Hannover-Frankfurt-M: 28 via Kassel (red); without red: Erfurt 19 + Fulda 13 + 8 = 40.
    gm = load_map("germany")
    assert _dist(gm, gm.regions, "Hannover", "Frankfurt-M") == 28
    area = gm.validate_regions(["cyan", "yellow", "blue"], 3)
    assert "Kassel" not in gm.distance_matrix(area)[0]
    assert _dist(gm, area, "Hannover", "Frankfurt-M") == 40


@pytest.mark.parametrize("name", MAPS)
def test_R4_paths_stay_inside_play_area_exhaustive(name):
    """Independent Dijkstra over links with both ends in the area; some pairs must differ."""
    import heapq

    gm = load_map(name)
    full_names, full = gm.distance_matrix(gm.regions)
    detours = 0
    for regions in gm.connected_region_sets(3):
        names, d = gm.distance_matrix(regions)
        inside = set(names)
        graph: dict[str, list[tuple[str, int]]] = {n: [] for n in names}
        for a, b, c in gm.connections:
            if a in inside and b in inside:
                graph[a].append((b, c))
                graph[b].append((a, c))
        for i, src in enumerate(names):
            best = {src: 0}
            heap = [(0, src)]
            while heap:
                cost, node = heapq.heappop(heap)
                if cost > best[node]:
                    continue
                for nxt, c in graph[node]:
                    if cost + c < best.get(nxt, UNREACHABLE):
                        best[nxt] = cost + c
                        heapq.heappush(heap, (cost + c, nxt))
            assert d[i] == tuple(best[n] for n in names)
            fi = full_names.index(src)
            detours += sum(best[n] > full[fi][full_names.index(n)] for n in names)
    assert detours > 0  # the restriction really matters on this map


# --- R3/R105 region selection --------------------------------------------------------------


@pytest.mark.parametrize("name", MAPS)
def test_R3_connected_region_sets_match_brute_force(name):
    pairs = [(r["region_a"], r["region_b"]) for r in _csv("regions.csv") if r["map"] == name]
    gm = load_map(name)
    for k in range(0, 8):
        expected = []
        for combo in itertools.combinations(sorted(gm.regions), k):
            seen, todo = {combo[0]} if combo else set(), list(combo[:1])
            while todo:
                r = todo.pop()
                for a, b in pairs:
                    for x, y in ((a, b), (b, a)):
                        if x == r and y in combo and y not in seen:
                            seen.add(y)
                            todo.append(y)
            if combo and len(seen) == k:
                expected.append(combo)
        assert gm.connected_region_sets(k) == expected
    assert [len(gm.connected_region_sets(k)) for k in (1, 2, 6)] == [6, 9, 1]


def test_R3_connected_region_set_counts():
    assert [len(load_map("germany").connected_region_sets(k)) for k in (3, 4, 5)] == [13, 12, 6]
    assert [len(load_map("usa").connected_region_sets(k)) for k in (3, 4, 5)] == [12, 12, 6]


@pytest.mark.parametrize("k", [3, 4, 5])
def test_O24_choose_regions_is_seeded_and_valid(k):
    gm = load_map("usa")
    picks = [gm.choose_regions(k, random.Random(seed)) for seed in range(40)]
    assert picks == [gm.choose_regions(k, random.Random(seed)) for seed in range(40)]
    assert all(p in gm.connected_region_sets(k) for p in picks)
    assert len(set(picks)) > 1


def test_R3_choose_regions_impossible_size():
    with pytest.raises(MapError, match="R3"):
        load_map("germany").choose_regions(7, random.Random(1))


def test_R3_validate_regions_accepts_connected_set_and_sorts():
    gm = load_map("germany")
    assert gm.validate_regions(["yellow", "cyan", "red"], 3) == ("cyan", "red", "yellow")
    assert gm.is_connected_regions({"purple", "blue"})


def test_R3_validate_regions_unknown_region():
    with pytest.raises(MapError, match="unknown region 'purpel'.*did you mean 'purple'"):
        load_map("germany").validate_regions(["purpel", "blue", "red"], 3)


def test_R105_validate_regions_wrong_count():
    with pytest.raises(MapError, match=r"needs 4 regions \(R3, R105\), got 3"):
        load_map("germany").validate_regions(["cyan", "red", "yellow"], 4)


def test_R3_validate_regions_duplicates():
    with pytest.raises(MapError, match="chosen twice: red.*R3"):
        load_map("germany").validate_regions(["red", "red", "cyan"], 3)


def test_R3_regions_must_be_connected():
    gm = load_map("germany")
    assert not gm.is_connected_regions(["brown", "purple", "red"])
    with pytest.raises(MapError, match="not one connected group.*R3"):
        gm.validate_regions(["brown", "purple", "red"], 3)


def test_R3_regions_argument_must_not_be_a_string():
    with pytest.raises(MapError, match="collection"):
        load_map("germany").cities_in("red")


# --- malformed maps ------------------------------------------------------------------------


def _broken(change) -> dict:
    data = copy.deepcopy(_small_map())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["connections"].append(["C", "Esen", 1]),
         r"<dict>: connections\[5\]: unknown city 'Esen'"),
        (lambda d: d["cities"].append(dict(d["cities"][0])), r"cities\[5\]: duplicate city 'A'"),
        (lambda d: d["connections"][1].__setitem__(2, -1), r"connections\[1\]: cost .* from 0 to 10,000"),
        (lambda d: d["connections"][1].__setitem__(2, 2.5), r"connections\[1\]: cost"),
        (lambda d: d["connections"].append(["D", "D", 1]), r"connections\[5\]: self-link"),
        (lambda d: d["connections"].append(["Ä", "D", 1]),
         r"connections\[5\]: duplicate 'Ä'-'D' \(also connections\[4\]\)"),
        (lambda d: d["connections"].remove(["C", "D", 0]), "map graph is not connected"),
        (lambda d: d.__setitem__("schema", "powergrid_nb.map/0"), "schema: expected"),
        (lambda d: d.pop("schema"), "schema: expected"),
        (lambda d: d.__setitem__("conections", []), "unknown field 'conections'"),
        (lambda d: d.__setitem__("title", ""), "title: must be a non-empty string"),
        (lambda d: d["cities"][2].__setitem__("region", "wets"),
         r"cities\[2\]: city 'C' has unknown region 'wets' \(did you mean 'west'\?\)"),
        (lambda d: d["cities"][2].__setitem__("lat", "1"), r"cities\[2\]: city 'C': lat"),
        (lambda d: d["regions"].__setitem__("north", {"color": "#123456"}),
         "regions.north: region has no cities"),
        (lambda d: d["regions"].__setitem__("west", {"color": "red"}), "regions.west: needs"),
        (lambda d: d["twins"].append(["A", "Q"]), r"twins\[0\]: unknown city 'Q'"),
        (lambda d: d.__setitem__("editions", {"recharged": {"set_costs": [["A", "D", 1]]}}),
         r"editions.recharged: set_costs\[0\]: no connection 'A'-'D'"),
        (lambda d: d.__setitem__("editions", {"x": {"rename_cities": [{"from": "B", "to": "C"}]}}),
         r"editions.x: rename_cities\[0\]: new name 'C'"),
        (lambda d: d.__setitem__("editions", {"x": {"add_connections": [["A", "B", 1]]}}),
         "already exists"),
        (lambda d: d.__setitem__("editions", {"x": {"remove_connections": [["C", "D"]]}}),
         r"editions.x \(applied\): connections: the map graph is not connected"),
    ],
)
def test_malformed_maps_rejected_with_precise_messages(change, message):
    with pytest.raises(MapError, match=message):
        load_map(_broken(change))


def test_bad_json_text_reports_position(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"schema": "powergrid_nb.map/1",\n  "name": }', encoding="utf-8")
    with pytest.raises(MapError, match=r"bad.json: invalid JSON at line 2, column 11"):
        load_map(path)


def test_missing_file_and_unknown_edition():
    with pytest.raises(MapError, match="no such map file"):
        load_map("atlantis")
    with pytest.raises(MapError, match="unknown edition 'deluxe'"):
        load_map("germany", "deluxe")


def test_error_names_the_file(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps(_broken(lambda d: d["connections"].append(["A", "Dd", 1]))))
    with pytest.raises(MapError, match=r"x.json: connections\[5\]: unknown city 'Dd'.*'D'"):
        load_map(str(path))


# --- custom maps, round trip ---------------------------------------------------------------


def test_user_map_file_round_trip(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(_small_map(), ensure_ascii=False), encoding="utf-8")
    gm = load_map(path)
    assert gm.path == str(path) and gm.name == "tiny"
    assert list(gm.cities) == ["A", "B", "C", "D", "Ä"]
    assert gm.region_adjacency() == {"west": frozenset({"east"}), "east": frozenset({"west"})}
    assert gm.validate_regions(["east", "west"], 2) == ("east", "west")
    assert _dist(gm, ["west"], "A", "C") == 7
    assert _dist(gm, ["west", "east"], "A", "Ä") == 19
    assert gm.to_dict() == _small_map()
    again = load_map(gm.to_dict())
    assert again == gm and again.path is None
    assert load_map(path, "recharged").to_dict() == gm.to_dict()  # no block: base map


@pytest.mark.parametrize("name", MAPS)
@pytest.mark.parametrize("edition", ["original", "recharged"])
def test_builtin_to_dict_round_trip(name, edition):
    gm = load_map(name, edition)
    data = gm.to_dict()
    assert "editions" not in data
    assert json.loads(json.dumps(data)) == data
    again = load_map(data)
    assert again == gm and again.to_dict() == data
    assert load_map(gm.path, edition) == gm


def test_distance_matrix_unreachable_sentinel():
    data = _small_map()
    data["editions"] = {"cut": {"remove_connections": [["A", "B"]]}}
    gm = load_map(data, "cut")
    assert _dist(gm, ["west"], "A", "B") == 13
    gm2 = GameMap("t", "T", {"A": City("A", "r", 0, 0), "B": City("B", "r", 0, 1)},
                  {"r": "#000"}, [])
    assert _dist(gm2, ["r"], "A", "B") == UNREACHABLE


@pytest.mark.skipif(not SHARED_REF.is_dir(), reason="shared/ is not beside this checkout")
def test_reference_copy_matches_shared() -> None:
    """tests/reference_maps is an exact copy of the shared fact tables."""
    files = sorted(SHARED_REF.glob("*.csv"))
    assert files, f"no fact tables in {SHARED_REF}"
    for f in files:
        assert (REF / f.name).read_bytes() == f.read_bytes(), f.name
