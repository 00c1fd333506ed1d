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


# What a SaveFileError is about, as a short stable identifier (``SaveFileError.code``): programs (the
# scenario editor) act on the code and the path, never on the message's words.
SAVE_ERROR_CODES: dict[str, str] = {
    # the file as a whole
    "unreadable": "the file cannot be read (missing, no permission)",
    "too_large": "the file is larger than a save or scenario can be",
    "not_json": "the text is not JSON (truncated or edited)",
    "wrong_format": "not a powergrid_nb game or scenario (format, or not an object)",
    "unsupported_version": "a schema_version this engine does not read",
    # the shape of the data
    "missing": "a required key is absent",
    "bad_type": "a value of the wrong JSON type (a string for a number, ...)",
    "bad_value": "a value that is not one of those allowed (edition, map, regions, options, ...)",
    # names
    "unknown_plant": "not a power plant card (03-40, 42, 44, 46, 50 or 'step3')",
    "unknown_player": "not a player of the game",
    "unknown_city": "not a city of the play area",
    # the rules a position must satisfy
    "out_of_range": "a number outside its range (round, phase, step, money, resources, a bid)",
    "over_limit": "more than a rule allows (plants, tokens a player's plants hold, cities, houses)",
    "duplicate": "something listed twice (a player in a list, a city of a player)",
    "duplicate_card": "a plant card in two places (R118)",
    "missing_card": "a plant card in no place (R118)",
    "misplaced_card": "a card where the rules do not allow it (the Step 3 card owned or removed at set-up)",
    "mismatch": "two parts of the position disagree (houses and cities, over and phase, the orders)",
    "not_allowed": "something the rules do not allow in this position (a pending auction outside "
                   "phase 2, the Step 3 card owned, the discount token out of place, ...)",
}


def _where(root: str, path: tuple[str | int, ...]) -> str:
    """``("state", "players", "Ada", "money")`` under "game" as "game.state.players.Ada.money", list
    indices in brackets ("game.history[3]")."""
    return root + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)


class SaveFileError(PowerGridError, ValueError):
    """A save file or scenario dict that is malformed, tampered with or of another version.

    As data: ``path`` is where in the dict the problem is (``("state", "players", "Ada", "money")``,
    ``("state", "market")``, ``()`` for the whole thing; list positions are ints), ``code`` what kind of
    problem it is (one of :data:`SAVE_ERROR_CODES`), ``reason`` the message alone, ``allowed`` what is
    allowed when one value says it (a limit, the names allowed; else None) and ``file`` the file read
    (else None). ``where`` is the place the text names first: the file, else ``root`` and the path
    ("game.state.players.Ada.money"; with ``root=""`` the text names no place).
    """

    def __init__(self, message: str, path: tuple[str | int, ...] = (), code: str = "bad_value", *,
                 root: str = "game", file: str | None = None, allowed: object = None) -> None:
        if code not in SAVE_ERROR_CODES:
            raise ValueError(f"{code!r} is not a SaveFileError code ({', '.join(SAVE_ERROR_CODES)})")
        self.reason, self.path, self.code = message, tuple(path), code
        self.root, self.file, self.allowed = root, file, allowed
        inner = _where(root, self.path) if root else ""
        text = f"{inner}: {message}" if inner else message
        super().__init__(f"{file}: {text}" if file else text)

    @property
    def where(self) -> str:
        """The file, else where in the data ("game.state.market"; "" when neither)."""
        return self.file or (_where(self.root, self.path) if self.root else "")

    def in_file(self, file: str) -> SaveFileError:
        """The same error, read from ``file`` (its name leads the message)."""
        return type(self)(self.reason, self.path, self.code, root=self.root, file=file, allowed=self.allowed)

    def __reduce__(self) -> tuple:
        return (_rebuild, (type(self), self.reason, self.path, self.code, self.root, self.file, self.allowed))


def _rebuild(cls: type[SaveFileError], message: str, path: tuple, code: str, root: str, file: str | None,
             allowed: object) -> SaveFileError:
    """Unpickling: the error as it was (keywords cannot ride in ``__reduce__``'s arguments)."""
    return cls(message, path, code, root=root, file=file, allowed=allowed)
