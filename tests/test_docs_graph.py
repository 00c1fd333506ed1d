"""docs/architecture.md draws the package's import graph by layer; the picture is the package as it is now:
``scripts/import_graph.py`` writes it from the imports grimp reads, and this test runs the script again."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("grimp", reason="grimp comes with import-linter (the dev tools)")


def _script():
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts" / "import_graph.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_import_graph_is_the_packages_now():
    graph = _script()
    committed = graph.written(graph.DOC.read_text(encoding="utf-8"))
    assert committed == graph.diagram(), "docs/architecture.md is out of date: run scripts/import_graph.py"


def test_the_graph_has_every_layer_and_no_edge_up_the_layers():
    graph = _script()
    rank = {name: i for i, layer in enumerate(graph.layers()) for name in layer}

    def level(node: str) -> int:
        return rank[node.split(".")[0]]

    counts = graph.edges()
    assert {n for pair in counts for n in pair} >= {"engine", "engine.rules", "play", "panels", "cli"}
    for a, b in counts:  # layers are listed highest first; packages of one layer are independent
        assert a.split(".")[0] == b.split(".")[0] or level(a) < level(b), (a, b)


def test_a_module_belongs_to_its_engine_part_or_top_level_package():
    graph = _script()
    assert graph.group("powergrid_nb.engine.rules.plants") == "engine.rules"
    assert graph.group("powergrid_nb.engine.game") == "engine"
    assert graph.group("powergrid_nb.play.analysis.analyze") == "play"
    assert graph.group("powergrid_nb") is None
