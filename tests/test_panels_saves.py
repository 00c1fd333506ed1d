"""Save and Load as an app: in app mode (Voila, or ``play(app=True)``) a save is a plain name in
one saves folder; absolute paths, folders, '..', hidden names, other suffixes, links (symlinks) and
non-files are refused with a message that says what is allowed and shows no server path, and nothing is
written or read outside the folder. In JupyterLab any path stays allowed. The browser download is a
``data:`` link of the game's JSON."""

from __future__ import annotations

import base64
import datetime
import html
import json
import os
import re
import sys
from pathlib import Path

import pytest
from _panels import (
    NAMES,
    YOU_FIRST,
    click,
    click_errors_fail,  # noqa: F401 (autouse)
    game_at,
    one,
)
from _panels import message as message_html

from powergrid_nb import Done, Game, new_game
from powergrid_nb.panels import Table, play, saves
from powergrid_nb.panels.saves import SaveRefused, SavesFolder, app_mode, download_name, under_voila

ALLOWED = "plain name such as my_game"
_OPENED: list[str] | None = None  # the paths opened while a `watch_opens` block runs


def _audit(event: str, args: tuple) -> None:
    if _OPENED is not None and event == "open" and isinstance(args[0], str | bytes | os.PathLike):
        _OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)  # builtins.open, io.open, os.open: every file a save or load opens


class watch_opens:
    def __enter__(self) -> list[str]:
        global _OPENED
        _OPENED = []
        return _OPENED

    def __exit__(self, *exc: object) -> None:
        global _OPENED
        _OPENED = None


