# Cython's augmenting declarations for plants.py (read only by powergrid_nb.accel's build; the
# pure-Python engine ignores this file). cpdef: calls inside this module go straight to C.
cimport cython

cpdef tuple capacities(plants)
cpdef fits(cap, tokens)
cpdef tuple room_for_one(cap, tokens)
cpdef tuple needs(plants)
# The one C-typed function: every operand is a token count of one player's plants or holdings (a run
# needs at most a few dozen tokens, a player holds at most twice that), far inside a C long, so the
# arithmetic is Python's; a non-integer count would raise TypeError rather than compute.
@cython.locals(nc=cython.long, no=cython.long, ng=cython.long, nu=cython.long, nh=cython.long,
               c=cython.long, o=cython.long, g=cython.long, u=cython.long, lo=cython.long, hi=cython.long)
cpdef coal_bounds(need, tokens)
cpdef list subsets(plants)
cpdef list keep_options(plants, tokens)
