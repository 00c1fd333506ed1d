"""The game log (powergrid_nb.engine.gamelog and the table's log box): the events' sentences, each
outcome once."""

from __future__ import annotations

import html
import re
from functools import cache

from _panels import YOU, click_errors_fail, game_at, table_for  # noqa: F401 (autouse)

from powergrid_nb import Build, BuyResources, Discard, Done, Game, Power, new_game
from powergrid_nb.bots import RandomBot, play
from powergrid_nb.engine.events import Decision, Refill
from powergrid_nb.engine.gamelog import log_entries, log_lines, sentence
from powergrid_nb.panels.toolbar import LOG_LINES, log_html


@cache
def whole_game(seed: int = 3, players: int = 3, edition: str = "original") -> Game:
    g = new_game(players, seed=seed, edition=edition)
    play(g, {p: RandomBot(seed + i) for i, p in enumerate(g.players)})
    return g


def shown_lines(value: str) -> list[str]:
    """The lines of the log box's HTML, as a browser shows them (one per div)."""
    return [html.unescape(x) for x in re.findall(r"<div[^>]*>([^<]*)</div>", value)]


def test_the_log_is_the_events_sentences():
    g = whole_game()
    lines = log_lines(g)
    assert lines[0] == "Round 1 begins." and lines[-1].startswith("The game ends (R96).")
    asked = {e.text() for e in g.history if isinstance(e, Decision)
             and isinstance(e.action, BuyResources | Build)}
    assert asked and not asked & set(lines)  # requests: their outcomes show
    assert all(x.endswith(".") and (x[0].isupper() or x[0].isdigit()) for x in lines), lines
    assert len(lines) == len(log_entries(g))


def test_a_purchase_shows_its_outcome_not_the_request():
    g = game_at(phase=3, round=2)
    buy = next(a for a in g.legal_actions() if isinstance(a, BuyResources))
    r, n = next((r, n) for r, n in zip(("coal", "oil", "garbage", "uranium"), buy.amounts, strict=True) if n)
    cost = g.purchase_cost(YOU, **{r: n})
    g.apply(buy)
    assert log_lines(g)[-1] == f"You buy {n} {r} for {cost} Elektro."
    assert not any(line.startswith("You ask for") for line in log_lines(g))


def test_purchases_one_after_another_in_a_turn_read_as_one_line():
    """Bots buy a token at a time (R50 prices each token): the log sums a turn's purchases."""
    g = game_at(phase=3, round=2)
    one = [a for a in g.legal_actions() if isinstance(a, BuyResources)]
    start, paid, got = g.money(YOU), 0, [0, 0, 0, 0]
    for _ in range(3):
        buy = next(a for a in g.legal_actions() if isinstance(a, BuyResources))
        g.apply(buy)
        got = [x + y for x, y in zip(got, buy.amounts, strict=True)]
    paid = start - g.money(YOU)
    assert one and sum(got) == 3
    bought = " and ".join(f"{n} {r}" for r, n in zip(("coal", "oil", "garbage", "uranium"), got, strict=True)
                          if n)
    assert log_lines(g)[-1] == f"You buy {bought} for {paid} Elektro."
    assert sum(x.startswith("You buy ") for x in log_lines(g)[-3:]) == 1


def test_a_whole_game_logs_each_players_purchases_once_per_turn():
    g = whole_game(seed=4, players=4, edition="recharged")
    entries = log_entries(g)
    buys = [i for i, e in enumerate(entries) if e.kind == "buy"]
    assert buys and not [i for i in buys if i + 1 in buys and entries[i + 1].who == entries[i].who]
    assert sum(e.cost for e in entries if e.kind == "buy") == sum(
        e.cost for e in g.history if e.kind == "buy")  # every Elektro paid is in some line


def test_a_build_shows_one_sentence_per_house_and_not_the_decision():
    g = game_at(phase=4)
    city = next(a.cities[0] for a in g.legal_actions() if isinstance(a, Build))
    cost = g.build_cost(YOU, city)
    g.apply(Build(YOU, city))
    assert log_lines(g)[-1] == f"You build in {city} for {cost} Elektro."
    assert f"You add {city}." not in log_lines(g)


def test_powering_shows_the_run_and_the_income_once():
    g = game_at(phase=5)
    run = next(a for a in g.legal_actions() if isinstance(a, Power))
    g.apply(run)
    lines = [x for x in log_lines(g) if x.startswith("You ")]
    assert lines[-2].startswith("You run ") and re.fullmatch(r"You earn \d+ Elektro\.", lines[-1])
    assert sum(x.startswith("You run ") for x in lines) == 1


