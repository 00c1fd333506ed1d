"""Actions: small immutable decisions with a readable text form (``"Ada: bid 15"``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from .rules.plants import PLANTS, RESOURCES


def _action(cls: type[_A]) -> type[_A]:
    """Make ``cls`` a frozen, slotted dataclass and register its kind for parsing and loading."""
    out = dataclass(frozen=True, slots=True, repr=False, init="__init__" not in cls.__dict__)(cls)
    Action._registry[out.kind] = out
    return out


@dataclass(frozen=True, slots=True, repr=False)
class Action:
    """A decision of one player. Immutable, hashable, comparable; ``str`` gives its text form."""

    player: str
    kind: ClassVar[str] = ""
    fields: ClassVar[tuple[str, ...]] = ()
    _registry: ClassVar[dict[str, type[Action]]] = {}

    def _values(self) -> tuple:
        return tuple(getattr(self, f) for f in ("player", *self.fields))

    def __repr__(self) -> str:
        args = ", ".join(repr(v) for v in self._values())
        return f"{type(self).__name__}({args})"

    def __str__(self) -> str:
        return f"{self.player}: {self._text()}"

    def _text(self) -> str:
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.kind, "player": self.player}
        for f in self.fields:
            v = getattr(self, f)
            d[f] = list(v) if isinstance(v, tuple) else v
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Action:
        """Rebuild an action from :meth:`to_dict` output."""
        try:
            cls = Action._registry[d["type"]]
            args = [d[f] for f in ("player", *cls.fields) if f in d]
        except (KeyError, TypeError) as e:
            raise ValueError(f"not an action dict: {d!r}") from e
        if cls is Build:
            return Build(d["player"], *d.get("cities", ()))
        return cls(*args)

    @staticmethod
    def parse(text: str) -> Action:
        """Parse the text form, e.g. ``"Ada: open 13 at 14"`` or ``"Bo: buy coal 2 oil 1"``."""
        player, sep, rest = text.partition(":")
        words = rest.split()
        if not sep or not player.strip() or not words:
            raise ValueError(f"cannot read action {text!r}: expected 'Player: verb ...'")
        player, verb, args = player.strip(), words[0].lower(), rest.strip()[len(words[0]):].strip()
        try:
            return _PARSERS[verb](player, args)
        except KeyError:
            raise ValueError(
                f"cannot read action {text!r}: unknown verb {verb!r} "
                f"(known: {', '.join(sorted(_PARSERS))})") from None
        except (ValueError, IndexError) as e:
            raise ValueError(f"cannot read action {text!r}: {e}") from None


_A = TypeVar("_A", bound=Action)
_set = object.__setattr__  # the frozen dataclasses' own way to fill their fields


@_action
class Open(Action):
    """Open an auction for a plant of the current market with a first bid (R28)."""

    plant: int
    bid: int
    kind: ClassVar[str] = "open"
    fields: ClassVar[tuple[str, ...]] = ("plant", "bid")

    def __init__(self, player: str, plant: int, bid: int) -> None:
        _set(self, "player", player)
        _set(self, "plant", int(plant))
        _set(self, "bid", int(bid))

    def _text(self) -> str:
        return f"open {self.plant} at {self.bid}"


@_action
class Bid(Action):
    """Raise the current auction to ``amount`` (R29)."""

    amount: int
    kind: ClassVar[str] = "bid"
    fields: ClassVar[tuple[str, ...]] = ("amount",)

    def __init__(self, player: str, amount: int) -> None:
        _set(self, "player", player)
        _set(self, "amount", int(amount))

    def _text(self) -> str:
        return f"bid {self.amount}"


@_action
class Pass(Action):
    """Phase 2: pass the phase when opening (R27), or drop out of the running auction (R29)."""

    kind: ClassVar[str] = "pass"


@_action
class Discard(Action):
    """Box one plant over the limit (R36) and keep ``keep`` tokens (coal, oil, garbage, uranium;
    None = the most that fit, O10) (R37)."""

    plant: int
    keep: tuple[int, int, int, int] | None
    kind: ClassVar[str] = "discard"
    fields: ClassVar[tuple[str, ...]] = ("plant", "keep")

    def __init__(self, player: str, plant: int, keep: Any = None) -> None:
        if isinstance(keep, dict):
            keep = tuple(int(keep.get(r, 0)) for r in RESOURCES)
        elif keep is not None:
            keep = tuple(int(x) for x in keep)
            if len(keep) != 4:
                raise ValueError("keep needs 4 numbers: coal, oil, garbage, uranium")
        _set(self, "player", player)
        _set(self, "plant", int(plant))
        _set(self, "keep", keep)

    def _text(self) -> str:
        if self.keep is None:
            return f"discard {self.plant}"
        kept = " ".join(f"{r} {n}" for r, n in zip(RESOURCES, self.keep, strict=True) if n)
        return f"discard {self.plant} keep {kept or 'nothing'}"


@_action
class BuyResources(Action):
    """Buy tokens cheapest-first from the market (R48-R52)."""

    coal: int
    oil: int
    garbage: int
    uranium: int
    kind: ClassVar[str] = "buy"
    fields: ClassVar[tuple[str, ...]] = RESOURCES

    def __init__(self, player: str, coal: int = 0, oil: int = 0, garbage: int = 0,
                 uranium: int = 0) -> None:
        _set(self, "player", player)
        _set(self, "coal", int(coal))
        _set(self, "oil", int(oil))
        _set(self, "garbage", int(garbage))
        _set(self, "uranium", int(uranium))

    @property
    def amounts(self) -> tuple[int, int, int, int]:
        return self.coal, self.oil, self.garbage, self.uranium

    def _text(self) -> str:
        bought = " ".join(f"{r} {n}" for r, n in zip(RESOURCES, self.amounts, strict=True) if n)
        return f"buy {bought or 'nothing'}"


@_action
class Build(Action):
    """Add one or more cities to the network, priced one at a time in the given order (R54-R64)."""

    cities: tuple[str, ...]
    kind: ClassVar[str] = "build"
    fields: ClassVar[tuple[str, ...]] = ("cities",)

    def __init__(self, player: str, *cities: str) -> None:
        if len(cities) == 1 and isinstance(cities[0], list | tuple):
            cities = tuple(cities[0])
        if not cities:
            raise ValueError("Build needs at least one city")
        _set(self, "player", player)
        _set(self, "cities", tuple(cities))

    @property
    def city(self) -> str:
        return self.cities[0]

    def _text(self) -> str:
        return "build " + ", ".join(self.cities)


@_action
class Done(Action):
    """End one's turn in phase 3 or 4 (R15)."""

    kind: ClassVar[str] = "done"


