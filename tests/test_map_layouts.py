"""The layouts of the built-in maps ship with the package (views/boards.json, scripts/make_boards.py): a
table opens without laying its map out (seconds), and a shipped layout is the one the code makes."""

from __future__ import annotations

import pytest

from powergrid_nb import new_game
from powergrid_nb.views import mapboard

MAPS = ("germany", "usa")
REMAKE = "run `.venv/bin/python scripts/make_boards.py` to write views/boards.json again"


def names(n: int) -> list[list[str] | int]:
    """The players of the tables checked: default names, a human and bots, 40-character names."""
    return [n, ["You", *(f"Bot {k}" for k in range(1, n))], [f"P{k} " + "x" * 40 for k in range(n)]]


def table_key(g) -> str:  # noqa: ANN001
    width = mapboard.table_width(g)
    return mapboard.layout_key(*mapboard.board_inputs(g), mapboard.fit_height(g, width), width,
                               mapboard.legend_size(g))


@pytest.mark.parametrize("map_name", MAPS)
@pytest.mark.parametrize("edition", ["original", "recharged"])
def test_every_play_table_of_a_built_in_map_has_its_layout_shipped(map_name: str, edition: str) -> None:
    for n in range(2, 7):
        for players in names(n):
            players = [p[:40] for p in players] if isinstance(players, list) else players
            g = new_game(players, map=map_name, edition=edition, seed=1)
            assert table_key(g) in mapboard.shipped_layouts(), f"{map_name} {edition} {n} players: {REMAKE}"


@pytest.mark.parametrize("map_name", MAPS)
def test_the_replay_draws_its_map_with_the_tables_layout(map_name: str) -> None:
    """The replay's map is laid out as the play table's (shipped, nothing clashing); Germany squeezed
    into the 560 px it had before put 61 names or costs on others."""
    from powergrid_nb.panels.replay import Replay

    for edition in ("original", "recharged"):
        g = new_game(["You", "Bot 1", "Bot 2"], map=map_name, edition=edition, seed=1)
        g.apply(g.legal_actions()[0])
        fig = Replay(g).map
        assert fig.layout.height == mapboard.fit_height(g, mapboard.table_width(g))
        assert table_key(g) in mapboard.shipped_layouts(), f"{map_name} {edition}: {REMAKE}"
        assert mapboard.board(g).clashes == ()


def test_a_table_opens_with_the_shipped_layout_without_laying_the_map_out(monkeypatch) -> None:  # noqa: ANN001
    g = new_game(6, map="usa", seed=2)
    mapboard._board.cache_clear()

    def lay_out(*_args: object) -> None:
        raise AssertionError("laid out again")

    monkeypatch.setattr(mapboard, "lay_out", lay_out)
    b = mapboard.board(g)
    assert set(b.xy) == set(g.map.cities) and not b.clashes


def test_a_map_that_is_not_shipped_is_laid_out() -> None:
    g = new_game(3, map="germany", seed=1)
    cities, links, path = mapboard.board_inputs(g)
    moved = ((cities[0][0], cities[0][1] + 0.3, cities[0][2]), *cities[1:])
    width = mapboard.table_width(g)
    key = mapboard.layout_key(moved, links, path, 900, width, mapboard.legend_size(g))
    assert key not in mapboard.shipped_layouts()


def test_a_layout_reads_back_as_it_was_written() -> None:
    b = mapboard.board(new_game(4, map="germany", seed=1))
    assert mapboard.from_json(mapboard.to_json(b)) == b


@pytest.mark.slow
@pytest.mark.parametrize("map_name", MAPS)
def test_a_shipped_layout_is_the_one_the_code_makes(map_name: str) -> None:
    g = new_game(["You", "Bot 1", "Bot 2"], map=map_name, seed=1)
    width = mapboard.table_width(g)
    height, legend = mapboard.fit_height(g, width), mapboard.legend_size(g)
    shipped = mapboard.shipped_layouts()[table_key(g)]
    made = mapboard.lay_out(*mapboard.board_inputs(g), height, width, legend)
    assert mapboard.from_json(shipped) == made, REMAKE
