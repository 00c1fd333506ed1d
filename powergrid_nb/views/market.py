"""The plant market as HTML cards: what the play table's plant-market tab shows.

The same market as :func:`powergrid_nb.views.plants_figure` (the same rows, card print, hover text
and colours), drawn by the browser as boxes and text, so the table can replace it in place at every
move: a Plotly figure is redrawn whole on each change, which took most of a click's time. The
fragment brings its own style sheet (every rule under ``.pg-market``), so it also shows as it is in a
notebook: ``IPython.display.HTML(plants_html(g))``; the table's widget puts the sheet in the page once
(a style sheet replaced at every move would make the browser restyle the whole page).

Cards of the current market carry ``data-plant="<number>"``: the table sends a click on one to the
auction panel. Every text from outside the package (player names) is escaped.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from powergrid_nb.frames import plants_rows

from ._base import player_color
from .plants import (
    AUCTION,
    DARK_TEXT,
    FUEL_COLORS,
    KEY_LABELS,
    KEY_TITLE,
    RESOURCE_COLORS,
    ROW_LABELS,
    STEP3_NOTE,
    auction_badge,
    card_lines,
    hover_lines,
    market_status,
    step3_lines,
)

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["MARKET_CSS", "plants_html"]

MARKET_CSS = """
.pg-market { font-family: Arial, Helvetica, sans-serif; color: #222; padding: 4px 6px 8px;
  max-width: 900px; box-sizing: border-box; }
.pg-market-title { font-size: 17px; line-height: 1.3; margin: 2px 0 8px; }
.pg-market-status { font-size: 14px; color: #333; }
.pg-market-row { display: grid; grid-template-columns: repeat(6, minmax(0, 1fr)); gap: 10px;
  align-items: stretch; margin-bottom: 12px; }
.pg-market-label { grid-column: span 2; align-self: center; font-size: 15px; color: #444; }
.pg-market-note { font-size: 15px; color: #444; margin: -4px 0 10px; }
.pg-card { position: relative; border: 1px solid #333; border-radius: 3px; min-height: 128px;
  padding: 3px 4px 6px; text-align: center; box-sizing: border-box; overflow-wrap: anywhere; }
.pg-market-step3 .pg-card { min-height: 176px; }
.pg-card-number { font-size: 26px; font-weight: bold; line-height: 1.15; }
.pg-market-step3 .pg-card-number { font-size: 30px; }
.pg-card-print { font-size: 12px; line-height: 1.3; }
.pg-card-openable { cursor: pointer; box-shadow: 0 0 0 2px #fff, 0 0 0 4px #1565C0; }
.pg-card-openable:hover { box-shadow: 0 0 0 2px #fff, 0 0 0 5px #0D47A1; }
.pg-card-auction { border: 5px solid $auction; padding: 0 0 2px; }
.pg-card-selected { border: 5px solid #1565C0; padding: 0 0 2px; }
.pg-card-chosen { background: #1565C0; border-bottom-color: #1565C0; }
.pg-card-badge { font-size: 13px; font-weight: bold; color: #fff; border-bottom: 2px solid $auction;
  padding: 2px 2px; line-height: 1.25; }
.pg-card-step3 { background: #fff; border: 3px dashed #333; color: #333; display: flex;
  flex-direction: column; justify-content: center; font-size: 12px; }
.pg-market-key { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 14px; font-size: 12px;
  color: #444; }
.pg-market-key i { display: inline-block; width: 12px; height: 12px; border: 1px solid #333;
  vertical-align: -2px; margin-right: 5px; }
""".replace("$auction", AUCTION)

_HYBRID_FILL = (f"linear-gradient(to bottom right, {RESOURCE_COLORS['coal']} 50%, "
                f"{RESOURCE_COLORS['oil']} 50%)")


def _fill(fuel: str) -> str:
    return _HYBRID_FILL if fuel == "hybrid" else FUEL_COLORS[fuel]


def _card(g: Game, row: dict[str, Any], selected: int | None = None) -> str:
    if row["is_step3"]:
        lines = step3_lines()
        tip = "\n".join(hover_lines(row))
        return (f'<div class="pg-card pg-card-step3" title="{escape(tip)}"><b>{escape(lines[0])}</b>'
                + "".join(f"<div>{escape(t)}</div>" for t in lines[1:]) + "</div>")
    fuel, number = str(row["fuel"]), int(row["plant"])
    ink = "#000" if fuel in DARK_TEXT else "#fff"
    classes = ["pg-card", f"pg-fuel-{fuel}"]
    attrs = ""
    if row["market"] == "current":
        attrs = f' data-plant="{number}"'
        if row["biddable_now"]:
            classes.append("pg-card-openable")
    badge = ""
    if number == selected and row["biddable_now"] and not row["in_auction"]:
        classes.append("pg-card-selected")
        badge = '<div class="pg-card-badge pg-card-chosen">chosen: set your bid</div>'
    if row["in_auction"]:
        classes.append("pg-card-auction")
        badge = (f'<div class="pg-card-badge" style="background:{player_color(g, str(row["leader"]))}">'
                 f'{escape(auction_badge(row))}</div>')
    tip = "\n".join(hover_lines(row))
    style = f"background:{_fill(fuel)};color:{ink}"
    return (f'<div class="{" ".join(classes)}"{attrs} style="{style}" title="{escape(tip)}">{badge}'
            f'<div class="pg-card-number">{number}</div>'
            f'<div class="pg-card-print">{"<br>".join(escape(t) for t in card_lines(row))}</div></div>')


def _key() -> str:
    items = "".join(f'<span><i style="background:{_fill(fuel)}"></i>{label}</span>'
                    for fuel, label in KEY_LABELS.items())
    return f'<div class="pg-market-key"><span>{KEY_TITLE}</span>{items}</div>'


def plants_html(g: Game, *, style: bool = True, selected: int | None = None) -> str:
    """The current and future plant markets as an HTML fragment of cards (Step 3: one row of six), with
    the auction, the round and phase, and the key of card colours. ``style=False`` leaves out the
    style sheet (``MARKET_CSS``), for a page that has it already: the play table puts it in once.
    ``selected``: a plant the player to act has chosen to open (outlined and marked) while no auction runs."""
    rows = plants_rows(g)
    status = market_status(g)
    parts = [f"<style>{MARKET_CSS}</style>" if style else "",
             f'<div class="pg-market{" pg-market-step3" if g.step == 3 else ""}">',
             f'<div class="pg-market-title"><b>Power plant market</b> · {escape(status[0])}'
             + "".join(f'<div class="pg-market-status">{escape(t)}</div>' for t in status[1:]) + "</div>"]
    for market in ("current", "future"):
        cards = [r for r in rows if r["market"] == market]
        if not cards:
            continue
        parts.append(f'<div class="pg-market-row" data-market="{market}">')
        parts += [_card(g, r, selected) for r in cards]
        if g.step != 3:
            name, note = ROW_LABELS[market]
            parts.append(f'<div class="pg-market-label"><b>{name}</b><br>{note}</div>')
        parts.append("</div>")
        if g.step == 3 and market == "current":
            parts.append(f'<div class="pg-market-note"><b>{STEP3_NOTE}</b></div>')
    parts += [_key(), "</div>"]
    return "".join(parts)
