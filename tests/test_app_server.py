"""The app's server cannot be frozen or exhausted from its page (powergrid_nb/app_server.py,
powergrid_nb/jupyter_config/voila.json; docs/app.md, "Security").

Each ``slow`` test starts a real Voila on the app as `make app` starts it (tests/_lab.py: the Makefile's
flags, the shipped configuration through JUPYTER_CONFIG_PATH), some with one more flag (a small kernel
cap, a short culling timeout), or JupyterLab with `make classroom`'s websocket option, and talks to it as
an attacker would: plain HTTP and a websocket client (tornado's), no browser. Every wait is bounded; a
frozen server is killed at once. Server logs go to test-artifacts/app-server/. The other tests read the
configuration and check the frame check alone.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import re
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import _lab
import psutil
import pytest
from jupyter_client.session import Session
from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_binary_message,
    serialize_msg_to_ws_v1,
)
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

slow = pytest.mark.slow  # a real server and kernels (about 75 s for the five)

LOGS = _lab.ROOT / "test-artifacts" / "app-server"
V1 = "v1.kernel.websocket.jupyter.org"
APP_SERVER = "powergrid_nb.app_server"
CONFIG = json.loads((_lab.APP_CONFIG / "voila.json").read_text(encoding="utf-8"))


@contextlib.contextmanager
def app_server(name: str, *flags: str) -> Iterator[_lab.Server]:
    """Voila on the app as `make app` starts it (plus ``flags``), its log in LOGS/<name>/."""
    with _lab.server("voila", log_dir=LOGS / name, flags=flags) as srv:
        yield srv


def load_page(srv: _lab.Server, timeout: float = 60) -> tuple[int, str]:
    """GET the app's page: its HTTP status and body (an error page's too)."""
    try:
        with urllib.request.urlopen(f"{srv.base}/", timeout=timeout) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


def page_ids(html: str) -> tuple[str, str]:
    """The kernel id and the app's top widget's model id in a page Voila rendered."""
    kernel = re.search(r'kernelId": "([0-9a-f-]{36})"', html)
    model = re.search(r'"model_id": "([0-9a-f]+)"', html)
    assert kernel and model, "no kernel id or widget in the app's page"
    return kernel.group(1), model.group(1)


def kernels(srv: _lab.Server) -> list[psutil.Process]:
    """The server's kernel processes."""
    procs = psutil.Process(srv.proc.pid).children(recursive=True)
    return [p for p in procs if "ipykernel" in " ".join(_cmdline(p))]


def _cmdline(p: psutil.Process) -> list[str]:
    with contextlib.suppress(psutil.Error):
        return p.cmdline()
    return []


def kernel_known(srv: _lab.Server, kernel: str) -> bool:
    """Whether the server knows the kernel (its /api/kernels/<id> answers 200, not 404)."""
    try:
        with urllib.request.urlopen(f"{srv.base}/api/kernels/{kernel}", timeout=10):
            return True
    except urllib.error.HTTPError as e:
        assert e.code == 404, e.code
        return False


def answers_within(url: str, seconds: float) -> bool:
    """Whether ``url`` gets an HTTP answer (any status) within ``seconds``."""
    try:
        with urllib.request.urlopen(url, timeout=seconds):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


def ws_url(srv: _lab.Server, kernel: str) -> str:
    return f"ws{srv.base[4:]}/api/kernels/{kernel}/channels?session_id={uuid.uuid4()}"


SESSION = Session(key=b"", username="attacker")


def comm_update(model: str, state: dict[str, Any], buffer_paths: list[list[str]] | None = None
                ) -> dict[str, Any]:
    """A comm_msg that sets ``state`` on the widget ``model`` (as the page sends a widget's change)."""
    return SESSION.msg("comm_msg", {"comm_id": model, "data": {
        "method": "update", "state": state, "buffer_paths": buffer_paths or []}})


def v1_frame(msg: dict[str, Any], buffers: tuple[bytes, ...] = ()) -> bytes:
    parts = [SESSION.pack(msg[k]) for k in ("header", "parent_header", "metadata", "content")]
    return serialize_msg_to_ws_v1([*parts, *buffers], "shell")


async def read_all(ws: Any, seconds: float) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """The (channel, header, content) of the v1 messages ``ws`` receives within ``seconds``."""
    out: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        try:
            frame = await asyncio.wait_for(ws.read_message(), left)
        except TimeoutError:
            break
        if frame is None:
            break
        channel, parts = deserialize_msg_from_ws_v1(frame)
        out.append((channel, json.loads(parts[0]), json.loads(parts[3])))
    return out


