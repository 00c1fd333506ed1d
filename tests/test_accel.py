"""The optional compiled engine (powergrid_nb.accel): opt-in, the same games, never stale.

One full build serves the module (tests/conftest.py's ``compiled_engine``, once per run: profile-guided
with GCC in `make test-all`, a single compile in `make test`): the golden corpus must replay on it move
for move, and benchmarks/compare.py measures it beside the pure-Python engine with identical games.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from powergrid_nb import accel
from powergrid_nb.cli import main as cli

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow

PROBE = """
import json, random, sys, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import powergrid_nb
from powergrid_nb import accel, new_game
moves = []
for seed in range(3):
    g, rng = new_game(3, seed=seed, edition="recharged"), random.Random(seed)
    while not g.is_over:
        a = rng.choice(g.legal_actions())
        moves.append(str(a))
        g.apply(a)
state_field = type(powergrid_nb.engine.state.State.__dict__["money"]).__name__
status = accel.status()
print(json.dumps({"status": status, "moves": moves, "game_file": powergrid_nb.engine.game.__file__,
                  "warnings": [str(w.message) for w in caught], "state_field": state_field,
                  "openssl": "_hashlib" in sys.modules}))
"""


def run_probe(accel_dir: Path, **env: str) -> dict:
    """Three seeded random games in a fresh Python with the compiled engine's folder at ``accel_dir``."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("POWERGRID_NB_ACCEL")}
    full.update(PYTHONPATH=str(ROOT), POWERGRID_NB_ACCEL_DIR=str(accel_dir), **env)
    p = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=full, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


@pytest.fixture
def built(compiled_engine: Path) -> Path:
    """The run's compiled engine (its folder of builds)."""
    return compiled_engine


def test_a_fresh_machine_runs_the_pure_python_engine(tmp_path: Path) -> None:
    out = run_probe(tmp_path / "nothing-built")
    assert out["status"]["engine"] == "python" and not out["status"]["built"]
    assert out["game_file"].endswith("game.py")
    assert out["warnings"] == []


def test_a_built_engine_is_loaded_and_plays_the_same_games(built: Path, tmp_path: Path) -> None:
    pure = run_probe(tmp_path / "nothing-built")
    compiled = run_probe(built)
    assert compiled["status"]["engine"] == "compiled"
    assert set(compiled["status"]["loaded"]) <= set(accel.MODULES)
    assert "powergrid_nb.engine.game" in compiled["status"]["loaded"]
    assert not compiled["game_file"].endswith(".py") and compiled["game_file"].startswith(str(built))
    assert compiled["moves"] == pure["moves"] and len(pure["moves"]) > 300


@pytest.mark.full  # the profile-guided build is the full tier's
def test_the_profile_guided_build_keeps_pythons_optimisation(built: Path) -> None:
    """The profile flags come on top of Python's own C flags (-O3 ...): some setuptools read CFLAGS
    instead of Python's flags, and a build through it ran at -O0, slower than pure Python. The
    compiler's flags are in the debug information (Python's flags carry -g)."""
    python = (sysconfig.get_config_var("CFLAGS") or "").split()
    opt = [f for f in python if f.startswith("-O")]
    if "-g" not in python or not opt or not accel.gcc():
        pytest.skip("no record of the compiler's flags (Python's C flags have no -g), or no GCC")
    game = next((accel.build_dir(built) / "powergrid_nb" / "engine").glob("game.*"))
    producers = set(re.findall(rb"GNU C[^\0]*", game.read_bytes()))
    assert producers, "no compiler record in the compiled game module"
    for p in producers:
        assert opt[-1].encode() in p.split() and b"-fprofile-use" in p.split(), p


def test_the_declaration_files_are_compiled_in(built: Path, tmp_path: Path) -> None:
    # state.pxd makes the state an extension type: its fields are struct fields, not slots
    assert run_probe(built)["state_field"] == "getset_descriptor"
    assert run_probe(tmp_path / "nothing-built")["state_field"] == "member_descriptor"


