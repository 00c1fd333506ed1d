# Cython's augmenting declarations for bureaucracy.py (read only by powergrid_nb.accel's build; the
# pure-Python engine ignores this file). cpdef: calls inside this module go straight to C; the
# state locals are typed as the State extension type (state.pxd), so their fields are struct reads.
# Every value stays a Python object: nothing a game computes can differ.
cimport cython
from powergrid_nb.engine.state cimport State

cpdef _power(name, subset, hc)
@cython.locals(s=State)
cpdef list legal(g, p)
@cython.locals(s=State)
cpdef tuple _outcome(g, a, p)
@cython.locals(s=State)
cpdef apply(g, a, p)
@cython.locals(s=State)
cpdef refill(g)
cpdef finish(g)
