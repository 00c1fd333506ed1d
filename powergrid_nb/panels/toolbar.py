"""Table controls: undo, new game, save/load (a path, or a plain name in app mode: ``saves.py``; a
download and a file picker), seats (human or a bot), bot delay and pause; the game log and the
game-over panel."""

from __future__ import annotations

import base64
import json
from typing import Any

import ipywidgets as w

from powergrid_nb.engine.errors import PowerGridError
from powergrid_nb.engine.events import Event, PhaseBegins
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.gamelog import count, log_entries, sentence, verb
from powergrid_nb.engine.rules.phases import Phase

from ._widgets import ERROR, OK, PhasePanel, button, esc, label, note, seat_kinds, with_class
from .saves import AnyPath, SaveRefused, download_name, game_from_bytes

LOG_LINES = 40  # the newest lines shown; the box scrolls, its newest line at the bottom


def _entry(e: Event) -> str:
    if isinstance(e, PhaseBegins):  # a heading for each phase and round
        gap = "8px" if e.number == Phase.PLAYER_ORDER else "4px"
        return f"<div style='margin-top:{gap};font-weight:bold;color:#444444'>{esc(sentence(e))}</div>"
    return f"<div>{esc(sentence(e))}</div>"


def log_html(g: Game, n: int = LOG_LINES) -> str:
    """The game log (:func:`powergrid_nb.engine.gamelog.log_entries`): the newest ``n`` sentences, oldest
    first, in a box that scrolls and opens at its newest line."""
    items = "".join(_entry(e) for e in log_entries(g, last=n))
    # a column-reverse scroll box with one child starts scrolled to the bottom; the lines keep their order.
    # Framed; its top padding fades out, so a line scrolled under it reads as "more above", not as a fault.
    return ("<details open><summary><b>Game log</b></summary>"
            "<div style='display:flex;flex-direction:column-reverse;max-height:300px;overflow-y:auto;"
            "font-size:0.9em;line-height:1.35;white-space:normal;overflow-wrap:anywhere;"
            "border:1px solid #E0E0E0;border-radius:4px;padding:1.1em 6px 4px;"
            "mask-image:linear-gradient(to bottom,transparent 0,#000 1.2em);"
            "-webkit-mask-image:linear-gradient(to bottom,transparent 0,#000 1.2em)'>"
            f"<div class='pg-log-lines'>{items}</div></div></details>")


