"""``Table.snapshot()``: everything the table shows as plain data, complete enough that a property test
over it can fail (tests/test_panels_fresh.py): every synced trait of every widget on screen, each
figure, and nothing that is not shown (hidden tabs, trace uids, one-shot messages)."""

from __future__ import annotations

import json

import ipywidgets as w
from _panels import click_errors_fail, fresh_twin, game_at, opening_table, table_for  # noqa: F401

from powergrid_nb.panels.snapshot import CHANNELS, SKIPPED, diff, snapshot


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
        if hasattr(x, "_widget_data"):  # a figure: as "figure", and "synced" with its widget state
            wanted = wanted - {"_widget_data", "_widget_layout"} | {"figure", "synced"}
        assert wanted <= set(state), (path, wanted - set(state))
        for k in ("layout", "style"):
            if isinstance(getattr(x, k, None), w.Widget):  # inlined with every trait of its own
                assert set(getattr(x, k).keys) - {"children"} <= set(state[k]) | SKIPPED, (path, k)
    assert sum("FigureWidget" in path for path in snap) == 2  # the map and the visible tab


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


def test_a_figure_whose_widget_state_lags_is_not_in_sync():
    fig = opening_table().board.map
    assert snapshot(fig)["root FigureWidget"]["synced"] is True
    fig._widget_layout = {**fig._widget_layout, "height": 1}  # what a browser connecting now would draw
    assert snapshot(fig)["root FigureWidget"]["synced"] is False


def test_hidden_tabs_and_trace_uids_are_not_in_the_snapshot():
    t = opening_table()
    t.board.tabs.selected_index = 2  # the players figure is built
    t.board.tabs.selected_index = 0
    snap = t.snapshot()
    assert not any(path.startswith("3.2") for path in snap)
    assert "uid" not in json.dumps([s.get("figure") for s in snap.values()])
