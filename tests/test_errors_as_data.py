"""Errors as data: a SaveFileError says where in the save or scenario dict the problem is (``path``) and
what kind of problem it is (``code``, one of SAVE_ERROR_CODES), next to its message; a scenario's
problems carry the same path and code, and the editor's fields are found from them, never from the
message's words (rewording every message leaves every problem on its field)."""

from __future__ import annotations

import ast
import copy
import json
import pickle
from pathlib import Path

import pytest
from _helpers_props import tamper_base
from _position import random_game
from test_io import PATH_AND_CODE, _tamper

import powergrid_nb
import powergrid_nb.position.checks as checks
from powergrid_nb import Game, SaveFileError, load
from powergrid_nb.engine.errors import SAVE_ERROR_CODES
from powergrid_nb.position.scenario import Scenario


@pytest.fixture(scope="module")
def mid_game() -> Game:
    """Round 3, phase 5 of a seeded 3-player game: Ada [7, 8, 10], Bo [6, 9] in Aachen, Cy [3, 4, 11]."""
    return random_game(3, seed=2, moves=60)


# --- SaveFileError -------------------------------------------------------------------------------------
def test_the_message_names_the_place_in_the_dict_then_what_is_wrong():
    e = SaveFileError("money cannot be negative (O2)", ("state", "players", "Ada", "money"), "out_of_range")
    assert str(e) == "game.state.players.Ada.money: money cannot be negative (O2)"
    assert e.where == "game.state.players.Ada.money"
    assert (e.reason, e.file) == ("money cannot be negative (O2)", None)


def test_a_list_position_in_the_path_shows_in_brackets():
    e = SaveFileError("each event is [kind, round, phase, step, *fields]", ("history", 3), "bad_value")
    assert e.where == "game.history[3]"


def test_an_error_about_the_whole_file_names_no_place_in_it(tmp_path):
    path = tmp_path / "cut.json"
    path.write_text('{"format": "powergrid_nb.game", "sche', encoding="utf-8")
    with pytest.raises(SaveFileError) as e:
        load(path)
    assert (e.value.path, e.value.code, e.value.file) == ((), "not_json", str(path))
    assert str(e.value).startswith(f"{path}: not valid JSON")


def test_a_file_that_cannot_be_read_is_unreadable(tmp_path):
    with pytest.raises(SaveFileError) as e:
        load(tmp_path / "nothing.json")
    assert (e.value.path, e.value.code) == ((), "unreadable")


def test_an_error_read_from_a_file_keeps_its_path_and_code_and_names_the_file_first(mid_game, tmp_path):
    d = mid_game.to_dict()
    d["state"]["players"]["Ada"]["money"] = -1
    path = tmp_path / "s.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(SaveFileError) as e:
        load(path)
    assert (e.value.path, e.value.code) == (("state", "players", "Ada", "money"), "out_of_range")
    assert str(e.value) == f"{path}: game.state.players.Ada.money: money cannot be negative (O2)"
    assert str(tmp_path) not in e.value.reason  # the file is named once, in front


def test_a_save_file_error_survives_pickling_with_its_data():
    e = SaveFileError("5 plants exceed the limit of 3 (R36)", ("state", "players", "Bo", "plants"),
                      "over_limit", file="x.json", allowed=3)
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is SaveFileError and str(back) == str(e)
    assert (back.path, back.code, back.allowed) == (e.path, e.code, 3)
    assert back.file == back.where == "x.json"


def test_a_code_outside_the_documented_set_is_refused():
    with pytest.raises(ValueError, match="not a SaveFileError code"):
        SaveFileError("whatever", (), "oops")


def test_it_stays_a_power_grid_error_and_a_value_error():
    e = SaveFileError("missing", ("state", "market"), "missing")
    assert isinstance(e, powergrid_nb.PowerGridError) and isinstance(e, ValueError)


