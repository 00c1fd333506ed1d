"""The scenario editor: build or edit a position field by field (players' money, plants, tokens and
cities, the resource market, the plant market and the deck's top, round, phase, step and player order),
from a new game, a game or a scenario file. Every edit is checked by the engine at once; its message
shows in red next to the field and in the summary, and an invalid position can be neither played nor
saved. The map shows the position (with the faulty fields left out); a click on a city adds or removes
a house of the chosen player.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as w
import plotly.graph_objects as go

from powergrid_nb import views
from powergrid_nb.engine.board.maps import DEFAULT_MAP, builtin_maps
from powergrid_nb.engine.editions import DEFAULT_EDITION, EDITIONS, MAX_PLAYERS, MIN_PLAYERS
from powergrid_nb.engine.errors import PowerGridError, SaveFileError
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.rules.phases import PHASE_NAMES, Phase
from powergrid_nb.engine.rules.plants import PLANTS, RESOURCES, STEP3_NAME
from powergrid_nb.position.scenario import Field, Problem, Scenario, field_label
from powergrid_nb.views.mapboard import table_width

from ._widgets import ERROR, INFO, OK, LiveFigure, esc, shared
from .board import synced_update
from .saves import MAX_BYTES

CARDS = [str(c) for c in sorted(PLANTS)] + [STEP3_NAME]
DECK_SHOWN = 4  # cards of the deck's top the editor shows and edits
SMALL = "7.5em"  # round and step
PHASES = [(f"{p:d}: {p.label}", int(p)) for p in Phase if p != Phase.GAME_OVER]


def _cards(tags: list[str]) -> list[int | str]:
    return [int(t) if t.isdigit() else t for t in tags]


def _names(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"[,\n]", text) if p.strip()]


def _error(field: Field) -> w.HTML:
    return w.HTML("", _dom_classes=("pg-ed-error", "pg-ed-error-" + "-".join(field[:1] + field[2:]
                                                                             if field[0] == "player"
                                                                             else field)))


def _problem_html(found: list[Problem]) -> str:
    """The problems of one field: the engine's message, then the rule in words (smaller, grey)."""
    rows = []
    for p in found:
        first, *rules = p.message.split("\n")
        extra = "".join(f"<div style='color:#666;font-size:0.85em;line-height:1.35'>{esc(r)}</div>"
                        for r in rules)
        rows.append(f"<div style='color:{ERROR};line-height:1.35;margin:2px 0 4px'>✕ {esc(first)}"
                    f"{extra}</div>")
    return "".join(rows)


