"""A class room in real browsers: two players, each at their own page, play a round against
each other and a bot.

The rooms file is made here (``SQLiteStore``): one room of Germany, seed 9, seats Ann and Ben (humans,
Ann opens round 1, Ben next) and Cy (a random bot). Voila serves the app as `make app ROOMS=...` does
(``POWERGRID_ROOMS``). Two browser contexts, one per player, open the app at their join links
(``/?code=<code>``: Voila hands the query string to the kernel, the page joins at once). The two humans
play round 1 to its end by clicking the controls of their own table (``_lab.Driver``), while the bot
moves on its own (the room's kernels drive it under the lease). After every step:

* the page whose seat is not to act shows the waiting note and no control of the phase;
* each page's game log shows every decision so far, the other human's and the bot's too (a generous
  wait: the time it takes is measured by benchmarks/rooms_browser.py);

and at the end both pages show the same status and the same log as the room's game, read from the file.
A wrong code typed into the join row is explained and leaves the table as it was. Over the kernel's own
websocket (as a curious student's script would talk to it, no browser): a seat's page holds no widget model
of the teacher's controls (undo, new game, edit, save, load, seats, hint), a message crafted for a model
that does not exist changes nothing, and Download gives the seat's observation. Every request of both
pages is routed (``_lab.Offline``): any to a host other than the local server, any JavaScript or console
error fails; at the end each page's map shows every player's houses. Screenshots of both pages go to
test-artifacts/rooms/.
"""

from __future__ import annotations

import base64
import json
import re
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import _lab
import pytest

from powergrid_nb import new_game
from powergrid_nb.engine.gamelog import log_lines
from powergrid_nb.panels.toolbar import LOG_LINES
from powergrid_nb.rooms import Seat, SQLiteStore

pytestmark = pytest.mark.slow  # about 2 minutes: two Voila kernels and a round of clicks

SHOTS = _lab.ROOT / "test-artifacts" / "rooms"
SEED = 9  # player order Ann, Ben, Cy: a human opens round 1 and the other human decides next
SEATS = [Seat("Ann", "human"), Seat("Ben", "human"), Seat("Cy", "bot", "random")]
HUMANS = ("Ann", "Ben")
SEEN_WITHIN_S = 5.0  # generous: a move shows on the other page within about a second (the benchmark)
BOT_WITHIN_S = 20.0  # the bot's delay (0.6 s) and polls, on a busy machine
# houses per player on the table's map (the plotly data of its pieces: a player's marker trace)
HOUSES_JS = """root => Object.fromEntries([...root.querySelector('.pg-map-box .pg-map-pieces').data]
  .filter(t => t.legendgroup === 'players' && t.mode === 'markers')
  .map(t => [t.name, (t.x || []).filter(x => x !== null).length]))"""
# the log's sentences, oldest first
LOG_LINES_JS = ("root => [...root.querySelectorAll('.pg-log .pg-log-lines > div')]"
                ".map(e => e.innerText.trim())")


class Player:
    """One human at their own browser context: the page, its table, its click driver, its guard."""

    def __init__(self, browser: Any, srv: _lab.Server, seat: str, code: str) -> None:
        joined = _lab.open_room_page(browser, srv, seat, code)
        self.seat, self.context, self.page, self.guard, self.table = (
            seat, joined.context, joined.page, joined.guard, joined.table)
        self.driver = _lab.Driver(self.page, self.table, lab=False)

    def log(self) -> list[str]:
        return self.table.evaluate(LOG_LINES_JS)

    def status(self) -> str:
        return self.table.locator(".pg-status b").first.inner_text().strip()

    def houses(self) -> dict[str, int]:
        return self.table.evaluate(HOUSES_JS)

    def panel_buttons(self) -> int:
        return self.table.locator(".pg-panel button").count()

    def shot(self, name: str) -> None:
        self.page.mouse.move(2, 2)  # no hover label left on the map
        self.page.screenshot(path=str(SHOTS / f"{self.seat.lower()}_{name}.png"), full_page=True)

    def check(self) -> None:
        self.guard.check()


def wait_until(done: Any, what: str, seconds: float, page: Any) -> None:
    limit = time.monotonic() + seconds
    while not done():
        if time.monotonic() > limit:
            raise AssertionError(f"not within {seconds:g} s: {what}")
        page.wait_for_timeout(100)


def settled_on_a_human(store: SQLiteStore, room: str, page: Any) -> Any:
    """The room's game once a human is to act (or the game moved past round 1): the bot moves alone."""
    limit = time.monotonic() + BOT_WITHIN_S
    while True:
        g = store.game(room)
        if g.current_player in HUMANS or g.round > 1 or g.is_over:
            return g
        if time.monotonic() > limit:
            raise AssertionError(f"the bot did not move within {BOT_WITHIN_S:g} s: {g.current_player} to act")
        page.wait_for_timeout(100)


