"""Save and Load as an app: in app mode (Voila, or ``play(app=True)``) a save is a plain name in
one saves folder; absolute paths, folders, '..', hidden names, other suffixes, links (symlinks) and
non-files are refused with a message that says what is allowed and shows no server path, and nothing is
written or read outside the folder. In JupyterLab any path stays allowed. The browser download is a
``data:`` link of the game's JSON."""

from __future__ import annotations

import base64
import contextlib
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
from hypothesis import given, settings
from hypothesis import strategies as st

from powergrid_nb import Done, Game, SaveFileError, new_game
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
    "x" * 90: "the name is too long (90 characters)",
    "x" * 300: "the name is too long (300 characters)",
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
    place["folder"].mkdir(parents=True)
    (place["folder"] / "big.json").write_text(json.dumps(new_game(NAMES, seed=3).to_dict()))
    t = app_table(place["folder"])
    one(t, "pg-path").value = "big"
    click(t, "pg-load")
    assert "could not load: the file is larger than 0.001 MB" in message(t), message(t)


def test_a_game_too_large_to_load_back_is_not_saved(place, monkeypatch):
    monkeypatch.setattr(saves, "MAX_BYTES", 1000)
    t = app_table(place["folder"])
    one(t, "pg-path").value = "big"
    click(t, "pg-save")
    assert "could not save: the game is" in message(t), message(t)
    assert "larger than a save may be (0.001 MB)" in message(t)
    assert "download it instead" in message(t)
    assert not place["folder"].exists() or not list(place["folder"].iterdir()), "nothing is written"


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


def test_in_jupyterlab_the_default_save_goes_to_the_ignored_saves_folder(tmp_path, monkeypatch):
    """A played game leaves the checkout clean: the default save is saves/, which git ignores there."""
    monkeypatch.chdir(tmp_path)
    t = Table(game_at(phase=3, round=2), bots={"Bo": "random", "Cy": "random"}, delay=0, app=False)
    assert one(t, "pg-path").value == "saves/powergrid_save.json"
    click(t, "pg-save")
    assert (tmp_path / "saves" / "powergrid_save.json").is_file()
    gitignore = Path(__file__).resolve().parents[1] / ".gitignore"
    assert "notebooks/saves/" in gitignore.read_text(encoding="utf-8").splitlines()


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


# --- limits: counted in any case, checked before anything is written --------------------------------------
def test_a_save_is_always_written_as_lower_case_json(place):
    t = app_table(place["folder"])
    for typed in ("Upper.JSON", "mixed.Json"):
        one(t, "pg-path").value = typed
        click(t, "pg-save")
    assert sorted(p.name for p in place["folder"].iterdir()) == ["Upper.json", "mixed.json"]
    assert message(t) == "saved as mixed.json in the app's saves folder"
    one(t, "pg-path").value = "UPPER.JSON" if sys.platform == "darwin" else "Upper.JSON"
    click(t, "pg-load")
    assert "loaded" in message(t), message(t)


def test_saves_in_capitals_count_towards_the_limit_of_files(place, monkeypatch):
    monkeypatch.setattr(saves, "MAX_FILES", 2)
    place["folder"].mkdir(parents=True)
    for name in ("a.JSON", "b.Json"):  # left by an older version, or by hand
        (place["folder"] / name).write_text("{}")
    t = app_table(place["folder"])
    one(t, "pg-path").value = "c.JSON"
    click(t, "pg-save")
    assert "could not save: the saves folder is full (2 saves)" in message(t), message(t)
    assert sorted(p.name for p in place["folder"].iterdir()) == ["a.JSON", "b.Json"]


