"""Exercises of the course and their checker: ``check("1.3", answer)`` says right or wrong, and why.

An :class:`Exercise` computes its right answer from the package when asked (so a lesson's page never
shows it) and knows the typical wrong answers with what each one misses. The exercises of lesson N
live in ``powergrid_nb.lessons.questions.lessonN`` as a tuple ``EXERCISES``.
"""

from __future__ import annotations

import functools
import html
import importlib
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Exercise", "Mistake", "Verdict", "check", "exercise", "exercises"]

LESSONS = 6


@dataclass(frozen=True)
class Mistake:
    """A typical wrong answer and what it misses.

    ``wrong`` is that answer, or a function computing it from the package (so the page never shows
    it); an answer the exercise counts as the same as ``wrong`` gets ``why``. ``matches`` widens this
    to a whole family of answers (e.g. ``lambda a: a > 10``); ``wrong`` stays its example, which the
    tests check is met with ``why``.
    """

    wrong: Any
    why: str
    matches: Callable[[Any], bool] | None = None

    def example(self) -> Any:
        return self.wrong() if callable(self.wrong) else self.wrong


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


def _number(x: Any) -> float | None:
    if isinstance(x, bool) or x is None:
        return None
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


@dataclass(frozen=True)
class Exercise:
    """One question of a lesson.

    ``answer()`` computes the right answer. ``kind`` says how an answer is compared: ``"number"``
    (within ``tolerance``, absolute), ``"text"`` (case and spaces ignored), ``"set"`` (any order) or
    ``"list"`` (in order). ``explanation`` says why the right answer is right (a text, or a function
    computing it from the package, so the numbers it names are computed, not typed); ``mistakes`` are the
    typical wrong answers with their explanation; ``hint`` is said for any other wrong answer.
    """

    id: str
    question: str
    answer: Callable[[], Any]
    explanation: str | Callable[[], str]
    kind: str = "number"
    tolerance: float = 0.0
    unit: str = ""
    mistakes: tuple[Mistake, ...] = field(default=())
    hint: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ("number", "text", "set", "list"):
            raise ValueError(f"exercise {self.id}: kind must be number, text, set or list, not {self.kind!r}")

    def explain(self) -> str:
        """Why the right answer is right."""
        return self.explanation() if callable(self.explanation) else self.explanation

    def _shape(self, answer: Any) -> str | None:
        """Why ``answer`` is not even of the right kind, or None."""
        if self.kind == "number" and _number(answer) is None:
            unit = f" ({self.unit})" if self.unit else ""
            return f"the answer is a number{unit}, not {answer!r}"
        if self.kind == "text" and not isinstance(answer, str):
            return f"the answer is a text, not {answer!r}"
        if self.kind in ("set", "list") and (isinstance(answer, str | bytes)
                                              or not isinstance(answer, Iterable)):
            what = "collection" if self.kind == "set" else "list"
            return f"the answer is a {what} of values, not {answer!r}"
        return None

    def same(self, answer: Any, right: Any) -> bool:
        """Whether ``answer`` counts as ``right`` under this exercise's comparison."""
        if self.kind == "number":
            a = _number(answer)
            return a is not None and abs(a - float(right)) <= self.tolerance + 1e-9
        if self.kind == "text":
            return isinstance(answer, str) and " ".join(answer.lower().split()) == " ".join(
                str(right).lower().split())
        if self.kind == "set":
            return _norm_set(answer) == _norm_set(right)
        return [_norm(x) for x in answer] == [_norm(x) for x in right]

    def check(self, answer: Any) -> Verdict:
        """Right or wrong, and why."""
        if answer is None or answer is Ellipsis:
            return Verdict(self.id, False, f"no answer yet. {self.question}")
        shape = self._shape(answer)
        if shape:
            return Verdict(self.id, False, shape + ".")
        if self.same(answer, self.answer()):
            return Verdict(self.id, True, self.explain())
        for m in self.mistakes:
            try:
                hit = m.matches(answer) if m.matches else self.same(answer, m.example())
            except (TypeError, ValueError):
                hit = False
            if hit:
                return Verdict(self.id, False, m.why)
        return Verdict(self.id, False, self.hint or "that is not it; read the question again.")


def _norm(x: Any) -> Any:
    if isinstance(x, str):
        return " ".join(x.lower().split())
    n = _number(x)
    return n if n is not None else x


def _norm_set(xs: Iterable[Any]) -> frozenset:
    return frozenset(_norm(x) for x in xs)


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
        for ex in module.EXERCISES:
            if ex.id in out or not ex.id.startswith(f"{n}."):
                raise RuntimeError(f"exercise id {ex.id!r} of lesson {n} is repeated or misnumbered")
            out[ex.id] = ex
    return out


def exercises(lesson: int | None = None) -> list[Exercise]:
    """The course's exercises in order, or those of one lesson."""
    found = list(_registry().values())
    return [e for e in found if lesson is None or e.id.split(".")[0] == str(lesson)]


def exercise(id: str) -> Exercise:
    """The exercise ``id`` ("1.3"); a KeyError lists the ones that exist."""
    found = _registry().get(str(id).strip())
    if found is None:
        raise KeyError(f"no exercise {id!r}; the exercises are {', '.join(_registry())}")
    return found


def check(id: str, answer: Any) -> Verdict:
    """Check a student's ``answer`` to exercise ``id`` ("1.3"): right or wrong, and why."""
    return exercise(id).check(answer)
