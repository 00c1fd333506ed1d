"""The teaching course's shared code (``notebooks/lessons/``): the exercise checker and the rule boxes.

``check("1.3", answer)`` checks a student's answer to exercise 1.3 and says why it is right or wrong;
``rules_box("R45", "R54")`` shows the rules a lesson touches. The economics each lesson computes lives
in the concept modules of this package (``lessons.market``, ...), tested like the engine; their figures
are sized for a projector by ``lessons.style.projector``.
"""

from .checker import Exercise, Mistake, Verdict, check, exercise, exercises
from .rulenotes import RuleNotes, rules_box

__all__ = ["Exercise", "Mistake", "RuleNotes", "Verdict", "check", "exercise", "exercises", "rules_box"]
