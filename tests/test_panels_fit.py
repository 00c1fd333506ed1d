"""A figure takes the width its page reports (Fit), within the widths of a screen: the value comes from
the browser, so a crafted message cannot make the kernel draw a figure of any size."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from powergrid_nb.panels._widgets import FIT_WIDTHS, Fit


def test_a_figure_takes_the_width_its_page_reports() -> None:
    fig = go.FigureWidget()
    fit = Fit(fig)
    fit.width = 912
    assert fig.layout.width == 912


@pytest.mark.parametrize("width", [-5, 1, FIT_WIDTHS.start - 1, FIT_WIDTHS.stop, 10**9])
def test_a_width_no_screen_has_is_ignored(width: int) -> None:
    fig = go.FigureWidget()
    fit = Fit(fig)
    fit.width = 912
    fit.width = width
    assert fig.layout.width == 912
