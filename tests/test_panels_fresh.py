"""What the table shows equals a fresh build: whole seeded games of both editions played at
a table, the human seat's decisions chosen by a heuristic bot and made with the controls a player uses
(plant buttons or cards, the bid box, resource steppers, the city list or map clicks, plant checkboxes,
undo, tab clicks), the other seats heuristic bots moving one at a time on the table's timer or all at
once (bot delay 0). At a sample of the moves (every click of a sampled human turn, a share of the bot
moves, the start and the end) everything the table shows (``Table.snapshot()``: each label, button,
control and figure) equals what a table built anew on a copy of the game shows (tests/_panels.py
``fresh_twin``). Unsampled human turns are submitted as their last click would submit them; every move
goes through the table, so a view left stale at any point stays wrong until a sampled check sees it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import ipywidgets as w
import pytest
from _panels import (
    assert_shows_a_fresh_build,
    click,
    click_city,
    click_errors_fail,  # noqa: F401 (autouse)
    click_plant_card,
    find,
    one,
)

from powergrid_nb import Game, new_game
from powergrid_nb.bots import make_bot
from powergrid_nb.engine.actions import Bid, Build, BuyResources, Discard, Done, MarkCity, Open, Pass, Power
from powergrid_nb.engine.rules.plants import RESOURCES
from powergrid_nb.panels import Table
from powergrid_nb.panels.board import TABS

BOT_DELAY = 3600  # the bots' timer never fires by itself: the test fires it (one bot move at a time)
TAB_WEIGHTS = (4, 2, 2, 1, 1)  # Plant market, Resources, Players, History, Rules


def _set(widget: w.Widget, value: object, clicked: Callable[[str], None], what: str) -> None:
    if widget.value != value:
        widget.value = value
        clicked(what)


def _power(t: Table, a: Power, clicked: Callable[[str], None]) -> None:
    """Untick the plants not to run, tick the others (each a click), choose the hybrids' coal."""
    want = set(a.plants)
    for on in (False, True):
        for n in sorted(t.game.plants_of(a.player)):
            box = one(t.actions, f"pg-run-{n}")
            if box.value != (n in want) and (n in want) == on:
                assert not box.disabled, f"plant {n} cannot be ticked"
                box.value = on
                clicked(f"{'tick' if on else 'untick'} plant {n}")
    mix = find(t.actions, "pg-hybrid-coal")
    if mix and a.hybrid_coal is not None:
        _set(mix[0], a.hybrid_coal, clicked, f"hybrid coal {a.hybrid_coal}")
    click(t, "pg-power")


def perform(t: Table, a: object, rng: random.Random, clicked: Callable[[str], None]) -> None:
    """Make the human decision ``a`` with the table's controls; ``clicked(what)`` after each pending
    click (a choice shown, no decision yet)."""
    if isinstance(a, Open):
        chosen = one(t, f"pg-plant-{a.plant}").button_style == "info"
        if not chosen:
            if t.board.tabs.selected_index == 0 and rng.random() < 0.5:  # its card, on screen
                click_plant_card(t, a.plant)
            else:
                click(t, f"pg-plant-{a.plant}")
            clicked(f"choose plant {a.plant}")
        _set(one(t, "pg-bid-amount"), a.bid, clicked, f"bid amount {a.bid}")
        click(t, "pg-open")
    elif isinstance(a, Bid):
        _set(one(t, "pg-bid-amount"), a.amount, clicked, f"bid amount {a.amount}")
        click(t, "pg-raise")
    elif isinstance(a, Pass):
        click(t, "pg-pass")
    elif isinstance(a, Done):
        click(t, "pg-done")
    elif isinstance(a, Discard):
        _set(one(t, "pg-discard-plant"), a.plant, clicked, f"discard plant {a.plant}")
        keep = one(t, "pg-keep")
        _set(keep, next(v for _, v in keep.options if v == a), clicked, f"keep {a.keep}")
        click(t, "pg-discard")
    elif isinstance(a, BuyResources):
        for r, n in zip(RESOURCES, a.amounts, strict=True):
            for _ in range(n):
                click(t, f"pg-more-{r}")
                clicked(f"one more {r}")
        click(t, "pg-buy")
    elif isinstance(a, Build):
        for city in a.cities:
            if rng.random() < 0.5:
                click_city(t, city)
            else:
                one(t, "pg-candidates").value = city
                click(t, "pg-add")
            clicked(f"queue {city}")
        click(t, "pg-build")
    elif isinstance(a, Power):
        _power(t, a, clicked)
    elif isinstance(a, MarkCity):
        if rng.random() < 0.5:
            click_city(t, a.city)
        else:
            one(t, "pg-candidates").value = a.city
            click(t, "pg-mark")
    else:
        raise AssertionError(f"no control for {a!r}")