class Toolbar:
    """The controls above the board; ``widget`` is what the table shows."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.undo = button("↶ Undo", "pg-undo", table.undo, tooltip="take back your last decision")
        self.new = button("New game", "pg-new", table.show_setup)
        self.edit = button("Edit position", "pg-edit", table.edit_position,
                           tooltip="edit this position (money, plants, cities, markets, ...) and play it on")
        # where Save and Load may go: any path in JupyterLab, plain names in one folder in app mode
        self.saves = getattr(table, "saves", None) or AnyPath()
        where = "in the app's saves folder under this name" if self.saves.app else "as JSON at the path"
        code = getattr(self.saves, "code", None)  # private saves: this page's own, under its code
        if code:
            where = f"under this name, with your code {code}"
        self.path = with_class(w.Text(value=self.saves.default, layout=w.Layout(width="200px"),
                                      continuous_update=False, placeholder=self.saves.hint), "pg-path")
        self.save = button("Save", "pg-save", self._save, tooltip=f"save the game {where}")
        self.load = button("Load", "pg-load", self._load_path, tooltip=f"load the game saved {where}")
        # private saves: the code that loads this page's saves from another page (or shares one)
        tip = f"to load one of these saves from another page (or to share it), type {esc(code)}/its name"
        self.code = label(f"<span title='{tip}'>your saves: code <b><code>{esc(code)}</code></b></span>"
                          if code else "", cls="pg-saves-code")
        self.download = button("Download", "pg-download", self._download,
                               tooltip="download the game as a JSON file, through your browser")
        self.link = label(cls="pg-download-link")  # the data: link of the last Download (no request)
        self._link_for: tuple[int, tuple] | None = None  # the game and its decisions at the download
        self.upload = with_class(w.FileUpload(accept=".json", multiple=False, description="Open file…"),
                                 "pg-upload")
        self.upload.observe(self._uploaded, names="value")
        self.delay = with_class(w.FloatSlider(value=table.delay, min=0, max=3, step=0.1,
                                              description="bot delay", readout_format=".1f",
                                              layout=w.Layout(width="260px")), "pg-delay")
        self.delay.observe(lambda c: setattr(table, "delay", c["new"]), names="value")
        self.pause = with_class(w.ToggleButton(value=False, description="Pause bots", icon="pause"),
                                "pg-pause")
        self.pause.observe(lambda c: table.pause(c["new"]), names="value")
        self.seats = w.HBox()
        self.seat_boxes: dict[str, w.Dropdown] = {}
        self._syncing = False
        shown = [self.code] if code else []
        self.widget = w.VBox([w.HBox([self.undo, self.new, self.edit, self.path, self.save, self.load, *shown,
                                      self.download, self.link, self.upload],
                                     layout=w.Layout(align_items="center", flex_flow="row wrap")),
                              w.HBox([label("<b>Seats</b>"), self.seats, self.delay, self.pause],
                                     layout=w.Layout(align_items="center", flex_flow="row wrap"))])
        self.widget.add_class("pg-toolbar")

    def start(self, g: Game) -> None:
        choices = seat_kinds()
        boxes = []
        for p in g.players:
            options: list[Any] = [(c, c) for c in choices]
            value: Any = self.table.seat(p)
            if value not in choices:  # a bot object of a class not in BOTS: offer that very bot
                options.append((value, self.table.bots[p]))
                value = self.table.bots[p]
            d = with_class(w.Dropdown(options=options, value=value, description=p,
                                      layout=w.Layout(width="190px"), style={"description_width": "60px"}),
                           f"pg-seat-{p}")
            d.observe(lambda c, p=p: self._syncing or self.table.set_seat(p, c["new"]), names="value")
            boxes.append(d)
        self.seats.children = boxes
        self.seat_boxes = dict(zip(g.players, boxes, strict=True))
        self.delay.value = self.table.delay  # the setup form's delay (the slider was made before it)

    def refresh(self) -> None:
        g = self.table.game
        self.undo.disabled = g is None or not g.actions
        if self.link.value and self._link_for != (id(g), tuple(g.actions) if g else ()):
            self.link.value = ""  # the download is of an earlier position
        if self.pause.value != self.table.paused:
            self.pause.value = self.table.paused
        self._syncing = True  # show seats handed over by code (table.set_seat), without handing them again
        try:
            for p, d in self.seat_boxes.items():
                values = [v for _, v in d.options]
                want = next((v for v in (self.table.seat(p), self.table.bots.get(p)) if v in values), d.value)
                if d.value != want:
                    d.value = want
        finally:
            self._syncing = False

    def _save(self) -> None:
        try:
            done = self.saves.save(self.table.game, self.path.value)
        except (OSError, PowerGridError, SaveRefused) as e:
            self.table.say(f"could not save: {esc(e)}", ERROR)
            return
        except Exception as e:  # never a click that does nothing: say what went wrong
            # an app page is public: an error nobody foresaw may name a server path, so only its kind
            why = "an unexpected error, not saved" if self.saves.app else esc(e)
            self.table.say(f"could not save ({esc(type(e).__name__)}): {why}", ERROR)
            return
        self.table.say(esc(done), OK)

    def _load_path(self) -> None:
        try:
            g = self.saves.load(self.path.value)
        except SaveRefused as e:  # says why and what is allowed (app mode: no server path)
            self.table.say(f"could not load: {esc(e)}", ERROR)
            return
        except (OSError, PowerGridError, ValueError) as e:
            self.table.say(f"could not load {esc(self.path.value)}: {esc(e)}", ERROR)
            return
        self._loaded(g, self.path.value)

    def _download(self) -> None:
        """Offer the game as a file through the browser: a ``data:`` link (no request to any server)."""
        g = self.table.game
        name = download_name(self.path.value)
        data = base64.b64encode(json.dumps(g.to_dict(), ensure_ascii=False).encode("utf-8")).decode("ascii")
        self.link.value = (f"<a class='pg-download-file' download='{esc(name)}' "
                           "style='color:#0B61A4;text-decoration:underline' "
                           f"href='data:application/json;base64,{data}'>⬇ {esc(name)}</a> "
                           f"<span style='color:#555555'>(round {g.round}, {esc(g.phase_name)})</span>")
        self._link_for = (id(g), tuple(g.actions))
        self.table.say(f"click ⬇ {esc(name)} to save the game with your browser", OK)

    def _uploaded(self, change: dict) -> None:
        files = change["new"]
        if not files:
            return
        f = files[0]
        try:
            g = game_from_bytes(bytes(f["content"]))
        except (PowerGridError, ValueError) as e:
            self.table.say(f"could not load {esc(f['name'])}: {esc(e)}", ERROR)
            return
        self._loaded(g, f["name"])

    def _loaded(self, g: Game, where: str) -> None:
        keep = {p: b for p, b in self.table.bots.items() if p in g.players}
        self.table.start(g, keep)
        self.table.say(f"loaded {esc(where)}", OK)


class GameOverPanel(PhasePanel):
    """The final ranking (R99-R102) and a new game."""

    def render(self, g: Game, player: str | None, legal: list[Any]) -> list[w.Widget]:
        ui = self.ui
        return [*self.ranking(g),
                ui.label(note("Undo to step back, or start a new game.")),
                ui.button("New game", "pg-new-after", self.table.show_setup, style="success")]

    def ranking(self, g: Game) -> list[w.Widget]:
        """The heading (who won) and the ranking list."""
        scores = g.scores()
        rows = "".join(f"<li><b>{esc(p)}</b>: powers {count(scores[p], 'city', 'cities')}, {g.money(p)} "
                       f"Elektro, {count(len(g.cities_of(p)), 'city', 'cities')} owned</li>"
                       for p in g.ranking())
        won = " and ".join(g.winners)
        wins = verb(won, "wins") if len(g.winners) == 1 else "win"
        ui = self.ui
        return [ui.heading(f"Game over: {won} {wins}"), ui.label(f"<ol>{rows}</ol>", "pg-ranking")]
