"""The course's exercise checker: a right answer passes, typical wrong answers get their explanation."""

import pytest

from powergrid_nb.lessons import Exercise, Mistake, check, exercise, exercises, rules_box
from powergrid_nb.lessons.checker import LESSONS

SQUARE = Exercise("9.1", "What is 3 squared?", lambda: 9, "3 x 3 = 9.", unit="Elektro",
                  mistakes=(Mistake(6, "that is 3 + 3, not 3 x 3."),
                            Mistake(lambda: 27, "that is 3 cubed.", matches=lambda a: a > 20)),
                  hint="multiply 3 by itself.")


def test_a_right_number_passes_with_the_explanation() -> None:
    v = SQUARE.check(9.0)
    assert v and v.correct and v.message == "3 x 3 = 9."
    assert "Right" in v._repr_html_() and "9.1" in str(v)
    assert "&lt;b&gt;" in Exercise("9.7", "q", lambda: 1, "<b>", kind="number").check(1)._repr_html_()


def test_a_typical_wrong_number_gets_its_explanation() -> None:
    assert SQUARE.check(6).message == "that is 3 + 3, not 3 x 3."
    assert SQUARE.check(30).message == "that is 3 cubed."  # matches widens the family


def test_any_other_wrong_number_gets_the_hint() -> None:
    v = SQUARE.check(8)
    assert not v and v.message == "multiply 3 by itself."


@pytest.mark.parametrize("answer,says", [("nine", "a number (Elektro)"), (True, "a number"),
                                         (None, "no answer yet"), (..., "no answer yet")])
def test_an_answer_of_the_wrong_kind_says_what_kind_is_wanted(answer, says) -> None:
    v = SQUARE.check(answer)
    assert not v and says in v.message


def test_tolerance_text_set_and_list_comparisons() -> None:
    near = Exercise("9.2", "q", lambda: 0.25, "ok", tolerance=0.01)
    assert near.check(0.255) and not near.check(0.27)
    text = Exercise("9.3", "q", lambda: "Coal", "ok", kind="text")
    assert text.check("  coal ") and not text.check("oil") and not text.check(3)
    group = Exercise("9.4", "q", lambda: ["Berlin", "Essen"], "ok", kind="set")
    assert group.check(("essen", "berlin")) and not group.check(["Essen"]) and not group.check("Essen")
    seq = Exercise("9.5", "q", lambda: [1, 2, 3], "ok", kind="list")
    assert seq.check([1.0, 2, 3]) and not seq.check([3, 2, 1])
    with pytest.raises(ValueError, match="kind"):
        Exercise("9.6", "q", lambda: 1, "ok", kind="guess")


def test_unknown_exercise_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="the exercises are"):
        check("0.0", 1)


def test_every_lesson_has_exercises_numbered_by_lesson() -> None:
    for n in range(1, LESSONS + 1):
        found = exercises(n)
        assert len(found) >= 2, f"lesson {n} has {len(found)} exercises"
        assert all(e.id.startswith(f"{n}.") for e in found)


ALL = [e.id for e in exercises()]


@pytest.mark.parametrize("eid", ALL)
def test_each_exercise_accepts_its_right_answer(eid) -> None:
    ex = exercise(eid)
    v = check(eid, ex.answer())
    assert v.correct, v.message
    assert v.message == ex.explain() and len(ex.explain()) > 20


@pytest.mark.parametrize("eid", ALL)
def test_each_exercise_explains_its_typical_wrong_answers(eid) -> None:
    ex = exercise(eid)
    assert ex.mistakes, f"exercise {eid} names no typical wrong answer"
    right = ex.answer()
    for m in ex.mistakes:
        wrong = m.example()
        assert not ex.same(wrong, right), f"{eid}: the mistake {wrong!r} is the right answer"
        v = check(eid, wrong)
        assert not v.correct and v.message == m.why


def test_rules_box_shows_the_shipped_rule_texts() -> None:
    box = rules_box("R45", "R54", title="Turn order")
    md = box._repr_markdown_()
    assert "<details>" in md and "Turn order" in md and "reverse player order" in md
    assert str(box).startswith("R45")
    with pytest.raises(ValueError):
        rules_box()
