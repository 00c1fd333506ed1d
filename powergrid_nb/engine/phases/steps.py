"""The plant market's draws and the Step 2 / Step 3 transitions (R12, R32, R84-R95)."""

from __future__ import annotations

import random
from bisect import insort
from typing import TYPE_CHECKING

from powergrid_nb.engine.events import CardDrawn, PlantBoxed, PlantUnderDeck, StepBegins
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import STEP3

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game


def current_market(g: Game) -> list[int]:
    """Biddable cards: the lowest four in Steps 1-2, all in Step 3 (R12, R93); never the Step 3 card."""
    m = g.s.market
    cur = m if g.s.step == 3 else m[:4]
    return [c for c in cur if c != STEP3]


def rng(g: Game) -> random.Random:
    """The next generator of the game's reproducible random stream (saved with the game)."""
    out = random.Random(f"{g.ctx.seed}/{g.s.counter}")
    g.s.counter += 1
    return out


def shuffle(g: Game, cards: list[int]) -> None:
    """Shuffle in place with the game's reproducible random stream."""
    rng(g).shuffle(cards)


def box(g: Game, card: int, rule: str, why: str) -> None:
    """Take ``card`` out of the market and out of the game (``rule``: why)."""
    g.s.market.remove(card)
    g.s.boxed.append(card)
    g._event(PlantBoxed, None, card, rule, why, None)


def box_lowest(g: Game, rule: str, why: str) -> int | None:
    plants = [c for c in g.s.market if c != STEP3]
    if not plants:
        return None
    box(g, plants[0], rule, why)
    return plants[0]


def draw(g: Game) -> int | None:
    """Draw the top card into the market (R32); the Step 3 card is handled by R90-R92."""
    s = g.s
    if not s.deck:
        return None
    card = s.deck.pop(0)
    s.top_known = False
    g._event(CardDrawn, card)
    if card == STEP3:
        _step3_card_drawn(g)
    else:
        insort(s.market, card)
    return card


def _step3_card_drawn(g: Game) -> None:
    s = g.s
    shuffle(g, s.deck)
    if s.phase == Phase.AUCTION:  # R90: in the market as the highest card until phase 2 ends
        insort(s.market, STEP3)
        s.step3_from = (s.round, Phase.RESOURCES)
        return
    s.boxed.append(STEP3)
    rule = "R91" if s.phase == Phase.BUILDING else "R92"
    g._event(PlantBoxed, None, STEP3, rule, "drawn outside the auction", None)
    box_lowest(g, rule, "the lowest plant leaves with the Step 3 card")
    s.step3_from = ((s.round, Phase.BUREAUCRACY) if s.phase == Phase.BUILDING
                    else (s.round + 1, Phase.PLAYER_ORDER))  # R91 / R92


def replace(g: Game) -> None:
    """Draw one replacement, then let the edition check the market (R68 / R42)."""
    draw(g)
    g.ctx.edition.market_changed(g)


def begin_step2(g: Game) -> None:
    """R89: box the lowest plant, draw a replacement; two houses per city from now on."""
    g.s.step = 2
    g._event(StepBegins, 2, "R89")
    box_lowest(g, "R89", "the lowest plant leaves as Step 2 begins")
    replace(g)


def begin_step3(g: Game) -> None:
    """R93/R94: Step 3 rules from now on (Step 2's effects first if still in Step 1)."""
    if g.s.step == 1:
        begin_step2(g)
    g.s.step = 3
    g.s.step3_from = None
    g._event(StepBegins, 3, "R93")
    g.ctx.edition.market_changed(g)


def end_phase2_step3_cleanup(g: Game) -> None:
    """R90: at the end of phase 2 box the lowest plant and the Step 3 card, no replacements."""
    s = g.s
    if STEP3 not in s.market:
        return
    if s.step == 1:
        begin_step2(g)  # R94
    box(g, STEP3, "R90", "phase 2 is over")
    box_lowest(g, "R90", "the lowest plant leaves with the Step 3 card")


def update_market(g: Game) -> None:
    """Phase 5 (c): R84 in Steps 1-2, R85 in Step 3."""
    s = g.s
    if s.step < 3:
        future = [c for c in s.market[4:] if c != STEP3] or [c for c in s.market if c != STEP3]
        if future:
            top = future[-1]
            s.market.remove(top)
            s.deck.append(top)
            g._event(PlantUnderDeck, top)
        replace(g)
    else:
        box_lowest(g, "R85", "the lowest plant leaves (Step 3 market update)")
        replace(g)
