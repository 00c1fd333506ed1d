"""A game's other faces: save data, per-player views, DataFrames, its text and its notebook display.

Each delegates to the module that owns it, so the engine core never imports pandas or widgets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from .game import Game


class Exports:
    """The save/frames/display half of :class:`~powergrid_nb.game.Game`."""

    def to_dict(self) -> dict[str, Any]:
        """The whole position as JSON-ready data: the save format and the scenario format."""
        from .io import game_to_dict
        return game_to_dict(self)  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        from .io import game_from_dict
        return game_from_dict(data)

    def save(self, path: str) -> None:
        from .io import save
        save(self, path)  # type: ignore[arg-type]

    def observation(self, player: str, history: bool = True) -> dict[str, Any]:
        """The position as ``player`` may see it: deck order and unseen removals hidden (``history=False``:
        without the history, the position alone)."""
        from .visibility import observation
        return observation(self, player, history)  # type: ignore[arg-type]

    def for_player(self, player: str, seed: int | None = None) -> Game:
        """A copy whose hidden cards are re-dealt at random: what a fair bot may search."""
        from .visibility import redeal
        return redeal(self, player, seed)  # type: ignore[arg-type]

    def players_frame(self) -> pd.DataFrame:
        from .frames import players_frame
        return players_frame(self)  # type: ignore[arg-type]

    def plants_frame(self) -> pd.DataFrame:
        from .frames import plants_frame
        return plants_frame(self)  # type: ignore[arg-type]

    def resources_frame(self) -> pd.DataFrame:
        from .frames import resources_frame
        return resources_frame(self)  # type: ignore[arg-type]

    def cities_frame(self, player: str | None = None) -> pd.DataFrame:
        from .frames import cities_frame
        return cities_frame(self, player)  # type: ignore[arg-type]

    def connections_frame(self) -> pd.DataFrame:
        from .frames import connections_frame
        return connections_frame(self)  # type: ignore[arg-type]

    def history_frame(self) -> pd.DataFrame:
        from .frames import history_frame
        return history_frame(self)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        state = "over" if self.s.over else f"{self.current_player} to act"
        return (f"<Game {self.edition} {self.ctx.map.name} {len(self.ctx.humans)}p round {self.round}"
                f" step {self.step} phase {self.phase} ({self.phase_name}), {state}>")

    def _ipython_display_(self) -> None:
        """In a notebook a game shows itself as the table to play it on (``powergrid_nb.panels``),
        with a static picture of the position in the same output (``views.picture``): JupyterLab shows
        the live table, a saved notebook on GitHub or nbviewer (no widgets there) the picture.

        As python-chess's boards render themselves, the display modules load only here, so the
        engine itself never imports widgets or plotting.
        """
        from IPython.display import display

        from .panels import play
        from .views.picture import position_html

        table = play(self)
        bundle = table._repr_mimebundle_()
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        display({**data, "text/html": position_html(self)}, raw=True)

    def picture(self) -> Any:
        """A static picture of the position (the map and the state of play) for a notebook or a
        web page: ``g.picture()`` displays it, ``g.picture().data`` is the HTML (SVG inside)."""
        from IPython.display import HTML

        from .views.picture import position_html
        return HTML(position_html(self))
