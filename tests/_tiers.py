"""The test tier of this run (tests/conftest.py, the Makefile): "quick" in `make test`, "full" in
`make test-all` and a bare pytest. Set by the environment variable ``POWERGRID_TESTS``."""

from __future__ import annotations

import os

TIER_ENV = "POWERGRID_TESTS"
TIERS = ("quick", "full")


def tier() -> str:
    """This run's tier ("full" unless ``POWERGRID_TESTS`` says otherwise)."""
    value = os.environ.get(TIER_ENV, "full")
    if value not in TIERS:
        raise ValueError(f"{TIER_ENV}={value!r}: the test tier is one of {', '.join(TIERS)}")
    return value


def quick() -> bool:
    """Whether this run is the quick tier (smaller budgets for the ``slow`` property tests)."""
    return tier() == "quick"
