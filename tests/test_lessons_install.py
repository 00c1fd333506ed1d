"""The course at home: ``pip install '.[lessons]'`` into a new virtual environment (the checkout's wheel,
not editable, with every dependency installed by pip: nothing borrowed from the test environment) runs
all six lessons at their stored size and writes their pages (``powergrid-nb lessons html --small``), and
installs no development tool and no agent library.

Slow (``make test``, not ``make check``): the install, then the six lessons in a kernel of that
environment. Measured on a 2-core machine running other jobs: 2.6 minutes at a load average of about 3
(42 s for the install, pip's cache warm; 110 s for the lessons), 12.3 minutes at 8 to 15.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import time
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from _install import ROOT, build_wheel
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

pytestmark = pytest.mark.slow

LESSONS = ROOT / "notebooks" / "lessons"


def _optional(extra: str) -> set[str]:
    """The distributions an extra of pyproject.toml names (not the package itself)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]
    names = {canonicalize_name(Requirement(r).name) for r in extras[extra]}
    return names - {"powergrid-nb"}


def _env() -> dict[str, str]:
    """The environment less PYTHONPATH: the new environment's python must find the package it installed."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


@pytest.fixture(scope="module")
def lessons_venv(tmp_path_factory) -> Path:
    """A new venv with ``powergrid_nb[lessons]`` from the checkout's wheel; returns its bin folder."""
    base = tmp_path_factory.mktemp("lessons_install")
    whl = build_wheel(base / "wheel")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                        "--quiet", f"{whl}[lessons]"], capture_output=True, text=True, env=_env(),
                       timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    return venv / "bin"


def _digests() -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(LESSONS.glob("*.ipynb"))}


@pytest.fixture(scope="module")
def built(lessons_venv: Path, tmp_path_factory) -> dict:
    """The lessons' pages built by that environment's ``powergrid-nb``, with the stored notebooks'
    digests before and after and the seconds it took."""
    out = tmp_path_factory.mktemp("lessons_html") / "pages"
    before = _digests()
    t0 = time.monotonic()
    r = subprocess.run([str(lessons_venv / "powergrid-nb"), "lessons", "html", "--small",
                        "--from", str(LESSONS), "--out", str(out)], capture_output=True, text=True,
                       env=_env(), cwd=out.parent, timeout=1200)
    return {"run": r, "out": out, "before": before, "after": _digests(), "seconds": time.monotonic() - t0}


def test_the_lessons_extra_installs_no_development_tool_and_no_agent_library(lessons_venv: Path) -> None:
    listing = subprocess.run([sys.executable, "-m", "pip", "--python", str(lessons_venv / "python"), "list",
                              "--format=json"], check=True, capture_output=True, text=True, env=_env())
    installed = {canonicalize_name(d["name"]) for d in json.loads(listing.stdout)}
    unwanted = (_optional("dev") | _optional("agents") | _optional("accel")) - _optional("lessons")
    assert {"pytest", "ruff", "playwright", "pettingzoo", "gymnasium", "open-spiel"} <= unwanted
    assert installed & unwanted == set()
    assert _optional("lessons") <= installed


def test_the_package_comes_from_the_wheel_not_the_checkout(lessons_venv: Path, tmp_path: Path) -> None:
    code = "import powergrid_nb; print(powergrid_nb.__file__)"
    r = subprocess.run([str(lessons_venv / "python"), "-c", code], capture_output=True, text=True, env=_env(),
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert str(lessons_venv.parent) in r.stdout and str(ROOT) not in r.stdout


def test_every_lesson_runs_on_the_lessons_extra(built: dict) -> None:
    r = built["run"]
    assert r.returncode == 0, f"{r.stdout[-2000:]}\n{r.stderr[-4000:]}"
    pages = json.loads((built["out"] / "lessons.json").read_text(encoding="utf-8"))
    assert sorted(pages) == sorted(p.stem for p in LESSONS.glob("[0-9][0-9]_*.ipynb"))
    assert all(page["size"] == "small" for page in pages.values())


def test_the_build_says_which_lesson_it_runs_and_how_long_it_took(built: dict) -> None:
    lines = built["run"].stdout.splitlines()
    paths = sorted(LESSONS.glob("[0-9][0-9]_*.ipynb"))
    for k, path in enumerate(paths, 1):
        done = rf"\[{k}/{len(paths)}\] {path.name}: \d+ s -> .*{path.stem}\.html"
        assert any(re.fullmatch(done, line) for line in lines), path.name


def test_the_build_leaves_the_stored_notebooks_as_they_were(built: dict) -> None:
    assert built["after"] == built["before"]


class _Fetches(HTMLParser):
    """What a page would load: the address of every script, stylesheet, image and frame."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script":
            self.scripts += 1
        url = a.get("src") if tag in ("script", "img", "iframe", "video", "audio", "source") else (
            a.get("href") if tag == "link" else None)
        if url:
            self.urls.append(url)


def test_the_pages_load_nothing_from_the_network(built: dict) -> None:
    for page in [*sorted(built["out"].glob("*.html"))]:
        text = page.read_text(encoding="utf-8")
        fetches = _Fetches()
        fetches.feed(text)
        assert [u for u in fetches.urls if not u.startswith("data:")] == [], page.name
        assert not re.search(r"@import\s+url\(\s*['\"]?https?:", text), page.name


def test_every_page_holds_plotly_js_once_and_draws_its_figures_with_it(built: dict) -> None:
    drawn = {}
    for page in sorted(built["out"].glob("[0-9][0-9]_*.html")):
        text = page.read_text(encoding="utf-8")
        executed = json.loads(page.with_suffix(".ipynb").read_text(encoding="utf-8"))
        figures = sum("application/vnd.plotly.v1+json" in out.get("data", {})
                      for cell in executed["cells"] for out in cell.get("outputs", []))
        assert len(re.findall(r"\* plotly\.js v\d", text)) == 1, page.name
        assert text.count("Plotly.newPlot(") == figures, page.name
        drawn[page.stem] = figures
    # every lesson draws figures but lesson 0, the teacher's script of a round (its results are tables)
    assert [name for name, n in drawn.items() if n == 0] == ["00_class_game"], drawn
