"""The mutable game state: plain Python containers, cheap to copy, no rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rules.phases import Phase

if TYPE_CHECKING:
    from .phases.auction import Auction


# How a field is copied (clone, thawed) and snapshot (frozen): what its value is made of.
VALUE = "value"      # immutable (a number, a bool, None, a tuple): shared by copies
LIST = "list"        # a list of immutable values: a copy of the list
LISTS = "lists"      # a list of such lists, one per player: a copy of each
DICT = "dict"        # a dict of immutable values (tuples of owners for houses): a copy of the dict
AUCTION = "auction"  # an Auction or None: Auction.copy()

# The state's fields, in one place, in the order of ``frozen()``'s snapshot: a new field goes here, and
# tests/test_state_fields.py then names every other place to fill in (__init__, clone, frozen and
# thawed below, the compiled engine's state.pxd, the save format in io/saves.py).
FIELDS: tuple[tuple[str, str], ...] = (
    ("round", VALUE), ("phase", VALUE), ("step", VALUE), ("over", VALUE),
    ("order", LIST), ("seats", LIST),
    ("money", LIST), ("plants", LISTS), ("tokens", LISTS), ("houses", DICT), ("mine", LISTS),
    ("market", LIST), ("deck", LIST), ("removed", LIST), ("boxed", LIST),
    ("res", LIST), ("discount", VALUE),
    ("active", LIST), ("bought", LIST), ("auction", AUCTION), ("discard", VALUE), ("first_draw", VALUE),
    ("to_act", LIST), ("step3_from", VALUE), ("flags", DICT), ("marked", LIST), ("counter", VALUE),
    ("top_known", VALUE),
)
FIELD_NAMES: tuple[str, ...] = tuple([name for name, _kind in FIELDS])


class State:
    """Everything that changes during a game. Players are indices; the engine gives them names."""

    __slots__ = FIELD_NAMES

    def __init__(self) -> None:
        self.round = 1
        self.phase = Phase.PLAYER_ORDER  # a Phase: 0 marking start cities, 1..5, 6 game over
        self.step = 1
        self.over = False
        self.order: list[int] = []  # player order (R18); includes the Trust in Trust mode
        self.seats: list[int] = []  # fixed clockwise seats (O3)
        self.money: list[int] = []
        self.plants: list[list[int]] = []
        self.tokens: list[list[int]] = []   # per player: coal, oil, garbage, uranium (R49)
        self.houses: dict[str, tuple[int, ...]] = {}  # city -> owners in slot order (R55)
        self.mine: list[list[str]] = []      # per player: cities in the order built
        self.market: list[int] = []          # sorted (R12)
        self.deck: list[int] = []            # top first
        self.removed: list[int] = []         # boxed unseen at set-up (R10, R11)
        self.boxed: list[int] = []           # boxed face up during play
        self.res: list[int] = [0, 0, 0, 0]   # tokens on the market per type (R82)
        self.discount: int | None = None     # RECH discount token (R40)
        # phase 2
        self.active: list[int] = []          # still in this phase 2, in player order (R25)
        self.bought: list[int] = []          # bought a plant this round
        self.auction: Auction | None = None  # the running auction (R29)
        self.discard: int | None = None      # player who must box a plant (R36)
        self.first_draw = False              # the first replacement of this phase 2 was drawn (R42)
        # phases 0, 3, 4, 5
        self.to_act: list[int] = []
        self.step3_from: tuple[int, int] | None = None  # (round, phase) when Step 3 begins
        self.flags: dict[str, Any] = {}      # map-rule and variant flags
        self.marked: list[str] = []          # start cities (R134)
        self.counter = 0                     # random draws made so far (deck shuffles)
        self.top_known = False               # ORIG: plant 13 known on top of the deck (R10)

    def clone(self) -> State:
        """An independent copy (the engine's hottest path: written out field by field, see FIELDS)."""
        s = State.__new__(State)
        s.round, s.phase, s.step, s.over = self.round, self.phase, self.step, self.over
        s.order, s.seats = self.order[:], self.seats[:]
        s.money = self.money[:]
        s.plants = [p[:] for p in self.plants]
        s.tokens = [t[:] for t in self.tokens]
        s.houses = self.houses.copy()  # owner tuples are immutable
        s.mine = [m[:] for m in self.mine]
        s.market, s.deck = self.market[:], self.deck[:]
        s.removed, s.boxed = self.removed[:], self.boxed[:]
        s.res, s.discount = self.res[:], self.discount
        s.active, s.bought = self.active[:], self.bought[:]
        a = self.auction
        s.auction = None if a is None else a.copy()
        s.discard, s.first_draw = self.discard, self.first_draw
        s.to_act, s.step3_from = self.to_act[:], self.step3_from
        s.flags, s.marked = dict(self.flags), self.marked[:]
        s.counter, s.top_known = self.counter, self.top_known
        return s

    def frozen(self) -> tuple:
        """A snapshot as nested tuples (undo()'s checkpoints): the garbage collector stops tracking
        tuples of numbers and names, so a kept snapshot costs the later collections nothing, where a
        :meth:`clone` is some 40 lists and dicts they walk again and again. :meth:`thawed` inverts it."""
        a = self.auction
        return (self.round, self.phase, self.step, self.over, tuple(self.order), tuple(self.seats),
                tuple(self.money), tuple(map(tuple, self.plants)), tuple(map(tuple, self.tokens)),
                tuple(self.houses.items()), tuple(map(tuple, self.mine)), tuple(self.market),
                tuple(self.deck), tuple(self.removed), tuple(self.boxed), tuple(self.res), self.discount,
                tuple(self.active), tuple(self.bought), None if a is None else a.copy(), self.discard,
                self.first_draw, tuple(self.to_act), self.step3_from, tuple(self.flags.items()),
                tuple(self.marked), self.counter, self.top_known)

    @staticmethod
    def thawed(f: tuple) -> State:
        """A live state from a :meth:`frozen` snapshot (which stays as it is)."""
        s = State.__new__(State)
        (s.round, s.phase, s.step, s.over, order, seats, money, plants, tokens, houses, mine, market, deck,
         removed, boxed, res, s.discount, active, bought, a, s.discard, s.first_draw, to_act, s.step3_from,
         flags, marked, s.counter, s.top_known) = f
        s.order, s.seats, s.money = list(order), list(seats), list(money)
        s.plants, s.tokens = [list(x) for x in plants], [list(x) for x in tokens]
        s.houses, s.mine = dict(houses), [list(x) for x in mine]
        s.market, s.deck, s.removed, s.boxed = list(market), list(deck), list(removed), list(boxed)
        s.res, s.active, s.bought = list(res), list(active), list(bought)
        s.auction = None if a is None else a.copy()
        s.to_act, s.flags, s.marked = list(to_act), dict(flags), list(marked)
        return s
