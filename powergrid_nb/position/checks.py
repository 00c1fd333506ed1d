"""Which field of a scenario the engine refuses, and why: :func:`validate` loads a scenario dict with the
engine's own validation (``io.saves.game_from_dict``), which stops at the first error; it puts that error on
the editor field it belongs to (by the error's path and code, :data:`_FIELDS_BY_PATH`, never by its
words), resets the field to a neutral value and loads again, until the position loads or nothing more
can be said. Used by :mod:`powergrid_nb.position.scenario`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from powergrid_nb.engine.errors import SaveFileError
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.io.saves import game_from_dict
from powergrid_nb.engine.rules.phases import PHASE_NAMES, Phase
from powergrid_nb.engine.rules.plants import ALL_CARDS, PLANTS, RESOURCES, STEP3, STEP3_NAME, card_out
from powergrid_nb.engine.rules.rulebook import rule as _rule

Field = tuple[str, ...]
CONFIG: Field = ("config",)  # players, map, edition, options: fixed once a scenario exists
PLANTS_FIELD: Field = ("plants",)  # the plant market, the deck and where every card is (R118)
STATE: Field = ("state",)  # who is to act within the phase, the auction under way
PLAYER_KEYS = ("money", "plants", "tokens", "cities")
PILES = ("market", "deck", "removed", "boxed")
_RULE = re.compile(r"\b([RO]\d+[a-z]?)\b")
_MAX_PASSES = 60
NEUTRAL = {"round": 1, "phase": Phase.AUCTION, "step": 1}  # a turn field the engine refuses is read as this


@dataclass(frozen=True)
class Problem:
    """What the engine refuses in a scenario: the editor ``field`` it belongs to (``("player", "Ada",
    "tokens")``, ``("market", "coal")``, ``("plants",)``, ``("turn", "step")``, ``("state",)`` or
    ``("config",)``), the engine's ``message`` followed by the rule in words, and the ``rule`` number.
    As data: ``path`` is where in the scenario dict the engine found it and ``code`` what kind of problem
    it is (:attr:`SaveFileError.path` and ``.code``; ``code`` is :data:`CANNOT_CONTINUE` when the
    engine loaded the position but could not play on from it)."""

    field: Field
    message: str
    rule: str | None = None
    path: tuple[str | int, ...] = ()
    code: str = ""

    def __str__(self) -> str:
        return self.message


CANNOT_CONTINUE = "cannot_continue"  # a Problem's code when the position loads but cannot be played on


def card(c: Any) -> Any:
    return STEP3 if c == STEP3_NAME else c


def is_card(c: Any) -> bool:
    """A card as a scenario writes it: a plant's number or 'step3' (not the engine's 99 for Step 3)."""
    return c == STEP3_NAME or (type(c) is int and c in PLANTS)


def field_label(field: Field) -> str:
    """A field in words: "Ada's tokens", "coal on the resource market", "step", ..."""
    if field[0] == "player":
        return f"{field[1]}'s {field[2]}"
    if field[0] == "market":
        return f"{field[1]} on the resource market"
    if field[0] == "turn":
        return field[1]
    names = {"plants": "plant market and deck", "state": "turn state"}
    return names.get(field[0], "players, map and edition")


def _problem(field: Field, text: str, e: _Refusal) -> Problem:
    """The engine's message, then each rule it cites in words (IllegalAction's layout)."""
    numbers = list(dict.fromkeys(_RULE.findall(text)))
    words = []
    for n in numbers:
        try:
            words.append(f"Rule {n}: {_rule(n).text}")
        except KeyError:
            continue
    return Problem(field, "\n".join([text, *words]), numbers[0] if numbers else None, e.path, e.code)


def validate(data: dict[str, Any]) -> tuple[list[Problem], Game | None]:
    """(problems, the position with each faulty field reset, as the engine loads it; None when the
    players, map or edition themselves are wrong) by loading with the engine again and again."""
    work = deepcopy(data)
    work["history"] = []  # the history is not what is edited (a loaded game's is the engine's own)
    found: list[Problem] = []
    seen: set[tuple] = set()
    for _ in range(_MAX_PASSES):
        try:
            sketch = game_from_dict(deepcopy(work), Game)
        except SaveFileError as e:
            err = _Refusal(e.path, e.code, e.reason, e.allowed)
        except (ValueError, KeyError, IndexError, TypeError) as e:  # the engine could not go on from it
            err = _Refusal(("state",), CANNOT_CONTINUE, f"the engine cannot play on from this position: {e}")
        else:
            return found, sketch
        key = (err.path, err.code, err.reason)
        if key in seen:  # the reset did not help: nothing more can be said
            break
        seen.add(key)
        text = err.reason
        try:
            located = _locate(work, err)
        except (KeyError, TypeError, AttributeError, ValueError, IndexError):  # a malformed dict
            found.append(_problem(STATE, text, err))
            return found, None
        if located is None:
            whole = not err.path or err.path[0] in ("config", "format", "schema_version")
            found.append(_problem(CONFIG if err.path[:1] and whole else STATE, text, err))
            if whole:  # the players, map or edition (or the file itself): nothing to draw
                return found, None
            reset_turn_state(work)
            continue
        inside = _player_at(work, err.path)
        shown = f"{inside}: {text}" if inside is not None else text
        for field in located:
            if not any(p.field == field for p in found):
                found.append(_problem(field, shown, err))
    return found, None


@dataclass(frozen=True)
class _Refusal:
    """What the engine refused, as data: a SaveFileError's path, code, message and allowed value."""

    path: tuple[str | int, ...]
    code: str
    reason: str
    allowed: object = None


