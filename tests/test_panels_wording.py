"""The table's words (issue #10): the game log names the resource market and writes payments in words;
a player named "You" is addressed ("You buy", "You have", "Your plant"); counts agree with their noun
("1 city"); the status line says whose auction runs and what the player to act can do."""

from __future__ import annotations

import html
import re
from functools import cache

from _panels import YOU, click_errors_fail, game_at, one, opening_table, table_for  # noqa: F401 (autouse)

from powergrid_nb import Bid, Game, Open, Power, new_game
from powergrid_nb.bots import RandomBot, play
from powergrid_nb.events import Decision, PlantBoxed, PlantsRun
from powergrid_nb.gamelog import count, log_lines, possessive, sentence, verb
from powergrid_nb.panels.table import hint
from powergrid_nb.views import resources_figure


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
    assert hint(g, g.legal_actions()) == "open an auction or pass"


def test_the_status_says_everyone_buys_a_plant_in_round_1():
    g = opening_table().game
    assert hint(g, g.legal_actions()) == "open an auction (round 1: every player buys a plant, R35)"
