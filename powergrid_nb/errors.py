"""Exceptions raised by the engine."""

from __future__ import annotations


class PowerGridError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(PowerGridError, ValueError):
    """An action that the rules do not allow now; the game is left unchanged.

    ``rule`` is the rule number of RULES.md (e.g. ``"R58"``) the action breaks.
    """

    def __init__(self, message: str, rule: str | None = None, action: object = None) -> None:
        self.rule = rule
        self.action = action
        text = f"{rule}: {message}" if rule else message
        if action is not None:
            text = f"{action}: {text}"
        super().__init__(text)


class SaveFileError(PowerGridError, ValueError):
    """A save file or scenario dict that is malformed, tampered with or of another version."""

    def __init__(self, message: str, where: str = "") -> None:
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)
