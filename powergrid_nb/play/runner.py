"""The game runner: seeded games with bots, played here, on a process pool or on a Dask cluster.

:func:`~powergrid_nb.play.simulation.simulate`, :func:`~powergrid_nb.play.simulation.sweep` and
:func:`~powergrid_nb.play.tournaments.tournament` all play their games through :func:`run`.

Seeding. A run asks for one *game seed* per game. The game is ``new_game(seed=game_seed, **spec)``
(a fork: the position with its seed replaced), and the bot that plays ``game.players[k]`` is built
with :func:`bot_seed` ``(game_seed, k)``. A game therefore depends only on (spec, game seed, the bot
spec of each player, rules), never on the backend, the worker or the order in which games finish.

Seating. A :class:`Job`'s ``bots`` are lineup entries. With ``rotate=None`` entry *k* plays
``game.players[k]`` (simulate). With ``rotate=r`` entry *e* sits at ``game.seat_order[(e + r*i) % n]``
in game *i* (seat 0 is the first player by lot, R7): the tournament's seat rotation.

Ranking, the same in every frame. ``rank`` is 1 + the number of players the rules rank strictly
higher: cities powered (R99), then the edition's tie-breaks (R100-R102: money, [ORIG] cities), as
``Game.rank_key`` and ``Game.ranks()`` give them. Players the tie-breaks cannot split share the rank
(O16, R103): two tied winners are both rank 1 and the next player is rank 3. ``winner`` is rank 1;
``win_share`` is 1/k for k winners (``Game.returns()``).

Backends (:data:`BACKENDS`): ``"local"`` (this process), ``"processes"`` (a process pool on this
machine) and ``"dask"`` (``dask.distributed``: a client, a scheduler address or a LocalCluster).
Workers get plain data only (the job: spec, bot names or factories; and seeds) and make the games.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import math
import os
import random
import secrets
import signal
import sys
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from powergrid_nb.bots.base import Bot, make_bot, play
from powergrid_nb.engine.events import PlantBought, PlantsRun
from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game

from .results import Outcome, SimulationResult

__all__ = ["BACKENDS", "BotSpec", "Job", "Outcome", "bot_label", "bot_seed", "build_bot", "game_seeds",
           "play_one", "run"]

BotSpec = str | Bot | Callable[..., Bot]
Stop = Callable[[SimulationResult], bool] | float | int | None
BACKENDS = ("local", "processes", "dask")
MAX_DECISIONS = 200_000


# --- seeds and bots -------------------------------------------------------------------------------

def bot_seed(game_seed: int, player: int) -> int:
    """The seed of the bot playing ``game.players[player]`` in the game of ``game_seed``.

    The same in every process and Python (``random.Random`` seeds a str without ``hash()``).
    """
    key = f"powergrid_nb.simulate/{game_seed}/bot/{player}"
    return random.Random(key).randrange(2**32)


def game_seeds(games: int | None, seeds: int | list[int] | tuple[int, ...] | None) -> list[int]:
    """One game seed per game: ``seeds`` as a list, or game *i* gets ``seeds + i`` (a random base
    for ``None``)."""
    if seeds is None or isinstance(seeds, int):
        if games is None or games < 0:
            raise ValueError("games must be a number >= 0 (or give seeds as a list)")
        base = secrets.randbits(32) if seeds is None else seeds
        return [base + i for i in range(games)]
    out = [int(s) for s in seeds]
    if games is not None and games != len(out):
        raise ValueError(f"{len(out)} seeds for {games} games")
    return out


def build_bot(spec: BotSpec, seed: int) -> Bot:
    """A fresh bot for one game: a registry name, a Bot class or factory ``f(seed=...)``, or an
    instance used as a template (deep-copied and re-seeded)."""
    if isinstance(spec, str):
        return make_bot(spec, seed)
    if isinstance(spec, Bot):
        bot = copy.deepcopy(spec)
        bot.seed = seed
        bot.rng.seed(seed)
        return bot
    if callable(spec):
        bot = spec(seed=seed)
        if not isinstance(bot, Bot):
            raise TypeError(f"bot factory {spec!r} returned {type(bot).__name__}, not a Bot")
        return bot
    raise TypeError(f"a bot spec is a name, a Bot or a factory, not {type(spec).__name__}")


def bot_label(spec: BotSpec) -> str:
    """The name a bot is reported under: the registry name, else the ``name`` of the bot it makes."""
    return spec if isinstance(spec, str) else build_bot(spec, 0).name


# --- one game -------------------------------------------------------------------------------------

class Job(NamedTuple):
    """What every game of one run (or sweep point) shares; plain data, so it pickles to any worker."""

    spec: dict[str, Any] | None  # new_game keyword arguments (seed excluded) ...
    scenario: dict[str, Any] | None  # ... or a position to fork from (Game.to_dict() form)
    bots: tuple[BotSpec, ...]  # lineup entries: one per player
    names: tuple[str, ...]  # the label of each entry
    rotate: int | None = None  # None: entry k plays game.players[k]; else see the module docstring
    per_round: bool = False


def start(job: Job, seed: int) -> Game:
    """The game of ``job`` for ``seed``, before anyone acts."""
    if job.scenario is None:
        return new_game(seed=seed, **job.spec)  # type: ignore[arg-type]
    d = job.scenario
    return Game.from_dict({**d, "config": {**d["config"], "seed": seed}})


def entries(g: Game, job: Job, game: int) -> list[int]:
    """The lineup entry that plays each of ``g.players`` in game number ``game``."""
    n = len(g.players)
    if job.rotate is None:
        return list(range(n))
    at = {p: (s - job.rotate * game) % n for s, p in enumerate(g.seat_order)}
    return [at[p] for p in g.players]


def plant_purchases(g: Game) -> tuple[dict[str, list[tuple[int, int]]], dict[str, int]]:
    """(plant, price) each player bought, and the cities each powered last, from the typed events."""
    bought: dict[str, list[tuple[int, int]]] = {p: [] for p in g.players}
    powered: dict[str, int] = {}
    for e in g.history:
        if isinstance(e, PlantBought) and e.player in bought:
            bought[e.player].append((e.plant, e.price))
        elif isinstance(e, PlantsRun):
            powered[e.player] = e.powered
    return bought, powered


def play_one(job: Job, seed: int, point: int = 0, game: int = 0) -> Outcome:
    """Play game number ``game`` of ``job`` with ``seed`` to the end; its rows (and round frames)."""
    g = start(job, seed)
    entry = entries(g, job, game)
    order = [p for p in g.player_order if p != g.trust]
    bots = [build_bot(job.bots[e], bot_seed(seed, k)) for k, e in enumerate(entry)]
    try:
        play(g, bots, max_decisions=MAX_DECISIONS)
    except Exception as e:
        names = [job.names[i] for i in entry]
        raise RuntimeError(f"game {game} (seed {seed}, bots {names}) failed: {e!r}") from e
    bought, powered = plant_purchases(g)
    ranks, shares, scores = g.ranks(), g.returns(), g.scores()
    decisions = len(g.actions)
    rows = []
    for k, p in enumerate(g.players):
        mine = bought[p]
        rows.append({
            "game": game, "seed": seed, "player": p, "seat": k, "start_position": order.index(p),
            "entry": entry[k], "bot": job.names[entry[k]], "winner": ranks[p] == 1,
            "win_share": shares[p], "rank": ranks[p], "score": scores[p], "cities": g.city_count(p),
            "money": g.money(p), "rounds": g.round, "decisions": decisions, "plants_bought": len(mine),
            "paid_for_plants": sum(c for _, c in mine),
            "mean_premium": sum(c - n for n, c in mine) / len(mine) if mine else math.nan,
            "powered_last": powered.get(p)})
    rounds = market = auctions = None
    if job.per_round:
        from powergrid_nb.position.timeline import auctions_frame, market_history_frame, rounds_frame
        bot_of = {r["player"]: r["bot"] for r in rows} | ({g.trust: "trust"} if g.trust else {})
        rounds, market, auctions = rounds_frame(g), market_history_frame(g), auctions_frame(g)
        for df in (rounds, market, auctions):
            df.insert(0, "game", game)
            df.insert(1, "seed", seed)
        rounds.insert(4, "bot", rounds["player"].map(bot_of).astype("string"))
        auctions.insert(5, "bot", auctions["player"].map(bot_of).astype("string"))
    return Outcome(point, game, rows, rounds, market, auctions)


# --- many games -----------------------------------------------------------------------------------

Task = tuple[int, int, int]  # (point, game, seed)


PlayFn = Callable[[Any, int, int, int], Outcome]  # (job, seed, point, game) -> Outcome, like play_one


def _run_chunk(packed: Any, tasks: list[Task], play_fn: PlayFn = play_one) -> list[Outcome]:
    """Worker entry point: ``tasks`` are (point, game, seed); ``packed`` the jobs (cloudpickled)."""
    if isinstance(packed, bytes):
        import cloudpickle
        packed = cloudpickle.loads(packed)
    return [play_fn(packed[pt], seed, pt, gm) for pt, gm, seed in tasks]


def _pack(jobs: list[Job]) -> Any:
    """The jobs for the workers: cloudpickled (lambdas, notebook-defined bots) when cloudpickle is
    installed (it comes with dask), else as they are for the pool's own pickling."""
    try:
        import cloudpickle
    except ImportError:
        return jobs
    return cloudpickle.dumps(jobs)


