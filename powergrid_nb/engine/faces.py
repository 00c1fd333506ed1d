"""A game's other faces: save data, per-player views, DataFrames, its text and its notebook display.

Saves and what a player sees are the engine's own (``io/``). The DataFrames (pandas), the play table
and the static picture belong to the layers above, which the engine never imports: they plug
themselves in here with :func:`provide` (the package's ``__init__`` does it for its own ``frames``,
``views`` and ``panels``), and a game asks for them with :func:`face` only when a method needs one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game

_PROVIDERS: dict[str, Callable[[], Any]] = {}


def provide(name: str, loader: Callable[[], Any]) -> None:
    """Plug in the face ``name``: ``loader()`` returns the module that draws it (loaded when first
    asked for). The package plugs in ``"frames"``, ``"views"`` and ``"panels"``."""
    _PROVIDERS[name] = loader


def face(name: str) -> Any:
    """The module plugged in as ``name`` (see :func:`provide`)."""
    try:
        loader = _PROVIDERS[name]
    except KeyError:
        raise LookupError(f"no {name!r} face is plugged in: import powergrid_nb (its __init__ plugs in "
                          f"{', '.join(repr(n) for n in ('frames', 'views', 'panels'))})") from None
    return loader()


class Exports:
    """The save/frames/display half of :class:`~powergrid_nb.engine.game.Game`."""

    def to_dict(self) -> dict[str, Any]:
        """The whole position as JSON-ready data: the save format and the scenario format."""
        from .io.saves import game_to_dict
        return game_to_dict(self)  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """The game a save or scenario dict describes, validated first (``io/saves.py``)."""
        from .io.saves import game_from_dict
        return game_from_dict(data, cls)  # type: ignore[type-var]

    def save(self, path: str) -> None:
        from .io.saves import save
        save(self, path)  # type: ignore[arg-type]

    def observation(self, player: str, history: bool = True) -> dict[str, Any]:
        """The position as ``player`` may see it: deck order and unseen removals hidden (``history=False``:
        without the history, the position alone)."""
        from .io.visibility import observation
        return observation(self, player, history)  # type: ignore[arg-type]

    def for_player(self, player: str, seed: int | None = None) -> Game:
        """A copy whose hidden cards are re-dealt at random: what a fair bot may search."""
        from .io.visibility import redeal
        return redeal(self, player, seed)  # type: ignore[arg-type]

    def players_frame(self) -> Any:  # a pandas DataFrame: the engine never imports pandas
        return face("frames").players_frame(self)  # type: ignore[arg-type]

    def plants_frame(self) -> Any:
        return face("frames").plants_frame(self)  # type: ignore[arg-type]

    def resources_frame(self) -> Any:
        return face("frames").resources_frame(self)  # type: ignore[arg-type]

    def cities_frame(self, player: str | None = None) -> Any:
        return face("frames").cities_frame(self, player)  # type: ignore[arg-type]

    def connections_frame(self) -> Any:
        return face("frames").connections_frame(self)  # type: ignore[arg-type]

    def history_frame(self) -> Any:
        return face("frames").history_frame(self)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        state = "over" if self.s.over else f"{self.current_player} to act"
        return (f"<Game {self.edition} {self.ctx.map.name} {len(self.ctx.humans)}p round {self.round}"
                f" step {self.step} phase {self.phase} ({self.phase_name}), {state}>")

    def _ipython_display_(self) -> None:
        """In a notebook a game shows itself as the table to play it on, with a static picture of the
        position in the same output: JupyterLab shows the live table, a saved notebook on GitHub or
        nbviewer (no widgets there) the picture (``panels.display``)."""
        face("panels").show(self)

    def picture(self) -> Any:
        """A static picture of the position (the map and the state of play) for a notebook or a
        web page: ``g.picture()`` displays it, ``g.picture().data`` is the HTML (SVG inside)."""
        return face("views").picture(self)
