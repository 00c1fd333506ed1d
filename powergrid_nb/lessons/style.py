"""Figures for a projector: the lessons' figures are read from the back of a classroom.

:func:`projector` gives a figure a student-sized font (body text 18 px, the title 24 px), room for it in
the margins, and says in the title how many games the figure shows and in which unit.
"""

from __future__ import annotations

import plotly.graph_objects as go

__all__ = ["BODY", "TITLE", "projector"]

BODY = 18   # px: axis titles, ticks, legend, annotations (subplot titles, reference lines)
TITLE = 24  # px: the title line; a subtitle after "<br>" keeps its own (smaller) size


def projector(fig: go.Figure, *, n: int | None = None, unit: str | None = None) -> go.Figure:
    """``fig`` with projector-sized fonts and margins; ``unit`` and "(n = N games)" are appended to the
    title's first line (before any ``<br>`` subtitle). Returns the same figure, changed in place."""
    title = fig.layout.title.text or ""
    head, br, rest = title.partition("<br>")
    if unit:
        head += f" ({unit})"
    if n is not None:
        head += f" (n = {n} games)"
    fig.update_layout(title={"text": head + br + rest, "font": {"size": TITLE}, "x": 0.01, "xanchor": "left"},
                      font={"size": BODY}, legend={"font": {"size": BODY}, "title": {"font": {"size": BODY}}},
                      hoverlabel={"font": {"size": BODY}},
                      margin={"t": 110 if br else 80, "l": 80, "r": 30})
    fig.update_xaxes(automargin=True, title_font={"size": BODY}, tickfont={"size": BODY})
    fig.update_yaxes(automargin=True, title_font={"size": BODY}, tickfont={"size": BODY})
    fig.update_annotations(font_size=BODY)
    return fig
