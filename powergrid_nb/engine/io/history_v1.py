"""Reading the history of version-1 save files (prose rows) as typed events."""

from __future__ import annotations

import re
from typing import Any

from powergrid_nb.engine.actions import Action
from powergrid_nb.engine.events import (
    CardDrawn,
    Decision,
    Discount,
    Event,
    GameOver,
    HouseBuilt,
    Income,
    MapRuleApplied,
    MarketAtRoundStart,
    PhaseBegins,
    PlantBought,
    PlantBoxed,
    PlantsRun,
    PlantUnderDeck,
    PlayerOrder,
    Refill,
    StepBegins,
    TokensBought,
    TrustFuel,
)
from powergrid_nb.engine.rules.plants import RESOURCES

_DECISIONS = {"open", "bid", "pass", "discard", "buy", "build", "done", "power", "mark"}


def _ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"-?\d+", text)]


def _rule(detail: str) -> tuple[str, str]:
    m = re.match(r"(R\d+)(?:/R\d+)?\s*(.*)", detail)
    return (m[1], m[2]) if m else ("", detail)


def events_from_v1(rows: list[list[Any]]) -> list[Event]:
    """Version-1 rows ``[round, phase, step, player, kind, amount, detail]`` as typed events.

    Payments are folded into what they paid for (a plant, tokens, a house), as version 2 records them.
    """
    out: list[Event] = []
    pending: dict[str, int] = {}  # player -> last payment not yet matched
    for r, ph, st, player, kind, amount, detail in rows:
        when = (r, ph, st)
        detail = str(detail)
        if kind in _DECISIONS:
            a = Action.parse(detail)
            out.append(Decision(*when, a.player, a))
        elif kind == "pay":
            if detail.startswith("("):  # a purchase of tokens: the amounts in the detail
                out.append(TokensBought(*when, player, tuple(_ints(detail)), -amount))
            else:
                pending[player] = -amount
        elif kind == "plant":
            out.append(PlantBought(*when, player, amount, pending.pop(player, 0)))
        elif kind == "house":
            pending.pop(player, None)
            out.append(HouseBuilt(*when, player, detail, amount))
        elif kind == "powered":
            plants = tuple(_ints(detail.split("burning")[0]))
            burnt = [0, 0, 0, 0]
            for n, res in re.findall(r"(\d+) (coal|oil|garbage|uranium)", detail.split("burning")[-1]):
                burnt[RESOURCES.index(res)] = int(n)
            out.append(PlantsRun(*when, player, plants, tuple(burnt), amount))
        elif kind == "income":
            out.append(Income(*when, player, (_ints(detail) or [0])[0], amount))
        elif kind == "box":
            rule, why = _rule(detail)
            kept = re.search(r"keeps \[([\d, ]*)\]", detail)
            out.append(PlantBoxed(*when, player, amount, rule, why,
                                  tuple(_ints(kept[1])) if kept else None))
        elif kind == "draw":
            out.append(CardDrawn(*when, amount))
        elif kind == "under":
            out.append(PlantUnderDeck(*when, amount))
        elif kind == "step":
            out.append(StepBegins(*when, amount, _rule(detail)[0]))
        elif kind == "phase":
            out.append(PhaseBegins(*when, amount))
        elif kind == "market":
            out.append(MarketAtRoundStart(*when, tuple(_ints(detail))))
        elif kind == "order":
            out.append(PlayerOrder(*when, tuple(x.strip() for x in detail.split(","))))
        elif kind == "refill":
            out.append(Refill(*when, detail, amount))
        elif kind == "discount":
            out.append(Discount(*when, amount or None, _rule(detail)[0]))
        elif kind == "rule":
            rule, why = _rule(detail)
            out.append(MapRuleApplied(*when, player, amount, rule, why))
        elif kind == "trust_fuel":
            out.append(TrustFuel(*when, player, tuple(_ints(detail)[-4:])))
        elif kind == "game_over":
            scores = re.findall(r"([^,:]+?) (\d+)(?:,|$)", detail.partition(":")[2])
            out.append(GameOver(*when, tuple((n.strip(), int(v)) for n, v in scores)))
        else:
            raise ValueError(f"unknown event kind {kind!r}")
    return out
