"""The lessons as web pages a teacher hands out or projects: each lesson notebook executed (at the size
its ``FULL`` switch gives for class by default) and exported to one self-contained HTML file, beside an
``index.html`` that links them (``powergrid-nb lessons html``, ``make lessons-html``).

The stored notebooks are never written: the size is chosen by rewriting the first code cell's
``FULL = False`` in memory. A page asks nothing of the network: plotly.js is included once in each
page, the figures are drawn from the figure data the lesson produced, the formulas are MathML (drawn by
the browser, no MathJax) and the interactive panels, which need a kernel, say so in their place.
The executed notebook is written beside its page, to be opened in JupyterLab with its results.
"""

from __future__ import annotations

import contextlib
import copy
import html
import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["LessonPage", "build_pages", "lesson_notebooks", "sized", "write_index"]

FULL_OFF = re.compile(r"^FULL = False\b", re.M)
PLOTLY_JSON = "application/vnd.plotly.v1+json"
WIDGET = "application/vnd.jupyter.widget-view+json"
MANIFEST = "lessons.json"  # what was built, at which size and how long it took: the index is made from it

_PAGE_TEMPLATE = """\
{%- extends 'lab/index.html.j2' -%}
{#- Nothing from a CDN: no require.js, MathJax, mermaid or widget manager; plotly.js inline, once. -#}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block extra_css -%}
<script type="text/javascript">{{ resources.plotly_js }}</script>
<style>
  math[display="block"] { margin: 0.8em 0; font-size: 1.15em; }
  .pg-panel-note { font-style: italic; color: #555; }
  .pg-size-note { background: #f4f4f4; padding: 0.5em 1em; border-left: 4px solid #888; margin: 1em 0; }
</style>
{%- endblock extra_css -%}
"""
_PANEL_NOTE = ('<p class="pg-panel-note">An interactive panel: it works when the lesson runs in '
               'JupyterLab (<code>make lessons</code>).</p>')


@dataclass(frozen=True)
class LessonPage:
    """One built lesson: its notebook's name, title, size (``"full"`` or ``"small"``) and build time."""

    name: str
    title: str
    size: str
    seconds: float
    built: str


def lesson_notebooks(folder: Path) -> list[Path]:
    """The lesson notebooks of ``folder`` (``01_….ipynb`` to ``06_….ipynb``), in order."""
    return sorted(Path(folder).glob("[0-9][0-9]_*.ipynb"))


def sized(nb: Any, full: bool) -> Any:
    """A copy of the notebook ``nb`` whose first code cell sets ``FULL = True`` if ``full`` (as stored
    otherwise). A lesson that simulates nothing (lesson 0: no ``FULL`` anywhere) has one size; a lesson
    that reads ``FULL`` without that switch first is refused: it would silently run at its small size."""
    nb = copy.deepcopy(nb)
    first = next((c for c in nb.cells if c.cell_type == "code"), None)
    if not any("FULL" in c.source for c in nb.cells if c.cell_type == "code"):
        return nb
    if first is None or not FULL_OFF.search(first.source):
        raise ValueError("the lesson's first code cell does not start a line with `FULL = False`")
    if full:
        first.source = FULL_OFF.sub("FULL = True", first.source, count=1)
    return nb


def _title(nb: Any, fallback: str) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown" and (m := re.search(r"^# (.+)$", cell.source, re.M)):
            return m.group(1).strip()
    return fallback


def _kernel_manager_class() -> type:
    """A kernel manager whose kernel is this interpreter (the one with ``powergrid_nb`` installed),
    whatever ``python3`` kernels the machine has registered."""
    from jupyter_client.kernelspec import KernelSpec
    from jupyter_client.manager import AsyncKernelManager

    class ThisPython(AsyncKernelManager):
        @property
        def kernel_spec(self) -> KernelSpec:
            # --log-level=ERROR: not the kernel's warning per lesson that its local TCP sockets are not
            # encrypted (the kernel runs on this machine, for this process only)
            return KernelSpec(argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}",
                                    "--log-level=ERROR"], display_name="Python 3", language="python")

    return ThisPython


