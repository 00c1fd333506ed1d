"""Where the play table saves and loads games: the path policy of its Save and Load buttons.

In JupyterLab the user owns the server, so a save is any path (:class:`AnyPath`). In app mode (the
table served by Voila, whose page others may open) a save is a plain name in one saves folder
(:class:`SavesFolder`): an absolute path, a folder part, ``..``, a hidden name, a name that is not
``.json``, a link (symlink) and anything but a regular file are refused with :class:`SaveRefused`
before anything is read or written. Refusals say what was wrong and what is allowed, and never show
a server path. In both modes the browser can download the game and open a file (the toolbar).

App mode is an explicit ``play(app=True)`` (the app notebook passes it); without one it is detected:
``POWERGRID_APP=1``, or a kernel that Voila started (:func:`under_voila`).
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from powergrid_nb.engine.game import Game

APP_ENV = "POWERGRID_APP"  # "1": app mode even where Voila is not detected
SAVES_ENV = "POWERGRID_SAVES"  # the saves folder of app mode
DEFAULT_FOLDER = "saves"  # app mode: saves/ in the kernel's working directory (the notebook's folder)
MAX_BYTES = 5_000_000  # a save file bigger than this is refused (a whole game is about 100 KB)
MAX_FILES = 500  # app mode: the saves folder takes no more save files than this
PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.-]{0,79}")
ALLOWED = ("a plain name such as my_game or my_game.json (letters, digits, spaces, '-', '_' and '.', "
           "at most 80 characters)")
# set in the kernels Voila starts (voila/handler.py, voila/voila_kernel_manager.py)
VOILA_ENV = ("VOILA_KERNEL_ID", "VOILA_PREHEAT", "VOILA_APP_PORT", "VOILA_BASE_URL", "VOILA_REQUEST_URL")


class SaveRefused(ValueError):
    """A save or load the policy refuses, or one that failed; the message is fit to show to anyone."""


def under_voila(environ: Mapping[str, str] | None = None) -> bool:
    """True in a kernel Voila started (its environment carries Voila's variables)."""
    env = os.environ if environ is None else environ
    return env.get("SERVER_SOFTWARE", "").startswith("voila/") or any(k in env for k in VOILA_ENV)


def app_mode(app: bool | None = None, environ: Mapping[str, str] | None = None) -> bool:
    """Whether the table runs as an app: ``app`` when given, else ``POWERGRID_APP=1`` or Voila."""
    if app is not None:
        return bool(app)
    env = os.environ if environ is None else environ
    return env.get(APP_ENV, "").strip().lower() in ("1", "true", "yes") or under_voila(env)


def game_from_bytes(data: bytes) -> Game:
    """A game from the bytes of a save file (ValueError, with the reason, when they are not one)."""
    if len(data) > MAX_BYTES:
        raise SaveRefused(f"the file is larger than {MAX_BYTES // 1_000_000} MB: not a save file")
    try:
        d = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise SaveRefused("not a JSON save file (not UTF-8 text)") from None
    except json.JSONDecodeError as e:
        raise SaveRefused(f"not a JSON save file (line {e.lineno}, column {e.colno}: {e.msg})") from None
    return Game.from_dict(d)


def download_name(text: str, default: str = "powergrid_save.json") -> str:
    """A file name for the browser's download: the last part of ``text`` made plain, ending in .json."""
    stem = re.sub(r"[^A-Za-z0-9 _.-]+", "_", re.split(r"[/\\]", text.strip())[-1]).strip(" ._")
    if stem.lower().endswith(".json"):
        stem = stem[:-5].rstrip(" ._")
    return f"{stem[:75]}.json" if stem else default


class AnyPath:
    """JupyterLab: the user owns the server, so Save and Load take any path."""

    app = False
    hint = "save file path"
    default = "powergrid_save.json"

    def save(self, game: Game, text: str) -> str:
        """Write ``game`` at the path ``text``; returns where, for the message."""
        game.save(text)
        return f"saved to {text}"

    def load(self, text: str) -> Game:
        from powergrid_nb.engine.newgame import load
        return load(text)


class SavesFolder:
    """App mode: a save is a plain name in ``folder``; everything else is refused (:class:`SaveRefused`)."""

    app = True
    hint = "save name"
    default = "my_game"

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder).absolute()

    def name(self, text: str) -> str:
        """The file name ``text`` stands for (``.json`` added), or SaveRefused saying why not."""
        text = text.strip()
        if not text:
            raise SaveRefused(f"a save needs a name: use {ALLOWED}")
        if text.startswith(("/", "\\", "~")) or re.match(r"[A-Za-z]:", text) or os.path.isabs(text):
            raise SaveRefused("paths are not allowed here, saves stay in the app's saves folder: "
                              f"use {ALLOWED}")
        parts = re.split(r"[/\\]", text)
        if ".." in parts:
            raise SaveRefused(f"'..' is not allowed, saves stay in the app's saves folder: use {ALLOWED}")
        if len(parts) > 1:
            raise SaveRefused(f"folders are not allowed, saves stay in the app's saves folder: use {ALLOWED}")
        if text.startswith("."):
            raise SaveRefused(f"a name may not start with '.': use {ALLOWED}")
        suffix = text.rsplit(".", 1)[1].lower() if "." in text else ""
        if suffix and suffix != "json" and not suffix.isdigit():
            raise SaveRefused(f"only JSON save files (.json) are allowed, not .{suffix}: use {ALLOWED}")
        name = text if suffix == "json" else f"{text}.json"
        if not PLAIN.fullmatch(name):
            raise SaveRefused(f"{text!r} is not a plain name: use {ALLOWED}")
        return name

    def _target(self, name: str) -> Path:
        base = self.folder.resolve()
        target = base / name
        if target.is_symlink():
            raise SaveRefused(f"{name} is a link; links are not allowed in the saves folder")
        if target.resolve().parent != base:  # cannot happen for a plain name: a last guard
            raise SaveRefused(f"{name} is outside the saves folder")
        if target.exists() and not target.is_file():
            raise SaveRefused(f"{name} is not a save file")
        return target

    def save(self, game: Game, text: str) -> str:
        """Write ``game`` as ``<name>.json`` in the folder (never through a link); returns the message."""
        name = self.name(text)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            target = self._target(name)
            if not target.exists() and sum(1 for _ in target.parent.glob("*.json")) >= MAX_FILES:
                raise SaveRefused(f"the saves folder is full ({MAX_FILES} saves); "
                                  "overwrite a save by its name")
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".saving-", suffix=".tmp")
            os.close(fd)
            try:
                game.save(tmp)
                os.replace(tmp, target)  # replaces a link put there meanwhile, never writes through it
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        except OSError as e:
            why = e.strerror or type(e).__name__  # never str(e): it names the path
            raise SaveRefused(f"the saves folder cannot be written ({why})") from None
        return f"saved as {name} in the app's saves folder"

    def load(self, text: str) -> Game:
        """The game saved as ``<name>.json`` in the folder (a regular file, not a link, at most MAX_BYTES)."""
        name = self.name(text)
        target = self._target(name)
        try:
            fd = os.open(target, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            raise SaveRefused(f"there is no save named {name}") from None
        except OSError as e:
            raise SaveRefused(f"{name} cannot be read ({e.strerror or type(e).__name__})") from None
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise SaveRefused(f"{name} is not a save file")
            data = f.read(MAX_BYTES + 1)
        return game_from_bytes(data)


def save_policy(app: bool | None = None, folder: str | os.PathLike[str] | None = None,
                environ: Mapping[str, str] | None = None) -> AnyPath | SavesFolder:
    """The policy of a table: :class:`SavesFolder` in app mode (``folder``, else ``POWERGRID_SAVES``,
    else ``saves/`` in the working directory), :class:`AnyPath` otherwise."""
    env = os.environ if environ is None else environ
    if app_mode(app, env):
        return SavesFolder(folder or env.get(SAVES_ENV) or DEFAULT_FOLDER)
    return AnyPath()
