"""Side by side: a baseline commit's engine against the working tree's, measured alternately.

    .venv/bin/python benchmarks/compare.py --against bab14b2 [--rounds 5] [--quick] [--compiled]
                                           [--json out.json]

The baseline commit is checked out into a temporary git worktree (removed at the end, also on Ctrl-C).
Every measurement is a fresh child process (benchmarks/_probe.py, the same file for both engines) of
this Python, pinned to one core, with ``PYTHONPATH`` at the engine's root and ``-s -P`` plus a clean
environment so that neither the installed editable package nor the script's directory shadows it;
the child checks ``powergrid_nb.__file__`` and fails loudly if it imported the wrong engine.
In each round every task runs once per engine, the order alternating (baseline, head, head,
baseline, ...) so that drift hits both. Games/s and undo() are timed by the child's CPU clock, the
per-call µs by ``perf_counter_ns``. The figures are the median over the rounds with the min-max
spread; each engine's ratio to the baseline is oriented so that > 1 means that engine is better.
The games are fixed by their seeds, so all engines must play the same games: their action texts are
hashed and compared (exit code 1 if they differ). The working tree is measured as pure Python
(``POWERGRID_NB_ACCEL=0``); ``--compiled`` adds a third engine, the working tree compiled by
``powergrid_nb.accel`` (an up-to-date build is reused, else one is made in a temporary folder before
the first round), measured in the same alternation. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _machine import cores, cpu_model  # benchmarks/_machine.py, beside this script

REPO = Path(__file__).resolve().parent.parent
PROBE = Path(__file__).resolve().parent / "_probe.py"
TASKS = ("random", "latency", "bots", "undo", "memory")
PLAYERS = (2, 4, 6)
EDITIONS = ("original", "recharged")
UNDO_SEED = 1  # this 4p random game lasts 628 decisions, so it reaches decision UNDO_AT
UNDO_AT = 600
SIZES = {  # per measurement: full run, --quick
    "games": (40, 8),  # random games per (players, edition): about 1 s for 4 players
    "latency_games": (20, 4),
    "bot_games": (10, 2),
    "undo_reps": (60, 10),
    "copy_reps": (2000, 300),
    "memory_games": (200, 30),
}
CHILD_TIMEOUT = 900  # seconds; a measurement is a few seconds


class CompareError(RuntimeError):
    """A setup or child-process failure: reported without a traceback, exit code 2."""


# --- git ---------------------------------------------------------------------------------------------

def git(*args: str) -> str:
    """A read-only git command in the repository (``--no-optional-locks``: never refresh the index)."""
    p = subprocess.run(["git", "--no-optional-locks", "-C", str(REPO), *args], capture_output=True,
                       text=True)
    if p.returncode:
        raise CompareError(f"git {' '.join(args)} failed: {p.stderr.strip()}")
    return p.stdout.rstrip("\n")  # not strip(): `status --porcelain` lines may start with a space


def dirty_paths() -> list[str]:
    """The working tree's changes against HEAD (tracked and untracked), as ``git status`` lists them."""
    return [line for line in git("status", "--porcelain", "--untracked-files=normal").splitlines() if line]


@contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """The commit ``rev`` checked out (detached) in a temporary directory, removed on the way out."""
    parent = Path(tempfile.mkdtemp(prefix="powergrid-compare-"))
    path = parent / "baseline"
    try:
        git("worktree", "add", "--detach", "--quiet", str(path), rev)
        yield path
    finally:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not leave it behind
        try:
            if path.exists():
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(path)],
                               capture_output=True)
            shutil.rmtree(parent, ignore_errors=True)
            subprocess.run(["git", "-C", str(REPO), "worktree", "prune"], capture_output=True)
        finally:
            signal.signal(signal.SIGINT, old)


# --- children ----------------------------------------------------------------------------------------

KEEP_ENV = ("PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PYTHONIOENCODING", "PYTHONUTF8")


