"""The wheel ships the map files and the app's Jupyter files, so a non-editable install can use them."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from _install import build_wheel

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def test_wheel_contains_maps_and_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in ("powergrid_nb/_maps/germany.json", "powergrid_nb/_maps/usa.json",
              "powergrid_nb/engine/rules/data/plants.json",
              "powergrid_nb/engine/rules/data/editions.json",
              "powergrid_nb/jupyter_config/voila.json",  # the app's server (`make app`)
              "powergrid_nb/views/boards.json",  # the built-in maps' layouts (views.mapboard)
              "powergrid_nb/jupyter_data/voila/templates/powergrid/conf.json"):
        assert f in names


def test_installed_wheel_loads_maps_and_plays(wheel: Path, tmp_path: Path) -> None:
    """Unpacked outside the source tree (what a non-editable ``pip install .`` gives)."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import powergrid_nb, random\n"
        "from powergrid_nb.engine.board.maps import load_map\n"
        f"assert powergrid_nb.__file__.startswith({str(site)!r}), powergrid_nb.__file__\n"
        "for name in ('germany', 'usa'):\n"
        "    m = load_map(name)\n"
        "    assert '_maps' in m.path and len(m.cities) == 42, m.path\n"
        "g = powergrid_nb.new_game(3, map='usa', seed=3)\n"
        "from powergrid_nb.views import mapboard\n"
        "w = mapboard.table_width(g)\n"  # the table's layout ships (the outline read from _maps)
        "key = mapboard.layout_key(*mapboard.board_inputs(g), mapboard.fit_height(g, w), w, "
        "mapboard.legend_size(g))\n"
        "assert key in mapboard.shipped_layouts()\n"
        "rng = random.Random(3)\n"
        "while not g.is_over: g.apply(rng.choice(g.legal_actions()))\n"
        "print('ok', g.round)\n"
    )
    prelude = f"import sys; sys.path.insert(0, {str(site)!r})\n"
    r = subprocess.run([sys.executable, "-I", "-c", prelude + code], capture_output=True, text=True,
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok")
