"""The Rules tab of the table: the rules of the phase being played, in words, and any rule by number.

The texts are the package's own (``powergrid_nb.rule``); an error line names a rule (R58), and here it
can be read in full.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

import ipywidgets as w

from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.rulebook import Rule, UnknownRule, rule, rules

from ._widgets import label

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

PHASE_TITLES = {Phase.START_CITIES: "Start cities", Phase.PLAYER_ORDER: "Phase 1: player order",
                Phase.AUCTION: "Phase 2: auction", Phase.RESOURCES: "Phase 3: buying resources",
                Phase.BUILDING: "Phase 4: building", Phase.BUREAUCRACY: "Phase 5: bureaucracy"}
ROUND = ("R13", "R14", "R15", "R16")  # how a round and a step go: shown in every phase


def rule_html(r: Rule) -> str:
    """One rule as HTML: number, text (its tables as preformatted text) and notes."""
    def block(text: str) -> str:
        parts = re.split(r"((?:^\|.*\n?)+)", text, flags=re.M)
        return "".join(f"<pre style='font-size:11px;margin:4px 0'>{html.escape(p.strip())}</pre>"
                       if p.startswith("|") else _emphasis(html.escape(p.strip())).replace("\n", "<br>")
                       for p in parts if p.strip())

    notes = "".join(f"<div style='color:#555;margin:2px 0 0 12px'>{block(n)}</div>" for n in r.notes)
    return (f"<div class='pg-rule' style='margin:6px 0'><b>{r.number}</b> {block(r.text)}{notes}</div>")


def _emphasis(text: str) -> str:
    """The rules' markdown emphasis (**bold**, *italic*) as HTML."""
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    return re.sub(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", r"<i>\1</i>", text)


def phase_rules_html(g: Game) -> str:
    """The rules of ``g``'s current phase for its edition, after the round's own (R13-R16)."""
    phase = g.phase if g.phase in PHASE_TITLES else None
    shown = [rule(n) for n in ROUND]
    if phase is not None:
        shown += [r for r in rules(phase=phase, edition=g.edition) if r.number not in ROUND]
    title = PHASE_TITLES.get(phase, "The game is over") if phase is not None else "The game is over"
    return (f"<div style='font-size:13px;line-height:1.4'><h4 style='margin:4px 0'>{html.escape(title)}"
            f" — {g.edition} edition</h4>{''.join(rule_html(r) for r in shown)}</div>")


def error_html(e: Exception) -> str:
    """An engine error for the table's message line: what was wrong, then the broken rule in words."""
    first, _, rest = str(e).partition("\n")
    more = f"<div style='font-size:0.9em;color:#444;margin-top:2px'>{html.escape(rest)}</div>" if rest else ""
    return f"{html.escape(first)}{more}"


class RulesView:
    """A box with a rule lookup (type R58 or O23) over the rules of the current phase."""

    def __init__(self) -> None:
        self.lookup = w.Text(placeholder="a rule, e.g. R58", layout=w.Layout(width="160px"))
        self.lookup.add_class("pg-rule-lookup")
        self.found = label(cls="pg-rule-found")
        self.phase = label(cls="pg-rules")
        self.lookup.observe(self._look_up, names="value")
        self.widget = w.VBox([w.HBox([label("<b>Look up a rule:</b>"), self.lookup]), self.found, self.phase],
                             layout=w.Layout(max_height="520px", overflow="auto", padding="4px"))
        self._key: tuple | None = None

    def refresh(self, g: Game) -> None:
        key = (g.phase, g.edition)
        if key != self._key:
            self._key = key
            self.phase.value = phase_rules_html(g)

    def _look_up(self, change: dict) -> None:
        text = str(change["new"]).strip()
        if not text:
            self.found.value = ""
            return
        try:
            self.found.value = f"<div style='background:#F3F6FA;padding:4px'>{rule_html(rule(text))}</div>"
        except UnknownRule as e:
            self.found.value = f"<span style='color:#B00020'>{html.escape(str(e))}</span>"
