"""The parts of the teacher's view (``powergrid_nb.panels.classroom``): join links, the rooms list's
lines, and :class:`RoomView`, the selected room shown live (status, map, players, log, seats and the
teacher's controls). The view only shows; the :class:`~powergrid_nb.panels.classroom.Classroom`
owning it talks to the store."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as w

from powergrid_nb import views
from powergrid_nb.engine.actions import Action
from powergrid_nb.engine.events import Decision
from powergrid_nb.engine.gamelog import count, sentence
from powergrid_nb.rooms import RoomInfo, Seat, join_link
from powergrid_nb.rooms.store import UNDO
from powergrid_nb.views.dashboard import status_text

from ._widgets import (
    HUMAN,
    LiveFigure,
    button,
    close_all,
    esc,
    fit_box,
    fitted,
    label,
    note,
    seat_kinds,
    tree,
    with_class,
)
from .board import map_box, synced_update
from .toolbar import log_html

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["NewRoom", "RoomView", "code_html", "codes_html", "room_line", "row", "undone_text"]

CODE_STYLE = ("font-family:monospace;font-size:1.05em;background:#F3F3F3;border:1px solid #DDDDDD;"
              "border-radius:3px;padding:0 4px;user-select:all")  # one click selects the whole code


def row(*kids: w.Widget, **layout: str) -> w.HBox:
    """A row of widgets, centred and wrapping on a narrow screen (``layout``: more of its Layout)."""
    return w.HBox(list(kids), layout=w.Layout(**{"align_items": "center", "flex_flow": "row wrap", **layout}))


def code_html(app_url: str, code: str) -> str:
    """A join code as text to select and copy, and as a link to the app with the code."""
    url = esc(join_link(code, app_url))
    return (f"<span class='pg-code' style='{CODE_STYLE}'>{esc(code)}</span> "
            f"<a class='pg-join-link' href='{url}' target='_blank' "
            f"style='color:#0B61A4;text-decoration:underline'>{url}</a>")


def codes_html(title: str, room: str, codes: dict[str, str], teacher: str, app_url: str) -> str:
    """What a new room hands out: a join code and link per human seat, and the teacher's code (shown
    once: the file keeps only its hash)."""
    rows = "".join(f"<tr><td style='padding:2px 10px 2px 0'><b>{esc(seat)}</b></td>"
                   f"<td>{code_html(app_url, code)}</td></tr>" for seat, code in codes.items())
    seats = (f"<table>{rows}</table>" if rows else note("No human seats: the bots play this room alone."))
    return (f"<div style='border:1px solid #A5D6A7;background:#F1F8E9;border-radius:4px;padding:6px 10px'>"
            f"<b>Room {esc(title or room)} ({esc(room)}) is open.</b> Hand each player their code or link:"
            f"{seats}<div style='margin-top:6px'>Your teacher code: "
            f"<span class='pg-teacher-code-shown' style='{CODE_STYLE}'>{esc(teacher)}</span> "
            "<span style='color:#555555'>(shown this once; the rooms file keeps only a hash. Note it to "
            "unlock this room after a kernel restart. Hide the codes before you project this screen.)"
            "</span></div></div>")


def room_line(info: RoomInfo, g: Game) -> str:
    """One room in the rooms list: title, id, map, seats, decisions, whose turn, paused."""
    bots = sum(1 for s in info.seats if s.kind == "bot")
    if g.is_over:
        turn = f"game over: {' and '.join(g.winners)} {'wins' if len(g.winners) == 1 else 'win'}"
    else:
        turn = f"round {g.round}, {g.current_player} to act" if g.current_player else f"round {g.round}"
    parts = [f"{info.title or '(untitled)'} [{info.id}]", f"{info.map}, {info.edition}",
             f"{len(info.players)} players ({bots} bot{'s' if bots != 1 else ''})",
             count(info.decisions, "decision"), turn]
    return " · ".join(parts) + (" · PAUSED" if info.paused else "")


def undone_text(actions: list[str], after: Game) -> str:
    """The decision an undo row took back, in the log's words, from the log's action texts up to and
    including that undo row (an undo takes back the last decision still standing)."""
    standing: list[str] = []
    last = ""
    for text in actions:
        if text == UNDO:
            last = standing.pop() if standing else ""
        else:
            standing.append(text)
    if not last:
        return "the last decision"
    act = Action.parse(last)
    return sentence(Decision(after.round, after.phase, after.step, act.player, act)).rstrip(".")


class NewRoom:
    """The new-room form (a title, and the new-game form: players, which seats are bots, map, edition,
    seed) and the codes of the room it made; ``owner.create_room`` makes the room."""

    def __init__(self, owner: Any) -> None:
        self.owner = owner
        self.button = button("New room…", "pg-new-room", self.show, style="success",
                             tooltip="set up a game and choose which seats are humans and which bots")
        self.hide = button("Hide codes", "pg-hide-codes", self.hide_codes,
                           tooltip="hide the new room's codes (before projecting this screen)")
        self.hide.layout = w.Layout(display="none", width="auto")
        self.created = label(cls="pg-created")
        self.box = w.VBox()
        self.box.add_class("pg-new-room-form")
        self.title: w.Text | None = None  # the form's parts, while it is shown
        self.form: Any = None

    def show(self) -> None:
        """Show the form (a new one)."""
        from .setup import SetupForm

        self.close_form()
        form = SetupForm(on_start=self._start, on_cancel=self.close_form)
        form.names[0].value = "Ada"  # the form's "You" is the player at the notebook's screen
        form.delay.value = self.owner.delay
        self.title = with_class(w.Text(placeholder="e.g. Class 3B, table 1", description="Room title",
                                       continuous_update=False, layout=w.Layout(width="420px")),
                                "pg-room-title")
        self.form = form
        self.box.children = [self.title, form]

    def close_form(self) -> None:
        self.box.children = []
        if self.form is not None:  # closed with its parts: none is shown again
            self.form.close()
            close_all(tree([self.title]), set())
        self.title = self.form = None

    def _start(self, game: Game, bots: dict[str, str], delay: float) -> None:
        seats = [Seat(p, "bot", bots[p]) if p in bots else Seat(p, HUMAN) for p in game.players]
        title = self.title.value.strip() if self.title is not None else ""
        made = self.owner.create_room(game, seats, title, delay)
        if made is None:
            self.form.error.value = self.owner.message.value  # the form is where the teacher looks
            return
        self.close_form()
        self.created.value = codes_html(title, made.room, made.codes, made.teacher, self.owner.app_url)
        self.hide.layout.display = "flex"

    def hide_codes(self) -> None:
        """Take the new room's codes off the screen."""
        self.created.value = ""
        self.hide.layout.display = "none"


