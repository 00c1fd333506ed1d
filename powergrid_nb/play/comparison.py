"""Compare positions or rule sets side by side: the same seeds, the same bots, the outcomes and their
difference with intervals ("Compare and sweep").

:func:`compare` plays every variant with the same game seeds (common random numbers) through the one
game runner (:func:`powergrid_nb.play.runner.run`), so a difference between variants is the variants', not
the dice's. A *variant* is either

* a **position**: a :class:`~powergrid_nb.engine.game.Game`, a scenario dict (``Game.to_dict()``), a saved
  game's path, or a new_game spec dict (``{"players": 3, "map": "usa", "rules": {...}}``); or
* a **rule set**: a dict whose keys are all rule parameters (:data:`RULE_PARAMETERS`, e.g.
  ``{"starting_money": 30}``), applied to ``base`` (default ``{"players": 4}``); ``{}`` is the
  standard rules.

All variants must have the same players (names, in the same order): the outcomes are reported per
player and the differences are paired by game and player.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from powergrid_nb.engine.editions import RULE_PARAMETERS
from powergrid_nb.engine.faces import face
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.rules.rulebook import rule

from .results import SimulationResult, mean_interval, wilson
from .runner import BotSpec, Stop, check_backend, game_seeds, run
from .simulation import make_job

__all__ = ["MEASURES", "RANGE_PARAMETERS", "SMALLEST", "Comparison", "compare",
           "parameter_rule", "playable", "rule_value"]

# measure column -> (games column, words): what the frames and the figure report per variant
MEASURES = {"win_rate": ("win_share", "win rate"), "rounds": ("rounds", "game length (rounds)"),
            "money": ("money", "money at the end (Elektro)")}
# the rule parameters that take one int, so a range of values makes sense (the sweep panel's choice),
# with the smallest value the rules take (editions.check_rules)
RANGE_PARAMETERS = ("starting_money", "step2_cities", "end_cities", "plant_limit", "max_cities")
SMALLEST = {"starting_money": 0, "step2_cities": 1, "end_cities": 1, "plant_limit": 1, "max_cities": 0}
DEFAULT_BASE: dict[str, Any] = {"players": 4}


# --- rule parameters: their rule, their value, a playable set --------------------------------------

def parameter_rule(name: str) -> str:
    """``name``'s description and the rule it sets, in words: for error messages."""
    desc = RULE_PARAMETERS[name]
    m = re.search(r"\((R\d+)", desc)
    if m is None:
        return f"{name}: {desc}"
    text = rule(m.group(1)).text.splitlines()[0]
    return f"{name} is {desc}; {m.group(1)}: {text}"


def rule_value(game: Game, name: str) -> int:
    """The value a one-int rule parameter (:data:`RANGE_PARAMETERS`) has in ``game``."""
    if name not in RANGE_PARAMETERS:
        raise ValueError(f"{name!r} is not a one-number rule parameter; choose one of "
                         f"{', '.join(RANGE_PARAMETERS)}")
    if name == "starting_money":
        return int(game.rules.tables["starting_money"])
    return int(getattr(game, name))


def playable(game: Game) -> str | None:
    """Why no game with these rules could ever end, or None: the end threshold (R96) must be
    reachable with a player's houses (max_cities, R67) in the cities in play."""
    reach = min(game.max_cities, len(game.play_area))
    if game.end_cities <= reach:
        return None
    return (f"end_cities = {game.end_cities} can never be reached with max_cities = {game.max_cities} "
            f"houses (R67) and {len(game.play_area)} cities in play, so the game would never end "
            f"(R96: {rule('R96').text}); allowed: end_cities at most max_cities and at most "
            f"{len(game.play_area)}, the cities in play")


# --- variants ---------------------------------------------------------------------------------------

def _is_rule_set(v: Any) -> bool:
    return isinstance(v, Mapping) and "format" not in v and all(k in RULE_PARAMETERS for k in v)


def _kind(v: Any, i: int) -> str:
    """'rules', 'game', 'path', 'scenario' or 'spec'; a ValueError for anything else."""
    if isinstance(v, Game):
        return "game"
    if isinstance(v, str | Path):
        return "path"
    if isinstance(v, Mapping):
        if "format" in v:
            return "scenario"
        if _is_rule_set(v):
            return "rules"
        mixed = sorted(k for k in v if k in RULE_PARAMETERS)
        if mixed:
            raise ValueError(f"variant {i + 1} mixes rule parameters {mixed} with new_game keywords "
                             f"{sorted(k for k in v if k not in RULE_PARAMETERS)}: give a rule set (only "
                             "rule parameters, played on base=) or a spec with the rules inside, e.g. "
                             "{'players': 3, 'rules': {'starting_money': 30}}")
        return "spec"
    raise ValueError(f"variant {i + 1} is a {type(v).__name__}: a variant is a Game, a scenario dict, a "
                     "saved game's path, a new_game spec dict or a rule set (a dict of rule parameters: "
                     f"{', '.join(RULE_PARAMETERS)})")


