"""The scenario editor: every edit is checked by the engine at once, its message shown in red
next to the field it belongs to; an invalid position can be neither played nor saved; a click on the map
toggles a house; a saved scenario loads back as the same position and plays in the table; what the editor
shows always equals a fresh editor built on its scenario."""

from __future__ import annotations

import base64
import html
import json
import re
from datetime import UTC, datetime

import pytest
from _panels import click_errors_fail  # noqa: F401 (autouse)
from _position import random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plotly.callbacks import Points
from test_errors_as_data import reworded

from powergrid_nb import Game, SaveFileError, rule
from powergrid_nb.engine.rules.plants import RESOURCES
from powergrid_nb.panels.editor import ScenarioEditor
from powergrid_nb.panels.snapshot import diff, snapshot
from powergrid_nb.panels.table import Table
from powergrid_nb.position.scenario import Scenario, problems
from powergrid_nb.views.mapboard import board, fit_height, table_width


@pytest.fixture(scope="module")
def mid_game() -> Game:
    """Round 3, phase 5 of a seeded 3-player game: Ada [7, 8, 10], Bo [6, 9] in Aachen, Cy [3, 4, 11]."""
    return random_game(3, seed=2, moves=60)


@pytest.fixture
def editor(mid_game) -> ScenarioEditor:
    return ScenarioEditor(mid_game)


def shown_errors(ed: ScenarioEditor) -> dict[tuple[str, ...], str]:
    """The fields showing a problem, with the text shown (tags stripped)."""
    return {f: html.unescape(re.sub(r"<[^>]+>", " ", box.value)) for f, box in ed.errors.items() if box.value}


def click_city(ed: ScenarioEditor, city: str) -> None:
    """Click a city on the editor's map (the plotly click of its marker)."""
    for trace in ed.map.data:
        if trace.legendgroup == "regions" and city in trace.text:
            trace._dispatch_on_click(Points(point_inds=[list(trace.text).index(city)]), None)
            return
    raise AssertionError(f"no city {city!r} on the map")


def houses_drawn(ed: ScenarioEditor, player: str) -> list[str]:
    """The cities where the map draws ``player``'s houses (their trace's hover data)."""
    for t in ed.map.data:
        if t.name == player and t.legendgroup == "players" and t.customdata is not None:
            return sorted(str(c[0]) for c in t.customdata if c is not None and c[0] is not None)
    return []


def test_an_invalid_edit_shows_the_engines_message_next_to_its_field(editor):
    editor.fields["Ada"]["money"].value = -5
    errors = shown_errors(editor)
    assert list(errors) == [("player", "Ada", "money")]
    assert "Ada: money cannot be negative (O2)" in errors[("player", "Ada", "money")]
    assert "1 problem" in editor.summary.value and "money cannot be negative" in editor.summary.value


def test_tokens_that_do_not_fit_show_the_rule_in_words_next_to_the_tokens(editor):
    editor.fields["Cy"]["tokens"]["uranium"].value = 3
    errors = shown_errors(editor)
    assert list(errors) == [("player", "Cy", "tokens")]
    assert "do not fit plants [3, 4, 11] (R49)" in errors[("player", "Cy", "tokens")]
    assert rule("R49").text[:60] in errors[("player", "Cy", "tokens")]


def test_a_plant_owned_twice_shows_on_both_owners_plants(editor):
    editor.fields["Bo"]["plants"].value = ["6", "9", "7"]  # 7 is Ada's
    assert set(shown_errors(editor)) == {("player", "Ada", "plants"), ("player", "Bo", "plants")}


WIDGET_EDITS = {  # an edit made in the editor's widgets -> the fields that show its problem
    "money": (lambda ed: setattr(ed.fields["Ada"]["money"], "value", -5), {("player", "Ada", "money")}),
    "tokens": (lambda ed: setattr(ed.fields["Cy"]["tokens"]["uranium"], "value", 3),
               {("player", "Cy", "tokens")}),
    "resources": (lambda ed: setattr(ed.market["coal"], "value", 30), {("market", "coal")}),
    "plant_owned_twice": (lambda ed: setattr(ed.fields["Bo"]["plants"], "value", ["6", "9", "7"]),
                          {("player", "Ada", "plants"), ("player", "Bo", "plants")}),
    "second_house": (lambda ed: setattr(ed.fields["Ada"]["cities"], "value", "Aachen"),
                     {("player", "Ada", "cities")}),
    "order": (lambda ed: setattr(ed.order, "value", "Ada, Bo"), {("turn", "order")}),
}


@pytest.mark.parametrize("edit", list(WIDGET_EDITS))
def test_the_editor_puts_a_problem_on_its_field_by_its_path_whatever_the_words(editor, monkeypatch, edit):
    """The loader's messages reworded (same path and code, other words): the same fields show them."""
    reworded(monkeypatch)
    apply, fields = WIDGET_EDITS[edit]
    apply(editor)
    errors = shown_errors(editor)
    assert set(errors) == fields
    assert all("reworded" in text for text in errors.values())


