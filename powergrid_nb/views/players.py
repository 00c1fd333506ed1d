"""The players' boards: a row per participant in player order with their name, money, cities and
what they can power now, beside their plants drawn as the market's cards with the tokens stored
on them (:func:`powergrid_nb.views.plants.plant_card` on ``owned_plants_frame`` rows).

Laid out in pixels at the narrowest figure it is shown in (``NOMINAL_WIDTH``, the Players tab in
JupyterLab) with a fixed height per row, so every text is fitted once (``views/_fit.py``); a wider
figure only gives the cards more room.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import plotly.graph_objects as go

from powergrid_nb.engine.gamelog import count
from powergrid_nb.engine.rules.plants import RESOURCES
from powergrid_nb.frames import owned_plants_frame

from ._base import base_layout, new_figure, player_color, refreshing, scatter, to_int, view
from ._fit import text_width
from .plants import INSET, LINE, TRAY, card_lines, fit_print, plant_card

if TYPE_CHECKING:
    import pandas as pd

    from powergrid_nb.engine.game import Game

NOMINAL_WIDTH = 655          # px: the narrowest figure (the Players tab in JupyterLab's default layout)
MARGIN = dict(l=10, r=10, t=50, b=6)
ROW = 108                    # px per participant at the default height
PAD = 5                      # px between a row's edge and its cards
INFO = 196                   # px: the name, money and cities left of the cards
STRIP = 6                    # px: the player's colour along the row's left edge
GAP = 8                      # px between cards
CARD_MAX = 120               # px: the widest a card gets at the nominal width
NUMBER = 22                  # px: a card's number
NAME = (16, 15, 14, 13, 12)  # px: the name's sizes, largest first (the largest that fits)
FACTS = 14                   # px: the money and cities lines
SLOT = "#BBBBBB"             # an empty plant space's dashed outline


def player_label(order: Any, name: str) -> str:
    """A participant's label: their place in the player order, then the name ("2. Ada")."""
    return name if to_int(order) is None else f"{int(order)}. {name}"


def fit_name(text: str, width: float) -> tuple[str, int]:
    """``text`` at the largest size of ``NAME`` that fits ``width`` px (bold), else at the smallest,
    shortened with "…" until it fits."""
    for size in NAME:
        if text_width(text, size, bold=True) <= width:
            return text, size
    size = NAME[-1]
    while len(text) > 1 and text_width(text + "…", size, bold=True) > width:
        text = text[:-1]
    return text + "…", size


def money_line(money: int | None, income: int | None) -> str:
    """ "23 Elektro (+44 income)": money and the income if they powered now; the Trust has none (R130)."""
    if money is None:
        return "no money (the Trust)"
    return f"{money} Elektro" + ("" if income is None else f" (+{income} income)")


def cities_line(cities: int, can: int | None) -> str:
    """ "3 cities, powers 2 now"; the Trust never powers (R128-R133): its cities alone."""
    return count(cities, "city", "cities") + ("" if can is None else f", powers {can} now")


def stored_text(row: Any) -> str:
    """The tokens on an owned plant: "2 coal, 1 oil (of 4)", "none (of 4)", "" for a green plant."""
    if row["fuel"] in ("eco", "fusion"):
        return ""
    held = [f"{int(row[r])} {r}" for r in RESOURCES if int(row[r])]
    return f"{', '.join(held) or 'none'} (of {int(row['storage'])})"


def _card_hover(row: Any) -> str:
    cities = count(int(row["cities"]), "city", "cities")
    lines = [f"<b>{row['owner']}: plant {int(row['plant'])}</b>"]
    if row["fuel"] in ("eco", "fusion"):
        lines.append(f"{row['fuel']}: no fuel, powers {cities}")
    else:
        lines += [f"burns {card_lines(row)[0]} to power {cities}", f"stored: {stored_text(row)}"]
    return "<br>".join(lines)


def _slots(g: Game, held: pd.DataFrame) -> int:
    """Card spaces per row: the plant limit (R36), or more while someone holds one more to discard."""
    most = int(held.groupby("owner").size().max()) if len(held) else 0
    return max(g.plant_limit, most)


def _info(g: Game, name: str, r: pd.Series, y0: float, y1: float, plants: list[int]
          ) -> tuple[list[dict], list[dict], str]:
    """A participant's strip, name, money and cities lines (shapes, annotations) and hover."""
    color, mid = player_color(g, name), (y0 + y1) / 2
    money = None if name == g.trust else to_int(r["money"])
    income, can = to_int(r["income_now"]), to_int(r["can_power"])
    label, big = fit_name(("▶ " if r["is_current"] else "") + player_label(r["order"], name),
                          INFO - STRIP - 2 * PAD)
    facts = [money_line(money, income), cities_line(int(r["cities"]), can)]
    shapes = [dict(type="rect", x0=0, x1=STRIP, y0=y0 + PAD, y1=y1 - PAD, fillcolor=color,
                   line=dict(width=0), layer="below")]
    line = dict(x=STRIP + PAD, xanchor="left", yanchor="middle", showarrow=False)
    notes = [dict(line, y=mid + FACTS * LINE, text=f"<b>{label}</b>", font=dict(size=big, color=color)),
             *(dict(line, y=mid - FACTS * LINE * k, text=t, font=dict(size=FACTS, color="#222222"))
               for k, t in enumerate(facts))]
    order = to_int(r["order"])
    hover = [f"<b>{name}</b>" + ("" if order is None else f" (place {order} in player order)"),
             "no money (the Trust)" if money is None else f"{money} Elektro",
             *([] if income is None else [f"income if powering now: {income} Elektro"]),
             count(int(r["cities"]), "city", "cities") + ("" if can is None else f", can power {can} now"),
             "plants: " + (", ".join(map(str, plants)) or "none")]
    return shapes, notes, "<br>".join(hover)


