"""The bot interface: seeded bots, the player's view, and the play driver."""

import pytest

from powergrid_nb import new_game
from powergrid_nb.bots import Bot, HeuristicBot, RandomBot, make_bot, play


def test_random_bots_play_a_whole_game_reproducibly() -> None:
    a = play(new_game(4, seed=3), [RandomBot(i) for i in range(4)])
    b = play(new_game(4, seed=3), [RandomBot(i) for i in range(4)])
    assert a.is_over and a.to_dict() == b.to_dict()


def test_a_bot_sees_a_redealt_deck_not_the_real_one() -> None:
    seen = []

    class Spy(Bot):
        def choose(self, game):
            state = game.to_dict()["state"]
            seen.append((state["deck"], sorted(state["removed"])))
            return game.legal_actions()[0]

    g = new_game(4, seed=5)
    state = g.to_dict()["state"]
    real = (state["deck"], sorted(state["removed"]))
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
    assert max(len(g.cities_of(p)) for p in g.players) >= g.end_cities  # it builds to the end


def test_heuristic_reads_the_game_itself_as_it_would_a_view():
    """needs_view is False: act() on the real game chooses what choose() does on any re-dealt view,
    draws nothing from the bot's rng and changes nothing in the game."""
    g = new_game(3, seed=14)
    bots = [HeuristicBot(i) for i in range(3)]
    seats = dict(zip(g.players, bots, strict=True))
    states = [b.rng.getstate() for b in bots]
    checked = 0
    while not g.is_over and g.round <= 5:
        me = g.current_player
        if len(g.actions) % 5 == 0:
            before = g.to_dict()
            a = HeuristicBot(0).act(g)
            assert g.to_dict() == before
            assert a == HeuristicBot(0).choose(g.for_player(me, seed=len(g.actions)))
            checked += 1
        g.apply(seats[me].act(g))
    assert checked > 20
    assert [b.rng.getstate() for b in bots] == states


def test_bots_and_planner_use_only_the_public_api():
    """No bot module (nor the planner) reads a game's state, context or private attributes."""
    import ast
    from pathlib import Path

    import powergrid_nb
    root = Path(powergrid_nb.__file__).parent
    files = sorted((root / "bots").glob("*.py"))  # the planner among them
    games = {"g", "game", "h", "view", "world", "g0"}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in games:
                assert node.attr not in ("s", "ctx") and not node.attr.startswith("_"), \
                    f"{path.name}:{node.lineno} reads {node.value.id}.{node.attr}"