def execute(nb: Any, folder: Path, on_cell: Callable[[int, int], None] | None = None) -> Any:
    """Run the notebook ``nb`` in a fresh kernel started in ``folder`` (as JupyterLab would), with
    figures output as plotly's figure data; returns the executed copy. A cell's error raises nbclient's
    ``CellExecutionError``; no cell has a time limit (a full-size simulation runs for minutes): Ctrl-C
    stops the run, shuts the kernel down and raises ``KeyboardInterrupt``."""
    import asyncio
    import os
    import signal

    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    nb = copy.deepcopy(nb)
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    client = NotebookClient(nb, timeout=None, kernel_manager_class=_kernel_manager_class(),
                            store_widget_state=False, resources={"metadata": {"path": str(folder)}})
    env = {**os.environ, "PLOTLY_RENDERER": "plotly_mimetype"}
    stopped = []

    async def run() -> None:
        task = asyncio.current_task()
        assert task is not None

        def stop() -> None:
            # the kernel and the worker processes of its simulations (its process group) end at once: a
            # graceful shutdown would wait for a full-size simulation to finish
            stopped.append(True)
            group = getattr(client.km.provisioner, "pgid", None) if client.km is not None else None
            if group and group != os.getpgrp():  # the kernel's own group (jupyter_client starts one)
                with contextlib.suppress(OSError):
                    os.killpg(group, signal.SIGKILL)
            task.cancel()

        def started(cell: Any, cell_index: int) -> None:
            # nbclient's own Ctrl-C handler asks the kernel to shut down and waits for the cell's reply,
            # which a kernel busy with a simulation's worker processes may never send: ours replaces it
            with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows: Python's there
                asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop)
            if on_cell is not None and cell_index in code:  # nbclient calls this for markdown cells too
                on_cell(code.index(cell_index) + 1, len(code))

        client.on_cell_start = started
        await client.async_execute(env=env)

    try:
        asyncio.run(run())
    except (asyncio.CancelledError, DeadKernelError):
        if stopped:
            raise KeyboardInterrupt from None
        raise
    return nb


def _mathml(tex: str, display: str) -> str:
    from latex2mathml.converter import convert

    try:
        return convert(tex.strip(), display=display)
    except Exception:  # a macro latex2mathml does not know: the TeX as written rather than no formula
        return f"<code>{html.escape(tex)}</code>"


_CODE_SPAN = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)
_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$\w])\$(?=\S)([^$\n]+?)(?<=\S)\$(?![\w$])")


def math_as_mathml(markdown: str) -> str:
    """The markdown with its ``$$…$$`` and ``$…$`` formulas as MathML (code spans left as written)."""
    parts = _CODE_SPAN.split(markdown)
    for i in range(0, len(parts), 2):  # the even parts are outside code spans
        text = _DISPLAY.sub(lambda m: "\n\n" + _mathml(m.group(1), "block") + "\n\n", parts[i])
        parts[i] = _INLINE.sub(lambda m: _mathml(m.group(1), "inline"), text)
    return "".join(parts)


def _figure_html(figure: dict[str, Any]) -> str:
    import plotly.io as pio

    config = {"displaylogo": False, **figure.get("config", {})}
    return pio.to_html({k: v for k, v in figure.items() if k != "config"}, config=config,
                       include_plotlyjs=False, include_mathjax=False, full_html=False, validate=False)


def to_html(nb: Any, title: str, size_note: str = "") -> str:
    """The executed notebook ``nb`` as one HTML page that needs no network (see the module's docstring)."""
    import nbformat
    import plotly.offline
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter

    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = math_as_mathml(cell.source)
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if PLOTLY_JSON in data:
                data["text/html"] = _figure_html(dict(data[PLOTLY_JSON]))
            elif WIDGET in data:
                out["data"] = {"text/html": _PANEL_NOTE}
    if size_note:
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(size_note))
    exporter = HTMLExporter(template_name="lab", template_file="lesson.html.j2",
                            extra_loaders=[DictLoader({"lesson.html.j2": _PAGE_TEMPLATE})])
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title},
                                                         "plotly_js": plotly.offline.get_plotlyjs()})
    return body


