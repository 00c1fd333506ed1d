"""Save files, scenario dicts and per-player views: round trips that continue identically, clean
SaveFileError on damaged or tampered data (never another exception, never a half-loaded game),
no pickle, observation() and for_player() hiding exactly the hidden cards (R10, R11, R119)."""

from __future__ import annotations

import contextlib
import copy
import json
import random
import re
import tempfile
from pathlib import Path

import pytest
from _helpers_props import (
    JUNK,
    card_census,
    check_invariants,
    city_of,
    deadline,
    game_params,
    label,
    leaves,
    make,
    outside_city,
    play,
    props,
    tamper_base,
)
from hypothesis import given
from hypothesis import strategies as st

import powergrid_nb
from powergrid_nb import Game, Open, SaveFileError, load, new_game
from powergrid_nb.engine.errors import SAVE_ERROR_CODES
from powergrid_nb.engine.events import CardDrawn, Decision, HouseBuilt, Income, PlantBought
from powergrid_nb.engine.rules.plants import ALL_CARDS, STEP3

HIDDEN = ("deck", "removed")


def _twins_to_the_end(g: Game, h: Game, seed: int) -> None:
    """Continue both games with the same choices; they must stay identical to the end."""
    rng = random.Random(seed)
    while not g.is_over:
        legal = g.legal_actions()
        assert h.legal_actions() == legal
        a = rng.choice(legal)
        g.apply(a)
        h.apply(a)
    assert h.is_over and h.to_dict() == g.to_dict()


@props(12)
@given(game_params(), st.integers(0, 700))
def test_save_load_continues_identically(params, cut):
    """save -> load gives the same to_dict(), and both games reach the same end (future draws too)."""
    g = make(params)
    play(g, random.Random(params["seed"]), cut)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        g.save(str(path))
        h = load(path)
    assert h.to_dict() == g.to_dict(), label(params)
    check_invariants(h)
    _twins_to_the_end(g, h, cut)


@pytest.mark.provisional
@props(6)
@given(game_params(trust=True), st.integers(0, 500))
def test_trust_game_save_load_continues_identically(params, cut):
    """O22 (provisional): a game against the Trust saved mid-way continues identically."""
    g = make(params)
    play(g, random.Random(params["seed"]), cut)
    h = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert h.to_dict() == g.to_dict(), label(params)
    _twins_to_the_end(g, h, cut)


@props(12)
@given(game_params(), st.integers(0, 700))
def test_from_dict_round_trip_continues_identically(params, cut):
    """Game.from_dict(g.to_dict()) (also through JSON text) is the same game, to the end; loading
    neither changes the dict nor keeps references into it."""
    g = make(params)
    play(g, random.Random(params["seed"]), cut)
    d = json.loads(json.dumps(g.to_dict()))
    kept = copy.deepcopy(d)
    h = Game.from_dict(d)
    assert d == kept
    assert h.to_dict() == g.to_dict(), label(params)
    d["state"]["market"].append(1)
    d["state"]["players"][g.players[0]]["plants"].append(1)
    assert h.to_dict() == g.to_dict()
    _twins_to_the_end(g, h, cut + 1)


# --- damaged files and tampered values -------------------------------------------------------

def _saved(tmp: str) -> tuple[Path, str]:
    g = new_game(3, seed=4)
    play(g, random.Random(4), 120)
    path = Path(tmp) / "g.json"
    g.save(str(path))
    return path, path.read_text(encoding="utf-8")


