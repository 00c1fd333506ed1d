"""Save files and scenarios: the game as validated JSON (never pickle), and per-player views."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from powergrid_nb.engine.board.maps import GameMap, MapError, builtin_maps, load_map
from powergrid_nb.engine.errors import SaveFileError
from powergrid_nb.engine.events import Event
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.gamelog import possessive
from powergrid_nb.engine.newgame import check_options, make_context, player_names
from powergrid_nb.engine.phases import rounds
from powergrid_nb.engine.phases.auction import Auction
from powergrid_nb.engine.phases.numbers import Phase
from powergrid_nb.engine.phases.resources import start_markers
from powergrid_nb.engine.rules.editions import EDITIONS, get_edition
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

FORMAT = "powergrid_nb.game"
SCHEMA_VERSION = 2  # 2: the history as typed events; version 1 (prose rows) still loads


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
            "round": s.round, "phase": s.phase, "step": s.step, "over": s.over,
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
            "step3_from": None if s.step3_from is None else list(s.step3_from),
            "flags": dict(s.flags), "marked": list(s.marked),
            "counter": s.counter, "top_known": s.top_known,
        },
        "history": [e.to_row() for e in g.history] if history else [],
    }


def save(g: Game, path: str | Path) -> None:
    """Write the game as JSON (``load`` reads it back): indented, one history event a line."""
    d = game_to_dict(g)
    rows = d.pop("history")
    text = json.dumps(d, ensure_ascii=False, indent=1)
    events = ",\n  ".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in rows)
    text = text[:-2] + (f',\n "history": [\n  {events}\n ]\n}}' if rows else ',\n "history": []\n}')
    Path(path).write_text(text + "\n", encoding="utf-8")


def load(path: str | Path) -> Game:
    """Read a game saved with ``save``; a malformed file raises :class:`SaveFileError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise SaveFileError(f"cannot read: {e.strerror}", str(path)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveFileError(f"not valid JSON (truncated or edited?) at line {e.lineno}, "
                            f"column {e.colno}: {e.msg}", str(path)) from None
    try:
        return game_from_dict(data)
    except SaveFileError as e:
        raise SaveFileError(str(e), str(path)) from None


class _Reader:
    """Typed access to the dict with error messages that say where."""

    def __init__(self, data: Any, where: str) -> None:
        self.data, self.where = data, where

    def fail(self, msg: str, key: str | None = None) -> SaveFileError:
        return SaveFileError(msg, f"{self.where}.{key}" if key else self.where)

    def sub(self, key: str, default: Any = ...) -> _Reader:
        return _Reader(self.get(key, dict, default), f"{self.where}.{key}")

    def get(self, key: str, kind: type | tuple, default: Any = ...) -> Any:
        if not isinstance(self.data, dict):
            raise self.fail("expected an object")
        if key not in self.data:
            if default is ...:
                raise self.fail("missing", key)
            return default
        v = self.data[key]
        if v is None and default is None:
            return None
        if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
            raise self.fail(f"expected an integer, got {v!r}", key)
        if not isinstance(v, kind):
            raise self.fail(f"expected {getattr(kind, '__name__', kind)}, got {v!r}", key)
        return v


def _card_in(v: Any, where: str) -> int:
    if v == STEP3_NAME:
        return STEP3
    if isinstance(v, bool) or not isinstance(v, int) or v not in PLANTS:
        raise SaveFileError(f"{v!r} is not a power plant (03-40, 42, 44, 46, 50) or 'step3'",
                            where)
    return v


def game_from_dict(data: dict[str, Any]) -> Game:
    """Build a game from :meth:`Game.to_dict` output or a hand-written scenario (validated)."""
    top = _Reader(data, "game")
    if top.get("format", str) != FORMAT:
        raise top.fail(f"format must be {FORMAT!r}", "format")
    version = top.get("schema_version", int)
    if version not in (1, SCHEMA_VERSION):
        raise top.fail(f"schema_version {version} is not supported; this engine reads 1 and "
                       f"{SCHEMA_VERSION}", "schema_version")
    cfg = top.sub("config")
    names = [str(n) for n in cfg.get("players", list)]
    edition = cfg.get("edition", str)
    if edition not in EDITIONS:
        raise cfg.fail(f"must be one of {sorted(EDITIONS)}", "edition")
    try:
        player_names(names)
        raw_map = cfg.get("map", (str, dict))
        game_map: GameMap = load_map(raw_map, edition)
        options = check_options(cfg.get("options", dict, {}))
        ed = get_edition(edition, options["rules"])
        k = ed.regions(len(names))
        regions = game_map.validate_regions(cfg.get("regions", list), k)
    except (MapError, ValueError) as e:
        if isinstance(e, SaveFileError):
            raise
        raise cfg.fail(str(e)) from None
    seed = cfg.get("seed", int)
    try:
        ctx = make_context(names, game_map, ed, tuple(regions), seed, options)
    except ValueError as e:
        raise cfg.fail(str(e), "options") from None
    s = _state_from(_Reader(top.get("state", dict), "game.state"), ctx)
    hist = _history_from(top.get("history", list, []), version)
    g = Game(ctx, s, hist)
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
                                    f"game.history[{i}]")
        from .history_v1 import events_from_v1  # only old saves need it: not loaded with the engine

        try:
            return events_from_v1(rows)
        except (ValueError, TypeError, IndexError) as e:
            raise SaveFileError(f"cannot read the version-1 history: {e}", "game.history") from None
    out = []
    for i, row in enumerate(rows):
        try:
            out.append(Event.from_row(row))
        except (ValueError, TypeError) as e:
            raise SaveFileError(f"each event is [kind, round, phase, step, *fields]: {e}",
                                f"game.history[{i}]") from None
    return out


def _state_from(r: _Reader, ctx: Any) -> State:
    idx = ctx.index
    s = State()

    def who(v: Any, where: str) -> int:
        if not isinstance(v, str) or v not in idx:
            raise SaveFileError(f"{v!r} is not a player ({', '.join(ctx.names)})", where)
        return idx[v]

    def people(key: str, rr: _Reader = r, default: Any = ...) -> list[int]:
        if default is not ... and (not isinstance(rr.data, dict) or rr.data.get(key) is None):
            return list(default)  # player indices
        return [who(v, f"{rr.where}.{key}[{i}]") for i, v in enumerate(rr.get(key, list))]

    s.round, s.phase, s.step = r.get("round", int), r.get("phase", int), r.get("step", int)
    if s.round < 1 or not Phase.START_CITIES <= s.phase <= Phase.GAME_OVER or s.step not in (1, 2, 3):
        raise r.fail("round >= 1, phase 0-6 and step 1-3 are required")
    s.phase = Phase(s.phase)
    s.over = bool(r.get("over", bool, s.phase == Phase.GAME_OVER))
    if s.over != (s.phase == Phase.GAME_OVER):
        raise r.fail("over must be true exactly when phase is 6 (game over)", "over")
    s.order = people("player_order")
    s.seats = people("seat_order", default=[p for p in s.order if p != ctx.trust])
    if sorted(s.order) != list(range(len(ctx.names))):
        raise r.fail(f"must list each of {ctx.names} once", "player_order")
    if sorted(s.seats) != ctx.humans:
        raise r.fail(f"must list each player once: {ctx.names[:len(ctx.humans)]}", "seat_order")
    pr = r.sub("players")
    n = len(ctx.names)
    s.money, s.plants, s.mine = [0] * n, [[] for _ in range(n)], [[] for _ in range(n)]
    s.tokens = [[0, 0, 0, 0] for _ in range(n)]
    for name, p in idx.items():
        one = pr.sub(name)
        s.money[p] = one.get("money", int, 0)
        s.plants[p] = [_card_in(c, f"{one.where}.plants") for c in one.get("plants", list, [])]
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
            raise SaveFileError("expected a list of player names in slot order", f"game.state.houses.{c}")
    s.houses = {c: tuple(who(v, f"game.state.houses.{c}") for v in o) for c, o in houses.items()}
    s.market = sorted(_card_in(c, "game.state.market") for c in r.get("market", list))
    s.removed = sorted(_card_in(c, "game.state.removed") for c in r.get("removed", list, []))
    s.boxed = [_card_in(c, "game.state.boxed") for c in r.get("boxed", list, [])]
    if "deck" in r.data:
        s.deck = [_card_in(c, "game.state.deck") for c in r.get("deck", list)]
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
    if s3 is not None and not (len(s3) == 2 and all(type(x) is int for x in s3)):
        raise r.fail("must be null or [round, phase] (when Step 3 begins)", "step3_from")
    s.step3_from = None if s3 is None else (s3[0], s3[1])
    s.flags = dict(r.get("flags", dict, {}))
    s.marked = [str(c) for c in r.get("marked", list, [])]
    s.counter = r.get("counter", int, 0)
    s.top_known = r.get("top_known", bool, False)
    turns = rounds.turns(ctx, s.order, s.phase)
    s.to_act = people("to_act", default=turns if s.phase != Phase.AUCTION else [])
    ar = r.sub("auction_round", {})
    s.active = people("active", ar, turns if s.phase == Phase.AUCTION else [])
    s.bought = people("bought", ar, [])
    s.first_draw = ar.get("first_draw", bool, False)
    d = ar.get("discard", (str, type(None)), None)
    s.discard = None if d is None else who(d, "game.state.auction_round.discard")
    a = ar.get("auction", (dict, type(None)), None)
    if a is not None:
        ra = ar.sub("auction")
        s.auction = Auction(ra.get("plant", int), ra.get("bid", int),
                            who(ra.get("leader", str), f"{ra.where}.leader"), people("bidders", ra))
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
                         "rule): leave it out or null", "discount")
        if d is not None and s.phase != Phase.AUCTION:
            raise r.fail(f"the discount token lies on a plant only during phase 2 (R44), not in phase "
                         f"{s.phase}: leave it out or null", "discount")
        return d
    if not has_token or s.phase != Phase.AUCTION:
        return None
    if "auction_round" in r.data:  # in the middle of phase 2 the token may have been sold or boxed
        raise r.fail("a Recharged position in phase 2 must say where the discount token lies: the "
                     "plant it is on, or null once it was sold or boxed (R40-R43); it can be left out "
                     "only at the start of phase 2 (without auction_round)", "discount")
    return PLACE_DISCOUNT  # placed by the edition once the game is built (R40)


def _check_invariants(g: Game) -> None:
    """The consistency rules a loaded position must satisfy (cards, tokens, houses, money)."""
    s, ctx = g.s, g.ctx
    where = "game.state"
    cards = s.market + s.deck + s.removed + s.boxed + [c for pl in s.plants for c in pl]
    dup = {c for c in cards if cards.count(c) > 1}
    if dup or set(cards) != ALL_CARDS:
        missing = sorted(ALL_CARDS - set(cards))
        raise SaveFileError(f"each of the 42 plants and the Step 3 card must be in exactly one of "
                            f"market, deck, removed, boxed or a player's plants (R118); duplicated "
                            f"{sorted(dup)}, missing {[card_out(c) for c in missing]}", where)
    if any(STEP3 in pl for pl in s.plants) or STEP3 in s.removed:
        raise SaveFileError("the Step 3 card cannot be owned or removed at set-up", where)
    totals = ctx.edition.track.totals
    for k, name in enumerate(RESOURCES):
        held = sum(t[k] for t in s.tokens) + (start_markers(g) if k == 3 else 0)  # O23 markers
        if not 0 <= s.res[k] <= totals[k] or min(t[k] for t in s.tokens) < 0 \
                or s.res[k] + held > totals[k]:
            raise SaveFileError(f"{name}: market {s.res[k]} + held {held} must stay within the "
                                f"{totals[k]} tokens of the game (R1)", f"{where}.resources")
    for p, name in enumerate(ctx.names):
        pw = f"{where}.players.{name}"
        if s.money[p] < 0:
            raise SaveFileError("money cannot be negative (O2)", pw)
        if len(s.plants[p]) > ctx.plant_limit + (s.discard == p):
            raise SaveFileError(f"{len(s.plants[p])} plants exceed the limit of {ctx.plant_limit} "
                                "(R36)", pw)
        if s.discard != p and not fits(capacities(s.plants[p]), s.tokens[p]):
            raise SaveFileError(f"tokens {s.tokens[p]} do not fit plants {s.plants[p]} (R49)", pw)
        if len(set(s.mine[p])) != len(s.mine[p]) or len(s.mine[p]) > ctx.max_cities:
            raise SaveFileError(f"cities must be distinct and at most {ctx.max_cities} (R57, R67)", pw)
    for c, owners in s.houses.items():
        if c not in ctx.cidx:
            raise SaveFileError(f"{c!r} is not a city of the play area (R4)", f"{where}.houses")
        if len(owners) > s.step or len(set(owners)) != len(owners):
            raise SaveFileError(f"{c}: {len(owners)} houses, Step {s.step} allows {s.step} (R58)",
                                f"{where}.houses")
        for p in owners:
            if c not in s.mine[p]:
                raise SaveFileError(f"{c} lists {ctx.names[p]} but their cities do not",
                                    f"{where}.houses")
    if sum(len(o) for o in s.houses.values()) != sum(len(m) for m in s.mine):
        raise SaveFileError("houses and players' cities disagree", f"{where}.houses")
    if s.discount is not None and s.discount not in s.market:
        raise SaveFileError(f"the discount token lies on {s.discount}, not in the market",
                            f"{where}.discount")
    _check_turn_state(g)


def _check_turn_state(g: Game) -> None:
    """Who is to act must make sense for the phase (otherwise the game could not go on)."""
    s, ctx = g.s, g.ctx
    where = "game.state.auction_round"
    for key, people in (("to_act", s.to_act), ("active", s.active), ("bought", s.bought)):
        if len(set(people)) != len(people):
            raise SaveFileError("lists a player twice", f"game.state.{key}")
    if s.phase in (Phase.PLAYER_ORDER, Phase.AUCTION, Phase.GAME_OVER) and s.to_act:
        raise SaveFileError(f"phase {s.phase} has no turn list; leave to_act empty", "game.state.to_act")
    if s.phase != Phase.AUCTION and (s.auction is not None or s.discard is not None):
        raise SaveFileError("an auction or a discard can only be pending in phase 2", where)
    if ctx.trust in s.to_act and s.phase in (Phase.START_CITIES, Phase.BUREAUCRACY):
        raise SaveFileError("the Trust takes no turn in this phase", "game.state.to_act")
    if s.discard is not None and len(s.plants[s.discard]) <= ctx.plant_limit:
        raise SaveFileError(f"{ctx.names[s.discard]} is not over the plant limit of {ctx.plant_limit}",
                            f"{where}.discard")
    if s.auction is not None:
        plant, bid, leader, bidders = s.auction.plant, s.auction.bid, s.auction.leader, s.auction.bidders
        aw = f"{where}.auction"
        if plant not in s.market or plant not in g.current_market():
            raise SaveFileError(f"the auctioned plant {plant} is not in the current market", aw)
        if len(bidders) < 2 or len(set(bidders)) != len(bidders) or leader not in bidders \
                or not set(bidders) <= set(s.active) or ctx.trust in bidders:
            raise SaveFileError("bidders: at least two distinct active players, the leader among them",
                                aw)
        if not 0 < bid <= s.money[leader]:
            raise SaveFileError(f"the high bid {bid} exceeds {possessive(ctx.names[leader], start=False)} "
                                "money (R31)", aw)