@view("players")
def players_figure(g: Game, *, height: int | None = None) -> go.Figure:
    """Per participant in player order (the Trust too, without money): ▶ for the one to act, the
    name in their colour, money with the income they would get powering now, cities owned and
    how many they can power now; beside it their plants as cards with the tokens stored on them
    (an empty dotted space up to the plant limit). ``height``: default ``ROW`` px per participant
    (less squeezes the cards).

    Traces (fixed): 0 participants (an invisible marker on each name: the hover), 1 plants (one on
    each card: its hover; customdata [owner, plant]). Layout, row by row: shapes a hairline above
    (not the first), the player's colour strip, then per card space the card's shapes
    (:func:`plant_card`) or an empty space's outline; annotations the name, money and cities lines,
    then each card's number and print.
    """
    pf = g.players_frame()
    held = owned_plants_frame(g)
    rows = len(pf)
    height = height or MARGIN["t"] + MARGIN["b"] + ROW * rows
    plot_w = NOMINAL_WIDTH - MARGIN["l"] - MARGIN["r"]  # x and y: px at the nominal size
    plot_h = height - MARGIN["t"] - MARGIN["b"]
    row_h = plot_h / rows
    slots = _slots(g, held)
    card_w = min(CARD_MAX, (plot_w - INFO - GAP * (slots - 1)) / slots)
    card_h = row_h - 2 * PAD
    number = round(min(NUMBER, card_h * 0.22))
    tray = TRAY + INSET + 2  # px: plant_card's tray of stored tokens (on every card that burns fuel)
    size = fit_print([card_lines(r) for _, r in held.iterrows()], card_w,
                     card_h - (4 + 1.17 * number) - tray)  # one print size for every card

    shapes: list[dict] = []
    notes: list[dict] = []
    hovers: list[str] = []
    cards: dict[str, list] = {"x": [], "y": [], "text": [], "cd": []}
    for i, (name, r) in enumerate(pf.iterrows()):
        name = str(name)
        y1 = plot_h - i * row_h
        y0 = y1 - row_h
        if i:  # a hairline between rows
            shapes.append(dict(type="line", x0=0, x1=plot_w, y0=y1, y1=y1, layer="below",
                               line=dict(color="#DDDDDD", width=1)))
        mine = held[held["owner"] == name]
        s, n, hover = _info(g, name, r, y0, y1, [int(p) for p in mine["plant"]])
        shapes += s
        notes += n
        hovers.append(hover)
        for k in range(slots):
            x0 = INFO + k * (card_w + GAP)
            box = (x0, y0 + PAD, x0 + card_w, y1 - PAD)
            if k >= len(mine):
                if k < g.plant_limit:  # an empty plant space
                    shapes.append(dict(type="rect", x0=box[0], y0=box[1], x1=box[2], y1=box[3],
                                       line=dict(color=SLOT, width=1, dash="dot"), layer="below"))
                continue
            row = mine.iloc[k]
            s, n = plant_card(row, *box, (1.0, 1.0), size=size, number=number)
            shapes += s
            notes += n
            cards["x"].append((box[0] + box[2]) / 2)
            cards["y"].append((box[1] + box[3]) / 2)
            cards["text"].append(_card_hover(row))
            cards["cd"].append([name, int(row["plant"])])

    fig = new_figure()
    fig.add_trace(scatter(x=[INFO / 2] * rows, y=[plot_h - (i + 0.5) * row_h for i in range(rows)],
                          hovertext=hovers, hoverinfo="text", mode="markers",
                          name="participants", showlegend=False,
                          marker=dict(size=40, symbol="square", color="rgba(0,0,0,0)")))
    fig.add_trace(scatter(x=cards["x"], y=cards["y"], hovertext=cards["text"], hoverinfo="text",
                          customdata=cards["cd"], mode="markers", name="plants", showlegend=False,
                          marker=dict(size=50, symbol="square", color="rgba(0,0,0,0)")))
    fig.update_layout(shapes=shapes, annotations=notes)
    current = [f"{g.current_player} to act"] if g.current_player else []
    title = " · ".join(["Players", f"round {g.round}", g.phase_name, *current])
    if not refreshing():  # update() leaves the axes as built (their ranges never change in a game)
        fig.update_xaxes(range=[0, plot_w], visible=False, fixedrange=True)
        fig.update_yaxes(range=[0, plot_h], visible=False, fixedrange=True)
    base_layout(fig, title, height=height, hovermode="closest", showlegend=False)
    if not refreshing():
        fig.update_layout(margin=MARGIN)
    return fig

