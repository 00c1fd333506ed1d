"""The bot interface: seeded bots, the player's view, and the play driver."""

import pytest

from powergrid_nb import new_game
from powergrid_nb.bots import Bot, RandomBot, make_bot, play


def test_random_bots_play_a_whole_game_reproducibly() -> None:
    a = play(new_game(4, seed=3), [RandomBot(i) for i in range(4)])
    b = play(new_game(4, seed=3), [RandomBot(i) for i in range(4)])
    assert a.is_over and a.to_dict() == b.to_dict()


def test_a_bot_sees_a_redealt_deck_not_the_real_one() -> None:
    seen = []

    class Spy(Bot):
        def choose(self, game):
            seen.append((list(game.s.deck), sorted(game.s.removed)))
            return game.legal_actions()[0]

    g = new_game(4, seed=5)
    real = (list(g.s.deck), sorted(g.s.removed))
    Spy(seed=1).act(g)
    deck, removed = seen[0]
    assert len(deck) == len(real[0]) and deck[0] == real[0][0] == 13  # R10: 13 on top is public
    assert (deck, removed) != real  # the rest is dealt again


def test_play_stops_at_a_seat_without_a_bot() -> None:
    g = new_game(3, seed=2)
    first = g.current_player
    bots = {p: RandomBot(1) for p in g.players if p != first}
    assert play(g, bots).current_player == first


def test_make_bot_names_and_errors() -> None:
    assert isinstance(make_bot("random", seed=1), RandomBot)
    bot = RandomBot(2)
    assert make_bot(bot) is bot
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")


def test_builder_bot_plays_legal_moves_and_grows_a_network() -> None:
    from powergrid_nb.bots import BuilderBot

    g = new_game(4, map="usa", edition="recharged", seed=4)
    bots = [BuilderBot(i) for i in range(4)]
    while not g.is_over:
        bot = bots[g.players.index(g.current_player)]
        action = bot.act(g)
        assert action in g.legal_actions()
        g.apply(action)
    assert max(len(g.cities_of(p)) for p in g.players) >= g.ctx.end_cities  # it builds to the end
