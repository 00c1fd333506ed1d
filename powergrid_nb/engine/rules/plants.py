"""Power plant cards (rules as data: ``data/plants.json``) and the fuel arithmetic of R46-R49, R73."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from powergrid_nb.engine.datafiles import data_text

RESOURCES: tuple[str, ...] = ("coal", "oil", "garbage", "uranium")
COAL, OIL, GARBAGE, URANIUM = range(4)
FUELS: tuple[str, ...] = ("coal", "oil", "garbage", "uranium", "hybrid", "eco", "fusion")
STEP3 = 99  # the "Step 3" card; sorts above every plant (R12)
STEP3_NAME = "step3"


def card_out(card: int) -> int | str:
    """A card as saves and observations show it: its number, or ``"step3"`` for the Step 3 card."""
    return STEP3_NAME if card == STEP3 else card


@dataclass(frozen=True, slots=True)
class PowerPlant:
    """One plant card: its number (also its minimum bid), fuel, tokens per run and cities powered."""

    number: int
    fuel: str
    tokens: int
    cities: int

    @property
    def storage(self) -> int:
        """Tokens it can hold: twice its need (R47); green plants hold none."""
        return 2 * self.tokens

    @property
    def is_hybrid(self) -> bool:
        return self.fuel == "hybrid"

    @property
    def is_green(self) -> bool:
        """Ecological and fusion plants run without fuel (R72)."""
        return self.tokens == 0

    def __str__(self) -> str:
        fuel = "free" if self.is_green else f"{self.tokens} {self.fuel}"
        return f"[{self.number:02d}] {fuel} -> {self.cities}"


def _load() -> dict[int, PowerPlant]:
    return {p["number"]: PowerPlant(**p) for p in json.loads(data_text("plants.json"))["plants"]}


PLANTS: dict[int, PowerPlant] = _load()
ALL_CARDS: frozenset[int] = frozenset(PLANTS) | {STEP3}
_FUEL_INDEX = {"coal": COAL, "oil": OIL, "garbage": GARBAGE, "uranium": URANIUM}


_NEEDS: dict[tuple[int, ...], tuple[int, int, int, int, int]] = {}
_SUBSETS: dict[tuple[int, ...], list[tuple[tuple[int, ...], tuple[int, int, int, int, int]]]] = {}
_CAPS: dict[tuple[int, ...], tuple[int, int, int, int, int]] = {}
_CACHE_SIZE = 1_000  # memo entries kept before a memo starts afresh (bounded memory)
_SUBSETS_SIZE = 200  # fewer: each entry holds every subset of a plant set (a game uses far fewer)


def capacities(plants: Iterable[int]) -> tuple[int, int, int, int, int]:
    """Storage per pure type and for hybrids: (coal, oil, garbage, uranium, hybrid) (R47, R49):
    twice what a run needs."""
    key = plants if type(plants) is tuple else tuple(plants)
    hit = _CAPS.get(key)
    if hit is None:
        c, o, g, u, h = needs(key)
        if len(_CAPS) > _CACHE_SIZE:
            _CAPS.clear()
        hit = _CAPS[key] = (2 * c, 2 * o, 2 * g, 2 * u, 2 * h)
    return hit


def fits(cap: Sequence[int], tokens: Sequence[int]) -> bool:
    """True when the holdings can be spread over the plants within every limit (R49, O9)."""
    c, o, g, u = tokens
    if g > cap[2] or u > cap[3]:
        return False
    return max(0, c - cap[0]) + max(0, o - cap[1]) <= cap[4]


def room_for_one(cap: Sequence[int], tokens: Sequence[int]) -> tuple[bool, bool, bool, bool]:
    """For each type, whether the holdings plus one more token of it still fit (``fits``, R48, R49)."""
    c, o, g, u = tokens
    spare_c, spare_o = max(0, c - cap[0]), max(0, o - cap[1])
    held = spare_c + spare_o <= cap[4] and g <= cap[2] and u <= cap[3]
    return (held and max(0, c + 1 - cap[0]) + spare_o <= cap[4],
            held and spare_c + max(0, o + 1 - cap[1]) <= cap[4],
            held and g < cap[2], held and u < cap[3])


def needs(plants: Iterable[int]) -> tuple[int, int, int, int, int]:
    """Tokens a run of these plants consumes: (coal, oil, garbage, uranium, hybrid) (R73)."""
    key = plants if type(plants) is tuple else tuple(plants)
    hit = _NEEDS.get(key)
    if hit is None:
        need = [0, 0, 0, 0, 0]
        for n in key:
            p = PLANTS[n]
            if p.fuel == "hybrid":
                need[4] += p.tokens
            elif p.fuel in _FUEL_INDEX:
                need[_FUEL_INDEX[p.fuel]] += p.tokens
        if len(_NEEDS) > _CACHE_SIZE:
            _NEEDS.clear()
        hit = _NEEDS[key] = (need[0], need[1], need[2], need[3], need[4])
    return hit


def coal_bounds(need: Sequence[int], tokens: Sequence[int]) -> tuple[int, int] | None:
    """(fewest, most) coal the hybrids can burn in a run needing ``need`` (see :func:`needs`) from
    ``tokens``; None when the run is infeasible (R73). The one home of the hybrid arithmetic."""
    nc, no, ng, nu, nh = need
    c, o, g, u = tokens
    if nc > c or no > o or ng > g or nu > u:
        return None
    lo, hi = max(0, nh - (o - no)), min(nh, c - nc)
    return None if lo > hi else (lo, hi)


def hybrid_coal_range(plants: Iterable[int], tokens: Sequence[int]) -> range:
    """Possible coal counts burnt by the hybrids of a run; empty when the run is infeasible (R73)."""
    bounds = coal_bounds(needs(plants), tokens)
    return range(0) if bounds is None else range(bounds[0], bounds[1] + 1)


def run_cost(plants: Iterable[int], hybrid_coal: int) -> tuple[int, int, int, int]:
    """Tokens removed by running ``plants`` with ``hybrid_coal`` coal going to the hybrids."""
    nc, no, ng, nu, nh = needs(plants)
    return nc + hybrid_coal, no + nh - hybrid_coal, ng, nu


def production(plants: Iterable[int]) -> int:
    return sum(PLANTS[n].cities for n in plants)


def subsets(plants: Sequence[int]) -> list[tuple[tuple[int, ...], tuple[int, int, int, int, int]]]:
    """Every subset of ``plants`` (sorted, smallest first) with what a run of it needs (memoised)."""
    key = tuple(sorted(plants))
    hit = _SUBSETS.get(key)
    if hit is None:
        hit = [(sub, needs(sub)) for size in range(len(key) + 1) for sub in combinations(key, size)]
        if len(_SUBSETS) > _SUBSETS_SIZE:
            _SUBSETS.clear()
        _SUBSETS[key] = hit
    return hit


def run_options(plants: Sequence[int], tokens: Sequence[int]) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every feasible (plant set, hybrid coal) of a player, smallest sets first (R72, R73)."""
    for subset, need in subsets(plants):
        bounds = coal_bounds(need, tokens)
        if bounds is not None:
            for hc in range(bounds[0], bounds[1] + 1):
                yield subset, hc