def test_an_invalid_position_can_be_neither_played_nor_saved(editor):
    editor.market["coal"].value = 30
    assert editor.play_button.disabled and editor.save_button.disabled
    with pytest.raises(SaveFileError, match="coal: market 30"):
        editor.game()


def test_fixing_the_field_lets_the_position_be_played_and_saved_again(editor):
    editor.market["coal"].value = 30
    editor.market["coal"].value = 2
    assert shown_errors(editor) == {}
    assert not editor.play_button.disabled and not editor.save_button.disabled
    assert "A valid position" in editor.summary.value


def test_the_map_is_laid_out_as_the_play_tables(editor, mid_game):
    """The editor's map is the table's layout (shipped, nothing clashing): Germany drawn at 700x640
    had 19 names or costs on others."""
    width = table_width(mid_game)
    assert (editor.map.layout.width, editor.map.layout.height) == (width, fit_height(mid_game, width))
    assert board(mid_game).clashes == ()


def test_clicking_a_city_on_the_map_adds_a_house_of_the_chosen_player(editor):
    editor.who.value = "Cy"
    click_city(editor, "Berlin")
    assert editor.scenario.cities("Cy") == ["Berlin"]
    assert editor.fields["Cy"]["cities"].value == "Berlin"
    assert houses_drawn(editor, "Cy") == ["Berlin"]


def test_clicking_the_city_again_takes_the_house_away(editor):
    editor.who.value = "Cy"
    click_city(editor, "Berlin")
    click_city(editor, "Berlin")
    assert editor.scenario.cities("Cy") == [] and houses_drawn(editor, "Cy") == []


def test_a_second_house_at_step_1_shows_R58_on_the_newcomers_cities(editor):
    editor.who.value = "Ada"
    click_city(editor, "Aachen")  # Bo's house is there
    errors = shown_errors(editor)
    assert list(errors) == [("player", "Ada", "cities")]
    assert "Aachen: 2 houses, Step 1 allows 1 (R58)" in errors[("player", "Ada", "cities")]
    editor.step.value = 2
    assert shown_errors(editor) == {} and houses_drawn(editor, "Ada") == ["Aachen"]


def test_a_city_outside_the_play_area_shows_R4_on_the_players_cities(editor):
    editor.fields["Bo"]["cities"].value = "Aachen, München"
    errors = shown_errors(editor)
    assert list(errors) == [("player", "Bo", "cities")]
    assert "'München' is not a city of the play area (R4)" in errors[("player", "Bo", "cities")]


def test_a_saved_scenario_downloads_and_loads_back_as_the_same_position(editor):
    editor.fields["Ada"]["money"].value = 77
    editor.save_button.click()
    href = re.search(r"href='data:application/json;base64,([^']+)'", editor.download.value)
    assert href and "download='scenario.json'" in editor.download.value
    text = base64.b64decode(href.group(1)).decode("utf-8")
    loaded = Scenario.from_json(text)
    assert loaded.to_dict() == editor.scenario.to_dict()
    assert loaded.game().to_dict() == editor.game().to_dict()


def test_an_edit_after_saving_withdraws_the_download_of_the_old_position(editor):
    editor.save_button.click()
    editor.fields["Ada"]["money"].value = 78
    assert editor.download.value == ""


def test_an_edited_position_opens_in_the_play_table(editor):
    editor.fields["Cy"]["money"].value = 90
    editor.phase.value = 2
    table = editor.open_table()
    try:
        assert isinstance(table, Table)
        assert table.game.to_dict()["state"] == editor.game().to_dict()["state"]
        assert table.game.money("Cy") == 90 and table.game.phase == 2
    finally:
        table.close()


def test_open_in_play_table_hands_the_position_to_on_open(mid_game):
    got: list[Game] = []
    ed = ScenarioEditor(mid_game, on_open=got.append)
    ed.fields["Bo"]["money"].value = 1
    ed.play_button.click()
    assert [g.money("Bo") for g in got] == [1]


def test_a_fork_is_a_new_editor_of_the_same_position_and_independent(editor):
    editor.fields["Ada"]["money"].value = 5
    fork = editor.fork()
    fork.fields["Ada"]["money"].value = 6
    assert editor.scenario.money("Ada") == 5 and fork.scenario.money("Ada") == 6


def test_the_form_starts_a_new_position(editor):
    editor.f_players.value, editor.f_edition.value, editor.f_seed.value = 5, "recharged", 4
    editor.new_button.click()
    assert editor.scenario.participants == ["Ada", "Bo", "Cy", "Dee", "Eli"]
    assert editor.scenario.edition == "recharged" and shown_errors(editor) == {}


