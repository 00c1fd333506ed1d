"""The table's words: the game log names the resource market and writes payments in words;
a player named "You" is addressed ("You buy", "You have", "Your plant"); counts agree with their noun
("1 city"); the status line says whose auction runs and what the player to act can do."""

from __future__ import annotations

import html
import inspect
import json
import random
import re
from collections.abc import Iterable, Iterator
from functools import cache

import plotly.graph_objects as go
import pytest
from _panels import YOU, click_errors_fail, game_at, message, one, opening_table, table_for  # noqa: F401 (autouse)
from _position import position

from powergrid_nb import (
    Action,
    Bid,
    Build,
    BuyResources,
    Discard,
    Done,
    Game,
    IllegalAction,
    MarkCity,
    Open,
    Pass,
    Power,
    new_game,
)
from powergrid_nb.bots import RandomBot, play
from powergrid_nb.engine.events import Decision, PlantBoxed, PlantsRun
from powergrid_nb.engine.gamelog import count, log_lines, possessive, sentence, their, they, verb
from powergrid_nb.panels.board import TABS
from powergrid_nb.panels.table import hint
from powergrid_nb.views import dashboard, history_figure, map_figure, plants_figure, resources_figure
from powergrid_nb.views._base import BUILDERS


@cache
def you_game(seed: int = 3, edition: str = "original") -> Game:
    """A whole game of random bots with a player named You."""
    g = new_game([YOU, "Bo", "Cy"], seed=seed, edition=edition)
    play(g, {p: RandomBot(seed + i) for i, p in enumerate(g.players)})
    return g


def your_lines(g: Game) -> list[str]:
    return [x for x in log_lines(g) if x.startswith(f"{YOU} ")]


# --- the game log ------------------------------------------------------------------------------------
def test_the_log_calls_the_round_start_counts_the_resource_market():
    first = log_lines(new_game([YOU, "Bo", "Cy"], seed=7))[1]
    assert first == "The resource market holds 24 coal, 18 oil, 6 garbage and 2 uranium."


def test_the_log_writes_payments_in_words_never_as_tuples():
    lines = log_lines(you_game())
    assert not [x for x in lines if re.search(r"\(\(|\(\d+, \d+|\bpays\b", x)]
    bought = r"(Bo|Cy) buys \d+ (coal|oil|garbage|uranium)(,? (and )?\d+ \w+)* for \d+ Elektro\."
    assert any(re.fullmatch(bought, x) for x in lines)


def test_the_log_addresses_you_with_the_plain_verb():
    lines = your_lines(you_game())
    verbs = {re.match(r"You (\w+)", x)[1] for x in lines}
    assert verbs <= {"open", "bid", "pass", "buy", "build", "run", "earn", "are", "take", "box", "choose",
                     "mark"}, verbs
    assert {"buy", "build", "run", "earn"} <= verbs


def test_the_log_keeps_the_third_person_for_other_players():
    lines = log_lines(you_game())
    assert any(x.startswith("Bo buys ") for x in lines) and any(x.startswith("Cy runs ") for x in lines)
    assert not any(x.startswith(("Bo buy ", "Cy run ")) for x in lines)


def test_your_run_of_plants_powers_in_the_plain_form_too():
    g = you_game()
    run = next(e for e in g.history if isinstance(e, PlantsRun) and e.player == YOU and e.powered)
    text = sentence(run)
    assert text.startswith("You run ") and " and power " in text and " and powers " not in text


def test_you_are_done_in_the_log():
    g = you_game()
    done = next(e for e in g.history if isinstance(e, Decision) and e.player == YOU
                and e.text() == "You is done.")
    assert sentence(done) == "You are done."


def test_a_plant_of_yours_boxed_by_a_rule_is_your_plant():
    boxed = PlantBoxed(3, 4, 1, YOU, 5, "R68", "too small", None)
    assert sentence(boxed) == "Your plant 5 is boxed: too small (R68)."


def test_verb_agreement_follows_the_name():
    assert (verb("Bo", "has"), verb(YOU, "has"), verb(YOU, "passes"), verb(YOU, "is")) == \
        ("has", "have", "pass", "are")
    assert (possessive("Bo"), possessive(YOU)) == ("Bo's", "Your")


def test_counts_agree_with_their_noun():
    assert [count(n, "city", "cities") for n in (0, 1, 2)] == ["0 cities", "1 city", "2 cities"]


