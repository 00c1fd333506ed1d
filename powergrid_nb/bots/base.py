"""The bot interface: a bot sees the game as its player may and returns one legal action."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from ..actions import Action
    from ..game import Game


class Bot:
    """Base class. Subclasses implement :meth:`choose`; ``seed`` makes their play reproducible.

    ``choose`` receives ``game.for_player(player)``: a copy in which the cards the player cannot see
    are dealt again at random, so a bot cannot peek at the deck (set ``needs_view = False`` only
    for bots that look at nothing but ``legal_actions()``, which is public).
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
        player = game.current_player
        assert player is not None, "the game is over"
        view = game.for_player(player, seed=self.rng.randrange(2**32)) if self.needs_view else game
        return self.choose(view)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name = "random"
    needs_view = False

    def choose(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


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
