"""The teacher's guide (notebooks/lessons/TEACHER.md) keeps up with the lessons: a section per lesson with
its goals, a 50-minute plan, an answer to every discussion question, a link to the exercises' answers;
and its numbers are the lessons' own (those of a fixed position here, the full-size ones in the full tier)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

LESSONS = Path(__file__).resolve().parents[1] / "notebooks" / "lessons"
GUIDE = LESSONS / "TEACHER.md"
GUIDED = (1, 2, 3, 4, 5, 6)
QUOTED = (4, 5, 6)  # the lessons whose answers quote each question before answering it


def _section(n: int) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    parts = re.split(r"^## (?=Lesson \d)", text, flags=re.M)
    found = [p for p in parts if p.startswith(f"Lesson {n} ")]
    assert found, f"the guide has no section for lesson {n}"
    return found[0]


def _sub(section: str, title: str) -> str:
    m = re.search(rf"^### {title}\n(.*?)(?=^### |\Z)", section, flags=re.M | re.S)
    assert m, f"no '### {title}'"
    return m.group(1)


def _notebook(n: int) -> Path:
    return next(LESSONS.glob(f"0{n}_*.ipynb"))


def _discussion_questions(n: int) -> int:
    cells = json.loads(_notebook(n).read_text(encoding="utf-8"))["cells"]
    texts = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    text = next(t for t in texts if re.search(r"^#+ .*Discussion", t, re.M))
    return len(re.findall(r"^\d+\. ", text, flags=re.M))


@pytest.mark.parametrize("n", GUIDED)
def test_the_guide_answers_every_discussion_question_of_the_lesson(n: int) -> None:
    asked = _discussion_questions(n)
    answered = re.findall(r"^(\d+)\. ", _sub(_section(n), "Discussion questions"), flags=re.M)
    assert asked > 0 and [int(a) for a in answered] == list(range(1, asked + 1))


@pytest.mark.parametrize("n", GUIDED)
def test_the_guide_plans_a_50_minute_class_per_lesson(n: int) -> None:
    plan = _sub(_section(n), "A 50-minute plan")
    minutes = [int(m) for m in re.findall(r"^\| (\d+) \|", plan, flags=re.M)]
    assert len(minutes) >= 4 and sum(minutes) == 50


@pytest.mark.parametrize("n", GUIDED)
def test_the_guide_has_goals_misconceptions_surprises_and_links_the_answers(n: int) -> None:
    section = _section(n)
    for title in ("Learning goals", "Likely misconceptions", "Notes on the surprising results"):
        assert _sub(section, title).strip(), title
    assert "(ANSWERS.md)" in _sub(section, "Exercises")


def _flat(text: str) -> str:
    return " ".join(text.replace("*", "").split())


def _questions(n: int) -> list[str]:
    """Each numbered item of the notebook's Discussion cell, whitespace flattened."""
    cells = json.loads(_notebook(n).read_text(encoding="utf-8"))["cells"]
    (cell,) = ["".join(c["source"]) for c in cells
               if c["cell_type"] == "markdown" and re.search(r"^#+ .*Discussion", "".join(c["source"]), re.M)]
    items = re.split(r"^\d+\. ", cell.split("\n", 1)[1], flags=re.M)[1:]
    return [_flat(item) for item in items]


@pytest.mark.parametrize("n", QUOTED)
def test_the_guide_quotes_each_discussion_question_in_the_notebooks_order(n: int) -> None:
    answers = _flat(_sub(_section(n), "Discussion questions"))
    where = [answers.find(q) for q in _questions(n)]
    missing = [q for q, w in zip(_questions(n), where, strict=True) if w < 0]
    assert len(where) >= 3 and not missing, missing
    assert where == sorted(where)


@pytest.mark.parametrize("n", GUIDED)
def test_the_full_size_numbers_say_their_size_and_seeds(n: int) -> None:
    text = GUIDE.read_text(encoding="utf-8").split("## Lesson 1", 1)[0] + _section(n)
    assert "FULL = True" in text and re.search(r"seeds? \d+", text)


# --- the guide's numbers at a lesson's fixed position: the same at every size ---------------------

def test_lesson_1_numbers_in_the_guide_are_the_positions() -> None:
    from powergrid_nb import new_game
    from powergrid_nb.bots import HeuristicBot, play
    from powergrid_nb.lessons.market import externality, supply_curve
    g = new_game(4, map="germany", edition="original", seed=1)
    play(g, [HeuristicBot(seed=k) for k in range(4)], until=lambda h: h.round >= 5 and h.phase == 3)
    row = supply_curve(g, "coal").set_index("k").loc[6]
    section = _section(1)
    said = (f"Six coal at the lesson's position cost {row['total']:.0f} Elektro, an average of "
            f"{row['average']:.2f}, while the sixth alone costs {row['marginal']:.0f}")
    assert said in " ".join(section.split())
    assert f"$E(3, 3) = {externality(g, 'oil', 3, 3)}$ Elektro" in section


