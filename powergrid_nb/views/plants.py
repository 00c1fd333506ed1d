"""The plant market as cards: the current market on top, the future market below (Step 3: one
market of six), each card with its economics at today's resource prices and the running auction.

Every number comes from ``g.plants_frame()`` (read as its rows, ``frames.plants_rows``); cards are
layout shapes, their text annotations, and one invisible marker per card carries the full hover.
:func:`plant_card` draws one card (also a player's plant with the tokens stored on it) in any figure.

Text is sized to fit: annotations are drawn in pixels while the cards scale with the figure, so
the print is fitted (widths from Arial's metrics) to the card at the narrowest plot the market is
drawn in (``NOMINAL_WIDTH``, what a ``FigureWidget`` gets in JupyterLab); wider, it only has more room.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd
import plotly.graph_objects as go

from powergrid_nb.engine.gamelog import count, verb
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.frames import plants_rows

from ._base import RESOURCE_COLORS, base_layout, new_figure, player_color, scatter, view
from ._fit import text_width

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

FUEL_COLORS = {**RESOURCE_COLORS, "hybrid": RESOURCE_COLORS["coal"], "eco": "#2E7D32", "fusion": "#6A1B9A"}
DARK_TEXT = {"garbage"}          # light fills get black text, the rest white
COLUMNS = 6                      # the widest market (Step 3): the x range never changes
CARD_W, CARD_H = 0.9, 0.76
ROW_Y = {"current": 1.0, "future": 0.0}  # row centres; the y range below never changes
Y_RANGE = (-0.62, 1.56)
X_RANGE = (-0.05, COLUMNS + 0.05)
STEP3_BOTTOM = 0.12              # Step 3: one row of taller cards, the note and the key just below
KEY_Y = -0.54                    # the key of card colours (Steps 1 and 2: under the future row)
MARGIN = dict(l=10, r=10, t=50, b=10)
NOMINAL_WIDTH = 700              # px: the narrowest figure the cards are fitted to
NUMBER = 26                      # px: a card's number (Step 3's taller cards: 30)
PRINT = (14, 13, 12, 11, 10)     # px: the print's sizes, largest first (the largest that fits)
INSET = 5                        # px kept free inside a card's edge
LINE = 1.3                       # Plotly's line height, in font sizes
KEY = 12                         # px: the key of card colours
TRAY, TOKEN = 14, 10             # px: an owned plant's tray along its foot, and a token on it
AUCTION = "#FFB000"
KEY_NAME = "card colours"     # the key's trace
STEP3_TIP = ("Step 3 card", "not for sale: at the end of phase 2 it is boxed with the lowest plant;",
             "from then on one market of six, all biddable (R90, R93)")
STEP3_HOVER = f"<b>{STEP3_TIP[0]}</b><br>" + "<br>".join(STEP3_TIP[1:]) + "<extra></extra>"
STEP3_NOTE = "Step 3: one market, every plant biddable (above)"
ROW_LABELS = {"current": ("current market", "(biddable)"), "future": ("future market", "(not yet biddable)")}
KEY_TITLE = "card colour = fuel:"
KEY_LABELS = {fuel: "hybrid (coal/oil)" if fuel == "hybrid" else fuel for fuel in FUEL_COLORS}


def _num(x: Any, fmt: str = "{}") -> str | None:
    return None if pd.isna(x) else fmt.format(x)


def _fuel_text(row: Mapping[str, Any]) -> str:
    if row["fuel"] in ("eco", "fusion"):
        return f"{row['fuel']}: no fuel"
    if row["fuel"] == "hybrid":
        return f"{int(row['tokens'])} coal/oil"
    return f"{int(row['tokens'])} {row['fuel']}"


def _cities(row: Mapping[str, Any]) -> str:
    return count(int(row["cities"]), "city", "cities")


def card_lines(row: Mapping[str, Any]) -> list[str]:
    """The print of a card under its number, in short lines: fuel, cities powered, then for a market
    card (a ``plants_frame`` row) its minimum bid and fuel cost now. An owned plant (an
    ``owned_plants_frame`` row) has no more print: its tray shows the tokens stored on it."""
    green = row["fuel"] in ("eco", "fusion")
    lines = [str(row["fuel"]) if green else _fuel_text(row), f"→ {_cities(row)}"]
    if "min_bid" in row:
        lines.append(f"min bid {int(row['min_bid'])}" + (" (disc.)" if row["discounted"] else ""))
        cost = _num(row["fuel_cost_now"])
        if green:
            lines.append("no fuel needed")
        elif cost is None:
            lines.append("fuel: market short")
        else:
            lines += [f"fuel now {cost} E", f"{row['fuel_cost_per_city']:.1f} E per city"]
    return lines


def fit_print(lines: list[list[str]], width: float, height: float) -> int:
    """The largest print size (of ``PRINT``) at which every card's ``lines`` fit a box ``width`` x
    ``height`` px (the card less its number and insets); the smallest if none does."""
    for size in PRINT:
        wide = max((text_width(t, size) for card in lines for t in card), default=0.0)
        tall = max((len(card) for card in lines), default=0) * LINE * size
        if wide <= width - 2 * INSET and tall <= height - INSET:
            return size
    return PRINT[-1]


def _card_shapes(x0: float, y0: float, y1: float, fuel: str | None, frame: str, width: float,
                 x1: float | None = None) -> list[dict]:
    x1 = x0 + CARD_W if x1 is None else x1
    line = dict(color=frame, width=width)
    if fuel is None:  # the Step 3 card
        return [dict(type="rect", x0=x0, y0=y0, x1=x1, y1=y1, fillcolor="white",
                     line=dict(color="#333333", width=3, dash="dash"), layer="below")]
    if fuel == "hybrid":  # coal and oil, split on the diagonal
        return [dict(type="path", path=f"M {x0},{y0} L {x0},{y1} L {x1},{y1} Z",
                     fillcolor=RESOURCE_COLORS["coal"], line=dict(width=0), layer="below"),
                dict(type="path", path=f"M {x0},{y0} L {x1},{y0} L {x1},{y1} Z",
                     fillcolor=RESOURCE_COLORS["oil"], line=dict(width=0), layer="below"),
                dict(type="rect", x0=x0, y0=y0, x1=x1, y1=y1, line=line, layer="below")]
    return [dict(type="rect", x0=x0, y0=y0, x1=x1, y1=y1, fillcolor=FUEL_COLORS[fuel], line=line,
                 layer="below")]


def plant_card(row: Mapping[str, Any], x0: float, y0: float, x1: float, y1: float, px: tuple[float, float],
               *, size: int | None = None, number: int = NUMBER, frame: str = "#333333", width: float = 1,
               xref: str = "x", yref: str = "y") -> tuple[list[dict], list[dict]]:
    """The layout shapes and annotations of one plant card in the box (x0, y0)-(x1, y1) of axes
    ``xref``/``yref``: its fuel colour (hybrids split coal/oil), number and print (:func:`card_lines`).

    ``row``: a ``plants_frame`` row (a market card) or an ``owned_plants_frame`` row (a player's
    plant: a white tray along the card's foot holds a square per storage space, filled in the
    colour of the token stored there). ``px``: pixels per x and per y unit at the smallest size
    the card is shown, so the print fits; ``size``: the print's size (default: the largest that
    fits this card)."""
    fuel = str(row["fuel"])
    ink = "black" if fuel in DARK_TEXT else "white"
    shapes = _card_shapes(x0, y0, y1, fuel, frame, width, x1)
    lines = card_lines(row)
    top = 2 + 1.17 * number + 2  # px: the number's line
    owned = "stored" in row
    tokens = TRAY + INSET + 2 if owned and fuel not in ("eco", "fusion") else 0  # px: the tray's room
    if size is None:
        size = fit_print([lines], (x1 - x0) * px[0], (y1 - y0) * px[1] - top - tokens)
    notes = [dict(x=(x0 + x1) / 2, y=y1 - 2 / px[1], xref=xref, yref=yref, yanchor="top", showarrow=False,
                  text=f"<b>{int(row['plant'])}</b>", font=dict(size=number, color=ink)),
             # the print centred in the room between the number and the foot (the tokens' row)
             dict(x=(x0 + x1) / 2, y=(y1 - top / px[1] + y0 + tokens / px[1]) / 2, xref=xref, yref=yref,
                  yanchor="middle", showarrow=False, text="<br>".join(lines),
                  font=dict(size=size, color=ink))]
    if tokens:  # a white tray along the foot: a square per storage space, filled where a token sits
        held = [r for r in RESOURCE_COLORS for _ in range(int(row.get(r, 0) or 0))]
        slots = held + [None] * (int(row["storage"]) - len(held))
        step = min(TOKEN + 3.0, ((x1 - x0) * px[0] - 2 * INSET - 4) / max(len(slots), 1))
        half = min(TOKEN, step - 2) / 2
        cy = y0 + (INSET + TRAY / 2) / px[1]
        shapes.append(dict(type="rect", xref=xref, yref=yref, x0=x0 + INSET / px[0], x1=x1 - INSET / px[0],
                           y0=y0 + INSET / px[1], y1=y0 + (INSET + TRAY) / px[1], fillcolor="white",
                           line=dict(width=0)))
        left = (x0 + x1) / 2 - step * (len(slots) - 1) / 2 / px[0]
        for k, r in enumerate(slots):
            shapes.append(dict(type="rect", xref=xref, yref=yref, xsizemode="pixel", ysizemode="pixel",
                               xanchor=left + k * step / px[0], yanchor=cy,
                               x0=-half, x1=half, y0=-half, y1=half,
                               fillcolor=RESOURCE_COLORS[r] if r else "white",
                               line=dict(color="#222222" if r else "#9A9A9A", width=1)))
    return shapes, notes


def step3_lines() -> list[str]:
    """The print of the Step 3 card while it waits in the market."""
    return ["STEP 3", "boxed at the", "end of phase 2"]


def hover_lines(row: Mapping[str, Any]) -> list[str]:
    """A market card's hover text as plain lines: its fuel, storage, economics and whether it can be
    opened now (the Step 3 card: what happens to it)."""
    if row["is_step3"]:
        return list(STEP3_TIP)
    fuel = _fuel_text(row)
    store = f" (stores {int(row['storage'])})" if int(row["storage"]) else ""
    cost = _num(row["fuel_cost_now"])
    lines = [f"plant {int(row['plant'])} ({row['market']} market)", f"fuel: {fuel}{store}",
             f"powers {_cities(row)}",
             f"min bid {int(row['min_bid'])}" + (" (discount token)" if row["discounted"] else ""),
             "cities per token: " + ("no fuel" if pd.isna(row["cities_per_token"])
                                     else f"{row['cities_per_token']:.2f}"),
             "fuel at today's prices: " + ("free" if row["fuel"] in ("eco", "fusion") else
                                           f"{cost} Elektro, {row['fuel_cost_per_city']:.2f} per city"
                                           if cost else "not enough on the market"),
             "can be opened now: " + ("yes" if row["biddable_now"] else "no")]
    if row["in_auction"]:  # the bid is on the card's badge: a hover that changes with it redraws the plot
        lines.append("under auction now (the high bid is on the card)")
    return lines


def auction_badge(row: Mapping[str, Any]) -> str:
    """The badge on the card under auction: "<leader> leads at <bid>"."""
    leader = str(row["leader"])
    return f"{leader} {verb(leader, 'leads')} at {int(row['high_bid'])}"


def market_status(g: Game) -> list[str]:
    """The market's title lines: round, phase and step, then the auction or who is to open a plant."""
    status = [f"round {g.round} · phase {g.phase} ({g.phase_name}) · step {g.step}"]
    auction = g.auction
    if auction is not None:
        status.append(f"auction: plant {auction.plant}, {auction.leader} {verb(auction.leader, 'leads')} "
                      f"at {auction.bid}")
    elif g.phase == Phase.AUCTION and g.discarding:
        status.append(f"{g.discarding} to discard a plant (over the limit, R36)")
    elif g.phase == Phase.AUCTION and g.current_player:
        choices = g.bid_choices()
        if choices is not None and choices.may_pass:
            status.append(f"{g.current_player} to open a plant or pass")
        else:  # R35: in round 1 every player buys a plant
            status.append(f"{g.current_player} to open a plant (passing is not allowed, R35)")
    return status


