"""The board: maps and map files, the rules particular to a map, and networks of cities (paths and
the cost of connecting them)."""