@pytest.mark.parametrize("damage", ["truncated", "invalid_json", "empty", "not_an_object"])
def test_damaged_file_raises_save_file_error_naming_the_file(damage, tmp_path):
    """A truncated or non-JSON file raises SaveFileError whose ``where`` is the file."""
    path, text = _saved(str(tmp_path))
    path.write_text({"truncated": text[: len(text) // 2], "invalid_json": text.replace(":", "=", 3),
                     "empty": "", "not_an_object": "[1, 2, 3]"}[damage], encoding="utf-8")
    with pytest.raises(SaveFileError) as e:
        load(path)
    assert e.value.where == str(path) and str(path) in str(e.value)


def test_missing_file_raises_save_file_error(tmp_path):
    with pytest.raises(SaveFileError) as e:
        load(tmp_path / "nothing.json")
    assert "nothing.json" in e.value.where


def _tamper(case: str, d: dict) -> None:
    st, cfg = d["state"], d["config"]
    pl = st["players"]
    if case == "wrong_schema_version":
        d["schema_version"] = 99
    elif case == "wrong_format":
        d["format"] = "chess.pgn"
    elif case == "negative_money":
        pl["Bo"]["money"] = -1
    elif case == "money_not_int":
        pl["Bo"]["money"] = "50"
    elif case == "duplicated_plant":
        pl["Bo"]["plants"].append(4)
    elif case == "missing_plant":
        st["market"].pop(0)
    elif case == "unknown_plant":
        st["market"][0] = 41
    elif case == "25_coal":
        st["resources"]["coal"] = 25
    elif case == "tokens_exceed_totals":
        st["resources"]["uranium"] = 12
        pl["Bo"]["tokens"]["uranium"] = 1
    elif case == "negative_tokens":
        pl["Cy"]["tokens"]["oil"] = -1
    elif case == "city_outside_play_area":
        out = outside_city(d)
        pl["Bo"]["cities"].append(out)
        st["houses"][out] = ["Bo"]
    elif case == "4_houses_in_a_city":
        st["step"] = 3
        c = city_of(d, 0)
        st["houses"][c] = ["Ada", "Bo", "Cy", "Dee"]
        for n in ("Bo", "Cy", "Dee"):
            pl[n]["cities"].append(c)
    elif case == "2_houses_in_step_1":
        c = city_of(d, 0)
        st["houses"][c].append("Cy")
        pl["Cy"]["cities"].append(c)
    elif case == "unknown_player_in_order":
        st["player_order"][2] = "Zed"
    elif case == "player_twice_in_order":
        st["player_order"][2] = st["player_order"][1]
    elif case == "tokens_do_not_fit_plants":
        pl["Ada"]["tokens"]["oil"] = 1
    elif case == "too_many_plants":
        pl["Bo"]["plants"] += [st["market"].pop(), st["market"].pop(), st["market"].pop()]
    elif case == "step3_card_owned":
        st["deck"].remove("step3")
        pl["Bo"]["plants"].append("step3")
    elif case == "unknown_edition":
        cfg["edition"] = "deluxe"
    elif case == "unknown_region":
        cfg["regions"][0] = "atlantis"
    elif case == "bad_trust_option":
        cfg["options"]["trust"] = "yes"
    elif case == "bad_trust_policy":
        cfg["options"]["trust_policy"] = 3
    elif case == "house_owner_not_a_name":
        st["houses"][city_of(d, 0)] = [["Ada"]]
    elif case == "houses_not_a_list":
        st["houses"][city_of(d, 0)] = 7
    elif case == "order_entry_not_a_name":
        st["player_order"][0] = {"name": "Ada"}
    elif case == "auction_without_bidders":
        st.update(phase=2, to_act=[])
        st["auction_round"] = {"active": ["Bo"], "bought": [], "discard": None, "first_draw": False,
                               "auction": {"plant": st["market"][0], "bid": 3, "leader": "Bo",
                                           "bidders": []}}
    elif case == "auction_bid_above_money":
        st.update(phase=2, to_act=[])
        pl["Bo"]["money"] = 5
        st["auction_round"] = {"active": ["Bo", "Cy"], "bought": [], "discard": None,
                               "first_draw": False,
                               "auction": {"plant": st["market"][0], "bid": 30, "leader": "Bo",
                                           "bidders": ["Cy", "Bo"]}}
    elif case == "discard_without_excess_plant":
        st.update(phase=2, to_act=[])
        st["auction_round"] = {"active": ["Cy"], "bought": [], "discard": "Cy", "first_draw": False,
                               "auction": None}
    elif case == "phase_1_has_no_decision":
        st["phase"] = 1
    elif case == "phase_1_without_to_act":
        st["phase"] = 1
        del st["to_act"]
    elif case == "over_phase_without_over_flag":
        st.update(phase=6, over=False)
    elif case == "step3_from_not_numbers":
        st["step3_from"] = ["Ada"]
    else:
        raise AssertionError(case)


WHERE = {
    "wrong_schema_version": "game.schema_version", "wrong_format": "game.format",
    "negative_money": "game.state.players.Bo", "money_not_int": "game.state.players.Bo.money",
    "duplicated_plant": "game.state", "missing_plant": "game.state", "unknown_plant": "game.state.market",
    "25_coal": "game.state.resources", "tokens_exceed_totals": "game.state.resources",
    "negative_tokens": "game.state.resources", "city_outside_play_area": "game.state.houses",
    "4_houses_in_a_city": "game.state.houses", "2_houses_in_step_1": "game.state.houses",
    "unknown_player_in_order": "game.state.player_order", "player_twice_in_order": "game.state.player_order",
    "tokens_do_not_fit_plants": "game.state.players.Ada", "too_many_plants": "game.state.players.Bo",
    "step3_card_owned": "game.state", "unknown_edition": "game.config.edition",
    "unknown_region": "game.config", "bad_trust_option": "game.config", "bad_trust_policy": "game.config",
    "house_owner_not_a_name": "game.state.houses", "houses_not_a_list": "game.state.houses",
    "order_entry_not_a_name": "game.state.player_order",
    "auction_without_bidders": "game.state.auction_round", "auction_bid_above_money": "game.state",
    "discard_without_excess_plant": "game.state", "phase_1_has_no_decision": "game.state",
    "phase_1_without_to_act": "game.state",
    "over_phase_without_over_flag": "game.state", "step3_from_not_numbers": "game.state.step3_from",
}


# Positions that no rule allows but that an engine could also repair on loading (run the
# automatic phase 1, set the over flag): SaveFileError or a consistent, playable game.
REPAIRABLE = {"phase_1_has_no_decision", "phase_1_without_to_act", "over_phase_without_over_flag"}


@pytest.mark.parametrize("case", list(WHERE))
def test_tampered_value_raises_save_file_error_naming_where(case, tmp_path):
    """R1/R4/R5-O2/R36/R49/R57-R58/R118 and the schema: a tampered save (file or dict) raises
    SaveFileError, never another exception, and its message names where the problem is."""
    d = tamper_base()
    Game.from_dict(copy.deepcopy(d))  # the untouched dict loads
    _tamper(case, d)
    try:
        with deadline(5, f"from_dict with {case}"):
            g = Game.from_dict(copy.deepcopy(d))
    except SaveFileError as e:
        assert e.where.startswith(WHERE[case]), f"{case}: where={e.where!r}: {e}"
    else:
        assert case in REPAIRABLE, f"{case}: loaded without SaveFileError"
        with deadline(5, f"playing after {case}"):
            check_invariants(g, {n: g.money(n) for n in g.players}, case)
            for a in g.legal_actions():
                g.copy().apply(a)
        return
    path = tmp_path / "t.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    with deadline(5, f"load with {case}"), pytest.raises(SaveFileError) as e:
        load(path)
    assert e.value.where == str(path) and WHERE[case] in str(e.value)


# The same tampered saves as data: where in the dict (SaveFileError.path) and what kind of problem
# (SaveFileError.code, one of SAVE_ERROR_CODES): what programs such as the scenario editor act on.
PATH_AND_CODE = {
    "wrong_schema_version": (("schema_version",), "unsupported_version"),
    "wrong_format": (("format",), "wrong_format"),
    "negative_money": (("state", "players", "Bo", "money"), "out_of_range"),
    "money_not_int": (("state", "players", "Bo", "money"), "bad_type"),
    "duplicated_plant": (("state",), "duplicate_card"),
    "missing_plant": (("state",), "missing_card"),
    "unknown_plant": (("state", "market"), "unknown_plant"),
    "25_coal": (("state", "resources", "coal"), "out_of_range"),
    "tokens_exceed_totals": (("state", "resources", "uranium"), "out_of_range"),
    "negative_tokens": (("state", "resources", "oil"), "out_of_range"),
    "city_outside_play_area": (("state", "houses", "Bremen"), "unknown_city"),
    "4_houses_in_a_city": (("state", "houses", "Berlin"), "over_limit"),
    "2_houses_in_step_1": (("state", "houses", "Berlin"), "over_limit"),
    "unknown_player_in_order": (("state", "player_order", 2), "unknown_player"),
    "player_twice_in_order": (("state", "player_order"), "mismatch"),
    "tokens_do_not_fit_plants": (("state", "players", "Ada", "tokens"), "over_limit"),
    "too_many_plants": (("state", "players", "Bo", "plants"), "over_limit"),
    "step3_card_owned": (("state",), "misplaced_card"),
    "unknown_edition": (("config", "edition"), "bad_value"),
    "unknown_region": (("config", "regions"), "bad_value"),
    "bad_trust_option": (("config", "options"), "bad_value"),
    "bad_trust_policy": (("config", "options"), "bad_value"),
    "house_owner_not_a_name": (("state", "houses", "Berlin"), "unknown_player"),
    "houses_not_a_list": (("state", "houses", "Berlin"), "bad_type"),
    "order_entry_not_a_name": (("state", "player_order", 0), "unknown_player"),
    "auction_without_bidders": (("state", "auction_round", "auction", "bidders"), "not_allowed"),
    "auction_bid_above_money": (("state", "auction_round", "auction", "bid"), "out_of_range"),
    "discard_without_excess_plant": (("state", "auction_round", "discard"), "not_allowed"),
    "phase_1_has_no_decision": (("state", "to_act"), "not_allowed"),
    "over_phase_without_over_flag": (("state", "over"), "mismatch"),
    "step3_from_not_numbers": (("state", "step3_from"), "bad_value"),
}


def test_every_tampered_case_has_its_path_and_code():
    assert set(PATH_AND_CODE) == set(WHERE) - {"phase_1_without_to_act"}  # that one loads (REPAIRABLE)


@pytest.mark.parametrize("case", list(PATH_AND_CODE))
def test_tampered_value_raises_the_documented_path_and_code(case, tmp_path):
    """Each kind of damage is reported as data: the path to the faulty value and a documented code,
    the same whether the dict or a file is read (the message text is free to change)."""
    d = tamper_base()
    _tamper(case, d)
    with pytest.raises(SaveFileError) as e:
        Game.from_dict(copy.deepcopy(d))
    assert (e.value.path, e.value.code) == PATH_AND_CODE[case]
    assert e.value.code in SAVE_ERROR_CODES
    path = tmp_path / "t.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(SaveFileError) as e:
        load(path)
    assert (e.value.path, e.value.code, e.value.file) == (*PATH_AND_CODE[case], str(path))


@props(200)
@given(game_params(), st.integers(0, 500), st.integers(0, 10**6), st.sampled_from([*JUNK, "<del>"]))
def test_any_single_edit_loads_consistently_or_raises_save_file_error(params, cut, which, junk):
    """A save with one value of its state replaced (or deleted) either raises SaveFileError or
    loads a consistent game in which the player to act has a move and every listed move applies."""
    g = make(params)
    play(g, random.Random(params["seed"]), cut)
    d = g.to_dict()
    paths = list(leaves(d))
    path = paths[which % len(paths)]
    node = d
    for k in path[:-1]:
        node = node[k]
    if junk == "<del>" and isinstance(node, dict):
        del node[path[-1]]
    else:
        node[path[-1]] = copy.deepcopy(junk)
    where = f"{label(params)} cut {cut}: {'.'.join(map(str, path))} = {junk!r}"
    try:
        with deadline(5, where):
            h = Game.from_dict(d)
    except SaveFileError:
        return
    own = {n: h.money(n) for n in h.players}
    check_invariants(h, own, where)
    with deadline(10, where):
        for a in h.legal_actions():
            h.copy().apply(a)
        play(h, random.Random(cut), 120,
             each=lambda x, a: check_invariants(x, {n: x.money(n) for n in x.players}, f"{where} {a}"))


def test_no_pickle_anywhere_in_the_package():
    """Saves and maps are JSON only: no engine module imports pickle, shelve, marshal or dill.

    (simulation.py alone ships jobs to worker processes, as multiprocessing and Dask do; nothing it
    pickles is ever written to or read from a file.)"""
    root = Path(powergrid_nb.__file__).parent
    bad = re.compile(r"^\s*(import|from)\s+(c?pickle|shelve|marshal|dill|joblib)\b", re.M)
    hits = [str(p.relative_to(root)) for p in root.rglob("*.py") if bad.search(p.read_text(encoding="utf-8"))]
    assert hits in ([], ["simulation.py"])


def _hand_written(phase: int) -> dict:
    regions = list(new_game(3, seed=8).regions)
    return {"format": "powergrid_nb.game", "schema_version": 1,
            "config": {"players": ["Ann", "Ben", "Cat"], "edition": "original", "map": "germany",
                       "regions": regions, "seed": 8},
            "state": {"round": 2, "phase": phase, "step": 1, "player_order": ["Ben", "Ann", "Cat"],
                      "seat_order": ["Ann", "Ben", "Cat"],
                      "players": {"Ann": {"money": 30, "plants": [8], "tokens": {"coal": 3}},
                                  "Ben": {"money": 41, "plants": [10]},
                                  "Cat": {"money": 25, "plants": [6], "tokens": {"garbage": 2}}},
                      "market": [3, 4, 5, 7, 9, 11, 12, 13], "removed": [], "boxed": [],
                      "resources": {"coal": 21, "oil": 18, "garbage": 4, "uranium": 2}}}


def test_hand_written_scenario_without_deck_loads_and_plays():
    """A scenario dict written by hand (no deck, houses, to_act or auction data) is completed with
    defaults: the unused cards are dealt into the deck with the Step 3 card last; it plays to the end."""
    d = _hand_written(3)
    g = Game.from_dict(d)
    deck = g.s.deck
    assert deck[-1] == STEP3 and len(deck) == 43 - 8 - 3
    assert set(card_census(g)) == ALL_CARDS
    assert g.phase == 3 and g.current_player == "Cat"  # R45: reverse order
    assert g.money("Ann") == 30 and g.tokens_of("Cat")["garbage"] == 2
    assert Game.from_dict(d).to_dict() == g.to_dict()  # the deal is seeded
    play(g, random.Random(8), each=lambda x, a: check_invariants(x, {n: x.money(n) for n in x.players}))
    assert g.is_over


@pytest.mark.parametrize("omit", ["auction_round", "seat_order"])
def test_hand_written_phase2_scenario_fills_documented_defaults(omit):
    """Phase 2 scenario without auction data (all players active, R25) or without the seat order
    (default: player order, O3) loads; the first player opens."""
    d = _hand_written(2)
    d["state"].pop(omit, None)
    g = Game.from_dict(d)
    assert g.current_player == "Ben" and g.s.active == [1, 0, 2]
    assert g.seat_order == (["Ben", "Ann", "Cat"] if omit == "seat_order" else ["Ann", "Ben", "Cat"])
    play(g, random.Random(9), 200, each=lambda x, a: check_invariants(x, {n: x.money(n) for n in x.players}))


def test_version_1_save_file_loads_with_typed_history(tmp_path):
    """A schema-version-1 save (history as prose rows) still loads; its payment rows are folded into
    what they paid for, so the history comes back typed (a plant bought for 14, not a "pay" row)."""
    d = _hand_written(3)
    d["history"] = [[1, 2, 1, "Ann", "open", 13, "Ann: open 13 at 14"],
                    [1, 2, 1, "Ann", "pay", -14, "buys plant 13"],
                    [1, 2, 1, "Ann", "plant", 13, "takes plant"],
                    [1, 2, 1, None, "draw", 20, "draws plant 20"]]
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    g = load(path)
    assert g.history == [Decision(1, 2, 1, "Ann", Open("Ann", 13, 14)), PlantBought(1, 2, 1, "Ann", 13, 14),
                         CardDrawn(1, 2, 1, 20)]
    assert [e.money_delta for e in g.history] == [0, -14, 0]
    assert g.to_dict()["schema_version"] == 2 and Game.from_dict(g.to_dict()).history == g.history


def test_save_load_keeps_the_history(tmp_path):
    """save -> load gives back the same typed history, event for event (decisions, payments, draws)."""
    g = new_game(4, seed=5)
    play(g, random.Random(5), 300)
    path = tmp_path / "g.json"
    g.save(str(path))
    h = load(path)
    assert h.history == g.history and len(g.history) > 300
    assert {type(e) for e in g.history} >= {Decision, PlantBought, CardDrawn, HouseBuilt, Income}


@props(12)
@given(game_params(), st.integers(0, 600))
def test_observation_hides_deck_order_removed_cards_and_seed(params, cut):
    """observation(p) = to_dict() except: deck order (only size, public top hint, known bottom),
    removed cards (only their number) and the seed."""
    g = make(params)
    play(g, random.Random(params["seed"]), cut)
    full = g.to_dict()
    for name in g.players:
        obs = g.observation(name)
        json.dumps(obs)
        assert obs["viewer"] == name and obs["config"]["seed"] is None
        deck = obs["state"]["deck"]
        assert set(deck) == {"size", "top", "known_bottom"} and deck["size"] == len(g.s.deck)
        assert obs["state"]["removed"] == {"size": len(g.s.removed)}
        tail = g.s.deck[g.s.deck.index(STEP3):] if STEP3 in g.s.deck else []
        assert deck["known_bottom"] == ["step3" if c == STEP3 else c for c in tail]
        if g.s.top_known:
            assert deck["top"] == full["state"]["deck"][0]
        elif params["edition"] == "original" or not g.s.deck or g.s.deck[0] == STEP3:
            assert deck["top"] is None
        else:
            assert deck["top"] == ("plug" if g.s.deck[0] <= 15 else "socket")  # R119
        for key, value in full["state"].items():
            if key not in HIDDEN:
                assert obs["state"][key] == value, key
        assert obs["history"] == full["history"]
        assert {k: v for k, v in obs["config"].items() if k != "seed"} == \
            {k: v for k, v in full["config"].items() if k != "seed"}


@props(12)
@given(game_params(), st.integers(0, 600), st.integers(0, 2**32 - 1))
def test_for_player_keeps_the_public_state_and_redeals_hidden_cards(params, cut, seed):
    """for_player(name, seed): market, money, houses, resources, plants and tokens identical; the
    same deck size and removed count; the same hidden cards overall; the known top card and the
    cards under the Step 3 card kept; reproducible for a seed; a playable game."""
    g = make(params)
    play(g, random.Random(params["seed"]), cut)
    name = g.players[seed % len(g.players)]
    h = g.for_player(name, seed)
    a, b = g.to_dict()["state"], h.to_dict()["state"]
    for key in a:
        if key not in HIDDEN:
            assert b[key] == a[key], key
    assert len(h.s.deck) == len(g.s.deck) and len(h.s.removed) == len(g.s.removed)
    assert sorted(h.s.deck + h.s.removed) == sorted(g.s.deck + g.s.removed)
    if STEP3 in g.s.deck:
        cut3 = g.s.deck.index(STEP3)
        assert h.s.deck[cut3:] == g.s.deck[cut3:]
    if g.s.top_known and g.s.deck:
        assert h.s.deck[0] == g.s.deck[0]
    assert h.observation(name) == g.observation(name) | {"config": h.observation(name)["config"]}
    assert g.for_player(name, seed).to_dict() == h.to_dict()
    check_invariants(h)
    play(h, random.Random(seed), 100, each=lambda x, _: check_invariants(x))


# --- the discount token in a scenario (R40-R44) ------------------------------------------------------

def _recharged_phase2() -> dict:
    """A Recharged game at the start of round 1's phase 2, as a scenario without auction data."""
    d = new_game(["Ann", "Ben", "Cat"], edition="recharged", seed=3).to_dict()
    d["state"].pop("auction_round", None)
    return d


def test_recharged_phase2_scenario_without_discount_places_it_on_the_lowest_plant():
    """R40: at the start of phase 2 the token lies on the lowest plant of the current market."""
    d = _recharged_phase2()
    lowest = min(c for c in d["state"]["market"] if isinstance(c, int))
    d["state"].pop("discount")
    g = Game.from_dict(d)
    assert g.discount == lowest and g.min_bid(lowest) == 1


def test_recharged_phase2_scenario_in_mid_phase_must_say_where_the_discount_is():
    """Once auctions ran, the token may be sold or boxed (R41-R43): the dict must say, else it is refused."""
    d = new_game(["Ann", "Ben", "Cat"], edition="recharged", seed=3).to_dict()
    d["state"].pop("discount")
    with pytest.raises(SaveFileError, match=r"must say where the discount token lies.*R40-R43") as e:
        Game.from_dict(d)
    assert e.value.where == "game.state.discount"


def test_original_edition_scenario_cannot_have_a_discount_token():
    d = new_game(3, seed=3).to_dict()
    d["state"]["discount"] = min(c for c in d["state"]["market"] if isinstance(c, int))
    with pytest.raises(SaveFileError, match="original edition has no discount token"):
        Game.from_dict(d)


def test_discount_token_outside_phase_2_is_refused():
    """R44: the discount has no meaning outside phase 2."""
    d = _hand_written(3)
    d["config"]["edition"] = "recharged"
    d["state"]["discount"] = 3
    with pytest.raises(SaveFileError, match=r"only during phase 2 \(R44\), not in phase 3"):
        Game.from_dict(d)


# --- a file that is not a save: only ever SaveFileError, with a clear message --------------------------
def _koeln_save() -> str:
    """The text of a save in which Ada owns Köln and Münster."""
    from _position import position

    return json.dumps(position(3, regions=["red", "blue", "cyan"],
                               who={"Ada": {"cities": ["Köln", "Münster"]}}).to_dict(), ensure_ascii=False)


def test_a_save_re_encoded_as_windows_1252_is_a_save_file_error_saying_so(tmp_path):
    path = tmp_path / "koeln.json"
    path.write_bytes(_koeln_save().encode("cp1252"))
    with pytest.raises(SaveFileError) as e:
        load(path)
    assert e.value.code == "not_json" and e.value.file == str(path)
    assert "not UTF-8 text" in str(e.value) and "Windows-1252" in str(e.value)


def test_a_binary_file_is_a_save_file_error(tmp_path):
    path = tmp_path / "program"
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    with pytest.raises(SaveFileError, match="not UTF-8 text"):
        load(path)


DEEP_OBJECTS = '{"format": "powergrid_nb.game", "x": ' + '{"a": ' * 50_000 + "1" + "}" * 50_001


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, DEEP_OBJECTS], ids=["lists", "objects"])
def test_json_nested_too_deep_is_a_save_file_error(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SaveFileError, match="nested too deep") as e:
        load(path)
    assert e.value.code == "not_json"