def _hover(row: Mapping[str, Any]) -> str:
    lines = hover_lines(row)
    lines[0] = f"<b>plant {int(row['plant'])}</b> ({row['market']} market)"
    return "<br>".join(lines)


def _key(fig: go.Figure, notes: list[dict], y: float, unit: float) -> None:
    """The key of card colours at height ``y``: a square and its fuel each (one trace, ``KEY_NAME``),
    laid out in pixels at the narrowest size (``unit`` px per x unit), so no name runs into the next
    square."""
    notes.append(dict(x=0, y=y, text=KEY_TITLE, xanchor="left", showarrow=False,
                      font=dict(size=KEY, color="#444444")))
    x = (text_width(KEY_TITLE, KEY) + 18) / unit
    xs, labels = [], []
    for label in KEY_LABELS.values():
        xs.append(x)
        labels.append(label)
        x += (7 + 9.75 + text_width(label, KEY) + 12 + 7) / unit  # half square, gap, name, space, half
    hybrid = [f == "hybrid" for f in FUEL_COLORS]
    # one trace, not one per fuel: a browser redraws the market at nearly every move, per trace
    fig.add_trace(scatter(x=xs, y=[y] * len(xs), text=labels, mode="markers+text", name=KEY_NAME,
                          textposition="middle right", showlegend=False, hoverinfo="skip", cliponaxis=False,
                          textfont=dict(size=KEY), marker=dict(
                              size=14, symbol="square", color=list(FUEL_COLORS.values()),
                              line=dict(color=[RESOURCE_COLORS["oil"] if h else "#333333" for h in hybrid],
                                        width=[3 if h else 1 for h in hybrid]))))


