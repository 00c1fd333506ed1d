"""``Table.snapshot()``: everything the table shows as plain data, complete enough that a property test
over it can fail (tests/test_panels_fresh.py): every synced trait of every widget on screen, each
figure, and nothing that is not shown (hidden tabs, trace uids, one-shot messages)."""

from __future__ import annotations

import json

import ipywidgets as w
import plotly.graph_objects as go
from _panels import click, click_errors_fail, fresh_twin, game_at, opening_table, table_for  # noqa: F401

from powergrid_nb import new_game, views
from powergrid_nb.panels._widgets import LiveFigure
from powergrid_nb.panels.snapshot import CHANNELS, DRAWN, SKIPPED, diff, snapshot


def shown_widgets(root: w.Widget) -> list[w.Widget]:
    """The widgets on screen, depth first: every child, but only the selected tab's."""
    out, todo = [], [root]
    while todo:
        x = todo.pop()
        out.append(x)
        kids = list(getattr(x, "children", ()) or ())
        todo.extend(reversed([kids[x.selected_index]] if isinstance(x, w.Tab) else kids))
    return out


def test_the_snapshot_holds_every_synced_trait_of_every_widget_on_screen():
    t = table_for(game_at(phase=3, round=2))
    t.board.tabs.selected_index = 1  # a second figure on screen
    snap = t.snapshot()
    shown = shown_widgets(t)
    assert len(snap) == len(shown)
    for (path, state), x in zip(snap.items(), shown, strict=True):
        wanted = {k for k in x.keys if k not in SKIPPED and k != "children" and not k.startswith(CHANNELS)}
        if isinstance(x, go.FigureWidget):  # a figure: its widget state as "figure"
            wanted = wanted - set(DRAWN) | {"figure"}
        assert wanted <= set(state), (path, wanted - set(state))
        for k in ("layout", "style"):
            if isinstance(getattr(x, k, None), w.Widget):  # inlined with every trait of its own
                assert set(getattr(x, k).keys) - {"children"} <= set(state[k]) | SKIPPED, (path, k)
    assert sum("FigureWidget" in path for path in snap) == 3  # the map's board and pieces, the visible tab


def test_the_snapshot_is_plain_json():
    snap = table_for(game_at(phase=4)).snapshot()
    assert json.loads(json.dumps(snap)) == snap


def test_two_tables_on_one_game_show_the_same():
    t = opening_table()
    assert t.snapshot() == fresh_twin(t).snapshot()


def test_a_changed_label_changes_the_snapshot():
    t = opening_table()
    before = t.snapshot()
    t.say("hello")
    assert any("pg-message" in line for line in diff(before, t.snapshot()))


def test_a_disabled_button_changes_the_snapshot():
    t = opening_table()
    before = t.snapshot()
    t.toolbar.new.disabled = True
    assert [line.split(":")[0] for line in diff(before, t.snapshot())] == ["/1.0.1 Button.pg-new/disabled"]


def test_a_changed_text_box_or_tab_title_changes_the_snapshot():
    t = opening_table()
    before = t.snapshot()
    t.board.tabs.set_title(1, "Tokens")
    t.toolbar.path.value = "other.json"
    changed = diff(before, t.snapshot())
    assert any("Tab.pg-tabs/titles" in x for x in changed) and any("Text.pg-path/value" in x for x in changed)


def test_a_changed_layout_hides_a_widget_in_the_snapshot():
    t = opening_table()
    before = t.snapshot()
    t.log_view.layout = w.Layout(display="none")
    assert any("HTML.pg-log/layout/display" in x for x in diff(before, t.snapshot()))


def test_a_changed_figure_changes_the_snapshot():
    t = opening_table()
    before = t.snapshot()
    with t.board.map.batch_update():
        t.board.map.layout.title.text = "another title"
    assert any("FigureWidget/figure/layout/title/text" in x for x in diff(before, t.snapshot()))


def test_the_snapshot_shows_a_figure_as_a_page_connecting_now_would_draw_it():
    """A plain FigureWidget changed in place keeps its constructor's state for a page connecting later
    (updates are one-shot messages): its snapshot is that state, so a property test over snapshots can
    catch a figure a reloaded page would draw stale."""
    built = views.map_figure(new_game(["You", "Bo", "Cy"], seed=1))
    plain, live = go.FigureWidget(built), LiveFigure(built)
    for fig in (plain, live):
        fig.layout.title.text = "another title"
    assert snapshot(live)["root FigureWidget"]["figure"]["layout"]["title"]["text"] == "another title"
    assert snapshot(plain)["root FigureWidget"]["figure"]["layout"]["title"]["text"] != "another title"


def test_a_table_figure_gives_a_page_connecting_after_a_move_the_figure_as_it_is():
    t = opening_table()
    t.board.tabs.selected_index = 2  # the players figure is built
    click(t, "pg-open")  # the game moves on: the map and the players figure change in place
    for fig in (t.board.map, t.board.figures["Players"]):
        drawn = snapshot(fig)["root FigureWidget"]["figure"]
        now = fig.to_plotly_json()
        assert drawn["data"] == [{k: v for k, v in trace.items() if k != "uid"} for trace in now["data"]]
        assert drawn["layout"] == json.loads(json.dumps(now["layout"]))


def test_hidden_tabs_and_trace_uids_are_not_in_the_snapshot():
    t = opening_table()
    t.board.tabs.selected_index = 2  # the players figure is built
    t.board.tabs.selected_index = 0
    snap = t.snapshot()
    assert not any(path.startswith("3.2") for path in snap)
    assert "uid" not in json.dumps([s.get("figure") for s in snap.values()])
