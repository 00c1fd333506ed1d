"""The lessons' figures are read on a projector (powergrid_nb.lessons.style)."""

import plotly.graph_objects as go

from powergrid_nb.lessons.style import BODY, TITLE, projector


def test_projector_gives_a_student_sized_font_and_a_larger_title() -> None:
    fig = projector(go.Figure(layout={"title": "Income"}))
    assert fig.layout.font.size == BODY >= 16 and fig.layout.title.font.size == TITLE > BODY
    assert fig.layout.xaxis.tickfont.size == BODY and fig.layout.legend.font.size == BODY


def test_projector_appends_the_unit_and_the_sample_size_to_the_title() -> None:
    fig = projector(go.Figure(layout={"title": "Game length"}), n=60, unit="rounds")
    assert fig.layout.title.text == "Game length (rounds) (n = 60 games)"
    assert projector(go.Figure(layout={"title": "Game length"})).layout.title.text == "Game length"


def test_projector_puts_them_on_the_first_line_before_a_subtitle() -> None:
    fig = projector(go.Figure(layout={"title": "Win rate<br><sup>per rule set</sup>"}), n=8)
    assert fig.layout.title.text == "Win rate (n = 8 games)<br><sup>per rule set</sup>"


def test_projector_enlarges_subplot_titles_too() -> None:
    fig = go.Figure()
    fig.add_annotation(text="panel", font={"size": 12})
    assert projector(fig).layout.annotations[0].font.size == BODY
