"""The lessons' pages (``powergrid-nb lessons html``): the size switch, the formulas and the page of an
executed notebook, without running a lesson (tests/test_lessons_install.py runs all six)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import plotly.graph_objects as go
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from powergrid_nb.lessons.html import (
    LessonPage,
    lesson_notebooks,
    math_as_mathml,
    sized,
    to_html,
    write_index,
)

LESSONS = Path(__file__).resolve().parents[1] / "notebooks" / "lessons"


def _switch(nb) -> str:
    return next(c for c in nb.cells if c.cell_type == "code").source


@pytest.mark.parametrize("path", lesson_notebooks(LESSONS), ids=lambda p: p.stem)
def test_full_size_sets_the_first_code_cells_switch_and_nothing_else(path: Path) -> None:
    stored = nbformat.read(path, as_version=4)
    full = sized(stored, full=True)
    if "FULL" not in "".join(c.source for c in stored.cells if c.cell_type == "code"):
        assert full == stored  # a lesson that simulates nothing (lesson 0) has one size
        return
    assert re.match(r"FULL = True\b", _switch(full), re.M)
    assert _switch(full).replace("FULL = True", "FULL = False", 1) == _switch(stored)
    rest = [c.source for c in stored.cells if c.source != _switch(stored)]
    assert [c.source for c in full.cells if c.source != _switch(full)] == rest
    assert re.search(r"^FULL = False\b", _switch(stored), re.M)  # the stored notebook as it was


def test_a_lesson_that_reads_full_without_the_switch_first_is_refused() -> None:
    stored = nbformat.read(lesson_notebooks(LESSONS)[1], as_version=4)
    first = next(c for c in stored.cells if c.cell_type == "code")
    first.source = first.source.replace("FULL = False", "SIZE = 1", 1)
    with pytest.raises(ValueError, match="FULL = False"):
        sized(stored, full=True)


def test_the_small_size_is_the_notebook_as_stored() -> None:
    stored = nbformat.read(lesson_notebooks(LESSONS)[0], as_version=4)
    assert sized(stored, full=False) == stored


def test_a_notebook_that_simulates_nothing_has_one_size() -> None:
    nb = new_notebook(cells=[new_code_cell("GAMES = 40")])
    assert sized(nb, full=True) == nb


def test_formulas_become_mathml_and_code_stays_as_written() -> None:
    text = math_as_mathml("A rate $r$ per round:\n\n$$\\frac{1}{(1+r)^t}$$\n\nand `x = $y$` in code.")
    assert text.count("<math") == 2 and 'display="block"' in text
    assert "`x = $y$`" in text


def _executed() -> nbformat.NotebookNode:
    fig = go.Figure(go.Bar(x=["coal", "oil"], y=[3, 5]))
    plotly_json = fig.to_plotly_json()
    return new_notebook(cells=[
        new_markdown_cell("# Lesson 9 — A test\n\nThe rate $r$."),
        new_code_cell("fig", outputs=[new_output("execute_result", execution_count=1, data={
            "application/vnd.plotly.v1+json": {"data": plotly_json["data"], "layout": plotly_json["layout"],
                                               "config": {"plotlyServerURL": "https://plot.ly"}},
            "text/plain": ["Figure(...)"]})]),
        new_code_cell("panel", outputs=[new_output("display_data", data={
            "application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2,
                                                          "version_minor": 0},
            "text/plain": ["VBox(...)"]})]),
    ])


def test_a_page_draws_its_figure_with_the_plotly_js_it_holds() -> None:
    page = to_html(_executed(), "A test")
    assert len(re.findall(r"\* plotly\.js v\d", page)) == 1
    assert page.count("Plotly.newPlot(") == 1
    assert page.index("* plotly.js v") < page.index("Plotly.newPlot(")


def test_a_page_loads_no_script_or_stylesheet_from_elsewhere() -> None:
    page = to_html(_executed(), "A test")
    assert not re.search(r"<(script|img|iframe)[^>]*\ssrc=|<link[^>]*\shref=\"https?:", page)
    assert "<math" in page and "$r$" not in page


def test_a_panel_says_it_needs_jupyterlab() -> None:
    assert "it works when the lesson runs in JupyterLab" in to_html(_executed(), "A test")


def test_the_index_links_every_page_built(tmp_path: Path) -> None:
    import json

    for name in ("01_a", "02_b"):
        (tmp_path / f"{name}.html").write_text("<html></html>", encoding="utf-8")
    pages = {n: LessonPage(n, f"Lesson {n}", "full", 61.0, "2026-01-01 10:00").__dict__
             for n in ("01_a", "02_b", "03_gone")}
    (tmp_path / "lessons.json").write_text(json.dumps(pages), encoding="utf-8")
    index = write_index(tmp_path).read_text(encoding="utf-8")
    assert re.findall(r'href="([^"]+)"', index) == ["01_a.html", "02_b.html"]
    assert "executed in 61 s" in index
