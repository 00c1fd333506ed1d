# Cython's augmenting declarations for auction.py (read only by powergrid_nb.accel's build; the
# pure-Python engine ignores this file). cpdef: calls inside this module go straight to C; the
# state locals are typed as the State extension type (state.pxd), so their fields are struct reads.
# Every value stays a Python object: nothing a game computes can differ.
cimport cython
from powergrid_nb.engine.state cimport State

@cython.locals(s=State)
cpdef legal(g, p)  # an ActionList (the bids as ranges) or, discarding, a list
@cython.locals(s=State)
cpdef list discard_options(g, p)
@cython.locals(s=State)
cpdef _open(g, a, p)
@cython.locals(s=State)
cpdef _raise(g, a, p)
cpdef _drop(g, p)
@cython.locals(s=State)
cpdef _sell(g)
@cython.locals(s=State)
cpdef take_plant(g, p, plant, price)
