"""Position builders for the phase 3-5 rule tests (R45-R87, R108-R117, W4-W16, W26-W28).

A position is a scenario dict: ``new_game(...).to_dict()`` edited and loaded with ``Game.from_dict``.
Cards not placed explicitly go to the deck below the given top cards (Step 3 card last, unless
placed), in ascending order, so a test knows exactly what is drawn next.
"""

from __future__ import annotations

from typing import Any

import pytest

from powergrid_nb import Action, Game, IllegalAction, new_game
from powergrid_nb.plants import PLANTS, RESOURCES, STEP3
from powergrid_nb.resources import held_total, supply

S3 = "step3"
# Germany: regions holding Essen, Duisburg, Düsseldorf, Münster, Dortmund (red) and Aachen, Köln (blue).
GERMANY_W7 = {3: ["red", "blue", "cyan"], 4: ["red", "blue", "cyan", "yellow"],
              5: ["red", "blue", "cyan", "yellow", "brown"]}
# A plant market high enough that R68 never fires in these tests unless a test asks for it.
HIGH_MARKET = [30, 31, 32, 33, 34, 35, 36, 37]


def _card(c: Any) -> int:
    return STEP3 if c == S3 else int(c)


def _out(c: int) -> int | str:
    return S3 if c == STEP3 else c


def _tokens(t: Any) -> dict[str, int]:
    if t is None:
        return {}
    if isinstance(t, dict):
        return dict(t)
    return dict(zip(RESOURCES, t, strict=True))


def scenario(players: int = 4, edition: str = "original", map: str = "germany", *,
             phase: int = 3, step: int = 1, round: int = 2, who: dict | None = None,
             market: list | None = None, deck: list = (), boxed: list = (),
             resources: Any = None, order: list | None = None, to_act: list | None = None,
             houses: dict | None = None, regions: list | None = None, flags: dict | None = None,
             **options: Any) -> Game:
    """A position at the start of ``phase`` (``to_act`` defaults to the phase's acting order).

    who: {name: {"money": E (default 50), "plants": [...], "tokens": (c, o, g, u) or dict,
    "cities": [...]}}; resources: (c, o, g, u) or dict of market counts (default: the edition's
    initial market); order: player order (default Ada, Bo, ...); deck: top cards of the deck.
    """
    if regions is None and map == "germany":
        regions = GERMANY_W7.get(players)
    g0 = new_game(players, map=map, edition=edition, regions=regions, seed=11, **options)
    d = g0.to_dict()
    st = d["state"]
    names = list(g0.players)
    who = who or {}
    everyone = names + ([g0.trust] if g0.trust else [])
    st["players"] = {}
    for n in everyone:
        w = who.get(n, {})
        st["players"][n] = {"money": w.get("money", 0 if n == g0.trust else 50),
                            "plants": list(w.get("plants", [])),
                            "tokens": _tokens(w.get("tokens")),
                            "cities": list(w.get("cities", []))}
    order = list(order or names)
    if g0.trust and g0.trust not in order:
        order.insert(1, g0.trust)
    st["player_order"] = order
    st["seat_order"] = [n for n in order if n != g0.trust]
    st.update(round=round, phase=phase, step=step, over=False)
    owned = [c for n in everyone for c in st["players"][n]["plants"]]
    if market is None:
        market = [c for c in HIGH_MARKET if c not in owned]
    top = [_card(c) for c in deck]
    placed = {_card(c) for c in market} | set(top) | {_card(c) for c in boxed} | set(owned)
    full_deck = top + [c for c in sorted(PLANTS) if c not in placed]
    if STEP3 not in placed:
        full_deck.append(STEP3)
    st["market"] = [_out(_card(c)) for c in market]
    st["deck"] = [_out(c) for c in full_deck]
    st["removed"] = []
    st["boxed"] = [_out(_card(c)) for c in boxed]
    if resources is not None:
        st["resources"] = _tokens(resources)
    st["discount"] = None
    st["flags"] = dict(flags or {})
    for key in ("houses", "to_act", "auction_round", "step3_from"):
        st.pop(key, None)
    if houses is not None:
        st["houses"] = houses
    if to_act is not None:
        st["to_act"] = list(to_act)
    return Game.from_dict(d)


def supply_of(g: Game) -> list[int]:
    """Tokens per type that are neither on the market nor on any plant (R1)."""
    return supply(g.s.res, held_total(g))


def assert_illegal(g: Game, action: Action | str, rule: str) -> IllegalAction:
    """The action raises IllegalAction naming ``rule`` and the game is left exactly as it was."""
    before = g.to_dict()
    legal_before = g.legal_actions()
    with pytest.raises(IllegalAction) as info:
        g.apply(action)
    assert info.value.rule == rule, str(info.value)
    assert str(info.value).startswith(str(action if isinstance(action, Action) else Action.parse(action)))
    assert g.to_dict() == before
    assert g.legal_actions() == legal_before
    return info.value


def events(g: Game, kind: str, since: int = 0) -> list:
    """History events of one kind, from index ``since`` on."""
    return [e for e in g.history[since:] if e.kind == kind]
