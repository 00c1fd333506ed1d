"""The phases of a round (R13): their numbers and names are
:class:`~powergrid_nb.engine.rules.phases.Phase` (a rule fact), the rules of each a small
:class:`~.base.PhaseRules` object; ``rounds`` runs them in order, ``steps`` changes the game's step and the
plant market."""