@_action
class Power(Action):
    """Run a set of one's plants in phase 5 (R72-R76). ``hybrid_coal``: coal burnt by the hybrids
    (None = as much coal as possible)."""

    plants: tuple[int, ...]
    hybrid_coal: int | None
    kind: ClassVar[str] = "power"
    fields: ClassVar[tuple[str, ...]] = ("plants", "hybrid_coal")

    def __init__(self, player: str, plants: Any = (), hybrid_coal: int | None = None) -> None:
        if hybrid_coal == 0 and not any(PLANTS[n].is_hybrid for n in plants if n in PLANTS):
            hybrid_coal = None  # no hybrid runs: 0 coal to hybrids says nothing
        _set(self, "player", player)
        _set(self, "plants", tuple(sorted(int(p) for p in plants)))
        _set(self, "hybrid_coal", None if hybrid_coal is None else int(hybrid_coal))

    def _text(self) -> str:
        run = " ".join(str(p) for p in self.plants) or "none"
        return f"power {run}" + ("" if self.hybrid_coal is None else f" hybrid coal {self.hybrid_coal}")


@_action
class MarkCity(Action):
    """Default-starting-cities variant: mark a start city before round 1 (R134)."""

    city: str
    kind: ClassVar[str] = "mark"
    fields: ClassVar[tuple[str, ...]] = ("city",)

    def _text(self) -> str:
        return f"mark {self.city}"


def _amounts(args: str) -> dict[str, int]:
    words = args.split()
    if len(words) % 2:
        raise ValueError("expected pairs like 'coal 2 oil 1'")
    out = {}
    for name, num in zip(words[::2], words[1::2], strict=True):
        if name not in RESOURCES:
            raise ValueError(f"unknown resource {name!r}")
        out[name] = int(num)
    return out


def _parse_open(p: str, a: str) -> Action:
    m = re.fullmatch(r"(\d+)\s+at\s+(\d+)", a)
    if not m:
        raise ValueError("expected 'open PLANT at BID'")
    return Open(p, int(m[1]), int(m[2]))


def _parse_discard(p: str, a: str) -> Action:
    plant, _, keep = a.partition("keep")
    if not keep.strip():
        return Discard(p, int(plant))
    kept = {} if keep.strip() == "nothing" else _amounts(keep)
    return Discard(p, int(plant), kept)


def _parse_power(p: str, a: str) -> Action:
    run, _, hc = a.partition("hybrid coal")
    plants = [] if run.strip() in ("", "none") else [int(x) for x in run.split()]
    return Power(p, plants, int(hc) if hc.strip() else None)


_PARSERS = {
    "open": _parse_open,
    "bid": lambda p, a: Bid(p, int(a)),
    "pass": lambda p, a: Pass(p),
    "discard": _parse_discard,
    "buy": lambda p, a: BuyResources(p, **({} if a == "nothing" else _amounts(a))),
    "build": lambda p, a: Build(p, *[c.strip() for c in a.split(",") if c.strip()]),
    "done": lambda p, a: Done(p),
    "power": _parse_power,
    "mark": lambda p, a: MarkCity(p, a.strip()),
}