def child_env(root: Path, compiled: Path | None = None) -> dict[str, str]:
    """This environment with PYTHONPATH at ``root`` and no other PYTHON* variable that could change
    what is imported (PYTHONHOME, PYTHONSTARTUP, PYTHONUSERBASE, ...); those in KEEP_ENV stay.
    The engine is pure Python unless ``compiled`` names the folder of a compiled build."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "POWERGRID_NB_ACCEL")) or k in KEEP_ENV}
    env["PYTHONPATH"] = str(root)
    if compiled is None:
        env["POWERGRID_NB_ACCEL"] = "0"
    else:
        env["POWERGRID_NB_ACCEL_DIR"] = str(compiled)
    return env


def reusable_build(root: Path) -> Path | None:
    """The folder of builds (``POWERGRID_NB_ACCEL_DIR`` or the user's cache) if it holds a compiled
    engine of exactly ``root``'s sources for this Python, else None."""
    env = child_env(root)  # pure Python: status() only reads the build's manifest and the sources
    if "POWERGRID_NB_ACCEL_DIR" in os.environ:
        env["POWERGRID_NB_ACCEL_DIR"] = os.environ["POWERGRID_NB_ACCEL_DIR"]
    code = "import json; from powergrid_nb import accel; print(json.dumps(accel.status()))"
    p = subprocess.run([sys.executable, "-s", "-P", "-c", code], cwd=root, env=env, capture_output=True,
                       text=True)
    if p.returncode:
        return None
    status = json.loads(p.stdout.strip().splitlines()[-1])
    return Path(status["directory"]).parent if status["built"] and not status["stale"] else None


def build_compiled(root: Path, folder: Path) -> float:
    """Compile the engine at ``root`` with powergrid_nb.accel into ``folder``; returns the seconds."""
    started = time.perf_counter()
    code = "from powergrid_nb.accel import build; build(echo=lambda s: None)"
    p = subprocess.run([sys.executable, "-s", "-P", "-c", code], cwd=root, env=child_env(root, folder),
                       capture_output=True, text=True)
    if p.returncode:
        raise CompareError(f"building the compiled engine failed (exit {p.returncode}):\n{p.stderr.strip()}")
    return time.perf_counter() - started


def measure(task: str, root: Path, spec: dict[str, Any], compiled: Path | None = None) -> dict[str, Any]:
    """Run one task of benchmarks/_probe.py in a fresh process on the engine at ``root``."""
    spec = {**spec, "task": task, "root": str(root), "want": "compiled" if compiled else "python"}
    cmd = [sys.executable, "-s", "-P", str(PROBE), json.dumps(spec)]
    try:
        p = subprocess.run(cmd, cwd=root, env=child_env(root, compiled), capture_output=True, text=True,
                           timeout=CHILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise CompareError(f"{task} on {root}: no result after {CHILD_TIMEOUT} s") from None
    if p.returncode:
        raise CompareError(f"{task} on {root} failed (exit {p.returncode}):\n{p.stderr.strip()}")
    out = json.loads(p.stdout.strip().splitlines()[-1])
    want = (root / "powergrid_nb").resolve()
    if want not in Path(out["engine_file"]).resolve().parents:  # the child checks too
        raise CompareError(f"{task}: the child imported {out['engine_file']}, not the engine in {want}")
    return out


# --- the table ---------------------------------------------------------------------------------------

@dataclass
class Metric:
    """One row: how to read its value from a task's result, and which way is better."""

    label: str
    task: str
    value: Callable[[dict[str, Any]], float]
    higher_is_better: bool


def metrics(sizes: dict[str, int], undo_at: int) -> list[Metric]:
    rows = []
    for ed in EDITIONS:
        for p in PLAYERS:
            key = f"{p}p {ed}"
            rows.append(Metric(f"random {key} games/s", "random",
                               lambda r, k=key: r["rows"][k]["games"] / r["rows"][k]["cpu_seconds"], True))
    return rows + [
        Metric("pair legal+apply µs median (4p)", "latency", lambda r: r["median_us"], False),
        Metric("pair legal+apply µs p95 (4p)", "latency", lambda r: r["p95_us"], False),
        Metric("heuristic x4 games/s (4p)", "bots", lambda r: r["games"] / r["cpu_seconds"], True),
        Metric(f"undo(1) µs at decision {undo_at}", "undo", lambda r: r["undo_median_us"], False),
        Metric(f"copy() µs at decision {undo_at}", "undo", lambda r: r["copy_median_us"], False),
        Metric(f"peak RSS KiB, {sizes['memory_games']} random 4p games", "memory",
               lambda r: r["max_rss_kib"], False),
        Metric("save() file bytes, one finished 4p game", "memory", lambda r: r["save_bytes"], False),
    ]


def number(v: float) -> str:
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.2f}" if abs(v) < 10 else f"{v:.1f}"


def cell(values: list[float]) -> str:
    return f"{number(statistics.median(values))} [{number(min(values))}–{number(max(values))}]"


def table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths,
                                                                                               strict=True))))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def summarize(samples: list[dict[str, Any]], sizes: dict[str, int],
              sides: tuple[str, ...]) -> list[dict[str, Any]]:
    """Per metric: each side's values over the rounds and the ratio of its median to the baseline's."""
    by: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for s in samples:
        by.setdefault((s["task"], s["side"]), []).append(s["out"]["result"])
    out = []
    for m in metrics(sizes, by[("undo", "head")][0]["decisions"]):
        row: dict[str, Any] = {"measure": m.label, "better": "higher" if m.higher_is_better else "lower"}
        b = statistics.median(base := [m.value(r) for r in by[(m.task, "baseline")]])
        row["baseline"] = base
        for side in sides[1:]:
            row[side] = [m.value(r) for r in by[(m.task, side)]]
            h = statistics.median(row[side])
            row[f"ratio_{side}"] = (h / b if m.higher_is_better else b / h) if b and h else float("nan")
        row["ratio"] = row["ratio_head"]
        out.append(row)
    return out