# --- panels and views ----------------------------------------------------------------------------------
def answering_an_auction(opened_by_you: bool) -> Game:
    """Round 2 or later, an auction runs and You are to bid or pass; opened by You or by a bot."""
    for seed in range(1, 60):
        g = new_game([YOU, "Bo", "Cy"], seed=seed)
        bots = {p: RandomBot(seed + i) for i, p in enumerate(g.players)}
        play(g, bots, until=lambda h: h.round >= 2 and h.phase == 2 and h.current_player == YOU
             and h.auction is not None)
        if g.is_over or g.auction is None or g.current_player != YOU:
            continue
        opener = next(e.player for e in reversed(g.history)
                      if isinstance(e, Decision) and isinstance(e.action, Open))
        if (opener == YOU) == opened_by_you and any(isinstance(a, Bid) for a in g.legal_actions()):
            return g
    raise AssertionError("no seed gives that auction")


def test_the_auction_panel_says_you_have_your_money():
    g = answering_an_auction(opened_by_you=False)
    t = table_for(g)
    text = " ".join(x.value for x in t.actions.children if hasattr(x, "value"))
    assert f"You have {g.money(YOU)} Elektro" in text and "You has" not in text


def powering_one_city() -> tuple[Game, Power]:
    """Phase 5 with You to act and a run that powers exactly one city."""
    for seed in range(1, 40):
        g = game_at(phase=5, seed=seed)
        runs = [a for a in g.legal_actions() if isinstance(a, Power)]
        single = [a for a in runs if g.power_outcome(YOU, a.plants, a.hybrid_coal).powered == 1]
        if single:
            return g, single[0]
    raise AssertionError("no seed lets You power one city")


def test_the_power_button_says_1_city_for_one():
    g, single = powering_one_city()
    t = table_for(g)
    for n in g.plants_of(YOU):
        box = one(t.actions, f"pg-run-{n}")
        if box.value != (n in single.plants):
            box.value = n in single.plants
    income = g.power_outcome(YOU, single.plants, single.hybrid_coal).income
    assert one(t, "pg-power").description == f"Power 1 city (+{income})"


def test_the_resources_view_title_says_you_have():
    g = new_game([YOU, "Bo"], seed=1)
    assert resources_figure(g, player=YOU).layout.title.text.endswith(f"You have {g.money(YOU)} Elektro")


def test_the_game_over_heading_agrees_with_the_winner():
    g = you_game()
    (won,) = g.winners
    heading = table_for(g).actions.children[0].value
    assert f"Game over: {won} {'win' if won == YOU else 'wins'}" in heading


# --- the status line ------------------------------------------------------------------------------------
def test_the_status_names_a_bots_auction_and_what_you_can_do():
    g = answering_an_auction(opened_by_you=False)
    a = g.auction
    opener = next(e.player for e in reversed(g.history)
                  if isinstance(e, Decision) and isinstance(e.action, Open))
    low = min(x.amount for x in g.legal_actions() if isinstance(x, Bid))
    status = html.unescape(table_for(g).status.value)
    assert f"{opener}'s auction of plant {a.plant}, {a.leader} leads at {a.bid}: bid {low} or more, or pass" \
        in status
    assert "open an auction" not in status


def test_the_status_calls_the_auction_you_opened_your_auction():
    g = answering_an_auction(opened_by_you=True)
    assert table_for(g).status.value.count(f"Your auction of plant {g.auction.plant}") == 1


def test_the_status_offers_opening_or_passing_when_no_auction_runs():
    g = game_at(phase=2, round=2)
    assert g.auction is None
    assert hint(g) == "open an auction or pass"


def test_the_status_says_everyone_buys_a_plant_in_round_1():
    g = opening_table().game
    assert hint(g) == "open an auction (round 1: every player buys a plant, R35)"


# --- a player named You in the views and in every message ----------------------------------
def test_pronouns_follow_the_name():
    assert (possessive(YOU, start=False), possessive(YOU, alone=True), possessive("Bo", start=False)) == \
        ("your", "yours", "Bo's")
    assert (they(YOU), their(YOU), they("Bo"), their("Bo")) == ("you", "your", "they", "their")


def test_the_map_legend_says_your_network():
    g = you_game()
    names = {t.name for t in map_figure(g, networks=g.players).data if t.legendgroup == "players"}
    assert {"Your network", "Bo's network", "Cy's network"} <= names and "You's network" not in names