@view("plants")
def plants_figure(g: Game, *, height: int = 460) -> go.Figure:
    """The current and future plant markets as cards (Step 3: one row of six taller cards), with the
    auction."""
    pf = plants_rows(g)  # plants_frame's rows, without the frame (refreshed on every market change)
    shapes: list[dict] = []
    notes: list[dict] = []
    points: dict[str, dict[str, list]] = {k: {"x": [], "y": [], "text": [], "cd": []}
                                          for k in ("current", "future", "step3")}
    step3 = g.step == 3
    px = ((NOMINAL_WIDTH - MARGIN["l"] - MARGIN["r"]) / (X_RANGE[1] - X_RANGE[0]),
          (height - MARGIN["t"] - MARGIN["b"]) / (Y_RANGE[1] - Y_RANGE[0]))
    number = round(NUMBER * (1.15 if step3 else 1.0))  # the taller Step 3 cards: a larger number
    cards = [r for r in pf if not r["is_step3"]]
    tall = (1 + CARD_H / 2 - STEP3_BOTTOM) if step3 else CARD_H
    size = fit_print([card_lines(r) for r in cards], CARD_W * px[0],
                     tall * px[1] - (4 + 1.17 * number))  # one print size for the whole market
    for market, y in ROW_Y.items():
        rows = [r for r in pf if r["market"] == market]
        slot = min(1.0, COLUMNS / max(len(rows), 1))
        # the card's bottom and top; in Step 3 the one row also takes the (empty) future row's room
        bottom, top = (STEP3_BOTTOM if step3 else y - CARD_H / 2), y + CARD_H / 2
        if step3 and market == "current":
            notes.append(dict(x=0.05, y=bottom - 0.03, yanchor="top", xanchor="left", showarrow=False,
                              text=f"<b>{STEP3_NOTE}</b>",
                              font=dict(size=15, color="#444444")))
        elif not step3:
            label = "<br>".join(ROW_LABELS[market])
            notes.append(dict(x=len(rows) * slot + 0.1, y=y, text=f"<b>{label}</b>", xanchor="left",
                              align="left", showarrow=False, font=dict(size=15, color="#444444")))
        for i, row in enumerate(rows):
            x0 = i * slot + (slot - CARD_W) / 2
            cx, cy = x0 + CARD_W / 2, (bottom + top) / 2
            if row["is_step3"]:
                shapes += _card_shapes(x0, bottom, top, None, "", 0)
                lines = step3_lines()
                lines[0] = f"<b>{lines[0]}</b>"
                notes.append(dict(x=cx, y=cy, text="<br>".join(lines), showarrow=False, font=dict(
                    size=min(size, fit_print([lines[1:]], CARD_W * px[0], CARD_H * px[1])),
                    color="#333333")))
                points["step3"]["x"].append(cx)
                points["step3"]["y"].append(cy)
                continue
            running = bool(row["in_auction"])
            frame, width = (AUCTION, 6) if running else ("#333333", 1)
            s, n = plant_card(row, x0, bottom, x0 + CARD_W, top, px, size=size, number=number, frame=frame,
                              width=width)
            shapes += s
            notes += n
            if running:
                notes.append(dict(x=cx, y=top + 0.01, text=f"<b>{auction_badge(row)}</b>", yanchor="bottom",
                                  showarrow=False, bgcolor=player_color(g, str(row["leader"])),
                                  bordercolor=AUCTION, borderwidth=2, font=dict(size=14, color="white")))
            pts = points[market]
            pts["x"].append(cx)
            pts["y"].append(cy)
            pts["text"].append(_hover(row))
            pts["cd"].append([int(row["plant"]), int(row["min_bid"]), bool(row["discounted"])])
    fig = new_figure()
    for key, name in (("current", "current market"), ("future", "future market"), ("step3", "Step 3 card")):
        pts = points[key]
        hover = dict(hovertemplate=STEP3_HOVER) if key == "step3" else \
            dict(hovertext=pts["text"], hoverinfo="text", customdata=pts["cd"])
        fig.add_trace(scatter(x=pts["x"], y=pts["y"], mode="markers", name=name,
                              showlegend=False, marker=dict(size=70, symbol="square", color="rgba(0,0,0,0)"),
                              **hover))
    # The key of card colours, drawn in the plot right under the cards (so in Step 3 it moves up with
    # the note): a marker and its name per fuel; positions are fixed, only the row's height changes.
    _key(fig, notes, STEP3_BOTTOM - 0.33 if step3 else KEY_Y, px[0])
    status = market_status(g)
    # the auction (or who is to open) on a second, smaller line: the title fits a 700 px figure
    title = "Power plant market · " + status[0] + "".join(
        f"<br><span style='font-size:14px'>{line}</span>" for line in status[1:])
    fig.update_layout(shapes=shapes, annotations=notes)
    fig.update_xaxes(range=list(X_RANGE), visible=False, fixedrange=True)
    fig.update_yaxes(range=list(Y_RANGE), visible=False, fixedrange=True)
    base_layout(fig, title, height=height, hovermode="closest", showlegend=False)
    fig.update_layout(margin=MARGIN)
    return fig
