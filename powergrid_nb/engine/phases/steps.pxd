# Cython's augmenting declarations for steps.py (read only by powergrid_nb.accel's build; the
# pure-Python engine ignores this file). cpdef: calls inside this module go straight to C; the
# state locals are typed as the State extension type (state.pxd), so their fields are struct reads.
# Every value stays a Python object: nothing a game computes can differ.
cimport cython
from powergrid_nb.engine.state cimport State

cpdef list current_market(g)
cpdef rng(g)
cpdef shuffle(g, cards)
cpdef box(g, card, rule, why)
cpdef box_lowest(g, rule, why)
@cython.locals(s=State)
cpdef draw(g)
@cython.locals(s=State)
cpdef _step3_card_drawn(g)
cpdef replace(g)
cpdef begin_step2(g)
cpdef begin_step3(g)
@cython.locals(s=State)
cpdef end_phase2_step3_cleanup(g)
@cython.locals(s=State)
cpdef update_market(g)
