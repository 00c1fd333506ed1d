"""The Game: legal actions, apply, undo, copy and the history (R13-R15).

Read-only facts and the queries bots and views use live in :mod:`powergrid_nb.engine.queries`.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from .actionlist import ActionList
from .actions import Action, Build
from .errors import IllegalAction
from .events import Decision, Event
from .faces import Exports
from .gamelog import possessive
from .phases import rounds
from .queries import Queries
from .state import State

if TYPE_CHECKING:
    from .context import Context

CHECKPOINT_EVERY = 16  # decisions between the snapshots undo() starts from


class Game(Queries, Exports):
    """A game of Power Grid. Create one with :func:`powergrid_nb.new_game` or :func:`load`."""

    def __init__(self, ctx: Context, state: State, history: list[Event] | None = None) -> None:
        self.ctx, self.s = ctx, state
        # the history as recorded: (event type, round, phase, step, *fields); see ``history``
        self._history: list[tuple] = [_raw(e) for e in history or ()]
        self._events: list[Event] = []     # ``history`` materialised so far
        self._stack: list[Action] = []
        self._marks: list[tuple[int, State, int]] = []   # (decisions, state, history length)
        self._conn: dict[int, tuple] = {}
        self._legal: ActionList | None = None

    # --- the OpenSpiel-like contract -------------------------------------------------------
    def legal_actions(self) -> ActionList:
        """Every legal decision of the player to act (atomic: one token, one city, one bid), as an
        immutable sequence (it equals the list of them); an auction's bids are made as they are read,
        so it is as quick at any money."""
        legal = self._legal
        if legal is None:
            s = self.s
            phase = rounds.PHASES[s.phase]
            p = None if s.over else phase.current(self)
            found = [] if p is None else phase.legal(self, p)
            legal = self._legal = found if isinstance(found, ActionList) else ActionList([found])
        return legal

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``apply(action)`` would succeed now (tried on a copy: nothing changes here)."""
        try:
            if isinstance(action, str):
                action = Action.parse(action)
            self.copy()._apply(action, self._check(action))
        except (IllegalAction, ValueError, TypeError, KeyError):
            return False
        return True

    def apply(self, action: Action | str) -> None:
        """Apply a legal action; raise :class:`IllegalAction` (state unchanged) otherwise."""
        if isinstance(action, str):
            action = Action.parse(action)
        self._apply(action, self._check(action))

    push = apply

    def undo(self, n: int = 1) -> list[Action]:
        """Take back the last ``n`` decisions (any depth); returns them, oldest first."""
        stack = self._stack
        if not 0 <= n <= len(stack):
            if not stack:
                raise ValueError("nothing to undo: no decision has been made since the game was "
                                 "created or loaded")
            raise ValueError(f"can undo 0 to {len(stack)} decisions (all made since the game was "
                             f"created or loaded), not {n}")
        if n == 0:
            return []
        target = len(stack) - n
        undone = stack[target:]
        marks = self._marks
        i = bisect_right(marks, target, key=lambda m: m[0]) - 1
        done, state, length = marks[i]
        del marks[i + 1:]
        self.s = State.thawed(state)
        del self._history[length:]
        del self._events[length:]
        replay = stack[done:target]
        del stack[done:]
        self._conn, self._legal = {}, None
        index = self.ctx.index
        for a in replay:  # legal when first applied, so legal again from the same position
            self._apply(a, index[a.player])
        return undone

    def pop(self) -> Action:
        """Undo the last decision and return it (like python-chess ``Board.pop``)."""
        return self.undo(1)[0]

    def copy(self) -> Game:
        """An independent game in the same position, with the same undo stack and history."""
        g = Game.__new__(Game)
        g.ctx, g.s = self.ctx, self.s.clone()
        g._history, g._events, g._stack = self._history[:], [], self._stack[:]
        g._marks, g._conn, g._legal = self._marks[:], dict(self._conn), self._legal
        return g

    clone = copy

    def __deepcopy__(self, memo: dict) -> Game:
        # copy.deepcopy (OpenSpiel clones Python states with it) gets copy(): the same independent game,
        # without walking every immutable event and the static context
        return self.copy()

    @property
    def history(self) -> list[Event]:
        """The events so far: decisions and what the game did (draws, refills, incomes, steps)."""
        events, raw = self._events, self._history
        for t in raw[len(events):]:
            events.append(t[0](*t[1:]))
        return events[:]

    @property
    def actions(self) -> list[Action]:
        """The decisions applied since the game was created or loaded (the undo stack)."""
        return list(self._stack)

    # --- internals --------------------------------------------------------------------------
    def _event(self, kind: type[Event], *fields: Any) -> None:
        s = self.s
        self._history.append((kind, s.round, s.phase, s.step, *fields))

    def _set_root(self) -> None:
        """The position undo() can go back to: now (after set-up or loading)."""
        self._stack, self._marks = [], [(0, self.s.frozen(), len(self._history))]

    def _check(self, a: Action) -> int:
        """The acting participant's index, once ``a`` is an action of the right player and phase."""
        s = self.s
        phase = rounds.PHASES[s.phase]
        p = self.ctx.index.get(a.player) if isinstance(a, Action) else None
        if p is not None and p == phase.current(self) and isinstance(a, phase.actions) and not s.over:
            return p  # the usual case: the player to act, an action of this phase
        if not isinstance(a, Action):
            raise TypeError(f"expected an Action, got {type(a).__name__}")
        if s.over:
            raise IllegalAction("the game is over", "R96", a)
        if p is None or p == self.ctx.trust:
            raise IllegalAction(f"{a.player!r} is not a player of this game "
                                f"({', '.join(self.players)})", "R5", a)
        if not isinstance(a, phase.actions):
            kinds = ", ".join(c.__name__ for c in phase.actions)
            raise IllegalAction(f"phase {s.phase} ({phase.name}) takes {kinds}", "R13", a)
        cur = phase.current(self)
        if p != cur:
            now = possessive(self.ctx.names[cur], start=False)  # type: ignore[index]
            raise IllegalAction(f"it is {now} turn, not {possessive(a.player, alone=True)} "
                                f"(phase {s.phase}, {phase.name})", "R14", a)
        return p

    def _apply(self, a: Action, p: int) -> None:
        s = self.s
        composite = type(a) is Build and len(a.cities) > 1
        saved = (s.clone(), dict(self._conn)) if composite else None
        length = len(self._history)
        self._history.append((Decision, s.round, s.phase, s.step, a.player, a))
        try:
            rounds.PHASES[s.phase].apply(self, a, p)
        except IllegalAction:
            if saved is not None:
                self.s, self._conn = saved
            del self._history[length:]
            del self._events[length:]
            raise
        stack = self._stack
        stack.append(a)
        self._legal = None
        rounds.advance(self)
        if len(stack) % CHECKPOINT_EVERY == 0:
            self._marks.append((len(stack), self.s.frozen(), len(self._history)))


def _raw(e: Event | tuple) -> tuple:
    """An event as recorded internally."""
    if isinstance(e, tuple):
        return e
    return (type(e), *(getattr(e, f.name) for f in fields(e)))
