"""End of game and tie-breaks: RULES.md §9 R96-R104 (O16) and worked example W23."""

from __future__ import annotations

import pytest
from _helpers_steps import S3, build_turn, done_phase, events, filler, scenario
from _position import assert_illegal

from powergrid_nb import Build, Done, Power, new_game
from powergrid_nb.engine.events import Decision, GameOver

HIGH = [21, 22, 23, 24, 25, 26]  # a Step-3 market no city count reaches (R68 stays quiet)


def _end(edition="original", players=4, step=3, market=HIGH, **kw):
    """A final-round phase 4 (Step 3 by default, so networks may share cities)."""
    return scenario(players, edition, phase=4, step=step, market=market,
                    boxed=[S3] if step == 3 else [], **kw)


# --- R96-R98: the end trigger and the final round -------------------------------------------------

@pytest.mark.parametrize(("players", "edition", "threshold"), [
    (2, "original", 21), (3, "original", 17), (4, "original", 17), (5, "original", 15),
    (6, "original", 14), (3, "recharged", 17), (5, "recharged", 15), (6, "recharged", 14)])
def test_R96_end_threshold_from_player_count_table(players, edition, threshold):
    """R96 / R105-R106: the game ends after the phase 4 in which a city count reaches the threshold."""
    for cities, over in ((threshold - 1, False), (threshold, True)):
        g = _end(edition, players, cities={"Ada": filler(cities, players=players, edition=edition)})
        done_phase(g)
        assert g.is_over is over, (cities, g.phase)
        assert g.phase == (6 if over else 5)


def test_R96_end_checked_only_at_end_of_phase4():
    """R96: reaching the threshold mid-phase does not stop the phase; the others still build."""
    g = _end(cities={"Dee": filler(16), "Cy": ["Leipzig"]})
    build_turn(g, "Essen")  # Dee: 17 cities
    assert not g.is_over and (g.phase, g.current_player) == (4, "Cy")
    build_turn(g, "Halle")  # Leipzig-Halle costs 0
    assert g.cities_of("Cy") == ["Leipzig", "Halle"]
    done_phase(g)
    assert g.is_over
    last, end = g.history[-2:]
    assert isinstance(last, Decision) and isinstance(last.action, Done) and isinstance(end, GameOver)


def test_R97_build_beyond_threshold_in_final_phase4():
    """R97: in the final phase 4 players may build beyond the end threshold."""
    g = _end(cities={"Dee": filler(16)})
    g.apply(Build("Dee", "Essen", "Duisburg", "Düsseldorf"))  # 17, 18, 19
    g.apply(Done("Dee"))
    done_phase(g)
    assert g.is_over and len(g.cities_of("Dee")) == 19


@pytest.mark.parametrize("edition", ["original", "recharged"])
def test_R98_no_income_after_final_phase4(edition):
    """R98: no income, refill or market update after the final phase 4 (same result in both editions)."""
    g = _end(edition, cities={"Ada": filler(17, edition=edition)}, owned={"Ada": [50]}, money={"Ada": 7})
    before = len(g.history)
    done_phase(g)
    assert g.is_over and g.money("Ada") == 7
    kinds = {e.kind for e in g.history[before:]}
    assert not kinds & {"income", "refill", "under", "box", "draw", "powered"}
    assert g.s.market == HIGH


def test_R98_nothing_more_after_the_end():
    """R98: after the end nobody buys plants or resources: no legal action, every action is illegal."""
    g = _end(cities={"Ada": filler(17)})
    done_phase(g)
    assert g.legal_actions() == [] and g.current_player is None
    assert_illegal(g, Power("Ada", ()), "R96")


def test_R89_end_and_step2_in_same_phase4_game_just_ends():
    """R89: if the end is triggered in the phase 4 that reaches the Step-2 threshold, the game ends."""
    g = _end(step=1, market=[21, 22, 23, 24, 25, 26, 27, 28], cities={"Ada": filler(17)})
    done_phase(g)
    assert g.is_over and g.step == 1
    assert events(g, "step") == [] and events(g, "box") == []


# --- R99: the score --------------------------------------------------------------------------------

def test_R99_score_is_most_cities_powerable_capped_by_city_count():
    """R99 / R73 / W28: the engine finds the best run; production beyond the city count is lost."""
    owned = {"Ada": [4, 5, 7], "Bo": [31], "Cy": [8, 21, 3]}
    tokens = {"Ada": {"coal": 3, "oil": 4}, "Bo": {"coal": 3}, "Cy": {"coal": 3, "oil": 3}}
    g = _end(owned=owned, tokens=tokens, market=[22, 23, 24, 25, 26, 27],
             cities={"Ada": filler(17), "Bo": filler(3), "Cy": filler(9)}, money={"Dee": 0})
    done_phase(g)
    assert g.scores() == {"Ada": 4, "Bo": 3, "Cy": 6, "Dee": 0}  # Cy: 08 + 21 (not all three)
    assert g.tokens_of("Ada") == {"coal": 3, "oil": 4, "garbage": 0, "uranium": 0}  # not burnt


