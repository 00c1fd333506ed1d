"""Phase 2 panel: choose a plant and open, raise or pass; the discard dialog (R25-R41)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as w

from powergrid_nb.engine.actions import Bid, Discard, Open, Pass
from powergrid_nb.engine.gamelog import count, verb
from powergrid_nb.engine.rules.plants import PLANTS, RESOURCES

from ._widgets import ERROR, PhasePanel, esc, note, shared

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game
    from powergrid_nb.engine.queries import AuctionView


def plant_caption(n: int) -> str:
    """ "13 · eco · 1 city" (a card's number, fuel and cities)."""
    p = PLANTS.get(n)
    if p is None:
        return f"{n} · Step 3 card"
    fuel = f"{p.tokens} {p.fuel}" if p.tokens else p.fuel
    return f"{n} · {fuel} · {count(p.cities, 'city', 'cities')}"


def keep_text(keep: Any) -> str:
    if keep is None:
        return "keep what fits"
    parts = [f"{n} {r}" for r, n in zip(RESOURCES, keep, strict=True) if n]
    return "keep " + (", ".join(parts) if parts else "nothing")


def bid_range(bids: range) -> str:
    """The bids allowed, for beside the bid box: "5 to 50" (R28, R29, R31)."""
    return f"{bids[0]} to {bids[-1]}" if len(bids) > 1 else f"only {bids[0]}"


class AuctionPanel(PhasePanel):
    """Open an auction on a plant of the current market (a button or a click on its card), raise or
    pass; a player over the plant limit chooses a plant to discard and the tokens to keep."""

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self.selected: int | None = None
        self.discard_plant: int | None = None

    def render(self, g: Game, player: str, legal: list[Any]) -> list[w.Widget]:
        if g.discarding == player:
            return self._discard(g, player, [a for a in legal if isinstance(a, Discard)])
        running = g.auction
        if running is not None:
            return self._bidding(g, player, legal, running)
        return self._opening(g, player, legal)

    # --- choose a plant and open --------------------------------------------------------------------
    def _opening(self, g: Game, player: str, legal: list[Any]) -> list[w.Widget]:
        choices = g.bid_choices()  # the bids as ranges: as quick at any money
        opens = {x: bids for x, bids in choices.openings.items() if bids} if choices else {}
        can_pass = bool(choices and choices.may_pass)
        if self.selected not in opens:
            self.selected = min(opens) if opens else None
        ui = self.ui
        cards = [ui.button(f"{plant_caption(n)} · min {g.min_bid(n)}", f"pg-plant-{n} pg-plant",
                           lambda n=n: self.plant_clicked(n), disabled=n not in opens,
                           style="info" if n == self.selected else "",
                           tooltip=f"plant {n}" + ("" if n in opens
                                                   else f": {player} cannot pay {g.min_bid(n)}"))
                 for n in g.current_market()]
        kids: list[w.Widget] = [ui.heading(f"{player}: open an auction"),
                                ui.label(note("Choose a plant of the current market (or click its card in "
                                              "the plant market tab), then your bid.")),
                                ui.box(w.VBox, cards)]
        if self.selected is not None:
            bids = opens[self.selected]
            # an IntText, not a BoundedIntText: a bid out of range is refused with the rule, not
            # silently clamped in the browser (60 typed, 50 bid)
            amount = ui.control(w.IntText, "pg-bid-amount",
                                lambda c: self._relabel("pg-open",
                                                        f"Open plant {self.selected} at {c['new']}"),
                                value=bids[0], step=1, description="Bid", layout={"width": "170px"})
            go = ui.button(f"Open plant {self.selected} at {bids[0]}", "pg-open",
                           lambda: self.table.submit(Open(player, self.selected, amount.value)),
                           style="success")
            kids.append(ui.box(w.HBox, [amount, go, ui.label(note(bid_range(bids)), "pg-bid-range")]))
        if can_pass:
            kids.append(ui.button("Pass (no plant this round)", "pg-pass",
                                  lambda: self.table.submit(Pass(player))))
        else:
            kids.append(ui.label(note("Round 1: every player buys a plant, passing is not allowed (R35).")))
        return kids

    def chosen_plant(self) -> int | None:
        g = self.table.game
        return self.selected if g is not None and g.auction is None and g.discarding is None else None

    def plant_clicked(self, plant: int) -> None:
        g = self.table.game
        if g.auction is not None:
            self.table.say(f"plant {plant}: an auction is running; bid or pass", "#333333")
            return
        if plant not in g.current_market():
            self.table.say(f"plant {plant} is not in the current market (R12)", ERROR)
            return
        choices = g.bid_choices()
        if not (choices and choices.openings.get(plant)):
            self.table.say(f"{esc(g.current_player)} cannot pay the minimum bid of {g.min_bid(plant)} "
                           f"for plant {plant} (R31)", ERROR)
            return
        self.table.say("")
        self.selected = plant
        self.table.board.refresh()  # the plant market marks the plant chosen; sent first (Table.refresh)
        self.rerender()

    def _relabel(self, cls: str, text: str) -> None:
        b = self.shown(cls)
        if b is not None:
            b.description = text

    # --- an auction in progress --------------------------------------------------------------------
    def _bidding(self, g: Game, player: str, legal: list[Any], running: AuctionView) -> list[w.Widget]:
        plant, high, leader, still = running
        ui = self.ui
        kids: list[w.Widget] = [
            ui.heading(f"Auction of plant {plant}"),
            ui.label(note(f"<b>{esc(leader)}</b> {verb(leader, 'leads')} at <b>{high}</b> Elektro. "
                       f"{esc(player)} {verb(player, 'has')} {g.money(player)} Elektro. "
                       f"Still in: {esc(', '.join(still))}."))]
        choices = g.bid_choices()
        bids = choices.raises if choices else range(0)
        if bids:
            amount = ui.control(w.IntText, "pg-bid-amount",
                                lambda c: self._relabel("pg-raise", f"Bid {c['new']}"),
                                value=bids[0], step=1, description="Bid", layout={"width": "170px"})
            raise_ = ui.button(f"Bid {bids[0]}", "pg-raise",
                               lambda: self.table.submit(Bid(player, amount.value)), style="success")
            kids.append(ui.box(w.HBox, [amount, raise_, ui.label(note(bid_range(bids)), "pg-bid-range")]))
        else:
            kids.append(ui.label(note(f"{esc(player)} cannot bid more than {g.money(player)} Elektro.")))
        kids.append(ui.button("Pass (leave this auction)", "pg-pass",
                              lambda: self.table.submit(Pass(player))))
        return kids

    # --- over the plant limit: discard --------------------------------------------------------------
    def _discard(self, g: Game, player: str, options: list[Discard]) -> list[w.Widget]:
        plants = sorted({a.plant for a in options})
        if self.discard_plant not in plants:
            self.discard_plant = plants[0]
        ui = self.ui

        def choose(change: dict) -> None:
            self.discard_plant = change["new"]
            self.rerender()

        pick = ui.control(w.ToggleButtons, "pg-discard-plant", choose,
                          options=[(plant_caption(n), n) for n in plants], value=self.discard_plant,
                          style=shared(w.ToggleButtonsStyle, button_width="auto"))
        keeps = [a for a in options if a.plant == self.discard_plant]
        keep = ui.control(w.RadioButtons, "pg-keep", options=[(keep_text(a.keep), a) for a in keeps],
                          value=keeps[0])
        return [ui.heading(f"{player}: over the plant limit of {g.plant_limit}"),
                ui.label(note("Discard one of your older plants (R36); tokens that no longer fit go back "
                              "to the supply (R37).")),
                pick, ui.label(note("Tokens to keep:")), keep,
                ui.button(f"Discard plant {self.discard_plant}", "pg-discard",
                          lambda: self.table.submit(keep.value), style="danger")]
