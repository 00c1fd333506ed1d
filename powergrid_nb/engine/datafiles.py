"""The package's own files: its data tables (``engine/rules/data/``) and its packaged maps.

Read from the package's folder, not through ``importlib.resources``, which loads tempfile, shutil,
zipfile, bz2 and lzma: some 1.7 MB of RSS in every process, simulation workers included."""

from __future__ import annotations

import sys
from pathlib import Path


def package_dir() -> Path:
    """The package's folder (where ``powergrid_nb/__init__.py`` is), also for a compiled module that
    lives elsewhere (:mod:`powergrid_nb.accel`)."""
    return Path(sys.modules[__name__.partition(".")[0]].__file__).resolve().parent  # type: ignore[arg-type]


def data_text(name: str) -> str:
    """The text of ``engine/rules/data/<name>`` in the package (UTF-8)."""
    return (package_dir() / "engine" / "rules" / "data" / name).read_text(encoding="utf-8")
