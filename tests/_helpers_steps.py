"""Positions and turn helpers for the Step / end-of-game / variant rule tests (R88-R104, R124-R136,
W20-W29).

``scenario`` is :func:`_position.position` with the defaults these tests were written against:
seed 11, the REGIONS below, round 2 at the start of phase 2, a resource market of 12/12/12/4 and
holdings given per field (``owned``, ``money``, ``tokens``, ``cities``).
"""

from __future__ import annotations

from typing import Any

from _helpers_phases import events
from _position import S3, position, who_of  # noqa: F401  (S3: for the rule tests)

from powergrid_nb import Build, Done, Game, Pass, Power
from powergrid_nb.engine.board.maps import load_map

REGIONS = {
    "germany": {2: ["cyan", "red", "blue"], 3: ["cyan", "red", "blue"], 4: ["cyan", "red", "yellow", "blue"],
                5: ["cyan", "brown", "red", "yellow", "blue"], 6: ["cyan", "brown", "red", "yellow", "blue"]},
    "usa": {2: ["purple", "cyan", "red"], 3: ["purple", "cyan", "red"],
            4: ["purple", "cyan", "red", "yellow"]},
}
# Germany play-area cities used as filler networks: cyan, red (not Essen, Duisburg, Düsseldorf) and
# blue regions first (the 3-region play area), then yellow (4 regions).
FILLER = ["Bremen", "Cuxhaven", "Flensburg", "Hamburg", "Hannover", "Kiel", "Wilhelmshaven",
          "Kassel", "Osnabrück", "Münster", "Dortmund", "Aachen", "Frankfurt-M", "Köln", "Mannheim",
          "Saarbrücken", "Trier", "Wiesbaden", "Dresden", "Erfurt", "Fulda", "Halle", "Leipzig",
          "Nürnberg", "Würzburg"]
STEPS_RESOURCES = {"coal": 12, "oil": 12, "garbage": 12, "uranium": 4}


def scenario(players: int = 4, edition: str = "original", map: str = "germany", *,
             round: int = 2, phase: int = 2, step: int = 1, market: list, deck: list = (),
             rest: str = "deck", boxed: list = (), owned: dict | None = None,
             money: dict | None = None, tokens: dict | None = None, cities: dict | None = None,
             resources: dict | None = None, order: list | None = None, regions: list | None = None,
             options: dict | None = None, **edits: Any) -> Game:
    """:func:`_position.position` at the start of ``phase``; ``rest`` ("deck" or "removed"), ``deck``
    and ``edits`` (discount, to_act, marked, ...) as there.

    market/deck/boxed may contain "step3". owned: {name: [plants, newest last]};
    money: {name: E} (default 50); tokens: {name: {"coal": n, ...}}; cities: {name: [city, ...]}.
    """
    return position(players, edition, map, seed=11, regions=regions or REGIONS[map][players],
                    options=options, round=round, phase=phase, step=step, market=market, deck=deck,
                    rest=rest, boxed=boxed, who=who_of(money, owned, tokens, cities),
                    resources=resources or STEPS_RESOURCES, order=order, **edits)


def filler(k: int, start: int = 0, players: int = 4, edition: str = "original") -> list[str]:
    """k distinct Germany play-area cities (Essen, Duisburg, Düsseldorf come last)."""
    area = set(load_map("germany", edition).cities_in(REGIONS["germany"][players]))
    pool = [c for c in [*FILLER, "Essen", "Duisburg", "Düsseldorf"] if c in area]
    pool += sorted(area - set(pool))
    assert start + k <= len(pool), "not enough cities in the play area"
    return pool[start:start + k]


def pass_phase2(g: Game) -> None:
    """Every remaining player passes phase 2 (round > 1)."""
    while g.phase == 2 and not g.is_over:
        g.apply(Pass(g.current_player))


def done_phase(g: Game) -> None:
    """Every remaining player ends their phase-3 or phase-4 turn without acting."""
    ph = g.phase
    while g.phase == ph and ph in (3, 4) and not g.is_over:
        g.apply(Done(g.current_player))


def power_none(g: Game) -> None:
    """Every player powers nothing in phase 5 (10 E each)."""
    while g.phase == 5 and not g.is_over:
        g.apply(Power(g.current_player, ()))


def build_turn(g: Game, *cities: str) -> None:
    """The current phase-4 player builds ``cities`` (if any) and ends the turn."""
    p = g.current_player
    if cities:
        g.apply(Build(p, *cities))
    g.apply(Done(p))


def to_phase(g: Game, phase: int) -> None:
    """Leave the current phase, then advance without buying or building until ``phase`` begins."""
    for _ in range(20):
        {2: pass_phase2, 3: done_phase, 4: done_phase, 5: power_none}[g.phase](g)
        if g.phase == phase or g.is_over:
            return
    raise AssertionError("to_phase did not reach the phase")


def refills(g: Game, since: int = 0) -> list[int]:
    """The amounts of the last four refill events (coal, oil, garbage, uranium)."""
    ev = events(g, "refill", since)
    assert len(ev) >= 4, ev
    return [e.tokens for e in ev[-4:]]
