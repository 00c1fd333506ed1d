"""The package's layout (issue #9): only the engine core touches a game's state; modules stay small."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "powergrid_nb"

# The engine core: the rules and the game's state. Everything else (bots, planner, frames, timeline,
# views, panels, simulation, tournaments, CLI) asks the public API of Game.
CORE = {
    "__init__", "actions", "auction", "building", "bureaucracy", "context", "editions", "errors",
    "events", "exports", "game", "history_v1", "io", "mapfile", "mapqueries", "maprules", "maps", "network",
    "newgame",
    "phase", "plants", "playerorder", "queries", "resources", "rounds", "rulesdata", "startcities", "state",
    "steps", "trust", "visibility",
}
GAME_NAMES = {"g", "game", "h", "view", "world", "live", "c", "copy", "fork", "scenario", "position"}
MAX_LINES = 420


def _outside_core() -> list[Path]:
    files = [p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts]
    return sorted(p for p in files if p.parent != PACKAGE or p.stem not in CORE)


def _reaches_in(node: ast.Attribute) -> bool:
    """``g.s``, ``game.ctx`` or ``g._private``: state or internals of a Game."""
    if node.attr in ("s", "ctx"):
        return True
    private = node.attr.startswith("_") and not node.attr.startswith("__")
    target = node.value
    name = target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) \
        else None
    return private and name in GAME_NAMES


def test_the_core_list_names_real_modules() -> None:
    assert {p.stem for p in PACKAGE.glob("*.py")} >= CORE
    assert _outside_core(), "nothing outside the core?"


@pytest.mark.parametrize("path", _outside_core(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_outside_the_engine_core_use_only_the_public_api(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [f"line {n.lineno}: {ast.unparse(n)}" for n in ast.walk(tree)
             if isinstance(n, ast.Attribute) and _reaches_in(n)]
    assert not found, f"{path.name} reaches into a game's state: " + "; ".join(found)


def test_the_guard_catches_state_access() -> None:
    bad = ast.parse("def f(g, game):\n    return g.s.money, game.ctx.names, g._index('Ada')\n")
    hits = [n for n in ast.walk(bad) if isinstance(n, ast.Attribute) and _reaches_in(n)]
    assert len(hits) == 3


@pytest.mark.parametrize("path", sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_much_over_400_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines: split it by concept"
