"""The rules engine: a game's state, its legal actions and their effects. Pure Python; it imports
nothing of the package above it (position, bots, play, frames, views, panels ...).

``game`` (the :class:`Game` and its undo stack), ``state`` (what changes), ``context`` (what stays
fixed for a game), ``actions`` and ``events`` (what players decide and what happens), ``queries``
(read-only facts for bots and views), ``newgame`` (set-up and loading), ``options`` (the set-up's
checks), ``editions`` and ``trust`` (the editions and the Trust: rule objects that play with the
phases), ``faces`` (the game's other faces: saves, frames and its notebook display, plugged in from
above); ``phases/`` (the round's phases and steps), ``rules/`` (the facts: the phases' numbers, the
editions' names and tables, plants, the rulebook), ``board/`` (maps, map files, map rules, networks),
``io/`` (saves, old saves, what a player may see). Siblings import one way (docs/architecture.md).
"""
