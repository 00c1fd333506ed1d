"""The rules inside the table: a Rules tab with the current phase's rules and a lookup,
and an error line that quotes the broken rule."""

from __future__ import annotations

from powergrid_nb import new_game, rule
from powergrid_nb.panels import Table
from powergrid_nb.panels.board import TABS


def _rules_tab(t: Table):
    t.board.tabs.selected_index = TABS.index("Rules")
    return t.board.rules


def test_the_rules_tab_shows_the_rules_of_the_phase_being_played():
    g = new_game(["You", "Bo", "Cy"], edition="recharged", seed=7)
    t = Table(g, delay=0)
    view = _rules_tab(t)
    shown = view.phase.value
    assert g.phase == 2 and "Phase 2: auction — recharged edition" in shown
    for number in ("R13", "R24", "R40", "R43"):  # the round, the auction, the Recharged discount
        assert f"<b>{number}</b>" in shown
    assert "<b>R38</b>" not in shown  # an original-edition rule
    assert t.board.tabs.children[TABS.index("Rules")].children == (view.widget,)


def test_the_rules_tab_follows_the_phase():
    g = new_game(["You", "Bo", "Cy"], seed=7)
    t = Table(g, delay=0)
    view = _rules_tab(t)
    assert "Phase 2: auction" in view.phase.value
    while g.phase == 2:  # everyone opens at the minimum, the others pass: round 1 ends its auctions
        g.apply(g.legal_actions()[0] if g.auction is None else g.legal_actions()[-1])
    t.refresh()
    assert "Phase 3: buying resources" in view.phase.value and "<b>R45</b>" in view.phase.value


def test_a_rule_can_be_looked_up_by_number():
    t = Table(new_game(3, seed=1), delay=0)
    view = _rules_tab(t)
    view.lookup.value = "r58"
    assert "<b>R58</b> City capacity by step" in view.found.value
    view.lookup.value = "R999"
    assert "no rule &#x27;R999&#x27;: rules are R1-R136" in view.found.value


def test_an_illegal_click_shows_the_rule_in_words():
    """R14: out of turn. The message line says what was wrong and, below, the rule's text."""
    g = new_game(["You", "Bo", "Cy"], seed=7)
    t = Table(g, delay=0)
    other = next(p for p in g.players if p != g.current_player)
    assert t.submit(f"{other}: pass") is False
    assert f"{other}: pass: R14: it is {g.current_player}" in t.message.value
    assert f"Rule R14: {rule('R14').text}" in t.message.value