def test_a_number_too_long_to_read_is_a_save_file_error(tmp_path):
    path = tmp_path / "long.json"
    path.write_text('{"format": ' + "9" * 5000 + "}", encoding="utf-8")
    with pytest.raises(SaveFileError, match="not a save"):
        load(path)


def test_data_nested_too_deep_for_python_is_a_save_file_error():
    d = tamper_base()
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    d["config"]["regions"] = deep
    with pytest.raises(SaveFileError):
        Game.from_dict(d)


def _with_decision() -> tuple[dict, int]:
    g = new_game(3, seed=3)
    for _ in range(8):
        g.apply(g.legal_actions()[0])
    d = g.to_dict()
    return d, next(i for i, row in enumerate(d["history"]) if row[0] == "decision")


@pytest.mark.parametrize("junk", [{"player": "Ada", "kind": "pass"}, ["Ada: pass"], 5, None])
def test_a_decision_that_is_not_text_is_a_save_file_error_at_that_event(junk):
    d, i = _with_decision()
    d["history"][i][5] = junk
    with pytest.raises(SaveFileError, match="a decision's action is text such as") as e:
        Game.from_dict(d)
    assert e.value.path == ("history", i)


@pytest.mark.parametrize(("row", "says"), [
    (["phase", 1, 1, 1, "two"], "number must be an integer"),
    (["phase", 1, 1, 1, 99], "cannot be told"),
    (["market", 1, 1, 1, {"coal": 24}], "tokens must be four integers"),
    (["market", 1, 1, 1, [24, 18]], "tokens must be four integers"),
    (["order", 1, 1, 1, [["Ada"]]], "order must be a list of texts"),
    (["plant", 1, 2, 1, "Ada", 3.5, 3], "plant must be an integer"),
    (["house", 1, 4, 1, "Ada", ["Essen"], 10], "city must be text"),
    (["game_over", 9, 6, 3, [["Ada", "x"]]], "scores must be a list of [name, integer] pairs"),
])
def test_an_event_field_of_the_wrong_type_is_a_save_file_error_at_that_event(row, says):
    d = tamper_base()
    d["history"] = [row]
    with pytest.raises(SaveFileError, match=re.escape(says)) as e:
        Game.from_dict(d)
    assert e.value.path == ("history", 0) and e.value.code == "bad_value"


