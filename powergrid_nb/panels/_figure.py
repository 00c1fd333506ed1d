"""A Plotly FigureWidget whose front end parses Plotly's widget module once per page, not once per figure.

Every FigureWidget's front-end model imports its ``_esm``: for Plotly that is its whole widget bundle
(some 5 MB of JavaScript), handed to the browser as a new blob and so parsed anew for every figure. The
anywidget runtime gives a model 2 s to load its module; a model that misses the window drops every
message of the kernel from then on (its "ready" promise is rejected for good), and its views draw the
state the model opened with. The table opens a figure for a tab when the tab is first shown, while the
page is busy: on a slow or loaded machine the parse took longer than the window, and the tab drew an
empty figure (a blank -1..6 axis) for the page's life.

:class:`SharedBundleFigure` sends the same bundle (trait ``_bundle``, the file Plotly ships) with a small
module of its own as ``_esm``: the first figure of a page imports the bundle, every later one reuses that
import (a promise kept on the page under a name that holds the bundle's digest: a page with kernels of
two Plotly versions imports each once). Nothing is fetched but what the kernel sends; no file is served.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources

import plotly.graph_objects as go
import traitlets


@cache
def plotly_bundle() -> str:
    """The front-end module of Plotly's FigureWidget, as the plotly package ships it."""
    return (resources.files("plotly") / "package_data" / "widgetbundle.js").read_text(encoding="utf-8")


_SHIM_JS = """
// Plotly's widget module, imported once per page: the first figure imports the bundle it carries
const KEY = '__powergridPlotlyWidget_%(digest)s';
function plotly(model) {
  let loading = globalThis[KEY];
  if (!loading) {
    const url = URL.createObjectURL(new Blob([model.get('_bundle')], {type: 'text/javascript'}));
    loading = globalThis[KEY] = import(url).finally(() => URL.revokeObjectURL(url));
    loading.catch(() => { if (globalThis[KEY] === loading) delete globalThis[KEY]; });  // the next retries
  }
  return loading;
}
export default () => {
  let widget = null;  // Plotly's widget for this model (its default export makes one per model)
  return {
    async initialize(ctx) {
      widget = (await plotly(ctx.model)).default();
      return widget.initialize(ctx);
    },
    render(ctx) {
      return widget.render(ctx);
    },
  };
};
"""


@cache
def shim_js() -> str:
    digest = hashlib.sha256(plotly_bundle().encode()).hexdigest()[:16]
    return _SHIM_JS % {"digest": digest}


class SharedBundleFigure(go.FigureWidget):
    """A FigureWidget whose front end imports Plotly's widget bundle once per page (see the module)."""

    _esm = shim_js()
    _bundle = traitlets.Unicode().tag(sync=True)

    @traitlets.default("_bundle")
    def _bundle_default(self) -> str:
        return plotly_bundle()
