"""Where the play table saves and loads games: the path policy of its Save and Load buttons.

In JupyterLab the user owns the server, so a save is any path (:class:`AnyPath`). In app mode (the
table served by Voila, whose page others may open) a save is a plain name in one saves folder
(:class:`SavesFolder`): an absolute path, a folder part, ``..``, a hidden name, a name that is not
``.json``, a link (symlink) and anything but a regular file are refused with :class:`SaveRefused`
before anything is read or written. Refusals say what was wrong and what is allowed, and never show
a server path. Limits, checked before anything is written: a save of at most :data:`MAX_BYTES` (the
limit of Load too), at most :data:`MAX_FILES` saves and :data:`MAX_TOTAL_BYTES` in the folder (names
ending in .json in any case count; a save is always written as lower-case .json). A file that is not a
save gives SaveRefused or SaveFileError, never another exception.

Private saves (``POWERGRID_PRIVATE_SAVES=1``, or ``play(private_saves=True)``): each table (one page
load) saves in a subfolder named by a random code it shows; a plain name is one of its own saves, and
``code/name`` loads another table's save (shared by name, never overwritten from elsewhere).

In both modes the browser can download the game and open a file (the toolbar).

App mode is an explicit ``play(app=True)`` (the app notebook passes it); without one it is detected:
``POWERGRID_APP=1``, or a kernel that Voila started (:func:`under_voila`).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from powergrid_nb.engine.game import Game
from powergrid_nb.engine.io.saves import save_text

APP_ENV = "POWERGRID_APP"  # "1": app mode even where Voila is not detected
SAVES_ENV = "POWERGRID_SAVES"  # the saves folder of app mode
PRIVATE_ENV = "POWERGRID_PRIVATE_SAVES"  # "1": each table (page) saves under a code of its own
DEFAULT_FOLDER = "saves"  # app mode: saves/ in the kernel's working directory (the notebook's folder)
MAX_BYTES = 5_000_000  # a save file bigger than this is refused (a whole game is about 100 KB)
MAX_FILES = 500  # app mode: the saves folder takes no more save files than this (every table's, in all)
MAX_TOTAL_BYTES = 200_000_000  # app mode: nor more bytes of saves than this (every table's, in all)
CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # private saves' codes: no 0/o, 1/l to misread
CODE_LENGTH = 10  # 50 random bits: a code is not guessed
CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
LISTED = 20  # a missing save's message names at most this many of the saves there are
MAX_NAME = 80  # characters of a save's name, ".json" included
PLAIN = re.compile(rf"[A-Za-z0-9][A-Za-z0-9 _.-]{{0,{MAX_NAME - 1}}}")
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
    return _yes(env.get(APP_ENV, "")) or under_voila(env)


def game_from_bytes(data: bytes) -> Game:
    """A game from the bytes of a save file (ValueError, with the reason, when they are not one)."""
    if not fits(len(data)):
        raise SaveRefused(f"the file is larger than {_mb(MAX_BYTES)}: not a save file")
    try:
        d = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise SaveRefused("not a JSON save file (not UTF-8 text): another kind of file, or a save that "
                          "an editor wrote in another encoding, such as Windows-1252") from None
    except json.JSONDecodeError as e:
        raise SaveRefused(f"not a JSON save file (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise SaveRefused("not a save file (its JSON is nested too deep to read)") from None
    except ValueError as e:  # a number of more than 4,300 digits, ...
        raise SaveRefused(f"not a save file ({e})") from None
    return Game.from_dict(d)  # SaveFileError, whatever the data


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
    default = f"{DEFAULT_FOLDER}/powergrid_save.json"  # the checkout ignores notebooks/saves/

    def save(self, game: Game, text: str) -> str:
        """Write ``game`` at the path ``text`` (its folder made if missing); returns where, to say."""
        Path(text).expanduser().parent.mkdir(parents=True, exist_ok=True)
        game.save(Path(text).expanduser())
        return f"saved to {text}"

    def load(self, text: str) -> Game:
        from powergrid_nb.engine.newgame import load
        return load(text)


class SavesFolder:
    """App mode: a save is a plain name in ``folder``; everything else is refused (:class:`SaveRefused`).

    ``private=True`` (``POWERGRID_PRIVATE_SAVES=1``): this table saves in a subfolder of its own, named by
    a random :attr:`code` the table shows; a plain name is one of this table's saves, and ``code/name``
    loads a save of another table whose code was given (shared by name; it cannot be overwritten).
    """

    app = True
    hint = "save name"
    default = "my_game"

    def __init__(self, folder: str | os.PathLike[str], private: bool = False) -> None:
        self.folder = Path(folder).absolute()
        self.code: str | None = new_code() if private else None
        if private:
            self.hint = "save name, or code/name"

    @property
    def private(self) -> bool:
        """Whether each table has saves of its own (under :attr:`code`)."""
        return self.code is not None

    @property
    def allowed(self) -> str:
        """What a save may be called, in words."""
        return f"{ALLOWED}, or code/name for a save shared with you" if self.private else ALLOWED

    def name(self, text: str) -> str:
        """The file name ``text`` stands for (``.json`` added), or SaveRefused saying why not."""
        return self._place(text)[1]

    def _place(self, text: str) -> tuple[str | None, str]:
        """The code (None: this table's saves, or the one folder) and the file name ``text`` stands for."""
        allowed = self.allowed
        text = text.strip()
        if not text:
            raise SaveRefused(f"a save needs a name: use {allowed}")
        if text.startswith(("/", "\\", "~")) or re.match(r"[A-Za-z]:", text) or os.path.isabs(text):
            raise SaveRefused("paths are not allowed here, saves stay in the app's saves folder: "
                              f"use {allowed}")
        parts = re.split(r"[/\\]", text)
        if ".." in parts:
            raise SaveRefused(f"'..' is not allowed, saves stay in the app's saves folder: use {allowed}")
        code = None
        if self.private and len(parts) == 2:
            code, text = parts[0].strip().lower(), parts[1].strip()
            if not CODE.fullmatch(code):
                raise SaveRefused(f"{parts[0]!r} is not a save code (a code is {CODE_LENGTH} letters and "
                                  f"digits, as shown beside Save): use {allowed}")
        elif len(parts) > 1:
            raise SaveRefused(f"folders are not allowed, saves stay in the app's saves folder: use {allowed}")
        if text.startswith("."):
            raise SaveRefused(f"a name may not start with '.': use {allowed}")
        suffix = text.rsplit(".", 1)[1].lower() if "." in text else ""
        if suffix and suffix != "json" and not suffix.isdigit():
            raise SaveRefused(f"only JSON save files (.json) are allowed, not .{suffix}: use {allowed}")
        name = f"{text[:-5]}.json" if suffix == "json" else f"{text}.json"  # always a lower-case .json
        if len(name) > MAX_NAME:
            raise SaveRefused(f"the name is too long ({len(text):,} characters): use {allowed}")
        if not PLAIN.fullmatch(name):
            raise SaveRefused(f"{text!r} is not a plain name: use {allowed}")
        return (None if code == self.code else code), name

    def _shown(self, code: str | None, name: str) -> str:
        return f"{code}/{name}" if code else name

    def _base(self, code: str | None) -> Path:
        """The folder of ``code``'s saves (None: this table's own)."""
        code = code or self.code
        return self.folder.resolve() / code if code else self.folder.resolve()

    def _target(self, name: str, code: str | None = None) -> Path:
        base = self._base(code)
        shown = self._shown(code, name)
        if base.is_symlink() or (base.exists() and not base.is_dir()):
            raise SaveRefused(f"{shown} is not a save file")
        target = base / name
        if target.is_symlink():
            raise SaveRefused(f"{shown} is a link; links are not allowed in the saves folder")
        if target.resolve().parent != base:  # cannot happen for a plain name: a last guard
            raise SaveRefused(f"{shown} is outside the saves folder")
        if target.exists() and not target.is_file():
            raise SaveRefused(f"{shown} is not a save file")
        return target

    def usage(self) -> tuple[int, int]:
        """The save files of the whole saves folder (every table's, in private mode) and their bytes: the
        files ending in .json in any case, as :data:`MAX_FILES` and :data:`MAX_TOTAL_BYTES` count them."""
        files = size = 0
        if not self.folder.is_dir():
            return 0, 0
        for top, dirs, names in os.walk(self.folder.resolve()):  # links to folders are not followed
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for n in names:
                if n.lower().endswith(".json"):
                    try:
                        st = os.lstat(os.path.join(top, n))
                    except OSError:
                        continue
                    files += 1
                    size += st.st_size if stat.S_ISREG(st.st_mode) else 0
        return files, size

    def saves(self, code: str | None = None) -> list[str]:
        """The names of this table's saves (of ``code``'s, when given), without ``.json``, sorted."""
        try:
            entries = list(os.scandir(self._base(code)))
        except OSError:
            return []
        return sorted(e.name[:-5] for e in entries if e.name.endswith(".json") and not e.name.startswith(".")
                      and e.is_file(follow_symlinks=False))

    def save(self, game: Game, text: str) -> str:
        """Write ``game`` as ``<name>.json`` in the folder (never through a link); returns the message.
        Refused before anything is written: a game larger than :data:`MAX_BYTES` (it could not be loaded
        back), a new save in a folder of :data:`MAX_FILES` saves, or one past :data:`MAX_TOTAL_BYTES`."""
        code, name = self._place(text)
        if code is not None:
            raise SaveRefused(f"{code}/{name} is a save of another page: it can be loaded, not overwritten; "
                              f"save under a name of your own (your code is {self.code})")
        data = save_text(game).encode("utf-8")
        if not fits(len(data)):  # it could not be loaded back
            raise SaveRefused(f"the game is {_mb(len(data))}, larger than a save may be ({_mb(MAX_BYTES)}): "
                              "download it instead")
        try:
            target = self._target(name)
            files, used = self.usage()
            old = target.stat().st_size if target.exists() else None
            if old is None and files >= MAX_FILES:
                raise SaveRefused(f"the saves folder is full ({MAX_FILES} saves); "
                                  f"overwrite a save by its name{self._yours()}, or download the game")
            if used - (old or 0) + len(data) > MAX_TOTAL_BYTES:
                raise SaveRefused(f"the saves folder is full (its saves may take {_mb(MAX_TOTAL_BYTES)} in "
                                  f"all, and this game is {_mb(len(data))}); overwrite a save by its "
                                  f"name{self._yours()}, or download the game")
            target.parent.mkdir(parents=True, exist_ok=True)
            target = self._target(name)  # again, now that the folder is there
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".saving-", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.replace(tmp, target)  # replaces a link put there meanwhile, never writes through it
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        except OSError as e:
            why = e.strerror or type(e).__name__  # never str(e): it names the path
            raise SaveRefused(f"the saves folder cannot be written ({why})") from None
        if self.private:
            stem = name[:-5]
            return (f"saved as {name} under your code {self.code}; from another page, load it as "
                    f"{self.code}/{stem}")
        return f"saved as {name} in the app's saves folder"

    def _yours(self) -> str:
        return " (one of yours)" if self.private else ""

    def load(self, text: str) -> Game:
        """The game saved as ``<name>.json`` in the folder (a regular file, not a link, at most MAX_BYTES)."""
        code, name = self._place(text)
        shown = self._shown(code, name)
        target = self._target(name, code)
        try:
            fd = os.open(target, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            raise SaveRefused(self._missing(code, shown)) from None
        except OSError as e:
            raise SaveRefused(f"{shown} cannot be read ({e.strerror or type(e).__name__})") from None
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise SaveRefused(f"{shown} is not a save file")
            data = f.read(MAX_BYTES + 1)
        return game_from_bytes(data)

    def _missing(self, code: str | None, shown: str) -> str:
        """There is no save ``shown``: and which there are."""
        if code is not None:
            return f"there is no save named {shown} (is the code right?)"
        mine = self.saves()
        where = f" under your code {self.code}" if self.private else ""
        listed = ", ".join(mine[:LISTED]) + (", ..." if len(mine) > LISTED else "")
        there = f"; your saves: {listed}" if self.private else f"; the saves: {listed}"
        hint = "; a save of another page loads as code/name" if self.private else ""
        return f"there is no save named {shown}{where}{there if mine else ''}{hint}"


def fits(size: int) -> bool:
    """Whether a save of ``size`` bytes may be written and loaded: one limit for both, :data:`MAX_BYTES`."""
    return size <= MAX_BYTES


def _mb(n: int) -> str:
    """Bytes in MB, as short as exact enough: 5 MB, 0.2 MB, 0.001 MB."""
    return f"{n / 1_000_000:.3g} MB"


def new_code() -> str:
    """A random save code (:data:`CODE_LENGTH` characters of :data:`CODE_ALPHABET`, from ``secrets``)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def save_policy(app: bool | None = None, folder: str | os.PathLike[str] | None = None,
                environ: Mapping[str, str] | None = None,
                private: bool | None = None) -> AnyPath | SavesFolder:
    """The policy of a table: :class:`SavesFolder` in app mode (``folder``, else ``POWERGRID_SAVES``,
    else ``saves/`` in the working directory; its saves private to the table with ``private``, else
    ``POWERGRID_PRIVATE_SAVES=1``), :class:`AnyPath` otherwise."""
    env = os.environ if environ is None else environ
    if app_mode(app, env):
        if private is None:
            private = _yes(env.get(PRIVATE_ENV, ""))
        return SavesFolder(folder or env.get(SAVES_ENV) or DEFAULT_FOLDER, private=private)
    return AnyPath()


def _yes(value: str) -> bool:
    return value.strip().lower() in ("1", "true", "yes")
