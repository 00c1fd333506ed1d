"""What-if simulation: many games with bots, as tidy pandas frames (issue #5).

Each game is a pure function of (spec, seed, bots, rules), so the three backends give identical
frames for the same seeds: ``"local"`` (this process), ``"processes"`` (a process pool on this
machine) and ``"dask"`` (``dask.distributed``; a cluster of your own via ``client=`` or an address,
whose workers need ``powergrid_nb`` and the bots installed). Workers get only plain data (the
spec dict, bot names or factories, seeds) and create the games themselves.

Rule parameters (``rules={...}``, see :data:`powergrid_nb.editions.RULE_PARAMETERS`):
``starting_money`` (int, R5), ``payment`` (list: income for 0, 1, 2, ... cities, R110),
``refill`` ({players: {step: [coal, oil, garbage, uranium]}}, R108, partial), ``initial_market``
({resource: tokens}, R112-R114), ``build_prices`` ([1st, 2nd, 3rd house], R56), ``step2_cities``,
``end_cities``, ``plant_limit`` (int or {players: int}; R89, R96, R36) and ``max_cities`` (int, R67).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import math
import os
import pickle
import random
import secrets
import signal
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from .bots import BOTS, Bot
from .bots.base import play
from .editions import RULE_PARAMETERS
from .game import Game
from .newgame import OPTIONS, new_game
from .tournaments import build_bot, wilson

__all__ = ["RULE_PARAMETERS", "SimulationResult", "simulate", "sweep"]

BotSpec = str | Callable[..., Bot]
Stop = Callable[["SimulationResult"], bool] | float | int | None
BACKENDS = ("local", "processes", "dask")
MAX_DECISIONS = 200_000
GAME_COLUMNS = {  # the tidy frame: one row per (game, player)
    "game": "int64", "seed": "int64", "player": "string", "seat": "int64", "start_position": "int64",
    "bot": "string", "winner": "bool", "win_share": "float64", "rank": "int64", "score": "int64",
    "cities": "int64", "money": "int64", "rounds": "int64", "plants_bought": "int64",
    "paid_for_plants": "int64", "mean_premium": "float64", "powered_last": "Int64"}


class _Job(NamedTuple):
    """What every game of one sweep point shares; plain data, so it pickles to any worker."""

    spec: dict[str, Any] | None  # new_game keyword arguments (seed excluded) ...
    scenario: dict[str, Any] | None  # ... or a position to fork from (Game.to_dict() form)
    bots: tuple[BotSpec, ...]  # one per seat, in game.players order
    per_round: bool


class _Out(NamedTuple):
    point: int
    game: int
    rows: list[dict[str, Any]]
    rounds: pd.DataFrame | None
    market: pd.DataFrame | None


def _derive(seed: int, *what: Any) -> int:
    """A seed for one bot of one game, the same in every process (str seeding is hash-free)."""
    return random.Random("/".join(map(str, ("powergrid_nb.simulate", seed, *what)))).randrange(2**32)


def _start(job: _Job, seed: int) -> Game:
    if job.scenario is None:
        return new_game(seed=seed, **job.spec)  # type: ignore[arg-type]
    d = job.scenario
    return Game.from_dict({**d, "config": {**d["config"], "seed": seed}})


def _bot_name(spec: BotSpec) -> str:
    f = getattr(spec, "func", spec)  # functools.partial
    return spec if isinstance(spec, str) else str(getattr(f, "name", None) or getattr(f, "__name__", f))


def _purchases(g: Game) -> tuple[dict[str, list[tuple[int, int]]], dict[str, int]]:
    """(plant, price) each player bought, and the cities each powered last, read from the history
    as :func:`~powergrid_nb.timeline.auctions_frame` does (its pandas frame costs more than a game)."""
    bought: dict[str, list[tuple[int, int]]] = {p: [] for p in g.players}
    powered: dict[str, int] = {}
    pays: dict[tuple[str | None, str], int] = {}  # payments since the last take this round
    last_round = None
    for e in g.history:
        if e.round != last_round:
            pays.clear()
            last_round = e.round
        if e.kind == "pay":
            pays[(e.player, e.detail)] = -e.amount
        elif e.kind == "plant" and e.player is not None:
            if e.player in bought:
                bought[e.player].append((e.amount, pays.get((e.player, f"buys plant {e.amount}"), 0)))
            pays.clear()
        elif e.kind == "powered" and e.player is not None:
            powered[e.player] = e.amount
    return bought, powered


def play_one(job: _Job, seed: int, point: int = 0, game: int = 0) -> _Out:
    """Play one game of ``job`` with ``seed`` to the end; its rows (and per-round frames)."""
    g = _start(job, seed)
    names = [_bot_name(b) for b in job.bots]
    order = [p for p in g.player_order if p != g.trust]
    bots = [build_bot(b, _derive(seed, "bot", i)) for i, b in enumerate(job.bots)]
    try:
        play(g, bots, max_decisions=MAX_DECISIONS)
    except Exception as e:
        raise RuntimeError(f"game {game} (seed {seed}, bots {names}) failed: {e!r}") from e
    bought, powered = _purchases(g)
    winners, scores, ranking = g.winners, g.scores(), g.ranking()
    rows = [{"game": game, "seed": seed, "player": p, "seat": i, "start_position": order.index(p),
             "bot": names[i], "winner": p in winners, "win_share": (p in winners) / len(winners),
             "rank": ranking.index(p) + 1, "score": scores[p], "cities": len(g.cities_of(p)),
             "money": g.money(p), "rounds": g.round, "plants_bought": len(bought[p]),
             "paid_for_plants": sum(c for _, c in bought[p]),
             "mean_premium": sum(c - n for n, c in bought[p]) / len(bought[p]) if bought[p] else math.nan,
             "powered_last": powered.get(p)} for i, p in enumerate(g.players)]
    rounds = market = None
    if job.per_round:
        from .timeline import market_history_frame, rounds_frame
        bot_of = dict(zip(g.players, names, strict=True)) | ({g.trust: "trust"} if g.trust else {})
        rounds, market = rounds_frame(g), market_history_frame(g)
        for df in (rounds, market):
            df.insert(0, "game", game)
            df.insert(1, "seed", seed)
        rounds.insert(4, "bot", rounds["player"].map(bot_of).astype("string"))
    return _Out(point, game, rows, rounds, market)


def _run_chunk(blob: bytes, tasks: list[tuple[int, int, int]]) -> list[_Out]:
    """Worker entry point: ``tasks`` are (point, game, seed); ``blob`` the pickled jobs."""
    jobs: list[_Job] = pickle.loads(blob)
    return [play_one(jobs[pt], seed, pt, gm) for pt, gm, seed in tasks]


def _ignore_sigint() -> None:  # pool workers: Ctrl-C is the parent's to handle
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _dumps(obj: Any) -> bytes:
    try:
        import cloudpickle  # comes with dask; also pickles lambdas and notebook-defined bots
        return cloudpickle.dumps(obj)
    except ImportError:
        return pickle.dumps(obj)


class SimulationResult:
    """The finished games of a simulation.

    ``games``: one row per (game, player): ``game`` (0, 1, ...), ``seed``, ``player``, ``seat`` (index
    in ``game.players`` = in ``bots``), ``start_position`` (0 = first in player order when the run
    starts), ``bot``, ``winner``, ``win_share`` (1/k for k tied winners), ``rank``, ``score`` (cities
    powered at the end, R99), ``cities``, ``money``, ``rounds``, ``plants_bought``, ``paid_for_plants``,
    ``mean_premium`` (price - plant number, NaN if none; these three over the whole history, a fork's
    too), ``powered_last`` (cities powered in the last phase 5), plus ``point`` and one column per
    swept parameter for a :func:`sweep`. ``rounds`` (one row per game, round and
    participant, from :func:`~powergrid_nb.timeline.rounds_frame`) and ``market`` (per game, round
    and resource, from :func:`~powergrid_nb.timeline.market_history_frame`) when ``per_round=True``.
    ``stopped`` is true when the run ended early (Ctrl-C or ``stop``); ``seeds`` are those asked for.
    """

    def __init__(self, outs: list[_Out], params: list[dict[str, Any]], seeds: list[int], per_round: bool,
                 backend: str, stopped: bool = False, seconds: float = 0.0) -> None:
        self._outs, self._params, self._per_round = outs, params, per_round
        self.seeds, self.backend, self.stopped, self.seconds = seeds, backend, stopped, seconds
        self.param_columns = list(params[0]) if params and params[0] else []
        self._cache: dict[str, pd.DataFrame | None] = {}

    def __len__(self) -> int:
        """Games finished."""
        return len(self._outs)

    def __repr__(self) -> str:
        flag = ", stopped early" if self.stopped else ""
        return f"<SimulationResult {len(self)} games, {self.backend}, {self.seconds:.1f} s{flag}>"

    def _sorted(self) -> list[_Out]:
        return sorted(self._outs, key=lambda o: (o.point, o.game))

    def _with_params(self, df: pd.DataFrame, points: list[int]) -> pd.DataFrame:
        if not self.param_columns:
            return df
        df.insert(0, "point", pd.Series(points, dtype="int64"))
        for k, name in enumerate(self.param_columns, 1):
            df.insert(k, name, _param_series([self._params[p][name] for p in points]))
        return df

    @property
    def games(self) -> pd.DataFrame:
        if "games" not in self._cache:
            outs = self._sorted()
            rows = [r for o in outs for r in o.rows]
            df = pd.DataFrame({c: pd.Series([r[c] for r in rows], dtype=t) for c, t in GAME_COLUMNS.items()})
            self._cache["games"] = self._with_params(df, [o.point for o in outs for _ in o.rows])
        return self._cache["games"]  # type: ignore[return-value]

    def _concat(self, which: str) -> pd.DataFrame | None:
        if not self._per_round:
            return None
        if which not in self._cache:
            outs = [o for o in self._sorted() if getattr(o, which) is not None]
            if not outs:
                self._cache[which] = None
                return None
            df = pd.concat([getattr(o, which) for o in outs], ignore_index=True)
            self._cache[which] = self._with_params(df, [o.point for o in outs for _ in
                                                        range(len(getattr(o, which)))])
        return self._cache[which]

    @property
    def rounds(self) -> pd.DataFrame | None:
        return self._concat("rounds")

    @property
    def market(self) -> pd.DataFrame | None:
        return self._concat("market")

    def summary(self, by: str | Sequence[str] | None = None, z: float = 1.96) -> pd.DataFrame:
        """Win rate per bot (and per swept parameter), with a Wilson interval (95% for ``z=1.96``).

        ``by`` = e.g. ``"seat"`` or ``["seat", "bot"]``; default: the swept parameters and ``bot``.
        A row's ``seats`` counts player-games; ``win_rate`` = shared wins / seats; ``fair_share`` is
        what a bot equal to the others would get (1 / players).
        """
        df = self.games
        keys = [by] if isinstance(by, str) else list(by or [*self.param_columns, "bot"])
        if df.empty:
            return pd.DataFrame(columns=[*keys, "seats", "wins", "win_rate", "ci_low", "ci_high"])
        df = df.assign(_fair=1 / df.groupby(["point", "game"] if "point" in df else "game")["seat"]
                       .transform("size"))
        out = df.groupby(keys, sort=True, dropna=False).agg(
            seats=("win_share", "size"), wins=("win_share", "sum"), fair_share=("_fair", "mean"),
            mean_score=("score", "mean"), mean_cities=("cities", "mean"), mean_money=("money", "mean"),
            mean_rounds=("rounds", "mean")).reset_index()
        out.insert(len(keys) + 2, "win_rate", out["wins"] / out["seats"])
        lo, hi = zip(*(wilson(w, n, z) for w, n in zip(out["wins"], out["seats"], strict=True)), strict=True)
        out.insert(len(keys) + 3, "ci_low", list(lo))
        out.insert(len(keys) + 4, "ci_high", list(hi))
        return out


def _param_series(values: list[Any]) -> pd.Series:
    if all(v is None or type(v) is int for v in values):
        return pd.Series(values, dtype="Int64")
    return pd.Series(["default" if v is None else v if isinstance(v, str) else json.dumps(v)
                      for v in values], dtype="string")


# --- preparing the jobs ---------------------------------------------------------------------------

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


def _job(spec: Any, bots: Any, rules: dict[str, Any] | None, options: dict[str, Any],
         per_round: bool) -> tuple[_Job, Game]:
    """The job for ``spec``, validated by setting one game up (errors surface here, not in workers)."""
    scenario = _scenario(spec)
    if scenario is None:
        kw = dict(spec)
        if "seed" in kw:
            raise ValueError("the spec has no 'seed': seeds come from simulate(seeds=...)")
        kw.update(options)
        if rules is not None:
            kw["rules"] = {**(kw.get("rules") or {}), **rules}
        job = _Job(kw, None, (), per_round)
    else:
        cfg = scenario["config"]
        opts = {**cfg.get("options", {}), **options}
        if rules is not None:
            opts["rules"] = {**(opts.get("rules") or {}), **rules}
        scenario = {**scenario, "config": {**cfg, "options": opts}}
        job = _Job(None, scenario, (), per_round)
    try:
        g = _start(job, 0)
    except ValueError:
        raise
    except Exception as e:  # SaveFileError, TypeError (an unknown keyword), ...
        raise ValueError(f"bad game spec: {e}") from e
    if g.is_over:
        raise ValueError("the position to fork from is already over")
    n = len(g.players)
    seats = [bots] if isinstance(bots, str) or callable(bots) else list(bots)
    for b in seats:
        if isinstance(b, Bot):
            raise ValueError(f"pass a bot name or factory (e.g. the class {type(b).__name__}), not the "
                             "instance: each game makes its own bots, seeded from its seed")
        if isinstance(b, str) and b not in BOTS:
            raise ValueError(f"unknown bot {b!r}; known: {', '.join(sorted(BOTS))}")
        if not isinstance(b, str):
            if not callable(b):
                raise ValueError(f"a bot is a name in BOTS or a factory(seed=...), not {b!r}")
            build_bot(b, 0)
    if len(seats) == 1:
        seats *= n
    if len(seats) != n:
        raise ValueError(f"give one bot for all seats or one per player ({n}: {g.players}), not {len(seats)}")
    return job._replace(bots=tuple(seats)), g


def _seeds(games: int | None, seeds: int | Iterable[int] | None) -> list[int]:
    if seeds is None or isinstance(seeds, int):
        if games is None or games < 0:
            raise ValueError("games must be a number >= 0 (or give seeds as a list)")
        base = secrets.randbits(32) if seeds is None else seeds
        return [base + i for i in range(games)]
    out = [int(s) for s in seeds]
    if games is not None and games != len(out):
        raise ValueError(f"{len(out)} seeds for {games} games")
    return out


# --- running them ---------------------------------------------------------------------------------

Task = tuple[int, int, int]  # (point, game, seed)


def _chunks(tasks: list[Task], workers: int) -> list[list[Task]]:
    """About 8 chunks per worker (load balance), at most 32 games each (progress, early stop)."""
    size = max(1, min(32, math.ceil(len(tasks) / (8 * max(1, workers)))))
    return [tasks[i:i + size] for i in range(0, len(tasks), size)]


def _parallel(backend: str, jobs: list[_Job], tasks: list[Task], done: Callable[[list[_Out]], bool],
              workers: Any, client: Any) -> bool:
    """Chunks of games on a process pool or a Dask cluster; true if ``done`` asked to stop."""
    blob = _dumps(jobs)
    with contextlib.ExitStack() as stack:  # closes what it opened, last first
        if backend == "processes":
            from concurrent.futures import ProcessPoolExecutor, as_completed
            if workers is not None and (type(workers) is not int or workers < 1):
                raise ValueError(f"workers is a positive int for the processes backend, not {workers!r}")
            n = workers or os.cpu_count() or 1
            pool = ProcessPoolExecutor(max_workers=n, initializer=_ignore_sigint)
            stack.callback(pool.shutdown, wait=False, cancel_futures=True)
            submit: Callable[..., Any] = pool.submit
        else:
            try:
                from dask.distributed import Client, LocalCluster, as_completed  # type: ignore[assignment]
            except ImportError:
                raise ImportError("the dask backend needs dask.distributed: "
                                  "pip install 'powergrid_nb[dask]'") from None
            if client is None and isinstance(workers, str):  # the address of a running scheduler
                client = stack.enter_context(Client(workers))
            elif client is None:
                cluster = stack.enter_context(LocalCluster(
                    n_workers=workers or 2, threads_per_worker=1, processes=True, dashboard_address=":0"))
                client = stack.enter_context(Client(cluster))
            n = sum(client.nthreads().values()) or 1
            submit = functools.partial(client.submit, pure=False)
        futures = [submit(_run_chunk, blob, c) for c in _chunks(tasks, n)]
        stack.callback(lambda: [f.cancel() for f in futures if not f.done()])
        return any(done(f.result()) for f in as_completed(futures))


def _execute(jobs: list[_Job], params: list[dict[str, Any]], seeds: list[int], *, backend: str,
             workers: Any, client: Any, per_round: bool, progress: bool, stop: Stop) -> SimulationResult:
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if client is not None and backend != "dask":
        raise ValueError("client= is for backend='dask'")
    if stop is not None and not callable(stop) and not isinstance(stop, int | float):
        raise ValueError("stop is a number of seconds or a callable(result) -> bool")
    from tqdm.auto import tqdm

    tasks = [(pt, gm, seed) for gm, seed in enumerate(seeds) for pt in range(len(jobs))]
    outs: list[_Out] = []
    result = SimulationResult(outs, params, seeds, per_round, backend)
    t0 = time.perf_counter()
    bar = tqdm(total=len(tasks), disable=not progress, unit="game", desc="simulate", smoothing=0.05)

    def done(new: list[_Out]) -> bool:
        """Record finished games; true when it is time to stop."""
        outs.extend(new)
        bar.update(len(new))
        result.seconds = time.perf_counter() - t0
        result._cache.clear()
        if stop is None:
            return False
        return bool(stop(result)) if callable(stop) else result.seconds >= stop

    try:
        if backend == "local":
            stopped = any(done([play_one(jobs[pt], seed, pt, gm)]) for pt, gm, seed in tasks)
        else:
            stopped = _parallel(backend, jobs, tasks, done, workers, client)
    except KeyboardInterrupt:
        stopped = True
    finally:
        bar.close()
    result.stopped = stopped or len(outs) < len(tasks)
    result.seconds = time.perf_counter() - t0
    result._cache.clear()
    return result


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
    class, a ``functools.partial``), for every seat or one per player in ``game.players`` order.
    Each bot is seeded from its game's seed and seat, so a game depends only on (spec, seed, bots).
    ``seeds``: a list (one per game), an int (game *i* uses seed + *i*) or None (a random base).
    ``rules``: what-if rule parameters (module docstring; ``editions.RULE_PARAMETERS``);
    ``game_options``: new_game options such as ``bidding="order"``.
    ``backend``: ``"local"``, ``"processes"`` (``workers`` processes, default all cores) or
    ``"dask"`` (``client``, else a scheduler address in ``workers``, else a LocalCluster of
    ``workers`` (default 2) single-threaded worker processes); the frames are the same for all three.
    ``per_round=True`` also fills ``result.rounds`` and ``result.market``. ``progress`` shows a tqdm
    bar. ``stop``: seconds, or ``stop(result_so_far) -> bool`` checked after each finished game
    (chunk, in parallel); Ctrl-C stops too. Either way the finished games are kept and
    ``result.stopped`` is true.
    """
    job, _ = _job(spec_or_game, bots, rules, game_options, per_round)
    return _execute([job], [{}], _seeds(games, seeds), backend=backend, workers=workers, client=client,
                    per_round=per_round, progress=progress, stop=stop)


