"""The documents run verbatim: every Python block and every ``powergrid-nb`` command of the README and of
``docs/*.md``, as written, in a fresh virtual environment with the package installed from its wheel (not
editable), in an empty folder, each block in a fresh interpreter.

A fenced block's language says what it is:

- ``python``: run; ``bash``: each line a ``powergrid-nb`` command (run, in order, in one empty folder) or a
  ``make`` command (its target must be one of the Makefile's; the ``make`` commands are what CI runs
  itself, ``.ci/run``);
- ``text``: output, a benchmark's record or a layout, never run; ``mermaid``: a diagram;
- ``python notest`` / ``bash notest``: shown but not run, each with its reason beside it in the document
  (the list is short: ``NOT_RUN`` below).

Any other block fails the test, so that no code goes unrun unnoticed.

The fresh environment installs the wheel with ``--no-deps`` and borrows the third-party packages of the
running environment through a ``.pth`` line (installing pandas, plotly and JupyterLab again would take
minutes); the package itself, its data and its ``powergrid-nb`` script come from the wheel only.
"""

from __future__ import annotations

import gzip
import importlib
import json
import re
import shlex
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest
from _install import build_wheel

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^( *)```([^\n`]*)\n(.*?)^\1```[ \t]*$", re.S | re.M)
KINDS = {"python", "bash", "text", "mermaid", "python notest", "bash notest"}
# the blocks shown but not run: (document, first line) -> why
NOT_RUN = {
    ("what-if.md", "powergrid-nb accel build"): "compiles for minutes and needs a C compiler; "
                                                 "tests/test_accel.py builds it",
    ("benchmarks.md", "for round in 1 2; do"): "a measurement: needs a worktree of 10d45e5 and runs the "
                                                "fast tier four times",
    ("benchmarks.md", ".venv/bin/python benchmarks/ladder.py --bots heuristic:cautious,heuristic,"
                      "heuristic:aggressive --games 250 --workers 2 --quiet"):
        "a measurement: 2,000 games on two workers (tests/test_ladder.py runs the ladder small)",
    ("benchmarks.md", "POWERGRID_NB_ACCEL=0 .venv/bin/python benchmarks/ladder.py --bots random,"
                      "heuristic-10d45e5,heuristic,search-0.25s --workers 2"):
        "a measurement: 144 games, 4 minutes on two workers (tests/test_ladder.py runs the ladder small)",
    ("benchmarks.md", ".venv/bin/python benchmarks/ladder.py --bots heuristic,search-1s --games 12 "
                      "--workers 2"):
        "a measurement: 48 games at a second a key decision, 13 minutes on two workers",
    ("benchmarks.md", "POWERGRID_NB_ACCEL=0 .venv/bin/python benchmarks/ladder.py --bots heuristic:cautious,"
                      "heuristic,heuristic:aggressive --games 250 --workers 2 --quiet"):
        "a measurement: 2,000 games on two workers (tests/test_ladder.py runs the ladder small)",
    ("benchmarks.md", "POWERGRID_NB_ACCEL=0 .venv/bin/python benchmarks/legal.py --repeat 20"):
        "a measurement (tests/test_limits.py checks that the listing does not grow with money)",
    ("benchmarks.md", ".venv/bin/python benchmarks/bots.py --search-games 0 --quiet"):
        "a measurement: about 3,400 games; tests/test_bots_sound.py checks the same properties on fewer",
}


def _blocks() -> list[tuple[str, int, str, str]]:
    """(document name, line, language, code) of every fenced block of every document."""
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append((doc.name, line, m.group(2).strip(), textwrap.dedent(m.group(3))))
    return out


BLOCKS = _blocks()
PYTHON = [(f"{d}:{n}", code) for d, n, kind, code in BLOCKS if kind == "python"]
SHELL = [(f"{d}:{n}", code) for d, n, kind, code in BLOCKS if kind == "bash"]


def _commands(block: str) -> list[list[str]]:
    """The commands of a shell block: one per line (a trailing backslash continues it), comments dropped."""
    return [args for line in block.replace("\\\n", " ").splitlines()
            if (args := shlex.split(line, comments=True))]


COMMANDS = [(f"{where}", cmds) for where, block in SHELL
            if (cmds := [c for c in _commands(block) if c[0] == "powergrid-nb"])]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    """A new venv with the wheel installed (not editable); returns its bin directory."""
    base = tmp_path_factory.mktemp("fresh")
    whl = build_wheel(base / "wheels")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet", "--no-deps",
                    "--no-index", str(whl)], check=True, capture_output=True, text=True)
    (site / "zz_borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin"


def _run(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={"PATH": f"{Path(args[0]).parent}:/usr/bin:/bin", "HOME": str(cwd),
                               "MPLBACKEND": "Agg"})


def test_the_readme_and_every_guide_have_examples() -> None:
    readme = [where for where, _ in PYTHON if where.startswith("README.md")]
    assert readme and any(w.startswith("README.md") for w, _ in COMMANDS)
    for guide in ("play.md", "app.md", "what-if.md", "lessons.md", "agents.md", "api.md"):
        assert any(where.startswith(f"{guide}:") for where, _ in PYTHON), guide


def test_every_block_says_what_it_is() -> None:
    for doc, line, kind, _ in BLOCKS:
        assert kind in KINDS, f"{doc}:{line}: a block marked {kind!r}; say python, bash, text or mermaid"


def test_the_blocks_not_run_are_the_listed_ones() -> None:
    shown = {(doc, code.strip().splitlines()[0]) for doc, _, kind, code in BLOCKS if kind.endswith("notest")}
    assert shown == set(NOT_RUN)


def test_shell_blocks_hold_only_commands_of_the_package_and_the_makefile() -> None:
    targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))
    for where, block in SHELL:
        for args in _commands(block):
            assert args[0] in ("powergrid-nb", "make"), f"{where}: {args}"
            if args[0] == "make":
                named = [a for a in args[1:] if "=" not in a]
                assert named and set(named) <= targets, f"{where}: no Makefile target {named}"


def test_the_readme_is_short() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


def test_no_document_cites_an_issue_number() -> None:
    """Documents say what was measured or decided, not where a tracker discussed it."""
    cite = re.compile(r"(?<![\w&/])#\d+\b|\bissues? #?\d+", re.I)
    for doc in [*DOCS, ROOT / "benchmarks" / "README.md"]:
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            assert not cite.search(line), f"{doc.name}:{n}: {line}"


def test_every_relative_link_leads_to_a_file() -> None:
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://", "#")):
                continue
            assert (doc.parent / target.split("#")[0]).exists(), f"{doc.name}: {target}"


def test_every_anchor_within_the_guides_is_a_heading() -> None:
    def slug(heading: str) -> str:
        return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")

    def headings(doc: Path) -> set[str]:
        prose = FENCE.sub("", doc.read_text(encoding="utf-8"))
        return {slug(h) for h in re.findall(r"^#+ (.+)$", prose, re.M)}

    anchors = {doc.name: headings(doc) for doc in DOCS}
    for doc in DOCS:
        for file, anchor in re.findall(r"\]\(([\w\-./]*)#([\w\-]+)\)", doc.read_text(encoding="utf-8")):
            name = Path(file).name if file else doc.name
            assert anchor in anchors[name], f"{doc.name}: {file}#{anchor}"


def test_the_modules_where_things_moved_exist() -> None:
    """docs/api.md's table from old module paths to new: every new path imports."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `powergrid_nb[^`]*` \| `(powergrid_nb[^`]*)` \|$", text, re.M)
    assert len(rows) > 10
    for row in rows:
        first, *others = [part.strip() for part in row.split(",")]
        parent = first.rpartition(".")[0]
        for name in [first, *(parent + part for part in others)]:
            importlib.import_module(name)


def test_the_golden_corpus_is_as_large_as_the_architecture_says() -> None:
    with gzip.open(ROOT / "tests" / "golden" / "corpus.json.gz", "rt", encoding="utf-8") as f:
        games = json.load(f)
    assert f"{len(games)} seeded games" in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_the_package_comes_from_the_wheel(fresh: Path, tmp_path: Path) -> None:
    r = _run([str(fresh / "python"), "-c", "import powergrid_nb; print(powergrid_nb.__file__)"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert str(fresh.parent) in r.stdout and str(ROOT) not in r.stdout


@pytest.mark.parametrize("where, code", PYTHON, ids=[w for w, _ in PYTHON])
def test_python_block_runs(fresh: Path, tmp_path: Path, where: str, code: str) -> None:
    r = _run([str(fresh / "python"), "-c", code], tmp_path)
    assert r.returncode == 0, f"{where} failed:\n{code}\n{r.stderr[-3000:]}"


@pytest.fixture(scope="module")
def doc_folders() -> dict[str, Path]:
    """One working folder per document: its command blocks run there in the document's order, as a
    reader follows it (a `room list` finds the rooms file the `room create` above it made)."""
    return {}


@pytest.mark.parametrize("where, commands", COMMANDS, ids=[w for w, _ in COMMANDS])
def test_command_runs(fresh: Path, tmp_path_factory, doc_folders: dict[str, Path], where: str,
                      commands: list[list[str]]) -> None:
    doc = where.split(":")[0]
    if doc not in doc_folders:
        doc_folders[doc] = tmp_path_factory.mktemp(doc.replace(".", "_"))
    tmp_path = doc_folders[doc]
    for args in commands:
        r = _run([str(fresh / args[0]), *args[1:]], tmp_path)
        assert r.returncode == 0, f"{where}: {shlex.join(args)}\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
        for flag in ("--out", "--per-round", "--market"):
            if flag in args:
                assert (tmp_path / args[args.index(flag) + 1]).stat().st_size > 0
