"""Editions and maps have one list each: ``EDITIONS`` and ``builtin_maps()``; every choice, form, help text
and default of the package reads them (a default written out in a signature is the registry's default)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable

import pytest

from powergrid_nb.cli import _parser
from powergrid_nb.engine.board.maps import DEFAULT_MAP, builtin_maps, load_map
from powergrid_nb.engine.editions import (
    DEFAULT_EDITION,
    EDITIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_COUNTS,
    get_edition,
)
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.engine.rules.rulebook import rules
from powergrid_nb.engine.rules.tables import EDITION_NAMES, edition_tables


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        _parser().parse_args([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())  # argparse wraps lines


def _edition_choices(text: str) -> list[str]:
    found = re.search(r"--edition \{([^}]*)\}", text)
    assert found, text
    return found[1].split(",")


def test_the_registries_name_their_defaults() -> None:
    assert DEFAULT_EDITION in EDITIONS and DEFAULT_MAP in builtin_maps()
    assert all(name == cls.name for name, cls in EDITIONS.items())


def test_every_edition_has_its_tables_and_its_title_in_the_rules_facts() -> None:
    """The edition objects (engine/editions.py) and the names the rulebook reads below them
    (rules/tables.py) are the same editions, in the same order, with the same titles."""
    assert set(EDITIONS) == set(edition_tables()) - {"schema", "notes"}
    assert list(EDITION_NAMES) == list(EDITIONS)
    assert {name: cls.title for name, cls in EDITIONS.items()} == EDITION_NAMES
    assert {e for r in rules() for e in r.editions} <= set(EDITIONS)


def test_the_game_is_for_2_to_6_players_r105_and_every_table_has_a_column_per_count() -> None:
    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 6)
    for name in EDITIONS:
        assert set(edition_tables()[name]["plant_limit"]) == set(PLAYER_COUNTS)
    with pytest.raises(ValueError, match="2 to 6 players"):
        new_game(MAX_PLAYERS + 1)


def test_an_unknown_edition_is_refused_naming_every_edition() -> None:
    with pytest.raises(ValueError) as e:
        get_edition("deluxe")
    assert all(repr(name) in str(e.value) for name in EDITIONS)


@pytest.mark.parametrize("argv", [["simulate"], ["room", "create"]], ids=["simulate", "room"])
def test_the_command_line_offers_the_registries(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    args = _parser().parse_args(argv)
    assert (args.map, args.edition) == (DEFAULT_MAP, DEFAULT_EDITION)
    text = _help(argv, capsys)
    assert _edition_choices(text) == list(EDITIONS)
    assert all(m in text for m in builtin_maps())
    assert f"a count ({MIN_PLAYERS}-{MAX_PLAYERS})" in text


def test_the_setup_form_offers_the_registries() -> None:
    from powergrid_nb.panels.setup import SetupForm

    f = SetupForm(on_start=lambda *a: None)
    assert list(f.edition.options) == list(EDITIONS) and f.edition.value == DEFAULT_EDITION
    assert list(f.map.options) == builtin_maps() and f.map.value == DEFAULT_MAP
    assert (f.players.min, f.players.max) == (MIN_PLAYERS, MAX_PLAYERS)


def test_the_scenario_editor_and_the_sweep_offer_the_registries() -> None:
    from powergrid_nb.panels.editor import ScenarioEditor
    from powergrid_nb.panels.sweep import SweepPanel

    ed, sweep = ScenarioEditor(), SweepPanel()
    for edition, game_map in ((ed.f_edition, ed.f_map), (sweep.edition, sweep.map)):
        assert list(edition.options) == list(EDITIONS) and edition.value == DEFAULT_EDITION
        assert list(game_map.options) == builtin_maps() and game_map.value == DEFAULT_MAP
    for players in (ed.f_players, sweep.players):
        assert (players.min, players.max) == (MIN_PLAYERS, MAX_PLAYERS)


def _defaults() -> list[Callable]:
    from powergrid_nb.play.tournaments import tournament
    from powergrid_nb.position.scenario import Scenario

    return [new_game, load_map, Scenario.new, tournament]


@pytest.mark.parametrize("fn", _defaults(), ids=lambda f: f.__qualname__)
def test_a_default_written_in_a_signature_is_the_registrys(fn: Callable) -> None:
    params = inspect.signature(fn).parameters
    map_param = "map" if "map" in params else "source"
    assert params[map_param].default == DEFAULT_MAP
    assert params["edition"].default == DEFAULT_EDITION


def test_the_agents_start_from_the_registries_defaults() -> None:
    single = pytest.importorskip("powergrid_nb.agents.single")
    aec = pytest.importorskip("powergrid_nb.agents.aec")
    for cls in (single.PowerGridEnv, aec.raw_env):
        params = inspect.signature(cls).parameters
        assert (params["map"].default, params["edition"].default) == (DEFAULT_MAP, DEFAULT_EDITION)


def test_the_openspiel_game_starts_from_the_registries_defaults() -> None:
    openspiel = pytest.importorskip("powergrid_nb.agents.openspiel")
    assert (openspiel.DEFAULTS["map"], openspiel.DEFAULTS["edition"]) == (DEFAULT_MAP, DEFAULT_EDITION)