def _text(x: Any) -> str:
    return str(x) if isinstance(x, int | str) else re.sub(r"\s+", "", str(x))


def _label(v: Any, kind: str, i: int) -> str:
    if kind == "rules":
        return ", ".join(f"{k}={_text(x)}" for k, x in v.items()) or "standard rules"
    if kind == "path":
        return Path(v).name
    if kind == "spec":
        return ", ".join(f"{k}={_text(x)}" for k, x in v.items()) or "new game"
    if kind == "game":
        return f"position {i + 1} (round {v.round})"
    return f"scenario {i + 1}"


def _labels(variants: Sequence[Any], kinds: list[str], labels: Sequence[str] | None) -> list[str]:
    if labels is None:
        out = [_label(v, k, i) for i, (v, k) in enumerate(zip(variants, kinds, strict=True))]
        return [x if out.count(x) == 1 else f"{x} (#{i + 1})" for i, x in enumerate(out)]
    out = list(labels) if not isinstance(labels, str) else [labels]
    if len(out) != len(variants):
        raise ValueError(f"{len(out)} labels for {len(variants)} variants: give one label per variant")
    if any(not isinstance(x, str) or not x.strip() for x in out) or len(set(out)) != len(out):
        raise ValueError(f"labels must be distinct non-empty strings, not {out!r}")
    return out


def _jobs(variants: Sequence[Any], kinds: list[str], labels: list[str], bots: Any, base: Any
          ) -> tuple[list[Any], list[str]]:
    """One runner job per variant, every one checked before any game is played."""
    if base is None:
        base = DEFAULT_BASE
    elif _is_rule_set(base) and base:
        raise ValueError("base= is the position or new_game spec the rule sets are played on, not a rule "
                         f"set ({sorted(base)}); e.g. base={{'players': 3, 'map': 'usa'}}")
    jobs, players = [], []
    for i, (v, kind, lab) in enumerate(zip(variants, kinds, labels, strict=True)):
        where = f"variant {i + 1} ({lab!r})"
        spec, rules = (base, dict(v) or None) if kind == "rules" else (v, None)
        for k, x in (rules or {}).items():
            if k in SMALLEST and not isinstance(x, Mapping) and (type(x) is not int or x < SMALLEST[k]):
                raise ValueError(f"{where}: {k} = {x!r} is not a whole number >= {SMALLEST[k]} "
                                 f"({parameter_rule(k)})")
        try:
            job, g = make_job(spec, bots, rules)
        except (ValueError, TypeError, OSError) as e:
            hint = "; ".join(parameter_rule(k) for k in (rules or {}) if k in str(e)) if rules else ""
            raise ValueError(f"{where}: {e}" + (f" ({hint})" if hint else "")) from e
        why = playable(g)
        if why:
            raise ValueError(f"{where}: {why}")
        jobs.append(job)
        players.append(list(g.players))
    for i, ps in enumerate(players[1:], 2):
        if ps != players[0]:
            raise ValueError(f"variant {i} ({labels[i - 1]!r}) has players {ps}, variant 1 ({labels[0]!r}) "
                             f"{players[0]}: compare reports outcomes per player and pairs them, so all "
                             "variants need the same players in the same order")
    return jobs, players[0]


def compare(*variants: Any, games: int | None = None, bots: BotSpec | Sequence[BotSpec] = "heuristic",
            seeds: int | Sequence[int] | None = None, labels: Sequence[str] | None = None, base: Any = None,
            backend: str = "local", workers: int | str | None = None, client: Any = None,
            progress: bool = True, stop: Stop = None) -> Comparison:
    """Play two or more variants (positions or rule sets, see the module docstring) with the same
    seeds and bots; the outcomes per variant and player, and each variant's difference from the first.

    ``games``/``seeds`` as :func:`~powergrid_nb.play.simulation.simulate` takes them (an int seed: game *i*
    uses seed + *i*, for every variant). ``bots``: one for every seat or one per player. ``labels``:
    a name per variant (default: from the variant). ``base``: what rule sets are played on.
    ``backend``, ``workers``, ``client``, ``progress``, ``stop``: as for ``simulate``; a stopped run
    keeps its finished games and is marked ``partial``. Everything is checked before any game plays.
    """
    if len(variants) < 2:
        raise ValueError(f"compare needs two or more variants (positions or rule sets), got {len(variants)}")
    check_backend(backend, client, stop)
    if games is not None and (type(games) is not int or games < 1):
        raise ValueError(f"games must be a whole number of games >= 1, not {games!r}")
    seed_list = game_seeds(games, seeds if seeds is None or isinstance(seeds, int) else list(seeds))
    if not seed_list:
        raise ValueError("no games to play: give games >= 1 or a non-empty list of seeds")
    kinds = [_kind(v, i) for i, v in enumerate(variants)]
    names = _labels(variants, kinds, labels)
    jobs, players = _jobs(variants, kinds, names, bots, base)
    result = run(jobs, [{"variant": x} for x in names], seed_list, backend=backend, workers=workers,
                 client=client, progress=progress, stop=stop, desc="compare")
    return Comparison(result, names, players)


