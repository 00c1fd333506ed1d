"""Phase 5: powering cities and income, refill, plant-market update (R71-R87); final scores (R99)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from powergrid_nb.engine.actions import Action, Power
from powergrid_nb.engine.errors import IllegalAction
from powergrid_nb.engine.events import Income, PlantsRun, Refill, fewer_text, tokens_text
from powergrid_nb.engine.gamelog import verb
from powergrid_nb.engine.rules.phases import Phase
from powergrid_nb.engine.rules.plants import (
    PLANTS,
    RESOURCES,
    best_run,
    coal_bounds,
    needs,
    production,
    run_options,
)

from .base import PhaseRules
from .resources import game_supply, purchase_cost
from .steps import update_market

if TYPE_CHECKING:
    from powergrid_nb.engine.context import Context
    from powergrid_nb.engine.game import Game


_POWER: dict[tuple, Action] = {}  # (player, plants run, hybrid coal) -> the action (bounded)
_RUNS: dict[tuple, list[Action]] = {}  # (player, plants, tokens) -> the legal runs (bounded)


def _power(name: str, subset: tuple[int, ...], hc: int) -> Action:
    key = (name, subset, hc)
    a = _POWER.get(key)
    if a is None:
        if len(_POWER) > 2_000:
            _POWER.clear()
        a = _POWER[key] = Power(name, subset, hc if needs(subset)[4] else None)
    return a


def legal(g: Game, p: int) -> list[Action]:
    """Every feasible run (R72, R73), smallest plant sets first, then by coal in the hybrids."""
    s, name = g.s, g.ctx.names[p]
    key = (name, tuple(s.plants[p]), tuple(s.tokens[p]))
    out = _RUNS.get(key)
    if out is None:
        out = [_power(name, subset, hc) for subset, hc in run_options(s.plants[p], s.tokens[p])]
        if len(_RUNS) > 500:
            _RUNS.clear()
        _RUNS[key] = out
    return out[:]


class PowerOutcome(NamedTuple):
    """What running a set of plants would do (R72-R77): cities powered, income, tokens burnt; and for
    a run below the most the player could power (R99), that most (``possible``), the income given up
    (``forgone``) and what the tokens kept are worth on today's market (``kept``), as the log says."""

    plants: tuple[int, ...]
    hybrid_coal: int
    burn: dict[str, int]
    powered: int
    income: int
    possible: int | None = None
    forgone: int = 0
    kept: int | None = None

    @property
    def fewer(self) -> str:
        """Why this run powers fewer cities than possible, in the log's words ("" at the most)."""
        return fewer_text(self.powered, self.possible, self.forgone, self.kept)


def check(g: Game, a: Power, p: int) -> PowerOutcome:
    """The outcome of a Power action; IllegalAction if it is not allowed."""
    hc, burn, powered, income = _outcome(g, a, p)
    possible, forgone, kept = _fewer(g, p, burn, powered, income)
    return PowerOutcome(a.plants, hc, dict(zip(RESOURCES, burn, strict=True)), powered, income,
                        possible, forgone, kept)


def _outcome(g: Game, a: Power, p: int) -> tuple[int, tuple[int, int, int, int], int, int]:
    """(hybrid coal, tokens burnt, cities powered, income) of a run; IllegalAction if not allowed."""
    s = g.s
    own, plants = s.plants[p], a.plants
    for n in plants:
        if n not in own:
            name = g.ctx.names[p]
            raise IllegalAction(f"{name} {verb(name, 'does')} not own plant {n}", "R72", a)
    if len(set(plants)) != len(plants):
        raise IllegalAction("each plant runs at most once", "R72", a)
    nc, no, ng, nu, nh = need = needs(plants)
    bounds = coal_bounds(need, s.tokens[p])
    if bounds is None:
        raise IllegalAction(f"plants {list(plants)} need {_need_text(plants)} but "
                            f"{g.ctx.names[p]} {verb(g.ctx.names[p], 'holds')} {tokens_text(s.tokens[p])}",
                            "R73", a)
    lo, hi = bounds  # the hybrids' coal (R73)
    if not nh and a.hybrid_coal not in (None, 0):
        raise IllegalAction(f"no hybrid runs in {list(plants)}: leave hybrid_coal out", "R46", a)
    hc = (hi if a.hybrid_coal is None else a.hybrid_coal) if nh else 0
    if not lo <= hc <= hi:
        raise IllegalAction(f"the hybrids can burn {lo} to {hi} coal, not {hc}", "R46", a)
    return _result(g, p, plants, hc)


