"""The round's phase sequence: what the engine does between decisions (R13-R23, R87-R96)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import auction, building, bureaucracy, steps
from .errors import IllegalAction
from .steps import begin_step2, begin_step3, current_market, end_phase2_step3_cleanup

if TYPE_CHECKING:
    from .actions import MarkCity
    from .game import Game

PHASE_NAMES = {0: "start cities", 1: "player order", 2: "auction", 3: "resources", 4: "building",
               5: "bureaucracy", 6: "game over"}


def mark(g: Game, a: MarkCity, p: int) -> None:
    s = g.s
    if a.city not in g.ctx.cidx:
        raise IllegalAction(f"{a.city} is not a city of the play area", "R134", a)
    if a.city in s.marked:
        raise IllegalAction(f"{a.city} is already marked; marked cities are distinct", "R134", a)
    s.marked.append(a.city)
    s.to_act.pop(0)


def advance(g: Game) -> None:
    """Run everything automatic until a player must decide or the game ends."""
    s = g.s
    while not s.over:
        p = g._current()
        if p is None:
            end_phase(g)
        elif p == g.ctx.trust:
            trust_turn(g)
        else:
            return


def end_phase(g: Game) -> None:
    s, ph = g.s, g.s.phase
    if ph in (0, 1):  # marking done, or a position loaded at the start of phase 1
        enter(g, 1)
    elif ph == 2:
        g.ctx.edition.end_phase2(g)
        end_phase2_step3_cleanup(g)
        if s.round == 1:
            reorder(g)  # R21
        enter(g, 3)
    elif ph == 3:
        enter(g, 4)
    elif ph == 4:
        if max(len(s.mine[p]) for p in g.ctx.humans) >= g.ctx.end_cities:  # R96
            s.over, s.phase = True, 6
            g._log("game_over", None, 0, "R96 end threshold reached: " +
                      ", ".join(f"{n} {v}" for n, v in g.scores().items()))
            return
        enter(g, 5)
    elif ph == 5:
        bureaucracy.finish(g)
        s.round += 1
        enter(g, 1)


def enter(g: Game, ph: int) -> None:
    s = g.s
    s.phase = ph
    g._log("phase", None, ph, PHASE_NAMES[ph])
    humans = g.ctx.humans
    if ph == 5 and s.step == 1 and max(len(s.mine[p]) for p in humans) >= g.ctx.step2_cities:
        begin_step2(g)  # R89
    if s.step3_from is not None and (s.round, ph) >= s.step3_from:
        begin_step3(g)
    if ph == 1:
        if s.round > 1:
            reorder(g)
        # the resource market as the round starts, for the history views: coal oil garbage uranium
        g._log("market", None, sum(s.res), " ".join(map(str, s.res)))
        enter(g, 2)
    elif ph == 2:
        s.active, s.bought, s.auction, s.first_draw = s.order[:], [], None, False
        s.flags.pop("trust_plant", None)
        g.ctx.edition.start_phase2(g)
        if not current_market(g):
            s.active = []  # O13: nothing to auction
    elif ph in (3, 4):
        s.to_act = s.order[::-1]  # R45, R54
    elif ph == 5:
        s.to_act = [p for p in s.order if p != g.ctx.trust]


def reorder(g: Game) -> None:
    """R18-R22: most cities first, then the highest plant, then the previous order."""
    s = g.s
    prev = {p: i for i, p in enumerate(s.order)}
    humans = sorted(g.ctx.humans, key=lambda p: (-len(s.mine[p]), -max(s.plants[p], default=0),
                                                    prev[p]))
    if g.ctx.trust is not None:
        humans.insert(1, g.ctx.trust)  # R129
    s.order = humans
    g._log("order", None, 0, ", ".join(g.ctx.names[p] for p in humans))


def trust_turn(g: Game) -> None:
    s, t, policy = g.s, g.ctx.trust, g.ctx.trust_policy
    assert t is not None and policy is not None
    if s.phase == 2:
        plant = policy.choose_plant(g)
        if plant is None:
            s.active.remove(t)
        else:
            s.flags["trust_plant"] = plant
            auction.take_plant(g, t, plant)
    elif s.phase == 3:
        plant = s.flags.pop("trust_plant", None)
        if plant is not None:
            take = policy.fuel(g, plant)
            s.res = [n - x for n, x in zip(s.res, take, strict=True)]
            g._log("trust_fuel", g.ctx.names[t], sum(take), f"R131 takes {take}")
        s.to_act.pop(0)
    elif s.phase == 4:
        city = policy.choose_city(g, steps.rng(g))
        if city is not None:
            building.add_house(g, t, city, 0)
        s.to_act.pop(0)
