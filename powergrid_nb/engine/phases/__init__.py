"""The phases of a round (R13): each a small :class:`~.base.Phase` object; ``rounds`` runs them in
order, ``steps`` changes the game's step and the plant market."""
