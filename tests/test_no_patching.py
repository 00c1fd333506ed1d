"""powergrid_nb leaves the libraries it builds on as they are: it patches none of ipywidgets (other
libraries in the same kernel see ipywidgets as ipywidgets made it) and reads no private attribute
(a name with one leading underscore) of a Plotly, ipywidgets or anywidget object, so a release of
either can change its insides without breaking the panels."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import anywidget
import ipywidgets as w
import plotly.graph_objects as go
from _panels import click, game_at, table_for

import powergrid_nb
import powergrid_nb.panels

PACKAGE = Path(powergrid_nb.__file__).parent

# the names the panels and views used to read; the scan below also finds any other private name of
# these libraries' classes
REMOVED = {"_config", "_widget_data", "_widget_layout", "_data", "_layout_obj", "_props", "_grid_ref",
           "_dom_classes", "_repr_mimebundle_", "_js2py_traceDeltas", "_js2py_layoutDelta", "_model_id"}


def library_private_names() -> set[str]:
    """Every single-underscore attribute of the Plotly, ipywidgets and anywidget objects the package uses."""
    names = set(REMOVED)
    for obj in (go.FigureWidget(), go.Figure(), go.Scatter(), go.Layout(), go.layout.Annotation(),
                w.Button(), w.HTML(), w.VBox(), w.Tab(), w.Select(), w.BoundedIntText(), w.Checkbox(),
                w.Layout(), anywidget.AnyWidget):
        names |= {n for n in dir(obj) if n.startswith("_") and not n.startswith("__")}
    return names


def private_reads(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, name) of each ``x.NAME`` (x not ``self`` or ``cls``), ``getattr(x, "NAME")`` and
    ``observe(..., names=["NAME"])`` in ``source`` with NAME among ``names``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in names:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Call):
            strings = []
            if isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr", "setattr"):
                strings += node.args[1:2]
            for kw in node.keywords:
                if kw.arg == "names":
                    strings += kw.value.elts if isinstance(kw.value, ast.List | ast.Tuple) else [kw.value]
            found += [(node.lineno, s.value) for s in strings
                      if isinstance(s, ast.Constant) and s.value in names]
    return found


def test_no_private_attribute_of_plotly_or_ipywidgets_is_read_anywhere_in_the_package():
    names = library_private_names()
    found = [f"{path.relative_to(PACKAGE.parent)}:{line}: {name}" for path in sorted(PACKAGE.rglob("*.py"))
             for line, name in private_reads(path.read_text(), names)]
    assert found == []


def test_the_scan_finds_a_private_read_where_there_is_one():
    names = library_private_names()
    source = ("fig._config = {**fig._config, 'responsive': True}\n"
              "classes = getattr(button, '_dom_classes', ())\n"
              "fig.observe(seen, names=['_js2py_layoutDelta'])\n"
              "self._data = {}\n")
    assert sorted(private_reads(source, names)) == [(1, "_config"), (1, "_config"), (2, "_dom_classes"),
                                                    (3, "_js2py_layoutDelta")]


def test_importing_and_using_the_panels_leaves_ipywidgets_widget_open_as_ipywidgets_defines_it():
    for info in pkgutil.walk_packages(powergrid_nb.panels.__path__, "powergrid_nb.panels."):
        importlib.import_module(info.name)
    t = table_for(game_at(phase=3, round=2))
    click(t, "pg-done")
    opener = w.Widget.__dict__["open"]
    assert (opener.__module__, opener.__qualname__) == ("ipywidgets.widgets.widget", "Widget.open")
    assert t.comm is not None  # made and opened as ipywidgets does it