def both_show(players: list[Player], g: Any) -> None:
    """Each page's log is the room's log, and the page whose seat is not to act shows no controls."""
    want = log_lines(g, LOG_LINES)
    for p in players:
        wait_until(lambda p=p: p.log() == want, f"{p.seat}'s log shows {want[-1]!r} (it ends "
                   f"{p.log()[-3:]!r})", SEEN_WITHIN_S, p.page)
        if g.current_player != p.seat:
            panel = p.table.locator(".pg-panel")
            wait_until(lambda p=p: p.panel_buttons() == 0, f"{p.seat}'s controls are gone while "
                       f"{g.current_player} is to act", SEEN_WITHIN_S, p.page)
            who = "Waiting for" if g.current_player in HUMANS else "bot) is playing"
            assert who in panel.inner_text(), (p.seat, panel.inner_text())


@pytest.fixture(scope="module")
def room(rooms_file: Path) -> tuple[Path, str, dict[str, str]]:
    """The room of these tests, in the rooms file the run's rooms server serves."""
    path = rooms_file
    store = SQLiteStore(path)
    created = store.create_room(new_game([s.name for s in SEATS], map="germany", seed=SEED), SEATS,
                                title="class A")
    return path, created.room, created.codes


def test_two_players_play_a_round_against_a_bot_each_at_their_own_page(browser, rooms_server, room) -> None:
    path, room_id, codes = room
    store = SQLiteStore(path)
    SHOTS.mkdir(parents=True, exist_ok=True)
    srv = rooms_server
    players = [Player(browser, srv, seat, codes[seat]) for seat in HUMANS]
    by_seat = {p.seat: p for p in players}
    try:
        for p in players:
            assert p.table.locator(".pg-room-bar").inner_text().count("you play") == 1
            assert "joined: you play" in p.page.locator(".pg-join-message").inner_text()
            p.shot("1_joined")
        g = store.game(room_id)
        both_show(players, g)
        steps, shot_waiting = 0, False
        while g.round == 1 and not g.is_over:
            actor = by_seat[g.current_player]
            wait_until(lambda a=actor: a.driver.phase() != "wait", f"{actor.seat}'s controls appear",
                       SEEN_WITHIN_S, actor.page)
            actor.driver.turn()
            g = settled_on_a_human(store, room_id, actor.page)
            both_show(players, g)
            steps += 1
            if not shot_waiting and g.phase_name == "resources" and g.current_player in HUMANS:
                for p in players:
                    p.shot("2_resources")
                shot_waiting = True
            assert steps < 60, f"round 1 not over after {steps} turns: {g.current_player} to act"
        assert g.round == 2, f"the game did not reach round 2: {g.phase_name}, round {g.round}"
        log = store.log(room_id)
        assert {d.seat for d in log} == {"Ann", "Ben", "Cy"}, "every seat decided, the bot on its own"
        statuses = {p.status() for p in players}
        assert len(statuses) == 1 and statuses.pop().startswith("Round 2"), statuses
        houses = {s.name: g.city_count(s.name) for s in SEATS}
        assert sum(houses.values()) > 0, "nobody built in round 1: the map check would prove nothing"
        for p in players:
            wait_until(lambda p=p: p.houses() == houses, f"{p.seat}'s map shows the houses {houses} (it "
                       f"shows {p.houses()})", SEEN_WITHIN_S, p.page)
        for p in players:
            p.shot("3_round2")
            p.check()
    except Exception:
        for p in players:
            p.page.screenshot(path=str(SHOTS / f"{p.seat.lower()}_failure.png"))
        print(srv.log_tail(30))
        raise
    finally:
        for p in players:
            p.context.close()


def test_a_wrong_code_typed_is_explained_and_the_table_stays(browser, rooms_server, room) -> None:
    path, room_id, codes = room
    store = SQLiteStore(path)
    before = len(store.log(room_id))
    srv = rooms_server
    p = Player(browser, srv, "Ann", codes["Ann"])
    try:
        status, log = p.status(), p.log()
        p.page.locator(".pg-join-code input").fill("not-a-code99")
        p.page.locator("button.pg-join").click()
        message = p.page.locator(".pg-join-message")
        message.get_by_text("this code is no seat's code").wait_for(timeout=20_000)
        assert "class.sqlite" not in message.inner_text() and str(path.parent) not in message.inner_text()
        assert "you play Ann" in p.table.locator(".pg-room-bar").inner_text()
        assert (p.status(), p.log()) == (status, log), "the table changed after a wrong code"
        assert len(store.log(room_id)) == before
        p.shot("4_wrong_code")
        p.check()
    except Exception:
        p.page.screenshot(path=str(SHOTS / "wrong_code_failure.png"))
        print(srv.log_tail(30))
        raise
    finally:
        p.context.close()


# --- over the kernel's websocket: what a crafted message can reach -------------------------------------

TEACHERS = {"pg-undo", "pg-new", "pg-edit", "pg-path", "pg-save", "pg-load", "pg-upload", "pg-delay",
            "pg-pause", "pg-hints", "pg-hint", "pg-hint-cancel", "pg-new-after", "pg-seat-Ann", "pg-seat-Ben",
            "pg-seat-Cy"}


