"""Position builders for the Step / end-of-game / variant rule tests (R88-R104, R124-R136, W20-W29).

Positions are scenario dicts: ``new_game(...).to_dict()`` edited and loaded with ``Game.from_dict``.
Cards not placed explicitly go to the deck below the given top cards (Step 3 card last) or, with
``rest="removed"``, out of the game, so a test controls exactly what is drawn next.
"""

from __future__ import annotations

from typing import Any

from _helpers_phases import S3, _card, _out, events  # noqa: F401  (S3 and events: for the rule tests)

from powergrid_nb import Build, Done, Game, Pass, Power, new_game
from powergrid_nb.maps import load_map
from powergrid_nb.plants import PLANTS, STEP3

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


def scenario(players: int = 4, edition: str = "original", map: str = "germany", *,
             round: int = 2, phase: int = 2, step: int = 1, market: list, deck: list = (),
             rest: str = "deck", boxed: list = (), owned: dict | None = None,
             money: dict | None = None, tokens: dict | None = None, cities: dict | None = None,
             resources: dict | None = None, order: list | None = None, regions: list | None = None,
             options: dict | None = None, **state: Any) -> Game:
    """A position at the start of ``phase`` (defaults: to_act / auction round for that phase).

    market/deck/boxed may contain "step3". owned: {name: [plants, newest last]};
    money: {name: E} (default 50); tokens: {name: {"coal": n, ...}}; cities: {name: [city, ...]}.
    """
    regions = regions or REGIONS[map][players]
    g0 = new_game(players, map=map, edition=edition, regions=regions, seed=11, **(options or {}))
    d = g0.to_dict()
    st = d["state"]
    names = list(g0.players)
    owned, money, tokens, cities = owned or {}, money or {}, tokens or {}, cities or {}
    everyone = names + ([g0.trust] if g0.trust else [])
    st["players"] = {n: {"money": money.get(n, 0 if n == g0.trust else 50),
                         "plants": list(owned.get(n, [])),
                         "tokens": dict(tokens.get(n, {})),
                         "cities": list(cities.get(n, []))} for n in everyone}
    order = list(order or names)
    if g0.trust and g0.trust not in order:
        order.insert(1, g0.trust)
    st["player_order"] = order
    st["seat_order"] = [n for n in order if n != g0.trust]
    st.update(round=round, phase=phase, step=step, over=False)
    placed = [_card(c) for c in market] + [_card(c) for c in deck] + [_card(c) for c in boxed]
    placed += [c for pl in owned.values() for c in pl]
    others = [c for c in sorted(PLANTS) if c not in placed]
    top = [_card(c) for c in deck]
    if rest == "deck":
        full_deck, removed = top + others, []
    else:
        full_deck, removed = top, others
    if STEP3 not in placed:
        full_deck.append(STEP3)
    st["market"] = [_out(_card(c)) for c in market]
    st["deck"] = [_out(c) for c in full_deck]
    st["removed"] = removed
    st["boxed"] = [_out(_card(c)) for c in boxed]
    st["resources"] = resources or {"coal": 12, "oil": 12, "garbage": 12, "uranium": 4}
    st["discount"] = None
    for key in ("houses", "to_act", "auction_round", "step3_from"):
        st.pop(key, None)
    st["flags"] = {}
    st["marked"] = []
    if phase == 2:  # the defaults of a phase-2 auction round, given explicitly
        st["auction_round"] = {"active": list(order), "bought": [], "auction": None, "discard": None,
                               "first_draw": False}
    st.update(state)
    if st.get("step3_from") is None:
        st.pop("step3_from", None)
    d["history"] = []
    return Game.from_dict(d)


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
    return [e.amount for e in ev[-4:]]
