"""A bot's style is data: a small frozen BotStyle with presets that bots, simulations and sweeps take."""

from __future__ import annotations

import dataclasses

import pytest

from powergrid_nb import new_game
from powergrid_nb.bots import BOTS, STYLES, BotStyle, HeuristicBot, SearchBot, make_bot, play
from powergrid_nb.bots.valuation import Valuation, worth
from powergrid_nb.play.simulation import simulate, sweep

SPEC = {"players": 4, "map": "germany", "edition": "original"}


def auction_positions(seeds: range) -> list:
    """Round-2+ auction positions reached by default bots, one per seed (a spread of money and plants)."""
    out = []
    for seed in seeds:
        g = new_game(4, map="germany", edition="original", seed=seed)
        play(g, [HeuristicBot(seed + k) for k in range(4)],
             until=lambda h, r=2 + seed % 4: h.round >= r and h.phase_name == "auction" and h.auction is None)
        if not g.is_over:
            out.append(g)
    return out


def test_a_style_is_frozen_data_with_named_presets() -> None:
    style = STYLES["cautious"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        style.premium = 1.0  # type: ignore[misc]
    assert set(STYLES) == {"default", "cautious", "aggressive"}
    assert STYLES["default"] == BotStyle()
    assert len(set(STYLES.values())) == len(STYLES), "every preset plays differently"


@pytest.mark.parametrize(("field", "value"), [("horizon", 0), ("horizon", 2.5), ("premium", 3.0),
                                              ("alternative", -0.1), ("reserve", True), ("slack", "1")])
def test_a_value_out_of_its_range_is_refused_with_the_range(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=rf"BotStyle {field}=.*{field} is a (whole )?number from"):
        BotStyle(**{field: value})  # type: ignore[arg-type]


def test_an_unknown_field_or_preset_is_refused_with_what_exists() -> None:
    with pytest.raises(ValueError, match="has no hurry; its fields: horizon"):
        HeuristicBot(1, hurry=2)
    with pytest.raises(ValueError, match="unknown bot style 'bold'; the presets: default, cautious"):
        HeuristicBot(1, style="bold")


def test_the_presets_are_bots_by_name_and_keep_their_name() -> None:
    for name, style in STYLES.items():
        label = "heuristic" if name == "default" else f"heuristic:{name}"
        bot = make_bot(label, seed=3)
        assert isinstance(bot, HeuristicBot) and bot.style == style and bot.name == label
    assert HeuristicBot(1, premium=0.1).name == "heuristic:custom"
    assert "heuristic:cautious" in BOTS and "heuristic:aggressive" in BOTS


def test_the_default_style_plays_the_games_the_default_bot_plays() -> None:
    games = []
    for make in (lambda s: HeuristicBot(s), lambda s: HeuristicBot(s, style="default"),
                 lambda s: HeuristicBot(s, style=BotStyle(), horizon=3)):
        g = new_game(4, map="germany", edition="original", seed=11)
        play(g, [make(k) for k in range(4)])
        games.append([str(a) for a in g.actions])
    assert games[0] == games[1] == games[2]


def test_the_search_bot_follows_and_plays_out_its_style() -> None:
    bot = SearchBot(1, style="aggressive")
    assert bot.heuristic.style == STYLES["aggressive"]


def test_a_premium_never_lowers_a_limit_and_a_bigger_reserve_never_raises_one() -> None:
    positions = auction_positions(range(6))
    assert len(positions) >= 4
    for g in positions:
        p = g.current_player
        base = HeuristicBot(0).limits(g, p)
        bolder = HeuristicBot(0, premium=0.3).limits(g, p)
        keeper = HeuristicBot(0, reserve=4).limits(g, p)
        for x in base:
            assert bolder[x] >= base[x], (g.round, p, x)
            assert keeper[x] <= base[x], (g.round, p, x)
    assert any(HeuristicBot(0, premium=0.3).limits(g, g.current_player) != HeuristicBot(0).limits(
        g, g.current_player) for g in positions), "the premium changes some limit"
    assert any(HeuristicBot(0, reserve=4).limits(g, g.current_player) != HeuristicBot(0).limits(
        g, g.current_player) for g in positions), "the reserve changes some limit"


def test_waiting_for_the_future_market_never_raises_a_limit() -> None:
    positions = auction_positions(range(6))
    changed = 0
    for g in positions:
        p = g.current_player
        patient = HeuristicBot(0, waiting=1.0).limits(g, p)
        base = HeuristicBot(0, waiting=0.0).limits(g, p)
        assert all(patient[x] <= base[x] for x in base), (g.round, p)
        changed += patient != base
    assert changed, "waiting changes some limit"


def test_a_plants_worth_is_its_gain_less_the_larger_alternative() -> None:
    """worth = gain - max(alternative x the best other plant's surplus, the value of waiting)."""
    v = Valuation({5: 30.0, 7: 25.0, 9: 12.0}, {}, {5: 25.0, 7: 18.0, 9: 3.0}, 50, None,
                  alternative=0.5, later=10.0)
    assert worth(v, 5) == 30.0 - max(0.5 * 18.0, 10.0)   # its best alternative: plant 7
    assert worth(v, 7) == 25.0 - max(0.5 * 25.0, 10.0)   # the best other plant: 5
    assert worth(v, 9) == 12.0 - max(0.5 * 25.0, 10.0)


def test_the_presets_play_whole_games_to_the_end() -> None:
    r = simulate(SPEC, 4, bots=["heuristic:cautious", "heuristic:aggressive", "heuristic", "heuristic"],
                 seeds=100, progress=False)
    assert len(r.games) == 16 and r.games["rounds"].max() <= 30
    assert set(r.games["bot"]) == {"heuristic:cautious", "heuristic:aggressive", "heuristic"}


def test_a_sweep_varies_the_style_of_the_heuristic_seats() -> None:
    r = sweep(SPEC, games_per_point=2, bots=["heuristic", "random", "random", "random"], seeds=5,
              bot_params={"premium": {"none": 0.0, "bold": 0.3}}, progress=False)
    assert sorted(set(r.games["bot_premium"])) == ["bold", "none"]
    rows = r.games[r.games["seat"] == 0]
    assert set(rows["bot"]) == {"heuristic", "heuristic:custom"}
    assert set(r.games.loc[r.games["seat"] == 1, "bot"]) == {"random"}


def test_a_sweep_of_bot_params_needs_a_heuristic_seat_and_a_field_in_range() -> None:
    with pytest.raises(ValueError, match="no seat is played by 'heuristic'"):
        sweep(SPEC, games_per_point=1, bots="random", bot_params={"premium": [0.1]}, progress=False)
    with pytest.raises(ValueError, match="a bot style has horizon"):
        sweep(SPEC, games_per_point=1, bots="heuristic", bot_params={"hurry": [1]}, progress=False)
    with pytest.raises(ValueError, match="premium is a number from -0.5 to 1.0"):
        sweep(SPEC, games_per_point=1, bots="heuristic", bot_params={"premium": [5]}, progress=False)
