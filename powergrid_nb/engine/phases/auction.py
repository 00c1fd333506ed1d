"""Phase 2: auctions of power plants (R24-R44)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from powergrid_nb.engine.actionlist import ActionList, BidRun
from powergrid_nb.engine.actions import Action, Bid, Discard, Open, Pass
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.events import PlantBought, PlantBoxed
from powergrid_nb.engine.gamelog import possessive, their, they, verb
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import capacities, fits, keep_options

from .base import PhaseRules
from .playerorder import reorder
from .steps import current_market, draw, end_phase2_step3_cleanup

if TYPE_CHECKING:
    from powergrid_nb.engine.context import Context
    from powergrid_nb.engine.game import Game


class Auction:
    """A running auction (R29): the plant, the high bid and its bidder, and who still bids, the next
    to act first (in rotation order, the leader last)."""

    __slots__ = ("plant", "bid", "leader", "bidders")

    def __init__(self, plant: int, bid: int, leader: int, bidders: list[int]) -> None:
        self.plant, self.bid, self.leader, self.bidders = plant, bid, leader, bidders

    def copy(self) -> Auction:
        return Auction(self.plant, self.bid, self.leader, self.bidders[:])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Auction) and (self.plant, self.bid, self.leader, self.bidders) == (
            other.plant, other.bid, other.leader, other.bidders)

    def __repr__(self) -> str:
        return f"Auction(plant={self.plant}, bid={self.bid}, leader={self.leader}, bidders={self.bidders})"


class BidChoices(NamedTuple):
    """A bidder's decisions in phase 2 in short (the actions of :func:`legal` are these, in order):
    the plants that may be opened, each with its bids (R28, R30, R31, R40); the bids that raise a
    running auction (R29, R31); whether passing is allowed (R35)."""

    openings: dict[int, range]
    raises: range
    may_pass: bool


def choices(g: Game, p: int) -> BidChoices:
    """``p``'s auction decisions now (``p`` to act in phase 2, nobody discarding)."""
    if g.s.auction is not None:
        return BidChoices({}, raises(g, p), True)
    opens, top = openings(g, p), g.s.money[p] + 1
    return BidChoices({x: range(lo, top) for x, lo in opens.items()}, range(0), may_pass(g, opens))


def raises(g: Game, p: int) -> range:
    """The bids ``p`` may make in the running auction: above the high bid, up to their money (R29, R31)."""
    return range(g.s.auction.bid + 1, g.s.money[p] + 1)  # type: ignore[union-attr]


def openings(g: Game, p: int) -> dict[int, int]:
    """The plants ``p`` may open an auction for, each with its lowest bid: the current market only
    (R30), from the minimum bid (R28, R40) up to their money (R31)."""
    money = g.s.money[p]
    out = {}
    min_bid = g.ctx.edition.min_bid
    for plant in current_market(g):
        lo = min_bid(g, plant)
        if lo <= money:
            out[plant] = lo
    return out


def may_pass(g: Game, opens: dict[int, int]) -> bool:
    """Whether passing on opening is allowed: not in round 1 while a plant is affordable (R35)."""
    return g.s.round > 1 or not opens


def legal(g: Game, p: int) -> ActionList | list[Action]:
    """``p``'s decisions in phase 2, the bids as ranges (R28-R36): as long at any money."""
    s, name = g.s, g.ctx.names[p]
    if s.discard == p:
        return discard_options(g, p)
    money = s.money[p]
    pass_ = [g.ctx.pass_action[p]]
    if s.auction is not None:
        bids = raises(g, p)
        return ActionList([BidRun(name, None, bids.start, bids.stop - 1), pass_])  # R29: may always pass
    opens = openings(g, p)
    parts: list[Sequence[Action]] = [BidRun(name, plant, lo, money) for plant, lo in opens.items()]
    if may_pass(g, opens):
        parts.append(pass_)
    return ActionList(parts)


