"""The package's layout: the layers hold (import-linter's contracts in pyproject.toml), and only the
engine touches a game's state."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "powergrid_nb"
ENGINE = PACKAGE / "engine"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

# Outside the engine (bots, planner, frames, views, panels, play, ...) code asks a Game's public API.
GAME_NAMES = {"g", "game", "h", "view", "world", "live", "c", "copy", "fork", "scenario", "position"}


def _outside_engine() -> list[Path]:
    files = [p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts]
    return sorted(p for p in files if ENGINE not in p.parents)


def _reaches_in(node: ast.Attribute) -> bool:
    """``g.s``, ``game.ctx`` or ``g._private``: state or internals of a Game."""
    if node.attr in ("s", "ctx"):
        return True
    private = node.attr.startswith("_") and not node.attr.startswith("__")
    target = node.value
    name = target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) \
        else None
    return private and name in GAME_NAMES


def test_the_layers_are_packages() -> None:
    layers = {"engine", "position", "bots", "play", "views", "panels", "rooms", "agents", "lessons"}
    assert layers <= {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    # app_server: the Jupyter servers load it through their configuration (docs/architecture.md)
    assert {p.stem for p in PACKAGE.glob("*.py")} == {"__init__", "accel", "app_server", "cli", "frames"}


@pytest.mark.parametrize("path", _outside_engine(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_outside_the_engine_use_only_the_public_api(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [f"line {n.lineno}: {ast.unparse(n)}" for n in ast.walk(tree)
             if isinstance(n, ast.Attribute) and _reaches_in(n)]
    assert not found, f"{path.name} reaches into a game's state: " + "; ".join(found)


def test_the_guard_catches_state_access() -> None:
    bad = ast.parse("def f(g, game):\n    return g.s.money, game.ctx.names, g._index('Ada')\n")
    hits = [n for n in ast.walk(bad) if isinstance(n, ast.Attribute) and _reaches_in(n)]
    assert len(hits) == 3


def test_import_contracts_hold() -> None:
    """No module imports from a layer above its own (inside functions too), and the engine imports no
    data-frame, plotting or widget library (pyproject.toml's [tool.importlinter])."""
    run = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def _lint_with(tmp_path: Path, module: str, code: str) -> subprocess.CompletedProcess[str]:
    """lint-imports on a copy of the package in which ``code`` ends ``module`` (a path in the package)."""
    import shutil

    copy = tmp_path / "src"
    shutil.copytree(PACKAGE, copy / "powergrid_nb", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    path = copy / "powergrid_nb" / module
    path.write_text(path.read_text(encoding="utf-8") + code, encoding="utf-8")
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=copy, capture_output=True, text=True,
                          env={"PYTHONPATH": str(copy), "PATH": ""})


def test_the_import_contract_catches_an_upward_import(tmp_path: Path) -> None:
    """The layers contract is not vacuous: the engine importing the views breaks it."""
    run = _lint_with(tmp_path, "engine/state.py", "\n\ndef _bad():\n    import powergrid_nb.views\n")
    assert run.returncode != 0
    assert "powergrid_nb.engine.state -> powergrid_nb.views" in run.stdout


def test_the_import_contract_catches_a_circle(tmp_path: Path) -> None:
    """The acyclic contract is not vacuous: a rule fact importing the game (inside a function too) closes
    a circle among the engine's parts, as the game imports the rules."""
    code = "\n\ndef _bad():\n    import powergrid_nb.engine.game\n"
    run = _lint_with(tmp_path, "engine/rules/plants.py", code)
    assert run.returncode != 0
    assert "No cycles are allowed in powergrid_nb.engine." in run.stdout


def test_an_import_for_type_checking_only_is_no_circle(tmp_path: Path) -> None:
    """Annotations under ``if TYPE_CHECKING:`` never run: the same import there breaks no contract."""
    code = "\n\nif TYPE_CHECKING:\n    import powergrid_nb.engine.game\n"
    run = _lint_with(tmp_path, "engine/rules/plants.py", "\nfrom typing import TYPE_CHECKING" + code)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
