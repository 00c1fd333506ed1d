"""What the whole suite shares: the test tier (tests/_tiers.py) and the expensive things started
once per run (lazily, by the first test that needs them): the browser, the Jupyter servers, the
compiled engine.

The tiers (Makefile): ``make check`` (lint, layers, rules, engine, golden corpus, fast properties; under
a minute), ``make test`` (everything a change can break; ``POWERGRID_TESTS=quick``: the ``slow``
property tests run their smaller budget, ``props(n, quick=k)`` in _helpers_props, the compiled engine
is built at -O1 without the profile-guided pass, in half the time, and tests marked ``full`` are
skipped) and ``make test-all``
(``POWERGRID_TESTS=full``, also the default of a bare ``pytest``: every budget in full, the
profile-guided build, the ``full`` tests).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import _lab
import pytest
from _browser import NO_BROWSER_ENV, browser_problem, chromium, require_browser
from _tiers import TIER_ENV, tier


def pytest_configure(config: pytest.Config) -> None:
    try:
        tier()
    except ValueError as e:
        raise pytest.UsageError(str(e)) from None


# The tests that share a server run together, on one worker of a parallel run (`make test`: pytest-xdist,
# --dist loadgroup), so that each server is started once per run; the tests that only draw in the browser
# run together on one worker; the compiled engine is built once, by the worker that runs the tests that
# need it. Without a worker (a bare `pytest`) all browser tests run last.
SERVER_FIXTURES = frozenset({"_lab_session", "voila_server", "rooms_server", "lessons_server"})
SERVER_GROUP, CHROMIUM_GROUP, ACCEL_GROUP = "servers", "chromium", "accel"
LEADS = (SERVER_GROUP, ACCEL_GROUP, CHROMIUM_GROUP)  # the longest units, started first in this order


def _group(item: pytest.Item) -> str | None:
    """The group of tests that must run on one worker that ``item`` belongs to, if any."""
    names = set(getattr(item, "fixturenames", ()))
    if SERVER_FIXTURES & names:
        return SERVER_GROUP
    if "chromium_session" in names:
        return CHROMIUM_GROUP
    if "compiled_engine" in names:
        return ACCEL_GROUP
    return None


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups from the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Where the tests run. In one process (``pytest``), the browser and server tests run last, after every
    other test and notebook (in their order). Playwright's sync API keeps an asyncio loop running in the
    main thread while the browser is open, and a test that runs its own loop (``asyncio.run``), or a
    notebook's client, cannot start one then: the browser closes after the last test of a run of tests
    that use it (:func:`pytest_runtest_teardown`).

    On the workers of a parallel run (``make test``: ``-n 2 --dist loadgroup --no-loadscope-reorder``) each
    test file is one unit of work, so that a file's fixtures are built once; the server tests are one unit,
    the compiled engine's another and the browser-only tests a third (:data:`LEADS`), and they come first,
    so that the longest units start at once. Tests marked ``full`` run in the full tier only."""
    if hasattr(config, "workerinput"):  # a worker of a parallel run: the long units first
        items.sort(key=lambda item: LEADS.index(g) if (g := _group(item)) else len(LEADS))
    else:  # the server tests, then the browser-only tests, last (the sort keeps the order of the rest)
        last = (SERVER_GROUP, CHROMIUM_GROUP)
        items.sort(key=lambda item: last.index(g) + 1 if (g := _group(item)) in last else 0)
    for item in items:
        item.add_marker(pytest.mark.xdist_group(_group(item) or item.path.stem))
    if tier() == "full":
        return
    skip = pytest.mark.skip(reason=f"the full tier's ({TIER_ENV}=full, `make test-all`)")
    for item in items:
        if item.get_closest_marker("full") is not None:
            item.add_marker(skip)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: the controller of a parallel run
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """Every test is in a group (:func:`pytest_collection_modifyitems`); a run whose groups were lost would
    start the servers and build the engine on every worker and run asyncio tests beside an open browser:
    stop it, saying why."""
    lost = [i for i in ids if "@" not in i]
    if node.config.getvalue("dist") == "loadgroup" and lost:
        pytest.exit(f"pytest-xdist did not group {len(lost)} tests (e.g. {lost[0]}): this pytest-xdist does "
                    f"not work with this pytest's node ids. Install the versions pyproject.toml names "
                    f"(pytest below 9.2), or run in one process: make test WORKERS=1",
                    returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.hookimpl(trylast=True)  # after the test's own fixtures are torn down
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the last test of the server or browser-only group, the browser closes (and with it
    Playwright's loop), so that the tests a worker runs next can run their own asyncio loops; the next
    module that needs it starts it again (:func:`chromium_session`)."""
    group = _group(item)
    if group in (SERVER_GROUP, CHROMIUM_GROUP) and (nextitem is None or _group(nextitem) != group):
        _CHROMIUM.close()


def pytest_sessionfinish(session: pytest.Session) -> None:
    _CHROMIUM.close()


def pytest_report_header(config: pytest.Config) -> str:
    return f"test tier: {tier()} ({TIER_ENV}; quick in `make test`, full in `make test-all`)"


# ---------------------------------------------------------------------------------------------- browser

class _Chromium:
    """The run's headless chromium: started by the first test that needs it, closed after the last."""

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()
        self._browser: Any = None

    def get(self) -> Any:
        if self._browser is None:
            self._browser = self._stack.enter_context(chromium())
        return self._browser

    def close(self) -> None:
        self._browser = None
        self._stack.close()


_CHROMIUM = _Chromium()


@pytest.fixture(scope="module")
def chromium_session() -> Any:
    """The run's headless Debian chromium (a Playwright Browser), started by the first test that needs
    it and closed after its group (:func:`pytest_runtest_teardown`) or at the end; None without one (the
    ``browser`` fixture then fails or skips the test with the reason). Module-scoped so that a module run
    after the browser closed gets it started again."""
    if os.environ.get(NO_BROWSER_ENV) == "1" or browser_problem():
        return None
    return _CHROMIUM.get()


@pytest.fixture
def browser(chromium_session: Any) -> Any:
    """The run's browser; a test that needs it FAILS with install advice when it is missing (skipped
    with POWERGRID_NO_BROWSER=1). Each test opens and closes its own pages or contexts."""
    require_browser()
    return chromium_session


# ---------------------------------------------------------------------------------------------- servers

def _shared(kind: str, **kw: Any) -> Iterator[_lab.Server]:
    with _lab.server(kind, **kw) as srv:
        yield srv


@pytest.fixture(scope="session")
def _lab_session() -> Iterator[_lab.Server]:
    yield from _shared("lab", log_dir=_lab.ARTIFACTS)


@pytest.fixture
def lab_server(_lab_session: _lab.Server) -> _lab.Server:
    """JupyterLab as `make lab` starts it, one per run; each test gets it as if just started (no
    session, no kernel, no workspace, the notebooks as in the repository)."""
    _lab_session.reset()
    return _lab_session


@pytest.fixture(scope="session")
def voila_server() -> Iterator[_lab.Server]:
    """Voila on the app as `make app` starts it, one per run (a kernel of its own for every page)."""
    yield from _shared("voila", log_dir=_lab.ARTIFACTS)


@pytest.fixture(scope="session")
def rooms_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rooms file of :func:`rooms_server` (empty: tests create their rooms in it)."""
    return tmp_path_factory.mktemp("rooms") / "class.sqlite"


@pytest.fixture(scope="session")
def rooms_server(rooms_file: Path) -> Iterator[_lab.Server]:
    """Voila on the app as `make app ROOMS=class.sqlite` starts it (the page offers to join a room), one
    per run: a server of its own, as the rooms file changes what the app's page shows."""
    yield from _shared("voila", log_dir=_lab.ROOT / "test-artifacts" / "rooms",
                       environ={"POWERGRID_ROOMS": str(rooms_file)})


@pytest.fixture(scope="session")
def lessons_server() -> Iterator[_lab.Server]:
    """Voila over the lessons' folder as `make lessons-app` starts it, one per run."""
    yield from _shared("lessons", log_dir=_lab.ROOT / "test-artifacts" / "lessons", timeout=120)


# ---------------------------------------------------------------------------------------- compiled engine

@pytest.fixture(scope="session")
def compiled_engine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole engine compiled once per run into a folder of its own (the user's cache is never
    touched); the folder to pass as ``POWERGRID_NB_ACCEL_DIR``. Profile-guided (GCC: compile, train,
    compile again) in the full tier only; `make test` compiles once."""
    from powergrid_nb import accel

    root = tmp_path_factory.mktemp("accel")
    full = tier() == "full"
    folder = accel.build(root=root, echo=lambda s: None, pgo=None if full else False, optimize=full)
    assert folder == accel.build_dir(root)
    return root