def _read_manifest(out: Path) -> dict[str, dict[str, Any]]:
    try:
        return json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}


def write_index(out: Path) -> Path:
    """``out/index.html``: a link to every lesson page built in ``out``, with its size and build time."""
    pages = [LessonPage(**page) for name, page in sorted(_read_manifest(out).items())
             if (out / f"{name}.html").exists()]
    sizes = {"full": "class size: FULL = True", "small": "small size: FULL = False"}
    rows = "\n".join(
        f'<li><a href="{html.escape(p.name)}.html">{html.escape(p.title)}</a> <span class="meta">'
        f'({sizes[p.size]}, executed in {p.seconds:.0f} s on {html.escape(p.built)})</span></li>'
        for p in pages)
    index = out / "index.html"
    index.write_text(f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>The economics of Power Grid: the lessons</title>
<style>body {{ font-family: sans-serif; max-width: 46em; margin: 2em auto; line-height: 1.5; }}
li {{ margin: 0.6em 0; }} .meta {{ color: #666; font-size: 0.9em; }}</style></head>
<body><h1>The economics of Power Grid</h1>
<p>The lessons, executed: the pages show the code, its results and its figures, and need no network. To
run and change the code, and to answer the exercises, open the lessons in JupyterLab.</p>
<ol>
{rows}
</ol></body></html>
""", encoding="utf-8")
    return index


def build_pages(folder: Path, out: Path, full: bool = True, only: list[int] | None = None,
                log: Callable[[str], None] = print, status: Callable[[str], None] | None = None
                ) -> list[LessonPage]:
    """Execute and export the lessons of ``folder`` (the ones numbered in ``only``, else all) into ``out``:
    ``NN_name.html`` and the executed ``NN_name.ipynb`` each, then ``index.html``. ``log`` gets a line per
    lesson (which, how long), ``status`` the cell being run. Stops at the first lesson that fails
    (``CellExecutionError``); the pages built before it stay, with the index."""
    import nbformat

    notebooks = [p for p in lesson_notebooks(folder) if only is None or int(p.name[:2]) in only]
    if not notebooks:
        raise ValueError(f"no lesson notebooks (NN_name.ipynb) in {folder}" +
                         (f" numbered {only}" if only else ""))
    out.mkdir(parents=True, exist_ok=True)
    size = "full" if full else "small"
    built = []
    for k, path in enumerate(notebooks, 1):
        nb = sized(nbformat.read(path, as_version=4), full)
        title = _title(nb, path.stem)
        log(f"[{k}/{len(notebooks)}] {path.name} ({size} size) ...")
        t0 = time.monotonic()
        on_cell = None if status is None else (lambda i, n, name=path.name: status(f"{name}: cell {i}/{n}"))
        executed = execute(nb, path.parent.resolve(), on_cell)
        seconds = time.monotonic() - t0
        note = ("" if full else '<div class="pg-size-note">Run at the small size (<code>FULL = False</code>)'
                ": the class-size results come with <code>FULL = True</code>.</div>")
        (out / f"{path.stem}.html").write_text(to_html(executed, title, note), encoding="utf-8")
        nbformat.write(executed, out / f"{path.stem}.ipynb")
        page = LessonPage(path.stem, title, size, round(seconds, 1), time.strftime("%Y-%m-%d %H:%M"))
        manifest = _read_manifest(out)
        manifest[path.stem] = page.__dict__
        (out / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        write_index(out)
        log(f"[{k}/{len(notebooks)}] {path.name}: {seconds:.0f} s -> {out / (path.stem + '.html')}")
        built.append(page)
    return built