def test_the_saves_folder_takes_no_more_bytes_than_its_cap(place, monkeypatch):
    t = app_table(place["folder"])
    t.game.save(str(place["root"] / "probe.json"))
    size = (place["root"] / "probe.json").stat().st_size
    monkeypatch.setattr(saves, "MAX_TOTAL_BYTES", size * 3 // 2)
    one(t, "pg-path").value = "first"
    click(t, "pg-save")
    before = snapshot(place["root"])
    one(t, "pg-path").value = "second"
    click(t, "pg-save")
    assert "could not save: the saves folder is full (its saves may take" in message(t), message(t)
    assert "overwrite a save by its name, or download the game" in message(t)
    assert snapshot(place["root"]) == before
    no_server_path(message(t), place["root"])
    one(t, "pg-path").value = "first"
    click(t, "pg-save")
    assert message(t) == "saved as first.json in the app's saves folder"


def test_the_cap_on_bytes_counts_files_in_capitals_and_in_subfolders(place, monkeypatch):
    monkeypatch.setattr(saves, "MAX_TOTAL_BYTES", 10_000)
    (place["folder"] / "k").mkdir(parents=True)
    (place["folder"] / "k" / "x.JSON").write_bytes(b" " * 9_000)
    t = app_table(place["folder"])
    one(t, "pg-path").value = "g"
    click(t, "pg-save")
    assert "could not save: the saves folder is full" in message(t), message(t)


# --- a file that is not a save: a message, never a traceback ---------------------------------------------
def _koeln() -> Game:
    from _position import position

    return position(3, regions=["red", "blue", "cyan"], who={"Ada": {"cities": ["Köln", "Münster"]}})


def _decision_junk() -> bytes:
    g = new_game(NAMES, seed=3)
    for _ in range(8):
        g.apply(g.legal_actions()[0])
    d = g.to_dict()
    i = next(i for i, row in enumerate(d["history"]) if row[0] == "decision")
    d["history"][i][5] = {"player": "You", "kind": "pass"}
    return json.dumps(d).encode()


GARBAGE = {  # a file that is not a save -> what the message says
    "deep lists": (lambda: b"[" * 100_000 + b"]" * 100_000, "nested too deep"),
    "deep objects": (lambda: b'{"a": ' * 50_000 + b"1" + b"}" * 50_000, "nested too deep"),
    "a dict for a decision": (_decision_junk, "a decision's action is text such as"),
    "windows-1252": (lambda: json.dumps(_koeln().to_dict(), ensure_ascii=False).encode("cp1252"),
                     "not a JSON save file (not UTF-8 text)"),
    "a long number": (lambda: b'{"format": ' + b"9" * 5000 + b"}", "not a save file"),
}


@pytest.mark.parametrize("case", list(GARBAGE))
def test_garbage_in_the_saves_folder_gives_a_message_on_load(place, case):
    data, says = GARBAGE[case]
    place["folder"].mkdir(parents=True)
    (place["folder"] / "g.json").write_bytes(data())
    t = app_table(place["folder"])
    before = t.game.to_dict()
    one(t, "pg-path").value = "g"
    click(t, "pg-load")  # click_errors_fail: an exception out of the click fails the test
    assert "could not load" in message(t) and says in message(t), message(t)
    assert "#B00020" in message_html(t)
    assert t.game.to_dict() == before
    no_server_path(message(t), place["root"])


def _upload(t: Table, name: str, content: bytes) -> None:
    t.toolbar._uploaded({"new": ({"name": name, "type": "application/json", "size": len(content),
                                  "content": memoryview(content),
                                  "last_modified": datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)},)})


@pytest.mark.parametrize("case", list(GARBAGE))
def test_garbage_opened_as_a_file_gives_a_message(place, case):
    data, says = GARBAGE[case]
    t = app_table(place["folder"])
    before = t.game.to_dict()
    _upload(t, "g.json", data())
    assert "could not load g.json: " in message(t) and says in message(t), message(t)
    assert t.game.to_dict() == before


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.binary(max_size=200) | st.text(max_size=60).map(str.encode))
def test_any_bytes_are_a_game_or_a_refusal(data):
    with contextlib.suppress(SaveRefused, SaveFileError):
        saves.game_from_bytes(data)


# --- private saves: each page saves under a code of its own -----------------------------------------------
@pytest.fixture
def private(monkeypatch):
    monkeypatch.setenv("POWERGRID_PRIVATE_SAVES", "1")


def test_private_saves_go_in_a_folder_named_by_the_tables_code(place, private):
    t = app_table(place["folder"])
    code = t.saves.code
    assert saves.CODE.fullmatch(code)
    assert f"your saves: code {code}" in html.unescape(re.sub(r"<[^>]+>", "", one(t, "pg-saves-code").value))
    one(t, "pg-path").value = "mine"
    click(t, "pg-save")
    assert message(t) == (f"saved as mine.json under your code {code}; from another page, load it as "
                          f"{code}/mine")
    assert [p.relative_to(place["folder"]).as_posix() for p in place["folder"].rglob("*")] == [
        code, f"{code}/mine.json"]
    click(t, "pg-load")
    assert "loaded mine" in message(t)


def test_each_table_has_its_own_random_code(place, private):
    codes = {app_table(place["folder"]).saves.code for _ in range(5)}
    assert len(codes) == 5
    assert not place["folder"].exists(), "a table writes nothing until Save"


def test_a_private_save_is_not_loaded_by_its_name_on_another_table(place, private):
    a, b = app_table(place["folder"]), app_table(place["folder"])
    one(a, "pg-path").value = "mine"
    click(a, "pg-save")
    one(b, "pg-path").value = "mine"
    click(b, "pg-load")
    assert message(b) == ("could not load: there is no save named mine.json under your code "
                          f"{b.saves.code}; a save of another page loads as code/name")


def test_a_save_shared_by_code_and_name_loads_on_another_table(place, private):
    a, b = app_table(place["folder"]), app_table(place["folder"])
    one(a, "pg-path").value = "mine"
    click(a, "pg-save")
    b.submit(Done("You"))
    one(b, "pg-path").value = f"{a.saves.code.upper()}/mine"
    click(b, "pg-load")
    assert message(b) == f"loaded {a.saves.code.upper()}/mine"
    assert b.game.to_dict() == a.game.to_dict()