def identity(samples: list[dict[str, Any]], sides: tuple[str, ...]) -> dict[str, Any]:
    """The action-text hashes of every game set, per engine; whether all agree."""
    groups: dict[str, dict[str, dict[str, set[str]]]] = {"random": {}, "heuristic": {}}
    for s in samples:
        r, group = s["out"]["result"], "heuristic" if s["task"] == "bots" else "random"
        hashes = {f"{s['task']} {k}": v["hash"] for k, v in r["rows"].items()} if "rows" in r \
            else {s["task"]: r["hash"]}
        for name, h in hashes.items():
            groups[group].setdefault(name, {side: set() for side in sides})[s["side"]].add(h)
    report: dict[str, Any] = {}
    for group, sets in groups.items():
        differ = sorted(n for n, v in sets.items()
                        if len(v["baseline"]) != 1 or any(v[side] != v["baseline"] for side in sides))
        report[group] = {"identical": not differ, "differ": differ,
                         "sets": {n: {k: sorted(v) for k, v in side.items()} for n, side in sets.items()}}
    report["identical"] = all(report[g]["identical"] for g in groups)
    return report


# --- command line ------------------------------------------------------------------------------------

def command() -> str:
    exe = os.path.relpath(sys.executable)
    return shlex.join([exe if not exe.startswith("..") else sys.executable, *sys.argv])


def default_core() -> int:
    try:
        return max(os.sched_getaffinity(0))
    except AttributeError:
        return 0


