"""The rules as facts: the phases' numbers and names, the editions' names and tables, the power plants and
the rulebook the errors quote. They import nothing of the engine above them; the pluggable rule objects
that play with the phases (the editions, the Trust) are ``engine/editions.py`` and ``engine/trust.py``."""
