"""Exercises of the course and their checker: ``check("1.3", answer)`` says right or wrong, and why.

The package does not hold the answers in a readable form. An exercise keeps a :class:`Lock`: the hash of
its right answer and of each typical wrong answer (salted with the exercise's id), and the explanation of
the right answer *sealed* with a key derived from that answer. A student who reads the package finds
hashes and ciphertext; a student who finds the answer reads why it is right, numbers and all. (Hashes
stop reading, not guessing: trying every number with ``check`` would find an integer answer, and a
student who does that has at least learned to write a loop.)

A number is compared on a grid: ``step`` is its resolution and ``tolerance`` how far an answer may be from
the right value. The lock holds the hash of the right value rounded to the grid; an answer is right when a
grid point within ``tolerance`` of it has that hash. Texts are compared with case and spaces ignored, sets
in any order, lists in order.

The exercises of lesson N live in ``powergrid_nb.lessons.questions.lessonN``: ``EXERCISES`` (the
questions, hints and the reasons of the typical mistakes, readable) and ``LOCKS`` (the hashes and the
sealed explanations, written by ``python tests/test_lessons_checker.py write`` from the answers the
tests compute). Items whose id has a ``p`` (``"1.p1"``) are pencil-and-paper questions: all the data
is in the question, and a student answers by reasoning.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import importlib
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["Exercise", "Lock", "Mistake", "Verdict", "answer_hash", "check", "exercise", "exercises",
           "seal", "unseal"]

LESSONS = 6
KINDS = ("number", "text", "set", "list")


@dataclass(frozen=True)
class Mistake:
    """A typical wrong answer and what it misses.

    The wrong answer itself is in the exercise's :class:`Lock`, hashed (``mistakes``, in the same
    order); ``why`` is said to a student who gives it. ``matches`` instead recognises a whole family of
    answers (e.g. ``lambda a: a > 10``) without naming one. A number mistake is compared with its own
    ``tolerance`` and ``step`` when they are given, else with the exercise's.
    """

    why: str
    matches: Callable[[Any], bool] | None = None
    tolerance: float | None = None
    step: float | None = None


@dataclass(frozen=True)
class Lock:
    """An exercise's answers, unreadable: the right answer's hash, the explanation sealed with it, and
    the hashes of the typical wrong answers (None for a mistake recognised by ``matches``)."""

    answer: str
    explanation: str
    mistakes: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """The checker's reply: ``correct`` and a message; true in an ``if``, drawn as a line in Jupyter."""

    exercise: str
    correct: bool
    message: str

    def __bool__(self) -> bool:
        return self.correct

    def __str__(self) -> str:
        return f"{'Right' if self.correct else 'Not yet'} ({self.exercise}): {self.message}"

    def _repr_html_(self) -> str:
        # ✓ and ✗ are in the common text fonts; emoji marks show as empty boxes without an emoji font
        mark, colour = ("✓ Right", "#1a7f37") if self.correct else ("✗ Not yet", "#b42318")
        return (f'<div class="pg-verdict"><b style="color:{colour}">{mark}</b> (exercise '
                f"{html.escape(self.exercise)}): {html.escape(self.message)}</div>")


# ---- canonical forms, hashes and the sealed explanation -----------------------------------------

def _number(x: Any) -> float | None:
    """``x`` as a number, or None; a text is not a number (``"3"`` is a text)."""
    if isinstance(x, bool | str | bytes) or x is None:
        return None
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) or math.isinf(v) else v


def _numeric_text(x: Any) -> float | None:
    """The number a text spells (``"3"``, ``" 0.4 "``), or None."""
    if not isinstance(x, str):
        return None
    try:
        return float(x.strip())
    except ValueError:
        return None


def _word(x: Any) -> str:
    return " ".join(unicodedata.normalize("NFC", str(x)).casefold().split())


def _item(x: Any) -> str:
    """One element of a set or list, canonical: a number as its shortest form (3.0 -> "3"), else a word."""
    n = _number(x)
    if n is not None:
        return repr(int(n)) if n == int(n) else repr(n)
    return _word(x)


def _digest(eid: str, kind: str, canonical: str, purpose: str) -> bytes:
    return hashlib.sha256(f"powergrid-lessons|{purpose}|{eid}|{kind}|{canonical}".encode()).digest()


def _canonical(kind: str, value: Any, step: float = 1.0) -> str:
    """The canonical form of a right or wrong answer (a number: its grid point and the grid's step)."""
    if kind == "number":
        return f"{step!r}:{round(float(value) / step)}"
    if kind == "text":
        return _word(value)
    items = [_item(x) for x in value]
    return "\x1f".join(sorted(set(items)) if kind == "set" else items)


def answer_hash(eid: str, kind: str, value: Any, step: float = 1.0) -> str:
    """The stored hash of ``value`` as an answer to exercise ``eid``."""
    return _digest(eid, kind, _canonical(kind, value, step), "lock").hex()[:32]


def _stream(key: bytes, n: int) -> bytes:
    return hashlib.shake_256(key).digest(n)