class KernelSocket:
    """The websocket of the kernel behind a seat's app page (its id is in the page Voila sends), spoken to
    as a script would: Jupyter messages, the widgets' comm protocol."""

    def __init__(self, srv: _lab.Server, code: str) -> None:
        import websocket

        page = urllib.request.urlopen(f"{srv.base}/?code={code}", timeout=120).read().decode()
        kernel = re.search(r'kernelId": "([^"]+)"', page).group(1)
        url = f"{srv.base.replace('http', 'ws', 1)}/api/kernels/{kernel}/channels"
        # the kernel protocol v1 (binary frames), the only one the app's server speaks
        self.ws = websocket.create_connection(url, timeout=30, subprotocol=None,
                                              subprotocols=["v1.kernel.websocket.jupyter.org"])
        self.send("kernel_info_request", {})  # as a page does first: the connection is ready once answered
        self.wait_for(lambda m: m["header"]["msg_type"] == "kernel_info_reply")
        self.control = uuid.uuid4().hex
        self.send("comm_open", {"comm_id": self.control, "target_name": "jupyter.widget.control", "data": {}},
                  {"version": "1.0.0"})

    def send(self, kind: str, content: dict, metadata: dict | None = None) -> None:
        from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1

        msg = {"header": {"msg_id": uuid.uuid4().hex, "msg_type": kind, "username": "", "session": "student",
                          "version": "5.3", "date": ""}, "parent_header": {}, "metadata": metadata or {},
               "content": content}
        self.ws.send_binary(serialize_msg_to_ws_v1(msg, "shell", pack=lambda o: json.dumps(o).encode()))

    def comm(self, model: str, data: dict) -> None:
        self.send("comm_msg", {"comm_id": model, "data": data})

    def wait_for(self, match: Any, seconds: float = 30.0) -> dict:
        """The first message ``match(msg)`` accepts."""
        limit = time.monotonic() + seconds
        while time.monotonic() < limit:
            from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1

            frame = self.ws.recv()
            if isinstance(frame, str):
                continue
            _channel, parts = deserialize_msg_from_ws_v1(frame)
            m = dict(zip(("header", "parent_header", "metadata", "content"),
                         (json.loads(x) for x in parts[:4]), strict=True))
            if match(m):
                return m
        raise AssertionError(f"no such message within {seconds:g} s")

    def states(self) -> dict[str, dict]:
        """Every widget model the kernel holds open (what a page may message): id -> model name and state."""
        self.comm(self.control, {"method": "request_states"})
        m = self.wait_for(lambda m: m["header"]["msg_type"] == "comm_msg"
                          and m["content"]["data"].get("method") == "update_states")
        return m["content"]["data"]["states"]

    def close(self) -> None:
        self.ws.close()


def _classes(states: dict[str, dict]) -> set[str]:
    return {c for s in states.values() for c in s["state"].get("_dom_classes", ())}


def test_a_seats_page_holds_no_model_of_the_teachers_controls(rooms_server, room) -> None:
    _path, _room_id, codes = room
    k = KernelSocket(rooms_server, codes["Ann"])
    try:
        states = k.states()
    finally:
        k.close()
    assert "pg-room-bar" in _classes(states) and "pg-download" in _classes(states)  # the seat's table
    assert not _classes(states) & TEACHERS, sorted(_classes(states) & TEACHERS)
    kinds = {s["model_name"] for s in states.values()}
    assert not kinds & {"FileUploadModel", "CheckboxModel", "ToggleButtonModel", "FloatSliderModel",
                        "DropdownModel"}, kinds


def test_crafted_messages_to_models_that_do_not_exist_change_nothing(rooms_server, room) -> None:
    path, room_id, codes = room
    store = SQLiteStore(path)
    before = store.log(room_id)
    k = KernelSocket(rooms_server, codes["Ann"])
    try:
        models = k.states()
        for fake in (uuid.uuid4().hex, "pg-edit", "pg-hints"):  # an Edit, a Hint box: no such models
            k.comm(fake, {"method": "update", "state": {"value": True}, "buffer_paths": []})
            k.comm(fake, {"method": "custom", "content": {"event": "click"}})
            # the kernel refuses it; what it says goes to the server's log, never to the page
            limit = time.monotonic() + 30
            while f"No such comm: {fake}" not in rooms_server.log_path.read_text(encoding="utf-8"):
                assert time.monotonic() < limit, f"the kernel did not refuse the message to {fake}"
                time.sleep(0.2)
        assert k.states().keys() == models.keys()
        # the channel works: a click on the seat's own Download is taken, and gives its observation
        download = next(i for i, s in models.items() if "pg-download" in s["state"].get("_dom_classes", ()))
        k.comm(download, {"method": "custom", "content": {"event": "click"}})
        update = k.wait_for(lambda m: m["header"]["msg_type"] == "comm_msg"
                            and "base64," in json.dumps(m["content"]["data"].get("state", {})))
    finally:
        k.close()
    link = update["content"]["data"]["state"]["value"]
    got = json.loads(base64.b64decode(re.search(r"base64,([^']+)'", link).group(1)))
    assert got["viewer"] == "Ann" and got["config"]["seed"] is None and "size" in got["state"]["deck"]
    assert store.log(room_id) == before  # nothing was decided