def _ignore_sigint() -> None:  # pool workers: Ctrl-C is the parent's to handle
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(tasks: list[Task], workers: int) -> list[list[Task]]:
    """About 8 chunks per worker (load balance), at most 32 games each (progress, early stop)."""
    size = max(1, min(32, math.ceil(len(tasks) / (8 * max(1, workers)))))
    return [tasks[i:i + size] for i in range(0, len(tasks), size)]


def _parallel(backend: str, jobs: list[Any], tasks: list[Task], done: Callable[[list[Outcome]], bool],
              workers: Any, client: Any, play_fn: PlayFn = play_one) -> bool:
    """Chunks of games on a process pool or a Dask cluster; true if ``done`` asked to stop."""
    packed = _pack(jobs)
    with contextlib.ExitStack() as stack:  # closes what it opened, last first
        if backend == "processes":
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor, as_completed
            if workers is not None and (type(workers) is not int or workers < 1):
                raise ValueError(f"workers is a positive int for the processes backend, not {workers!r}")
            n = workers or os.cpu_count() or 1
            # fork on Linux (scripts need no __main__ guard), spawn elsewhere
            context = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
            pool = ProcessPoolExecutor(max_workers=n, mp_context=context, initializer=_ignore_sigint)
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
        futures = [submit(_run_chunk, packed, c, play_fn) for c in _chunks(tasks, n)]
        stack.callback(lambda: [f.cancel() for f in futures if not f.done()])
        return any(done(f.result()) for f in as_completed(futures))


