"""The engine core: undo from snapshots, is_legal, the phase protocol, typed events."""

from __future__ import annotations

import random

import pytest

from powergrid_nb import Game, new_game
from powergrid_nb.engine.events import EVENT_TYPES, Event
from powergrid_nb.engine.game import CHECKPOINT_EVERY
from powergrid_nb.engine.phases.rounds import PHASES, turns


def _played(seed: int, decisions: int, players: int = 4, **kw) -> Game:
    g = new_game(players, seed=seed, **kw)
    rng = random.Random(seed)
    while not g.is_over and len(g.actions) < decisions:
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("k", [1, 2, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 3, 57])
def test_undo_from_a_snapshot_equals_replaying_from_the_start(k: int) -> None:
    g = _played(3, 150)
    fresh = new_game(4, seed=3)
    for a in g.actions[:-k]:
        fresh.apply(a)
    undone = g.undo(k)
    assert len(undone) == k
    assert g.to_dict() == fresh.to_dict()
    assert g.history == fresh.history and g.actions == fresh.actions


def test_undo_then_the_same_decisions_again_gives_the_same_game() -> None:
    g = _played(5, 120)
    before, redo = g.to_dict(), g.undo(40)
    for a in redo:
        g.apply(a)
    assert g.to_dict() == before
    assert g.undo(len(g.actions)) and g.to_dict() == new_game(4, seed=5).to_dict()


def test_is_legal_agrees_with_the_legal_actions_and_changes_nothing() -> None:
    g = _played(8, 60)
    for a in g.legal_actions():
        assert g.is_legal(a) and g.is_legal(str(a))
    before = g.to_dict()
    other = [p for p in g.players if p != g.current_player][0]
    assert not g.is_legal(f"{other}: pass")  # R14: not their turn
    assert not g.is_legal("nobody: pass")
    assert g.to_dict() == before


@pytest.mark.parametrize("phase", sorted(PHASES))
def test_each_phase_states_who_acts_first_once(phase: int) -> None:
    """R25, R45, R54, R71 (and O23): a position loaded at a phase's start gets that phase's turns."""
    g = new_game(3, seed=2)
    order = [g.player_index(p) for p in g.player_order]
    want = {0: order[::-1], 1: [], 2: order, 3: order[::-1], 4: order[::-1], 5: order, 6: []}[phase]
    assert turns(g.ctx, order, phase) == want


def test_every_phase_takes_only_its_own_actions_R13() -> None:
    kinds = {n: {a.kind for a in ph.actions} for n, ph in PHASES.items()}
    assert kinds == {0: {"mark"}, 1: set(), 2: {"open", "bid", "pass", "discard"}, 3: {"buy", "done"},
                     4: {"build", "done"}, 5: {"power"}, 6: set()}


@pytest.mark.parametrize("edition", ["original", "recharged"])
def test_every_event_of_a_game_survives_its_save_row(edition: str) -> None:
    g = _played(11, 10_000, players=2 if edition == "recharged" else 5, edition=edition)
    assert g.is_over
    seen = set()
    for e in g.history:
        assert Event.from_row(e.to_row()) == e
        seen.add(e.kind)
    assert {"decision", "plant", "draw", "buy", "house", "powered", "income", "refill", "phase",
            "order", "market", "game_over"} <= seen <= set(EVENT_TYPES)


def test_the_game_log_reads_as_sentences() -> None:
    g = _played(4, 400, starting_cities=True)
    for e in g.history:
        text = e.text()
        assert text[0].isupper() or text[0].isdigit() or text.startswith(tuple(g.participants)), text
        assert text.endswith("."), text
        assert "(" not in text.split(")")[-1], text


def test_money_moved_by_the_events_adds_up_to_each_players_money() -> None:
    g = _played(6, 10_000)
    start = g.rules.tables["starting_money"]
    for p in g.players:
        assert start + sum(e.money_delta for e in g.history if e.who == p) == g.money(p)


def test_room_for_one_more_token_agrees_with_the_storage_rule_R48_R49() -> None:
    from itertools import product

    from powergrid_nb.engine.rules.plants import fits, room_for_one

    for cap in product((0, 2, 4), (0, 2, 4), (0, 2), (0, 2), (0, 2, 4)):
        for held in product(range(5), range(5), range(3), range(3)):
            if fits(cap, held):
                want = tuple(fits(cap, [x + (i == k) for i, x in enumerate(held)]) for k in range(4))
                assert room_for_one(cap, held) == want, (cap, held)


def test_a_game_loads_only_the_engine() -> None:
    """Memory: ``import powergrid_nb`` and a whole game load the engine only. The bots, the
    rulebook, the scenario editor and the reader of version-1 saves load when first asked for, under
    the names they always had; OpenSSL (hashlib, some 3 MB of RSS) and importlib.resources (tempfile,
    zipfile, bz2, lzma: some 1.7 MB) not at all."""
    import subprocess
    import sys

    later = ("powergrid_nb.bots", "powergrid_nb.engine.rules.rulebook", "powergrid_nb.position.scenario",
             "powergrid_nb.engine.io.history_v1")
    never = ("_hashlib", "importlib.resources", "tempfile", "zipfile")
    code = ("import random, sys, powergrid_nb as pg\n"
            "g = pg.new_game(4, seed=2); ch = random.Random(2).choice\n"
            "while not g.is_over: g.apply(ch(g.legal_actions()))\n"
            "pg.new_game(3, map='usa', edition='recharged')\n"
            f"loaded = [m for m in {later + never!r} if m in sys.modules]\n"
            "assert not loaded, loaded\n"
            "from powergrid_nb import HeuristicBot, Scenario, rule\n"
            "assert pg.bots.HeuristicBot is HeuristicBot and pg.position.scenario.Scenario is Scenario\n"
            "assert rule('R58').number == 'R58' and 'SearchBot' in dir(pg)\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
