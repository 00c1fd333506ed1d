"""A game as data: the save format (``saves``), version-1 saves (``history_v1``) and what one player
may see of a game (``visibility``)."""
