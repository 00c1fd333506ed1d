"""The optional compiled engine: the same engine sources compiled with Cython, for Monte-Carlo speed.

The pure-Python engine is the default, and the only one on a fresh machine. Building the accelerator
is a choice a user makes once per checkout or install (it needs ``pip install 'powergrid_nb[accel]'``,
a C compiler and the Python headers)::

    powergrid-nb accel build      # a few minutes on 2 cores
    powergrid-nb accel status
    powergrid-nb accel remove

Once built, ``import powergrid_nb`` loads the compiled modules instead of the sources, but only while
every source is byte for byte the one that was compiled: after any edit the package is pure Python
again (with a warning) until the next build. ``POWERGRID_NB_ACCEL=0`` turns the compiled engine off;
``POWERGRID_NB_ACCEL_DIR`` says where builds live (default: the user's cache folder). Compiled or
not, a game is the same game: the same sources run, with Python's semantics (no C types are inferred
from annotations), and the tests replay the golden corpus on both. Two things make it faster without
changing a value: ``.pxd`` files beside some sources (Cython's augmenting declarations: the state as
an extension type with Python-object fields, read through typed locals; direct calls inside a module),
and, with GCC, profile-guided optimisation (compiled once with counters, trained on seeded games, then
compiled again with the profile).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
import warnings
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

PACKAGE = "powergrid_nb"
HERE = Path(__file__).resolve().parent
# What a game and the bots run. What draws, tabulates (pandas) or drives processes stays Python, and so
# does what a game does not run decision by decision (the typed events and the log's words, built when
# read; saves; map files; the rulebook; the start-city tables): compiling it gains nothing and costs
# every process its machine code (some 100-400 KB of RSS a module).
MODULES: tuple[str, ...] = tuple(f"{PACKAGE}.{m}" for m in (
    "engine.actions", "engine.context", "engine.editions", "engine.errors", "engine.game", "engine.newgame",
    "engine.options", "engine.queries", "engine.state", "engine.trust",
    "engine.phases.auction", "engine.phases.base", "engine.phases.building", "engine.phases.bureaucracy",
    "engine.phases.playerorder", "engine.phases.resources", "engine.phases.rounds", "engine.phases.steps",
    "engine.rules.plants", "engine.rules.tables",
    "engine.board.maprules", "engine.board.maps", "engine.board.network", "engine.board.queries",
    "engine.io.visibility",
    "bots.base", "bots.expansion", "bots.fuel", "bots.heuristic", "bots.planner", "bots.search",
    "bots.valuation",
))
# Python's semantics, not C's: annotations stay annotations, no C types are inferred.
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False, "infer_types": None}
MANIFEST = "manifest.json"
OFF = ("0", "off", "no", "false")


class AccelWarning(UserWarning):
    """The compiled engine exists but was not loaded (it was built from other sources)."""


class AccelError(RuntimeError):
    """Building the compiled engine failed (no Cython, no compiler, a compile error)."""


def source(module: str) -> Path:
    """The ``.py`` file of an engine module of this package."""
    return HERE.joinpath(*module.split(".")[1:]).with_suffix(".py")


def _digest(path: Path) -> str:
    """sha256 of a module's ``.py`` and, if there is one, of the ``.pxd`` beside it (a changed, added
    or removed declaration file makes a build stale as a changed source does)."""
    import hashlib  # only for a file touched since the build, or to build: OpenSSL costs 3 MB of RSS

    h = hashlib.sha256(path.read_bytes())
    pxd = path.with_suffix(".pxd")
    if pxd.exists():
        h.update(b"\0pxd\0" + pxd.read_bytes())
    return h.hexdigest()


def _stat(path: Path) -> list[int | None]:
    """Size and modification time of a module's ``.py`` and ``.pxd`` (None for a missing ``.pxd``):
    while they are those of the build, the sources are (Python's own bytecode cache trusts the same)."""
    out: list[int | None] = []
    for f in (path, path.with_suffix(".pxd")):
        try:
            st = f.stat()
            out += [st.st_size, st.st_mtime_ns]
        except FileNotFoundError:
            out += [None, None]
    return out


def _stale(entries: dict[str, dict[str, Any]]) -> list[str]:
    """The modules whose source (or declarations) is not the one that was compiled (changed or gone):
    files untouched since the build are the same without hashing them (hashlib's OpenSSL would cost
    every process 3 MB), others are compared by their sha256."""
    out = []
    for m, entry in entries.items():
        try:
            path = source(m)
            same = entry.get("stat") == _stat(path) or _digest(path) == entry["sha256"]
        except OSError:
            same = False
        if not same:
            out.append(m)
    return out


def platform_tag() -> str:
    """The interpreter and platform a compiled module is for, e.g. ``cpython-311-x86_64-linux-gnu``."""
    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so").strip(".").rsplit(".", 1)[0]


def default_root() -> Path:
    """Where builds live: ``POWERGRID_NB_ACCEL_DIR``, else the user's cache folder."""
    if os.environ.get("POWERGRID_NB_ACCEL_DIR"):
        return Path(os.environ["POWERGRID_NB_ACCEL_DIR"])
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / PACKAGE / "accel"


def build_dir(root: Path | None = None) -> Path:
    """This checkout's (or install's) build for this interpreter: one per package folder."""
    where = f"{zlib.crc32(str(HERE).encode()):08x}"  # names the folder; the manifest says whose it is
    return (root or default_root()) / f"{platform_tag()}-{where}"


def _manifest(folder: Path) -> dict[str, Any] | None:
    try:
        return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def status(root: Path | None = None) -> dict[str, Any]:
    """Which engine ``import powergrid_nb`` loaded, and what is built: a dict for people and tests."""
    folder = build_dir(root)
    manifest = _manifest(folder)
    loaded = sorted(m for m in MODULES if m in sys.modules
                    and str(getattr(sys.modules[m], "__file__", "")).startswith(str(folder)))
    info: dict[str, Any] = {"engine": "compiled" if loaded else "python", "loaded": loaded,
                            "directory": str(folder), "built": manifest is not None}
    if manifest:
        stale = _stale(manifest["modules"])
        info.update(cython=manifest.get("cython"), built_at=manifest.get("built_at"), pgo=manifest.get("pgo"),
                    modules=sorted(manifest["modules"]), stale=stale)
    info["off"] = os.environ.get("POWERGRID_NB_ACCEL", "").lower() in OFF
    return info


class _Finder:
    """Serves the compiled file for each module of the build, before the normal import system (a
    meta path finder: only ``find_spec`` is needed)."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def find_spec(self, name: str, path: Any = None,
                  target: Any = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(name)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(
            name, file, loader=importlib.machinery.ExtensionFileLoader(name, file))


def install(root: Path | None = None) -> bool:
    """Load the compiled modules from now on, if a build for exactly these sources exists.

    Called by ``powergrid_nb/__init__.py`` before it imports the engine; returns whether it did.
    """
    if os.environ.get("POWERGRID_NB_ACCEL", "").lower() in OFF:
        return False
    if not (root or default_root()).is_dir():
        return False  # the usual case: nothing was ever built; nothing read, nothing hashed
    folder = build_dir(root)
    if not folder.is_dir():
        return False
    manifest = _manifest(folder)
    if manifest is None or manifest.get("platform") != platform_tag():
        return False
    entries = manifest["modules"]
    stale = _stale(entries)
    if stale:
        warnings.warn(f"powergrid_nb: the compiled engine in {folder} was built from other sources "
                      f"({', '.join(stale[:3])}{'...' if len(stale) > 3 else ''} changed since); the "
                      "engine runs as pure Python. Rebuild it with `powergrid-nb accel build` or remove "
                      "it with `powergrid-nb accel remove`.", AccelWarning, stacklevel=3)
        return False
    files = {m: str(folder / entry["file"]) for m, entry in entries.items()}
    if any(m in sys.modules for m in files):
        return False  # too late to swap a module already imported
    sys.meta_path.insert(0, _Finder(files))
    return True


# --- building ------------------------------------------------------------------------------------

_SETUP = """\
import sys
from setuptools import Extension, setup
from Cython.Build import cythonize
modules, directives = sys.argv[1].split(","), eval(sys.argv[2])
jobs, flags = int(sys.argv[3]), sys.argv[4].split()
sys.argv[1:] = ["build_ext", "--inplace", "--force", "--parallel", str(jobs)]
exts = [Extension(m, [m.replace(".", "/") + ".py"], extra_compile_args=flags, extra_link_args=flags)
        for m in modules]
setup(name="powergrid_nb_accel", ext_modules=cythonize(exts, compiler_directives=directives,
      nthreads=jobs, quiet=True), script_args=sys.argv[1:])
"""
# The profile-guided build's training run: the modules just compiled with counters play seeded games
# (other seeds than the benchmarks'), so that GCC lays out the hot paths of real play.
_TRAIN = """\
import importlib.util, json, random, sys
spec = importlib.util.spec_from_file_location("powergrid_nb_accel_training", sys.argv[1])
accel = importlib.util.module_from_spec(spec)  # this file alone: the package is imported after the finder
spec.loader.exec_module(accel)
files = json.loads(sys.argv[2])
sys.meta_path.insert(0, accel._Finder(files))
import powergrid_nb
from powergrid_nb import new_game
from powergrid_nb.bots import HeuristicBot, play
from powergrid_nb.engine.editions import EDITIONS
game_file = powergrid_nb.engine.game.__file__
assert game_file == files["powergrid_nb.engine.game"], game_file
for edition in EDITIONS:
    for players in (2, 3, 4, 5, 6):
        for seed in range(10_000, 10_010):
            g, rng = new_game(players, edition=edition, seed=seed), random.Random(seed)
            while not g.is_over:
                g.apply(rng.choice(g.legal_actions()))
            g.undo(20)
            g.copy()
for seed in range(10_000, 10_003):
    play(new_game(4, seed=seed), [HeuristicBot(seed * 10 + i) for i in range(4)])
"""
PGO_GENERATE = "-fprofile-generate"
QUICK = "-O1"  # after Python's own flags (-O2 or -O3), so it wins
PGO_USE = "-fprofile-use -fprofile-correction -Wno-missing-profile"


def gcc() -> bool:
    """Whether the C compiler that builds extensions is GCC (the profile-guided flags are GCC's)."""
    import subprocess

    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    try:
        out = subprocess.run([cc[0], "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out and "clang" not in out.lower()


def build(modules: Iterable[str] = MODULES, root: Path | None = None, jobs: int | None = None,
          echo: Callable[[str], None] = print, pgo: bool | None = None, optimize: bool = True) -> Path:
    """Compile ``modules`` of this package with Cython into this checkout's build folder.

    ``pgo``: profile-guided (compile, train on seeded games, compile again); by default with GCC and
    the whole engine. ``optimize=False`` asks the C compiler for its quick optimisations only
    (``-O1``, no profile): the same engine, built in about half the time and running slower (the test
    suite's build). The build happens in a temporary folder and replaces the old build only when it
    is complete, so a failed or stopped build (Ctrl-C) leaves the engine as it was. Returns the build
    folder.
    """
    import shutil
    import tempfile
    import time

    modules = tuple(modules)
    unknown = sorted(set(modules) - set(MODULES))
    if unknown:
        raise ValueError(f"not engine modules: {', '.join(unknown)} (see powergrid_nb.accel.MODULES)")
    try:
        import Cython
    except ImportError:
        raise AccelError("building the compiled engine needs Cython: "
                         "pip install 'powergrid_nb[accel]'") from None
    jobs = jobs or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    if pgo is None:
        pgo = optimize and set(modules) == set(MODULES) and gcc()  # training plays games: every module
    elif pgo and not optimize:
        raise ValueError("a profile-guided build is an optimised one: pgo=True needs optimize=True")
    folder = build_dir(root)
    folder.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=".build-", dir=folder.parent) as tmp:
        work = Path(tmp) / "src"
        digests, stats = {}, {}
        for m in modules:
            stats[m] = _stat(source(m))  # before the copy: an edit after it makes the build stale
            target = work.joinpath(*m.split(".")).with_suffix(".py")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source(m), target)
            if source(m).with_suffix(".pxd").exists():
                shutil.copyfile(source(m).with_suffix(".pxd"), target.with_suffix(".pxd"))
            digests[m] = _digest(target)
            for pkg in target.relative_to(work).parents:  # Cython names a module by its package
                if str(pkg) != ".":
                    (work / pkg / "__init__.py").touch()
        echo(f"compiling {len(modules)} engine modules with Cython {Cython.__version__} on {jobs} "
             f"core(s){', profile-guided (twice, with a training run between)' if pgo else ''}; this "
             f"takes {'a few minutes' if pgo else 'a minute or two'}...")
        _compile(work, modules, jobs, PGO_GENERATE if pgo else "" if optimize else QUICK)
        if pgo:
            _train(work, modules)
            _compile(work, modules, jobs, PGO_USE)
        out = Path(tmp) / "out"
        entries = {}
        for m, built in _built(work, modules).items():
            rel = built.relative_to(work)
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(built, out / rel)
            entries[m] = {"file": str(rel), "sha256": digests[m], "stat": stats[m]}
        manifest = {"platform": platform_tag(), "cython": Cython.__version__, "package": str(HERE),
                    "built_at": time.strftime("%Y-%m-%d %H:%M:%S %z"), "pgo": pgo, "optimize": optimize,
                    "modules": entries}
        (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        out.rename(folder)
    echo(f"built {len(modules)} modules in {time.perf_counter() - started:.0f} s into {folder}; "
         "a new Python process now loads them")
    return folder


def _compile(work: Path, modules: tuple[str, ...], jobs: int, cflags: str) -> None:
    """Cython and the C compiler on the copies in ``work`` (``cflags`` added to the compiler's and the
    linker's flags, after Python's own: not in CFLAGS, which some setuptools take instead of Python's
    flags, -O3 included)."""
    args = [",".join(modules), repr(DIRECTIVES), str(jobs), cflags]
    _run([sys.executable, "-c", _SETUP, *args], "the Cython build failed", cwd=work)


def _run(cmd: list[str], failure: str, **options: Any) -> None:
    """Run ``cmd``; if it fails, AccelError saying ``failure``, with the exit code and the last lines."""
    import subprocess

    proc = subprocess.run(cmd, capture_output=True, text=True, **options)
    if proc.returncode:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-15:])
        raise AccelError(f"{failure} (exit {proc.returncode}):\n{tail}")


def _built(work: Path, modules: tuple[str, ...]) -> dict[str, Path]:
    """The compiled file of each module in ``work``."""
    out = {}
    for m in modules:
        stem = work.joinpath(*m.split("."))
        built = sorted(stem.parent.glob(f"{stem.name}.*{platform_tag()}*"))
        if not built:
            raise AccelError(f"the Cython build made no compiled file for {m}")
        out[m] = built[0]
    return out


def _train(work: Path, modules: tuple[str, ...]) -> None:
    """The profile-guided build's training run on the modules compiled with counters in ``work``."""
    files = {m: str(f) for m, f in _built(work, modules).items()}
    env = {k: v for k, v in os.environ.items() if not k.startswith("POWERGRID_NB_ACCEL")}
    env.update(POWERGRID_NB_ACCEL="0", PYTHONPATH=str(HERE.parent))
    # run from the package's parent: from ``work`` the copies' bare package would be imported
    _run([sys.executable, "-s", "-c", _TRAIN, __file__, json.dumps(files)],
         "the training run of the profile-guided build failed", cwd=HERE.parent, env=env)


def remove(root: Path | None = None) -> bool:
    """Delete this checkout's builds: its folder, and any folder whose manifest names this package (a
    build under an earlier folder name, for another interpreter); returns whether there was one."""
    import shutil

    base, folder = root or default_root(), build_dir(root)
    if not base.is_dir():
        return False
    mine = [f for f in base.iterdir() if f.is_dir() and not f.name.startswith(".")
            and (f == folder or (_manifest(f) or {}).get("package") == str(HERE))]
    for f in mine:
        shutil.rmtree(f)
    return bool(mine)


def command(action: str, jobs: int | None = None) -> int:
    """``powergrid-nb accel build|status|remove``: returns the exit code."""
    if action == "build":
        try:
            build(jobs=jobs)
        except AccelError as e:
            print(f"powergrid-nb accel: {e}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print("powergrid-nb accel: stopped; the engine is as it was", file=sys.stderr)
            return 130
        return 0
    if action == "remove":
        print("removed the compiled engine" if remove() else "no compiled engine was built here")
        return 0
    print(describe(status()))
    return 0


def describe(info: dict[str, Any]) -> str:
    """``status()`` in words."""
    if info["engine"] == "compiled":
        return (f"compiled engine: {len(info['loaded'])} modules loaded from {info['directory']} "
                f"(Cython {info.get('cython')}{', profile-guided' if info.get('pgo') else ''}, built "
                f"{info.get('built_at')})")
    if not info["built"]:
        return "pure-Python engine (no compiled engine built; `powergrid-nb accel build` makes one)"
    if info["off"]:
        return "pure-Python engine (a compiled engine is built, but POWERGRID_NB_ACCEL turns it off)"
    if info["stale"]:
        return (f"pure-Python engine: the compiled engine was built from other sources ({len(info['stale'])} "
                "changed since); `powergrid-nb accel build` rebuilds it")
    return "pure-Python engine (a compiled engine is built; a new Python process loads it)"