def test_the_plant_market_says_you_lead():
    g = answering_an_auction(opened_by_you=False)
    g.apply(min((a for a in g.legal_actions() if isinstance(a, Bid)), key=lambda a: a.amount))
    fig = plants_figure(g)
    assert g.auction.leader == YOU
    assert f"You lead at {g.auction.bid}" in fig.layout.title.text
    assert any(a.text == f"<b>You lead at {g.auction.bid}</b>" for a in fig.layout.annotations)


def test_the_history_hover_counts_one_city():
    g = game_at(phase=2, round=2)
    (owned,) = [tr for tr in history_figure(g).data if tr.name == YOU and "owned" in tr.hovertemplate]
    assert len(g.cities_of(YOU)) == 1 and owned.customdata[-1][1] == "1 city"
    assert owned.hovertemplate.endswith(": %{customdata[1]} owned<extra></extra>")


def test_the_dashboard_hover_counts_one_city_and_one_house():
    g = game_at(phase=2, round=2)
    fig = dashboard(g)
    owned = next(t for t in fig.data if t.name == "cities owned")
    assert owned.customdata[list(owned.x).index(next(x for x in owned.x if x.endswith(YOU)))][0] == "1 city"
    cities = next(t for t in fig.data if t.name == "cities")
    assert "1 house" in [c[3] for c in cities.customdata] and "%{customdata[3]}" in cities.hovertemplate


def test_the_resources_hover_counts_one_token():
    fig = resources_figure(new_game([YOU, "Bo"], seed=1), player=YOU)
    assert fig.data[0].customdata[0][0] == "1 token costs" and fig.data[0].customdata[1][0] == "2 tokens cost"


BAD = [re.compile(p) for p in (r"\bYou (has|is|buys|builds|runs|powers|passes|pays|bids)\b",
                               r"\bYou (leads|holds|does|owns)\b", r"\bYou's\b",
                               r"\b1 (cities|tokens|plants|houses)\b")]
PLACEHOLDER = re.compile(r"%\{(\w+)(?:\[(\d+)\])?(?::[^}]*)?\}")
PER_POINT = ("x", "y", "text", "customdata", "hovertext")


def wrong(texts: Iterable[str]) -> list[str]:
    """The texts that speak to You in the third person, or count one city, token, plant or house as many."""
    return sorted({t for t in texts for p in BAD if p.search(t)})


def strings(x: object) -> Iterator[str]:
    """Every string in nested dicts and lists (a figure's or a table snapshot's JSON)."""
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict | list):
        for v in x.values() if isinstance(x, dict) else x:
            yield from strings(v)


def shown_texts(fig: go.Figure) -> list[str]:
    """Every string of a figure (titles, legend names, annotations, hover texts) and every point's
    hover template filled in with the point's values, as Plotly shows them."""
    fig_json = json.loads(fig.to_json())
    out = list(strings(fig_json))
    for trace in fig_json["data"]:
        template = trace.get("hovertemplate")
        points = max([len(trace[k]) for k in PER_POINT if isinstance(trace.get(k), list)], default=0)
        out += [filled(template, trace, i) for i in range(points if isinstance(template, str) else 0)]
    return out


def filled(template: str, trace: dict, i: int) -> str:
    """A hover template with point ``i``'s values in place of ``%{y}``, ``%{customdata[1]}``..."""
    def value(m: re.Match) -> str:
        v = trace.get(m[1], "")
        if m[1] in PER_POINT and isinstance(v, list):
            v = v[i] if i < len(v) else ""  # a point without it (a placeholder at None)
        return str(v[int(m[2])] if m[2] is not None and v != "" else v)

    return PLACEHOLDER.sub(value, template)


