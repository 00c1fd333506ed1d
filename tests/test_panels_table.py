"""The playing table (powergrid_nb.panels.Table) without a browser: a human seat and bots, status,
messages for illegal clicks, undo, seats, pausing, the bot timer, save/load and a whole game."""

from __future__ import annotations

import asyncio
import datetime
import json
import random
import re

import pytest
from _panels import (
    BOTS_FIRST,
    NAMES,
    YOU,
    YOU_FIRST,
    click,
    click_errors_fail,  # noqa: F401 (autouse)
    click_randomly,
    find,
    game_at,
    has,
    message,
    one,
    opening_table,
    table_for,
)

from powergrid_nb import Build, Done, Open, Pass, new_game
from powergrid_nb.bots import Bot
from powergrid_nb.engine.gamelog import log_lines
from powergrid_nb.panels import SetupForm, Table, play


class Broken(Bot):
    name = "broken"
    needs_view = False

    def choose(self, game):
        raise RuntimeError("boom")


# --- bots and status ------------------------------------------------------------------------------
def test_bots_play_until_the_human_is_to_act():
    g = new_game(NAMES, seed=BOTS_FIRST)
    assert g.current_player != YOU
    t = table_for(g)
    assert g.current_player == YOU
    assert g.actions and all(a.player != YOU for a in g.actions)
    assert t.game is g


def test_after_the_humans_decision_the_bots_move_until_the_human_acts_again():
    t = table_for(new_game(NAMES, seed=BOTS_FIRST))
    g = t.game
    n = len(g.actions)
    t.submit(g.legal_actions()[0])
    assert g.is_over or g.current_player == YOU
    assert len(g.actions) > n + 1  # the human's decision and at least one bot move


def test_status_names_the_player_to_act_and_the_phase():
    t = table_for(game_at(phase=3, round=2))
    status = one(t, "pg-status").value
    assert f"Round {t.game.round}" in status and "Phase: resources" in status and "You to act" in status
    assert "buy resources" in status  # what the phase expects of the player


def test_status_names_the_bot_whose_turn_it_is_while_paused():
    t = table_for(new_game(NAMES, seed=BOTS_FIRST))
    t.pause(True)
    t.submit(t.game.legal_actions()[0])
    who = t.game.current_player
    assert who != YOU
    assert f"{who} to act" in t.status.value and "random bot, paused" in t.status.value


def test_the_phase_panel_shows_a_note_while_a_bot_plays():
    t = table_for(new_game(NAMES, seed=BOTS_FIRST))
    t.pause(True)
    t.submit(t.game.legal_actions()[0])
    assert "is playing" in t.actions.children[0].value
    assert not find(t.actions, "pg-open") and not find(t.actions, "pg-pass")


# --- illegal or stale actions ------------------------------------------------------------------------
def test_an_illegal_action_shows_a_message_naming_the_rule_and_changes_nothing():
    t = opening_table()
    g = t.game
    before = g.to_dict()
    assert t.submit(Pass(YOU)) is False  # R35: nobody passes in round 1
    assert "R35" in message(t)
    assert g.to_dict() == before


def test_an_action_out_of_turn_names_the_turn_rule():
    t = table_for(game_at(phase=3, round=2))
    g = t.game
    before = g.to_dict()
    other = next(p for p in g.players if p != YOU)
    assert t.submit(Done(other)) is False
    assert "R14" in message(t)
    assert g.to_dict() == before


def test_a_stale_button_of_an_earlier_position_shows_a_message_and_changes_nothing():
    t = opening_table()
    g = t.game
    stale = one(t, "pg-open")
    stale.click()  # opens the auction; bots answer until You acts again
    assert g.current_player == YOU or g.phase != 2
    before = g.to_dict()
    stale.click()  # the same opening again: no longer legal
    assert g.to_dict() == before
    assert "You: open" in message(t) and re.search(r"\bR\d+:", message(t))  # the action and its rule