def discard_options(g: Game, p: int) -> list[Action]:
    s, name = g.s, g.ctx.names[p]
    out: list[Action] = []
    for plant in s.plants[p][:-1]:  # R36: never the plant just bought (kept last)
        rest = [x for x in s.plants[p] if x != plant]
        out += [Discard(name, plant, keep) for keep in keep_options(rest, s.tokens[p])]
    return out


def apply(g: Game, a: Action, p: int) -> None:
    s = g.s
    if s.discard is not None:
        if not isinstance(a, Discard):
            name = g.ctx.names[p]
            raise IllegalAction(f"{name} must first box one of {their(name)} plants "
                                f"(over the limit of {g.plant_limit})", "R36", a)
        return _discard(g, a, p)
    if isinstance(a, Discard):
        raise IllegalAction("nobody is over the plant limit now", "R36", a)
    if s.auction is not None:
        if isinstance(a, Open):
            raise IllegalAction(f"an auction for plant {s.auction.plant} is running: bid above "
                                f"{s.auction.bid} or pass", "R29", a)
        if isinstance(a, Pass):
            return _drop(g, p)
        return _raise(g, a, p)  # type: ignore[arg-type]
    if isinstance(a, Bid):
        raise IllegalAction("no auction is running: open one with a plant and a bid, or pass",
                            "R26", a)
    if isinstance(a, Pass):
        if s.round == 1 and any(g.ctx.edition.min_bid(g, c) <= s.money[p] for c in current_market(g)):
            raise IllegalAction("every player must buy a plant in round 1", "R35", a)
        s.active.remove(p)
        return None
    return _open(g, a, p)  # type: ignore[arg-type]


def _open(g: Game, a: Open, p: int) -> None:
    s = g.s
    cur = current_market(g)
    if a.plant not in cur:
        where = "is in the future market" if a.plant in s.market else "is not in the market"
        raise IllegalAction(f"plant {a.plant} {where}; the current market is "
                            f"{', '.join(map(str, cur)) or 'empty'}", "R28", a)
    lo = g.ctx.edition.min_bid(g, a.plant)
    if a.bid < lo:
        raise IllegalAction(f"the minimum bid for plant {a.plant} is {lo}", "R28", a)
    if a.bid > s.money[p]:
        raise IllegalAction(f"bid {a.bid} exceeds {possessive(g.ctx.names[p], start=False)} {s.money[p]} "
                            "Elektro", "R31", a)
    ring = s.seats if g.ctx.options["bidding"] == "seat" else s.order
    i = ring.index(p)
    active = set(s.active)
    rivals = [q for q in ring[i + 1:] + ring[:i] if q in active and q != g.ctx.trust]
    s.auction = Auction(a.plant, a.bid, p, [*rivals, p])
    if not rivals:
        _sell(g)


def _raise(g: Game, a: Bid, p: int) -> None:
    s = g.s
    auction = s.auction
    assert auction is not None
    plant, high = auction.plant, auction.bid
    if a.amount <= high:
        raise IllegalAction(f"the bid for plant {plant} stands at {high}; raise to at least "
                            f"{high + 1} or pass", "R29", a)
    if a.amount > s.money[p]:
        raise IllegalAction(f"bid {a.amount} exceeds {possessive(g.ctx.names[p], start=False)} "
                            f"{s.money[p]} Elektro", "R31", a)
    bidders = auction.bidders
    bidders.append(bidders.pop(0))
    auction.bid, auction.leader = a.amount, p


def _drop(g: Game, p: int) -> None:
    bidders = g.s.auction.bidders  # type: ignore[union-attr]
    bidders.pop(0)
    if len(bidders) == 1:
        _sell(g)


def _sell(g: Game) -> None:
    """R30: the last bidder pays and takes the plant; R32 replacement; R36 limit."""
    s = g.s
    auction = s.auction
    assert auction is not None
    s.auction = None
    take_plant(g, auction.leader, auction.plant, auction.bid)


