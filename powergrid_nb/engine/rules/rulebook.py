"""The rules of Power Grid as this package plays them, in words: ``rule("R58")``,
``rules(phase=Phase.BUILDING)``.

Every error and docstring of the package cites rules by number (R58) and open points by id (O23: where the
rulebooks are silent and this package had to choose). The texts ship with the package
(``data/rules.json``, built by ``scripts/build_rules.py`` from the rules specification ``docs/rules.md``,
their one source) and are read on first use.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any

from powergrid_nb.engine.datafiles import data_text

from .phases import Phase
from .tables import EDITION_NAMES

__all__ = ["Rule", "UnknownRule", "rule", "rules"]


class UnknownRule(KeyError):
    """No such rule, or a rule of the other edition; the message says which rules exist."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Rule:
    """One rule (``R58``) or open point (``O23``): its text, the section it belongs to, the editions it
    applies to and notes on how this package reads it where the rulebooks are silent."""

    number: str
    section: str
    text: str
    editions: tuple[str, ...] = tuple(EDITION_NAMES)
    notes: tuple[str, ...] = ()
    phase: Phase | None = None

    def applies_to(self, edition: str) -> bool:
        return edition in self.editions

    def __str__(self) -> str:
        parts = [f"{self.number} ({self.section}): {self.text}", *self.notes]
        return "\n".join(parts)

    def _repr_markdown_(self) -> str:
        where = "" if len(self.editions) == 2 else f" — {EDITION_NAMES[self.editions[0]]} only"
        notes = "".join(f"\n\n> {n}" for n in self.notes)
        return f"**{self.number}** · *{self.section}*{where}\n\n{self.text}{notes}"


@functools.cache
def _data() -> dict[str, Any]:
    return json.loads(data_text("rules.json"))


@functools.cache
def _all() -> dict[str, Rule]:
    data = _data()
    out = {n: Rule(n, r["section"], r["text"], tuple(r["editions"]), tuple(r["notes"]),
                   None if r["phase"] is None else Phase(r["phase"]))
           for n, r in data["rules"].items()}
    for n, o in data["open_points"].items():
        text = o["text"].split(": ", 1)[-1] if o["text"] else o["summary"]
        out[n] = Rule(n, f"Open point: {o['topic']}", text, notes=(f"Rules concerned: {o['rules']}",))
    return out


def rule(number: str, edition: str | None = None) -> Rule:
    """The rule ``number`` ("R58", "r58", "58" or an open point "O23").

    With ``edition``, a rule of the other edition only raises :class:`UnknownRule` (a ``KeyError``)
    saying so: ``rule("R68", "recharged")`` explains that Recharged has no such rule."""
    key = _key(number)
    found = _all().get(key)
    if found is None:
        raise UnknownRule(f"no rule {number!r}: rules are R1-R{_last()} and open points O1-O{_last('O')}")
    if edition is not None:
        if edition not in EDITION_NAMES:
            raise ValueError(f"unknown edition {edition!r}; editions are {', '.join(EDITION_NAMES)}")
        if not found.applies_to(edition):
            raise UnknownRule(f"{key} is a rule of the {EDITION_NAMES[found.editions[0]]} only, "
                           f"not of {EDITION_NAMES[edition]}: {found.text}")
    return found


def rules(phase: int | None = None, edition: str | None = None) -> list[Rule]:
    """The rules in order: all, or those of one phase (a :class:`Phase` or its number:
    ``Phase.BUILDING`` or 4), optionally only those of one edition."""
    out = [r for r in _all().values() if r.number.startswith("R")]
    if phase is not None:
        phases = sorted({r.phase for r in out if r.phase is not None})
        if isinstance(phase, bool) or phase not in phases:
            listed = ", ".join(f"{p:d} ({p.label})" for p in phases)
            raise ValueError(f"phase is one of {listed}, not {phase!r}")
        out = [r for r in out if r.phase == phase]
    if edition is not None:
        if edition not in EDITION_NAMES:
            raise ValueError(f"unknown edition {edition!r}; editions are {', '.join(EDITION_NAMES)}")
        out = [r for r in out if r.applies_to(edition)]
    return out


def rule_text(number: str | None) -> str:
    """The text of rule ``number`` for an error message ("" for None or an unknown number)."""
    if not number:
        return ""
    try:
        return rule(number).text
    except UnknownRule:
        return ""


def _key(number: str) -> str:
    text = str(number).strip().upper()
    return f"R{text}" if re.fullmatch(r"\d+", text) else text


def _last(prefix: str = "R") -> int:
    return max(int(n[1:]) for n in _all() if n.startswith(prefix))
