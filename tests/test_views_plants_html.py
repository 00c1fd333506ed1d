"""The plant market as HTML cards (views.plants_html), what the play table's market tab shows: the
same cards, print and hover as the Plotly market, read from the engine's public facts."""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest
from _helpers_steps import S3, scenario
from _position import random_game

from powergrid_nb import Open, Pass, new_game
from powergrid_nb.frames import plants_rows
from powergrid_nb.views import plants_html
from powergrid_nb.views.market import MARKET_CSS
from powergrid_nb.views.plants import card_lines, hover_lines, market_status

M8 = [13, 14, 15, 16, 17, 18, 19, 20]
VOID = {"br", "img", "input", "hr", "meta", "link"}


class _Cards(HTMLParser):
    """The fragment read back: its cards (attributes and text), row labels and title; checks that
    every element is closed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, dict]] = []
        self.cards: list[dict] = []
        self.rows: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if "pg-market-row" in classes:
            self.rows.append(a["data-market"])
        if "pg-card" in classes:
            self.cards.append({"row": self.rows[-1], "classes": classes, "plant": a.get("data-plant"),
                               "title": a.get("title"), "style": a.get("style", ""), "text": []})
        if tag not in VOID:
            self.open.append((tag, a))

    def handle_endtag(self, tag):
        assert self.open and self.open[-1][0] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()

    def handle_data(self, data):
        if any("pg-card" in (x.get("class") or "").split() for _t, x in self.open):
            self.cards[-1]["text"].append(data)
        elif not any(t == "style" for t, _ in self.open):
            self.text.append(data)


def read(g) -> _Cards:
    p = _Cards()
    p.feed(plants_html(g))
    p.close()
    assert not p.open, f"unclosed: {p.open}"
    return p


@pytest.mark.parametrize("players,edition,seed,moves", [(3, "original", 7, 0), (4, "recharged", 3, 120),
                                                        (2, "recharged", 5, 400), (6, "original", 2, 900)])
def test_R12_every_market_card_in_order_with_its_print_and_hover(players, edition, seed, moves):
    """R12: the current market's cards, then the future market's, in order; each card's number, print
    (card_lines) and hover (hover_lines) are the Plotly market's."""
    g = random_game(players, edition=edition, seed=seed, moves=moves)
    cards = read(g).cards
    rows = plants_rows(g)
    assert len(cards) == len(rows)
    for card, row in zip(cards, rows, strict=True):
        assert card["row"] == row["market"]
        assert card["title"] == "\n".join(hover_lines(row))
        if row["is_step3"]:
            assert "pg-card-step3" in card["classes"] and card["plant"] is None
            continue
        number, *lines = [t for t in card["text"] if "leads at" not in t]
        assert int(number) == row["plant"] and lines == card_lines(row)


def test_R31_only_current_market_cards_are_clickable_and_the_openable_ones_marked():
    """R31: a click on a current-market card picks it; the cards the player to act can open now (the
    legal Open actions) are marked, the future market's cards take no click."""
    g = scenario(phase=2, step=1, market=M8, money={"Ada": 15})
    cards = read(g).cards
    openable = {a.plant for a in g.legal_actions() if isinstance(a, Open)}
    assert openable == {13, 14, 15}  # 16 costs more than Ada's 15 Elektro
    assert [c["plant"] for c in cards] == ["13", "14", "15", "16", None, None, None, None]
    assert {int(c["plant"]) for c in cards if "pg-card-openable" in c["classes"]} == openable


def test_R28_running_auction_badge_on_its_card():
    """R28-R31: the plant under auction has the gold frame and a badge "<leader> leads at <bid>";
    the title says the same."""
    g = scenario(phase=2, step=1, market=M8)
    g.apply(Open("Ada", 15, 16))
    g.apply("Bo: bid 18")
    p = read(g)
    (card,) = [c for c in p.cards if "pg-card-auction" in c["classes"]]
    assert card["plant"] == "15" and card["text"][0] == "Bo leads at 18"
    assert "auction: plant 15, Bo leads at 18" in "".join(p.text)
    assert "under auction now" in card["title"]


def test_R90_step3_card_waits_in_the_future_market_then_one_row_of_six():
    """R90 / R93: the Step 3 card drawn in phase 2 is shown (dashed, no number); after phase 2 the
    market is one row of six, every card clickable, with the Step 3 note and no row labels."""
    g = scenario(phase=2, step=2, market=M8, deck=[S3, 30, 31, 32], rest="removed")
    g.apply(Open("Ada", 13, 13))
    while any(r["in_auction"] for r in plants_rows(g)):
        g.apply(Pass(g.current_player))
    assert [c["row"] for c in read(g).cards if "pg-card-step3" in c["classes"]] == ["future"]
    while g.phase == 2:
        g.apply(Pass(g.current_player))
    p = read(g)
    assert g.step == 3 and set(p.rows) == {"current"} and len(p.cards) == 6
    assert all(c["plant"] is not None for c in p.cards)
    text = "".join(p.text)
    assert "Step 3: one market, every plant biddable (above)" in text and "future market" not in text


def test_title_says_round_phase_step_and_who_opens():
    """The title: round, phase and step, then who is to open a plant (the same lines as the figure)."""
    g = scenario(phase=2, step=1, market=M8)
    text = "".join(read(g).text)
    for line in market_status(g):
        assert line in text
    assert f"{g.current_player} to open a plant or pass" in text


def test_in_round_1_the_title_does_not_offer_passing_R35():
    g = new_game(3, seed=1)
    assert g.round == 1
    text = "".join(read(g).text)
    assert f"{g.current_player} to open a plant (passing is not allowed, R35)" in text
    assert "or pass" not in text


def test_hybrid_cards_are_split_coal_and_oil():
    """R49: a hybrid plant's card is coloured half coal, half oil, as in the Plotly market."""
    g = scenario(phase=2, step=1, market=[5, 13, 14, 15, 16, 17, 18, 19])
    (card,) = [c for c in read(g).cards if c["plant"] == "5"]
    assert "linear-gradient" in card["style"] and "pg-fuel-hybrid" in card["classes"]


def test_player_names_are_escaped():
    """A page is public: a player's name is text, never markup, in the badge and the title."""
    name = '<img src=x onerror="alert(1)">'
    g = new_game([name, "Bo"], seed=1)
    rng, named = random.Random(1), 0
    while g.round <= 2:
        html = plants_html(g)
        assert "<img" not in html
        if any(name in line for line in market_status(g)):
            named += 1
            assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
        g.apply(rng.choice(g.legal_actions()))
    assert named >= 2  # the name was on the market, as opener and as leader


def test_the_style_sheet_comes_with_the_fragment_unless_asked_not_to():
    """Alone in a notebook the fragment brings its style sheet; the play table has it once already."""
    g = new_game(3, seed=7)
    assert plants_html(g).startswith("<style>") and "<style>" not in plants_html(g, style=False)
    assert plants_html(g) == f"<style>{MARKET_CSS}</style>" + plants_html(g, style=False)
