"""Save files and scenarios: the game as validated JSON (never pickle), and per-player views."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from powergrid_nb.engine.board.maps import GameMap, MapError, builtin_maps, load_map
from powergrid_nb.engine.editions import EDITIONS, get_edition
from powergrid_nb.engine.errors import SaveFileError
from powergrid_nb.engine.events import Event
from powergrid_nb.engine.gamelog import possessive
from powergrid_nb.engine.limits import MAX_COUNTER, MAX_MONEY, MAX_ROUND, MAX_SEED, shown
from powergrid_nb.engine.options import check_options, make_context, player_names
from powergrid_nb.engine.phases import rounds
from powergrid_nb.engine.phases.auction import Auction
from powergrid_nb.engine.phases.resources import start_markers
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import (
    ALL_CARDS,
    PLANTS,
    RESOURCES,
    STEP3,
    STEP3_NAME,
    capacities,
    card_out,
    fits,
)
from powergrid_nb.engine.state import State

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

# The class a loaded game is built as: ``Game`` is passed in (Game.from_dict, newgame.load), not imported, as
# game.py stands above the save format
G = TypeVar("G", bound="Game")

FORMAT = "powergrid_nb.game"
SCHEMA_VERSION = 2  # 2: the history as typed events; version 1 (prose rows) still loads
# Fields of State (state.FIELDS) that a save leaves out, each with the reason (the loader derives it, ...):
# every other field is written by game_to_dict and read back by _state_from (tests/test_state_fields.py).
NOT_SAVED: dict[str, str] = {}


def _names(g: Game, idx: list[int]) -> list[str]:
    return [g.ctx.names[p] for p in idx]


def game_to_dict(g: Game, history: bool = True) -> dict[str, Any]:
    """The game as plain data (``save`` writes it); ``history=False`` leaves the history out (an empty
    list: the position alone, as an agent's observation reads it)."""
    s, ctx = g.s, g.ctx
    builtin = ctx.map.path is not None and ctx.map.name in builtin_maps()
    a = s.auction
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "config": {
            "players": g.players, "edition": ctx.edition.name,
            "map": ctx.map.name if builtin else ctx.map.to_dict(),
            "regions": list(ctx.regions), "seed": ctx.seed,
            "options": {k: v for k, v in ctx.options.items()},
        },
        "state": {
            "round": s.round, "phase": int(s.phase), "step": s.step, "over": s.over,
            "player_order": _names(g, s.order), "seat_order": _names(g, s.seats),
            "players": {ctx.names[p]: {
                "money": s.money[p], "plants": list(s.plants[p]),
                "tokens": dict(zip(RESOURCES, s.tokens[p], strict=True)),
                "cities": list(s.mine[p])} for p in range(len(ctx.names))},
            "houses": {c: _names(g, o) for c, o in s.houses.items()},
            "market": [card_out(c) for c in s.market],
            "deck": [card_out(c) for c in s.deck],
            "removed": list(s.removed), "boxed": [card_out(c) for c in s.boxed],
            "resources": dict(zip(RESOURCES, s.res, strict=True)),
            "discount": s.discount,
            "auction_round": {
                "active": _names(g, s.active), "bought": _names(g, s.bought),
                "auction": None if a is None else {
                    "plant": a.plant, "bid": a.bid, "leader": ctx.names[a.leader],
                    "bidders": _names(g, a.bidders)},
                "discard": None if s.discard is None else ctx.names[s.discard],
                "first_draw": s.first_draw},
            "to_act": _names(g, s.to_act),
            "step3_from": None if s.step3_from is None else [s.step3_from[0], int(s.step3_from[1])],
            "flags": dict(s.flags), "marked": list(s.marked),
            "counter": s.counter, "top_known": s.top_known,
        },
        "history": [e.to_row() for e in g.history] if history else [],
    }


def save(g: Game, path: str | Path) -> None:
    """Write the game as JSON (``load`` reads it back): the text of :func:`save_text`, in UTF-8."""
    Path(path).write_text(save_text(g), encoding="utf-8")


