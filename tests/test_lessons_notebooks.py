"""The lessons of the course (notebooks/lessons/) keep one shape: goals at the top, the rules they touch,
a marked switch for the full sizes, exercises checked by the package, discussion questions, stored
without outputs, and no result typed into the text by hand. (nbmake executes each in CI.) The two
lessons of a class that plays (0: a round in rooms; 7: the class's exported games beside the bots')
keep it where it applies: lesson 0 simulates nothing, so it has no size switch, and neither has
exercises the package checks (their numbers are the class's own)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from powergrid_nb.lessons import exercises

LESSONS = Path(__file__).resolve().parents[1] / "notebooks" / "lessons"
NOTEBOOKS = sorted(LESSONS.glob("[0-9][0-9]_*.ipynb"))
CLASS_LESSONS = ("00", "07")  # a class that plays: no checked exercises
COURSE = [p for p in NOTEBOOKS if p.name[:2] not in CLASS_LESSONS]  # the six lessons with exercises
SIZED = [p for p in NOTEBOOKS if p.name[:2] != "00"]  # lesson 0 plays one round and simulates nothing


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _src(cell: dict) -> str:
    return "".join(cell["source"])


def test_there_are_six_lessons_two_class_lessons_and_a_course_map() -> None:
    assert [p.name[:2] for p in COURSE] == ["01", "02", "03", "04", "05", "06"]
    assert [p.name[:2] for p in NOTEBOOKS if p not in COURSE] == list(CLASS_LESSONS)
    course = (LESSONS / "README.md").read_text(encoding="utf-8")
    for p in NOTEBOOKS:
        assert p.name in course, f"the course map does not link {p.name}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_lesson_opens_with_its_goals(path: Path) -> None:
    first = _cells(path)[0]
    assert first["cell_type"] == "markdown"
    text = _src(first)
    assert text.startswith(f"# Lesson {int(path.name[:2])}")
    assert re.search(r"goals", text, re.I) and re.search(r"\d+.{0,3}minutes", text)


@pytest.mark.parametrize("path", SIZED, ids=lambda p: p.stem)
def test_the_first_code_cell_is_the_marked_full_size_switch(path: Path) -> None:
    code = [_src(c) for c in _cells(path) if c["cell_type"] == "code"]
    assert code[0].startswith("FULL = False  # <- True"), code[0][:80]
    assert re.search(r"about \d+", code[0].splitlines()[0]), "the switch says how long the full run takes"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_lesson_shows_the_rules_it_touches(path: Path) -> None:
    assert any("rules_box(" in _src(c) for c in _cells(path) if c["cell_type"] == "code")


@pytest.mark.parametrize("path", COURSE, ids=lambda p: p.stem)
def test_a_lesson_ends_with_its_checked_exercises_and_discussion(path: Path) -> None:
    n = int(path.name[:2])
    cells = _cells(path)
    text = "\n".join(_src(c) for c in cells)
    asked = re.findall(r'check\("(\d+\.p?\d+)"', text)  # "1.3", and "1.p1" for a pencil-and-paper item
    assert sorted(asked) == sorted(e.id for e in exercises(n)), "every exercise of the lesson, once"
    headings = [_src(c) for c in cells if c["cell_type"] == "markdown"]
    assert any(re.search(r"^#+ .*Exercises", h, re.M) for h in headings)
    assert any(re.search(r"^#+ .*Discussion", h, re.M) for h in headings)


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p not in COURSE], ids=lambda p: p.stem)
def test_a_class_lesson_asks_no_checked_exercise_and_has_its_discussion(path: Path) -> None:
    cells = _cells(path)
    assert exercises(int(path.name[:2])) == []
    assert not any("check(" in _src(c) for c in cells if c["cell_type"] == "code")
    headings = [_src(c) for c in cells if c["cell_type"] == "markdown"]
    assert any(re.search(r"^#+ .*Discussion", h, re.M) for h in headings)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_lesson_is_stored_without_outputs(path: Path) -> None:
    for c in _cells(path):
        if c["cell_type"] == "code":
            assert not c["outputs"] and c["execution_count"] is None


# A share or a count in the prose is a result someone typed in; results are computed and shown by code.
TYPED = re.compile(r"(?<![\w.])(?!95%)\d+(?:\.\d+)?\s?%")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_result_is_typed_into_the_text(path: Path) -> None:
    for c in _cells(path):
        if c["cell_type"] == "markdown":
            assert not TYPED.search(_src(c)), f"a typed-in percentage: {TYPED.search(_src(c)).group()!r}"