def check_backend(backend: str, client: Any = None, stop: Stop = None) -> None:
    """ValueError for an unknown backend, a client without Dask, or a malformed ``stop``."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if client is not None and backend != "dask":
        raise ValueError("client= is for backend='dask'")
    if stop is not None and not callable(stop) and not isinstance(stop, int | float):
        raise ValueError("stop is a number of seconds or a callable(result) -> bool")


def run(jobs: list[Any], params: list[dict[str, Any]], seeds: list[int], *, backend: str = "local",
        workers: Any = None, client: Any = None, per_round: bool = False, progress: bool = True,
        stop: Stop = None, desc: str = "simulate", play_fn: PlayFn = play_one) -> SimulationResult:
    """Play every job (sweep point) with every seed; game *i* of each point gets ``seeds[i]``.

    Points are interleaved, so stopping early leaves them balanced. ``stop``: seconds, or
    ``stop(result_so_far) -> bool`` checked after each finished game (chunk, in parallel); Ctrl-C
    stops too. Either way the finished games are kept and ``result.stopped`` is true. ``progress``
    shows a tqdm bar labelled ``desc``. ``play_fn(job, seed, point, game)`` plays one game: by default
    :func:`play_one` (a :class:`Job`); analysis passes its own, a module-level function so that
    process pools can pickle it.
    """
    check_backend(backend, client, stop)
    from tqdm.auto import tqdm

    tasks = [(pt, gm, seed) for gm, seed in enumerate(seeds) for pt in range(len(jobs))]
    result = SimulationResult([], params, seeds, per_round, backend)
    t0 = time.perf_counter()
    bar = tqdm(total=len(tasks), disable=not progress, unit="game", desc=desc, smoothing=0.05)

    def done(new: list[Outcome]) -> bool:
        """Record finished games; true when it is time to stop."""
        result.add(new, time.perf_counter() - t0)
        bar.update(len(new))
        if stop is None:
            return False
        return bool(stop(result)) if callable(stop) else result.seconds >= stop

    try:
        if backend == "local":
            stopped = any(done([play_fn(jobs[pt], seed, pt, gm)]) for pt, gm, seed in tasks)
        else:
            stopped = _parallel(backend, jobs, tasks, done, workers, client, play_fn)
    except KeyboardInterrupt:
        stopped = True
    finally:
        bar.close()
    result.stopped = stopped or len(result) < len(tasks)
    result.add([], time.perf_counter() - t0)
    return result