def save_text(g: Game) -> str:
    """The text of a save file: the game as JSON, indented, one history event a line."""
    d = game_to_dict(g)
    rows = d.pop("history")
    text = json.dumps(d, ensure_ascii=False, indent=1)
    events = ",\n  ".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in rows)
    text = text[:-2] + (f',\n "history": [\n  {events}\n ]\n}}' if rows else ',\n "history": []\n}')
    return text + "\n"


def load(path: str | Path, cls: type[G]) -> G:
    """Read a game saved with ``save``, built as ``cls``; a malformed file raises :class:`SaveFileError`.
    ``powergrid_nb.load(path)`` (:func:`powergrid_nb.engine.newgame.load`) reads a :class:`Game`."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise SaveFileError(f"cannot read: {e.strerror}", (), "unreadable", root="", file=str(path)) from None
    try:
        data = json_of(raw)
    except SaveFileError as e:
        raise e.in_file(str(path)) from None
    try:
        return game_from_dict(data, cls)
    except SaveFileError as e:
        raise e.in_file(str(path)) from None


def json_of(raw: bytes) -> Any:
    """The JSON data of a save file's bytes; :class:`SaveFileError` (code ``not_json``) when they are not
    JSON in UTF-8: a binary file, a save re-encoded (as Windows-1252, ...), truncated, or nested too deep."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SaveFileError(f"not UTF-8 text (byte {e.start} is {raw[e.start]:#04x}): a save file is JSON in "
                            "UTF-8; is it another kind of file, or a save an editor wrote in another "
                            "encoding (such as Windows-1252)?", (), "not_json", root="") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveFileError(f"not valid JSON (truncated or edited?) at line {e.lineno}, "
                            f"column {e.colno}: {e.msg}", (), "not_json", root="") from None
    except RecursionError:
        raise SaveFileError("not a save: its JSON is nested too deep to read", (), "not_json",
                            root="") from None
    except ValueError as e:  # a number of more than 4,300 digits, ...
        raise SaveFileError(f"not a save: {e}", (), "not_json", root="") from None


_F = TypeVar("_F", bound=Callable[..., Any])


def _save_errors_only(build: _F) -> _F:
    """``build``, raising only :class:`SaveFileError`: data of a shape no reader foresaw (a list where a
    text belongs, nesting too deep for Python) must not escape as a TypeError or a RecursionError."""
    @functools.wraps(build)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return build(*args, **kwargs)
        except SaveFileError:
            raise
        except RecursionError:
            raise SaveFileError("nested too deep to be a game", (), "bad_value") from None
        except (TypeError, AttributeError, LookupError, ArithmeticError, ValueError) as e:
            raise SaveFileError(f"not a game: a value of the wrong type or shape somewhere "
                                f"({type(e).__name__}: {e})", (), "bad_type") from None
    return wrapper  # type: ignore[return-value]


DataPath = tuple[str | int, ...]  # where in the dict: ("state", "players", "Ada", "money")


class _Reader:
    """Typed access to the dict at ``path``, with errors that say where (SaveFileError.path)."""

    def __init__(self, data: Any, path: DataPath) -> None:
        self.data, self.path = data, path

    def fail(self, msg: str, code: str, key: str | None = None, allowed: object = None) -> SaveFileError:
        return SaveFileError(msg, (*self.path, key) if key else self.path, code, allowed=allowed)

    def sub(self, key: str, default: Any = ...) -> _Reader:
        return _Reader(self.get(key, dict, default), (*self.path, key))

    def number(self, key: str, lo: int, hi: int, default: Any = ...) -> int:
        """The whole number at ``key``, from ``lo`` to ``hi`` (SaveFileError naming the bounds)."""
        v = self.get(key, int, default)
        if not lo <= v <= hi:
            raise self.fail(f"must be from {lo:,} to {hi:,}, not {shown(v, 30)}", "out_of_range", key,
                            allowed=[lo, hi])
        return v

    def get(self, key: str, kind: type | tuple, default: Any = ...) -> Any:
        if not isinstance(self.data, dict):
            raise self.fail("expected an object", "bad_type")
        if key not in self.data:
            if default is ...:
                raise self.fail("missing", "missing", key)
            return default
        v = self.data[key]
        if v is None and default is None:
            return None
        if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
            raise self.fail(f"expected an integer, got {v!r}", "bad_type", key)
        if not isinstance(v, kind):
            raise self.fail(f"expected {getattr(kind, '__name__', kind)}, got {v!r}", "bad_type", key)
        return v


def _card_in(v: Any, path: DataPath) -> int:
    if v == STEP3_NAME:
        return STEP3
    if isinstance(v, bool) or not isinstance(v, int) or v not in PLANTS:
        raise SaveFileError(f"{v!r} is not a power plant (03-40, 42, 44, 46, 50) or 'step3'",
                            path, "unknown_plant")
    return v


@_save_errors_only
def game_from_dict(data: dict[str, Any], cls: type[G]) -> G:
    """Build a game of class ``cls`` from :meth:`Game.to_dict` output or a hand-written scenario (validated):
    ``Game.from_dict(data)``."""
    top = _Reader(data, ())
    if top.get("format", str) != FORMAT:
        raise top.fail(f"format must be {FORMAT!r}", "wrong_format", "format", allowed=FORMAT)
    version = top.get("schema_version", int)
    if version not in (1, SCHEMA_VERSION):
        raise top.fail(f"schema_version {version} is not supported; this engine reads 1 and "
                       f"{SCHEMA_VERSION}", "unsupported_version", "schema_version",
                       allowed=[1, SCHEMA_VERSION])
    cfg = top.sub("config")
    names = [str(n) for n in cfg.get("players", list)]
    edition = cfg.get("edition", str)
    if edition not in EDITIONS:
        raise cfg.fail(f"must be one of {sorted(EDITIONS)}", "bad_value", "edition", allowed=sorted(EDITIONS))
    key = "players"  # the setting read when a check refuses it
    try:
        player_names(names)
        key = "map"
        raw_map = cfg.get("map", (str, dict))
        game_map: GameMap = load_map(raw_map, edition)
        key = "options"
        options = check_options(cfg.get("options", dict, {}))
        ed = get_edition(edition, options["rules"])
        key = "regions"
        k = ed.regions(len(names))
        regions = game_map.validate_regions(cfg.get("regions", list), k)
    except (MapError, ValueError) as e:
        if isinstance(e, SaveFileError):
            raise
        raise cfg.fail(str(e), "bad_value", key) from None
    seed = cfg.number("seed", 0, MAX_SEED)
    try:
        ctx = make_context(names, game_map, ed, tuple(regions), seed, options)
    except ValueError as e:
        raise cfg.fail(str(e), "bad_value", "options") from None
    s = _state_from(_Reader(top.get("state", dict), ("state",)), ctx)
    hist = _history_from(top.get("history", list, []), version)
    g = cls(ctx, s, hist)
    if s.discount == PLACE_DISCOUNT:
        s.discount = ctx.edition.discount_plant(g)
    _check_invariants(g)
    if s.phase == Phase.PLAYER_ORDER:  # a position at the start of phase 1: the round begins now
        rounds.enter(g, Phase.PLAYER_ORDER)
    rounds.advance(g)
    g._set_root()
    return g


def _history_from(rows: list[Any], version: int) -> list[Event]:
    if version == 1:
        for i, row in enumerate(rows):
            if not (isinstance(row, list) and len(row) == 7):
                raise SaveFileError("each event is [round, phase, step, player, kind, amount, detail]",
                                    ("history", i), "bad_value")
        from .history_v1 import events_from_v1  # only old saves need it: not loaded with the engine

        try:
            events = events_from_v1(rows)
            for e in events:
                e.check()
            return events
        except (ValueError, TypeError, AttributeError, LookupError) as e:
            raise SaveFileError(f"cannot read the version-1 history: {e}", ("history",),
                                "bad_value") from None
    out = []
    for i, row in enumerate(rows):
        try:
            out.append(Event.from_row(row))
        except (ValueError, TypeError, AttributeError, LookupError) as e:
            raise SaveFileError(f"each event is [kind, round, phase, step, *fields]: {e}",
                                ("history", i), "bad_value") from None
    return out


def _state_from(r: _Reader, ctx: Any) -> State:
    idx = ctx.index
    s = State()

    def who(v: Any, path: DataPath) -> int:
        if not isinstance(v, str) or v not in idx:
            raise SaveFileError(f"{v!r} is not a player ({', '.join(ctx.names)})", path, "unknown_player",
                                allowed=list(ctx.names))
        return idx[v]

    def people(key: str, rr: _Reader = r, default: Any = ...) -> list[int]:
        if default is not ... and (not isinstance(rr.data, dict) or rr.data.get(key) is None):
            return list(default)  # player indices
        return [who(v, (*rr.path, key, i)) for i, v in enumerate(rr.get(key, list))]

    s.round, s.phase, s.step = r.number("round", 1, MAX_ROUND), r.get("phase", int), r.get("step", int)
    for key, ok in (("round", s.round >= 1), ("phase", Phase.START_CITIES <= s.phase <= Phase.GAME_OVER),
                    ("step", s.step in (1, 2, 3))):
        if not ok:
            raise r.fail("round >= 1, phase 0-6 and step 1-3 are required", "out_of_range", key)
    s.phase = Phase(s.phase)
    s.over = bool(r.get("over", bool, s.phase == Phase.GAME_OVER))
    if s.over != (s.phase == Phase.GAME_OVER):
        raise r.fail("over must be true exactly when phase is 6 (game over)", "mismatch", "over")
    s.order = people("player_order")
    s.seats = people("seat_order", default=[p for p in s.order if p != ctx.trust])
    if sorted(s.order) != list(range(len(ctx.names))):
        raise r.fail(f"must list each of {ctx.names} once", "mismatch", "player_order",
                     allowed=list(ctx.names))
    if sorted(s.seats) != ctx.humans:
        raise r.fail(f"must list each player once: {ctx.names[:len(ctx.humans)]}", "mismatch", "seat_order",
                     allowed=ctx.names[:len(ctx.humans)])
    pr = r.sub("players")
    n = len(ctx.names)
    s.money, s.plants, s.mine = [0] * n, [[] for _ in range(n)], [[] for _ in range(n)]
    s.tokens = [[0, 0, 0, 0] for _ in range(n)]
    for name, p in idx.items():
        one = pr.sub(name)
        s.money[p] = one.number("money", -MAX_MONEY, MAX_MONEY, 0)  # below 0: the O2 check below says why
        s.plants[p] = [_card_in(c, (*one.path, "plants")) for c in one.get("plants", list, [])]
        tok = one.sub("tokens", {})
        s.tokens[p] = [tok.get(k, int, 0) for k in RESOURCES]
        s.mine[p] = [str(c) for c in one.get("cities", list, [])]
    houses = r.get("houses", dict, None)
    if houses is None:
        houses = {}
        for p in range(n):
            for c in s.mine[p]:
                houses.setdefault(c, []).append(ctx.names[p])
    for c, o in houses.items():
        if not isinstance(o, list):
            raise SaveFileError("expected a list of player names in slot order", ("state", "houses", c),
                                "bad_type")
    s.houses = {c: tuple(who(v, ("state", "houses", c)) for v in o) for c, o in houses.items()}
    s.market = sorted(_card_in(c, ("state", "market")) for c in r.get("market", list))
    s.removed = sorted(_card_in(c, ("state", "removed")) for c in r.get("removed", list, []))
    s.boxed = [_card_in(c, ("state", "boxed")) for c in r.get("boxed", list, [])]
    if "deck" in r.data:
        s.deck = [_card_in(c, ("state", "deck")) for c in r.get("deck", list)]
    else:  # a scenario may leave the deck out: the other cards, shuffled, Step 3 card last
        used = set(s.market) | set(s.removed) | set(s.boxed) | {c for pl in s.plants for c in pl}
        s.deck = sorted(c for c in PLANTS if c not in used)
        random.Random(ctx.seed).shuffle(s.deck)
        if STEP3 not in used:
            s.deck.append(STEP3)
    res = r.sub("resources")
    s.res = [res.get(k, int) for k in RESOURCES]
    s.discount = _discount(r, ctx, s)
    s3 = r.get("step3_from", list, None)
    if s3 is not None and not (len(s3) == 2 and all(type(x) is int and 0 <= x <= MAX_ROUND for x in s3)):
        raise r.fail("must be null or [round, phase] (when Step 3 begins)", "bad_value", "step3_from")
    s.step3_from = None if s3 is None else (s3[0], s3[1])
    s.flags = dict(r.get("flags", dict, {}))
    s.marked = [str(c) for c in r.get("marked", list, [])]
    s.counter = r.number("counter", 0, MAX_COUNTER, 0)
    s.top_known = r.get("top_known", bool, False)
    turns = rounds.turns(ctx, s.order, s.phase)
    s.to_act = people("to_act", default=turns if s.phase != Phase.AUCTION else [])
    ar = r.sub("auction_round", {})
    s.active = people("active", ar, turns if s.phase == Phase.AUCTION else [])
    s.bought = people("bought", ar, [])
    s.first_draw = ar.get("first_draw", bool, False)
    d = ar.get("discard", (str, type(None)), None)
    s.discard = None if d is None else who(d, (*ar.path, "discard"))
    a = ar.get("auction", (dict, type(None)), None)
    if a is not None:
        ra = ar.sub("auction")
        s.auction = Auction(ra.get("plant", int), ra.number("bid", 0, MAX_MONEY),
                            who(ra.get("leader", str), (*ra.path, "leader")), people("bidders", ra))
    return s


PLACE_DISCOUNT = -1  # a discount left out at the start of a Recharged phase 2: the edition places it


def _discount(r: _Reader, ctx: Any, s: State) -> int | None:
    """The discount token (R40-R44): as given; left out, filled in where the rules fix it (the start of
    a Recharged phase 2: the lowest plant), else absent outside phase 2 (R44), else refused."""
    has_token = ctx.edition.capabilities["discount_token"]
    if "discount" in r.data:
        d = r.get("discount", (int, type(None)))
        if d is not None and not has_token:
            raise r.fail(f"the {ctx.edition.name} edition has no discount token (R40 is a Recharged "
                         "rule): leave it out or null", "not_allowed", "discount")
        if d is not None and s.phase != Phase.AUCTION:
            raise r.fail(f"the discount token lies on a plant only during phase 2 (R44), not in phase "
                         f"{s.phase}: leave it out or null", "not_allowed", "discount")
        return d
    if not has_token or s.phase != Phase.AUCTION:
        return None
    if "auction_round" in r.data:  # in the middle of phase 2 the token may have been sold or boxed
        raise r.fail("a Recharged position in phase 2 must say where the discount token lies: the "
                     "plant it is on, or null once it was sold or boxed (R40-R43); it can be left out "
                     "only at the start of phase 2 (without auction_round)", "missing", "discount")
    return PLACE_DISCOUNT  # placed by the edition once the game is built (R40)


def _check_invariants(g: Game) -> None:
    """The consistency rules a loaded position must satisfy (cards, tokens, houses, money)."""
    s, ctx = g.s, g.ctx
    state: DataPath = ("state",)
    cards = s.market + s.deck + s.removed + s.boxed + [c for pl in s.plants for c in pl]
    dup = {c for c in cards if cards.count(c) > 1}
    if dup or set(cards) != ALL_CARDS:
        missing = sorted(ALL_CARDS - set(cards))
        raise SaveFileError(f"each of the 42 plants and the Step 3 card must be in exactly one of "
                            f"market, deck, removed, boxed or a player's plants (R118); duplicated "
                            f"{sorted(dup)}, missing {[card_out(c) for c in missing]}", state,
                            "duplicate_card" if dup else "missing_card")
    if any(STEP3 in pl for pl in s.plants) or STEP3 in s.removed:
        raise SaveFileError("the Step 3 card cannot be owned or removed at set-up", state, "misplaced_card")
    totals = ctx.edition.track.totals
    for k, name in enumerate(RESOURCES):
        held = sum(t[k] for t in s.tokens) + (start_markers(g) if k == 3 else 0)  # O23 markers
        if not 0 <= s.res[k] <= totals[k] or min(t[k] for t in s.tokens) < 0 \
                or s.res[k] + held > totals[k]:
            raise SaveFileError(f"{name}: market {s.res[k]} + held {held} must stay within the "
                                f"{totals[k]} tokens of the game (R1)", (*state, "resources", name),
                                "out_of_range", allowed=totals[k])
    for p, name in enumerate(ctx.names):
        pw = (*state, "players", name)
        if s.money[p] < 0:
            raise SaveFileError("money cannot be negative (O2)", (*pw, "money"), "out_of_range")
        if len(s.plants[p]) > ctx.plant_limit + (s.discard == p):
            raise SaveFileError(f"{len(s.plants[p])} plants exceed the limit of {ctx.plant_limit} "
                                "(R36)", (*pw, "plants"), "over_limit", allowed=ctx.plant_limit)
        if s.discard != p and not fits(capacities(s.plants[p]), s.tokens[p]):
            raise SaveFileError(f"tokens {s.tokens[p]} do not fit plants {s.plants[p]} (R49)",
                                (*pw, "tokens"), "over_limit")
        distinct = len(set(s.mine[p])) == len(s.mine[p])
        if not distinct or len(s.mine[p]) > ctx.max_cities:
            raise SaveFileError(f"cities must be distinct and at most {ctx.max_cities} (R57, R67)",
                                (*pw, "cities"), "over_limit" if distinct else "duplicate",
                                allowed=ctx.max_cities)
    for c, owners in s.houses.items():
        at = (*state, "houses", c)
        if c not in ctx.cidx:
            raise SaveFileError(f"{c!r} is not a city of the play area (R4)", at, "unknown_city")
        if len(owners) > s.step or len(set(owners)) != len(owners):
            raise SaveFileError(f"{c}: {len(owners)} houses, Step {s.step} allows {s.step} (R58)", at,
                                "over_limit" if len(set(owners)) == len(owners) else "duplicate",
                                allowed=s.step)
        for p in owners:
            if c not in s.mine[p]:
                raise SaveFileError(f"{c} lists {ctx.names[p]} but their cities do not", at, "mismatch")
    if sum(len(o) for o in s.houses.values()) != sum(len(m) for m in s.mine):
        raise SaveFileError("houses and players' cities disagree", (*state, "houses"), "mismatch")
    if s.discount is not None and s.discount not in s.market:
        raise SaveFileError(f"the discount token lies on {s.discount}, not in the market",
                            (*state, "discount"), "mismatch")
    _check_turn_state(g)


def _check_turn_state(g: Game) -> None:
    """Who is to act must make sense for the phase (otherwise the game could not go on)."""
    s, ctx = g.s, g.ctx
    ar: DataPath = ("state", "auction_round")
    lists = ((("state", "to_act"), s.to_act), ((*ar, "active"), s.active), ((*ar, "bought"), s.bought))
    for at, people in lists:
        if len(set(people)) != len(people):
            raise SaveFileError("lists a player twice", at, "duplicate")
    if s.phase in (Phase.PLAYER_ORDER, Phase.AUCTION, Phase.GAME_OVER) and s.to_act:
        raise SaveFileError(f"phase {s.phase} has no turn list; leave to_act empty", ("state", "to_act"),
                            "not_allowed")
    if s.phase != Phase.AUCTION and (s.auction is not None or s.discard is not None):
        raise SaveFileError("an auction or a discard can only be pending in phase 2", ar, "not_allowed")
    if ctx.trust in s.to_act and s.phase in (Phase.START_CITIES, Phase.BUREAUCRACY):
        raise SaveFileError("the Trust takes no turn in this phase", ("state", "to_act"), "not_allowed")
    if s.discard is not None and len(s.plants[s.discard]) <= ctx.plant_limit:
        raise SaveFileError(f"{ctx.names[s.discard]} is not over the plant limit of {ctx.plant_limit}",
                            (*ar, "discard"), "not_allowed", allowed=ctx.plant_limit)
    if s.auction is not None:
        plant, bid, leader, bidders = s.auction.plant, s.auction.bid, s.auction.leader, s.auction.bidders
        aw = (*ar, "auction")
        if plant not in s.market or plant not in g.current_market():
            raise SaveFileError(f"the auctioned plant {plant} is not in the current market", (*aw, "plant"),
                                "not_allowed")
        if len(bidders) < 2 or len(set(bidders)) != len(bidders) or leader not in bidders \
                or not set(bidders) <= set(s.active) or ctx.trust in bidders:
            raise SaveFileError("at least two distinct active players must bid, the leader among them",
                                (*aw, "bidders"), "not_allowed")
        if not 0 < bid <= s.money[leader]:
            raise SaveFileError(f"the high bid {bid} exceeds {possessive(ctx.names[leader], start=False)} "
                                "money (R31)", (*aw, "bid"), "out_of_range", allowed=s.money[leader])