def test_a_declaration_file_added_changed_or_removed_makes_a_build_stale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accel, "HERE", tmp_path)
    module = "powergrid_nb.engine.phases.auction"
    py = accel.source(module)
    py.parent.mkdir(parents=True)
    py.write_text("def legal(g, p):\n    return []\n")
    pxd = py.with_suffix(".pxd")

    def built_now() -> dict[str, dict[str, str]]:
        return {module: {"sha256": accel._digest(accel.source(module))}}

    compiled = built_now()
    assert accel._stale(compiled) == []
    pxd.write_text("cpdef list legal(g, p)\n")
    assert accel._stale(compiled) == [module]  # added since the build
    compiled = built_now()
    pxd.write_text("cpdef legal(g, p)\n")
    assert accel._stale(compiled) == [module]  # changed
    compiled = built_now()
    pxd.unlink()
    assert accel._stale(compiled) == [module]  # removed


def test_sources_untouched_since_the_build_are_not_hashed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accel, "HERE", tmp_path)
    module = "powergrid_nb.engine.phases.auction"
    py = accel.source(module)
    py.parent.mkdir(parents=True)
    py.write_text("def legal(g, p):\n    return []\n")
    entry = {"sha256": accel._digest(py), "stat": accel._stat(py)}
    hashed, digest = [], accel._digest
    monkeypatch.setattr(accel, "_digest", lambda path: hashed.append(path) or digest(path))
    assert accel._stale({module: entry}) == [] and hashed == []
    os.utime(py, ns=(1, 1))  # touched, the same text: its digest says so
    assert accel._stale({module: entry}) == [] and hashed == [py]
    py.write_text("def legal(g, p):\n    return [0]\n")
    assert accel._stale({module: entry}) == [module]


def test_loading_a_build_leaves_openssl_unloaded(built: Path) -> None:
    """hashlib's OpenSSL costs a process some 3 MB of RSS: a game with a fresh build never loads it."""
    out = run_probe(built)
    assert out["status"]["engine"] == "compiled" and out["status"]["stale"] == []
    assert not out["openssl"]


def test_remove_deletes_every_build_of_this_package_and_no_other(tmp_path: Path) -> None:
    def build_like(name: str, package: str) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        (folder / accel.MANIFEST).write_text(json.dumps({"package": package, "modules": {}}))
        return folder

    current = build_like(accel.build_dir(tmp_path).name, str(accel.HERE))
    earlier = build_like("cpython-311-x86_64-linux-gnu-0123456789ab", str(accel.HERE))  # an older name
    other = build_like("cpython-311-x86_64-linux-gnu-feedbeef", "/elsewhere/powergrid_nb")
    assert accel.remove(tmp_path)
    assert not current.exists() and not earlier.exists() and other.exists()
    assert not accel.remove(tmp_path)


def test_the_switch_turns_the_compiled_engine_off(built: Path) -> None:
    out = run_probe(built, POWERGRID_NB_ACCEL="0")
    assert out["status"]["engine"] == "python" and out["status"]["off"]
    assert "POWERGRID_NB_ACCEL turns it off" in accel.describe(out["status"])


def test_a_build_of_other_sources_is_never_loaded(built: Path, tmp_path: Path) -> None:
    stale = tmp_path / "stale"
    shutil.copytree(built, stale)
    manifest_path = accel.build_dir(stale) / accel.MANIFEST
    manifest = json.loads(manifest_path.read_text())
    entry = manifest["modules"]["powergrid_nb.engine.phases.auction"]
    entry["sha256"], entry["stat"][:2] = "0" * 64, [0, 0]  # as if auction.py changed since
    manifest_path.write_text(json.dumps(manifest))
    out = run_probe(stale)
    assert out["status"]["engine"] == "python"
    assert out["status"]["stale"] == ["powergrid_nb.engine.phases.auction"]
    (warning,) = out["warnings"]
    assert "built from other sources" in warning and "powergrid-nb accel build" in warning