def _codes_raised(source: str) -> list[tuple[int, object]]:
    """(line, the code argument) of every SaveFileError(...) and reader .fail(...) call in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        at = {"SaveFileError": 2, "fail": 1}.get(name)
        if at is None:
            continue
        arg = next((k.value for k in node.keywords if k.arg == "code"), None)
        if arg is None:
            arg = node.args[at] if len(node.args) > at else None
        if not (isinstance(arg, ast.Name) and arg.id == "code"):  # a reader passing its caller's code on
            found.append((node.lineno, arg))
    return found


def _constants(arg: object) -> list[object]:
    if isinstance(arg, ast.Constant):
        return [arg.value]
    if isinstance(arg, ast.IfExp):
        return _constants(arg.body) + _constants(arg.orelse)
    return [arg]  # not a literal: refused below


@pytest.mark.parametrize("module", ["engine/io/saves.py", "position/scenario.py", "panels/editor.py"])
def test_every_raise_names_a_documented_code(module):
    """Each raise chooses its code where it is written, from SAVE_ERROR_CODES."""
    source = (Path(powergrid_nb.__file__).parent / module).read_text(encoding="utf-8")
    raised = _codes_raised(source)
    assert raised
    for line, arg in raised:
        if module.endswith("scenario.py") and isinstance(arg, ast.IfExp):
            continue  # Scenario.game(): the first problem's code, checked where Problem is built
        for code in _constants(arg):
            assert code in SAVE_ERROR_CODES, f"{module}:{line}: code {code!r}"


def test_every_documented_code_is_explained():
    assert all(isinstance(v, str) and v for v in SAVE_ERROR_CODES.values())


# --- scenario problems ------------------------------------------------------------------------------
def test_a_problem_carries_the_engines_path_and_code(mid_game):
    sc = Scenario.from_game(mid_game)
    sc.set_money("Ada", -1)
    (p,) = sc.problems()
    assert (p.field, p.path, p.code) == (("player", "Ada", "money"), ("state", "players", "Ada", "money"),
                                         "out_of_range")


def test_a_position_the_engine_cannot_play_on_from_says_so_as_its_code(mid_game, monkeypatch):
    def stuck(_data, _cls):
        raise IndexError("no player to act")

    monkeypatch.setattr(checks, "game_from_dict", stuck)
    (p,) = Scenario.from_game(mid_game).problems()
    assert (p.field, p.path, p.code) == (("state",), ("state",), checks.CANNOT_CONTINUE)


def reworded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message of the loader replaced by words that share nothing with the old ones (no names,
    no rule numbers, no numbers): only the path, the code and the allowed value are left."""
    real = checks.game_from_dict

    def load_reworded(data, cls):
        try:
            return real(data, cls)
        except SaveFileError as e:
            raise SaveFileError(f"reworded {e.code}", e.path, e.code, allowed=e.allowed) from None

    monkeypatch.setattr(checks, "game_from_dict", load_reworded)


@pytest.mark.parametrize("case", list(PATH_AND_CODE))
def test_rewording_the_loaders_messages_leaves_every_problem_on_its_field(case, monkeypatch):
    d = tamper_base()
    _tamper(case, d)
    before = [(p.field, p.path, p.code) for p in Scenario(copy.deepcopy(d)).problems()]
    sketch = Scenario(copy.deepcopy(d)).sketch()
    reworded(monkeypatch)
    sc = Scenario(copy.deepcopy(d))
    assert [(p.field, p.path, p.code) for p in sc.problems()] == before
    assert all("reworded" in p.message for p in sc.problems())
    again = sc.sketch()
    assert (None if sketch is None else sketch.to_dict()) == (None if again is None else again.to_dict())


EDITS = {  # an edit of the seeded mid-game position -> the fields its problems belong to
    "money": (lambda sc: sc.set_money("Ada", -1), [("player", "Ada", "money")]),
    "tokens": (lambda sc: sc.set_tokens("Cy", {"uranium": 3}), [("player", "Cy", "tokens")]),
    "resources": (lambda sc: sc.set_resources({"coal": 24}), [("market", "coal")]),
    "plant_owned_twice": (lambda sc: sc.set_plants("Bo", [6, 9, 7]),
                          [("player", "Ada", "plants"), ("player", "Bo", "plants")]),
    "second_house_at_step_1": (lambda sc: sc.toggle_city("Ada", "Aachen"), [("player", "Ada", "cities")]),
    "outside_the_play_area": (lambda sc: sc.toggle_city("Cy", "München"), [("player", "Cy", "cities")]),
    "step": (lambda sc: sc.set_step(4), [("turn", "step")]),
    "order": (lambda sc: sc.set_order(["Ada", "Bo"]), [("turn", "order")]),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_rewording_the_loaders_messages_leaves_an_edits_problem_on_its_field(edit, mid_game, monkeypatch):
    apply, fields = EDITS[edit]
    reworded(monkeypatch)
    sc = Scenario.from_game(mid_game)
    apply(sc)
    assert [p.field for p in sc.problems()] == fields
    assert all(p.message.split(": ")[-1].startswith("reworded") for p in sc.problems())


def test_too_many_cities_keep_as_many_as_the_limit_allows_whatever_the_words(monkeypatch):
    """R67: the limit the reset keeps comes with the error (``allowed``), not from its message."""
    reworded(monkeypatch)
    sc = Scenario.new(6, seed=3)
    sc.set_step(3)
    area = Scenario.new(6, seed=3).game().play_area
    sc.set_cities("Ada", area[:23])
    [p] = sc.problems()
    assert (p.field, p.code) == (("player", "Ada", "cities"), "over_limit")
    assert sc.sketch().cities_of("Ada") == list(area[:22])
