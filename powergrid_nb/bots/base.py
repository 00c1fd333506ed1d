"""The bot interface: a bot sees the game as its player may and returns one legal action."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from powergrid_nb.engine.actions import Action
    from powergrid_nb.engine.game import Game


class Bot:
    """Base class. Subclasses implement :meth:`choose`; ``seed`` makes their play reproducible.

    ``choose`` receives ``game.for_player(player)``: a copy in which the cards the player cannot see
    are dealt again at random, so a bot cannot peek at the deck. Set ``needs_view = False`` only for
    bots that read nothing but what every player sees (``legal_actions()`` and the queries of the
    table; never ``to_dict()``, copies or play-outs, which hold the deck order): they get the game
    itself, and ``act`` then draws nothing from ``rng``.
    """

    name: ClassVar[str] = "bot"
    needs_view: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        raise NotImplementedError

    def act(self, game: Game) -> Action:
        """The action for the player to act in ``game`` (the real game: the view is made here)."""
        if not self.needs_view:
            assert not game.is_over, "the game is over"
            return self.choose(game)
        player = game.current_player
        assert player is not None, "the game is over"
        return self.choose(game.for_player(player, seed=self.rng.randrange(2**32)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name = "random"
    needs_view = False

    def choose(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


class BuilderBot(Bot):
    """Random, but leaning towards growth: builds, fuels its plants, opens at the minimum bid.

    Only legal actions and public facts; games reach Steps 2 and 3 with a spread of cities, which
    makes it handy for demos and for test positions (a uniform-random player hardly builds).
    """

    name = "builder"
    needs_view = False

    def choose(self, game: Game) -> Action:
        rng = self.rng
        acts = game.legal_actions()
        by: dict[str, list[Action]] = {}
        for a in acts:
            by.setdefault(type(a).__name__, []).append(a)
        p = game.current_player
        if "Build" in by and rng.random() < 0.9:
            return rng.choice(by["Build"])
        if "BuyResources" in by:
            if sum(game.tokens_of(p).values()) < 2 * len(game.plants_of(p)) and rng.random() < 0.9:
                return rng.choice(by["BuyResources"])
            return by["Done"][0]
        if "Open" in by:
            if "Pass" in by and len(game.plants_of(p)) >= 2 and rng.random() < 0.3:
                return by["Pass"][0]
            plant = rng.choice(by["Open"]).plant  # type: ignore[attr-defined]
            return min((a for a in by["Open"] if a.plant == plant), key=lambda a: a.bid)  # type: ignore[attr-defined]
        if "Bid" in by and rng.random() < 0.3:
            return min(by["Bid"], key=lambda a: a.amount)  # type: ignore[attr-defined]
        if "Power" in by:
            return max(by["Power"], key=lambda a: len(a.plants))  # type: ignore[attr-defined]
        if "Pass" in by:
            return by["Pass"][0]
        return rng.choice(acts)


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "builder": BuilderBot}


def make_bot(spec: str | Bot, seed: int | None = None) -> Bot:
    """A bot from a name in :data:`BOTS` (e.g. ``"random"``) or a ready instance."""
    if isinstance(spec, Bot):
        return spec
    try:
        return BOTS[spec](seed=seed)
    except KeyError:
        raise ValueError(f"unknown bot {spec!r}; known: {', '.join(sorted(BOTS))}") from None


def play(game: Game, bots: Mapping[str, Bot] | Sequence[Bot], *, max_decisions: int = 100_000,
         until: Callable[[Game], bool] | None = None) -> Game:
    """Let bots play their seats until the game ends (or ``until(game)`` is true); returns the game.

    ``bots`` maps player names to bots, or lists one bot per player in ``game.players`` order.
    Seats without a bot stop the loop when it is their turn.
    """
    seats = dict(bots) if isinstance(bots, Mapping) else dict(zip(game.players, bots, strict=True))
    for _ in range(max_decisions):
        if game.is_over or (until is not None and until(game)):
            return game
        bot = seats.get(game.current_player)  # type: ignore[arg-type]
        if bot is None:
            return game
        game.apply(bot.act(game))
    raise RuntimeError(f"no end after {max_decisions} decisions: {game!r}")