def test_the_widgets_of_a_replaced_panel_are_closed():
    """A browser cannot send a late click (e.g. the second of a double click) to a closed widget."""
    t = opening_table()
    old = one(t, "pg-open")
    old.click()
    assert old.comm is None
    assert all(x.comm is not None for x in find(t.actions, "pg-pass") + find(t.actions, "pg-raise"))


def test_a_legal_action_clears_the_message():
    t = opening_table()
    t.submit(Pass(YOU))
    assert message(t)
    t.submit(t.game.legal_actions()[0])
    assert message(t) == ""


# --- undo -------------------------------------------------------------------------------------------
def test_undo_takes_back_the_humans_last_decision_and_the_bot_moves_after_it():
    t = table_for(game_at(phase=3, round=2))
    g = t.game
    before, n = g.to_dict(), len(g.actions)
    t.submit(Done(YOU))
    assert len(g.actions) > n + 1
    click(t, "pg-undo")
    assert len(g.actions) == n
    assert g.to_dict() == before
    assert g.current_player == YOU
    assert "undone: You are done" in message(t)  # in the log's words, not the notation "You: done"
    assert not t.paused


def test_undo_of_a_build_says_it_in_the_logs_words():
    t = table_for(game_at(phase=4, round=1))  # 50 Elektro less a plant: a first city is affordable
    g = t.game
    city = next(a.cities[0] for a in g.legal_actions() if isinstance(a, Build))
    t.submit(Build(YOU, city))
    assert any(x.startswith(f"You build in {city}") for x in log_lines(g))
    click(t, "pg-undo")
    assert f"undone: You build in {city}" in message(t)


def test_undo_with_nothing_to_undo_says_so():
    g = new_game(NAMES, seed=YOU_FIRST)  # You opens round 1: no decision yet
    t = table_for(g)
    assert not g.actions
    assert one(t, "pg-undo").disabled
    t.undo()
    assert "nothing to undo" in message(t)


def test_undo_in_an_all_bot_game_steps_back_one_move_and_pauses():
    g = new_game(["Bo", "Cy"], seed=3)
    t = Table(g, bots={"Bo": "random", "Cy": "random"}, delay=0)
    assert g.is_over  # delay 0 and no loop: the bots play it out at once
    n = len(g.actions)
    t.undo()
    assert len(g.actions) == n - 1 and not g.is_over
    assert t.paused and one(t, "pg-pause").value is True
    assert "paused" in t.status.value


# --- seats and pausing --------------------------------------------------------------------------------
def test_set_seat_hands_the_human_seat_to_a_bot_and_back():
    t = opening_table()
    t.pause(True)
    t.set_seat(YOU, "random")
    assert t.seat(YOU) == "random" and t.humans == []
    assert t.game.current_player == YOU  # paused: the new bot waits
    assert not find(t.actions, "pg-open")
    t.set_seat(YOU, "human")
    assert t.seat(YOU) == "human"
    assert find(t.actions, "pg-open")


def test_the_seat_dropdown_hands_a_seat_to_a_bot_which_then_plays():
    t = table_for(game_at(phase=3, round=2, players=["You", "Bo"]))
    one(t, f"pg-seat-{YOU}").value = "random"
    assert t.game.is_over  # every seat a bot, delay 0: played to the end


def test_the_seat_dropdowns_follow_set_seat():
    t = opening_table()
    t.pause(True)
    t.set_seat(YOU, "random")
    t.set_seat("Bo", "human")
    assert one(t, f"pg-seat-{YOU}").value == "random"
    assert one(t, "pg-seat-Bo").value == "human"


def test_a_bot_object_of_an_unregistered_class_gets_its_own_seat_entry():
    g = new_game(NAMES, seed=YOU_FIRST)
    broken = Broken()
    t = Table(g, bots={"Bo": broken, "Cy": "random"}, delay=0)
    seat = one(t, "pg-seat-Bo")
    assert seat.value is broken and seat.label == "Broken"
    seat.value = "human"
    assert t.seat("Bo") == "human"
    seat.value = broken
    assert t.bots["Bo"] is broken


def test_set_seat_rejects_an_unknown_player():
    t = opening_table()
    with pytest.raises(ValueError, match="no player"):
        t.set_seat("Zed", "random")