def test_decisions_without_an_outcome_event_stay():
    """Open, bid, pass, done: the decision is the only sentence about it."""
    lines = log_lines(whole_game())
    for pattern in (r"\w+ opens an auction for plant \d+ at \d+\.", r"\w+ bids \d+\.", r"\w+ passes\.",
                    r"\w+ is done\."):
        assert any(re.fullmatch(pattern, x) for x in lines), pattern


def test_no_decision_of_a_whole_game_repeats_its_outcome():
    """Requests to buy, build, run plants or box a plant never show next to what they did."""
    g = whole_game(seed=4, players=4, edition="recharged")
    lines = log_lines(g)
    asked = {e.text() for e in g.history if isinstance(e, Decision)
             and isinstance(e.action, BuyResources | Build | Discard)}
    assert asked and not asked & set(lines)
    assert not [x for x in lines if re.search(r" chooses to box ", x)]
    assert not [x for x in lines if re.fullmatch(r"\w+ runs (no plants|plants? [\d, ]+)\.", x)]


def test_every_outcome_of_a_whole_game_is_in_the_log():
    """Purchases too, summed per turn (tested above)."""
    g = whole_game(seed=4, players=4, edition="recharged")
    kinds = ("house", "powered", "income", "plant", "box")
    outcomes = [sentence(e) for e in g.history if e.kind in kinds]
    lines = log_lines(g)
    assert [x for x in lines if x in set(outcomes)] == outcomes


def test_refills_that_move_nothing_are_left_out():
    g = whole_game()
    zero = [e for e in g.history if isinstance(e, Refill) and e.tokens == 0]
    assert zero and not any(isinstance(e, Refill) and e.tokens == 0 for e in log_entries(g))
    assert all(not x.startswith("0 ") for x in log_lines(g))


def test_the_round_start_market_is_the_resource_market():
    lines = log_lines(new_game(3, seed=1))
    assert lines[:2] == ["Round 1 begins.",
                         "The resource market holds 24 coal, 18 oil, 6 garbage and 2 uranium."]


def test_last_keeps_the_newest_lines():
    g = whole_game()
    assert log_lines(g, last=25) == log_lines(g)[-25:]
    assert log_entries(g, last=0) == []


def test_the_newest_lines_never_cut_a_turns_purchases():
    """A turn's purchases are one line (R50 prices each token, bots buy one at a time): the newest
    lines, cut anywhere, are the whole log's last lines, never the tail of a turn's purchases summed."""
    g = game_at(phase=3, round=2)
    for _ in range(3):
        g.apply(next(a for a in g.legal_actions() if isinstance(a, BuyResources)))
    g.apply(Done(YOU))
    whole = log_lines(g)
    assert whole[-3].startswith("You buy 3 ") and whole[-2:] == ["You are done.", "Phase 4: building."]
    assert all(log_lines(g, last=n) == whole[-n:] for n in range(1, len(whole) + 2))
    played = whole_game(seed=4, players=4, edition="recharged")
    lines = log_lines(played)
    assert all(log_lines(played, last=n) == lines[-n:] for n in range(1, len(lines) + 1))


def test_the_tables_log_shows_a_fresh_build_of_the_game_log():
    t = table_for(game_at(phase=3, round=2))
    g = t.game
    assert shown_lines(t.log_view.value) == log_lines(g, last=LOG_LINES)
    t.submit(Done(YOU))
    assert t.log_view.value == log_html(g)
    assert shown_lines(t.log_view.value) == log_lines(g, last=LOG_LINES)


def test_undo_takes_the_undone_sentences_out_of_the_log():
    t = table_for(game_at(phase=3, round=2))
    before = t.log_view.value
    t.submit(Done(YOU))
    assert t.log_view.value != before
    t.undo()
    assert t.log_view.value == before == log_html(t.game)


def test_the_log_escapes_player_names():
    g = new_game(["<b>Al</b>", "Bo"], seed=2)
    play(g, {p: RandomBot(i) for i, p in enumerate(g.players)}, until=lambda h: h.phase == 3)
    shown = log_html(g)
    assert "<b>Al</b>" not in shown and "&lt;b&gt;Al&lt;/b&gt;" in shown
    assert any(isinstance(e, Decision) for e in log_entries(g))
