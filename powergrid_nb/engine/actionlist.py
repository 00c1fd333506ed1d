"""The legal actions of an auction as a sequence whose bids are made when read.

A player may bid any amount up to their money (R29, R31), so listing every ``Open``/``Bid`` would make
``legal_actions()`` grow with the money. :class:`ActionList` holds runs of bids as ranges
(:class:`BidRun`) and makes an action only when it is read: its length, indexing, ``in`` and
``random.choice`` cost the same at 50 Elektro as at 50,000, and it equals the list of the same
actions in the same order.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any, overload

from .actions import Action, Bid, Open

__all__ = ["ActionList", "BidRun"]


class BidRun(Sequence[Action]):
    """``Open(name, plant, b)`` (or ``Bid(name, b)`` for ``plant`` None) for each b in ``lo..hi``."""

    __slots__ = ("hi", "lo", "name", "plant")

    def __init__(self, name: str, plant: int | None, lo: int, hi: int) -> None:
        self.name, self.plant, self.lo, self.hi = name, plant, lo, max(lo - 1, hi)

    def __len__(self) -> int:
        return self.hi - self.lo + 1

    def make(self, amount: int) -> Action:
        return Bid(self.name, amount) if self.plant is None else Open(self.name, self.plant, amount)

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...
    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return [self.make(b) for b in range(self.lo, self.hi + 1)[i]]
        return self.make(range(self.lo, self.hi + 1)[i])

    def __iter__(self) -> Iterator[Action]:
        return map(self.make, range(self.lo, self.hi + 1))

    def __contains__(self, a: object) -> bool:
        if type(a) is Bid and self.plant is None:
            amount = a.amount
        elif type(a) is Open and a.plant == self.plant:
            amount = a.bid
        else:
            return False
        return a.player == self.name and self.lo <= amount <= self.hi


class ActionList(Sequence[Action]):
    """An immutable sequence of actions made of parts: lists of actions and :class:`BidRun` s."""

    __slots__ = ("_ends", "_parts")

    def __init__(self, parts: Sequence[Sequence[Action]]) -> None:
        self._parts = tuple(p for p in parts if len(p))
        ends, n = [], 0
        for p in self._parts:
            n += len(p)
            ends.append(n)
        self._ends = ends

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...
    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return [self[k] for k in range(len(self))[i]]
        n = len(self)
        if not -n <= i < n:
            raise IndexError("action index out of range")
        i %= n
        k = bisect_right(self._ends, i)
        return self._parts[k][i - (self._ends[k - 1] if k else 0)]

    def __iter__(self) -> Iterator[Action]:
        return chain.from_iterable(self._parts)

    def __contains__(self, a: object) -> bool:
        return any(a in p for p in self._parts)

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(x == y for x, y in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # equal to a list, so unhashable as one

    def __repr__(self) -> str:
        if len(self) <= 12:
            return repr(list(self))
        return f"[{self[0]!r}, {self[1]!r}, ..., {self[-1]!r}] ({len(self)} actions)"
