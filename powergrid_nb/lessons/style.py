"""Figures for a projector: one place that sets the lessons' font sizes, margins and title notes.

A figure read from the back of a classroom needs body text of at least 16 px and a larger title;
``projector(fig)`` sets them on any lesson figure, and adds the sample size and the unit to its title.
"""

from __future__ import annotations

import plotly.graph_objects as go

__all__ = ["BODY", "SMALL", "TITLE", "projector"]

BODY = 18   # px: axis titles, legend, hover text
SMALL = 16  # px: tick labels and text drawn on the plot, the smallest a student reads from the back
TITLE = 24  # px: the figure's title


def projector(fig: go.Figure, *, n: int | None = None, unit: str | None = None) -> go.Figure:
    """``fig`` with projector-sized fonts (body ``BODY``, ticks ``SMALL``, title ``TITLE`` px) and room
    for them; ``unit`` and ``n`` add "(unit; n = N games)" to the first line of the title."""
    title = fig.layout.title.text or ""
    first, sep, rest = title.partition("<br>")
    notes = [x for x in (unit, f"n = {n} games" if n is not None else None) if x]
    if notes:
        first += f" ({'; '.join(notes)})"
    margin = fig.layout.margin
    fig.update_layout(
        title={"text": first + sep + rest, "font": {"size": TITLE}, "x": 0.01, "xanchor": "left"},
        font={"size": BODY}, hoverlabel={"font": {"size": BODY}}, legend={"font": {"size": SMALL}},
        margin={"t": max(margin.t or 0, 110 if sep else 80), "l": max(margin.l or 0, 80),
                "b": max(margin.b or 0, 70), "r": max(margin.r or 0, 30)})
    fig.update_xaxes(title_font={"size": BODY}, tickfont={"size": SMALL}, automargin=True)
    fig.update_yaxes(title_font={"size": BODY}, tickfont={"size": SMALL}, automargin=True)
    fig.update_annotations(font_size=BODY)  # subplot titles are annotations
    return fig
