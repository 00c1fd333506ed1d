"""Draw the package's import graph by layer: a Mermaid flowchart written into docs/architecture.md.

    python scripts/import_graph.py           # rewrite the diagram between the markers
    python scripts/import_graph.py --check   # exit 1 if the committed diagram is not the package's now

The nodes are the top-level packages and modules of ``powergrid_nb`` and the engine's subpackages
(``engine/phases``, ``rules``, ``board``, ``io``; the engine's own modules are "engine"). An edge
``A -->|n| B`` says that n distinct (module of A, module of B) pairs are imports, counting imports inside
functions but not those for type checking (under ``if TYPE_CHECKING:``, which never run), as import-linter
does with pyproject.toml's ``exclude_type_checking_imports``. The layers are those of the import-linter
contract in pyproject.toml, highest first. The package's ``__init__`` (which imports the public names of every
layer and plugs the faces in) is left out: it stands above all of them.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections import Counter
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- import-graph: begin (written by scripts/import_graph.py; do not edit by hand) -->"
END = "<!-- import-graph: end -->"
PACKAGE = "powergrid_nb"
ENGINE_PARTS = ("phases", "rules", "board", "io")


def group(module: str) -> str | None:
    """The node a module belongs to: ``engine.rules`` for ``powergrid_nb.engine.rules.plants``, ``play``
    for ``powergrid_nb.play.analysis.core``; None for the package's ``__init__``."""
    parts = module.split(".")[1:]
    if not parts:
        return None
    if parts[0] == "engine" and len(parts) > 2 and parts[1] in ENGINE_PARTS:
        return f"engine.{parts[1]}"
    return parts[0]


def _settings() -> dict:
    """pyproject.toml's ``[tool.importlinter]``."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]


def layers() -> list[list[str]]:
    """The layers of the import-linter contract, highest first, as lists of node names."""
    contract = next(c for c in _settings()["contracts"] if c["type"] == "layers")
    return [[name.strip().removeprefix(f"{PACKAGE}.") for name in layer.split("|")]
            for layer in contract["layers"]]


def edges() -> Counter[tuple[str, str]]:
    """(importer's node, imported node) -> how many module pairs import across them."""
    exclude = bool(_settings().get("exclude_type_checking_imports", False))
    graph = grimp.build_graph(PACKAGE, cache_dir=None, exclude_type_checking_imports=exclude)
    counts: Counter[tuple[str, str]] = Counter()
    for importer in graph.modules:
        source = group(importer)
        for imported in graph.find_modules_directly_imported_by(importer):
            target = group(imported)
            if source and target and source != target:
                counts[source, target] += 1
    return counts


def _id(node: str) -> str:
    return node.replace(".", "_")


def diagram() -> str:
    """The Mermaid block (with its fences) for the package as it is now."""
    counts = edges()
    nodes = sorted({n for pair in counts for n in pair})
    lines = ["```mermaid", "flowchart TB"]
    placed: set[str] = set()
    for index, layer in enumerate(layers()):
        members = [n for n in nodes if n in layer or any(n.startswith(f"{m}.") for m in layer)]
        if not members:
            continue
        lines.append(f'    subgraph L{index}["{" · ".join(layer)}"]')
        lines += [f'        {_id(n)}["{n}"]' for n in members]
        lines.append("    end")
        placed.update(members)
    lines += [f'    {_id(n)}["{n}"]' for n in nodes if n not in placed]
    lines += [f"    {_id(a)} -->|{n}| {_id(b)}" for (a, b), n in sorted(counts.items())]
    lines.append("```")
    return "\n".join(lines) + "\n"


def written(text: str) -> str:
    """The diagram as committed between the markers of ``text``."""
    start, end = text.index(BEGIN) + len(BEGIN) + 1, text.index(END)
    return text[start:end]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="check the committed diagram only")
    args = parser.parse_args(argv)
    if str(ROOT) not in sys.path:  # the package of this checkout, not another one installed (editable)
        sys.path.insert(0, str(ROOT))
    text = DOC.read_text(encoding="utf-8")
    now = diagram()
    if args.check:
        if written(text) != now:
            print(f"{DOC.relative_to(ROOT)}: the import graph is out of date; run scripts/import_graph.py")
            return 1
        return 0
    start, end = text.index(BEGIN) + len(BEGIN) + 1, text.index(END)
    DOC.write_text(text[:start] + now + text[end:], encoding="utf-8")
    print(f"{DOC.relative_to(ROOT)}: {now.count('-->')} edges")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