def test_every_event_field_type_is_one_the_reader_checks():
    from dataclasses import fields

    from powergrid_nb.engine.events import _TYPE_WORDS, EVENT_TYPES

    kinds = {str(f.type) for cls in EVENT_TYPES.values() for f in fields(cls)}
    assert kinds - set(_TYPE_WORDS) == {"Action"}  # a decision's action is parsed from its text


def test_a_played_games_history_passes_the_event_checks():
    g = new_game(4, seed=5)
    play(g, random.Random(5), 400)
    assert Game.from_dict(json.loads(json.dumps(g.to_dict()))).to_dict() == g.to_dict()


@props(100)
@given(st.binary(max_size=300))
def test_any_bytes_load_or_raise_save_file_error(data):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "x.json"
        path.write_bytes(data)
        with pytest.raises(SaveFileError):
            load(path)


SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
JSON = st.recursive(SCALARS,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                max_size=4),
                    max_leaves=12)


def _everywhere(d: object, pre: tuple = ()) -> list[tuple]:
    """Paths to every value of a save dict: config, state and history."""
    out = [pre] if pre else []
    items = d.items() if isinstance(d, dict) else enumerate(d) if isinstance(d, list) else ()
    for k, v in items:
        out += _everywhere(v, (*pre, k))
    return out


_BASE = None


@props(300, quick=60)
@given(st.integers(0, 10**6), JSON)
def test_any_value_anywhere_replaced_by_any_json_loads_or_raises_save_file_error(which, junk):
    """Config, state or history: a value replaced by arbitrary JSON never escapes as another exception."""
    global _BASE
    if _BASE is None:
        g = new_game(3, seed=2)
        play(g, random.Random(2), 120)
        _BASE = g.to_dict()
    d = copy.deepcopy(_BASE)
    paths = _everywhere(d)
    path = paths[which % len(paths)]
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = junk
    with contextlib.suppress(SaveFileError):
        Game.from_dict(d)