def test_a_failed_build_leaves_the_previous_build_as_it_was(built: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "copy"
    shutil.copytree(built, root)
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    monkeypatch.setattr(accel, "_SETUP", "raise SystemExit('error: the C compiler failed')")
    with pytest.raises(accel.AccelError, match=r"(?s)the Cython build failed .*the C compiler failed"):
        accel.build(modules=["powergrid_nb.engine.errors"], root=root, echo=lambda s: None)
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before
    assert accel.status(root)["built"] and not accel.status(root)["stale"]


def test_building_without_cython_says_what_to_install(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "Cython", None)
    with pytest.raises(accel.AccelError, match=re.escape("pip install 'powergrid_nb[accel]'")):
        accel.build(root=tmp_path)
    assert not any(tmp_path.iterdir()) or not accel.status(tmp_path)["built"]


def test_the_test_build_asks_the_compiler_for_its_quick_optimisations_only(built: Path) -> None:
    """`make test` builds with optimize=False: -O1 after Python's flags, so the build takes half the time."""
    manifest = json.loads((accel.build_dir(built) / accel.MANIFEST).read_text(encoding="utf-8"))
    if manifest["optimize"]:
        pytest.skip("the full tier's build is optimised (and profile-guided)")
    python = (sysconfig.get_config_var("CFLAGS") or "").split()
    if "-g" not in python or not accel.gcc():
        pytest.skip("no record of the compiler's flags (Python's C flags have no -g), or no GCC")
    game = next((accel.build_dir(built) / "powergrid_nb" / "engine").glob("game.*"))
    producers = set(re.findall(rb"GNU C[^\0]*", game.read_bytes()))
    assert producers, "no compiler record in the compiled game module"
    for p in producers:
        assert [f for f in p.split() if f.startswith(b"-O")][-1] == b"-O1", p


def test_a_profile_guided_build_is_an_optimised_one(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="pgo=True needs optimize=True"):
        accel.build(root=tmp_path, pgo=True, optimize=False)


def test_only_engine_modules_can_be_compiled(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not engine modules: powergrid_nb.panels"):
        accel.build(modules=["powergrid_nb.panels"], root=tmp_path)


def test_the_command_line_tells_which_engine_runs(built: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POWERGRID_NB_ACCEL_DIR", str(built))
    assert cli(["accel", "status"]) == 0
    # this process imported the pure engine before the build existed; a new process loads the build
    assert capsys.readouterr().out.strip() == ("pure-Python engine (a compiled engine is built; a new "
                                               "Python process loads it)")


def test_the_compiled_engine_replays_the_golden_corpus(built: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("POWERGRID_NB_ACCEL")}
    env.update(PYTHONPATH=str(ROOT), POWERGRID_NB_ACCEL_DIR=str(built))
    check = ("import powergrid_nb.engine.game, sys; "
             "sys.exit(not powergrid_nb.engine.game.__file__.endswith('.so'))")
    assert subprocess.run([sys.executable, "-c", check], cwd=ROOT, env=env).returncode == 0
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                        "tests/test_golden.py"], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=1800)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert re.search(r"\d+ passed", p.stdout)


def test_compare_measures_the_compiled_engine_beside_the_others(built: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("POWERGRID_NB_ACCEL")}
    env["POWERGRID_NB_ACCEL_DIR"] = str(built)  # an up-to-date build is reused, not rebuilt
    cmd = [sys.executable, "benchmarks/compare.py", "--against", "bab14b2", "--quick", "--rounds", "1",
           "--compiled"]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"^IDENTICAL GAMES \(.*baseline vs head vs compiled\): yes$", r.stdout, re.M), r.stdout
    assert r.stdout.count("identical: yes") == 2
    assert f"reusing the build in {built}" in r.stdout
    spread = r"[\d,.]+ \[[\d,.]+–[\d,.]+\]"
    line = next(x for x in r.stdout.splitlines() if x.startswith("random 4p original games/s"))
    assert re.search(rf"{spread}\s+{spread}\s+\d+\.\d{{3}}\s+{spread}\s+\d+\.\d{{3}}$", line), line
    assert "[15/15] round 1" in r.stderr  # 5 tasks x 3 engines
