"""Phase 3 panel: a stepper per resource with the engine's live cost, then Buy or Done (R47-R53)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as w
import pandas as pd

from powergrid_nb.engine.actions import BuyResources, Done
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.gamelog import count, possessive
from powergrid_nb.engine.rules.plants import RESOURCES

from ._widgets import ERROR, PhasePanel, esc, note

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

MAX_STEP = 30  # more tokens than any player's storage can hold (6 plants of the largest storage)


def quote(g: Game, player: str, amounts: dict[str, int]) -> tuple[int | None, str]:
    """The engine's price of ``amounts`` for ``player`` now, or (None, the rule that forbids it)."""
    try:
        return g.purchase_cost(player, **amounts), ""
    except IllegalAction as e:
        return None, str(e).split(": ", 1)[-1]


def room(g: Game, player: str, amounts: dict[str, int], resource: str) -> int:
    """How many more ``resource`` tokens the engine would sell ``player`` on top of ``amounts``."""
    extra = 0
    while extra < MAX_STEP:
        trial = {**amounts, resource: amounts[resource] + extra + 1}
        if quote(g, player, trial)[0] is None:
            break
        extra += 1
    return extra


class ResourcesPanel(PhasePanel):
    """Per resource: − / + (a step the engine would refuse is disabled), holdings, the next price; the
    total from ``Game.purchase_cost``; Buy (the player may buy again) and Done."""

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self.amounts = dict.fromkeys(RESOURCES, 0)
        self._turn: tuple | None = None

    def render(self, g: Game, player: str, legal: list[Any]) -> list[w.Widget]:
        turn = (g.round, player, len(g.actions))
        if turn != self._turn:  # a new turn or a purchase made: start from nothing
            self.amounts = dict.fromkeys(RESOURCES, 0)
            self._turn = turn
        cost, why = quote(g, player, self.amounts)
        money = g.money(player)
        held = g.tokens_of(player)
        rf = self.table.frame("resources").drop_duplicates("resource").set_index("resource")
        ui = self.ui
        rows: list[w.Widget] = []
        for r in RESOURCES:
            n = self.amounts[r]
            more = room(g, player, self.amounts, r)
            if n == 0 and more == 0 and held[r] == 0:
                continue  # nothing to buy or hold of this resource
            price = rf.loc[r, "next_price"]
            after = quote(g, player, {**self.amounts, r: n + 1})[0] if more and cost is not None else None
            if after is not None:  # the next token after the ones queued
                price_text = f"next at {after - cost}"
            elif n:
                price_text = "no more after these"
            else:
                price_text = "none on the market" if pd.isna(price) else f"next at {price}"
            minus = ui.button("−", f"pg-less-{r}", lambda r=r: self._step(r, -1), disabled=n == 0,
                              width="36px")
            tip = f"one more {r}" if more else f"no more {r}: storage, supply or money"
            plus = ui.button("+", f"pg-more-{r}", lambda r=r: self._step(r, +1), disabled=more == 0,
                          width="36px", tooltip=tip)
            shown = ui.label(f"<b style='font-size:1.2em'>{n}</b>", f"pg-count-{r}", width="28px")
            info = ui.label(f"<b>{r}</b>: hold {held[r]}, {price_text}, room for {n + more}",
                            f"pg-info-{r}", width="auto")
            rows.append(ui.box(w.HBox, [minus, shown, plus, info], align_items="center"))
        total = sum(self.amounts.values())
        if cost is None:
            cost_html = note(esc(why), ERROR)
        else:
            cost_html = (f"<b>Total: {cost} Elektro</b> for {count(total, 'token')}; "
                         f"{money - cost} Elektro left")
        buy = ui.button(f"Buy for {cost}" if total and cost is not None else "Buy", "pg-buy",
                     self._buy, style="success", disabled=total == 0 or cost is None)
        queued = total and cost is not None
        done = ui.button("Buy and end turn" if queued else "Done (end of turn)", "pg-done", self._done,
                         tooltip="buy the tokens queued above, then end the turn" if queued else
                         "end the turn")
        if not rows:
            mine = esc(possessive(player))
            rows = [ui.label(note(f"{mine} plants cannot store anything the market has now."))]
        return [ui.heading(f"{player}: buy resources ({money} Elektro)"), *rows,
                ui.label(cost_html, "pg-cost"), ui.box(w.HBox, [buy, done])]

    def _step(self, resource: str, by: int) -> None:
        self.amounts[resource] = max(0, self.amounts[resource] + by)
        self.rerender()

    def _done(self) -> None:
        """End the turn; tokens queued are bought first (a click never drops them), or, if the engine
        refuses them, nothing happens but the reason."""
        g = self.table.game
        player = g.current_player
        if not any(self.amounts.values()):
            self.table.submit(Done(player))
            return
        cost, why = quote(g, player, self.amounts)
        if cost is None:
            self.table.say(f"The tokens queued cannot be bought: {esc(why)}. Take them off (−) to end "
                           "your turn without buying.", ERROR)
            return
        tokens = ", ".join(f"{n} {r}" for r, n in self.amounts.items() if n)
        self.table.submit(BuyResources(player, **self.amounts), Done(player),
                          done=f"Bought the tokens queued ({tokens}) for {cost} Elektro, then ended the "
                               "turn.")

    def _buy(self) -> None:
        g = self.table.game
        if not any(self.amounts.values()):  # a second click on the button of a panel already bought
            return
        self.table.submit(BuyResources(g.current_player, **self.amounts))
