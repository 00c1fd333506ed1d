"""Exceptions raised by the engine."""

from __future__ import annotations


class PowerGridError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(PowerGridError, ValueError):
    """An action that the rules do not allow now; the game is left unchanged.

    ``rule`` is the number of the rule the action breaks (e.g. ``"R58"``) and ``rule_text`` its text
    (``powergrid_nb.rule("R58")``); the message says what was wrong, what is allowed and, on a second
    line, the rule in words.
    """

    def __init__(self, message: str, rule: str | None = None, action: object = None) -> None:
        self.rule = rule
        self.action = action
        self.reason = message
        text = f"{rule}: {message}" if rule else message
        if action is not None:
            text = f"{action}: {text}"
        super().__init__(text)

    @property
    def rule_text(self) -> str:
        """The broken rule in words ("" without a rule)."""
        from .rules.rulebook import rule_text  # read on first use: bots raise and catch these in their search

        return rule_text(self.rule)

    def __str__(self) -> str:
        first = super().__str__()
        text = self.rule_text
        return f"{first}\nRule {self.rule}: {text}" if text else first


class SaveFileError(PowerGridError, ValueError):
    """A save file or scenario dict that is malformed, tampered with or of another version."""

    def __init__(self, message: str, where: str = "") -> None:
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)
