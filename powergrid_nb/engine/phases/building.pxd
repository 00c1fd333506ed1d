# Cython's augmenting declarations for building.py (read only by powergrid_nb.accel's build; the
# pure-Python engine ignores this file). cpdef: calls inside this module go straight to C; the
# state locals are typed as the State extension type (state.pxd), so their fields are struct reads.
# Every value stays a Python object: nothing a game computes can differ.
cimport cython
from powergrid_nb.engine.state cimport State

cpdef connection_costs(g, p)
@cython.locals(s=State)
cpdef tuple slot_price(g, p, city, queued=*, founded=*)
@cython.locals(s=State)
cpdef list slot_prices(g, p, queued=*, founded=*)
cpdef tuple city_price(g, p, city, queued=*)
cpdef link_costs(g, p, queued=*)
@cython.locals(s=State)
cpdef list legal(g, p)
@cython.locals(s=State)
cpdef apply(g, a, p)
@cython.locals(s=State)
cpdef add_house(g, p, city, cost)