def test_R99_stored_tokens_only_no_plants_scores_zero():
    """R99: a plant without fuel scores nothing; eco and fusion plants need none."""
    g = _end(owned={"Ada": [36], "Bo": [50, 44]}, cities={"Ada": filler(17), "Bo": filler(9)})
    done_phase(g)
    assert g.scores()["Ada"] == 0 and g.scores()["Bo"] == 9


# --- W23 / R100-R104: winner and tie-breaks --------------------------------------------------------

def _w23():
    """W23: X (Ada) 17 cities powering 15; Y (Bo) 16 cities powering 16."""
    return _end(owned={"Ada": [36, 38, 13], "Bo": [50, 44, 34]},
                tokens={"Ada": {"coal": 3, "garbage": 3}, "Bo": {"uranium": 1}},
                cities={"Ada": filler(17), "Bo": filler(16)}, money={"Ada": 90, "Bo": 10})


def test_W23_end_of_game_higher_score_wins():
    """W23 / R100: game ends; no income; Y (16 powered) beats X (15) despite X's 17 cities."""
    g = _w23()
    done_phase(g)
    assert g.is_over
    assert g.scores() == {"Ada": 15, "Bo": 16, "Cy": 0, "Dee": 0}
    assert (g.money("Ada"), g.money("Bo")) == (90, 10)
    assert g.winners == ["Bo"] and g.winner == "Bo"
    assert g.ranking()[:2] == ["Bo", "Ada"]


def test_R104_player_who_triggered_the_end_need_not_win():
    """R104: the player who reached the end threshold (Ada, 17 cities) is not the winner."""
    g = _w23()
    done_phase(g)
    assert len(g.cities_of("Ada")) == 17 and g.winner != "Ada"


def test_R100_winners_empty_before_the_end():
    """R100: there is no winner while the game runs."""
    g = _w23()
    assert g.winners == [] and g.winner is None


def _tie(edition, money=(30, 30), cities=(17, 16)):
    """Ada and Bo both power 6 (plant 50); money and city counts as given."""
    return _end(edition, owned={"Ada": [50], "Bo": [40]},
                tokens={"Bo": {"oil": 2}},
                cities={"Ada": filler(cities[0], edition=edition), "Bo": filler(cities[1], edition=edition)},
                money={"Ada": money[0], "Bo": money[1]})


@pytest.mark.parametrize("edition", ["original", "recharged"])
def test_R101_tiebreak_most_money(edition):
    """R101: equal scores: the player with more money wins (both editions)."""
    g = _tie(edition, money=(30, 31))
    done_phase(g)
    assert g.scores()["Ada"] == g.scores()["Bo"] == 6
    assert g.winners == ["Bo"]


def test_W23_tie_original_more_cities_wins():
    """W23 / R102 [ORIG]: equal score and money: more cities wins."""
    g = _tie("original", cities=(17, 16))
    done_phase(g)
    assert g.winners == ["Ada"] and g.winner == "Ada"
    assert g.returns() == {"Ada": 1.0, "Bo": 0.0, "Cy": 0.0, "Dee": 0.0}


def test_W23_tie_recharged_shared_victory():
    """W23 / R102 [RECH] / O16: money is the only tie-break; the tie stands and the victory is shared."""
    g = _tie("recharged", cities=(17, 16))
    done_phase(g)
    assert sorted(g.winners) == ["Ada", "Bo"] and g.winner is None
    assert g.returns() == {"Ada": 0.5, "Bo": 0.5, "Cy": 0.0, "Dee": 0.0}


def test_R103_original_still_tied_after_cities_shares_victory():
    """R103 / O16 [ORIG]: equal score, money and cities: shared victory."""
    g = _tie("original", cities=(17, 17))
    done_phase(g)
    assert sorted(g.winners) == ["Ada", "Bo"] and g.winner is None


def test_R103_three_way_shared_victory():
    """R103 / O16: several names in g.winners when three players cannot be split."""
    g = _end("recharged", owned={"Ada": [50], "Bo": [44, 13], "Cy": [33, 18]},
             cities={"Ada": filler(17, edition="recharged"), "Bo": filler(6), "Cy": filler(8)},
             money={"Dee": 80})
    done_phase(g)
    assert sorted(g.winners) == ["Ada", "Bo", "Cy"]
    assert g.returns()["Dee"] == 0.0 and g.returns()["Cy"] == pytest.approx(1 / 3)


@pytest.mark.parametrize("edition,tiebreaks", [("original", ("money", "network")), ("recharged", ("money",))])
def test_R100_R102_the_tiebreaks_are_the_rank_key_after_cities_powered(edition, tiebreaks) -> None:
    """The edition's tiebreaks name what rank_key holds after the cities powered, in order."""
    g = new_game(3, edition=edition, seed=2)
    assert g.rules.tiebreaks == tiebreaks
    for p in g.players:
        facts = {"money": g.money(p), "network": len(g.cities_of(p))}
        assert g.rank_key(p)[1:] == tuple(facts[k] for k in tiebreaks)