def seal(eid: str, kind: str, value: Any, text: str, step: float = 1.0) -> str:
    """``text`` encrypted with a key derived from the right answer ``value`` of exercise ``eid``."""
    key = _digest(eid, kind, _canonical(kind, value, step), "seal")
    data = text.encode()
    return base64.b64encode(bytes(a ^ b for a, b in zip(data, _stream(key, len(data)), strict=True))).decode()


def _unseal_canonical(eid: str, kind: str, canonical: str, sealed: str) -> str:
    data = base64.b64decode(sealed)
    key = _digest(eid, kind, canonical, "seal")
    return bytes(a ^ b for a, b in zip(data, _stream(key, len(data)), strict=True)).decode()


def unseal(eid: str, kind: str, value: Any, sealed: str, step: float = 1.0) -> str:
    """The text :func:`seal` sealed with ``value`` (garbage or an error with any other value)."""
    return _unseal_canonical(eid, kind, _canonical(kind, value, step), sealed)


def _grid(value: float, tolerance: float, step: float) -> Iterator[str]:
    """The canonical forms of the grid points within ``tolerance`` of ``value``, nearest first."""
    eps = 1e-9 * max(1.0, abs(value))
    lo = math.ceil((value - tolerance - eps) / step)
    hi = math.floor((value + tolerance + eps) / step)
    for k in sorted(range(lo, hi + 1), key=lambda k: abs(k * step - value)):
        if abs(k * step - value) <= tolerance + eps:
            yield f"{step!r}:{k}"


def _decimals(x: float) -> int:
    """How many decimals a student wrote (1.7 -> 1, 2.0 -> 0)."""
    text = repr(float(x))
    if "e" in text:
        return 0
    return len(text.split(".")[1].rstrip("0"))