def best_run(plants: Sequence[int], tokens: Sequence[int], cities: int
             ) -> tuple[int, tuple[int, ...], int]:
    """Most cities a player can power now (R99): (powered, plant set, hybrid coal).

    Among runs powering the most cities, the one that burns the fewest tokens wins (memoised:
    a finished game is scored, ranked and its winners named from the same holdings).
    """
    key = (tuple(plants), tuple(tokens), cities)
    hit = _BEST.get(key)
    if hit is not None:
        return hit
    best = (-1, (), 0)
    best_burn = 0
    for subset, hc in run_options(plants, tokens):
        powered = min(production(subset), cities)
        burn = sum(run_cost(subset, hc))
        if powered > best[0] or (powered == best[0] and burn < best_burn):
            best, best_burn = (powered, subset, hc), burn
    if len(_BEST) > _BEST_SIZE:
        _BEST.clear()
    _BEST[key] = best
    return best


_BEST: dict[tuple, tuple[int, tuple[int, ...], int]] = {}
_BEST_SIZE = 64  # the holdings of the players of a game or two: scores, ranks and winners at the end


def allocate(plants: Sequence[int], tokens: Sequence[int]) -> dict[int, dict[str, int]]:
    """One way to place the holdings on the plants (for display; only totals matter, R49)."""
    left = list(tokens)
    out: dict[int, dict[str, int]] = {n: {} for n in plants}
    for n in sorted(plants, key=lambda m: PLANTS[m].is_hybrid):
        p = PLANTS[n]
        room = p.storage
        kinds = (COAL, OIL) if p.is_hybrid else (_FUEL_INDEX.get(p.fuel),)
        for k in kinds:
            if k is None or room == 0:
                continue
            take = min(room, left[k])
            if take:
                out[n][RESOURCES[k]] = take
                left[k] -= take
                room -= take
    return out


def keep_options(plants: Sequence[int], tokens: Sequence[int]) -> list[tuple[int, int, int, int]]:
    """Holdings a player may keep after losing plant storage: the maximal legal subsets (R37, O10)."""
    cap = capacities(plants)
    c, o, g, u = tokens
    g, u = min(g, cap[2]), min(u, cap[3])
    room_c = min(c, cap[0] + cap[4])
    best: list[tuple[int, int, int, int]] = []
    for kc in range(room_c, -1, -1):
        ko = min(o, cap[1] + cap[4] - max(0, kc - cap[0]))
        cand = (kc, ko, g, u)
        if not best or kc + ko > best[0][0] + best[0][1]:
            best = [cand]
        elif kc + ko == best[0][0] + best[0][1]:
            best.append(cand)
    return best
