"""The playing table: a whole game in one widget (setup, live views, the phase panel, bots).

``play()`` is the entry point; a ``Game`` shown as the last expression of a cell becomes a
``Table`` too. The table only calls the engine's public API and reads its frames.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from powergrid_nb.bots import BOTS, Bot, make_bot
from powergrid_nb.engine.actions import Open
from powergrid_nb.engine.errors import PowerGridError
from powergrid_nb.engine.events import Decision
from powergrid_nb.engine.gamelog import possessive, sentence, verb
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.views.dashboard import status_text

from ._widgets import (
    ERROR,
    HUMAN,
    INFO,
    OK,
    ClickGuard,
    Controls,
    PhasePanel,
    esc,
    label,
    note,
    running_loop,
    shared,
)
from .auction import AuctionPanel
from .board import Board, map_box
from .building import BuildPanel, StartCitiesPanel
from .bureaucracy import PowerPanel
from .hint import HintBox
from .resources import ResourcesPanel
from .rules import error_html
from .saves import save_policy
from .snapshot import snapshot
from .toolbar import GameOverPanel, Toolbar, log_html

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

# The tools a table opens on itself from above, by name: "edit position" (edit_position.show_editor) shows
# the scenario editor, which opens play tables of its own and so stands above this module. The panels
# package's __init__ plugs it in, as the package's __init__ plugs the views into the engine's faces.
_TOOLS: dict[str, Callable[[Table], Any]] = {}


def provide(name: str, tool: Callable[[Table], Any]) -> None:
    """Plug in ``tool(table)``, which a table opens on itself as ``name`` (the package plugs in
    ``"edit position"``: :func:`~powergrid_nb.panels.edit_position.show_editor`)."""
    _TOOLS[name] = tool


HINTS = {Phase.START_CITIES: "mark a start city", Phase.RESOURCES: "buy resources, then Done",
         Phase.BUILDING: "build cities, then Done", Phase.BUREAUCRACY: "choose the plants to run"}


def hint(g: Game) -> str:
    """What the player to act can do now, for the status line; in an auction: whose it is, who leads,
    and the bid the player could make."""
    who = g.current_player
    if g.phase != Phase.AUCTION:
        return HINTS.get(g.phase, "")
    if g.discarding == who:
        return f"over the plant limit of {g.plant_limit}: discard a plant (R36)"
    a = g.auction
    choices = g.bid_choices()  # the bids as ranges: as quick at any money
    if a is None:
        if choices and choices.may_pass:
            return "open an auction or pass"
        return "open an auction (round 1: every player buys a plant, R35)"
    opener = next((e.player for e in reversed(g.history)
                   if isinstance(e, Decision) and isinstance(e.action, Open)), a.leader)
    bids = choices.raises if choices else range(0)
    can = f"bid {bids[0]} or more, or pass" if bids else "pass (no higher bid within your money)"
    return (f"{possessive(opener)} auction of plant {a.plant}, {a.leader} {verb(a.leader, 'leads')} "
            f"at {a.bid}: {can}")


class Table(w.VBox):
    """Play Power Grid by clicking: a setup form, then the live views, a panel for what the phase
    expects of the player to act, undo, save/load, new game, and bots playing their seats.

    ``bots`` maps player names to bots (a ``Bot`` or a name from ``powergrid_nb.bots.BOTS``); the
    other seats are played here. ``delay``: seconds between bot moves (0: at once).

    ``app``: the table is an app whose page others may open (Voila): Save and Load take only plain
    names in the ``saves`` folder (``powergrid_nb.panels.saves``). None: detected (Voila's kernel).
    ``private_saves``: in app mode, the table saves under a random code of its own, and loads another
    table's save as ``code/name``. None: ``POWERGRID_PRIVATE_SAVES=1``.
    """

    def __init__(self, game: Game | None = None, bots: Mapping[str, Bot | str] | None = None, *,
                 delay: float = 0.6, height: int | None = None, app: bool | None = None,
                 saves: str | os.PathLike[str] | None = None, private_saves: bool | None = None) -> None:
        super().__init__(layout=w.Layout(width="100%"))
        self.add_class("pg-table")
        self.game: Game | None = None
        self.bots: dict[str, Bot] = {}
        self.delay = delay
        self.paused = False
        self.height = height
        self.board: Board | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._panel: PhasePanel | None = None
        self.controls = Controls()  # the phase panel's widgets, kept from one render to the next
        self._panels: dict[int, PhasePanel] = {
            Phase.START_CITIES: StartCitiesPanel(self), Phase.AUCTION: AuctionPanel(self),
            Phase.RESOURCES: ResourcesPanel(self), Phase.BUILDING: BuildPanel(self),
            Phase.BUREAUCRACY: PowerPanel(self)}
        self._over = GameOverPanel(self)
        self._frames: dict[str, Any] = {}
        self.status = label(cls="pg-status")
        self.message = label(cls="pg-message")
        self.actions = w.VBox(layout=w.Layout(min_width="380px", max_width="460px"))
        self.actions.add_class("pg-panel")
        self.log_view = label(cls="pg-log")
        self.guard = ClickGuard(layout=shared(w.Layout, display="none"))
        self.saves = save_policy(app, saves, private=private_saves)
        self.app = self.saves.app
        self.toolbar = self.make_toolbar()
        self.hints = self.make_hints()
        if game is None:
            self.show_setup()
        else:
            self.start(game, bots)

    def make_toolbar(self) -> Any:
        """The controls above the board (undo, new game, edit, save/load, seats): a table that offers
        fewer builds its own (a class room's seat: :class:`~powergrid_nb.panels.room.RoomTable`)."""
        return Toolbar(self)

    def make_hints(self) -> Any:
        """The Hint controls (``row`` and ``result``: None builds none of them)."""
        return HintBox(self)

    # --- seats -------------------------------------------------------------------------------
    def seat(self, player: str) -> str:
        """"human" or the bot's registered name."""
        bot = self.bots.get(player)
        if bot is None:
            return HUMAN
        return next((k for k, cls in BOTS.items() if type(bot) is cls), type(bot).__name__)

    def set_seat(self, player: str, kind: str) -> None:
        """Hand a seat to a bot (a name of ``BOTS``) or back to a human (``"human"``)."""
        assert self.game is not None
        if player not in self.game.players:
            raise ValueError(f"no player {player!r}; players: {self.game.players}")
        if kind == HUMAN:
            self.bots.pop(player, None)
        else:
            self.bots[player] = make_bot(kind, seed=self.game.seed + self.game.players.index(player))
        self.refresh()
        self.run_bots()

    @property
    def humans(self) -> list[str]:
        assert self.game is not None
        return [p for p in self.game.players if p not in self.bots]

    def viewer(self) -> str | None:
        """Whose build costs the map shows: the one human seat, else the human to act."""
        g = self.game
        if g is None:
            return None
        if len(self.humans) == 1:
            return self.humans[0]
        return g.current_player if g.current_player in self.humans else None

    # --- game life cycle ------------------------------------------------------------------------
    def start(self, game: Game, bots: Mapping[str, Bot | str] | None = None) -> None:
        """Play ``game`` at this table (replacing any game shown)."""
        self._cancel()
        unknown = set(bots or {}) - set(game.players)
        if unknown:
            raise ValueError(f"bots for unknown players {sorted(unknown)}; players: {game.players}")
        self.game = game
        self._frames.clear()
        self.paused = False
        self.bots = {p: make_bot(b, seed=game.seed + game.players.index(p)) for p, b in (bots or {}).items()}
        self.hints.start_game(self.humans)
        old, self.board = self.board, None
        self.show_panel()  # before the board: its map opens with the panel's build plan
        self.board = Board(self, game, height=self.height)
        self.toolbar.start(game)
        # the map takes the room the panel beside it leaves, no more than keeps it whole in the page's
        # height; in a box too narrow for both (JupyterLab with its file browser open), the panel goes
        # under the map
        board = map_box(game, self.board.map, self.board.height, also=[self.board.pieces])
        hints = self.hints
        right = w.VBox([x for x in (self.actions, hints.row, self.message, self.log_view) if x is not None],
                       layout=w.Layout(width="440px", min_width="380px", padding="0 0 0 8px"))
        row = w.HBox([board, right], layout=w.Layout(width="100%", flex_flow="row wrap"))
        self.children = [x for x in (self.status, self.toolbar.widget, row, hints.result, self.board.tabs,
                                     self.guard) if x is not None]
        if old is not None:  # only once no longer shown: a view still on the page syncs to its figure
            old.close()
        self.say("")
        self.refresh()
        self.run_bots()

    def show_setup(self) -> None:
        """Show the new-game form (the current game stays until a new one starts)."""
        from .setup import SetupForm

        self._cancel()
        self.hints.cancel(clear=True)
        form = SetupForm(on_start=self._start_from_form, on_cancel=self._cancel_setup if self.game else None)
        self.children = [form, self.guard]

    def edit_position(self) -> Any:
        """Show the scenario editor on this table's position in the table's place (the "Edit position"
        button); returns the editor."""
        try:
            tool = _TOOLS["edit position"]
        except KeyError:
            raise LookupError("no scenario editor is plugged in: import powergrid_nb.panels (its __init__ "
                              "plugs it in)") from None
        return tool(self)

    def _start_from_form(self, game: Game, bots: dict[str, str], delay: float) -> None:
        self.delay = delay
        self.start(game, bots)

    def _cancel_setup(self) -> None:
        assert self.game is not None
        self.start(self.game, dict(self.bots))

    # --- actions ---------------------------------------------------------------------------------
    def submit(self, action: Any, *more: Any, done: str = "") -> bool:
        """Apply an action for a human seat (and ``more``, as one click: all or none); an illegal one
        (e.g. a stale click) is reported, not raised, and undoes the ones before it. ``done``: what the
        message line then says (plain text)."""
        g = self.game
        assert g is not None
        self._cancel()
        applied = 0
        try:
            for a in (action, *more):
                g.apply(a)
                applied += 1
        except PowerGridError as e:
            for _ in range(applied):
                g.pop()
            self.say(error_html(e), ERROR)
            self.refresh()
            return False
        self.say(esc(done), OK if done else INFO)
        if not self._bots_at_once():
            self.refresh()  # show the move now; bots on a timer refresh after each of theirs
        self.run_bots()
        return True

    def undo(self) -> None:
        """Take back the last human decision and every bot move after it (all-bot game: one move)."""
        g = self.game
        assert g is not None
        self._cancel()
        if not g.actions:
            self.say("nothing to undo", INFO)
            return
        undone = []
        while g.actions:
            a = g.pop()
            undone.append(a)
            if a.player not in self.bots or not self.humans:
                break
        if all(a.player in self.bots for a in undone):
            self.paused = True  # an all-bot game: undo steps back and stays paused
            self.toolbar.refresh()
        # in the log's words ("You buy 1 coal"), not the notation ("You: buy coal 1")
        said = [sentence(Decision(g.round, g.phase, g.step, a.player, a)).rstrip(".")
                for a in reversed(undone)]
        self.say(f"undone: {esc('; '.join(said))}", OK)
        self.refresh()

    def say(self, text: str, colour: str = INFO) -> None:
        """Show a message (HTML) under the panel; empty clears it."""
        self.message.value = note(text, colour) if text else ""

    # --- refresh ---------------------------------------------------------------------------------
    def frame(self, name: str) -> Any:
        """``game.<name>_frame()``, built once per refresh (the panel and the views' keys share it)."""
        if name not in self._frames:
            self._frames[name] = getattr(self.game, f"{name}_frame")()
        return self._frames[name]

    def refresh(self) -> None:
        """Bring status, panel, views and log up to date with the game."""
        g = self.game
        self._frames.clear()
        if g is None:
            return
        self.status.value = (f"<div style='font-size:1.15em;padding:4px 0'><b>{esc(status_text(g))}</b>"
                             f"{self.turn_note(g.current_player)}</div>")
        assert self.board is not None
        # The map and the tab first: a page applies a figure's update only after the widget messages
        # sent before it, and a panel's new controls held a map click's redraw back by about 60 ms
        # (docs/benchmarks.md, "Map clicks"). The board again after the panel, whose render may change
        # what the map shows (a new turn empties the build queue); an unchanged view is not sent.
        self.board.refresh()
        self.show_panel()
        self.toolbar.refresh()
        self.hints.refresh()
        self.log_view.value = log_html(g)
        self.board.refresh()

    def turn_note(self, who: str | None) -> str:
        """What the status line adds after the game's status (HTML): the bot to act, or what the player
        to act can do (nothing once the game is over)."""
        if who in self.bots:
            return f" ({esc(self.seat(who))} bot{', paused' if self.paused else ''})"
        return "" if who is None else f": {esc(hint(self.game))}"

    def waiting_note(self, who: str | None) -> str:
        """The phase panel's note (HTML) while no control of this table is to be used."""
        return note(f"{esc(who)} ({esc(self.seat(who))} bot) is playing…") if who else ""

    def controls_now(self) -> bool:
        """Whether the player to act decides with this table's controls (a human seat here)."""
        who = self.game.current_player if self.game is not None else None
        return who is not None and who not in self.bots

    def current_panel(self) -> PhasePanel | None:
        g = self.game
        if g is None:
            return None
        if g.is_over:
            return self._over
        return self._panels.get(g.phase) if self.controls_now() else None

    def show_panel(self) -> None:
        """Re-render the phase panel for the player to act (a bot's turn shows a note)."""
        g = self.game
        assert g is not None
        panel = self.current_panel()
        self._panel = panel
        # the controls of the last render are updated in place: a click sends only what changed
        with self.controls.render():
            if panel is None:
                kids: list[w.Widget] = [self.controls.label(self.waiting_note(g.current_player))]
            else:
                kids = panel.render(g, g.current_player, [] if g.is_over else g.legal_actions())
            if tuple(kids) != tuple(self.actions.children):
                self.actions.children = kids

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Everything the table shows now, as plain data (:func:`powergrid_nb.panels.snapshot.snapshot`)."""
        return snapshot(self)

    def plan(self) -> list[str]:
        return self._panel.plan() if self._panel is not None else []

    def chosen_plant(self) -> int | None:
        """The plant the player to act chose to open, not opened yet (None if none)."""
        return self._panel.chosen_plant() if self._panel is not None else None

    def city_clicked(self, city: str) -> None:
        if self._panel is not None:
            self._panel.city_clicked(city)

    def plant_clicked(self, plant: int) -> None:
        if self._panel is not None:
            self._panel.plant_clicked(plant)

    # --- bots --------------------------------------------------------------------------------------
    def run_bots(self) -> None:
        """Let bots play until a human seat is to act: on a timer in a notebook, at once otherwise."""
        g = self.game
        if g is None or self.paused or g.is_over or g.current_player not in self.bots:
            return
        if self._bots_at_once():
            while not g.is_over and g.current_player in self.bots:
                if not self._bot_move(refresh=False):
                    break
            self.refresh()
            return
        self._cancel()
        loop = running_loop()
        assert loop is not None
        self._timer = loop.call_later(self.delay, self._tick)

    def _bots_at_once(self) -> bool:
        """True when bots are to move now without a pause (no delay, or no event loop for a timer)."""
        g = self.game
        return (g is not None and not self.paused and not g.is_over and g.current_player in self.bots
                and (self.delay <= 0 or running_loop() is None))

    def _tick(self) -> None:
        self._timer = None
        if self._bot_move(refresh=True):
            self.run_bots()

    def _bot_move(self, refresh: bool) -> bool:
        g = self.game
        assert g is not None
        bot = self.bots.get(g.current_player)  # type: ignore[arg-type]
        if bot is None or g.is_over:
            return False
        try:
            g.apply(bot.act(g))
        except Exception as e:  # a bot bug must not break the table: pause and say so
            self.paused = True
            self.say(f"{possessive(esc(g.current_player))} bot failed ({esc(e)}); bots paused", ERROR)
            self.refresh()
            return False
        if refresh:
            self.refresh()
        return True

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def pause(self, paused: bool = True) -> None:
        self.paused = paused
        if paused:
            self._cancel()
        self.refresh()
        if not paused:
            self.run_bots()

    def close(self) -> None:
        self._cancel()
        self.hints.cancel(clear=True)
        super().close()


def play(game: Game | None = None, bots: Mapping[str, Bot | str] | None = None, *, delay: float = 0.6,
         app: bool | None = None, saves: str | os.PathLike[str] | None = None,
         private_saves: bool | None = None, **new_game_args: Any) -> Table:
    """A table to play ``game`` by clicking (none: the new-game form, or ``new_game(**new_game_args)``).
    ``app=True`` (the app notebook) or Voila: saves are plain names in the ``saves`` folder (each
    table's own, under a code it shows, with ``private_saves=True`` or ``POWERGRID_PRIVATE_SAVES=1``).

    >>> play(new_game(["You", "Bo", "Cy"]), bots={"Bo": "heuristic", "Cy": "random"})  # doctest: +SKIP
    """
    if game is None and new_game_args:
        from powergrid_nb.engine.newgame import new_game
        game = new_game(**new_game_args)
    return Table(game, bots, delay=delay, app=app, saves=saves, private_saves=private_saves)