def test_pause_stops_the_bots_and_resume_lets_them_play():
    t = table_for(game_at(phase=3, round=2))
    g = t.game
    one(t, "pg-pause").value = True
    assert t.paused
    t.submit(Done(YOU))
    stopped = g.current_player
    n = len(g.actions)
    assert stopped != YOU and stopped in t.bots
    t.run_bots()
    assert len(g.actions) == n  # still paused
    one(t, "pg-pause").value = False
    assert g.is_over or g.current_player == YOU
    assert len(g.actions) > n


def test_a_bot_that_raises_pauses_the_table_with_a_message():
    g = new_game(NAMES, seed=BOTS_FIRST)  # Bo opens round 1
    t = Table(g, bots={"Bo": Broken(), "Cy": "random"}, delay=0)
    assert g.current_player == "Bo" and not g.actions
    assert t.paused and one(t, "pg-pause").value is True
    assert "Bo's bot failed" in message(t) and "boom" in message(t)


# --- the bot timer in a kernel ------------------------------------------------------------------------
def test_with_an_event_loop_bots_move_on_the_timer():
    async def main() -> tuple[int, int, str | None]:
        g = new_game(NAMES, seed=BOTS_FIRST)
        t = table_for(g, delay=0.01)
        assert t.game is g
        moved_at_once = len(g.actions)
        for _ in range(500):
            if g.current_player == YOU:
                break
            await asyncio.sleep(0.01)
        return moved_at_once, len(g.actions), g.current_player

    at_once, later, who = asyncio.run(main())
    assert at_once == 0  # nothing synchronously: the bots wait for the timer
    assert later > 0 and who == YOU


def test_with_an_event_loop_pausing_cancels_the_pending_bot_move():
    async def main() -> tuple[int, int]:
        g = new_game(NAMES, seed=BOTS_FIRST)
        t = table_for(g, delay=0.01)
        t.pause(True)
        await asyncio.sleep(0.05)
        return len(g.actions), int(t._timer is not None)

    assert asyncio.run(main()) == (0, 0)


# --- save and load --------------------------------------------------------------------------------------
def test_save_to_a_path_then_load_restores_the_same_position(tmp_path):
    t = table_for(game_at(phase=3, round=2))
    saved = t.game.to_dict()
    one(t, "pg-path").value = str(tmp_path / "game.json")
    click(t, "pg-save")
    assert "saved" in message(t)
    t.submit(Done(YOU))
    assert t.game.to_dict() != saved
    click(t, "pg-load")
    assert "loaded" in message(t)
    assert t.game.to_dict() == saved
    assert set(t.bots) == {"Bo", "Cy"}  # the seats stay with their bots


def test_loading_a_missing_path_gives_a_message(tmp_path):
    t = table_for(game_at(phase=3, round=2))
    before = t.game.to_dict()
    one(t, "pg-path").value = str(tmp_path / "nowhere.json")
    click(t, "pg-load")
    assert "could not load" in message(t)
    assert t.game.to_dict() == before


def test_loading_a_corrupt_file_at_a_path_gives_a_message(tmp_path):
    t = table_for(game_at(phase=3, round=2))
    before = t.game.to_dict()
    bad = tmp_path / "bad.json"
    bad.write_text("{ this is not json")
    one(t, "pg-path").value = str(bad)
    click(t, "pg-load")
    assert "could not load" in message(t)
    assert t.game.to_dict() == before


def _file(content: bytes, name: str = "pos.json") -> dict:
    return {"name": name, "type": "application/json", "size": len(content), "content": memoryview(content),
            "last_modified": datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)}


def test_an_uploaded_json_file_loads_the_position():
    saved = game_at(phase=3, round=2, seed=4)
    t = opening_table()
    t.toolbar._uploaded({"new": (_file(json.dumps(saved.to_dict()).encode()),)})
    assert "loaded pos.json" in message(t)
    assert t.game.to_dict() == saved.to_dict()


def test_choosing_a_file_in_the_file_picker_loads_it():
    saved = game_at(phase=3, round=2, seed=4)
    t = opening_table()
    one(t, "pg-upload").value = (_file(json.dumps(saved.to_dict()).encode()),)
    assert t.game.to_dict() == saved.to_dict()