# --- the outcome ------------------------------------------------------------------------------------

class Comparison:
    """What :func:`compare` returns.

    ``games``: one row per (variant, game, player), the columns of ``SimulationResult.games`` with
    ``variant`` (ordered as given) instead of ``point``. ``frame``: per variant and player the win rate
    (shared wins count 1/k) with its 95% Wilson interval, mean game length (rounds) and mean money with
    95% t intervals, and ``games``. ``difference``: per later variant and player, the mean paired
    difference from the first variant over the games both finished (same seed), with a 95% t interval.
    ``stopped``/``partial``: the run ended early; its finished games are all there.
    """

    def __init__(self, result: SimulationResult, labels: list[str], players: list[str]) -> None:
        self.result, self.labels, self.players = result, labels, players
        self.seeds = list(result.seeds)

    @property
    def stopped(self) -> bool:
        return bool(self.result.stopped)

    partial = stopped

    def __repr__(self) -> str:
        flag = ", partial (stopped early)" if self.partial else ""
        return (f"<Comparison of {len(self.labels)} variants, {len(self.result)} of "
                f"{len(self.labels) * len(self.seeds)} games{flag}>")

    @cached_property  # the run is over when compare() returns: its frames never change
    def games(self) -> pd.DataFrame:
        df = self.result.games.drop(columns="point")
        df["variant"] = pd.Categorical(df["variant"].astype(str), categories=self.labels, ordered=True)
        return df

    @cached_property
    def frame(self) -> pd.DataFrame:
        df = self.games
        rows = []
        for (variant, player), grp in df.groupby(["variant", "player"], observed=True, sort=False):
            n = len(grp)
            lo, hi = wilson(float(grp["win_share"].sum()), n)
            row = {"variant": variant, "player": player, "seat": int(grp["seat"].iloc[0]),
                   "bot": grp["bot"].iloc[0], "games": n, "win_rate": grp["win_share"].mean(),
                   "win_rate_low": lo, "win_rate_high": hi}
            for m in ("rounds", "money"):
                row[m], row[f"{m}_low"], row[f"{m}_high"] = mean_interval(grp[m].tolist())
            rows.append(row)
        return self._ordered(pd.DataFrame(rows, columns=self._columns(["games"])))

    @cached_property
    def difference(self) -> pd.DataFrame:
        df = self.games
        first = df[df["variant"] == self.labels[0]].set_index(["game", "player"])
        rows = []
        for variant in self.labels[1:]:
            other = df[df["variant"] == variant].set_index(["game", "player"])
            both = other.merge(first, how="inner", left_index=True, right_index=True, suffixes=("", "_first"))
            for player in self.players:
                grp = both[both.index.get_level_values("player") == player]
                row = {"variant": variant, "versus": self.labels[0], "player": player, "pairs": len(grp)}
                for m, (col, _) in MEASURES.items():
                    d = (grp[col].astype(float) - grp[f"{col}_first"].astype(float)).tolist()
                    row[m], row[f"{m}_low"], row[f"{m}_high"] = mean_interval(d)
                rows.append(row)
        return self._ordered(pd.DataFrame(rows, columns=self._columns(["versus", "pairs"], seat=False)))

    def _columns(self, extra: list[str], seat: bool = True) -> list[str]:
        head = ["variant", "player", "seat", "bot", *extra] if seat else ["variant", *extra[:1], "player",
                                                                         *extra[1:]]
        return head + [f"{m}{s}" for m in MEASURES for s in ("", "_low", "_high")]

    def _ordered(self, df: pd.DataFrame) -> pd.DataFrame:
        df["variant"] = pd.Categorical(df["variant"].astype(str), categories=self.labels, ordered=True)
        return df.reset_index(drop=True)

    def figure(self, **kwargs: Any) -> Any:
        """The outcomes and the differences as a Plotly figure (``views.whatif.compare_figure``)."""
        return face("views").compare_figure(self, **kwargs)  # plugged in from above: play knows no views

    def _repr_html_(self) -> str:
        note = ("<p><b>Partial</b>: the run was stopped; these are the games it finished.</p>"
                if self.partial else "")
        return (f"<p>{len(self.labels)} variants × {len(self.seeds)} seeds, bots per player: "
                f"{', '.join(self.frame.drop_duplicates('player')['bot'].astype(str))}</p>{note}"
                + self.frame.to_html(index=False, float_format=lambda x: f"{x:.3g}"))

