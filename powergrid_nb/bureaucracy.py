"""Phase 5: powering cities and income, refill, plant-market update (R71-R87); final scores (R99)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .actions import Action, Power
from .errors import IllegalAction
from .plants import PLANTS, RESOURCES, best_run, hybrid_coal_range, needs, production, run_cost
from .plants import run_options as _run_options
from .resources import TOTALS, held_total, supply
from .steps import update_market

if TYPE_CHECKING:
    from .game import Game


_POWER: dict[tuple, Power] = {}  # immutable actions, shared by every game


def legal(g: Game, p: int) -> list[Action]:
    s, name = g.s, g.ctx.names[p]
    out: list[Action] = []
    for subset, hc in _run_options(s.plants[p], s.tokens[p]):
        key = (name, subset, hc)
        a = _POWER.get(key)
        if a is None:
            a = _POWER[key] = Power(name, subset, hc if needs(subset)[4] else None)
        out.append(a)
    return out


class PowerOutcome(NamedTuple):
    """What running a set of plants would do (R72-R77): cities powered, income, tokens burnt."""

    plants: tuple[int, ...]
    hybrid_coal: int
    burn: dict[str, int]
    powered: int
    income: int


def check(g: Game, a: Power, p: int) -> PowerOutcome:
    """The outcome of a Power action; IllegalAction if it is not allowed."""
    s = g.s
    own = s.plants[p]
    for n in a.plants:
        if n not in own:
            raise IllegalAction(f"{g.ctx.names[p]} does not own plant {n}", "R72", a)
    if len(set(a.plants)) != len(a.plants):
        raise IllegalAction("each plant runs at most once", "R72", a)
    options = hybrid_coal_range(a.plants, s.tokens[p])
    if not options:
        raise IllegalAction(f"plants {list(a.plants)} need {_need_text(a.plants)} but "
                            f"{g.ctx.names[p]} holds {_tokens_text(s.tokens[p])}", "R73", a)
    has_hybrid = needs(a.plants)[4] > 0
    if not has_hybrid and a.hybrid_coal not in (None, 0):
        raise IllegalAction(f"no hybrid runs in {list(a.plants)}: leave hybrid_coal out", "R46", a)
    hc = (options[-1] if a.hybrid_coal is None else a.hybrid_coal) if has_hybrid else 0
    if hc not in options:
        raise IllegalAction(f"the hybrids can burn {options[0]} to {options[-1]} coal, not {hc}",
                            "R46", a)
    burn = run_cost(a.plants, hc)
    powered = min(production(a.plants), len(s.mine[p]))  # R74
    income = g.ctx.edition.payment(powered)  # R76
    return PowerOutcome(a.plants, hc, dict(zip(RESOURCES, burn, strict=True)), powered, income)


def apply(g: Game, a: Action, p: int) -> None:
    assert isinstance(a, Power)
    s = g.s
    out = check(g, a, p)
    burn = [out.burn[r] for r in RESOURCES]
    s.tokens[p] = [t - b for t, b in zip(s.tokens[p], burn, strict=True)]  # R77: to the supply
    g._log("powered", g.ctx.names[p], out.powered,
           f"runs {list(a.plants)} burning {_tokens_text(burn)}")
    g._earn(p, out.income, f"powers {out.powered} cities")
    s.to_act.pop(0)


def refill(g: Game) -> None:
    """R78-R81 (and map rules R125, R127): move tokens from the supply to the market."""
    s = g.s
    table = g.ctx.edition.refill(g.ctx.refill_players, s.step)
    left = supply(s.res, held_total(g))
    for kind in range(4):
        want = table[kind]
        for rule in g.ctx.map_rules:
            want = rule.refill(g, kind, want)
        moved = max(0, min(want, left[kind], TOTALS[kind] - s.res[kind]))
        s.res[kind] += moved
        g._log("refill", None, moved, RESOURCES[kind])


def finish(g: Game) -> None:
    """Phase 5 (b) and (c) once every player has powered (R71)."""
    refill(g)
    update_market(g)


def score(g: Game, p: int) -> int:
    """R99: the most cities p can power with owned plants and stored tokens."""
    return best_run(g.s.plants[p], g.s.tokens[p], len(g.s.mine[p]))[0]


def _need_text(plants: tuple[int, ...]) -> str:
    parts = [f"{PLANTS[n].tokens} {PLANTS[n].fuel}" for n in plants if PLANTS[n].tokens]
    return " + ".join(parts) or "nothing"


def _tokens_text(tokens) -> str:
    return ", ".join(f"{n} {r}" for r, n in zip(RESOURCES, tokens, strict=True) if n) or "nothing"
