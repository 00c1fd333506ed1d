"""The ``powergrid-nb`` command line: ``powergrid-nb simulate ...``, ``accel``, ``room``, ``lessons``.

Example::

    powergrid-nb simulate --players 4 --bots heuristic,random,random,random --games 1000 \\
        --map germany --edition original --seed 0 --backend processes --out results.parquet
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd

from powergrid_nb.engine.board.maps import DEFAULT_MAP, builtin_maps
from powergrid_nb.engine.editions import (
    DEFAULT_EDITION,
    EDITIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULE_PARAMETERS,
)
from powergrid_nb.play.runner import BACKENDS

FORMATS = (".parquet", ".pq", ".csv")


class _Error(Exception):
    """A bad command line: printed as ``powergrid-nb simulate: error: ...``, exit code 2."""


def _players(text: str) -> int | list[str]:
    text = text.strip()
    if text.isdigit():
        return int(text)
    return [x.strip() for x in text.split(",") if x.strip()]


def _json(text: str, what: str) -> Any:
    if text.startswith("@"):  # @file.json
        try:
            text = Path(text[1:]).read_text(encoding="utf-8")
        except OSError as e:
            raise _Error(f"{what}: cannot read {text[1:]}: {e.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise _Error(f"{what} is not valid JSON ({e.msg} at column {e.colno}): {text!r}") from None


def _option(text: str) -> tuple[str, Any]:
    key, eq, value = text.partition("=")
    if not eq or not key.strip():
        raise _Error(f"--option takes KEY=VALUE (e.g. bidding=order), not {text!r}")
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value  # a plain string such as order


def _out_path(text: str | None, flag: str) -> Path | None:
    """The output file, checked before any game is played: its format can be written, and its folder."""
    if text is None:
        return None
    p = Path(text)
    if p.suffix.lower() not in FORMATS:
        raise _Error(f"{flag} {text}: the file name must end in .parquet, .pq or .csv")
    if p.suffix.lower() != ".csv" and importlib.util.find_spec("pyarrow") is None:
        raise _Error(f"{flag} {text}: writing parquet needs pyarrow, which is not installed: "
                     "pip install 'powergrid_nb[parquet]', or give a .csv name")
    if p.is_dir():
        raise _Error(f"{flag} {text}: is a folder; give a file name")
    folder = next((d for d in (p.parent, *p.parent.parents) if d.exists()), Path("."))
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK) or (p.exists() and
                                                                            not os.access(p, os.W_OK)):
        raise _Error(f"{flag} {text}: cannot write there ({folder} is not a folder you may write in)")
    return p


def write_frame(df: pd.DataFrame, path: Path) -> None:
    """Parquet (pyarrow) or CSV, by the file's extension."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".csv":
        df.to_csv(path, index=False)
    else:
        try:
            df.to_parquet(path, index=False)
        except ImportError as e:
            raise _Error(f"writing parquet needs pyarrow (pip install 'powergrid_nb[parquet]'), "
                         f"or use a .csv name: {e}") from None


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="powergrid-nb", description="Power Grid in Python: command line tools.")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    s = sub.add_parser("simulate", help="play many games with bots; write a tidy results table",
                       description="Play many games with bots (what-if simulation) and write one row per "
                                   "game and player (parquet or CSV). Prints the win rate per bot.",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    s.add_argument("--players", type=_players, default=4,
                   help=f"a count ({MIN_PLAYERS}-{MAX_PLAYERS}) or names: Ada,Bo,Cy")
    s.add_argument("--bots", default="random",
                   help="one bot for every seat, or one per player, comma-separated (names from "
                        "powergrid_nb.bots.BOTS, e.g. heuristic,random,random,random)")
    s.add_argument("--games", type=int, default=100, help="number of games")
    s.add_argument("--map", default=DEFAULT_MAP, help=f"{', '.join(builtin_maps())} or a map file")
    s.add_argument("--edition", default=DEFAULT_EDITION, choices=tuple(EDITIONS))
    s.add_argument("--regions", default=None, help="comma-separated regions (default: seeded random)")
    s.add_argument("--seed", type=int, default=0, help="game i uses seed + i")
    s.add_argument("--from", dest="scenario", metavar="GAME.json", default=None,
                   help="fork every game from this saved game or scenario (ignores --players/--map/"
                        "--edition/--regions)")
    s.add_argument("--rules", default=None,
                   help='what-if rule parameters as JSON or @file.json, e.g. \'{"starting_money": 60}\' '
                        f"({', '.join(RULE_PARAMETERS)})")
    s.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a new_game option, e.g. bidding=order (repeatable)")
    s.add_argument("--backend", default="local", choices=BACKENDS)
    s.add_argument("--workers", default=None,
                   help="processes: worker processes (default: all cores); dask: LocalCluster workers "
                        "(default 2) or a scheduler address tcp://host:8786")
    s.add_argument("--out", default=None, help="results file: .parquet or .csv (one row per game and player)")
    s.add_argument("--per-round", default=None, metavar="PATH",
                   help="also write the per-round frame (game, round, player): .parquet or .csv")
    s.add_argument("--market", default=None, metavar="PATH",
                   help="also write the per-round market frame (game, round, resource)")
    s.add_argument("--max-seconds", type=float, default=None, help="stop after this long, keeping "
                                                                   "finished games")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    a = sub.add_parser("accel", help="build, check or remove the optional compiled engine",
                       description="The optional compiled engine (Cython): the same games, faster. "
                                   "`build` needs pip install 'powergrid_nb[accel]' and a C compiler.")
    a.add_argument("action", choices=("build", "status", "remove"))
    a.add_argument("--jobs", type=int, default=None, help="compile on this many cores (default: all)")
    le = sub.add_parser("lessons", help="the course's lessons as executed web pages to hand out or project",
                        description="Execute the lesson notebooks (at class size unless --small: their first "
                                    "cell's FULL = True, the stored notebooks unchanged) and write each as "
                                    "one web page that needs no network, with its executed notebook, and "
                                    "an index.html. Needs pip install 'powergrid_nb[lessons]'.")
    le.add_argument("action", choices=("html",))
    size = le.add_mutually_exclusive_group()
    size.add_argument("--full", dest="full", action="store_true", default=True,
                      help="the class sizes (FULL = True): minutes per lesson (the default)")
    size.add_argument("--small", dest="full", action="store_false",
                      help="the small sizes the notebooks are stored with (FULL = False)")
    le.add_argument("--lesson", type=int, action="append", default=None, metavar="N",
                    help="only lesson N (repeatable; default: every lesson)")
    le.add_argument("--from", dest="folder", default="notebooks/lessons", metavar="DIR",
                    help="the folder of the lesson notebooks (default: notebooks/lessons)")
    le.add_argument("--out", default="build/lessons-html", metavar="DIR",
                    help="where the pages go (default: build/lessons-html)")
    from powergrid_nb.rooms.cli import add_parser as add_room_parser

    add_room_parser(sub)
    return ap


def _summary_text(result: Any) -> str:
    table = result.summary()
    if table.empty:
        return "no finished games"
    cols = ["bot", "seats", "wins", "win_rate", "ci_low", "ci_high", "fair_share", "mean_score",
            "mean_rounds"]
    pretty = table[cols].copy()
    for c in ("win_rate", "ci_low", "ci_high", "fair_share"):
        pretty[c] = [f"{x:.1%}" for x in pretty[c]]
    pretty["wins"] = [f"{x:g}" for x in pretty["wins"]]
    for c in ("mean_score", "mean_rounds"):
        pretty[c] = [f"{x:.1f}" for x in pretty[c]]
    pretty = pretty.rename(columns={"ci_low": "95% CI low", "ci_high": "95% CI high"})
    return pretty.to_string(index=False)


def simulate_command(args: argparse.Namespace) -> int:
    from powergrid_nb.play.simulation import simulate

    out, rounds_out = _out_path(args.out, "--out"), _out_path(args.per_round, "--per-round")
    market_out = _out_path(args.market, "--market")
    if args.games < 1:
        raise _Error("--games must be at least 1")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    rules = None if args.rules is None else _json(args.rules, "--rules")
    if rules is not None and not isinstance(rules, dict):
        raise _Error(f"--rules must be a JSON object, not {args.rules!r}")
    options = dict(_option(o) for o in args.option)
    workers = args.workers
    if workers is not None and workers.isdigit():
        workers = int(workers)
    if args.scenario is not None:
        try:
            spec: Any = json.loads(Path(args.scenario).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise _Error(f"--from {args.scenario}: {e}") from None
    else:
        spec = {"players": args.players, "map": args.map, "edition": args.edition}
        if args.regions:
            spec["regions"] = [r.strip() for r in args.regions.split(",") if r.strip()]
    try:
        result = simulate(spec, args.games, bots=bots, seeds=args.seed, rules=rules, backend=args.backend,
                          workers=workers, per_round=rounds_out is not None or market_out is not None,
                          progress=not args.no_progress, stop=args.max_seconds, **options)
    except (ValueError, TypeError) as e:
        raise _Error(str(e)) from None
    for path, df in ((out, result.games), (rounds_out, result.rounds), (market_out, result.market)):
        if path is not None and df is not None:
            write_frame(df, path)
    n = len(result)
    rate = n / result.seconds if result.seconds else float("nan")
    print(f"{n} of {args.games} games in {result.seconds:.1f} s ({rate:.1f} games/s, backend "
          f"{args.backend}){'; stopped early' if result.stopped else ''}")
    print(_summary_text(result))
    for path in (out, rounds_out, market_out):
        if path is not None:
            print(f"wrote {path}")
    return 0


def lessons_command(args: argparse.Namespace) -> int:
    """``powergrid-nb lessons html``: a line per lesson (which, how long), the running cell on a terminal;
    Ctrl-C stops it, keeping the pages built before."""
    if importlib.util.find_spec("latex2mathml") is None:
        print("powergrid-nb lessons: the pages need pip install 'powergrid_nb[lessons]'", file=sys.stderr)
        return 2
    from nbclient.exceptions import CellExecutionError

    from powergrid_nb.lessons.html import build_pages

    out, width = Path(args.out), 0

    def status(text: str) -> None:
        nonlocal width
        print("\r" + text.ljust(width), end="", file=sys.stderr, flush=True)
        width = len(text)

    def log(text: str) -> None:
        if width:
            status("")
            print("\r", end="", file=sys.stderr)
        print(text, flush=True)

    t0 = time.monotonic()
    try:
        pages = build_pages(Path(args.folder), out, full=args.full, only=args.lesson, log=log,
                            status=status if sys.stderr.isatty() else None)
    except KeyboardInterrupt:
        log(f"stopped; the pages built before are in {out} (index.html)")
        return 130
    except (ValueError, OSError) as e:
        log("")
        print(f"powergrid-nb lessons: error: {e}", file=sys.stderr)
        return 2
    except CellExecutionError as e:
        log("")
        print(f"powergrid-nb lessons: a cell failed; the pages built before are in {out}\n{e}",
              file=sys.stderr)
        return 1
    print(f"{len(pages)} lesson pages in {time.monotonic() - t0:.0f} s: open {out / 'index.html'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``powergrid-nb``; returns the exit code."""
    ap = _parser()
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:  # --help (0) or a usage error (2, message already printed)
        return int(e.code or 0)
    if args.command is None:
        ap.print_help(sys.stderr)
        return 2
    if args.command == "accel":
        from powergrid_nb.accel import command

        return command(args.action, args.jobs)
    if args.command == "lessons":
        return lessons_command(args)
    if args.command == "room":
        from powergrid_nb.rooms.cli import command as room_command

        return room_command(args)
    try:
        return simulate_command(args)
    except _Error as e:
        print(f"powergrid-nb {args.command}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
