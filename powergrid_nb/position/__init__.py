"""Positions as data, above the engine: the scenario editor (``scenario``, its checks in ``checks``),
a game after its first k decisions (``replay``) and a game's course round by round (``timeline``)."""