class ScenarioEditor(w.VBox):
    """Edit a position: ``source`` is None (a new game, set up by the form), a Game (e.g. the table's
    ``table.game``), a :class:`Scenario` or a scenario dict. ``on_open(game)`` receives the position
    when "Open in play table" is pressed (default: a play table shown below the editor)."""

    def __init__(self, source: Game | Scenario | Mapping[str, Any] | None = None, *,
                 on_open: Callable[[Game], Any] | None = None) -> None:
        super().__init__(_dom_classes=("pg-editor",))
        self.on_open = on_open
        self._syncing = False
        self.errors: dict[Field, w.HTML] = {}
        self.out = w.Output(_dom_classes=("pg-ed-out",))
        self.download = w.HTML("", _dom_classes=("pg-ed-download",))
        self.scenario = _scenario(source)
        self._source_form()
        self._build()

    # --- building ---------------------------------------------------------------------------------------
    def _source_form(self) -> None:
        self.f_players = w.BoundedIntText(4, min=MIN_PLAYERS, max=MAX_PLAYERS, description="Players",
                                          layout=w.Layout(width="9em"), style={"description_width": "4em"},
                                          _dom_classes=("pg-ed-players",))
        self.f_map = w.Dropdown(options=builtin_maps(), value=DEFAULT_MAP, description="Map",
                                layout=w.Layout(width="11em"), style={"description_width": "3em"},
                                _dom_classes=("pg-ed-map",))
        self.f_edition = w.Dropdown(options=list(EDITIONS), value=DEFAULT_EDITION, description="Edition",
                                    layout=w.Layout(width="13em"), style={"description_width": "4em"},
                                    _dom_classes=("pg-ed-edition",))
        self.f_seed = w.IntText(1, description="Seed", layout=w.Layout(width="9em"),
                                style={"description_width": "3em"}, _dom_classes=("pg-ed-seed",))
        self.new_button = w.Button(description="New position", _dom_classes=("pg-ed-new",))
        self.new_button.on_click(lambda _b: self.new_position())
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Open file…",
                                   _dom_classes=("pg-ed-upload",))
        self.upload.observe(self._uploaded, names="value")
        self.source_msg = w.HTML("", _dom_classes=("pg-ed-source-msg",))
        form = [self.f_players, self.f_map, self.f_edition, self.f_seed, self.new_button, self.upload]
        self.source = w.VBox([w.HBox(form, layout=w.Layout(flex_flow="row wrap", align_items="center")),
                              self.source_msg])

    def _build(self) -> None:
        """(Re)build the fields for the scenario's participants and map, then show its values."""
        sc = self.scenario
        self._syncing = True
        cfg = sc.to_dict()["config"]  # the form offers a new game like this one
        if isinstance(cfg.get("players"), list) and 2 <= len(cfg["players"]) <= 6:
            self.f_players.value = len(cfg["players"])
        if cfg.get("map") in self.f_map.options:
            self.f_map.value = cfg["map"]
        if cfg.get("edition") in self.f_edition.options:
            self.f_edition.value = cfg["edition"]
        if isinstance(cfg.get("seed"), int):
            self.f_seed.value = cfg["seed"]
        self.errors = {}
        self.summary = w.HTML("", _dom_classes=("pg-ed-summary",))
        # the map: a click toggles a house of the chosen participant
        self.who = w.ToggleButtons(options=sc.participants, value=sc.participants[0],
                                   description="Houses of", style={"button_width": "auto"},
                                   _dom_classes=("pg-ed-who",))
        self.who.observe(lambda _c: self.refresh(), names="value")
        self.map: go.FigureWidget | None = None
        self.map_box = w.VBox([self.who], layout=w.Layout(width="auto"))  # the map's width, once drawn
        # turn
        self.round = w.IntText(description="Round", layout=shared(w.Layout, width=SMALL),
                               style={"description_width": "3.5em"}, _dom_classes=("pg-ed-round",))
        self.phase = w.Dropdown(options=PHASES, description="Phase", layout=w.Layout(width="14em"),
                                style={"description_width": "3.5em"}, _dom_classes=("pg-ed-phase",))
        self.step = w.Dropdown(options=[1, 2, 3], description="Step", layout=shared(w.Layout, width=SMALL),
                               style={"description_width": "3em"}, _dom_classes=("pg-ed-step",))
        self.order = w.Text(description="Order", placeholder="names, first to last",
                            layout=w.Layout(width="24em"), style={"description_width": "3.5em"},
                            continuous_update=False, _dom_classes=("pg-ed-order",))
        for x, setter in ((self.round, sc.set_round), (self.phase, sc.set_phase), (self.step, sc.set_step)):
            x.observe(self._edit(lambda v, s=setter: s(v)), names="value")
        self.order.observe(self._edit(lambda v: self.scenario.set_order(_names(v))), names="value")
        turn = [w.HTML("<b>Turn</b>"), w.HBox([self.round, self.phase, self.step]),
                self._err(("turn", "round")), self._err(("turn", "phase")), self._err(("turn", "step")),
                self.order, self._err(("turn", "order")), self._err(("state",))]
        # resource market
        self.market = {r: w.IntText(description=r, layout=w.Layout(width="9em"),
                                    style={"description_width": "4.5em"}, _dom_classes=(f"pg-ed-res-{r}",))
                       for r in RESOURCES}
        for r, x in self.market.items():
            x.observe(self._edit(lambda v, r=r: self.scenario.set_resources({r: v})), names="value")
        res = [w.HTML("<b>Resource market</b> (tokens on the track)"),
               w.HBox(list(self.market.values()), layout=w.Layout(flex_flow="row wrap"))]
        res += [self._err(("market", r)) for r in RESOURCES]
        # plant market and deck
        self.plants = w.TagsInput(allowed_tags=CARDS, allow_duplicates=False, _dom_classes=("pg-ed-market",))
        self.plants.observe(self._edit(lambda v: self.scenario.set_plant_market(_cards(v))), names="value")
        self.deck = w.TagsInput(allowed_tags=CARDS, allow_duplicates=False, _dom_classes=("pg-ed-deck",))
        self.deck.observe(self._edit(self._deck_top), names="value")
        cards = [w.HTML("<b>Plant market</b> (current and future)"), self.plants,
                 w.HTML(f"<b>Top of the deck</b> (first {DECK_SHOWN}, top first)"), self.deck,
                 self._err(("plants",))]
        side = w.VBox(turn + res + cards, layout=w.Layout(flex="1 1 420px", min_width="420px",
                                                            padding="0 0 0 12px"))
        # players
        self.fields: dict[str, dict[str, w.Widget]] = {}
        drawn = sc.sketch()  # the players' colours
        cards_of_players = [self._player_box(i, p, drawn) for i, p in enumerate(sc.participants)]
        players = w.GridBox(cards_of_players, layout=w.Layout(
            grid_template_columns="repeat(auto-fill, minmax(340px, 1fr))", grid_gap="8px"))
        # actions
        self.play_button = w.Button(description="Open in play table", button_style="success", icon="play",
                                    _dom_classes=("pg-ed-play",), layout=w.Layout(width="auto"))
        self.play_button.on_click(lambda _b: self.open_table())
        self.save_button = w.Button(description="Save scenario", icon="download",
                                    _dom_classes=("pg-ed-save",), layout=w.Layout(width="auto"))
        self.save_button.on_click(lambda _b: self.offer_download())
        self.fork_button = w.Button(description="Fork", icon="code-fork", _dom_classes=("pg-ed-fork",),
                                    tooltip="a new editor from this position (this one stays as it is)",
                                    layout=w.Layout(width="auto"))
        self.fork_button.on_click(lambda _b: self.fork())
        self.children = [
            w.HTML("<b style='font-size:1.2em'>Scenario editor</b>"), self.source, self.summary,
            w.HBox([self.map_box, side], layout=w.Layout(flex_flow="row wrap", align_items="flex-start")),
            w.HTML("<b>Players</b>"), players,
            w.HBox([self.play_button, self.save_button, self.fork_button, self.download], layout=w.Layout(
                align_items="center", margin="8px 0")),
            self.out]
        self._syncing = False
        self.refresh()

    def _player_box(self, i: int, name: str, g: Game | None) -> w.VBox:
        money = w.IntText(description="Money", layout=w.Layout(width="11em"),
                          style={"description_width": "4em"}, _dom_classes=(f"pg-ed-money-{i}",))
        plants = w.TagsInput(allowed_tags=CARDS[:-1], allow_duplicates=False,
                             _dom_classes=(f"pg-ed-plants-{i}",))
        tokens = {r: w.BoundedIntText(min=-99, max=99, description=r, layout=w.Layout(width="10.5em"),
                                      style={"description_width": "4.5em"},
                                      _dom_classes=(f"pg-ed-tokens-{i}-{r}",)) for r in RESOURCES}
        cities = w.Textarea(placeholder="cities, comma-separated (or click the map)", rows=2,
                            continuous_update=False, layout=w.Layout(width="95%"),
                            _dom_classes=(f"pg-ed-cities-{i}",))
        money.observe(self._edit(lambda v: self.scenario.set_money(name, v)), names="value")
        plants.observe(self._edit(lambda v: self.scenario.set_plants(name, _cards(v))), names="value")
        for r, x in tokens.items():
            x.observe(self._edit(lambda v, r=r: self.scenario.set_tokens(name, {r: v})), names="value")
        cities.observe(self._edit(lambda v: self.scenario.set_cities(name, _names(v))), names="value")
        self.fields[name] = {"money": money, "plants": plants, "tokens": tokens, "cities": cities}
        colour = views.player_color(g, name) if g is not None else views.PLAYER_COLORS[i % 6]
        return w.VBox([
            w.HTML(f"<b style='color:{colour}'>■ {esc(name)}</b>"), money,
            self._err(("player", name, "money")),
            w.HTML("Plants"), plants, self._err(("player", name, "plants")),
            w.HTML("Stored tokens"), w.GridBox(list(tokens.values()), layout=w.Layout(
                grid_template_columns="repeat(2, max-content)", grid_gap="0 6px")),
            self._err(("player", name, "tokens")), w.HTML("Cities"), cities,
            self._err(("player", name, "cities"))],
            layout=w.Layout(border="1px solid #ddd", padding="4px 6px"), _dom_classes=(f"pg-ed-player-{i}",))

    def _err(self, field: Field) -> w.HTML:
        self.errors[field] = _error(field)
        return self.errors[field]

    # --- edits --------------------------------------------------------------------------------------------
    def _edit(self, apply: Callable[[Any], None]) -> Callable[[dict], None]:
        def on_change(change: dict) -> None:
            if self._syncing:
                return
            apply(change["new"])
            self.refresh()
        return on_change

    def _deck_top(self, tags: list[str]) -> None:
        self.scenario.set_deck_top(_cards(tags), replace=min(DECK_SHOWN, len(self.scenario.deck())))

    def city_clicked(self, city: str) -> None:
        """A click on a city of the map: add or remove a house of the chosen participant."""
        self.scenario.toggle_city(self.who.value, city)
        self.refresh()

    def _city_click(self, trace: Any, points: Any, _state: Any) -> None:
        for i in points.point_inds:
            self.city_clicked(str(trace.text[i]))

    def new_position(self) -> None:
        """Start again from a new game set up by the form (its message says why not, if it cannot)."""
        try:
            sc = Scenario.new(self.f_players.value, map=self.f_map.value, edition=self.f_edition.value,
                              seed=self.f_seed.value)
        except (PowerGridError, ValueError) as e:
            self.source_msg.value = f"<span style='color:{ERROR}'>{esc(e)}</span>"
            return
        self.source_msg.value = ""
        self.load(sc)

    def _uploaded(self, change: dict) -> None:
        files = change["new"]
        if not files:
            return
        f = files[0]
        self.upload.value = ()  # read once: the file is not kept (nor sent back) with the widget
        try:
            if len(f["content"]) > MAX_BYTES:
                raise SaveFileError(f"the file is larger than {MAX_BYTES // 1_000_000} MB: not a scenario",
                                    (), "too_large", root="")
            sc = _scenario(Scenario.from_json(bytes(f["content"])).to_dict())
        except (PowerGridError, ValueError) as e:
            self.source_msg.value = (f"<span style='color:{ERROR}'>{esc(f['name'])} cannot be opened: "
                                     f"{esc(e)}</span>")
            return
        self.source_msg.value = f"<span style='color:{INFO}'>opened {esc(f['name'])}</span>"
        self.load(sc)

    def load(self, source: Game | Scenario | Mapping[str, Any]) -> None:
        """Edit another position (a Game, a Scenario or a scenario dict)."""
        self.scenario = _scenario(source)
        if self.map is not None:
            self.map.close()
        self.download.value = ""
        self._build()

    # --- showing ---------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the scenario as it stands: every field's value, the engine's problems, the map."""
        sc = self.scenario
        found = sc.problems()
        self._syncing = True
        try:
            _set(self.round, sc.round)
            _set(self.phase, sc.phase if sc.phase in dict(PHASES).values() else None)
            _set(self.step, sc.step if sc.step in (1, 2, 3) else None)
            _set(self.order, ", ".join(sc.order))
            for r, x in self.market.items():
                _set(x, sc.resources()[r])
            _set(self.plants, [str(c) for c in sc.plant_market()])
            _set(self.deck, [str(c) for c in sc.deck()[:DECK_SHOWN]])
            for name, f in self.fields.items():
                _set(f["money"], sc.money(name))
                _set(f["plants"], [str(c) for c in sc.plants(name)])
                for r, x in f["tokens"].items():
                    _set(x, sc.tokens(name)[r])
                _set(f["cities"], ", ".join(sc.cities(name)))
        finally:
            self._syncing = False
        for field, box in self.errors.items():
            box.value = _problem_html([p for p in found if p.field == field])
        self.summary.value = _summary(sc, found)
        self.play_button.disabled = self.save_button.disabled = self.fork_button.disabled = bool(found)
        self.download.value = ""  # a download offered before this edit would be another position
        self._draw_map()

    def _draw_map(self) -> None:
        g = self.scenario.sketch()
        if g is None:
            return
        title = f"{g.map.title}: click a city to add or remove a house of {self.who.value}"
        if self.map is None:
            # laid out as the play table lays it out (Germany at 700x640 put 19 names or costs on others)
            width = table_width(g)  # its height: the map's across that width
            fig = views.map_figure(g, title=title, width=width, link_hover=False)
            self.map_box.layout.width = f"{width + 10}px"
            self.map = LiveFigure(fig)
            for trace in self.map.data:
                if trace.legendgroup == "regions":
                    trace.on_click(self._city_click)
            self.map_box.children = [self.who, self.map]
        else:
            synced_update(self.map, g, title=title)

    # --- actions -------------------------------------------------------------------------------------
    def game(self) -> Game:
        """The position as a Game (a SaveFileError lists the problems while it is not valid)."""
        return self.scenario.game()

    def offer_download(self) -> None:
        """Offer the scenario JSON as a download link (nothing is written on the server)."""
        text = self.scenario.to_json()
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        self.download.value = (f"<a download='scenario.json' href='data:application/json;base64,{data}' "
                               f"style='color:{OK}'>⬇ Download scenario.json</a>")

    def open_table(self) -> Any:
        """Play the position: ``on_open(game)``, or a play table shown below the editor."""
        g = self.game()
        if self.on_open is not None:
            return self.on_open(g)
        from .table import play  # the table module imports most panels: only when asked for
        table = play(g)
        self.out.clear_output()
        with self.out:
            from IPython.display import display
            display(table)
        return table

    def fork(self) -> ScenarioEditor:
        """A new, independent editor of this position, shown below this one (this one is unchanged)."""
        editor = ScenarioEditor(self.scenario.fork(), on_open=self.on_open)
        self.out.clear_output()
        with self.out:
            from IPython.display import display
            display(editor)
        return editor


    def close(self) -> None:
        """Close the editor and its map (the figure's model too)."""
        if self.map is not None:
            self.map.close()
        super().close()


