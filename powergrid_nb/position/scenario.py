"""Positions as editable data: a :class:`Scenario` wraps a scenario dict (``Game.to_dict()`` form) with
setters for every field a position has, and :func:`problems` says, field by field, what the engine's own
validation (``Game.from_dict``) refuses, in the engine's words with the rule's number and text.

The engine stops at the first error, so :func:`problems` validates, puts the problem on its field, resets
that field to a neutral value and validates again, until the position loads: the first problem of each
field. The position with every faulty field reset is :meth:`Scenario.sketch` (what an editor can draw).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from copy import deepcopy
from pathlib import Path
from typing import Any

from powergrid_nb.engine.errors import SAVE_ERROR_CODES, SaveFileError
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import ALL_CARDS, RESOURCES, STEP3, STEP3_NAME

from .checks import Field, Problem, card, card_out, field_label, reset_turn_state, validate

__all__ = ["Field", "Problem", "Scenario", "field_label", "problems"]


class Scenario:
    """An editable position. Setters change it without checking; :meth:`problems` says what is wrong;
    :meth:`game` builds the position (refused while there are problems)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping) or not isinstance(data.get("state"), Mapping) \
                or not isinstance(data.get("config"), Mapping):
            raise SaveFileError("a scenario is an object with 'format', 'config' and 'state' (as "
                                "Game.to_dict() writes it)", (), "wrong_format", root="scenario")
        self._data = deepcopy(dict(data))
        st = self._data["state"]
        players = st.setdefault("players", {})
        if not isinstance(players, dict) or not all(isinstance(v, dict) for v in players.values()):
            raise SaveFileError("must map each player to their money, plants, tokens and cities",
                                ("state", "players"), "bad_type", root="scenario")
        for name in self._data["config"].get("players") or ():
            if isinstance(name, str):
                players.setdefault(name, {})  # left out: no money, plants, tokens or cities
        for one in players.values():
            one.setdefault("money", 0)
            one.setdefault("plants", [])
            one.setdefault("tokens", {})
            one.setdefault("cities", [])
        if st.get("houses") is None:  # left out: as the loader derives it
            st["houses"] = {}
            for name, one in players.items():
                for c in one["cities"]:
                    st["houses"].setdefault(c, []).append(name)
        if "deck" not in st:  # left out: the loader shuffles the other cards by the seed
            st["deck"] = _dealt_deck(self._data)
        for key in ("removed", "boxed", "market"):
            st.setdefault(key, [])
        self._cache: tuple[list[Problem], Game | None] | None = None

    # --- making one -----------------------------------------------------------------------------------
    @classmethod
    def from_game(cls, g: Game) -> Scenario:
        """The position of ``g`` (its history kept until the first edit)."""
        return cls(g.to_dict())

    @classmethod
    def new(cls, players: int | list[str] = 4, map: str = "germany", edition: str = "original",
            seed: int | None = None, **options: Any) -> Scenario:
        """The position of a new game (``new_game``'s arguments)."""
        return cls.from_game(new_game(players, map=map, edition=edition, seed=seed, **options))

    @classmethod
    def from_json(cls, text: str | bytes) -> Scenario:
        """A scenario from the text of a save or scenario file (SaveFileError if it is not one)."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise SaveFileError(f"not a JSON scenario ({e})", (), "not_json", root="scenario") from None
        if not isinstance(data, dict):
            raise SaveFileError("a scenario is a JSON object", (), "wrong_format", root="scenario")
        return cls(data)

    def fork(self) -> Scenario:
        """An independent copy of this position (edits to one do not change the other)."""
        return Scenario(self._data)

    # --- reading --------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The scenario dict as it stands (valid or not)."""
        return deepcopy(self._data)

    @property
    def _st(self) -> dict[str, Any]:
        return self._data["state"]

    def _player(self, name: str) -> dict[str, Any]:
        players = self._st["players"]
        if name not in players:
            raise KeyError(f"{name!r} is not a player of this scenario ({', '.join(players)})")
        return players[name]

    @property
    def participants(self) -> list[str]:
        """Everyone with money, plants, tokens and cities (players, and the Trust if it plays)."""
        return list(self._st["players"])

    @property
    def edition(self) -> str:
        return str(self._data["config"].get("edition"))

    def money(self, player: str) -> Any:
        return self._player(player)["money"]

    def plants(self, player: str) -> list[Any]:
        return list(self._player(player)["plants"])

    def tokens(self, player: str) -> dict[str, Any]:
        t = self._player(player)["tokens"]
        return {r: t.get(r, 0) for r in RESOURCES} if isinstance(t, dict) else {}

    def cities(self, player: str) -> list[str]:
        return list(self._player(player)["cities"])

    def resources(self) -> dict[str, Any]:
        """Tokens on the resource market, per resource."""
        res = self._st.get("resources", {})
        return {r: res.get(r, 0) for r in RESOURCES}

    def plant_market(self) -> list[Any]:
        """The plant market (current and future), as stored (the engine sorts it, R12)."""
        return list(self._st["market"])

    def deck(self) -> list[Any]:
        """The draw deck, top first."""
        return list(self._st["deck"])

    @property
    def round(self) -> Any:
        return self._st.get("round")

    @property
    def phase(self) -> Any:
        return self._st.get("phase")

    @property
    def step(self) -> Any:
        return self._st.get("step")

    @property
    def order(self) -> list[str]:
        """The player order (R18)."""
        return list(self._st.get("player_order", []))

    # --- editing --------------------------------------------------------------------------------------
    def _edited(self) -> None:
        self._data["history"] = []  # an edited position has no past
        self._cache = None

    def set_money(self, player: str, money: int) -> None:
        self._player(player)["money"] = money
        self._edited()

    def set_tokens(self, player: str, tokens: Mapping[str, int]) -> None:
        """Stored tokens (e.g. ``{"coal": 2}``; resources left out keep their count)."""
        one = self._player(player)
        one["tokens"] = {**self.tokens(player), **dict(tokens)}
        self._edited()

    def set_plants(self, player: str, plants: Iterable[int | str]) -> None:
        """The plants a player owns: new ones are taken from the deck or the box if there; one owned by
        another player or in the market stays there too (a problem to fix, R118). Plants given up go
        to the bottom of the deck (above the Step 3 card)."""
        one = self._player(player)
        new = self._swap(one["plants"], plants)
        one["plants"] = [card_out(c) for c in new]
        self._edited()

    def set_plant_market(self, plants: Iterable[int | str]) -> None:
        """The plant market (current and future), taken from the deck or the box as
        :meth:`set_plants`; plants leaving it go to the bottom of the deck."""
        new = self._swap(self._st["market"], plants)
        self._st["market"] = [card_out(c) for c in sorted(new, key=_order_key)]
        self._edited()

    def set_deck_top(self, plants: Iterable[int | str], replace: int = 0) -> None:
        """Put these cards on top of the deck, in this order (taken from the deck or the box); first
        the ``replace`` cards on top go to the bottom of the deck, unless they are among these."""
        top = [card(c) for c in plants]
        deck = self._st["deck"]
        for c in deck[:max(0, replace)]:
            if card(c) not in top:
                deck.remove(c)
                self._release(card(c))
        for c in top:
            self._take(c)
        self._st["deck"] = [card_out(c) for c in top] + self._st["deck"]
        self._edited()

    def set_cities(self, player: str, cities: Iterable[str]) -> None:
        """A player's cities, in the order built; their houses are added or removed to match (a new
        house takes the next slot of its city)."""
        one = self._player(player)
        new = [str(c) for c in cities]
        houses = self._st["houses"]
        for c in list(houses):
            if player in houses[c] and c not in new:
                houses[c] = [p for p in houses[c] if p != player]
                if not houses[c]:
                    del houses[c]
        for c in new:
            owners = houses.setdefault(c, [])
            if player not in owners:
                owners.append(player)
        one["cities"] = new
        self._edited()

    def toggle_city(self, player: str, city: str) -> None:
        """Add a house of ``player`` in ``city``, or take it away (a click on the map)."""
        mine = self.cities(player)
        self.set_cities(player, [c for c in mine if c != city] if city in mine else [*mine, city])

    def set_resources(self, counts: Mapping[str, int]) -> None:
        """Tokens on the resource market (resources left out keep their count)."""
        self._st["resources"] = {**self.resources(), **dict(counts)}
        self._edited()

    def set_round(self, number: int) -> None:
        self._st["round"] = number
        self._edited()

    def set_step(self, number: int) -> None:
        self._st["step"] = number
        self._edited()

    def set_phase(self, number: int) -> None:
        """The phase (a :class:`Phase` or its number); the position is then at its start (who is to
        act: the loader's default)."""
        self._st["phase"] = number
        self._start_of_phase()
        self._edited()

    def set_order(self, players: Iterable[str]) -> None:
        """The player order (R18); the position is then at the start of its phase."""
        self._st["player_order"] = [str(p) for p in players]
        self._start_of_phase()
        self._edited()

    def set_seat_order(self, players: Iterable[str]) -> None:
        """The seat order around the table (the players without the Trust)."""
        self._st["seat_order"] = [str(p) for p in players]
        self._edited()

    def set_removed(self, plants: Iterable[int | str]) -> None:
        """The plants out of the game (R8: removed at setup), taken from the deck or the box as
        :meth:`set_plants`; plants leaving it go to the bottom of the deck."""
        self._set_pile("removed", plants)

    def set_boxed(self, plants: Iterable[int | str]) -> None:
        """The plants in the box (out of play, as the rules put them there), taken from the deck or the
        removed ones as :meth:`set_plants`; plants leaving it go to the bottom of the deck."""
        self._set_pile("boxed", plants)

    def deal_deck(self) -> None:
        """The deck as the loader deals it to a scenario without one: every card placed nowhere else, in
        the seed's order (the Step 3 card last); while the position does not load, in ascending order."""
        self._st.pop("deck", None)
        self._st["deck"] = _dealt_deck(self._data)
        self._edited()

    def set_discount(self, plant: int | None) -> None:
        """[RECH] The plant under the discount token (R40), or None for no token."""
        self._st["discount"] = plant
        self._edited()

    def set_top_known(self, known: bool) -> None:
        """Whether everyone knows the deck's top card (the Original's set-up lays plant 13 on top)."""
        self._st["top_known"] = bool(known)
        self._edited()

    def set_to_act(self, players: Iterable[str]) -> None:
        """Who is still to act in the phase, in turn (the first is to act now)."""
        self._st["to_act"] = [str(p) for p in players]
        self._edited()

    def set_marked(self, cities: Iterable[str]) -> None:
        """[RECH] The cities marked as start cities so far (R134)."""
        self._st["marked"] = [str(c) for c in cities]
        self._edited()

    def set_flags(self, flags: Mapping[str, Any]) -> None:
        """The map rules' and variants' flags (e.g. ``{"uranium_frozen": True}``)."""
        self._st["flags"] = dict(flags)
        self._edited()

    def _set_pile(self, key: str, plants: Iterable[int | str]) -> None:
        new = self._swap(self._st[key], plants)
        self._st[key] = [card_out(c) for c in new]
        self._edited()

    def _start_of_phase(self) -> None:
        reset_turn_state(self._data)
        self._st["over"] = self._st.get("phase") == Phase.GAME_OVER

    def _swap(self, had: Iterable[Any], plants: Iterable[int | str]) -> list[int]:
        """Cards leaving a place (``had``) go back to the deck, new ones are taken; the new list."""
        new, old = [card(c) for c in plants], [card(c) for c in had]
        for c in old:
            if c not in new:
                self._release(c)
        for c in new:
            if c not in old:
                self._take(c)
        return new

    def _take(self, c: Any) -> None:
        out = card_out(c)
        for key in ("deck", "removed", "boxed"):
            pile = self._st[key]
            if out in pile:
                pile.remove(out)
                return

    def _release(self, c: Any) -> None:
        deck = self._st["deck"]
        at = len(deck) - 1 if deck and deck[-1] == STEP3_NAME else len(deck)
        deck.insert(at, card_out(c))

    # --- checking -------------------------------------------------------------------------------------
    def _checked(self) -> tuple[list[Problem], Game | None]:
        if self._cache is None:  # every setter clears it (_edited); to_dict() hands out a copy
            self._cache = validate(self._data)
        return list(self._cache[0]), self._cache[1]

    def problems(self) -> list[Problem]:
        """What the engine refuses, the first problem of each field (empty: a valid position)."""
        return self._checked()[0]

    @property
    def is_valid(self) -> bool:
        return not self.problems()

    def game(self) -> Game:
        """The position as a Game; a SaveFileError lists the problems when it is not valid."""
        found = self.problems()
        if found:
            lines = "\n".join(f"- {field_label(p.field)}: {p.message}" for p in found)
            first = found[0]  # as data: the first problem's path and code (problems() has each one's)
            raise SaveFileError(f"the scenario is not a valid position ({len(found)} "
                                f"problem{'s' * (len(found) > 1)}):\n{lines}", first.path,
                                first.code if first.code in SAVE_ERROR_CODES else "bad_value", root="")
        return Game.from_dict(deepcopy(self._data))

    def sketch(self) -> Game | None:
        """The position with every faulty field reset to a neutral value (None when the players, map
        or edition themselves are wrong): what an editor can draw while there are problems."""
        g = self._checked()[1]
        return None if g is None else g.copy()

    def to_json(self) -> str:
        """The scenario as JSON text (refused, with the problems, while it is not valid)."""
        self.game()
        return json.dumps(self._data, ensure_ascii=False, indent=1) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the scenario as JSON (``powergrid_nb.load`` reads it); refused while it is not valid."""
        Path(path).write_text(self.to_json(), encoding="utf-8")


def problems(scenario: Scenario) -> list[Problem]:
    """What the engine refuses in ``scenario``, the first problem of each field."""
    return scenario.problems()


def _dealt_deck(data: dict[str, Any]) -> list[Any]:
    """The deck the loader deals to a scenario without one (the cards placed nowhere else, in the
    seed's order); when the scenario does not load, those cards in order, the Step 3 card last."""
    try:
        return Game.from_dict(deepcopy(data)).to_dict()["state"]["deck"]
    except (SaveFileError, ValueError, KeyError, TypeError, IndexError):
        st = data["state"]
        placed = {card(c) for key in ("market", "removed", "boxed") for c in st.get(key) or []
                  if isinstance(c, int | str)}
        placed |= {card(c) for one in st["players"].values() for c in one.get("plants") or []
                   if isinstance(c, int | str)}
        return [card_out(c) for c in sorted(ALL_CARDS - placed - {STEP3})] + \
            ([STEP3_NAME] if STEP3 not in placed else [])


def _order_key(c: Any) -> tuple[int, Any]:
    return (0, c) if isinstance(c, int) and not isinstance(c, bool) else (1, str(c))


