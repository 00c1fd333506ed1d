"""What a player may see (R119 and hidden cards): the observation and a copy with the unseen cards dealt
again, for bots that search and for analysis."""

from __future__ import annotations

import copy as _copy
import random
from typing import TYPE_CHECKING, Any

from powergrid_nb.engine.rules.plants import STEP3, card_out

from .saves import game_to_dict

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game


def observation(g: Game, player: str, history: bool = True) -> dict[str, Any]:
    """``to_dict`` with what ``player`` cannot see taken out: the deck order, the unseen
    removals and the seed (which would reveal future shuffles); ``history=False``: no history."""
    g._index(player)
    d = game_to_dict(g, history)
    st = d["state"]
    deck = g.s.deck
    known_tail = deck[deck.index(STEP3):] if STEP3 in deck else []
    st["deck"] = {"size": len(deck), "top": g.deck_top,
                  "known_bottom": [card_out(c) for c in known_tail]}
    st["removed"] = {"size": len(g.s.removed)}
    d["config"]["seed"] = None
    d["viewer"] = player
    return d


def redeal(g: Game, player: str, seed: int | None = None) -> Game:
    """A copy of ``g`` in which every card ``player`` cannot see is dealt again at random."""
    g._index(player)
    h = g.copy()
    rng = random.Random(seed)
    s = h.s
    cut = s.deck.index(STEP3) if STEP3 in s.deck else len(s.deck)
    hint = g.deck_top
    fixed_top = s.deck[:1] if s.top_known and cut else []
    unknown = s.deck[len(fixed_top):cut] + s.removed
    rng.shuffle(unknown)
    if hint in ("plug", "socket") and cut:
        want = [c for c in unknown if g.ctx.edition.card_back(c) == hint]
        if want:
            unknown.remove(want[0])
            unknown.insert(0, want[0])
    size = cut - len(fixed_top)
    s.deck = fixed_top + unknown[:size] + s.deck[cut:]
    s.removed = sorted(unknown[size:])
    h.ctx = _copy.copy(g.ctx)
    h.ctx.seed = rng.randrange(2**32)
    h._set_root()
    return h