def test_a_shared_save_cannot_be_overwritten_from_another_table(place, private):
    a, b = app_table(place["folder"]), app_table(place["folder"])
    one(a, "pg-path").value = "mine"
    click(a, "pg-save")
    before = snapshot(place["root"])
    one(b, "pg-path").value = f"{a.saves.code}/mine"
    click(b, "pg-save")
    assert message(b) == (f"could not save: {a.saves.code}/mine.json is a save of another page: it can be "
                          "loaded, not overwritten; save under a name of your own (your code is "
                          f"{b.saves.code})")
    assert snapshot(place["root"]) == before


def test_a_table_may_name_its_own_saves_with_its_code(place, private):
    t = app_table(place["folder"])
    one(t, "pg-path").value = f"{t.saves.code}/mine"
    click(t, "pg-save")
    assert (place["folder"] / t.saves.code / "mine.json").is_file()


@pytest.mark.parametrize(("typed", "says"), [
    ("notacode/mine", "'notacode' is not a save code (a code is 10 letters and digits"),
    ("../mine", "'..' is not allowed"),
    ("abcdefghij/../mine", "'..' is not allowed"),
    ("abcdefghij/sub/mine", "folders are not allowed"),
    ("/etc/passwd", "paths are not allowed"),
    ("abcdefghij/.hidden", "may not start with '.'"),
    ("abcdefghij/x.py", "only JSON save files"),
])
def test_private_saves_refuse_what_is_not_a_code_and_a_plain_name(place, private, typed, says):
    t = app_table(place["folder"])
    before = snapshot(place["root"])
    one(t, "pg-path").value = typed
    with watch_opens() as opened:
        for verb in ("load", "save"):
            click(t, f"pg-{verb}")
            assert f"could not {verb}: " in message(t) and says in message(t), message(t)
            assert "or code/name for a save shared with you" in message(t)
    assert opened == [] and snapshot(place["root"]) == before


def test_an_unknown_code_is_a_missing_save(place, private):
    t = app_table(place["folder"])
    one(t, "pg-path").value = "abcdefghij/mine"
    click(t, "pg-load")
    assert message(t) == "could not load: there is no save named abcdefghij/mine.json (is the code right?)"


def test_a_missing_private_save_lists_the_tables_saves(place, private):
    t = app_table(place["folder"])
    for name in ("b", "a"):
        one(t, "pg-path").value = name
        click(t, "pg-save")
    one(t, "pg-path").value = "c"
    click(t, "pg-load")
    assert f"there is no save named c.json under your code {t.saves.code}; your saves: a, b" in message(t)


def test_the_limits_count_the_saves_of_every_table(place, private, monkeypatch):
    monkeypatch.setattr(saves, "MAX_FILES", 2)
    a, b = app_table(place["folder"]), app_table(place["folder"])
    for t, name in ((a, "one"), (b, "two")):
        one(t, "pg-path").value = name
        click(t, "pg-save")
    one(b, "pg-path").value = "three"
    click(b, "pg-save")
    assert "could not save: the saves folder is full (2 saves); overwrite a save by its name (one of yours)" \
        in message(b), message(b)
    one(b, "pg-path").value = "two"
    click(b, "pg-save")
    assert "saved as two.json" in message(b)


def test_without_the_setting_saves_are_shared(place, monkeypatch):
    monkeypatch.delenv("POWERGRID_PRIVATE_SAVES", raising=False)
    t = app_table(place["folder"])
    assert t.saves.code is None and not t.toolbar.code.value
    assert saves.save_policy(True, place["folder"], {"POWERGRID_PRIVATE_SAVES": "1"}).private
    assert not saves.save_policy(True, place["folder"], {"POWERGRID_PRIVATE_SAVES": "0"}).private
    assert saves.save_policy(True, place["folder"], {}, private=True).private


def test_a_save_that_fails_unexpectedly_says_why(place, monkeypatch):
    """A click on Save never does nothing: an error nobody foresaw is said in the message line (on an
    app page, a public one, only its kind: its text may name a server path)."""
    t = app_table(place["folder"])

    def broken(game, text):
        raise RuntimeError(f"the disk went away under {place['folder']}")

    monkeypatch.setattr(t.toolbar.saves, "save", broken)
    one(t, "pg-path").value = "my game"
    click(t, "pg-save")
    assert message(t) == "could not save (RuntimeError): an unexpected error, not saved"
    lab = Table(game_at(phase=3, round=2), delay=0, app=False)  # JupyterLab: the user's own server
    monkeypatch.setattr(lab.toolbar.saves, "save", broken)
    click(lab, "pg-save")
    assert message(lab) == f"could not save (RuntimeError): the disk went away under {place['folder']}"
