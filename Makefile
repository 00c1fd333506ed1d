# Two commands for a newcomer: `make lab` (set up, open the game in JupyterLab) and `make test` (set up, run all
# checks). While working, `make check` runs the fast tier in under a minute; `make test-all` adds the slow
# budgets. `make app` serves the game alone as a web page with Voila (notebooks/app.ipynb); `make lessons`
# and `make lessons-app` open the course (notebooks/lessons/) and `make lessons-html` writes its pages.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: lab app classroom lessons lessons-app lessons-html check test test-all setup browser bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

setup: $(STAMP)

# The course has a venv of its own: the package with its `lessons` extra only (pyproject.toml), what a
# student installs at home, without the development tools and agents of `.[dev]`. Editable: the lessons
# are this checkout's notebooks, so the package they import is this checkout's too (after a `git pull`
# both are new, with no reinstall); tests/test_lessons_install.py runs the lessons on a non-editable one.
LESSONS_VENV  ?= .venv-lessons
LESSONS_BIN   := $(LESSONS_VENV)/bin
LESSONS_STAMP := $(LESSONS_VENV)/.installed

$(LESSONS_STAMP): pyproject.toml
	$(PYTHON) -m venv $(LESSONS_VENV)
	$(LESSONS_BIN)/python -m pip install --quiet --upgrade pip
	$(LESSONS_BIN)/python -m pip install --quiet -e ".[lessons]"
	touch $(LESSONS_STAMP)

# JupyterLab refuses to run as root without --allow-root (containers, CI machines).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

# The address JupyterLab prints (and opens) is the play notebook's, not the Launcher's: with a notebook
# given, the server's root is notebooks/. No news feed and no update check: nothing leaves the machine.
# tests/_lab.py starts JupyterLab and Voila with these very flags (LAB_FLAGS, APP_FLAGS).
LAB_FLAGS := --LabApp.default_url=/lab/tree/01_play.ipynb --LabApp.news_url=None \
	--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate
# The app: only the game (the app notebook's output, no code), no tracebacks, and the `powergrid` page
# template (powergrid_nb/jupyter_data/voila/templates/powergrid: Voila's lab template without its CDN stylesheets).
APP_FLAGS := --template=powergrid --strip_sources=True --show_tracebacks=False
APP_PATH  := $(CURDIR)/powergrid_nb/jupyter_data$(if $(JUPYTER_PATH),:$(JUPYTER_PATH),)
# The app's server configuration (powergrid_nb/jupyter_config/voila.json, found through JUPYTER_CONFIG_PATH;
# docs/app.md, "Security"): kernel websockets of the v1 protocol only, no tracebacks to the page, at most
# 40 kernels (APP_KERNELS=N for another cap), idle kernels shut down after 20 minutes (APP_IDLE=SECONDS).
APP_CONFIG := $(CURDIR)/powergrid_nb/jupyter_config$(if $(JUPYTER_CONFIG_PATH),:$(JUPYTER_CONFIG_PATH),)
APP_KERNELS ?=
APP_IDLE ?=
APP_LIMITS = $(if $(APP_KERNELS),--AppKernelManager.max_kernels=$(APP_KERNELS),) \
	$(if $(APP_IDLE),--MappingKernelManager.cull_idle_timeout=$(APP_IDLE),)

# The Lab's default settings (powergrid_nb/jupyter_config/*/labconfig): no news pop-up anywhere; to play
# (PLAY_CONFIG) no autosave either, so a played game leaves the notebook as it was (the table saves games
# in notebooks/saves/, which git ignores). The lessons and the classroom keep autosave: work is saved.
LAB_CONFIG = $(CURDIR)/powergrid_nb/jupyter_config/$(1)$(if $(JUPYTER_CONFIG_PATH),:$(JUPYTER_CONFIG_PATH),)
PLAY_CONFIG := $(call LAB_CONFIG,play)
QUIET_CONFIG := $(call LAB_CONFIG,quiet)
lab: $(STAMP)
	JUPYTER_CONFIG_PATH="$(PLAY_CONFIG)" $(BIN)/jupyter lab $(ROOT_FLAG) $(LAB_FLAGS) notebooks/01_play.ipynb

# Play as a class (README): ROOMS=class.sqlite is the rooms file whose rooms players join by code;
# APP_HOST=0.0.0.0 lets the other machines of the class network open the app (Voila: this machine only).
ROOMS ?=
APP_HOST ?=
ROOMS_ENV = $(if $(ROOMS),POWERGRID_ROOMS="$(abspath $(ROOMS))",)
app: $(STAMP)
	JUPYTER_PATH="$(APP_PATH)" JUPYTER_CONFIG_PATH="$(APP_CONFIG)" $(ROOMS_ENV) \
		$(BIN)/voila $(APP_FLAGS) $(APP_LIMITS) $(if $(APP_HOST),--Voila.ip=$(APP_HOST),) notebooks/app.ipynb

# The teacher's view of the rooms (notebooks/classroom.ipynb) in JupyterLab, on the teacher's machine only.
# Its kernel websockets are the app's (powergrid_nb/app_server.py): the v1 protocol only, frames checked.
CLASSROOM_LAB_FLAGS := --LabApp.default_url=/lab/tree/classroom.ipynb --LabApp.news_url=None \
	--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate \
	--ServerApp.kernel_websocket_connection_class=powergrid_nb.app_server.AppKernelConnection