def _players(work: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return work["state"]["players"]


def _player_at(work: dict[str, Any], path: tuple[str | int, ...]) -> str | None:
    """The player whose money, plants, tokens or cities ``path`` is inside."""
    if path[:2] == ("state", "players") and len(path) > 2 and path[2] in _players(work):
        return str(path[2])
    return None


Handler = Callable[[dict[str, Any], _Refusal], "list[Field] | None"]


def _locate(work: dict[str, Any], e: _Refusal) -> list[Field] | None:
    """The fields an error of the engine belongs to, by its path and code (never its words), resetting
    them in ``work`` (None: none of them)."""
    for prefix, codes, handler in _FIELDS_BY_PATH:
        if e.path[:len(prefix)] == prefix and (codes is None or e.code in codes):
            return handler(work, e)
    return None


def _player_fields(work: dict[str, Any], e: _Refusal) -> list[Field] | None:
    name = _player_at(work, e.path)
    key = e.path[3] if len(e.path) > 3 else ""
    if name is None or key not in PLAYER_KEYS:
        return None
    _reset_player(work, name, str(key), e.allowed)
    return [("player", name, str(key))]


def _step3_card(work: dict[str, Any], e: _Refusal) -> list[Field]:
    """The Step 3 card owned or removed: back to the bottom of the deck."""
    st = work["state"]
    owners = [n for n, one in _players(work).items() if STEP3_NAME in one["plants"]]
    for n in owners:
        _players(work)[n]["plants"].remove(STEP3_NAME)
    if STEP3_NAME in st["removed"]:
        st["removed"].remove(STEP3_NAME)
    st["deck"].append(STEP3_NAME)
    return [("player", n, "plants") for n in owners] or [PLANTS_FIELD]


def _pile_fields(work: dict[str, Any], e: _Refusal) -> list[Field]:
    """A pile of cards or the discount token: every card that is not a plant leaves the piles."""
    st = work["state"]
    for key in PILES:
        st[key] = [c for c in st[key] if is_card(c)] if isinstance(st[key], list) else []
    st["discount"] = None
    return [PLANTS_FIELD]


def _order_fields(work: dict[str, Any], e: _Refusal) -> list[Field]:
    st = work["state"]
    st["player_order"] = list(_players(work))  # everyone once, the Trust included
    humans = [str(n) for n in work["config"].get("players", [])]
    st["seat_order"] = [n for n in st["player_order"] if n in humans]
    reset_turn_state(work)
    return [("turn", "order")]


def _turn_fields(work: dict[str, Any], e: _Refusal) -> list[Field] | None:
    """Round, phase or step (and the over flag, which follows the phase)."""
    st = work["state"]
    fields: list[Field] = []
    for key, ok in (("round", lambda v: v >= 1), ("phase", lambda v: v in PHASE_NAMES),
                    ("step", lambda v: v in (1, 2, 3))):
        v = st.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or not ok(v):
            st[key] = NEUTRAL[key]
            fields.append(("turn", key))
    if e.path[1:2] == ("over",):
        fields.append(("turn", "phase"))
    st["over"] = st.get("phase") == Phase.GAME_OVER
    reset_turn_state(work)
    return fields or None


def _bid_fields(work: dict[str, Any], e: _Refusal) -> list[Field] | None:
    """The high bid is more than the leader has (R31): the leader's money."""
    st = work["state"]
    leader = (st.get("auction_round") or {}).get("auction", {}).get("leader")
    reset_turn_state(work)
    return [("player", leader, "money")] if leader in _players(work) else None


def _discard_fields(work: dict[str, Any], e: _Refusal) -> list[Field] | None:
    """A discard pending for a player not over the plant limit (R36): their plants."""
    who = (work["state"].get("auction_round") or {}).get("discard")
    reset_turn_state(work)
    return [("player", who, "plants")] if who in _players(work) else None


def _auctioned_plant(work: dict[str, Any], e: _Refusal) -> list[Field]:
    reset_turn_state(work)
    return [PLANTS_FIELD]


def _reset_player(work: dict[str, Any], name: str, key: str, allowed: object) -> None:
    """A player's faulty field to a neutral value (cities: distinct, at most ``allowed``)."""
    one = _players(work)[name]
    if key == "money":
        one["money"] = 0
    elif key == "plants":  # the plants go back to the deck; tokens need plants to fit (R49)
        st = work["state"]
        for c in one["plants"] if isinstance(one["plants"], list) else []:
            if is_card(c):
                st["deck"].insert(max(0, len(st["deck"]) - 1), c)
        one["plants"], one["tokens"] = [], {}
        if st.get("auction_round") and (st["auction_round"] or {}).get("discard") == name:
            reset_turn_state(work)
    elif key == "tokens":
        one["tokens"] = {}
    else:  # distinct cities, as many as allowed (R57, R67), so the map keeps showing the others
        mine = one["cities"] if isinstance(one["cities"], list) else []
        keep = list(dict.fromkeys(str(c) for c in mine))[:allowed if isinstance(allowed, int) else 0]
        _set_cities(work, name, keep)


def _set_cities(work: dict[str, Any], name: str, cities: list[str]) -> None:
    houses = work["state"]["houses"]
    for c in list(houses):
        if name in houses[c] and c not in cities:
            houses[c] = [p for p in houses[c] if p != name]
            if not houses[c]:
                del houses[c]
    _players(work)[name]["cities"] = cities


def _card_fields(work: dict[str, Any], e: _Refusal) -> list[Field]:
    """R118, a plant in two places or missing: the plants of each player owning a duplicate (given
    up), and the plant market and deck when a pile holds one or a card is missing (each card once)."""
    st = work["state"]
    players = _players(work)
    piles = {k: [card(c) for c in st[k]] for k in PILES}
    owned = {n: [card(c) for c in one["plants"]] for n, one in players.items()}
    count = Counter([c for pile in piles.values() for c in pile] + [c for m in owned.values() for c in m])
    dup = {c for c, k in count.items() if k > 1}
    missing = ALL_CARDS - set(count)
    fields: list[Field] = []
    for n, mine in owned.items():
        if dup & set(mine):
            fields.append(("player", n, "plants"))
            players[n]["plants"] = [c for c in players[n]["plants"] if card(c) not in dup]
            players[n]["tokens"] = {}  # the plants left may not hold them (R49): not this field's problem
    kept = {card(c) for one in players.values() for c in one["plants"]}
    for key in PILES:
        out = []
        for c in piles[key]:
            if c not in kept:
                kept.add(c)
                out.append(card_out(c))
        st[key] = out
    deck = st["deck"]
    bottom = [STEP3_NAME] if deck[-1:] == [STEP3_NAME] or STEP3 not in kept else []
    if deck[-1:] == [STEP3_NAME]:
        deck.pop()
    deck.extend([*sorted(ALL_CARDS - kept - {STEP3}), *bottom])
    if missing or not fields or any(c in pile for c in dup for pile in piles.values()):
        fields.append(PLANTS_FIELD)
    return fields


def _resource_fields(work: dict[str, Any], e: _Refusal) -> list[Field]:
    st = work["state"]
    res = e.path[2] if len(e.path) > 2 else None
    if res not in RESOURCES:
        return [("market", r) for r in RESOURCES]
    negative = [n for n, one in _players(work).items()
                if isinstance(one["tokens"], dict) and isinstance(one["tokens"].get(res, 0), int)
                and one["tokens"].get(res, 0) < 0]
    if negative:
        for n in negative:
            _players(work)[n]["tokens"] = {}
        return [("player", n, "tokens") for n in negative]
    market = st.setdefault("resources", {})
    if market.get(res) != 0:
        market[res] = 0
        return [("market", res)]
    holders = [n for n, one in _players(work).items() if one["tokens"].get(res, 0)]
    for n in holders:
        _players(work)[n]["tokens"] = {}
    return [("player", n, "tokens") for n in holders] or [("market", res)]


def _house_fields(work: dict[str, Any], e: _Refusal) -> list[Field] | None:
    """A house outside the play area (R4), more houses in a city than the step allows (R58), or
    houses that disagree with the players' cities."""
    st = work["state"]
    houses = st["houses"]
    city = e.path[2] if len(e.path) > 2 else None
    for c, owners in list(houses.items()):
        if c == city and e.code in ("unknown_city", "over_limit", "duplicate", "mismatch"):
            if e.code == "mismatch":  # the city lists a player whose cities do not
                names = [n for n in owners if c not in _players(work).get(n, {}).get("cities", [])]
            elif e.code == "unknown_city":
                names = list(owners)
            else:
                seen: list[str] = []
                names = []
                for n in owners:
                    (names if n in seen or len(seen) >= st["step"] else seen).append(n)
            for n in names:
                if n in _players(work):
                    _set_cities(work, n, [x for x in _players(work)[n]["cities"] if x != c])
            houses.pop(c, None)
            rest = [n for n in owners if n not in names]
            if rest:
                houses[c] = rest
            return [("player", n, "cities") for n in dict.fromkeys(names) if n in _players(work)] or None
    st.pop("houses", None)  # houses and cities disagree: derive them from the cities
    return None


_FIELDS_BY_PATH: tuple[tuple[tuple[str, ...], frozenset[str] | None, Handler], ...] = (
    # (the error's path starts with, its codes (None: any), the fields it belongs to); the first match
    (("state", "players"), None, _player_fields),
    (("state", "resources"), None, _resource_fields),
    (("state", "houses"), None, _house_fields),
    *((("state", key), None, _pile_fields) for key in (*PILES, "discount")),
    (("state", "player_order"), None, _order_fields),
    (("state", "seat_order"), None, _order_fields),
    *((("state", key), None, _turn_fields) for key in ("round", "phase", "step", "over")),
    (("state", "auction_round", "auction", "bid"), frozenset({"out_of_range"}), _bid_fields),
    (("state", "auction_round", "auction", "plant"), frozenset({"not_allowed"}), _auctioned_plant),
    (("state", "auction_round", "discard"), frozenset({"not_allowed"}), _discard_fields),
    (("state",), frozenset({"duplicate_card", "missing_card"}), _card_fields),
    (("state",), frozenset({"misplaced_card"}), _step3_card),
)


def reset_turn_state(work: dict[str, Any]) -> None:
    """Put the scenario at the start of its phase: the loader derives whose turn it is (and, in phase 2,
    where the discount token lies, R40)."""
    st = work["state"]
    for key in ("to_act", "auction_round"):
        st.pop(key, None)
    if st.get("phase") == Phase.AUCTION:
        st.pop("discount", None)
    else:
        st["discount"] = None
