"""The rules as data: editions and their tables, the power plants, the Trust (2-player robot) and the
rulebook the errors quote."""