def _scenario(source: Game | Scenario | Mapping[str, Any] | None) -> Scenario:
    if source is None:
        return Scenario.new(4, map=DEFAULT_MAP, edition=DEFAULT_EDITION, seed=1)
    if isinstance(source, Scenario):
        return source
    if isinstance(source, Game):
        return Scenario.from_game(source)
    sc = Scenario(source)
    if not sc.participants:
        raise SaveFileError("the scenario names no players", ("config", "players"), "missing",
                            root="scenario")
    return sc


def _set(widget: w.Widget, value: Any) -> None:
    if widget.value != value:
        widget.value = value


def _summary(sc: Scenario, found: list[Problem]) -> str:
    if not found:
        name = PHASE_NAMES.get(sc.phase, "")
        return (f"<div style='color:{OK}'>✓ A valid position: round {sc.round}, step {sc.step}, phase "
                f"{sc.phase} ({esc(name)}). Open it in the play table, save it or fork it.</div>")
    items = "".join(f"<li>{esc(field_label(p.field))}: {esc(p.message.splitlines()[0])}</li>" for p in found)
    return (f"<div style='color:{ERROR}'><b>{len(found)} problem{'s' * (len(found) > 1)}</b>: the "
            f"position cannot be played or saved until they are fixed<ul style='margin:2px 0'>{items}</ul>"
            "</div>")