def take_plant(g: Game, p: int, plant: int, price: int) -> None:
    """Move a plant from the market to a participant for ``price`` (a sale, or the Trust's for 0),
    then R32 and R36."""
    s = g.s
    s.money[p] -= price
    s.market.remove(plant)
    s.plants[p].append(plant)
    s.bought.append(p)
    s.active.remove(p)
    if s.discount == plant:
        s.discount = None  # R41
    g._event(PlantBought, g.ctx.names[p], plant, price)
    for rule in g.ctx.map_rules:
        rule.on_acquire(g, p, plant)
    card = draw(g)
    g.ctx.edition.after_sale_draw(g, card)
    g.ctx.edition.market_changed(g)
    if len(s.plants[p]) > g.plant_limit:
        if p == g.ctx.trust:  # O22: the Trust's policy chooses
            low = g.ctx.trust_policy.box(g, s.plants[p])  # type: ignore[union-attr]
            s.plants[p].remove(low)
            s.boxed.append(low)
            g._event(PlantBoxed, g.ctx.names[p], low, "R36", "the Trust boxes its lowest plant", None)
        else:
            s.discard = p


def default_keep(g: Game, options: list[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
    """O10: of the maximal keeps, the one holding more of the type with the higher market price."""
    track = g.ctx.edition.track
    price = [track.next_price(k, g.s.res[k]) or 9 for k in range(2)]  # an empty track: dearest
    return max(options, key=lambda keep: keep[0] * price[0] + keep[1] * price[1])


def _discard(g: Game, a: Discard, p: int) -> None:
    s = g.s
    own = s.plants[p]
    if a.plant not in own:
        name = g.ctx.names[p]
        raise IllegalAction(f"{name} {verb(name, 'does')} not own plant {a.plant}; {they(name)} own "
                            f"{', '.join(map(str, own))}", "R36", a)
    if a.plant == own[-1]:
        raise IllegalAction(f"plant {a.plant} was just bought and cannot be the one boxed; box "
                            f"one of {', '.join(map(str, own[:-1]))}", "R36", a)
    rest = [x for x in own if x != a.plant]
    best = keep_options(rest, s.tokens[p])
    keep = default_keep(g, best) if a.keep is None else a.keep
    if any(k < 0 or k > t for k, t in zip(keep, s.tokens[p], strict=True)) \
            or not fits(capacities(rest), keep):
        raise IllegalAction(f"cannot keep {list(keep)} (coal, oil, garbage, uranium) on plants "
                            f"{rest}; the most that fits is e.g. {list(best[0])}", "R37", a)
    own.remove(a.plant)
    s.boxed.append(a.plant)
    s.tokens[p] = list(keep)
    s.discard = None
    g._event(PlantBoxed, g.ctx.names[p], a.plant, "R36", "boxed by its owner", tuple(keep))


class AuctionPhase(PhaseRules):
    """Phase 2 (R24-R44): in player order each player opens an auction or passes."""

    number, name, actions = Phase.AUCTION, Phase.AUCTION.label, (Open, Bid, Pass, Discard)

    def turns(self, ctx: Context, order: list[int]) -> list[int]:
        return order[:]  # R25: who may still open, in player order

    def current(self, g: Game) -> int | None:
        s = g.s
        if s.discard is not None:
            return s.discard
        if s.auction is not None:
            return s.auction.bidders[0]
        return s.active[0] if s.active else None

    legal = staticmethod(legal)  # type: ignore[assignment]
    apply = staticmethod(apply)  # type: ignore[assignment]

    def enter(self, g: Game) -> None:
        s = g.s
        s.active, s.bought, s.auction, s.first_draw = self.turns(g.ctx, s.order), [], None, False
        s.flags.pop("trust_plant", None)
        g.ctx.edition.start_phase2(g)
        if not current_market(g):
            s.active = []  # O13: nothing to auction

    def exit(self, g: Game) -> Phase:
        g.ctx.edition.end_phase2(g)
        end_phase2_step3_cleanup(g)
        if g.s.round == 1:
            reorder(g)  # R21
        return Phase.RESOURCES


AUCTION = AuctionPhase()
