# Cython's augmenting declarations for rounds.py (read only by powergrid_nb.accel's build; the
# pure-Python engine ignores this file). cpdef: calls inside this module go straight to C; the
# state locals are typed as the State extension type (state.pxd), so their fields are struct reads.
# Every value stays a Python object: nothing a game computes can differ.
cimport cython
from powergrid_nb.engine.state cimport State

@cython.locals(s=State)
cpdef advance(g)
@cython.locals(s=State)
cpdef end_game(g)
