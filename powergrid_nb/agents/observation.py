"""A fixed-shape numeric observation of what one player may see (``g.observation(player)``).

Built only from the observation dict (:func:`powergrid_nb.engine.io.visibility.observation`: the deck's order,
the unseen removals and the seed are not in it), so nothing hidden can leak; this is the reference.
The environments fill the same vector from the game's public queries, a part at a time
(:class:`~powergrid_nb.agents.fastobs.FastObserver`, equal to it at every decision). Players are
listed from the viewer's seat: row 0 is the viewer, then the others in seat order after them, then
the Trust in a game against it (O22). The vector's parts, in order (:attr:`ObservationSpec.slices`
gives each one's place):

==============  ============================================================================================
part            values
==============  ============================================================================================
``game``        round, phase one-hot (0-6: 0 start cities, 6 game over), step one-hot (1-3), game over, cards
                left in the deck, top card
                known, plants boxed from the game
``players``     per player (P rows of 9 + 4 plant slots x 11): money, cities, plants held, coal, oil,
                garbage, uranium, place in the player order (0 = first), took a plant this round; then
                each plant held (lowest first) as its plant features
``market``      8 plant slots (current market first) as plant features, then whether the slot is the
                Recharged discount plant
``resources``   tokens on the resource market: coal, oil, garbage, uranium
``auction``     running (0/1), the plant's features, the high bid, the leader one-hot (P), still bidding (P),
                the player who must discard one-hot (P)
``map``         per city (sorted names): in play, then one flag per player (P) for a house there
==============  ============================================================================================

Plant features (11): present, number, cities powered, tokens per run, fuel one-hot (coal, oil, garbage,
uranium, hybrid, eco, fusion). The Step 3 card in the market is "present" with number 99 and no fuel.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from powergrid_nb.engine.editions import EDITIONS
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import FUELS, PLANTS, RESOURCES, STEP3, STEP3_NAME
from powergrid_nb.engine.rules.tables import edition_tables

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["OBS_HIGH", "PLANT_FEATURES", "ObservationSpec"]

PLANT_FEATURES = 4 + len(FUELS)
OBS_HIGH = 1e6  # the observation space's bound: no count or amount of a game comes near it
# plant slots per player: the largest plant limit of any edition and player count (R36: 4, the 2-player
# original game)
HELD = max(n for name in EDITIONS for n in edition_tables()[name]["plant_limit"].values())
MARKET = 8
PLAYER_FEATURES = 9 + HELD * PLANT_FEATURES
# the game part: the round, then a one-hot of the phase (every Phase), of the step (1-3), then 4 values
PHASES_AT, STEPS_AT = 1, 1 + len(Phase)
FLAGS_AT = STEPS_AT + 3


def _plant(card: Any) -> np.ndarray:
    """The features of a card (a plant number, ``"step3"`` or 99), computed once per card."""
    f = _FEATURES.get(card)
    if f is None:
        if card in (STEP3, STEP3_NAME):
            values = [1.0, float(STEP3), 0.0, 0.0] + [0.0] * len(FUELS)
        else:
            p = PLANTS[int(card)]
            values = [1.0, float(p.number), float(p.cities), float(p.tokens)]
            values += [float(p.fuel == fuel) for fuel in FUELS]
        f = _FEATURES[card] = np.array(values, dtype=np.float32)
    return f


_FEATURES: dict[Any, np.ndarray] = {}

class ObservationSpec:
    """The observation vector of a ``players``-player game on a map with these ``cities``."""

    def __init__(self, players: int, cities: list[str] | tuple[str, ...]) -> None:
        self.players = players
        self.cities = tuple(sorted(cities))
        p = players
        sizes = {"game": FLAGS_AT + 4, "players": p * PLAYER_FEATURES,
                 "market": MARKET * (PLANT_FEATURES + 1), "resources": len(RESOURCES),
                 "auction": 1 + PLANT_FEATURES + 1 + 3 * p, "map": len(self.cities) * (1 + p)}
        self.slices: dict[str, slice] = {}
        start = 0
        for name, size in sizes.items():
            self.slices[name] = slice(start, start + size)
            start += size
        self.size = start
        self._city = {c: i for i, c in enumerate(self.cities)}
        self._play_key: tuple[str, ...] | None = None
        self._play_rows: list[int] = []

    def of(self, g: Game, player: str) -> np.ndarray:
        """The observation vector of ``player`` in ``g``: from ``g.observation(player)`` (the position
        only) and the cities in play."""
        return self.vector(g.observation(player, history=False), g.play_area)

    def vector(self, obs: dict[str, Any], in_play: Iterable[str]) -> np.ndarray:
        """The observation vector (``float32``) of an observation dict (``g.observation(player)``);
        ``in_play``: the cities of the regions in play (``g.play_area``, public from the set-up)."""
        v = np.zeros(self.size, dtype=np.float32)
        st = obs["state"]
        seats = list(st["seat_order"])
        i = seats.index(obs["viewer"])
        rows = seats[i:] + seats[:i]  # the viewer first, then the others in seat order
        rows += [n for n in st["players"] if n not in rows]  # then the Trust (O22), which has no seat
        row = {n: k for k, n in enumerate(rows)}
        ar = st.get("auction_round") or {}
        # game
        at = self.slices["game"].start
        deck = st["deck"]
        v[at] = st["round"]
        v[at + PHASES_AT + int(st["phase"])] = 1.0
        v[at + STEPS_AT + int(st["step"]) - 1] = 1.0
        v[at + FLAGS_AT:at + FLAGS_AT + 4] = (bool(st["over"]), deck["size"], deck.get("top") is not None,
                              len(st.get("boxed") or ()))
        # players
        order = {n: k for k, n in enumerate(st["player_order"])}
        bought = set(ar.get("bought") or ())
        at = self.slices["players"].start
        for name in rows:
            me = st["players"][name]
            tokens = me["tokens"]
            v[at:at + 9] = (me["money"], len(me["cities"]), len(me["plants"]),
                            *(tokens.get(r, 0) for r in RESOURCES), order.get(name, 0), name in bought)
            for k, plant in enumerate(sorted(me["plants"])[:HELD]):
                o = at + 9 + k * PLANT_FEATURES
                v[o:o + PLANT_FEATURES] = _plant(plant)
            at += PLAYER_FEATURES
        # market
        at = self.slices["market"].start
        discount = st.get("discount")
        for card in list(st["market"])[:MARKET]:
            v[at:at + PLANT_FEATURES] = _plant(card)
            v[at + PLANT_FEATURES] = card == discount
            at += PLANT_FEATURES + 1
        # resources
        at = self.slices["resources"].start
        v[at:at + len(RESOURCES)] = [st["resources"].get(r, 0) for r in RESOURCES]
        # auction
        at = self.slices["auction"].start
        p = len(rows)
        a = ar.get("auction")
        if a:
            v[at] = 1.0
            v[at + 1:at + 1 + PLANT_FEATURES] = _plant(a["plant"])
            v[at + 1 + PLANT_FEATURES] = a["bid"]
            v[at + 2 + PLANT_FEATURES + row[a["leader"]]] = 1.0
            for n in a.get("bidders", ()):
                v[at + 2 + PLANT_FEATURES + p + row[n]] = 1.0
        if ar.get("discard") is not None:
            v[at + 2 + PLANT_FEATURES + 2 * p + row[ar["discard"]]] = 1.0
        # map
        at = self.slices["map"].start
        grid = v[at:at + len(self.cities) * (1 + p)].reshape(len(self.cities), 1 + p)
        grid[self._in_play(in_play), 0] = 1.0
        for city, owners in (st.get("houses") or {}).items():
            for n in owners:
                grid[self._city[city], 1 + row[n]] = 1.0
        return v

    def _in_play(self, in_play: Iterable[str]) -> list[int]:
        key = tuple(in_play)
        if self._play_key != key:
            self._play_key, self._play_rows = key, [self._city[c] for c in key]
        return self._play_rows

    def named(self, obs: dict[str, Any], in_play: Iterable[str]) -> dict[str, np.ndarray]:
        """The same values by part: ``players`` is one row per player, ``map`` one row per city."""
        v = self.vector(obs, in_play)
        parts = {name: v[s] for name, s in self.slices.items()}
        parts["players"] = parts["players"].reshape(self.players, PLAYER_FEATURES)
        parts["market"] = parts["market"].reshape(MARKET, PLANT_FEATURES + 1)
        parts["map"] = parts["map"].reshape(len(self.cities), 1 + self.players)
        return parts