def test_lesson_2_numbers_in_the_guide_are_the_positions() -> None:
    from powergrid_nb import new_game
    from powergrid_nb.bots import HeuristicBot, play
    from powergrid_nb.lessons import capital
    g = new_game(4, map="germany", edition="original", seed=3)
    play(g, [HeuristicBot(seed=k) for k in range(4)], until=lambda h: h.round >= 5 and h.phase == 2)
    city = capital.city_price(g)
    t = capital.plant_table(g, powered=3, city=city, rate=0.1, rounds=5)
    finite = t[t["payback"] < float("inf")]
    p16, p20 = t.loc[16], t.loc[20]
    text = " ".join(_section(2).split())
    median = finite["payback"].median()
    assert f"a new city at {city:.1f} E), the median payback of card and cities is {median:.1f}" in text
    assert f"costs 16 + {p16['cities_cost']:.0f} = {p16['capital']:.0f} E with its 3 cities and nets " \
           f"{p16['net_per_round']:.0f} E a round: {p16['payback']:.1f} rounds" in text
    assert f"capital of {p20['capital']:.1f} E and lengthens its payback from {p20['payback']:.2f} to " \
           f"{(p20['capital'] + 11.9) / p20['net_per_round']:.2f} rounds" in text


def test_lesson_3_numbers_in_the_guide_are_the_positions() -> None:
    from powergrid_nb import Scenario
    from powergrid_nb.bots.planner import plan_targets
    from powergrid_nb.lessons import networks
    g = networks.positions(1, players=4, round=6, seed=3)[0]
    regions = networks.region_costs(networks.growth_costs(g, k=4))
    central = networks.centrality(g)
    text = " ".join(_section(3).split())
    assert f"the red region costs {regions.loc['red', 'mean']:.1f} E in links" in text
    assert f"against {regions.loc['brown', 'mean']:.1f} E in brown" in text
    assert (f"{central.index[0]} averages {central['mean_cost'].iloc[0]:.1f} E to each other city in play, "
            f"and {central.index[-1]} {central['mean_cost'].iloc[-1]:.1f} E") in text
    sc = Scenario.new(4, seed=1, regions=["cyan", "red", "yellow", "brown"])
    sc.set_cities("Ada", ["Bremen"])
    sc.set_money("Ada", 200)
    sc.set_phase(4)
    fork = sc.game()
    want = ["Nürnberg", "Dresden"]
    assert f"the engine's {plan_targets(fork, 'Ada', want).total} E and the Steiner tree's " \
           f"{networks.steiner_estimate(fork, 'Ada', want)} E" in text
    assert f"three cities for {plan_targets(fork, 'Ada', [*want, 'Erfurt']).total} E" in text


@pytest.mark.slow
@pytest.mark.full  # lesson 3 at its full size: 400 positions, about 2 minutes
def test_lesson_3_full_size_numbers_in_the_guide() -> None:
    import pandas as pd

    from powergrid_nb.lessons import networks
    positions = networks.positions(400, players=4, round=6, seed=0)
    curves = pd.concat([networks.connection_curve(p, p.current_player, range(1, 9)).assign(position=i)
                        for i, p in enumerate(positions)], ignore_index=True)
    src = networks.steiner_sources(curves)
    wide = networks.cost_table(networks.curve_summary(curves))
    frames = []
    for p in positions:
        rival = next(q for q in p.players if q != p.current_player)
        frames += [networks.first_mover(p, p.current_player, rival, range(1, 5), step) for step in (1, 2)]
    first = networks.first_mover_summary(frames).set_index(["step", "k"])
    text = " ".join(_section(3).split())
    assert f"only {src['sharing']:.2f} E of its {src['gap']:.2f} E mean overpayment" in text
    assert "cost " + ", ".join(f"{v:.1f}" for v in wide["exact"].iloc[:-1]) in text
    ac = wide["average (exact)"]
    assert f"The average cost per city is lowest at k = {int(ac.idxmin())}, about {ac.min():.1f} E" in text
    s1, s2 = first.loc[(1, 3)], first.loc[(2, 3)]
    for s, step in ((s1, "Step 1"), (s2, "Step 2")):
        assert f"{s['loss']:.1f} E more in {step} ({s['low']:.1f}–{s['high']:.1f}, n = {int(s['n'])})" in text
