"""Replay a game: the position after any number of its decisions, read from its typed history.

A game's history (:attr:`Game.history`) holds every decision since set-up, also for a loaded game,
whose undo stack reaches back only to the load point. Positions in the undo range come from a copy
taken back with ``undo``; earlier ones from a rebuild: a new game from the same settings (players,
map, regions, edition, seed, options) with the recorded decisions applied again, checked event by
event against the history and, at the load point, against the loaded position. A game whose history
does not start from such a set-up (a hand-made scenario) replays from its load point only.

>>> from powergrid_nb import new_game
>>> from powergrid_nb.position.replay import Recording
>>> g = new_game(3, seed=1)
>>> g.apply(g.legal_actions()[0])
>>> rec = Recording(g)
>>> rec.total, rec.position(0).to_dict() == new_game(3, seed=1).to_dict()
(1, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from powergrid_nb.engine.errors import IllegalAction, PowerGridError
from powergrid_nb.engine.events import Decision, Event
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.engine.rules.phases import PHASE_NAMES

if TYPE_CHECKING:
    from powergrid_nb.engine.game import Game

__all__ = ["Recording", "ReplayError", "decision_label", "decisions", "position_at", "round_starts"]


class ReplayError(PowerGridError, ValueError):
    """A position a game's history cannot give: out of range, or before a load point the history
    cannot be replayed from."""


def _when(round: int, phase: int) -> str:
    return f"Round {round}, phase {phase} ({PHASE_NAMES[phase]})"


def _settings(g: Game) -> str:
    cfg = g.to_dict()["config"]
    area = cfg["map"] if isinstance(cfg["map"], str) else "a custom map"
    return (f"{len(cfg['players'])} players, {cfg['edition']}, {area}, regions "
            f"{', '.join(cfg['regions'])}, seed {cfg['seed']}")


class Recording:
    """A game's whole course, frozen when made (later moves of the game are not seen).

    ``total`` decisions; positions ``start`` to ``total`` can be shown (``start`` is 0 unless the
    game was loaded from a history that cannot be replayed from set-up: then ``problem`` says why
    and ``start`` is the load point).
    """

    def __init__(self, g: Game) -> None:
        self.game = g.copy()
        self.history: list[Event] = self.game.history
        self.decisions: list[Decision] = [e for e in self.history if isinstance(e, Decision)]
        self.total = len(self.decisions)
        self.loaded_at = self.total - len(self.game.actions)  # positions >= this: by undo
        self._full: Game | None = self.game if self.loaded_at == 0 else None  # undo reaches set-up
        self._problem: str | None = None

    # --- what can be shown -------------------------------------------------------------------------
    @property
    def start(self) -> int:
        """The first position that can be shown: 0, or the load point if the rebuild failed."""
        return 0 if self._rebuilt() is not None else self.loaded_at

    @property
    def problem(self) -> str | None:
        """Why the positions before the load point cannot be shown (None: they can)."""
        self._rebuilt()
        return self._problem

    def position(self, k: int) -> Game:
        """An independent game after the first ``k`` decisions of the history (its undo stack and
        history end there)."""
        self._check(k)
        base = self.game if k >= self.loaded_at else self._rebuilt()
        if base is None:
            raise ReplayError(f"position {k} comes before the load point (decision {self.loaded_at}) "
                              f"and cannot be rebuilt: {self._problem} Positions {self.loaded_at} to "
                              f"{self.total} can be shown.")
        g = base.copy()
        g.undo(self.total - k)
        return g

    # --- where a position is ----------------------------------------------------------------------
    def round_phase(self, k: int) -> tuple[int, int]:
        """The round and phase of the position after ``k`` decisions (the next decision's, or the
        game's own at the end)."""
        self._check(k)
        if k < self.total:
            e = self.decisions[k]
            return e.round, e.phase
        return self.game.round, self.game.phase

    def round_starts(self) -> dict[int, int]:
        """{round: the first position shown in it}, rounds in order, from :attr:`start` on."""
        out: dict[int, int] = {}
        for k in range(self.start, self.total + 1):
            out.setdefault(self.round_phase(k)[0], k)
        return out

    def label(self, k: int) -> str:
        """Where position ``k`` is: "Round 3, phase 2 (auction), after Ada: open 13 at 13" (the
        round and phase of decision ``k``); before any decision, the position's round and phase."""
        self._check(k)
        if k == 0:
            round, phase = self.round_phase(0)
            start = "the start of the game" if round == 1 else "the start of the history"
            return f"{_when(round, phase)}: {start}, before the first decision"
        e = self.decisions[k - 1]
        return f"{_when(e.round, e.phase)}, after {e.action}"

    def _check(self, k: int) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= self.total:
            raise ReplayError(f"a position is a number of decisions from 0 to {self.total} (the "
                              f"decisions in this game's history), not {k!r}")

    # --- the rebuild from set-up ----------------------------------------------------------------------
    def _rebuilt(self) -> Game | None:
        """The game replayed from set-up through every decision (None if that fails: see problem)."""
        if self._full is None and self._problem is None:
            try:
                self._full = self._rebuild()
            except ReplayError as e:
                self._problem = str(e)
        return self._full

    def _rebuild(self) -> Game:
        cfg = self.game.to_dict()["config"]
        recorded = self.history
        failed: list[tuple[int, str]] = []  # (decisions replayed, why not further) per set-up tried
        for regions in (None, cfg["regions"]):  # new_game draws the regions itself unless given
            g = new_game(cfg["players"], map=cfg["map"], edition=cfg["edition"], regions=regions,
                         seed=cfg["seed"], **cfg["options"])
            if g.to_dict()["config"] != cfg or recorded[:len(g.history)] != g.history:
                continue
            try:
                return self._replay(g)
            except ReplayError as e:
                failed.append((getattr(e, "done", 0), str(e)))
        if not failed:
            raise ReplayError(f"the history does not start with the set-up of a new game with its "
                              f"settings ({_settings(self.game)}); it may be a hand-made scenario.")
        raise ReplayError(f"replaying the history from a new game with its settings "
                          f"({_settings(self.game)}) fails: {max(failed)[1]}")

    def _replay(self, g: Game) -> Game:
        """``g`` (a new game) with every decision of the history applied, checked as it goes."""
        recorded, seen = self.history, len(g.history)
        for i, e in enumerate(self.decisions):
            if i == self.loaded_at:
                self._same_as_loaded(g, i)
            try:
                g.apply(e.action)
            except IllegalAction as err:
                raise _failed(i, f"decision {i + 1} of the history ({e.action}) is illegal when "
                                 f"replayed from set-up: {err.reason}.") from None
            seen = _same_events(recorded, g.history, seen, i + 1)
        if self.loaded_at == self.total:
            self._same_as_loaded(g, self.total)
        if g.to_dict() != self.game.to_dict():
            raise _failed(self.total, f"replaying the {self.total} decisions of the history from "
                                      "set-up does not end in this game's position (was it edited?).")
        return g

    def _same_as_loaded(self, g: Game, done: int) -> None:
        """The rebuild at the load point must be the position that was loaded."""
        loaded = self.game.copy()
        loaded.undo(len(loaded.actions))
        if g.to_dict()["state"] != loaded.to_dict()["state"]:
            raise _failed(done, f"replaying the {self.loaded_at} decisions of the history from set-up "
                              "does not give the position that was loaded (was it edited?).")


def _failed(done: int, message: str) -> ReplayError:
    """A rebuild that failed after ``done`` decisions (the furthest one tried is reported)."""
    e = ReplayError(message)
    e.done = done  # type: ignore[attr-defined]
    return e


def _same_events(recorded: list[Event], rebuilt: list[Event], seen: int, done: int) -> int:
    """The rebuild's events after the first ``seen`` equal the recorded ones (``done`` decisions
    applied); returns how many are checked now."""
    n = len(rebuilt)
    if recorded[seen:n] != rebuilt[seen:]:
        at = next((i for i in range(seen, n) if i >= len(recorded) or recorded[i] != rebuilt[i]), n)
        want = recorded[at].text() if at < len(recorded) else "nothing more"
        got = rebuilt[at].text() if at < n else "nothing more"
        raise _failed(done, f"after decision {done}, replayed from set-up, event {at + 1} is "
                          f"{got!r} but the history records {want!r}.")
    return n


def decisions(g: Game) -> int:
    """How many decisions the game's whole history holds (from set-up, also before a load point)."""
    return sum(isinstance(e, Decision) for e in g.history)


def position_at(g: Game, k: int) -> Game:
    """The game after the first ``k`` decisions of its whole history (an independent game);
    :class:`ReplayError` if ``k`` is out of range or cannot be rebuilt."""
    return Recording(g).position(k)


def round_starts(g: Game) -> dict[int, int]:
    """{round: the number of decisions made before it starts} for each round of the history."""
    return Recording(g).round_starts()


def decision_label(g: Game, k: int) -> str:
    """ "Round 3, phase 2 (auction), after Ada: open 13 at 13": decision ``k`` of the history."""
    return Recording(g).label(k)
