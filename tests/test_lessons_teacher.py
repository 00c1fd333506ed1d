"""The teacher's guide (notebooks/lessons/TEACHER.md) has, for each lesson it covers, the goals, a
50-minute plan, the surprising results, the misconceptions and an answer to every discussion question
the notebook asks, in the notebook's order."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

LESSONS = Path(__file__).resolve().parents[1] / "notebooks" / "lessons"
GUIDE = LESSONS / "TEACHER.md"
COVERED = (4, 5, 6)


def _section(n: int) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    m = re.search(rf"^## Lesson {n}\b.*?(?=^## |\Z)", text, re.S | re.M)
    assert m, f"no section '## Lesson {n}'"
    return m.group(0)


def _flat(text: str) -> str:
    return " ".join(text.replace("*", "").split())


def _questions(n: int) -> list[str]:
    """Each numbered item of the notebook's Discussion cell, whitespace flattened."""
    (path,) = LESSONS.glob(f"0{n}_*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    (cell,) = ["".join(c["source"]) for c in cells
               if c["cell_type"] == "markdown" and re.search(r"^#+ .*Discussion", "".join(c["source"]), re.M)]
    items = re.split(r"^\d+\. ", cell.split("\n", 1)[1], flags=re.M)[1:]
    return [_flat(item) for item in items]


@pytest.mark.parametrize("n", COVERED)
def test_the_guide_quotes_and_answers_every_discussion_question_in_order(n: int) -> None:
    answers = _flat(_section(n).split("### Discussion questions: answers", 1)[1])
    where = [answers.find(q) for q in _questions(n)]
    missing = [q for q, w in zip(_questions(n), where, strict=True) if w < 0]
    assert len(where) >= 3 and not missing, missing
    assert where == sorted(where)


@pytest.mark.parametrize("n", COVERED)
def test_each_lesson_has_goals_a_plan_notes_and_misconceptions(n: int) -> None:
    section = _section(n)
    for heading in ("### Learning goals", "### A 50-minute plan", "### Notes on the surprising results",
                    "### Likely misconceptions", "### Discussion questions: answers"):
        assert heading in section, heading
    assert "(ANSWERS.md)" in section  # the checked exercises' answers are linked, not repeated


@pytest.mark.parametrize("n", COVERED)
def test_the_plan_fills_fifty_minutes_without_gaps(n: int) -> None:
    plan = _section(n).split("### A 50-minute plan", 1)[1].split("\n### ", 1)[0]
    spans = [(int(a), int(b)) for a, b in re.findall(r"^\| (\d+)–(\d+) \|", plan, re.M)]
    assert spans[0][0] == 0 and spans[-1][1] == 50
    assert all(b == c for (_, b), (c, _) in zip(spans, spans[1:], strict=False))


@pytest.mark.parametrize("n", COVERED)
def test_the_full_size_numbers_say_their_size_and_seeds(n: int) -> None:
    section = _section(n)
    assert "FULL = True" in section and re.search(r"seeds? \d+", section)
