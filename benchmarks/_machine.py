"""The machine a benchmark ran on, for the header every benchmark script prints."""

from __future__ import annotations

import math
import os
import platform
from collections.abc import Iterable
from pathlib import Path


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``, else what ``platform`` knows)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def cores() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 0


def nearest_rank(values: Iterable[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0 to 1) of the values: the ceil(q·n)-th smallest."""
    s = sorted(values)
    return s[max(0, math.ceil(q * len(s)) - 1)]