def illegal_alternatives(g: Game, rng: random.Random) -> Iterator[Action]:
    """Actions of every kind for every player, most of them illegal now: plants in and out of the
    market at bids too low and too high, bids, passes, builds in random cities and where they are,
    purchases too big or empty, runs of plants they own twice or do not own, discards, marks."""
    market = g.current_market() + g.future_market()
    cities = rng.sample(list(g.map.cities), 4)
    for p in g.players:
        money, own = g.money(p), g.plants_of(p)
        for plant in [*market[:2], *market[-1:]]:
            yield from (Open(p, plant, max(g.min_bid(plant) - 1, 0)), Open(p, plant, money + 1))
        high = g.auction.bid if g.auction else 5
        yield from (Bid(p, high), Bid(p, money + 5), Pass(p), Done(p), Open(p, 44, 50))
        yield from (Build(p, c) for c in cities + g.cities_of(p)[:1])
        amounts = ((1,), (0, 0, 0, 1), (20,), (-1,), (), (3, 3, 3, 3))
        yield from (BuyResources(p, *k) for k in amounts)
        yield from (Power(p, tuple(own)), Power(p, (45,)), Power(p, tuple(own), hybrid_coal=9))
        if own:
            yield Power(p, (own[0], own[0]))
        yield from (Discard(p, n, keep) for n in [*own, 45] for keep in (None, (9, 0, 0, 0)))
        yield from (MarkCity(p, cities[0]), MarkCity(p, "Atlantis"))


def messages_and_views(g: Game, seed: int, every: int = 40, views_every: int = 160
                       ) -> tuple[list[str], list[str]]:
    """Play ``g`` to its end with random moves; every ``every`` moves collect the message of each
    alternative (:func:`illegal_alternatives`, tried on a copy) the rules refuse, every ``views_every``
    moves every text of every view (built for You where a view takes a player)."""
    rng = random.Random(seed)
    messages: list[str] = []
    texts: list[str] = []
    n = 0
    while not g.is_over:
        if n % every == 0:
            h = g.copy()
            for a in illegal_alternatives(g, rng):
                try:
                    h.apply(a)
                except IllegalAction as e:  # the game is left unchanged
                    messages.append(str(e))
                else:  # a legal one: back to the position
                    h = g.copy()
        if n % views_every == 0:
            for build in BUILDERS.values():
                kw = {"player": YOU} if "player" in inspect.signature(build).parameters else {}
                texts += shown_texts(build(g, **kw))
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    return messages, texts


@pytest.mark.parametrize("setup", [dict(players=[YOU, "Bo", "Cy"], seed=7),
                                   dict(players=[YOU, "Bo"], edition="recharged", seed=5)],
                         ids=["original-3p", "recharged-2p-trust"])
def test_no_message_or_view_calls_you_he_or_counts_one_as_many(setup):
    """Over a whole seeded game with a player named You: the message of every illegal alternative tried
    at a sample of positions, and every title, legend, annotation and hover of every view, addresses You
    ("You have", "your plants", "Your network") and counts one as one ("1 city")."""
    messages, texts = messages_and_views(new_game(**setup), seed=setup["seed"])
    assert len(messages) > 500 and any("You have" in m for m in messages)
    assert any("it is your turn" in m for m in messages)
    assert len(texts) > 1000 and any(t == "Your network" for t in texts)
    assert wrong(messages) == []
    assert wrong(texts) == []


def test_the_tables_error_line_says_you_have():
    """R64 refused at the table: the message line speaks to You."""
    g = position([YOU, "Bo", "Cy"], phase=4, order=["Bo", "Cy", YOU],
                 who={YOU: {"money": 5, "cities": ["Bremen"]}})
    cost = g.build_cost(YOU, "Hannover")
    t = table_for(g)
    assert not t.submit(Build(YOU, "Hannover"))
    assert f"Hannover costs {cost} Elektro but You have 5" in html.unescape(message(t))


def test_no_text_the_table_shows_calls_you_he_or_counts_one_as_many():
    """At a sample of the turns of a seeded game where You are to act: everything each tab of the
    table shows (labels, buttons, the log, the status line, the figures) addresses You and counts one
    as one."""
    g = new_game([YOU, "Bo", "Cy"], seed=11)
    bots = {p: RandomBot(11 + i) for i, p in enumerate(g.players)}
    texts: list[str] = []
    for turn in range(60):
        play(g, bots, until=lambda h: h.current_player == YOU or h.is_over)
        if turn % 12 == 0 or g.is_over:
            t = table_for(g.copy())
            for i in range(len(TABS)):
                t.board.tabs.selected_index = i
                texts += list(strings(t.snapshot()))
            t.close()
        if g.is_over:
            break
        g.apply(bots[YOU].act(g))
    assert len(texts) > 1000 and any("You" in x for x in texts)
    assert wrong(html.unescape(x) for x in texts) == []
