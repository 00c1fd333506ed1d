"""The game's history as typed events: a kind plus named fields, and a sentence for the game log.

Every event knows when it happened (``round``, ``phase``, ``step``) and adds its own fields. The engine
records them as plain tuples while it plays (cheap); :attr:`Game.history` hands out these objects.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from .actions import Action, Bid, Build, BuyResources, Discard, Done, MarkCity, Open, Pass, Power
from .rules.phases import PHASE_NAMES, Phase
from .rules.plants import RESOURCES, STEP3

__all__ = [
    "EVENT_TYPES", "CardDrawn", "Decision", "Discount", "Event", "GameOver", "HouseBuilt", "Income",
    "MapRuleApplied", "MarketAtRoundStart", "PhaseBegins", "PlantBought", "PlantBoxed", "PlantUnderDeck",
    "PlantsRun", "PlayerOrder", "Refill", "StepBegins", "TokensBought", "TrustFuel", "tokens_text",
]

Tokens = tuple[int, int, int, int]  # coal, oil, garbage, uranium


def tokens_text(tokens: Tokens | list[int]) -> str:
    """``2 coal and 1 oil``; ``nothing`` for none."""
    parts = [f"{n} {r}" for r, n in zip(RESOURCES, tokens, strict=True) if n]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _plants_text(plants: tuple[int, ...]) -> str:
    if not plants:
        return "no plants"
    return ("plant " if len(plants) == 1 else "plants ") + ", ".join(map(str, plants))


_TYPE_WORDS = {"int": "an integer", "str": "text", "int | None": "an integer or null",
               "str | None": "text or null", "Tokens": "four integers (coal, oil, garbage, uranium)",
               "Tokens | None": "null or four integers (coal, oil, garbage, uranium)",
               "tuple[int, ...]": "a list of integers", "tuple[str, ...]": "a list of texts",
               "tuple[tuple[str, int], ...]": "a list of [name, integer] pairs"}


def _holds(v: Any, kind: str) -> bool:
    """Whether ``v`` is of the field type spelt ``kind`` (the events' annotations, as text: ``int``,
    ``Tokens | None``, ``tuple[str, ...]``, ``tuple[tuple[str, int], ...]``, ...)."""
    if kind.endswith(" | None"):
        return v is None or _holds(v, kind[:-7])
    if kind == "Tokens":
        kind = "tuple[int, int, int, int]"
    if kind.startswith("tuple[") and kind.endswith("]"):
        inner = kind[6:-1]
        if not isinstance(v, tuple):
            return False
        if inner.endswith(", ..."):
            return all(_holds(x, inner[:-5]) for x in v)
        parts = [k.strip() for k in inner.split(",")]  # a fixed tuple of plain types
        return len(v) == len(parts) and all(_holds(x, k) for x, k in zip(v, parts, strict=True))
    if kind == "int":
        return isinstance(v, int) and not isinstance(v, bool)
    if kind in ("str", "Action"):
        return isinstance(v, str if kind == "str" else Action)
    raise TypeError(f"an event field of a type the reader does not know: {kind}")


def _card(plant: int) -> str:
    return "the Step 3 card" if plant == STEP3 else f"plant {plant}"


@dataclass(frozen=True, slots=True)
class Event:
    """When an event happened: the round, the phase (0-6) and the step (1-3)."""

    round: int
    phase: int
    step: int

    kind: ClassVar[str] = ""
    player_field: ClassVar[bool] = False

    @property
    def who(self) -> str | None:
        """The participant the event is about (None for the game's own doings)."""
        return getattr(self, "player", None)

    @property
    def money_delta(self) -> int:
        """Elektro the event moved to (+) or from (-) :attr:`who`."""
        return 0

    def text(self) -> str:
        """The event as a sentence of the game log."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"kind": ..., "round": ..., ...}`` (tuples become lists)."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, Action):
                v = v.to_dict()
            elif isinstance(v, Phase):  # plain JSON numbers, as the save format writes them
                v = int(v)
            elif isinstance(v, tuple):
                v = [list(x) if isinstance(x, tuple) else x for x in v]
            out[f.name] = v
        return out

    def to_row(self) -> list[Any]:
        """The compact save-file form: ``[kind, round, phase, step, *fields]`` in field order; a
        decision's action as its text (``"Ada: bid 15"``). Trailing fields at their defaults are left
        out (fields added later: older files, without them, read the same)."""
        out: list[Any] = [self.kind]
        spec = fields(self)
        while spec and spec[-1].default is not MISSING and getattr(self, spec[-1].name) == spec[-1].default:
            spec = spec[:-1]
        for f in spec:
            v = getattr(self, f.name)
            if isinstance(v, Action):
                v = str(v)
            elif isinstance(v, Phase):
                v = int(v)
            elif isinstance(v, tuple):
                v = [list(x) if isinstance(x, tuple) else x for x in v]
            out.append(v)
        return out

    @staticmethod
    def from_row(row: list[Any]) -> Event:
        """Rebuild an event from :meth:`to_row` output; ValueError if it is not one."""
        if not isinstance(row, list) or not row or row[0] not in EVENT_TYPES:
            raise ValueError(f"not an event: {row!r}")
        cls = EVENT_TYPES[row[0]]
        names = [f.name for f in fields(cls)]
        required = sum(f.default is MISSING for f in fields(cls))
        if not required < len(row) <= len(names) + 1:
            many = f"{len(names)}" if required == len(names) else f"{required} to {len(names)}"
            raise ValueError(f"a {row[0]!r} event has {many} values ({', '.join(names)}): {row!r}")
        values = []
        for name, v in zip(names, row[1:], strict=False):
            if name == "action":
                if not isinstance(v, str):
                    raise ValueError(f"a decision's action is text such as 'Ada: bid 15', not {v!r}")
                v = Action.parse(v)
            elif isinstance(v, list):
                v = tuple(tuple(x) if isinstance(x, list) else x for x in v)
            values.append(v)
        event = cls(*values)
        event.check()
        return event

    def check(self) -> None:
        """ValueError unless each field holds a value of its type and the event reads as a sentence (an
        event read from a file may hold anything: a list where a number belongs, a phase that is none)."""
        for f in fields(self):
            v = getattr(self, f.name)
            if not _holds(v, str(f.type)):
                want = _TYPE_WORDS.get(str(f.type), f.type)
                raise ValueError(f"a {self.kind!r} event's {f.name} must be {want}, not {v!r}")
        try:
            self.text()
        except (LookupError, TypeError, ValueError) as e:
            raise ValueError(f"a {self.kind!r} event that cannot be told ({type(e).__name__}: {e}): "
                             f"{self.to_row()!r}") from None

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Event:
        """Rebuild an event from :meth:`to_dict` output; ValueError if it is not one."""
        try:
            cls = EVENT_TYPES[d["kind"]]
            values = []
            for f in fields(cls):
                v = d[f.name] if f.default is MISSING or f.name in d else f.default
                if f.name == "action":
                    v = Action.from_dict(v)
                elif isinstance(v, list):
                    v = tuple(tuple(x) if isinstance(x, list) else x for x in v)
                values.append(v)
        except (KeyError, TypeError) as e:
            raise ValueError(f"not an event: {d!r}") from e
        return cls(*values)

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class Decision(Event):
    """A player's decision, as applied."""

    player: str
    action: Action
    kind: ClassVar[str] = "decision"

    def text(self) -> str:
        return _DECISION_TEXT[type(self.action)](self.action)


@dataclass(frozen=True, slots=True)
class PhaseBegins(Event):
    """A phase starts (R13); ``number`` as in :attr:`Game.phase`."""

    number: int
    kind: ClassVar[str] = "phase"

    def text(self) -> str:
        if self.number == Phase.PLAYER_ORDER:
            return f"Round {self.round} begins."
        return f"Phase {self.number}: {PHASE_NAMES[self.number]}."


@dataclass(frozen=True, slots=True)
class MarketAtRoundStart(Event):
    """The resource market as the round starts (tokens on the market)."""

    tokens: Tokens
    kind: ClassVar[str] = "market"

    def text(self) -> str:
        return f"The resource market holds {tokens_text(self.tokens)}."


@dataclass(frozen=True, slots=True)
class PlayerOrder(Event):
    """The player order is set (R18-R22, R129)."""

    order: tuple[str, ...]
    kind: ClassVar[str] = "order"

    def text(self) -> str:
        return f"Player order: {', '.join(self.order)}."


@dataclass(frozen=True, slots=True)
class Discount(Event):
    """Recharged's discount token is placed on ``plant`` (R40), or removed (``plant`` None, R42/R44)."""

    plant: int | None
    rule: str
    kind: ClassVar[str] = "discount"

    def text(self) -> str:
        if self.plant is None:
            return f"The discount token is removed ({self.rule})."
        return f"The discount token lies on plant {self.plant}: it opens at 1 ({self.rule})."


@dataclass(frozen=True, slots=True)
class PlantBought(Event):
    """A participant takes a plant: bought at auction for ``price``, or the Trust's for free (R130)."""

    player: str
    plant: int
    price: int
    kind: ClassVar[str] = "plant"

    @property
    def money_delta(self) -> int:
        return -self.price

    def text(self) -> str:
        if not self.price:
            return f"{self.player} takes plant {self.plant}."
        return f"{self.player} buys plant {self.plant} for {self.price} Elektro."


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """A card is drawn from the deck into the market (R32); 99 is the Step 3 card."""

    plant: int
    kind: ClassVar[str] = "draw"

    def text(self) -> str:
        return f"{_card(self.plant).capitalize()} is drawn."


@dataclass(frozen=True, slots=True)
class PlantBoxed(Event):
    """A card leaves the game: by the rule ``rule``, or by its owner ``player`` (R36), keeping ``kept``."""

    player: str | None
    plant: int
    rule: str
    reason: str
    kept: Tokens | None
    kind: ClassVar[str] = "box"

    def text(self) -> str:
        if self.player is not None and self.kept is not None:
            return (f"{self.player} boxes plant {self.plant} and keeps {tokens_text(self.kept)} "
                    f"({self.rule}).")
        card = f"{self.player}'s {_card(self.plant)}" if self.player else _card(self.plant).capitalize()
        return f"{card} is boxed: {self.reason} ({self.rule})."


@dataclass(frozen=True, slots=True)
class PlantUnderDeck(Event):
    """The highest future plant goes under the deck (R84)."""

    plant: int
    kind: ClassVar[str] = "under"

    def text(self) -> str:
        return f"Plant {self.plant} goes under the deck (R84)."


@dataclass(frozen=True, slots=True)
class TokensBought(Event):
    """A player buys tokens (coal, oil, garbage, uranium) for ``cost`` (R50)."""

    player: str
    tokens: Tokens
    cost: int
    kind: ClassVar[str] = "buy"

    @property
    def money_delta(self) -> int:
        return -self.cost

    def text(self) -> str:
        return f"{self.player} buys {tokens_text(self.tokens)} for {self.cost} Elektro."


@dataclass(frozen=True, slots=True)
class TrustFuel(Event):
    """The Trust takes one run's fuel from the market without paying (R131)."""

    player: str
    tokens: Tokens
    kind: ClassVar[str] = "trust_fuel"

    def text(self) -> str:
        return f"{self.player} takes {tokens_text(self.tokens)} from the market (R131)."


@dataclass(frozen=True, slots=True)
class HouseBuilt(Event):
    """A participant builds a house in ``city`` for ``cost`` (slot and links, R56-R61)."""

    player: str
    city: str
    cost: int
    kind: ClassVar[str] = "house"

    @property
    def money_delta(self) -> int:
        return -self.cost

    def text(self) -> str:
        if not self.cost:
            return f"{self.player} builds in {self.city}."
        return f"{self.player} builds in {self.city} for {self.cost} Elektro."


def fewer_text(powered: int, possible: int | None, forgone: int, kept: int | None) -> str:
    """Why a run powers fewer cities than the most possible (R99), in words: "not the 3 possible: 11
    Elektro less income for 12 Elektro of tokens kept (at today's market prices)"; "" at the most."""
    if possible is None or possible <= powered:
        return ""
    why = f"{forgone} Elektro less income"
    if kept:
        why += f" for {kept} Elektro of tokens kept (at today's market prices)"
    return f"not the {possible} possible: {why}"


@dataclass(frozen=True, slots=True)
class PlantsRun(Event):
    """A player runs ``plants``, burning ``burnt`` tokens, and powers ``powered`` cities (R72-R77)."""

    player: str
    plants: tuple[int, ...]
    burnt: Tokens
    powered: int
    possible: int | None = None  # the most the player could power (R99); None in old histories
    forgone: int = 0             # income given up against that most
    kept: int | None = None      # market price of the tokens not burnt against the cheapest such run
    kind: ClassVar[str] = "powered"

    def text(self) -> str:
        burn = "" if not any(self.burnt) else f", burning {tokens_text(self.burnt)},"
        cities = "city" if self.powered == 1 else "cities"
        out = f"{self.player} runs {_plants_text(self.plants)}{burn} and powers {self.powered} {cities}"
        why = fewer_text(self.powered, self.possible, self.forgone, self.kept)
        return f"{out}, {why}." if why else out + "."


@dataclass(frozen=True, slots=True)
class Income(Event):
    """A player's income for ``powered`` cities (R76)."""

    player: str
    powered: int
    income: int
    kind: ClassVar[str] = "income"

    @property
    def money_delta(self) -> int:
        return self.income

    def text(self) -> str:
        return f"{self.player} earns {self.income} Elektro."


@dataclass(frozen=True, slots=True)
class Refill(Event):
    """``tokens`` of ``resource`` move from the supply to the market (R78-R81)."""

    resource: str
    tokens: int
    kind: ClassVar[str] = "refill"

    def text(self) -> str:
        return f"{self.tokens} {self.resource} refill the market."


@dataclass(frozen=True, slots=True)
class StepBegins(Event):
    """Step ``new_step`` begins (R89, R93)."""

    new_step: int
    rule: str
    kind: ClassVar[str] = "step"

    def text(self) -> str:
        return f"Step {self.new_step} begins ({self.rule})."


@dataclass(frozen=True, slots=True)
class MapRuleApplied(Event):
    """A map rule takes effect, triggered by ``player`` taking ``plant`` (R125)."""

    player: str
    plant: int
    rule: str
    reason: str
    kind: ClassVar[str] = "rule"

    def text(self) -> str:
        return f"{self.player} takes plant {self.plant}: {self.reason} ({self.rule})."


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ends (R96); ``scores``: cities each player can power (R99)."""

    scores: tuple[tuple[str, int], ...]
    kind: ClassVar[str] = "game_over"

    def text(self) -> str:
        board = ", ".join(f"{n} {v}" for n, v in self.scores)
        return f"The game ends (R96). Cities powered: {board}."


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls for cls in (
        Decision, PhaseBegins, MarketAtRoundStart, PlayerOrder, Discount, PlantBought, CardDrawn,
        PlantBoxed, PlantUnderDeck, TokensBought, TrustFuel, HouseBuilt, PlantsRun, Income, Refill,
        StepBegins, MapRuleApplied, GameOver)}


def _keep_text(a: Discard) -> str:
    return "the most tokens that fit" if a.keep is None else tokens_text(a.keep)


_DECISION_TEXT: dict[type[Action], Any] = {
    Open: lambda a: f"{a.player} opens an auction for plant {a.plant} at {a.bid}.",
    Bid: lambda a: f"{a.player} bids {a.amount}.",
    Pass: lambda a: f"{a.player} passes.",
    Discard: lambda a: f"{a.player} chooses to box plant {a.plant} and keep {_keep_text(a)}.",
    BuyResources: lambda a: f"{a.player} buys {tokens_text(a.amounts)}.",  # the words of its outcome
    Build: lambda a: f"{a.player} builds in {', '.join(a.cities)}.",
    Done: lambda a: f"{a.player} is done.",
    Power: lambda a: (f"{a.player} runs {_plants_text(a.plants)}"
                      + ("" if a.hybrid_coal is None else f" with {a.hybrid_coal} coal in the hybrids")
                      + "."),
    MarkCity: lambda a: f"{a.player} marks {a.city} as a start city.",
}
