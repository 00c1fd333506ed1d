"""benchmarks/compare.py end to end, quick, one round: the golden corpus's commit (bab14b2) against
the working tree. The games must be identical: a change that alters play fails here as in the corpus.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROWS = [f"random {p}p {e} games/s" for e in ("original", "recharged") for p in (2, 4, 6)] + [
    "pair legal+apply µs median (4p)", "pair legal+apply µs p95 (4p)", "heuristic x4 games/s (4p)",
    "undo(1) µs at decision", "copy() µs at decision", "peak RSS KiB", "save() file bytes"]


@pytest.mark.slow
def test_compare_against_the_golden_commit_quick() -> None:
    cmd = [sys.executable, "benchmarks/compare.py", "--against", "bab14b2", "--quick", "--rounds", "1"]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"^IDENTICAL GAMES .*: yes$", r.stdout, re.M), r.stdout
    assert r.stdout.count("identical: yes") == 2, r.stdout
    table = r.stdout.split("\n\n")[1]
    spread = r"[\d,.]+ \[[\d,.]+–[\d,.]+\]"
    for row in ROWS:
        line = next((x for x in table.splitlines() if x.startswith(row)), None)
        assert line is not None, f"no row {row!r} in\n{table}"
        assert re.search(rf"{spread}\s+{spread}\s+\d+\.\d{{3}}$", line), line
    assert "[10/10] round 1" in r.stderr  # 5 tasks x 2 engines, progress on stderr
    (path,) = re.findall(r"temporary worktree (\S+), removed", r.stdout)
    assert not Path(path).exists()
    listed = subprocess.run(["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True).stdout
    assert path not in listed