classroom: $(STAMP)
	$(ROOMS_ENV) JUPYTER_CONFIG_PATH="$(QUIET_CONFIG)" $(BIN)/jupyter lab $(ROOT_FLAG) $(CLASSROOM_LAB_FLAGS) \
		notebooks/classroom.ipynb

# The course (notebooks/lessons/README.md): JupyterLab on lesson 1, the others beside it; or the lessons as
# read-only web pages with Voila (the code shows, nobody can change it; the exercises need JupyterLab).
LESSONS_LAB_FLAGS := --LabApp.default_url=/lab/tree/01_resource_market.ipynb --LabApp.news_url=None \
	--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate
# --classic_tree: the folder page is a plain list of the lessons (the JupyterLab-like one loads widget plugins
# that fail without a kernel).
LESSONS_APP_FLAGS := --template=powergrid --strip_sources=False --show_tracebacks=False --classic_tree=True

lessons: $(LESSONS_STAMP)
	JUPYTER_CONFIG_PATH="$(QUIET_CONFIG)" $(LESSONS_BIN)/jupyter lab $(ROOT_FLAG) $(LESSONS_LAB_FLAGS) \
		notebooks/lessons/01_resource_market.ipynb

lessons-app: $(LESSONS_STAMP)
	JUPYTER_PATH="$(APP_PATH)" JUPYTER_CONFIG_PATH="$(APP_CONFIG)" \
		$(LESSONS_BIN)/voila $(LESSONS_APP_FLAGS) $(APP_LIMITS) notebooks/lessons

# The lessons executed at class size (FULL = True), one web page each that needs no network, and an
# index.html, in LESSONS_HTML (notebooks/lessons/README.md gives the time; Ctrl-C stops, keeping the pages
# built). LESSONS_HTML_FLAGS=--small for the stored sizes, `--lesson 3` for one lesson.
LESSONS_HTML ?= build/lessons-html
LESSONS_HTML_FLAGS ?=
lessons-html: $(LESSONS_STAMP)
	$(LESSONS_BIN)/powergrid-nb lessons html --out $(LESSONS_HTML) $(LESSONS_HTML_FLAGS)

# The browser tests (tests/test_views_browser.py) drive Debian's chromium; as root, install it if missing.
# Otherwise print how to; those tests then fail with the same advice (POWERGRID_NO_BROWSER=1 skips them).
browser:
	@if [ -x /usr/bin/chromium ] || [ "$$POWERGRID_NO_BROWSER" = 1 ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing chromium for the browser tests (apt-get, about 30 s)..."; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
			|| echo "apt-get could not install chromium: the browser tests will fail"; \
	else \
		echo "No /usr/bin/chromium: the browser tests will fail. Install it with:"; \
		echo "    sudo apt-get update && sudo apt-get install -y chromium"; \
		echo "or skip them: POWERGRID_NO_BROWSER=1 make test"; \
	fi

# The tiers of tests (tests/conftest.py, tests/_tiers.py):
# - `make check` (under a minute): ruff, the layers and no import circles (lint-imports: pyproject's
#   [tool.importlinter]), and the rules, the engine, the golden corpus and the fast property tests: the
#   files of CHECK_TESTS, less their tests marked `slow`. No browser, no server, no notebook.
# - `make test` (README, .ci/run; about 11.5 minutes on 2 cores, docs/benchmarks.md): everything a change
#   can break: every test and every notebook (nbmake), one browser and one JupyterLab / Voila server per
#   run; in the quick tier (POWERGRID_TESTS=quick) the `slow` property tests run their smaller budget, the compiled engine is
#   built once at -O1 without the profile-guided pass (half the build time), and the tests marked `full` are
#   skipped.
# - `make test-all`: the same in the full tier (POWERGRID_TESTS=full, also a bare `pytest`'s): every
#   property budget in full, the profile-guided build and the `full` tests.
LINT = $(BIN)/ruff check powergrid_nb tests benchmarks scripts && $(BIN)/lint-imports
CHECK_TESTS := tests/test_rules_*.py tests/test_engine_core.py tests/test_golden.py tests/test_properties.py \
	tests/test_limits.py

check: $(STAMP)
	$(LINT)
	POWERGRID_TESTS=quick $(BIN)/python -m pytest -q -p no:cacheprovider -o addopts="" -m "not slow" \
		$(CHECK_TESTS)

# Two workers (pytest-xdist): each test file is one unit of work, the browser and server tests another, the
# compiled engine's a third (tests/conftest.py). WORKERS=1 runs everything in one process.
WORKERS ?= 2
PARALLEL = $(if $(filter 1,$(WORKERS)),,-n $(WORKERS) --dist loadgroup --no-loadscope-reorder)

test: $(STAMP) browser
	$(LINT)
	POWERGRID_TESTS=quick $(BIN)/python -m pytest -q $(PARALLEL)

test-all: $(STAMP) browser
	$(LINT)
	POWERGRID_TESTS=full $(BIN)/python -m pytest -q $(PARALLEL)

bench: $(STAMP)
	$(BIN)/python benchmarks/random_games.py

clean:
	rm -rf $(VENV) $(LESSONS_VENV) build dist .pytest_cache .ruff_cache