@pytest.mark.parametrize("content", [b"{ not json", b"\xff\xfe\x00", b"[1, 2, 3]", b'{"format": "chess"}'],
                         ids=["not-json", "not-utf8", "not-a-dict", "not-a-game"])
def test_a_corrupt_upload_gives_a_message_not_an_exception(content):
    t = opening_table()
    before = t.game.to_dict()
    t.toolbar._uploaded({"new": (_file(content, "bad.json"),)})
    assert "could not load bad.json" in message(t)
    assert t.game.to_dict() == before


def test_an_empty_upload_does_nothing():
    t = opening_table()
    t.toolbar._uploaded({"new": ()})
    assert message(t) == ""


# --- a whole game by clicking ------------------------------------------------------------------------
def test_a_whole_game_can_be_played_by_clicking_panel_buttons_only():
    g = new_game([YOU, "Bo"], edition="recharged", seed=4)  # against the Trust and a builder bot
    t = table_for(g, bot="builder")
    rng = random.Random(0)
    for _ in range(3000):
        if g.is_over:
            break
        click_randomly(t, rng)
    assert g.is_over
    assert any(a.player == YOU for a in g.actions)
    ranking = one(t, "pg-ranking").value
    positions = [ranking.index(f"<b>{p}</b>") for p in g.ranking()]
    assert positions == sorted(positions)  # listed best first (R99-R102)
    assert has(t, "pg-new-after")
    assert "Game over" in t.status.value


def test_new_game_after_the_end_shows_the_setup_form():
    g = new_game(["Bo", "Cy"], seed=3)
    t = Table(g, bots={"Bo": "random", "Cy": "random"}, delay=0)
    click(t, "pg-new-after")
    assert isinstance(t.children[0], SetupForm)
    click(t, "pg-cancel")  # back to the game
    assert t.game is g and has(t, "pg-ranking")


# --- entry points ----------------------------------------------------------------------------------------
def test_a_game_displayed_in_a_notebook_shows_a_table(monkeypatch):
    import powergrid_nb.panels.display

    shown, made = [], []
    monkeypatch.setattr("IPython.display.display", lambda obj, *a, **k: shown.append(obj))
    real = powergrid_nb.panels.display.play
    monkeypatch.setattr(powergrid_nb.panels.display, "play",
                        lambda *a, **k: made.append(real(*a, **k)) or made[-1])
    g = new_game(NAMES, seed=YOU_FIRST)
    g._ipython_display_()
    (bundle,), (table,) = shown, made  # the live table's widget view, a static picture beside it
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == table.model_id
    assert isinstance(table, Table) and table.game is g and table.bots == {}


def test_play_without_a_game_shows_the_setup_form():
    t = play()
    assert t.game is None
    assert has(t, "pg-setup")


def test_play_with_new_game_arguments_starts_that_game():
    t = play(players=[YOU, "Bo"], seed=9, bots={"Bo": "random"}, delay=0)
    assert t.game.players == [YOU, "Bo"] and t.seat("Bo") == "random"
    assert t.game.current_player == YOU


def test_open_auction_submits_the_chosen_plant_and_bid():
    t = opening_table()
    g = t.game
    plant = int(one(t, "pg-open").description.split()[2])
    n = len(g.actions)
    click(t, "pg-open")
    assert g.actions[n] == Open(YOU, plant, g.actions[n].bid)


def test_the_map_shows_the_trusts_houses_as_it_builds_R132():
    g = new_game([YOU, "Bo"], edition="recharged", seed=3)
    t = Table(g, bots={"Bo": "random"}, delay=0)
    rng = random.Random(0)
    while not g.is_over and len(g.cities_of(g.trust)) < 3:
        click_randomly(t, rng)
    (trust,) = [tr for tr in t.board.pieces.data if tr.name == g.trust and tr.legendgroup == "players"
                and tr.customdata]
    assert sorted(c for c, _slot in trust.customdata) == sorted(g.cities_of(g.trust))