def sweep(base_spec: Mapping[str, Any] | Game | str | Path, param_grid: Mapping[str, Any],
          games_per_point: int | None = None, bots: BotSpec | Sequence[BotSpec] = ("random",),
          seeds: int | Iterable[int] | None = None, rules: dict[str, Any] | None = None,
          backend: str = "local", workers: int | str | None = None, client: Any = None,
          per_round: bool = False, progress: bool = True, stop: Stop = None,
          **game_options: Any) -> SimulationResult:
    """Simulate every combination of ``param_grid`` (rule parameters or new_game options).

    ``param_grid`` maps a parameter to a list of values, or to ``{label: value}`` to name them
    (e.g. ``{"refill": {"standard": None, "double coal": {...}}}``); ``None`` = no override. Every
    point plays the same seeds (common random numbers, so differences are the rules'). The frames
    get a ``point`` column and one column per parameter: the value, or JSON text for lists and
    dicts, or the label. Points are interleaved, so stopping early leaves them balanced.
    """
    names = list(param_grid)
    axes = []
    for k in names:
        if k not in RULE_PARAMETERS and (k not in OPTIONS or k == "rules"):
            raise ValueError(f"cannot sweep {k!r}: choose rule parameters ({', '.join(RULE_PARAMETERS)}) "
                             f"or game options ({', '.join(o for o in OPTIONS if o != 'rules')})")
        v = param_grid[k]
        pairs = list(v.items()) if isinstance(v, Mapping) else [(x, x) for x in v]
        if not pairs:
            raise ValueError(f"param_grid[{k!r}] has no values")
        axes.append(pairs)
    jobs, params = [], []
    for combo in itertools.product(*axes):
        r, o = dict(rules or {}), dict(game_options)
        for k, (_, value) in zip(names, combo, strict=True):
            target = r if k in RULE_PARAMETERS else o
            if value is None:
                target.pop(k, None)
            else:
                target[k] = value
        jobs.append(_job(base_spec, bots, r or None, o, per_round)[0])
        params.append({k: label for k, (label, _) in zip(names, combo, strict=True)})
    return _execute(jobs, params, _seeds(games_per_point, seeds), backend=backend, workers=workers,
                    client=client, per_round=per_round, progress=progress, stop=stop)