def watch(srv: _lab.Server, seconds: float, probe: str) -> tuple[list[bool], float]:
    """For ``seconds``: whether the server answers ``probe`` within 1 s (each try), and how many MB its
    memory (RSS) grew at most."""
    proc = psutil.Process(srv.proc.pid)
    rss0 = proc.memory_info().rss
    answered, grown = [], 0.0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        answered.append(answers_within(probe, 1.0))
        grown = max(grown, (proc.memory_info().rss - rss0) / 1e6)
        if grown > 500:  # frozen and eating memory: no need to wait longer
            break
        time.sleep(0.2)
    return answered, grown


# ------------------------------------------------------------------------------------- the configuration

def test_make_app_and_lessons_app_use_the_shipped_configuration() -> None:
    """`make app` and `make lessons-app` put powergrid_nb/jupyter_config on JUPYTER_CONFIG_PATH, where Voila
    finds voila.json: the hardened websocket and kernel manager, no tracebacks, a positive kernel cap and
    culling timeout (also of connected kernels). `make classroom` (JupyterLab) uses the websocket too."""
    make = (_lab.ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    assert re.search(r"^APP_CONFIG\s*:=\s*\$\(CURDIR\)/powergrid_nb/jupyter_config\b", make, re.M)
    for target in ("app", "lessons-app"):
        recipe = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", make, re.M)
        assert recipe and 'JUPYTER_CONFIG_PATH="$(APP_CONFIG)"' in recipe.group(1), target
    assert (f"--ServerApp.kernel_websocket_connection_class={APP_SERVER}.AppKernelConnection"
            in _lab.make_flags("CLASSROOM_LAB_FLAGS"))
    assert CONFIG["Voila"]["kernel_websocket_connection_class"] == f"{APP_SERVER}.AppKernelConnection"
    assert CONFIG["VoilaConfiguration"]["multi_kernel_manager_class"] == f"{APP_SERVER}.AppKernelManager"
    assert CONFIG["AppKernelConnection"]["hide_tracebacks"] is True
    assert CONFIG["AppKernelManager"]["max_kernels"] > 0
    cull = CONFIG["MappingKernelManager"]
    assert cull["cull_idle_timeout"] > 0 and cull["cull_interval"] > 0 and cull["cull_connected"] is True


# -------------------------------------------------------------------------------------------- the attack

@slow
def test_a_kernel_websocket_of_the_old_protocol_cannot_freeze_the_server() -> None:
    """The old-protocol attack: a websocket without the v1 subprotocol, then a widget update with a binary
    buffer (the kernel echoes it: a message with buffers, which Voila's decoder read as v1 and looped
    on). The websocket is refused; whatever happens, the server answers HTTP within 1 s for 4 s and its
    memory grows by less than 100 MB. Then the same with a v1 frame whose offset count is far beyond its
    length (jupyter_server's v1 decoder looped on it): the websocket is closed, the server unharmed."""
    with app_server("old-protocol") as srv:
        status, html = load_page(srv)
        assert status == 200, html[:500]
        kernel, model = page_ids(html)
        probe = f"{srv.base}/api/kernels/{kernel}"

        async def old_protocol() -> str:
            try:
                ws = await websocket_connect(HTTPRequest(ws_url(srv, kernel)), subprotocols=None)
            except HTTPClientError as e:
                return f"refused: HTTP {e.code}"
            msg = comm_update(model, {"_dom_classes": None}, [["_dom_classes"]])
            msg["channel"] = "shell"
            msg["buffers"] = [b"x" * 64]
            await ws.write_message(serialize_binary_message(msg), binary=True)
            await asyncio.sleep(0.5)
            ws.close()
            return "accepted"

        outcome = asyncio.run(asyncio.wait_for(old_protocol(), 30))
        answered, grown = watch(srv, 4, probe)
        frozen = not all(answered) or grown >= 100
        if frozen:
            srv.proc.kill()  # before it eats the machine
        assert not frozen, (f"after the old-protocol websocket ({outcome}) the server answered "
                            f"{sum(answered)}/{len(answered)} probes within 1 s; memory +{grown:.0f} MB")
        assert outcome == "refused: HTTP 400", outcome
        print(f"old-protocol websocket {outcome}; then {sum(answered)}/{len(answered)} probes answered "
              f"within 1 s, memory +{grown:.1f} MB at most")

        async def bad_v1_frame() -> tuple[int | None, str]:
            ws = await websocket_connect(HTTPRequest(ws_url(srv, kernel)), subprotocols=[V1])
            assert ws.selected_subprotocol == V1
            frame = bytearray(v1_frame(comm_update(model, {})))
            frame[:8] = (1 << 62).to_bytes(8, "little")  # offsets far beyond the frame
            await ws.write_message(bytes(frame), binary=True)
            while await asyncio.wait_for(ws.read_message(), 10) is not None:
                pass  # until the server closes it
            return ws.close_code, ws.close_reason or ""

        closed = asyncio.run(asyncio.wait_for(bad_v1_frame(), 30))
        answered, grown = watch(srv, 4, probe)
        frozen = not all(answered) or grown >= 100
        if frozen:
            srv.proc.kill()
        assert not frozen, (f"after a malformed v1 frame the server answered {sum(answered)}/{len(answered)} "
                            f"probes within 1 s; memory +{grown:.0f} MB")
        assert closed[0] == 1003, closed
        print(f"malformed v1 frame: websocket closed {closed}; then {sum(answered)}/{len(answered)} probes "
              f"answered within 1 s, memory +{grown:.1f} MB at most")
        status, _ = load_page(srv)
        assert status == 200, "the app no longer serves its page"


# ------------------------------------------------------------------------------------------------ the cap

CAP = 3


@slow
def test_page_loads_beyond_the_cap_get_the_table_is_full_and_no_kernel() -> None:
    """50 page loads, 10 at a time, on a server capped at 3 kernels (one is the page _lab.server loads to
    see the server ready): never more than 3 kernel processes; the loads beyond the cap get HTTP 503
    "The table is full, try again later"."""
    with app_server("cap", f"--AppKernelManager.max_kernels={CAP}") as srv:
        statuses: list[int] = []
        most = 0
        with concurrent.futures.ThreadPoolExecutor(10) as pool:
            for _ in range(5):
                batch = list(pool.map(lambda _: load_page(srv, timeout=90), range(10)))
                statuses += [s for s, _ in batch]
                most = max(most, len(kernels(srv)))
                assert most <= CAP, f"{most} kernels after {len(statuses)} page loads (cap {CAP})"
                full = [body for s, body in batch if s == 503]
                assert all("The table is full, try again later" in body for body in full), full[:1]
        assert statuses.count(200) <= CAP - 1 and statuses.count(503) == 50 - statuses.count(200), statuses
        assert statuses.count(200) >= 1, statuses
        print(f"50 page loads: {statuses.count(200)} served, {statuses.count(503)} refused; "
              f"at most {most} kernels")


# -------------------------------------------------------------------------------------------- culling

@slow
def test_idle_kernels_are_shut_down_even_with_their_page_open() -> None:
    """With a 3 s culling timeout set here (checked every second) and the rest of the shipped
    configuration (which culls kernels with open websockets too): a page's kernel whose websocket stays
    open but idle, and the kernel of the page _lab.server loads to see the server ready (never
    connected), are shut down: their processes end and the server no longer knows them."""
    with app_server("cull", "--MappingKernelManager.cull_idle_timeout=3",
                    "--MappingKernelManager.cull_interval=1") as srv:
        status, html = load_page(srv)
        assert status == 200, html[:500]
        kernel, _ = page_ids(html)
        assert len(kernels(srv)) == 2, "no kernel for the page"  # and the readiness probe's

        async def idle_page() -> float:
            ws = await websocket_connect(HTTPRequest(ws_url(srv, kernel)), subprotocols=[V1])
            t0 = time.monotonic()
            while time.monotonic() - t0 < 30 and kernels(srv):
                await asyncio.sleep(0.5)
            ws.close()
            return time.monotonic() - t0

        waited = asyncio.run(asyncio.wait_for(idle_page(), 60))
        assert kernels(srv) == [], f"idle kernels still run after {waited:.0f} s"
        t0 = time.monotonic()  # the process ends a moment before the server forgets the kernel
        while time.monotonic() - t0 < 10 and kernel_known(srv, kernel):
            time.sleep(0.2)
        assert not kernel_known(srv, kernel), "the server still knows the culled kernel"
        print(f"idle kernels culled after {waited:.1f} s (timeout 3 s, checked every 1 s)")


# ------------------------------------------------------------------------------------------ no traceback

@slow
def test_a_failing_comm_message_sends_no_traceback_to_the_page() -> None:
    """A crafted widget update that makes the widget's handler raise (a child that is no widget): the
    page gets an error message with one generic sentence, and nothing it receives holds a traceback, a
    file path or the exception's name; the server's log has the traceback."""
    with app_server("traceback") as srv:
        status, html = load_page(srv)
        assert status == 200, html[:500]
        kernel, model = page_ids(html)

        async def attack() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
            ws = await websocket_connect(HTTPRequest(ws_url(srv, kernel)), subprotocols=[V1])
            bad = comm_update(model, {"children": ["IPY_MODEL_nope"]})
            await ws.write_message(v1_frame(bad), binary=True)
            got = await read_all(ws, 5)
            ws.close()
            return got

        got = asyncio.run(asyncio.wait_for(attack(), 30))
        errors = [c for _, h, c in got if h["msg_type"] == "error"]
        assert errors, f"the crafted message raised nothing: {[h['msg_type'] for _, h, _ in got]}"
        sent = json.dumps([c for _, _, c in got])
        for leak in ("Traceback", "TraitError", ".py", "site-packages", str(_lab.ROOT), "/"):
            assert leak not in sent, f"{leak!r} sent to the page: {sent[:2000]}"
        assert "TraitError" in Path(srv.log_path).read_text(errors="replace"), "the server's log lacks it"


# ------------------------------------------------------------------------------- the frame check, alone

def test_the_frame_check_takes_v1_frames_and_refuses_the_rest() -> None:
    """``v1_frame_ok``: a frame jupyter_server writes passes; the old format, an offset count beyond the
    frame, offsets beyond it or going back, a short frame and text do not (checked in microseconds, never
    looping over the count a frame claims)."""
    from powergrid_nb.app_server import offered_subprotocols, v1_frame_ok

    good = v1_frame(comm_update("m", {"value": 1}), (b"\x00" * 16,))
    assert v1_frame_ok(good) and v1_frame_ok(memoryview(good))
    old = SESSION.msg("comm_msg", {"comm_id": "m", "data": {}})
    assert not v1_frame_ok(serialize_binary_message({**old, "channel": "shell", "buffers": [b"x"]}))
    huge = bytearray(good)
    huge[:8] = (1 << 62).to_bytes(8, "little")
    t0 = time.perf_counter()
    assert not v1_frame_ok(bytes(huge))
    assert time.perf_counter() - t0 < 0.1
    last = 8 * int.from_bytes(good[:8], "little")  # where the last offset is written
    past = bytearray(good)
    past[last:last + 8] = (len(good) + 1).to_bytes(8, "little")
    assert not v1_frame_ok(bytes(past))
    back = bytearray(good)
    back[16:24] = (0).to_bytes(8, "little")  # the second offset before the first
    assert not v1_frame_ok(bytes(back))
    assert not v1_frame_ok(good[:7]) and not v1_frame_ok(good.decode("latin-1"))
    assert offered_subprotocols(f"x, {V1}") == ["x", V1] and offered_subprotocols(None) == []


# ---------------------------------------------------------------------------- `make classroom` (JupyterLab)

@slow
def test_the_classroom_lab_refuses_old_protocol_kernel_websockets() -> None:
    """JupyterLab with `make classroom`'s kernel websocket option: a websocket without the v1 subprotocol
    is refused (HTTP 400), one with it opens."""
    flag = next(f for f in _lab.make_flags("CLASSROOM_LAB_FLAGS") if "kernel_websocket_connection_class" in f)
    with _lab.server("lab", log_dir=LOGS / "classroom", flags=(flag,)) as srv:
        kernel = json.loads(_lab._request(f"{srv.base}/api/kernels", method="POST"))["id"]

        async def connect() -> tuple[str, str | None]:
            try:
                await websocket_connect(HTTPRequest(ws_url(srv, kernel)))
                old = "accepted"
            except HTTPClientError as e:
                old = f"refused: HTTP {e.code}"
            ws = await websocket_connect(HTTPRequest(ws_url(srv, kernel)), subprotocols=[V1])
            chosen = ws.selected_subprotocol
            ws.close()
            return old, chosen

        assert asyncio.run(asyncio.wait_for(connect(), 60)) == ("refused: HTTP 400", V1)
