"""In a real kernel, bots play their seats on a timer (the table's delay) while the kernel stays free,
as in JupyterLab and Voila; in plain Python they move at once (tests/test_panels_table.py)."""

import nbformat
from nbclient import NotebookClient

CELLS = [
    """from powergrid_nb import new_game
from powergrid_nb.panels import play
g = new_game(["Bo", "Cy", "You"], seed=3)
table = play(g, bots={"Bo": "random", "Cy": "random"}, delay=0.05)
moves_at_start = len(g.actions)""",
    # the kernel is free between bot moves: this cell runs while the timer is pending
    "import asyncio\nfor _ in range(100):\n    if g.current_player == 'You':\n        break\n"
    "    await asyncio.sleep(0.05)",
    "print(moves_at_start, len(g.actions), g.current_player, table.status.value.count('You to act'))",
]


def test_bots_move_on_a_timer_in_a_kernel_until_the_human_is_to_act(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
                   ).execute()
    start, moves, who, status = nb.cells[2].outputs[0]["text"].split()
    assert who == "You" and int(status) == 1
    assert int(moves) > int(start) == 0  # the bots moved after the table was shown, not before