@pytest.fixture
def place(tmp_path: Path) -> dict[str, Path]:
    """tmp/app/saves (the saves folder, not yet made), tmp/outside/secret.json (a valid save of another
    game) and tmp/outside/victim.json (a file a visitor would like to overwrite)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    new_game(["Eve", "Mal"], seed=99).save(str(outside / "secret.json"))
    (outside / "victim.json").write_text("precious\n")
    return {"root": tmp_path, "folder": tmp_path / "app" / "saves", "outside": outside}


def snapshot(root: Path) -> dict[str, bytes | str]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() and not p.is_symlink() else
                                       f"link->{os.readlink(p)}" if p.is_symlink() else "dir")
            for p in sorted(root.rglob("*"))}


def message(t: Table) -> str:
    """The message line as the visitor reads it (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", message_html(t)))


def app_table(folder: Path, **kw) -> Table:
    g = game_at(phase=3, round=2)
    bots = {p: "random" for p in g.players if p != "You"}
    return Table(g, bots=bots, delay=0, app=True, saves=folder, **kw)


def no_server_path(text: str, *paths: Path) -> None:
    for p in paths:
        assert str(p) not in text, f"a server path in the message shown to visitors: {text}"


# --- app mode: who decides -----------------------------------------------------------------------------
@pytest.mark.parametrize(("env", "expected"), [
    ({}, False),
    ({"SERVER_SOFTWARE": "voila/0.5.13"}, True),
    ({"SERVER_SOFTWARE": "TornadoServer/6"}, False),
    ({"VOILA_KERNEL_ID": "abc"}, True),
    ({"VOILA_PREHEAT": "True", "VOILA_APP_PORT": "8866"}, True),
    ({"POWERGRID_APP": "1"}, True),
    ({"POWERGRID_APP": "0"}, False),
])
def test_app_mode_is_detected_from_the_kernels_environment(env, expected):
    assert app_mode(None, env) is expected
    assert under_voila(env) is (expected and "POWERGRID_APP" not in env)


def test_an_explicit_app_argument_wins_over_the_environment():
    assert app_mode(True, {}) is True
    assert app_mode(False, {"SERVER_SOFTWARE": "voila/0.5.13"}) is False


def test_a_table_in_a_voila_kernel_is_an_app(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for k in ("SERVER_SOFTWARE", "POWERGRID_APP", "POWERGRID_SAVES", *saves.VOILA_ENV):
        monkeypatch.delenv(k, raising=False)
    assert play().app is False  # JupyterLab: any path
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.13")
    t = play(new_game(NAMES, seed=YOU_FIRST))
    assert t.app is True
    assert isinstance(t.saves, SavesFolder) and t.saves.folder == tmp_path / "saves"
    assert one(t, "pg-path").placeholder == "save name"
    monkeypatch.setenv("POWERGRID_SAVES", str(tmp_path / "elsewhere"))
    assert play().saves.folder == tmp_path / "elsewhere"
    assert play(app=True, saves=tmp_path / "mine").saves.folder == tmp_path / "mine"


# --- app mode: plain names in the folder ---------------------------------------------------------------
def test_save_then_load_by_a_plain_name_in_the_folder(place):
    t = app_table(place["folder"])
    saved = t.game.to_dict()
    one(t, "pg-path").value = "my game"
    click(t, "pg-save")
    assert message(t) == "saved as my game.json in the app's saves folder"
    assert sorted(p.name for p in place["folder"].iterdir()) == ["my game.json"]  # no temp file left
    t.submit(Done("You"))
    assert t.game.to_dict() != saved
    one(t, "pg-path").value = "my game.json"
    with watch_opens() as opened:
        click(t, "pg-load")
    assert opened == [str(place["folder"] / "my game.json")]  # the audit hook sees what a load opens
    assert "loaded my game.json" in message(t)
    assert t.game.to_dict() == saved
    no_server_path(message(t), place["root"])


def test_saving_again_under_a_name_overwrites_that_save(place):
    t = app_table(place["folder"])
    one(t, "pg-path").value = "g1"
    click(t, "pg-save")
    t.submit(Done("You"))
    click(t, "pg-save")
    assert Game.from_dict(json.loads((place["folder"] / "g1.json").read_text())).to_dict() == t.game.to_dict()


REFUSED = {  # the name typed -> what the message says was wrong
    "": "a save needs a name",
    "   ": "a save needs a name",
    "/etc/passwd": "paths are not allowed",
    "~/game.json": "paths are not allowed",
    "C:\\game.json": "paths are not allowed",
    "../outside/victim.json": "'..' is not allowed",
    "..": "'..' is not allowed",
    "..\\victim.json": "'..' is not allowed",
    "sub/game.json": "folders are not allowed",
    "sub\\game": "folders are not allowed",
    ".hidden.json": "may not start with '.'",
    "game.txt": "only JSON save files (.json) are allowed, not .txt",
    "game.py": "only JSON save files (.json) are allowed, not .py",
    "a|b": "is not a plain name",
    "tab\tname": "is not a plain name",
    "x" * 90: "is not a plain name",
}


@pytest.mark.parametrize("name", list(REFUSED), ids=lambda n: repr(n)[:24])
def test_each_refused_name_says_why_and_writes_or_reads_nothing(place, name):
    t = app_table(place["folder"])
    before_game, before_files = t.game.to_dict(), snapshot(place["root"])
    one(t, "pg-path").value = name
    with watch_opens() as opened:
        click(t, "pg-save")
        saved_msg = message(t)
        click(t, "pg-load")
        loaded_msg = message(t)
    for verb, msg in (("save", saved_msg), ("load", loaded_msg)):
        assert f"could not {verb}: " in msg and REFUSED[name] in msg, msg
        assert ALLOWED in msg, f"the message should say what is allowed: {msg}"
        no_server_path(msg, place["root"])
    assert opened == [], f"a refused name opened files: {opened}"
    assert snapshot(place["root"]) == before_files, "a refused save wrote something"
    assert t.game.to_dict() == before_game


def test_an_absolute_path_to_a_real_file_is_refused(place):
    t = app_table(place["folder"])
    before_game, before_files = t.game.to_dict(), snapshot(place["root"])
    for target in (place["outside"] / "secret.json", place["outside"] / "victim.json"):
        one(t, "pg-path").value = str(target)
        with watch_opens() as opened:
            click(t, "pg-load")
            assert "could not load: paths are not allowed" in message(t)
            click(t, "pg-save")
            assert "could not save: paths are not allowed" in message(t)
        assert opened == []
        no_server_path(message(t), place["root"])
    assert snapshot(place["root"]) == before_files
    assert t.game.to_dict() == before_game


def test_a_symlink_in_the_folder_pointing_outside_is_refused(place):
    folder = place["folder"]
    folder.mkdir(parents=True)
    (folder / "link.json").symlink_to(place["outside"] / "secret.json")
    (folder / "victim.json").symlink_to(place["outside"] / "victim.json")
    (folder / "dir.json").symlink_to(place["outside"], target_is_directory=True)
    t = app_table(folder)
    before_game, before_files = t.game.to_dict(), snapshot(place["root"])
    for name in ("link", "link.json", "victim.json", "dir.json"):
        one(t, "pg-path").value = name
        with watch_opens() as opened:
            click(t, "pg-load")
            assert "could not load: " in message(t) and "links are not allowed" in message(t), message(t)
            click(t, "pg-save")
            assert "could not save: " in message(t) and "links are not allowed" in message(t), message(t)
        assert not [p for p in opened if not p.startswith(str(folder))], opened
        no_server_path(message(t), place["root"])
    assert snapshot(place["root"]) == before_files  # the victim is intact, the links are still links
    assert (place["outside"] / "victim.json").read_text() == "precious\n"
    assert t.game.to_dict() == before_game


def test_a_folder_that_is_a_link_is_the_folder(place):
    """The saves folder itself may be a link the server's owner made: saves go where it points."""
    real = place["root"] / "real_saves"
    real.mkdir()
    place["folder"].parent.mkdir()
    place["folder"].symlink_to(real, target_is_directory=True)
    t = app_table(place["folder"])
    one(t, "pg-path").value = "g"
    click(t, "pg-save")
    assert (real / "g.json").is_file()


def test_a_directory_named_like_a_save_is_not_a_save(place):
    (place["folder"] / "d.json").mkdir(parents=True)
    t = app_table(place["folder"])
    one(t, "pg-path").value = "d"
    click(t, "pg-load")
    assert "could not load: d.json is not a save file" in message(t)
    click(t, "pg-save")
    assert "could not save: d.json is not a save file" in message(t)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_named_like_a_save_is_refused_without_blocking(place):
    place["folder"].mkdir(parents=True)
    os.mkfifo(place["folder"] / "pipe.json")
    t = app_table(place["folder"])
    one(t, "pg-path").value = "pipe"
    click(t, "pg-load")
    assert "could not load: pipe.json is not a save file" in message(t)


@pytest.mark.parametrize(("content", "says"), [
    (b"{ not json", "not a JSON save file (line 1, column 3"),
    (b"\xff\xfe\x00", "not a JSON save file (not UTF-8 text)"),
    (b'{"format": "chess"}', "could not load g.json"),
])
def test_a_file_in_the_folder_that_is_not_a_save_gives_a_message(place, content, says):
    place["folder"].mkdir(parents=True)
    (place["folder"] / "g.json").write_bytes(content)
    t = app_table(place["folder"])
    before = t.game.to_dict()
    one(t, "pg-path").value = "g.json"
    click(t, "pg-load")
    assert says in message(t), message(t)
    assert t.game.to_dict() == before
    no_server_path(message(t), place["root"])


def test_a_missing_save_is_named_without_its_path(place):
    t = app_table(place["folder"])
    one(t, "pg-path").value = "nothing here"
    click(t, "pg-load")
    assert message(t) == "could not load: there is no save named nothing here.json"
    assert "#B00020" in message_html(t)  # an error


def test_an_oversized_file_is_refused(place, monkeypatch):
    monkeypatch.setattr(saves, "MAX_BYTES", 1000)
    t = app_table(place["folder"])
    one(t, "pg-path").value = "big"
    click(t, "pg-save")
    click(t, "pg-load")
    assert "larger than" in message(t)


def test_a_full_folder_takes_no_new_save_but_overwrites(place, monkeypatch):
    monkeypatch.setattr(saves, "MAX_FILES", 2)
    t = app_table(place["folder"])
    for name in ("a", "b"):
        one(t, "pg-path").value = name
        click(t, "pg-save")
    one(t, "pg-path").value = "c"
    click(t, "pg-save")
    assert "could not save: the saves folder is full (2 saves)" in message(t)
    assert not (place["folder"] / "c.json").exists()
    one(t, "pg-path").value = "a"
    click(t, "pg-save")
    assert "saved as a.json" in message(t)


def test_an_unwritable_folder_gives_a_message_without_its_path(place, monkeypatch):
    def refuse(*_a, **_k):
        raise PermissionError(13, "Permission denied", str(place["folder"]))

    monkeypatch.setattr(saves.tempfile, "mkstemp", refuse)
    t = app_table(place["folder"])
    click(t, "pg-save")
    assert "could not save: the saves folder cannot be written (Permission denied)" in message(t)
    no_server_path(message(t), place["root"])


# --- JupyterLab: paths stay allowed ----------------------------------------------------------------------
def test_in_jupyterlab_any_path_is_allowed(tmp_path):
    g = game_at(phase=3, round=2)
    t = Table(g, bots={"Bo": "random", "Cy": "random"}, delay=0, app=False)
    assert t.app is False and one(t, "pg-path").placeholder == "save file path"
    path = tmp_path / "deep" / ".." / "abs.json"
    (tmp_path / "deep").mkdir()
    one(t, "pg-path").value = str(path)
    click(t, "pg-save")
    assert message(t) == f"saved to {path}"
    assert (tmp_path / "abs.json").is_file()


# --- the browser's download and file picker -------------------------------------------------------------
@pytest.mark.parametrize("app", [False, True])
def test_download_offers_the_game_as_a_data_link(place, app):
    t = app_table(place["folder"]) if app else Table(game_at(phase=3, round=2), app=False)
    one(t, "pg-path").value = "../odd/na<me>.json" if app else "/tmp/x/game 1.json"
    before = snapshot(place["root"])
    click(t, "pg-download")
    link = one(t, "pg-download-link").value
    m = re.search(r"download='([^']*)' .*href='data:application/json;base64,([A-Za-z0-9+/=]+)'", link)
    assert m, link
    assert m.group(1) == ("na_me.json" if app else "game 1.json")
    assert Game.from_dict(json.loads(base64.b64decode(m.group(2)))).to_dict() == t.game.to_dict()
    assert "http" not in link  # a data: link: no request to any server
    assert snapshot(place["root"]) == before, "a download writes nothing on the server"
    t.refresh()
    assert one(t, "pg-download-link").value == link, "the same position keeps its link"
    t.submit(Done("You"))
    assert one(t, "pg-download-link").value == "", "a download link of an earlier position is taken away"


@pytest.mark.parametrize(("text", "name"), [("", "powergrid_save.json"), ("my game", "my game.json"),
                                            ("a/b/c.JSON", "c.json"), ("..", "powergrid_save.json"),
                                            ("C:\\x\\y z", "y z.json")])
def test_download_name(text, name):
    assert download_name(text) == name


def test_an_oversized_upload_is_refused(place, monkeypatch):
    monkeypatch.setattr(saves, "MAX_BYTES", 1000)
    t = app_table(place["folder"])
    before = t.game.to_dict()
    content = json.dumps(new_game(NAMES, seed=3).to_dict()).encode()
    t.toolbar._uploaded({"new": ({"name": "big.json", "type": "application/json", "size": len(content),
                                  "content": memoryview(content),
                                  "last_modified": datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)},)})
    assert "could not load big.json: the file is larger than" in message(t)
    assert t.game.to_dict() == before


def test_refusals_are_save_refused_errors(tmp_path):
    folder = SavesFolder(tmp_path)
    for name in REFUSED:
        with pytest.raises(SaveRefused):
            folder.name(name)
    assert folder.name("Round 3 - Ada") == "Round 3 - Ada.json"
    assert folder.name("v1.2") == "v1.2.json"