def _result(g: Game, p: int, plants: tuple[int, ...], hc: int
            ) -> tuple[int, tuple[int, int, int, int], int, int]:
    """:func:`_outcome` of a run known to be legal (``hc``: the hybrids' coal, 0 without hybrids)."""
    nc, no, ng, nu, nh = needs(plants)
    powered = min(production(plants), len(g.s.mine[p]))  # R74
    return hc, (nc + hc, no + nh - hc, ng, nu), powered, g.ctx.edition.payment(powered)  # R76


def options(g: Game, p: int) -> list[tuple[Action, int, tuple[int, int, int, int]]]:
    """(run, income, tokens burnt) of each legal run of ``p`` (:func:`legal`'s order)."""
    out = []
    for a in legal(g, p):
        _, burn, _, income = _result(g, p, a.plants, a.hybrid_coal or 0)  # type: ignore[attr-defined]
        out.append((a, income, burn))
    return out


def apply(g: Game, a: Action, p: int) -> None:
    assert isinstance(a, Power)
    s = g.s
    _, burn, powered, income = _outcome(g, a, p)
    possible, forgone, kept = _fewer(g, p, burn, powered, income)
    t = s.tokens[p]
    s.tokens[p] = [t[0] - burn[0], t[1] - burn[1], t[2] - burn[2], t[3] - burn[3]]  # R77: to the supply
    name = g.ctx.names[p]
    g._event(PlantsRun, name, a.plants, burn, powered, possible, forgone, kept)
    s.money[p] += income
    g._event(Income, name, powered, income)
    s.to_act.pop(0)


def _fewer(g: Game, p: int, burn: tuple[int, ...], powered: int, income: int
           ) -> tuple[int | None, int, int | None]:
    """For a run of ``powered`` cities below the most ``p`` could power (R99): (that most; the income
    given up; what the tokens kept cost on today's market against the cheapest run powering the most,
    None if the market cannot price them): the log says why a player ran fewer plants. (None, 0,
    None) for a run at the most: nothing to explain, and nothing more in the save file."""
    possible = score(g, p)
    if powered >= possible:
        return None, 0, None
    top = g.ctx.edition.payment(possible)
    kept = None
    try:
        spent = purchase_cost(g, burn)
        kept = min(purchase_cost(g, b) for _, i, b in options(g, p) if i == top) - spent
    except IllegalAction:
        pass
    return possible, top - income, kept


def refill(g: Game) -> None:
    """R78-R81 (and map rules R125, R127): move tokens from the supply to the market."""
    s = g.s
    table = g.ctx.edition.refill(g.ctx.refill_players, s.step)
    left = game_supply(g)
    totals = g.ctx.edition.track.totals
    for kind in range(4):
        want = table[kind]
        for rule in g.ctx.map_rules:
            want = rule.refill(g, kind, want)
        moved = max(0, min(want, left[kind], totals[kind] - s.res[kind]))
        s.res[kind] += moved
        g._event(Refill, RESOURCES[kind], moved)


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


class BureaucracyPhase(PhaseRules):
    """Phase 5 (R71-R87): in player order each player powers; then refill and the plant market."""

    number, name, actions = Phase.BUREAUCRACY, Phase.BUREAUCRACY.label, (Power,)

    def turns(self, ctx: Context, order: list[int]) -> list[int]:
        return [p for p in order if p != ctx.trust]  # R71; the Trust does not power (R133)

    legal = staticmethod(legal)  # type: ignore[assignment]
    apply = staticmethod(apply)  # type: ignore[assignment]

    def exit(self, g: Game) -> Phase:
        finish(g)
        g.s.round += 1
        return Phase.PLAYER_ORDER


BUREAUCRACY = BureaucracyPhase()
