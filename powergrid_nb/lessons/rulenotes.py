"""The rules a lesson touches, shown in the package's own words (the shipped rule text, ``rule()``)."""

from __future__ import annotations

from dataclasses import dataclass

from powergrid_nb.engine.rules.rulebook import EDITION_NAMES, Rule, rule

__all__ = ["RuleNotes", "rules_box"]


@dataclass(frozen=True)
class RuleNotes:
    """Some rules, drawn in Jupyter as a folded box of their texts (``str()`` gives plain text)."""

    rules: tuple[Rule, ...]
    title: str

    def __str__(self) -> str:
        return "\n\n".join(str(r) for r in self.rules)

    def _repr_markdown_(self) -> str:
        items = []
        for r in self.rules:
            where = "" if len(r.editions) == 2 else f" ({EDITION_NAMES[r.editions[0]]} only)"
            items.append(f"<li><b>{r.number}</b> <i>{r.section}</i>{where}: {r.text}</li>")
        numbers = ", ".join(r.number for r in self.rules)
        return (f"<details><summary><b>{self.title}</b> ({numbers}): the rules as this package plays them"
                f"</summary><ul>{''.join(items)}</ul></details>")


def rules_box(*numbers: str, title: str = "Rules") -> RuleNotes:
    """The rules ``numbers`` ("R45", "O14", ...) as a folded box for a lesson page."""
    if not numbers:
        raise ValueError("rules_box needs at least one rule number, e.g. rules_box('R45')")
    return RuleNotes(tuple(rule(n) for n in numbers), title)