class RoomView:
    """The selected room: ``widget`` shows its status, map, players and log, its seats and the
    teacher's controls; ``owner`` (the Classroom) acts on the clicks. Figures are refreshed in place,
    and only when the room's decisions changed."""

    def __init__(self, owner: Any, info: RoomInfo, g: Game) -> None:
        self.owner = owner
        self.room = info.id
        self._syncing = False
        # laid out as the play table lays it out, at its own height (Germany squeezed into 520 px clashed)
        base = views.map_figure(g, title=g.map.title, link_hover=False)
        base.update_layout(autosize=True, width=None)
        self.map = LiveFigure(base)
        self.players = LiveFigure(views.players_figure(g))
        self.status = label(cls="pg-room-status")
        self.log = label(log_html(g), cls="pg-room-log")
        self._drawn = info.decisions  # the figures and the log show these decisions
        self.code = with_class(w.Text(placeholder="this room's teacher code", layout=w.Layout(width="210px"),
                                      continuous_update=False),
                               "pg-teacher-code")
        self.unlock = button("Unlock", "pg-unlock", owner.unlock_selected,
                             tooltip="check the teacher code and enable the teacher's tools for this room")
        self.lock_note = label(cls="pg-lock-note")
        self.pause = button("Pause", "pg-room-pause", owner.toggle_pause, width="90px")
        self.undo = button("↶ Undo last decision", "pg-room-undo", owner.undo,
                           tooltip="take back the last decision still standing (an undo row in the log)")
        self.seats: dict[str, w.Dropdown] = {}
        for s in info.seats:
            options = seat_kinds() + ([s.bot] if s.bot and s.bot not in seat_kinds() else [])
            d = with_class(w.Dropdown(options=options, value=s.bot if s.kind == "bot" else HUMAN,
                                      description=s.name, layout=w.Layout(width="200px"),
                                      style={"description_width": "70px"}), f"pg-room-seat-{s.name}")
            d.observe(lambda c, p=s.name: self._syncing or owner.hand_seat(p, c["new"]), names="value")
            self.seats[s.name] = d
        self.export_name = with_class(w.Text(value=f"room_{info.id}", layout=w.Layout(width="170px"),
                                             continuous_update=False, placeholder="export name"),
                                      "pg-export-name")
        self.export = button("Export", "pg-export", owner.export,
                             tooltip="save the room's game in the exports folder (for load, the lessons "
                                     "and the analysis lab)")
        self.download = button("Download", "pg-room-download", owner.download,
                               tooltip="download the room's game as a JSON file, through your browser")
        self.link = label(cls="pg-room-download-link")
        self._link_for: int | None = None
        self.locked_row = w.HBox([self.code, self.unlock], layout=w.Layout(align_items="center"))
        tools = w.VBox([
            row(self.locked_row, self.lock_note), row(self.pause, self.undo),
            label("<b>Seats</b> <span style='color:#555555'>(a bot, or back to a human: a new code)</span>"),
            w.VBox(list(self.seats.values())),
            row(self.export_name, self.export, self.download),
            self.link, owner.message, self.log],
            layout=w.Layout(width="440px", min_width="380px", padding="0 0 0 8px"))
        tools.add_class("pg-room-tools")
        players = fit_box()
        players.children = fitted(self.players)
        self.widget = w.VBox([self.status, w.HBox([map_box(g, self.map), tools],
                                                  layout=w.Layout(width="100%", flex_flow="row wrap")),
                              players],
                             layout=w.Layout(width="100%"))
        self.widget.add_class("pg-room-view")
        self.show(info, g, unlocked=False)

    def show(self, info: RoomInfo, g: Game, unlocked: bool) -> None:
        """Bring the view up to ``info`` and its game ``g`` (figures only when the decisions changed)."""
        paused = " · <b style='color:#B00020'>paused</b>" if info.paused else ""
        title = esc(info.title or "(untitled)")
        self.status.value = (f"<div style='font-size:1.15em;padding:4px 0'><b>{title}</b> "
                             f"<span style='color:#555555'>[{esc(info.id)}] · {esc(info.map)}, "
                             f"{esc(info.edition)} · {count(info.decisions, 'decision')} </span> · "
                             f"<b>{esc(status_text(g))}</b>{paused}</div>")
        if self._drawn != info.decisions:
            self._drawn = info.decisions
            for fig in (self.map, self.players):
                synced_update(fig, g)
            self.log.value = log_html(g)
        if self.link.value and self._link_for != info.decisions:
            self.link.value = ""  # the download is of an earlier position
        self.locked_row.layout.display = "none" if unlocked else "flex"
        self.lock_note.value = (note("You hold this room's teacher code.") if unlocked else
                                note("Type the room's teacher code to pause, undo, hand seats over and "
                                     "export.", "#555555"))
        self.pause.description = "Resume" if info.paused else "Pause"
        self.pause.icon = "play" if info.paused else "pause"
        self.pause.button_style = "warning" if info.paused else ""
        for b in (self.pause, self.export, self.download, self.export_name):
            b.disabled = not unlocked
        self.undo.disabled = not unlocked or not g.actions
        self._syncing = True  # show the store's seats without handing them over again
        try:
            for s in info.seats:
                d = self.seats.get(s.name)
                if d is None:
                    continue
                want = s.bot if s.kind == "bot" else HUMAN
                if want not in d.options:
                    d.options = [*d.options, want]
                if d.value != want:
                    d.value = want
                d.disabled = not unlocked
        finally:
            self._syncing = False

    def download_link(self, name: str, data: str, g: Game, decisions: int) -> None:
        """Show the ``data:`` link of a download (no request to any server)."""
        self.link.value = (f"<a class='pg-download-file' download='{esc(name)}' "
                           "style='color:#0B61A4;text-decoration:underline' "
                           f"href='data:application/json;base64,{data}'>⬇ {esc(name)}</a> "
                           f"<span style='color:#555555'>(round {g.round}, {esc(g.phase_name)})</span>")
        self._link_for = decisions

    def close(self) -> None:
        """Close every widget of the view but the owner's message (a page that connects later loads
        every open widget: one whose child was closed would never show)."""
        close_all(tree([self.widget]), {id(self.owner.message)})
