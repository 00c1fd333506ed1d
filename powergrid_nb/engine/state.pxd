# Cython's augmenting declarations for state.py (read only by powergrid_nb.accel's build; the
# pure-Python engine ignores this file). State becomes an extension type with the same attributes, all
# Python objects (no C types: no value can behave differently); the phases' typed locals
# (``s = g.s``, see auction.pxd and the others) then read them as struct fields instead of looking up a
# slot descriptor on every access. The attributes are state.FIELDS (tests/test_state_fields.py checks it).
cimport cython

cdef class State:
    cdef public object round, phase, step, over, order, seats, money, plants, tokens, houses, mine
    cdef public object market, deck, removed, boxed, res, discount, active, bought, auction, discard
    cdef public object first_draw, to_act, step3_from, flags, marked, counter, top_known

    @cython.locals(s=State)
    cpdef State clone(self)