def on_sigterm(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # run the clean-up as for Ctrl-C


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--against", required=True, metavar="REV", help="the baseline commit (any git revision)")
    ap.add_argument("--rounds", type=int, default=5, help="measurements per engine and task")
    ap.add_argument("--quick", action="store_true", help="fewer games and repetitions per measurement")
    ap.add_argument("--games", type=int, default=None,
                    help="random games per measurement and configuration (default 40, 8 with --quick)")
    ap.add_argument("--seed", type=int, default=0, help="game i of a measurement uses seed+i")
    ap.add_argument("--core", type=int, default=default_core(), help="the CPU every child is pinned to")
    ap.add_argument("--compiled", action="store_true",
                    help="also measure the working tree compiled with Cython (powergrid_nb.accel; needs "
                         "pip install 'powergrid_nb[accel]' and a C compiler; the build takes a few minutes)")
    ap.add_argument("--json", metavar="PATH", help="also write every raw sample as JSON")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    sizes = {k: v[1] if args.quick else v[0] for k, v in SIZES.items()}
    if args.games is not None:
        if args.games < 1:
            ap.error("--games must be at least 1")
        sizes["games"] = args.games
    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        return run(args, sizes)
    except CompareError as e:
        sys.stderr.write(f"compare.py: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("compare.py: interrupted (the worktree was removed)\n")
        return 130


def run(args: argparse.Namespace, sizes: dict[str, int]) -> int:
    """Measure both engines round by round, then print the report; returns the exit code."""
    started = time.perf_counter()
    info = {"against": args.against,
            "baseline_commit": git("rev-parse", "--verify", f"{args.against}^{{commit}}"),
            "head_commit": git("rev-parse", "HEAD"), "dirty": dirty_paths()}
    spec = {"core": args.core, "seed": args.seed, "players": list(PLAYERS), "editions": list(EDITIONS),
            "undo_seed": UNDO_SEED, "at": UNDO_AT}
    task_spec = {
        "random": {"games": sizes["games"]}, "latency": {"games": sizes["latency_games"]},
        "bots": {"games": sizes["bot_games"]}, "undo": {k: sizes[k] for k in ("undo_reps", "copy_reps")},
        "memory": {"games": sizes["memory_games"]},
    }
    samples: list[dict[str, Any]] = []
    sides = ("baseline", "head", "compiled") if args.compiled else ("baseline", "head")
    with worktree(info["baseline_commit"]) as base_root:
        info["worktree"] = str(base_root)
        roots = {"baseline": base_root, "head": REPO, "compiled": REPO}
        builds = {side: None for side in sides}
        if args.compiled:
            builds["compiled"] = reusable_build(REPO)
            if builds["compiled"] is not None:
                info["compiled_from"] = f"reusing the build in {builds['compiled']}"
            else:
                builds["compiled"] = base_root.parent / "compiled"
                sys.stderr.write("compiling the working tree's engine (powergrid_nb.accel)...\n")
                info["compiled_from"] = (f"built in {build_compiled(REPO, builds['compiled']):.0f} s, "
                                         "before the first round")
        total = args.rounds * len(TASKS) * len(sides)
        for rnd in range(args.rounds):
            for t, task in enumerate(TASKS):
                order = sides if (rnd + t) % 2 == 0 else sides[::-1]
                for side in order:
                    wall = time.perf_counter()
                    out = measure(task, roots[side], {**spec, **task_spec[task]}, builds[side])
                    wall = time.perf_counter() - wall
                    samples.append({"round": rnd + 1, "task": task, "side": side, "wall_s": wall, "out": out})
                    sys.stderr.write(f"[{len(samples)}/{total}] round {rnd + 1} {task:<7} {side:<8} "
                                     f"{wall:5.1f} s\n")
                    sys.stderr.flush()
    info["seconds"] = time.perf_counter() - started
    return report(args, sizes, info, spec, samples, sides)


def side_values(samples: list[dict[str, Any]], task: str, side: str, key: str) -> list[Any]:
    """The distinct values of ``key`` in ``side``'s results of ``task`` (sorted)."""
    return sorted({s["out"]["result"][key] for s in samples if (s["task"], s["side"]) == (task, side)})


def cpu_share(samples: list[dict[str, Any]], side: str) -> float:
    """CPU time over wall time of ``side``'s timed games: how much of the core its children had."""
    parts = [r for s in samples if s["side"] == side and s["task"] in ("random", "bots")
             for r in (s["out"]["result"].get("rows", {}).values() or [s["out"]["result"]])]
    return sum(r["cpu_seconds"] for r in parts) / sum(r["seconds"] for r in parts)


def report(args: argparse.Namespace, sizes: dict[str, int], info: dict[str, Any], spec: dict[str, Any],
           samples: list[dict[str, Any]], sides: tuple[str, ...]) -> int:
    """Print the header, the table and the identity verdict; write the JSON; returns the exit code."""
    rows = summarize(samples, sizes, sides)
    same = identity(samples, sides)
    digests = {side: sorted({s["out"]["engine_digest"] for s in samples if s["side"] == side})
               for side in sides}
    wall = {side: sum(s["wall_s"] for s in samples if s["side"] == side) for side in sides}
    env = {
        "python": f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})",
        "platform": platform.platform(),
        "cpu": f"{cpu_model()}, {cores()} CPUs available, {os.cpu_count()} online; "
               f"every child pinned to CPU {args.core}",
        "baseline": f"{args.against} = {info['baseline_commit']} (temporary worktree {info['worktree']}, "
                    + ("NOT removed)" if Path(info["worktree"]).exists() else "removed)"),
        "head": f"{info['head_commit']} + working tree {REPO}, pure Python",
        **({"compiled": f"the same working tree compiled with Cython by powergrid_nb.accel "
                        f"({info['compiled_from']})"} if "compiled" in sides else {}),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "command": command(),
    }

    print("powergrid_nb side by side: baseline commit vs working tree "
          "(a fresh child per measurement, one core)")
    for k, v in env.items():
        print(f"  {k + ':':<10} {v}")
    dirty = info["dirty"]
    if dirty:
        engine = [d for d in dirty if d[3:].startswith(("powergrid_nb/", "maps/"))]
        print(f"  {'dirty:':<10} the working tree differs from HEAD in {len(dirty)} path(s), {len(engine)} "
              f"in powergrid_nb/ or maps/ (head is the working tree, not {info['head_commit'][:7]})")
        for d in engine[:10]:
            print(f"  {'':<10}   {d}")
    if len(digests["head"]) > 1:
        print(f"  {'WARNING:':<10} the working tree's engine changed during the run "
              f"({len(digests['head'])} different source digests): the head rows mix engines")
    print(f"  {'sizes:':<10} {args.rounds} round(s); per measurement {sizes['games']} random games per row, "
          f"latency {sizes['latency_games']} games, heuristic {sizes['bot_games']} games,")
    print(f"  {'':<10} undo {sizes['undo_reps']} reps, copy {sizes['copy_reps']} reps, memory "
          f"{sizes['memory_games']} games; game i uses seed {args.seed}+i, the undo game seed {UNDO_SEED}")
    print()

    header = ["measure", "baseline median [min–max]"]
    for side in sides[1:]:
        header += [f"{side} median [min–max]", f"ratio {side}"]
    print(table([header] + [[r["measure"], cell(r["baseline"])]
                             + [c for side in sides[1:] for c in (cell(r[side]), f"{r[f'ratio_{side}']:.3f}")]
                             for r in rows]))
    print("ratio: how many times better than the baseline (higher is better: side/baseline; lower is "
          "better: baseline/side)")
    print()
    reached = {side: side_values(samples, "undo", side, "decisions") for side in sides}
    print(f"undo/copy: random 4p game seed {UNDO_SEED} stopped at decision "
          + ", ".join(f"{'/'.join(map(str, reached[side]))} ({side})" for side in sides)
          + f" of {UNDO_AT} asked;")
    print("  undo(1) is timed on copies made before the clock starts, one copy per repetition.")
    print("games/s include new_game() and, like undo(1), are timed by the child's CPU clock (process_time),")
    print("  so time other processes had the core is left out; pair and copy() µs by perf_counter_ns, the")
    print("  random choice between legal_actions() and apply() not timed; peak RSS: ru_maxrss of a fresh")
    print("  child after its games, in KiB; save(): the bytes of the file g.save(path) writes (indented")
    print("  JSON).")
    share = {side: cpu_share(samples, side) for side in sides}
    print("CPU share of the games' wall time (random and heuristic): "
          + ", ".join(f"{side} {share[side]:.0%}" for side in sides)
          + ("  (below 90%: a busy machine, expect noise)" if min(share.values()) < 0.9 else ""))
    print(f"time: {info['seconds']:.0f} s in all; children "
          + ", ".join(f"{wall[side]:.0f} s {side}" for side in sides))
    print()

    print("=" * 100)
    print(f"IDENTICAL GAMES (sha256 of every game's action texts, {' vs '.join(sides)}): "
          + ("yes" if same["identical"] else "NO"))
    for group, what in (("random", "uniform-random games (6 rows, latency, undo and memory games)"),
                        ("heuristic", "HeuristicBot games")):
        g = same[group]
        print(f"  {what}: identical: {'yes' if g['identical'] else 'no'}"
              + ("" if g["identical"] else f"  -- differ: {', '.join(g['differ'])}"))
    print("=" * 100)

    if args.json:
        out = {"environment": env, **info, "engine_digests": digests, "rounds": args.rounds,
               "quick": args.quick, "sizes": sizes, "spec": spec, "summary": rows, "identical": same,
               "samples": samples}
        Path(args.json).write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
        print(f"\nwrote {args.json}")
    return 0 if same["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
