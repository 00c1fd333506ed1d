"""The README's Python examples run as written."""

import re
from pathlib import Path

import pytest

from powergrid_nb import IllegalAction

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int) -> None:
    namespace: dict = {}
    chunk: list[str] = []
    for line in BLOCKS[index].splitlines():
        if "# IllegalAction" in line:  # the example shows a rejected action: it must be rejected
            exec("\n".join(chunk), namespace)
            chunk = []
            with pytest.raises(IllegalAction, match="R14"):
                exec(line.split("#")[0], namespace)
        else:
            chunk.append(line)
    exec("\n".join(chunk), namespace)
