"""The plant market as cards: the current market on top, the future market below (Step 3: one
market of six), each card with its economics at today's resource prices and the running auction.

Every number comes from ``g.plants_frame()``; cards are layout shapes, their text annotations,
and one invisible marker per card carries the full hover.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
import plotly.graph_objects as go

from ._base import RESOURCE_COLORS, base_layout, new_figure, player_color, view

if TYPE_CHECKING:
    from ..game import Game

FUEL_COLORS = {**RESOURCE_COLORS, "hybrid": RESOURCE_COLORS["coal"], "eco": "#2E7D32", "fusion": "#6A1B9A"}
DARK_TEXT = {"garbage"}          # light fills get black text, the rest white
COLUMNS = 6                      # the widest market (Step 3): the x range never changes
CARD_W, CARD_H = 0.9, 0.76
ROW_Y = {"current": 1.0, "future": 0.0}  # row centres; the y range below never changes
Y_RANGE = (-0.62, 1.56)
STEP3_BOTTOM = 0.12              # Step 3: one row of taller cards, the note and the key just below
KEY_Y, KEY_X0 = -0.54, 0.95      # the key of card colours (Steps 1 and 2: under the future row)
NUMBER_H = 0.25                  # the card's number, above its small print
AUCTION = "#FFB000"
STEP3_HOVER = ("<b>Step 3 card</b><br>not for sale: at the end of phase 2 it is boxed with the lowest "
               "plant;<br>from then on one market of six, all biddable (R90, R93)<extra></extra>")


def _num(x: Any, fmt: str = "{}") -> str | None:
    return None if pd.isna(x) else fmt.format(x)


def _fuel_text(row: pd.Series) -> str:
    if row["fuel"] in ("eco", "fusion"):
        return f"{row['fuel']}: no fuel"
    if row["fuel"] == "hybrid":
        return f"{int(row['tokens'])} coal/oil"
    return f"{int(row['tokens'])} {row['fuel']}"


def _cities(row: pd.Series) -> str:
    n = int(row["cities"])
    return f"{n} city" if n == 1 else f"{n} cities"


def _card_lines(row: pd.Series) -> str:
    """The print of a card under its number: fuel → cities, minimum bid and economics (short lines, so
    they fit the card at 14 px)."""
    mb = int(row["min_bid"])
    green = row["fuel"] in ("eco", "fusion")
    lines = [f"{row['fuel'] if green else _fuel_text(row)} → {_cities(row)}",
             f"min bid {mb}" + (" (discount)" if row["discounted"] else "")]
    if green:
        lines.append("no fuel needed")
    else:
        lines.append(f"{row['cities_per_token']:.2f} cities/token")
        cost = _num(row["fuel_cost_now"])
        per_city = f"{row['fuel_cost_per_city']:.1f}/city"
        lines.append(f"fuel {cost} E · {per_city}" if cost else "fuel: market short")
    return "<br>".join(lines)


def _hover(row: pd.Series) -> str:
    fuel = _fuel_text(row)
    store = f" (stores {int(row['storage'])})" if int(row["storage"]) else ""
    cost = _num(row["fuel_cost_now"])
    lines = [f"<b>plant {int(row['plant'])}</b> ({row['market']} market)", f"fuel: {fuel}{store}",
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
    return "<br>".join(lines)


def _card_shapes(x0: float, y0: float, y1: float, fuel: str | None, frame: str, width: float) -> list[dict]:
    x1 = x0 + CARD_W
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


@view("plants")
def plants_figure(g: Game, *, height: int = 460) -> go.Figure:
    """The current and future plant markets as cards (Step 3: one row of six taller cards), with the
    auction."""
    pf = g.plants_frame()
    shapes: list[dict] = []
    notes: list[dict] = []
    points: dict[str, dict[str, list]] = {k: {"x": [], "y": [], "text": [], "cd": []}
                                          for k in ("current", "future", "step3")}
    step3 = g.step == 3
    for market, y in ROW_Y.items():
        rows = pf[pf["market"] == market]
        slot = min(1.0, COLUMNS / max(len(rows), 1))
        # the card's bottom and top; in Step 3 the one row also takes the (empty) future row's room
        bottom, top = (STEP3_BOTTOM if step3 else y - CARD_H / 2), y + CARD_H / 2
        if step3 and market == "current":
            notes.append(dict(x=0.05, y=bottom - 0.03, yanchor="top", xanchor="left", showarrow=False,
                              text="<b>Step 3: one market, every plant biddable (above)</b>",
                              font=dict(size=15, color="#444444")))
        elif not step3:
            label = "current market<br>(biddable)" if market == "current" \
                else "future market<br>(not yet biddable)"
            notes.append(dict(x=len(rows) * slot + 0.1, y=y, text=f"<b>{label}</b>", xanchor="left",
                              align="left", showarrow=False, font=dict(size=15, color="#444444")))
        for i, (_, row) in enumerate(rows.iterrows()):
            x0 = i * slot + (slot - CARD_W) / 2
            cx, cy = x0 + CARD_W / 2, (bottom + top) / 2
            if row["is_step3"]:
                shapes += _card_shapes(x0, bottom, top, None, "", 0)
                notes.append(dict(x=cx, y=cy, text="<b>STEP 3</b><br>boxed at the end<br>of phase 2",
                                  showarrow=False, font=dict(size=14, color="#333333")))
                points["step3"]["x"].append(cx)
                points["step3"]["y"].append(cy)
                continue
            fuel = str(row["fuel"])
            running = bool(row["in_auction"])
            frame, width = (AUCTION, 6) if running else ("#333333", 1)
            shapes += _card_shapes(x0, bottom, top, fuel, frame, width)
            ink = "black" if fuel in DARK_TEXT else "white"
            big = 1.2 if step3 else 1.0  # the taller Step 3 cards: a larger number and print
            notes.append(dict(x=cx, y=top - 0.03, text=f"<b>{int(row['plant'])}</b>", yanchor="top",
                              showarrow=False, font=dict(size=round(28 * big), color=ink)))
            # the print right under the number (Step 3's taller cards: centred in the room left)
            under = top - NUMBER_H * big
            notes.append(dict(x=cx, y=(under + bottom) / 2 if step3 else under, text=_card_lines(row),
                              yanchor="middle" if step3 else "top", showarrow=False,
                              font=dict(size=15 if step3 else 14, color=ink)))
            if running:
                leader = str(row["leader"])
                badge = f"<b>{leader} leads at {int(row['high_bid'])}</b>"
                notes.append(dict(x=cx, y=top + 0.01, text=badge, yanchor="bottom", showarrow=False,
                                  bgcolor=player_color(g, leader),
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
        fig.add_trace(go.Scatter(x=pts["x"], y=pts["y"], mode="markers", name=name, showlegend=False,
                                 marker=dict(size=70, symbol="square", color="rgba(0,0,0,0)"), **hover))
    # The key of card colours, drawn in the plot right under the cards (so in Step 3 it moves up with
    # the note): a marker and its name per fuel; positions are fixed, only the row's height changes.
    key_y = STEP3_BOTTOM - 0.33 if step3 else KEY_Y
    notes.append(dict(x=0, y=key_y, text="card colour = fuel:", xanchor="left", showarrow=False,
                      font=dict(size=14, color="#444444")))
    x = KEY_X0
    for fuel, color in FUEL_COLORS.items():
        edge = RESOURCE_COLORS["oil"] if fuel == "hybrid" else "#333333"
        label = "hybrid (coal/oil)" if fuel == "hybrid" else fuel
        fig.add_trace(go.Scatter(x=[x], y=[key_y], text=[" " + label], mode="markers+text", name=label,
                                 textposition="middle right", showlegend=False, hoverinfo="skip",
                                 textfont=dict(size=14), marker=dict(
                                     size=16, symbol="square", color=color,
                                     line=dict(color=edge, width=4 if fuel == "hybrid" else 1))))
        x += 0.3 + 0.042 * len(label)
    auction = g.auction
    status = [f"round {g.round} · phase {g.phase} ({g.phase_name}) · step {g.step}"]
    if auction is not None:
        status.append(f"auction: plant {auction.plant}, {auction.leader} leads at {auction.bid}")
    elif g.phase == 2 and g.current_player:
        status.append(f"{g.current_player} to open a plant or pass")
    title = "Power plant market · " + " · ".join(status)
    fig.update_layout(shapes=shapes, annotations=notes)
    fig.update_xaxes(range=[-0.05, COLUMNS + 0.05], visible=False, fixedrange=True)
    fig.update_yaxes(range=list(Y_RANGE), visible=False, fixedrange=True)
    base_layout(fig, title, height=height, hovermode="closest", showlegend=False)
    fig.update_layout(margin=dict(l=10, r=10, t=50, b=10))
    return fig
