"""The README runs verbatim: every Python block and every ``powergrid-nb`` command, as written, in a fresh
virtual environment with the package installed from its wheel (not editable), in an empty folder.

The fresh environment installs the wheel with ``--no-deps`` and borrows the third-party packages of the
running environment through a ``.pth`` line (installing pandas, plotly and JupyterLab again would take
minutes); the package itself, its data and its ``powergrid-nb`` script come from the wheel only. The
``make`` commands are what CI runs itself (``.ci/run``).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)
SHELL_BLOCKS = re.findall(r"```bash\n(.*?)```", README, re.S)
COMMANDS = [b for b in SHELL_BLOCKS if b.lstrip().startswith("powergrid-nb")]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    """A new venv with the wheel installed (not editable); returns its bin directory."""
    base = tmp_path_factory.mktemp("fresh")
    wheels = base / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(wheels), str(ROOT)], check=True, capture_output=True, text=True)
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (whl,) = wheels.glob("powergrid_nb-*.whl")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet", "--no-deps",
                    "--no-index", str(whl)], check=True, capture_output=True, text=True)
    (site / "zz_borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin"


def _run(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={"PATH": f"{Path(args[0]).parent}:/usr/bin:/bin", "HOME": str(cwd),
                               "MPLBACKEND": "Agg"})


def test_readme_has_examples() -> None:
    assert len(PYTHON_BLOCKS) >= 5 and COMMANDS


def test_the_package_comes_from_the_wheel(fresh: Path, tmp_path: Path) -> None:
    r = _run([str(fresh / "python"), "-c", "import powergrid_nb; print(powergrid_nb.__file__)"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert str(fresh.parent) in r.stdout and str(ROOT) not in r.stdout


@pytest.mark.parametrize("index", range(len(PYTHON_BLOCKS)))
def test_readme_python_block_runs(fresh: Path, tmp_path: Path, index: int) -> None:
    r = _run([str(fresh / "python"), "-c", PYTHON_BLOCKS[index]], tmp_path)
    assert r.returncode == 0, f"README block {index} failed:\n{PYTHON_BLOCKS[index]}\n{r.stderr[-3000:]}"


# `powergrid-nb accel build` compiles the engine (minutes): once more in the full tier only, as `make test`
# builds it once already (tests/conftest.py's compiled_engine, by the same powergrid_nb.accel.build)
@pytest.mark.parametrize("index", [pytest.param(i, marks=[pytest.mark.full] if "accel build" in c else [])
                                   for i, c in enumerate(COMMANDS)])
def test_readme_command_runs(fresh: Path, tmp_path: Path, index: int) -> None:
    args = shlex.split(COMMANDS[index].replace("\\\n", " "))
    r = _run([str(fresh / args[0]), *args[1:]], tmp_path)
    assert r.returncode == 0, f"{COMMANDS[index]}\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    for flag in ("--out", "--per-round", "--market"):
        if flag in args:
            assert (tmp_path / args[args.index(flag) + 1]).stat().st_size > 0