def upload(ed: ScenarioEditor, name: str, content: bytes) -> None:
    ed.upload.value = ({"name": name, "type": "application/json", "size": len(content),
                        "content": memoryview(content),
                        "last_modified": datetime.now(UTC)},)


def test_an_uploaded_save_file_is_opened_for_editing(editor, mid_game):
    other = random_game(4, seed=5, moves=30)
    upload(editor, "game.json", json.dumps(other.to_dict()).encode())
    assert editor.scenario.participants == other.players
    assert editor.game().to_dict()["state"] == other.to_dict()["state"]


def test_an_uploaded_invalid_scenario_opens_with_its_problems_shown(editor, mid_game):
    d = mid_game.to_dict()
    d["state"]["players"]["Bo"]["money"] = -2
    upload(editor, "bad.json", json.dumps(d).encode())
    assert list(shown_errors(editor)) == [("player", "Bo", "money")]
    assert editor.play_button.disabled


def test_an_uploaded_file_that_is_not_a_scenario_says_why_and_keeps_the_position(editor):
    before = editor.scenario.to_dict()
    upload(editor, "notes.json", b"{not json")
    assert "notes.json cannot be opened: scenario: not a JSON scenario" in editor.source_msg.value
    assert editor.scenario.to_dict() == before


def test_an_uploaded_file_is_not_kept_in_the_upload_widget(editor, mid_game):
    upload(editor, "game.json", json.dumps(mid_game.to_dict()).encode())
    assert editor.upload.value == ()


# --- what the editor shows, after any edits, is a fresh build of its scenario ---------------------------

NAMES = ["Ada", "Bo", "Cy"]
EDITS = st.lists(st.one_of(
    st.tuples(st.just("money"), st.sampled_from(NAMES), st.integers(-3, 60)),
    st.tuples(st.just("tokens"), st.sampled_from(NAMES), st.sampled_from(RESOURCES), st.integers(-1, 5)),
    st.tuples(st.just("plants"), st.sampled_from(NAMES),
              st.lists(st.sampled_from(["3", "4", "6", "7", "8", "10", "13", "20", "50"]), max_size=4,
                       unique=True)),
    st.tuples(st.just("click"), st.sampled_from(NAMES),
              st.sampled_from(["Aachen", "Berlin", "Köln", "München", "Trier"])),
    st.tuples(st.just("cities"), st.sampled_from(NAMES), st.sampled_from(["", "Trier", "Köln, Trier",
                                                                          "Nowhere"])),
    st.tuples(st.just("market"), st.sampled_from(RESOURCES), st.integers(0, 26)),
    st.tuples(st.just("step"), st.sampled_from([1, 2, 3])),
    st.tuples(st.just("phase"), st.sampled_from([2, 3, 4, 5])),
    st.tuples(st.just("round"), st.integers(0, 4)),
    st.tuples(st.just("order"), st.sampled_from(["Ada, Bo, Cy", "Cy, Bo, Ada", "Ada, Bo"])),
    st.tuples(st.just("deck"), st.sampled_from([["50"], ["46", "44"], []])),
), min_size=1, max_size=5)


def edit(ed: ScenarioEditor, e: tuple) -> None:
    kind, *args = e
    if kind in ("money", "plants", "cities"):
        ed.fields[args[0]][kind].value = args[1]
    elif kind == "tokens":
        ed.fields[args[0]]["tokens"][args[1]].value = args[2]
    elif kind == "click":
        ed.who.value = args[0]
        click_city(ed, args[1])
    elif kind == "market":
        ed.market[args[0]].value = args[1]
    elif kind == "deck":
        ed.deck.value = args[0] + list(ed.deck.value[len(args[0]):])
    else:
        getattr(ed, kind).value = args[0]


def assert_shows_a_fresh_build(ed: ScenarioEditor, after: str) -> None:
    fresh = ScenarioEditor(ed.scenario.to_dict())
    fresh.who.value = ed.who.value
    try:
        live, new = snapshot(ed), snapshot(fresh)
    finally:
        fresh.close()
    assert live == new, f"after {after}:\n  " + "\n  ".join(diff(live, new, limit=12))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(EDITS)
def test_the_editor_always_shows_the_scenarios_problems_and_a_fresh_build(mid_game, edits):
    ed = ScenarioEditor(mid_game)
    try:
        for i, e in enumerate(edits):
            edit(ed, e)
            found = problems(ed.scenario)
            shown = shown_errors(ed)
            assert set(shown) == {p.field for p in found}, f"after {edits[:i + 1]}"
            for p in found:
                assert p.message.splitlines()[0] in shown[p.field]
            assert ed.play_button.disabled == ed.save_button.disabled == bool(found)
            assert_shows_a_fresh_build(ed, str(edits[:i + 1]))
    finally:
        ed.close()
