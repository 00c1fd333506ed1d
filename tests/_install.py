"""The package as a user installs it: the wheel built from this checkout (not editable), for the tests that
check what an install gives (tests/test_readme.py, tests/test_packaging.py, tests/test_lessons_install.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build_wheel(dest: Path) -> Path:
    """The checkout's wheel, built into the new folder ``dest`` (no isolated build: hatchling is a dev
    dependency, so no download)."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(dest), str(ROOT)], check=True, capture_output=True, text=True)
    (whl,) = Path(dest).glob("powergrid_nb-*.whl")
    return whl