# ---- the exercise --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Exercise:
    """One question of a lesson.

    ``kind`` says how an answer is compared: ``"number"`` (on a grid of ``step``, within ``tolerance``),
    ``"text"`` (case and spaces ignored), ``"set"`` (any order) or ``"list"`` (in order); ``items`` is
    ``"number"`` when the elements of a set or list are numbers. ``share`` marks a number between 0 and
    1 (a percentage gets told so). ``mistakes`` are the typical wrong answers' explanations, ``hint`` is
    said for any other wrong answer, and ``lock`` holds the answers (attached from the lesson's
    ``LOCKS``).
    """

    id: str
    question: str
    kind: str = "number"
    tolerance: float = 0.0
    step: float = 1.0
    unit: str = ""
    mistakes: tuple[Mistake, ...] = field(default=())
    hint: str = ""
    share: bool = False
    items: str = "text"
    lock: Lock | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"exercise {self.id}: kind must be number, text, set or list, not {self.kind!r}")
        if self.step <= 0 or self.tolerance < 0:
            raise ValueError(f"exercise {self.id}: step must be positive and tolerance not negative")

    @property
    def pencil(self) -> bool:
        """Whether it is a pencil-and-paper item (its id has a ``p``: ``"1.p1"``)."""
        return ".p" in self.id

    # -- the forms an answer can take --

    def _number_form(self, answer: Any) -> tuple[float | None, str | None]:
        """The answer as a number, or why it is not one."""
        unit = f" ({self.unit})" if self.unit else ""
        if isinstance(answer, str):
            text = answer.strip()
            if self.share and text.endswith("%") and _numeric_text(text[:-1]) is not None:
                return None, self._percentage(float(text[:-1].strip()))
            if _numeric_text(text) is not None:
                return None, (f"{answer!r} is a text, not a number: write the number without quotes "
                              f"({text}, not {answer!r}).")
        n = _number(answer)
        if n is None:
            return None, f"the answer is a number{unit}, not {answer!r}."
        if self.share and not 0 <= n <= 1:
            return None, self._percentage(n)
        return n, None

    def _percentage(self, percent: float) -> str:
        right = self._accepts(percent / 100) is not None
        return ("that is the right share written as a percentage; give it as a share between 0 and 1 "
                "(divide by 100)." if right else
                "the answer is a share between 0 and 1 (0.42 for 42 in a hundred), not a percentage.")

    def _collection_form(self, answer: Any) -> str | None:
        what = "collection" if self.kind == "set" else "list"
        if isinstance(answer, str | bytes) or not isinstance(answer, Iterable):
            return f"the answer is a {what} of values, not {answer!r}."
        if self.kind == "list" and isinstance(answer, set | frozenset | dict):
            return ("the order matters here: give a list in square brackets, [...], first one first; a set "
                    "{...} has no order.")
        if self.items == "number":
            texts = [x for x in answer if isinstance(x, str)]
            if texts:
                spelled = [x for x in texts if _numeric_text(x) is not None]
                if spelled:
                    return (f"the values are numbers, and {spelled[0]!r} is a text: write them without "
                            f"quotes ({spelled[0].strip()}, not {spelled[0]!r}).")
                return f"the values are numbers, not {texts[0]!r}."
        return None

    def _form(self, answer: Any) -> tuple[Any, str | None]:
        """The answer in the exercise's form, or why it does not have it."""
        if self.kind == "number":
            return self._number_form(answer)
        if self.kind == "text":
            if isinstance(answer, str):
                return answer, None
            return None, f"the answer is a text, not {answer!r}."
        return answer, self._collection_form(answer)

    # -- comparison through the lock --

    def _candidates(self, answer: Any, tolerance: float | None = None, step: float | None = None
                    ) -> Iterator[str]:
        if self.kind == "number":
            yield from _grid(float(answer), self.tolerance if tolerance is None else tolerance,
                             self.step if step is None else step)
        else:
            yield _canonical(self.kind, answer)

    def _hit(self, key: str | None, answer: Any, tolerance: float | None = None,
             step: float | None = None) -> str | None:
        """The canonical form of ``answer`` that hashes to ``key``, or None."""
        if key is None:
            return None
        for c in self._candidates(answer, tolerance, step):
            if _digest(self.id, self.kind, c, "lock").hex()[:32] == key:
                return c
        return None

    def _accepts(self, answer: Any) -> str | None:
        return self._hit(self.lock.answer, answer) if self.lock else None

    def accepts(self, answer: Any) -> bool:
        """Whether ``answer`` counts as the right answer."""
        value, why = self._form(answer)
        return why is None and self._accepts(value) is not None

    def _mistake(self, answer: Any) -> Mistake | None:
        keys = ((self.lock.mistakes if self.lock else ()) + (None,) * len(self.mistakes))[:len(self.mistakes)]
        for m, key in zip(self.mistakes, keys, strict=True):
            try:
                if m.matches is not None and m.matches(answer):
                    return m
            except (TypeError, ValueError):
                pass
            if key is not None and self._hit(key, answer, m.tolerance, m.step):
                return m
        return None

    def _near(self, answer: float) -> str | None:
        """A number rounded or cut too early: written with fewer decimals than the exercise's grid, and
        the right value, rounded (or cut) to those decimals, gives it."""
        d = _decimals(answer)
        unit = 10.0 ** -d
        if unit <= self.step * (1 + 1e-9) or self.lock is None:
            return None
        if unit / 2 > self.tolerance and self._hit(self.lock.answer, answer, unit / 2):
            return f"close, but rounded too early: keep at least {max(_decimals(self.step), d + 1)} decimals."
        if self._hit(self.lock.answer, answer + (unit - self.step) / 2, (unit - self.step) / 2):
            return "close, but cut off: the decimals were dropped, not rounded; round to the nearest instead."
        return None

    def check(self, answer: Any) -> Verdict:
        """Right or wrong, and why."""
        if answer is None or answer is Ellipsis:
            return Verdict(self.id, False, f"no answer yet. {self.question}")
        if self.lock is None:
            return Verdict(self.id, False, "this exercise has no answer key yet.")
        value, why = self._form(answer)
        if why:
            return Verdict(self.id, False, why)
        right = self._accepts(value)
        if right is not None:
            return Verdict(self.id, True, _unseal_canonical(self.id, self.kind, right, self.lock.explanation))
        m = self._mistake(value)
        if m is not None:
            return Verdict(self.id, False, m.why)
        if self.kind == "number":
            near = self._near(value)
            if near:
                return Verdict(self.id, False, near)
        return Verdict(self.id, False, self.hint or "that is not it; read the question again.")


# ---- the course's exercises -----------------------------------------------------------------------

@functools.cache
def _registry() -> dict[str, Exercise]:
    out: dict[str, Exercise] = {}
    for n in range(1, LESSONS + 1):
        try:
            module = importlib.import_module(f"{__package__}.questions.lesson{n}")
        except ModuleNotFoundError as e:
            if e.name != f"{__package__}.questions.lesson{n}":
                raise
            continue
        locks: dict[str, Lock] = getattr(module, "LOCKS", {})
        for ex in module.EXERCISES:
            if ex.id in out or not re.fullmatch(rf"{n}\.p?\d+", ex.id):
                raise RuntimeError(f"exercise id {ex.id!r} of lesson {n} is repeated or misnumbered")
            out[ex.id] = replace(ex, lock=locks.get(ex.id))
    return out


def exercises(lesson: int | None = None) -> list[Exercise]:
    """The course's exercises in order, or those of one lesson."""
    found = list(_registry().values())
    return [e for e in found if lesson is None or e.id.split(".")[0] == str(lesson)]


def exercise(id: str) -> Exercise:
    """The exercise ``id`` ("1.3", or "1.p1" for a pencil-and-paper item); a KeyError lists them all."""
    found = _registry().get(str(id).strip())
    if found is None:
        raise KeyError(f"no exercise {id!r}; the exercises are {', '.join(_registry())}")
    return found


def check(id: str, answer: Any) -> Verdict:
    """Check a student's ``answer`` to exercise ``id`` ("1.3"): right or wrong, and why."""
    return exercise(id).check(answer)