def play_checked(g: Game, humans: list[str], *, seed: int, check: float, timed: float = 0.2,
                 undo: float = 0.03, tabs: float = 0.15, rounds: int | None = None) -> int:
    """Play ``g`` to its end at a table: ``humans`` by clicking (their decisions chosen by heuristic
    bots), the other seats heuristic bots, after a human turn either one move at a time on the table's
    timer (a share ``timed`` of the turns) or all at once (bot delay 0). Compare the table with a fresh
    build at the start, the end, and after a share ``check`` of the bot moves and human turns (every
    click of a checked turn). Returns the number of comparisons."""

    async def main() -> int:
        rng = random.Random(seed)
        t = Table(g, bots={p: "heuristic" for p in g.players if p not in humans}, delay=BOT_DELAY)
        deciders = {p: make_bot("heuristic", seed=seed + 100 + i) for i, p in enumerate(humans)}
        checks = 0
        sampled, one_by_one = True, True

        def clicked(what: str) -> None:
            nonlocal checks
            if sampled:
                checks += 1
                assert_shows_a_fresh_build(t, f"{what} (round {g.round}, phase {g.phase}, "
                                              f"move {len(g.actions)})")

        clicked("the start")
        for _ in range(20_000):
            if g.is_over or (rounds is not None and g.round > rounds):
                break
            if t._timer is not None:  # bots to move: what the timer does, now
                t._cancel()
                sampled = rng.random() < check
                if one_by_one:
                    t._tick()
                    clicked(f"bot move {g.actions[-1]}")
                else:  # bot delay 0: the bots play until a human is to act, then the table refreshes
                    t.delay = 0
                    t.run_bots()
                    t.delay = BOT_DELAY
                    clicked(f"bot moves up to {g.actions[-1]}")
                continue
            who = g.current_player
            assert who in humans, f"{who} waits for nothing: {t.status.value}"
            sampled, one_by_one = rng.random() < check, rng.random() < timed
            if rng.random() < tabs:  # mostly the plant market, as players do (the history is the dearest)
                t.board.tabs.selected_index = rng.choices(range(len(TABS)), TAB_WEIGHTS)[0]
                clicked(f"tab {TABS[t.board.tabs.selected_index]}")
            if g.actions and g.actions[-1].player == who and rng.random() < undo:
                click(t, "pg-undo")
                clicked("undo")
                continue
            n, decision = len(g.actions), deciders[who].act(g)
            if sampled:
                perform(t, decision, rng, clicked)
            else:  # what the decision's last click does, without the pending clicks before it
                t.submit(decision)
            assert len(g.actions) > n or g.is_over, f"the click did nothing: {t.message.value}"
            clicked(f"{who}'s decision {g.actions[n]}")
        assert g.is_over or rounds is not None
        sampled = True
        clicked("the end")
        t.close()
        return checks

    return asyncio.run(main())


GAMES = {
    # the game: 3 players, original, seed 7 (heuristic bots; You the first seat)
    "original-3p-seed7": (dict(players=["You", "Bo", "Cy"], seed=7), ["You"]),
    # Recharged against the Trust (R128-R133)
    "recharged-2p-trust": (dict(players=["You", "Bo"], edition="recharged", seed=5), ["You"]),
    # four players, Recharged, the default starting cities (R134-R136: a phase 0 of marks)
    "recharged-4p-starting-cities": (dict(players=["You", "Bo", "Cy", "Di"], edition="recharged", seed=11,
                                          starting_cities=True), ["You"]),
}
CHECK = 0.03  # the share of bot moves and human turns compared with a fresh build (~10-20 a game;
# twice that in a 2-player game, which has fewer moves)


@pytest.mark.parametrize("name", list(GAMES))
def test_after_clicks_and_bot_moves_a_whole_game_shows_what_a_fresh_build_shows(name):
    setup, humans = GAMES[name]
    g = new_game(**setup)
    checks = play_checked(g, humans, seed=len(name), check=CHECK * (2 if len(g.players) == 2 else 1))
    assert g.is_over and checks >= 5


def test_with_two_humans_the_views_follow_the_human_to_act():
    """Two seats played here: the map's build costs and the resources view follow whichever of them is
    to act, and show no one while the bot plays (``Table.viewer``). The first two rounds."""
    g = new_game(["You", "Bo", "Cy"], seed=7)
    checks = play_checked(g, ["You", "Cy"], seed=2, check=0.15, rounds=2)
    assert g.round > 2 and checks >= 10
