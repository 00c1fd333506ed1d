"""The rules ship with the package, in words: rule(), rules(), and errors that quote them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import powergrid_nb
from powergrid_nb import IllegalAction, new_game, rule, rules
from powergrid_nb.engine.rules.rulebook import UnknownRule

ROOT = Path(__file__).resolve().parents[1]
SPECIFICATION = ROOT / "docs" / "rules.md"  # the rules' one source: the shipped rules.json is built from it
SPEC_MARKUP = re.compile(r"\[\d{3}\]|\(\d{3}\b|\bseeds?\b|reference/|\.md\b|OPEN:|\bORIG\b|\bRECH\b|\[EXT\]")


def test_every_rule_r1_to_r136_has_a_text():
    numbers = [r.number for r in rules()]
    assert numbers == [f"R{i}" for i in range(1, 137)]
    assert all(r.text.strip() for r in rules())


def test_every_rule_an_error_cites_has_a_text():
    """Each rule number written in the engine's source (errors, docstrings) exists in the shipped rules."""
    cited = set()
    for path in (ROOT / "powergrid_nb").rglob("*.py"):
        cited |= set(re.findall(r"\b([RO]\d{1,3})\b", path.read_text(encoding="utf-8")))
    assert len(cited) > 50
    for number in sorted(cited):
        assert rule(number).text, number


def test_the_texts_are_in_players_words_not_the_specifications():
    """No source keys, spec markers or paths of files users do not have."""
    for r in rules() + [rule(f"O{i}") for i in range(1, 27)]:
        for part in (r.section, r.text, *r.notes):
            assert not SPEC_MARKUP.search(part), (r.number, SPEC_MARKUP.search(part).group(0), part)


def test_r58_city_capacity_by_step():
    r = rule("R58")
    assert r.text.startswith("City capacity by step: Step 1 — 1 house")
    assert r.section == "Phase 4 — build" and r.phase == 4
    assert r.editions == ("original", "recharged")


def test_a_rule_number_may_be_written_loosely():
    assert rule("r58") == rule("58") == rule(" R58 ") == rule("R58")


def test_an_edition_only_rule_says_its_edition():
    assert rule("R68").editions == ("original",)
    assert rule("R68").text.startswith("Original edition: Too-small plants")
    assert rule("R68", "original") is rule("R68")
    with pytest.raises(UnknownRule, match="R68 is a rule of the Original edition .* not of Recharged"):
        rule("R68", "recharged")
    assert rule("R40").editions == ("recharged",)


def test_an_unknown_rule_names_the_rules_that_exist():
    with pytest.raises(KeyError) as e:
        rule("R999")
    assert str(e.value) == "no rule 'R999': rules are R1-R136 and open points O1-O26"
    with pytest.raises(ValueError, match="unknown edition 'deluxe'; editions are original, recharged"):
        rule("R58", "deluxe")


def test_an_open_point_says_how_this_package_plays_it():
    o23 = rule("O23")
    assert o23.section == "Open point: Default starting cities"
    assert "abstract marker" in o23.text and "§19" in o23.notes[0]
    assert rule("R49").notes[0].startswith("O9: ")


def test_rules_of_a_phase_are_that_phases_rules_in_order():
    building = [r.number for r in rules(phase=4)]
    assert building == [f"R{i}" for i in range(54, 71)]
    assert [r.number for r in rules(phase=0)] == ["R134", "R135", "R136"]
    for phase in range(6):
        assert rules(phase=phase), phase
    assert "R68" not in [r.number for r in rules(phase=4, edition="recharged")]
    assert "R69" in [r.number for r in rules(phase=4, edition="recharged")]


def test_illegal_action_carries_the_rule_in_words():
    """R14: not your turn. The message: what was wrong on the first line, the rule's text on the second."""
    g = new_game(["Ada", "Bo", "Cy"], seed=1)
    other = next(p for p in g.players if p != g.current_player)
    before = g.to_dict()
    with pytest.raises(IllegalAction) as e:
        g.apply(f"{other}: pass")
    first, second = str(e.value).split("\n")
    assert first.startswith(f"{other}: pass: R14: it is {g.current_player}'s turn")
    assert second == f"Rule R14: {rule('R14').text}"
    assert e.value.rule_text == rule("R14").text and e.value.reason.startswith("it is ")
    assert g.to_dict() == before


def test_an_error_without_a_rule_has_one_line():
    e = IllegalAction("something", None)
    assert str(e) == "something" and e.rule_text == ""


def test_rules_display_as_markdown_in_a_notebook():
    md = rule("R40")._repr_markdown_()
    assert md.startswith("**R40** · *Phase 2 — auction power plants* — Recharged (2018) only")


def test_rule_and_rules_are_part_of_the_package_api():
    assert {"rule", "rules", "Rule"} <= set(powergrid_nb.__all__)


def test_the_shipped_rules_are_built_from_docs_rules_md():
    """scripts/build_rules.py run on docs/rules.md gives exactly engine/rules/data/rules.json (run the script
    after editing docs/rules.md)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_rules", ROOT / "scripts" / "build_rules.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    shipped_file = ROOT / "powergrid_nb" / "engine" / "rules" / "data" / "rules.json"
    shipped = json.loads(shipped_file.read_text(encoding="utf-8"))
    assert build.SOURCE == SPECIFICATION
    assert build.parse(SPECIFICATION.read_text(encoding="utf-8")) == shipped


def test_the_specification_keeps_every_rule_worked_example_and_open_point():
    text = SPECIFICATION.read_text(encoding="utf-8")
    assert re.findall(r"^R(\d+)\. ", text, re.M) == [str(i) for i in range(1, 137)]
    assert re.findall(r"^### W(\d+) ", text, re.M) == [str(i) for i in range(1, 30)]
    assert re.findall(r"^\| O(\d+) \|", text, re.M) == [str(i) for i in range(1, 27)]


@pytest.mark.parametrize("phase", [9, "4", True, -1])
def test_rules_of_a_phase_that_is_none_is_an_error_naming_the_phases(phase) -> None:
    with pytest.raises(ValueError, match=r"phase is one of 0 \(start cities\), .*5 \(bureaucracy\), not"):
        rules(phase=phase)
    assert rules(phase=4) and all(r.phase == 4 for r in rules(phase=4))
