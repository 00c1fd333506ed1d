"""What-if simulation: many games with bots, as tidy pandas frames.

:func:`simulate` and :func:`sweep` turn a game spec (or a position to fork from), bots and rule
parameters into :class:`~powergrid_nb.play.runner.Job` s and play them with the one game runner,
:func:`powergrid_nb.play.runner.run`; its module docstring states the seeding (game seed -> bot seeds),
the ranking (the rules' tie-breaks; players they cannot split share a rank) and the backends.
Each game is a pure function of (spec, seed, bots, rules), so the three backends give identical
frames for the same seeds: ``"local"`` (this process), ``"processes"`` (a process pool on this
machine) and ``"dask"`` (``dask.distributed``; a cluster of your own via ``client=`` or an address,
whose workers need ``powergrid_nb`` and the bots installed).

Rule parameters (``rules={...}``, see :data:`powergrid_nb.engine.editions.RULE_PARAMETERS`):
``starting_money`` (int, R5), ``payment`` (list: income for 0, 1, 2, ... cities, R110),
``refill`` ({players: {step: [coal, oil, garbage, uranium]}}, R108, partial), ``initial_market``
({resource: tokens}, R112-R114), ``build_prices`` ([1st, 2nd, 3rd house], R56), ``step2_cities``,
``end_cities``, ``plant_limit`` (int or {players: int}; R89, R96, R36), ``max_cities`` (int, R67) and
``reverse_order`` (the phases among 3 and 4 played leader last, R45, R54; ``[]`` switches that catch-up off).
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from powergrid_nb.bots import BOTS, Bot, HeuristicBot
from powergrid_nb.bots.style import BOUNDS, style_of
from powergrid_nb.engine.editions import RULE_PARAMETERS
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.options import OPTIONS

from .results import GAME_COLUMNS, SimulationResult
from .runner import BACKENDS, BotSpec, Job, Stop, bot_label, build_bot, game_seeds, play_one, run, start

__all__ = ["BACKENDS", "GAME_COLUMNS", "RULE_PARAMETERS", "SimulationResult", "make_job", "play_one",
           "simulate", "sweep"]


def _scenario(spec: Any) -> dict[str, Any] | None:
    if isinstance(spec, Game):
        return spec.to_dict()
    if isinstance(spec, str | Path):
        return json.loads(Path(spec).read_text(encoding="utf-8"))
    if isinstance(spec, Mapping) and "format" in spec:
        return dict(spec)
    if not isinstance(spec, Mapping):
        raise TypeError("simulate() takes a new_game spec dict, a Game, a scenario dict or a saved game path")
    return None


def _check_bot(b: Any, templates: bool) -> None:
    if isinstance(b, Bot):
        if not templates:
            raise ValueError(f"pass a bot name or factory (e.g. the class {type(b).__name__}), not the "
                             "instance: each game makes its own bots, seeded from its seed")
    elif isinstance(b, str):
        if b not in BOTS:
            raise ValueError(f"unknown bot {b!r}; known: {', '.join(sorted(BOTS))}")
    elif not callable(b):
        raise ValueError(f"a bot is a name in BOTS or a factory(seed=...), not {b!r}")
    else:
        build_bot(b, 0)


def make_job(spec: Any, bots: Any, rules: dict[str, Any] | None = None,
             options: Mapping[str, Any] | None = None, per_round: bool = False, rotate: int | None = None,
             templates: bool = False) -> tuple[Job, Game]:
    """The job for ``spec`` (as :func:`simulate` takes it) and its first game, set up to validate the
    spec and bots here rather than in the workers. ``templates``: accept Bot instances (copied and
    re-seeded per game, as tournaments do); ``rotate``: see :mod:`powergrid_nb.play.runner`."""
    scenario = _scenario(spec)
    if scenario is None:
        kw = dict(spec)
        if "seed" in kw:
            raise ValueError("the spec has no 'seed': seeds come from simulate(seeds=...)")
        kw.update(options or {})
        if rules is not None:
            kw["rules"] = {**(kw.get("rules") or {}), **rules}
        job = Job(kw, None, (), (), rotate, per_round)
    else:
        cfg = scenario["config"]
        opts = {**cfg.get("options", {}), **(options or {})}
        if rules is not None:
            opts["rules"] = {**(opts.get("rules") or {}), **rules}
        scenario = {**scenario, "config": {**cfg, "options": opts}}
        job = Job(None, scenario, (), (), rotate, per_round)
    try:
        g = start(job, 0)
    except ValueError:
        raise
    except Exception as e:  # SaveFileError, TypeError (an unknown keyword), ...
        raise ValueError(f"bad game spec: {e}") from e
    if g.is_over:
        raise ValueError("the position to fork from is already over")
    n = len(g.players)
    seats = [bots] if isinstance(bots, str | Bot) or callable(bots) else list(bots)
    for b in seats:
        _check_bot(b, templates)
    if len(seats) == 1:
        seats *= n
    if len(seats) != n:
        raise ValueError(f"give one bot for all seats or one per player ({n}: {g.players}), not {len(seats)}")
    return job._replace(bots=tuple(seats), names=tuple(bot_label(b) for b in seats)), g


def simulate(spec_or_game: Mapping[str, Any] | Game | str | Path, games: int | None = None,
             bots: BotSpec | Sequence[BotSpec] = ("random",), seeds: int | Iterable[int] | None = None,
             rules: dict[str, Any] | None = None, backend: str = "local", workers: int | str | None = None,
             client: Any = None, per_round: bool = False, progress: bool = True, stop: Stop = None,
             **game_options: Any) -> SimulationResult:
    """Play ``games`` games with bots and return their results as tidy frames.

    ``spec_or_game``: new_game keyword arguments (``{"players": 4, "map": "germany", "edition":
    "original", "regions": [...], **options}``), or a position to fork from: a ``Game``, a
    ``to_dict()`` scenario or a saved game's path. A fork plays on from that position as it is
    (same deck order); only the game's seed is replaced by each run's, so later shuffles (the Step 3
    deck) differ, and a scenario without a ``deck`` gets a fresh deck per run.
    ``bots``: a name from :data:`powergrid_nb.bots.BOTS` or a factory ``f(seed=...) -> Bot`` (a Bot
    class, a ``functools.partial``), for every seat or one per player in ``game.players`` order;
    reported under the registry name, else the ``name`` of the bot the factory makes.
    The bot of ``game.players[k]`` is seeded with ``runner.bot_seed(game seed, k)``, so a game
    depends only on (spec, seed, bots). ``rank`` follows the rules' tie-breaks (R99-R102); players
    they cannot split share a rank and the victory (O16, R103); see :mod:`powergrid_nb.play.runner`.
    ``seeds``: a list (one per game), an int (game *i* uses seed + *i*) or None (a random base).
    ``rules``: what-if rule parameters (module docstring; ``editions.RULE_PARAMETERS``);
    ``game_options``: new_game options such as ``bidding="order"``.
    ``backend``: ``"local"``, ``"processes"`` (``workers`` processes, default all cores) or
    ``"dask"`` (``client``, else a scheduler address in ``workers``, else a LocalCluster of
    ``workers`` (default 2) single-threaded worker processes); the frames are the same for all three.
    ``per_round=True`` also fills ``result.rounds``, ``result.market`` and ``result.auctions``.
    ``progress`` shows a tqdm bar. ``stop``: seconds, or ``stop(result_so_far) -> bool`` checked after
    each finished game (chunk, in parallel); Ctrl-C stops too. Either way the finished games are kept and
    ``result.stopped`` is true.
    """
    job, _ = make_job(spec_or_game, bots, rules, game_options, per_round)
    return run([job], [{}], game_seeds(games, _listed(seeds)), backend=backend, workers=workers,
               client=client, per_round=per_round, progress=progress, stop=stop)


def sweep(base_spec: Mapping[str, Any] | Game | str | Path, param_grid: Mapping[str, Any] | None = None,
          games_per_point: int | None = None, bots: BotSpec | Sequence[BotSpec] = ("random",),
          seeds: int | Iterable[int] | None = None, rules: dict[str, Any] | None = None,
          backend: str = "local", workers: int | str | None = None, client: Any = None,
          per_round: bool = False, progress: bool = True, stop: Stop = None,
          bot_params: Mapping[str, Any] | None = None, **game_options: Any) -> SimulationResult:
    """Simulate every combination of ``param_grid`` (rule parameters or new_game options) and of
    ``bot_params`` (fields of the heuristic seats' :class:`~powergrid_nb.bots.BotStyle`).

    ``param_grid`` maps a parameter to a list of values, or to ``{label: value}`` to name them
    (e.g. ``{"refill": {"standard": None, "double coal": {...}}}``); ``None`` = no override.
    ``bot_params`` does the same for the style of every seat played by ``"heuristic"`` (or a preset such
    as ``"heuristic:cautious"``, whose other fields stay), e.g. ``{"premium": [0, 0.2], "horizon": [2, 4]}``.
    Every point plays the same seeds (common random numbers, so differences are the rules' or the
    style's). The frames get a ``point`` column and one column per parameter (``bot_<field>`` for the
    style): the value, or JSON text for lists and dicts, or the label. Points are interleaved, so
    stopping early leaves them balanced.
    """
    param_grid = param_grid or {}
    bot_params = bot_params or {}
    if not param_grid and not bot_params:
        raise ValueError("nothing to sweep: give param_grid (rule parameters, game options) or bot_params")
    names = list(param_grid)
    axes = []
    for k in names:
        if k not in RULE_PARAMETERS and (k not in OPTIONS or k == "rules"):
            raise ValueError(f"cannot sweep {k!r}: choose rule parameters ({', '.join(RULE_PARAMETERS)}) "
                             f"or game options ({', '.join(o for o in OPTIONS if o != 'rules')})")
        axes.append(_pairs(param_grid[k], f"param_grid[{k!r}]"))
    styles = list(bot_params)
    for k in styles:
        if k not in BOUNDS:
            raise ValueError(f"cannot sweep the bot's {k!r}: a bot style has {', '.join(BOUNDS)}")
        axes.append(_pairs(bot_params[k], f"bot_params[{k!r}]"))
    jobs, params = [], []
    for combo in itertools.product(*axes):
        r, o = dict(rules or {}), dict(game_options)
        for k, (_, value) in zip(names, combo[:len(names)], strict=True):
            target = r if k in RULE_PARAMETERS else o
            if value is None:
                target.pop(k, None)
            else:
                target[k] = value
        changes = {k: value for k, (_, value) in zip(styles, combo[len(names):], strict=True)
                   if value is not None}
        seats = _styled(bots, changes) if styles else bots
        jobs.append(make_job(base_spec, seats, r or None, o, per_round)[0])
        params.append({k: label for k, (label, _) in zip(names, combo[:len(names)], strict=True)}
                      | {f"bot_{k}": label for k, (label, _) in zip(styles, combo[len(names):], strict=True)})
    return run(jobs, params, game_seeds(games_per_point, _listed(seeds)), backend=backend, workers=workers,
               client=client, per_round=per_round, progress=progress, stop=stop)


def _pairs(values: Any, where: str) -> list[tuple[Any, Any]]:
    """(label, value) of a list of values or a ``{label: value}`` mapping; at least one."""
    pairs = list(values.items()) if isinstance(values, Mapping) else [(x, x) for x in values]
    if not pairs:
        raise ValueError(f"{where} has no values")
    return pairs


def _styled(bots: BotSpec | Sequence[BotSpec], changes: dict[str, Any]) -> BotSpec | list[BotSpec]:
    """``bots`` with every heuristic seat (``"heuristic"``, a ``"heuristic:<preset>"`` or the class)
    playing its style with ``changes``; the style is checked here, before any game."""
    def one(spec: BotSpec) -> BotSpec:
        if spec is HeuristicBot:
            style = None
        elif isinstance(spec, str) and spec.partition(":")[0] == "heuristic" and spec in BOTS:
            style = spec.partition(":")[2] or None
        else:
            return spec
        style_of(style, **changes)  # a bad value is refused here, with the field's range
        return functools.partial(HeuristicBot, style=style, **changes)

    single = isinstance(bots, str | Bot) or callable(bots)
    seats = [bots] if single else list(bots)
    out = [one(b) for b in seats]
    if all(a is b for a, b in zip(out, seats, strict=True)):
        raise ValueError("bot_params change the style of the heuristic seats, and no seat is played by "
                         f"'heuristic' (or a 'heuristic:<preset>'): {seats!r}")
    return out[0] if single else out


def _listed(seeds: int | Iterable[int] | None) -> int | list[int] | None:
    return seeds if seeds is None or isinstance(seeds, int) else list(seeds)
