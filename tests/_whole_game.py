"""A whole game played by clicking: the human seat's click policy, over two views of one table.

``Player`` decides each turn from what the phase panel and the game log show (plant buttons and their
captions, the bid box, "hold N" per resource, the build list with its costs, the hybrid slider) and
clicks the panel's controls. It sees the table through a ``Seat``:

* ``DomSeat``: the real browser (Playwright, through ``_lab.Driver``: every click waits until the table
  has settled), used by tests/test_play_whole_browser.py and scripts/make_table_image.py;
* ``WidgetSeat``: the same table's widgets in this process (``button.click()``, ``.value = ...``), no
  kernel, no browser: it replays the same clicks in a second or two, so a setup can be searched for
  (``python tests/_whole_game.py --search 0 30``) and checked before the browser test plays it.

The policy (deliberately simple, deterministic): round 1 open the hybrid plant if one is for sale, else
the cheapest; later open the first hybrid seen if the human has none, else a plant that powers more
cities than the human's weakest, at the minimum bid, raising up to a few Elektro over the card's number;
over the plant limit discard the weakest plant that is not the hybrid; buy one run of fuel for every
plant (the hybrid: its coal plus one oil, so the power panel offers a coal/oil split); build the
cheapest cities up to what the plants power; run the plants the panel ticks, moving the hybrid slider
to its other end first.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from _lab import play_turns  # noqa: E402  (tests/_lab.py, beside this file: the turn loop it shares)

from powergrid_nb.engine.rules.plants import PLANTS  # noqa: E402  (the cards' printed values: fuel, tokens, cities)

RESOURCES = ("coal", "oil", "garbage", "uranium")
PANELS = ("over", "discard", "opening", "bidding", "resources", "build", "power", "start", "wait")


@dataclass(frozen=True)
class Btn:
    cls: str  # the button's pg- class that matched the prefix asked for, e.g. "pg-plant-13"
    text: str
    enabled: bool
    selected: bool  # shown as the pending choice (style "info")


class Seat(Protocol):
    """What the policy reads of the table and how it clicks."""

    def status(self) -> str: ...
    def panel(self) -> str: ...  # the phase panel's text
    def log(self) -> list[str]: ...  # the game log's lines
    def classes(self) -> set[str]: ...  # the pg- classes inside the phase panel
    def buttons(self, prefix: str) -> list[Btn]: ...
    def click(self, cls: str, kind: str, changes_game: bool) -> None: ...
    def options(self, cls: str) -> list[str]: ...  # a Select's or ToggleButtons' labels
    def pick(self, cls: str, index: int) -> None: ...  # choose in a Select (no re-render)
    def toggle(self, cls: str, label: str) -> None: ...  # choose in ToggleButtons (re-renders)
    def slider(self, cls: str) -> tuple[int, int, str]: ...  # (index, count, label shown)
    def slide(self, cls: str, index: int) -> None: ...
    def amount(self) -> int: ...  # the bid box's value


def panel_kind(seat: Seat) -> str:
    """Which panel the table shows (one of ``PANELS``)."""
    cls = seat.classes()
    if "pg-ranking" in cls:
        return "over"
    if "pg-discard" in cls:
        return "discard"
    text = seat.panel()
    if "pg-open" in cls or "pg-plant" in cls or ": open an auction" in text:
        return "opening"
    if "pg-buy" in cls:
        return "resources"
    if "pg-power" in cls or "pg-outcome" in cls:
        return "power"
    if "pg-mark" in cls:
        return "start"
    if "pg-raise" in cls or "Auction of plant" in text:
        return "bidding"
    if "pg-done" in cls and re.search(r": build \(", text):
        return "build"
    return "wait"


def round_of(status: str) -> int:
    m = re.match(r"Round (\d+)", status)
    assert m, status
    return int(m[1])


def number(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    assert m, f"{pattern!r} not in {text!r}"
    return int(m[1])


def cities(plant: int) -> int:
    p = PLANTS.get(plant)
    return p.cities if p else 0


def hybrid(plant: int) -> bool:
    p = PLANTS.get(plant)
    return p is not None and p.fuel == "hybrid"


@dataclass
class Player:
    """The human seat's policy; ``seen`` records the situations met (kind → details)."""

    seat: Seat
    overbid: int = 3  # raise up to the card's number plus this
    hybrid_overbid: int = 8
    max_build: int = 3  # cities per turn
    reserve: int = 0  # Elektro kept when building
    max_plants: int | None = None  # owning this many, buy no more (money left to build)
    plants: set[int] = field(default_factory=set)
    boxed: set[int] = field(default_factory=set)  # plants the human discarded
    mine: set[str] = field(default_factory=set)  # cities with a house of the human's
    opened: int | None = None
    seen: dict[str, list[Any]] = field(default_factory=dict)
    on_panel: Callable[[str], None] | None = None  # called before each turn with the panel's kind
    on_note: Callable[[str], None] | None = None  # called when a situation is met (its kind)

    # --- what the log says --------------------------------------------------------------------------
    def read_log(self) -> None:
        """Plants and cities of the human from the game log (each plant is bought or boxed once a game,
        each city built once: lines read twice change nothing)."""
        for line in self.seat.log():
            if m := re.match(r"You (?:buy|take) plant (\d+)\b", line):
                self.plants.add(int(m[1]))
            elif m := re.match(r"You box(?:es)? plant (\d+)\b", line):
                self.boxed.add(int(m[1]))
            elif m := re.match(r"You build in (.+?)(?: for \d+ Elektro)?\.$", line):
                self.mine.add(m[1])
        self.plants -= self.boxed

    def note(self, kind: str, detail: dict[str, Any]) -> dict[str, Any]:
        self.seen.setdefault(kind, []).append(detail)
        if self.on_note is not None:
            self.on_note(kind)
        return detail

    def memory(self) -> tuple:
        """What the policy remembers (to restore it with the game: a Load)."""
        return set(self.plants), set(self.boxed), set(self.mine), self.opened

    def restore(self, memory: tuple) -> None:
        plants, boxed, mine, self.opened = memory
        self.plants, self.boxed, self.mine = set(plants), set(boxed), set(mine)

    # --- a turn ---------------------------------------------------------------------------------------
    def turn(self) -> str:
        """Play the human's turn in the panel shown; returns its kind."""
        self.read_log()
        kind = panel_kind(self.seat)
        if self.on_panel is not None:
            self.on_panel(kind)
        if kind == "over":
            raise StopIteration("the game is over")
        if kind == "wait":
            raise AssertionError(f"no panel for the human: {self.seat.status()!r} {self.seat.panel()!r}")
        getattr(self, f"_{kind}")()
        return kind

    def play(self, until: Callable[[], bool] = lambda: False, max_turns: int = 400) -> int:
        """Turns until ``until()`` (checked before each) or the game's end; returns the turns played."""
        return play_turns(self.turn, until, max_turns, lambda: repr(self.seat.status()))

    # --- auction --------------------------------------------------------------------------------------
    def want(self, round_: int, offered: list[int]) -> int | None:
        hybrids = [n for n in offered if hybrid(n)]
        if hybrids and not any(hybrid(p) for p in self.plants):
            return hybrids[0]
        if round_ == 1 or not self.plants:
            return offered[0] if offered else None
        if self.max_plants is not None and len(self.plants) >= self.max_plants:
            return None
        weakest = min(cities(p) for p in self.plants)
        better = [n for n in offered if cities(n) > weakest]
        return max(better, key=lambda n: (cities(n), -n)) if better else None

    def _opening(self) -> None:
        plants = [b for b in self.seat.buttons("pg-plant-") if b.enabled]
        offered = [int(b.cls.rsplit("-", 1)[1]) for b in plants]
        choice = self.want(round_of(self.seat.status()), offered)
        if choice is None and "pg-pass" in self.seat.classes():
            self.opened = None
            self.seat.click("pg-pass", "pass", True)
            return
        if choice is None:  # round 1: passing is not allowed (R35)
            choice = offered[0]
        if not next(b for b in plants if b.cls == f"pg-plant-{choice}").selected:
            self.seat.click(f"pg-plant-{choice}", "plant", False)
        self.opened = choice
        self.seat.click("pg-open", "open", True)

    def _bidding(self) -> None:
        text = self.seat.panel()
        plant = number(r"Auction of plant (\d+)", text)
        money = number(r"You have (\d+) Elektro", text)
        can = any(b.enabled for b in self.seat.buttons("pg-raise"))
        top = plant + (self.hybrid_overbid if hybrid(plant) else self.overbid)
        if can and plant == self.opened and self.seat.amount() <= min(top, money):
            self.seat.click("pg-raise", "bid", True)
        else:
            self.seat.click("pg-pass", "pass", True)

    def _discard(self) -> None:
        labels = self.seat.options("pg-discard-plant")
        owned = {int(lab.split("·")[0]): lab for lab in labels}
        keep_out = [n for n in owned if not hybrid(n)] or list(owned)
        box = min(keep_out, key=lambda n: (cities(n), n))
        seen = self.note("discard", {"options": sorted(owned), "boxed": box, "status": self.seat.status()})
        self.seat.toggle("pg-discard-plant", owned[box])
        self.seat.click("pg-discard", "discard", True)
        seen["log"] = [s for s in self.seat.log() if re.match(rf"You box(?:es)? plant {box}\b", s)]

    # --- resources ------------------------------------------------------------------------------------
    def need(self) -> dict[str, int]:
        need = dict.fromkeys(RESOURCES, 0)
        for n in self.plants:
            p = PLANTS.get(n)
            if p is None or p.fuel not in (*RESOURCES, "hybrid"):
                continue
            if p.fuel == "hybrid":
                need["coal"] += p.tokens
                need["oil"] += 1  # one more than a run needs: the power panel then offers a split
            else:
                need[p.fuel] += p.tokens
        return need

    def _resources(self) -> None:
        text = self.seat.panel()
        held = {r: int(m[1]) if (m := re.search(rf"\b{r}: hold (\d+)", text)) else 0 for r in RESOURCES}
        clicked = 0
        for r, n in self.need().items():
            for _ in range(n - held[r]):
                if not any(b.enabled for b in self.seat.buttons(f"pg-more-{r}")):
                    break
                self.seat.click(f"pg-more-{r}", "more", False)
                clicked += 1
        if clicked and any(b.enabled for b in self.seat.buttons("pg-buy")):
            self.seat.click("pg-buy", "buy", True)
        if panel_kind(self.seat) == "resources":
            self.seat.click("pg-done", "done", True)

    # --- building ---------------------------------------------------------------------------------------
    def _build(self) -> None:
        money = number(r": build \((\d+) Elektro\)", self.seat.panel())
        room = sum(cities(p) for p in self.plants) - len(self.mine)
        spent = queued = 0
        while queued < min(room, self.max_build):
            options = self.seat.options("pg-candidates")
            if not options:
                break
            cost = number(r"= (\d+)", options[0])
            if spent + cost > money - self.reserve:
                break
            self.seat.pick("pg-candidates", 0)
            self.seat.click("pg-add", "add", False)
            spent, queued = spent + cost, queued + 1
        if queued:
            self.seat.click("pg-build", "build", True)
        if panel_kind(self.seat) == "build":
            self.seat.click("pg-done", "done", True)

    # --- bureaucracy ------------------------------------------------------------------------------------
    def _power(self) -> None:
        seen = None
        if "pg-hybrid-coal" in self.seat.classes():
            index, count, label = self.seat.slider("pg-hybrid-coal")
            before = self.outcome()
            self.seat.slide("pg-hybrid-coal", 0 if index != 0 else count - 1)
            seen = self.note("hybrid", {"from": label, "to": self.seat.slider("pg-hybrid-coal")[2],
                                        "before": before, "after": self.outcome(),
                                        "status": self.seat.status()})
        self.seat.click("pg-power", "power", True)
        if seen is not None:
            seen["log"] = [s for s in self.seat.log() if s.startswith("You run ")][-1:]

    def outcome(self) -> str:
        m = re.search(r"Powers .*", self.seat.panel())
        return m[0] if m else ""


# ------------------------------------------------------------------------------------- the widgets

def _text(value: str) -> str:
    """An HTML label's text (tags dropped, block ends as line breaks)."""
    value = re.sub(r"<(?:br|/div|/li|/ol|/summary)[^>]*>", "\n", value)
    return html.unescape(re.sub(r"<[^>]+>", "", value))


class WidgetSeat:
    """A ``Seat`` over a ``Table``'s widgets in this process (no browser)."""

    def __init__(self, table: Any) -> None:
        self.table = table

    def _walk(self, root: Any = None) -> list[Any]:
        out, todo = [], [root if root is not None else self.table.actions]
        while todo:
            x = todo.pop(0)
            out.append(x)
            todo[:0] = list(getattr(x, "children", ()) or ())
        return out

    def _with(self, cls: str) -> list[Any]:
        return [x for x in self._walk() if cls in (getattr(x, "_dom_classes", ()) or ())]

    def status(self) -> str:
        return _text(self.table.status.value).strip()

    def panel(self) -> str:
        import ipywidgets as w
        parts = []
        for x in self._walk():
            if isinstance(x, w.HTML):
                parts.append(_text(x.value))
            elif isinstance(x, (w.Button, w.Checkbox)):
                parts.append(x.description)
        return "\n".join(parts)

    def log(self) -> list[str]:
        return [s for s in _text(self.table.log_view.value).splitlines() if s.strip()]

    def classes(self) -> set[str]:
        found = (c for x in self._walk() for c in (getattr(x, "_dom_classes", ()) or ()))
        return {c for c in found if c.startswith("pg-")}

    def buttons(self, prefix: str) -> list[Btn]:
        import ipywidgets as w
        out = []
        for x in self._walk():
            if isinstance(x, w.Button):
                cls = next((c for c in x._dom_classes if c.startswith(prefix)), None)
                if cls is not None:
                    out.append(Btn(cls, x.description, not x.disabled, x.button_style == "info"))
        return out

    def click(self, cls: str, kind: str, changes_game: bool) -> None:
        (b,) = [x for x in self._with(cls) if hasattr(x, "click")][:1]
        assert not b.disabled, f"{cls} is disabled"
        b.click()

    def options(self, cls: str) -> list[str]:
        found = self._with(cls)
        return [str(o[0] if isinstance(o, tuple) else o) for o in found[0].options] if found else []

    def pick(self, cls: str, index: int) -> None:
        sel = self._with(cls)[0]
        opt = sel.options[index]
        sel.value = opt[1] if isinstance(opt, tuple) else opt

    def toggle(self, cls: str, label: str) -> None:
        self.pick(cls, self.options(cls).index(label))

    def slider(self, cls: str) -> tuple[int, int, str]:
        s = self._with(cls)[0]
        return s.index, len(s.options), str(s.label)

    def slide(self, cls: str, index: int) -> None:
        self._with(cls)[0].index = index

    def amount(self) -> int:
        return int(self._with("pg-bid-amount")[0].value)


def widget_table(names: list[str], bots: dict[str, str], **game: Any) -> Any:
    """The table the setup form builds for these settings (``new_game`` as ``SetupForm.settings``)."""
    from powergrid_nb import new_game
    from powergrid_nb.panels import Table

    g = new_game(names, **game)
    return Table(g, bots=bots, delay=0)


# -------------------------------------------------------------------------------------- the browser

class DomSeat:
    """A ``Seat`` over the table in a real page; clicks go through ``_lab.Driver`` (settled)."""

    def __init__(self, driver: Any) -> None:
        self.d = driver
        self.table = driver.table
        self.panel_loc = driver.table.locator(".pg-panel")

    def status(self) -> str:
        return self.d.status()

    def panel(self) -> str:
        return self.d.panel_text().replace("\xa0", " ")

    def log(self) -> list[str]:
        return [s for s in self.table.locator(".pg-log-lines").inner_text().splitlines() if s.strip()]

    def classes(self) -> set[str]:
        return set(self.panel_loc.evaluate(
            "el => [...el.querySelectorAll('*')].flatMap(e => [...e.classList])"
            ".filter(c => c.startsWith('pg-'))"))

    def buttons(self, prefix: str) -> list[Btn]:
        rows = self.panel_loc.evaluate("""(el, p) => [...el.querySelectorAll('button')]
          .map(b => [[...b.classList].find(c => c.startsWith(p)), b.innerText, !b.disabled,
                     b.classList.contains('mod-info')]).filter(r => r[0])""", prefix)
        return [Btn(c, t.replace("\xa0", " ").strip(), e, s) for c, t, e, s in rows]

    def click(self, cls: str, kind: str, changes_game: bool) -> None:
        self.d.click(self.panel_loc.locator(f"button.{cls}").first, kind, changes_game)

    def options(self, cls: str) -> list[str]:
        box = self.panel_loc.locator(f".{cls}")
        if not box.count():
            return []
        sel = box.first.locator("select option")
        texts = sel.all_inner_texts() if sel.count() else box.first.locator("button").all_inner_texts()
        return [t.replace("\xa0", " ").strip() for t in texts]

    def pick(self, cls: str, index: int) -> None:
        self.panel_loc.locator(f".{cls} select").first.select_option(index=index)

    def toggle(self, cls: str, label: str) -> None:
        buttons = self.panel_loc.locator(f".{cls} button")
        i = self.options(cls).index(label)
        target = buttons.nth(i)
        if "mod-active" not in (target.get_attribute("class") or ""):
            self.d.click(target, "toggle", False)

    def _handle(self, cls: str) -> Any:
        return self.panel_loc.locator(f".{cls} .noUi-handle").first

    def slider(self, cls: str) -> tuple[int, int, str]:
        h = self._handle(cls)
        index = round(float(h.get_attribute("aria-valuenow")))
        count = round(float(h.get_attribute("aria-valuemax"))) + 1
        label = self.panel_loc.locator(f".{cls} .widget-readout").first.inner_text().strip()
        return index, count, label

    def slide(self, cls: str, index: int) -> None:
        now = self.slider(cls)[0]
        if index == now:
            return
        h = self._handle(cls)
        key = "ArrowRight" if index > now else "ArrowLeft"

        def press() -> None:  # click the handle (it stays), then the arrow keys move it a step each
            h.click()
            for _ in range(abs(index - now)):
                self.d.page.keyboard.press(key)
        self.d.click(press, "hybrid", False)

    def amount(self) -> int:
        return int(self.panel_loc.locator(".pg-bid-amount input").first.input_value())


# ------------------------------------------------------------------------------------------ search

HANDOVER_ROUND = 4  # the browser test hands the human seat to a bot for one move here (resources)
# The game the browser test sets up in the form: "You" (human) against one bot, this edition and map; the
# form's defaults for the rest (random regions, no default starting cities, the Trust on: R128)
NAMES, BOT, EDITION, MAP = ("You", "Bo"), "heuristic", "recharged", "germany"


def headless_game(seed: int) -> tuple[Any, Player, int]:
    """Play ``seed``'s game as the browser test does, on the widgets: the policy, and at the first
    resources turn of round ``HANDOVER_ROUND`` one move of a heuristic bot for the human's seat (the
    seat handed over and taken back). Returns the table, the player and the clicks made."""
    from powergrid_nb.bots import make_bot

    table = widget_table(list(NAMES), {NAMES[1]: BOT}, seed=seed, map=MAP, edition=EDITION,
                         starting_cities=False, trust=True)
    seat = WidgetSeat(table)
    clicks = [0]
    click = seat.click

    def counted(*a: Any) -> None:
        clicks[0] += 1
        click(*a)
    seat.click = counted  # type: ignore[method-assign]
    player = Player(seat)
    player.play(lambda: round_of(seat.status()) >= HANDOVER_ROUND and panel_kind(seat) == "resources")
    g = table.game
    g.apply(make_bot("heuristic", seed=g.seed + g.players.index("You")).act(g))
    table.refresh()
    table.run_bots()
    player.play()
    return table, player, clicks[0]


def main(argv: list[str]) -> None:
    """``--search LO HI``: play the seeds in [LO, HI) headless (:func:`headless_game`); one line each."""
    import time

    if len(argv) != 3 or argv[0] != "--search":
        raise SystemExit("usage: python tests/_whole_game.py --search LO HI")
    lo, hi = int(argv[1]), int(argv[2])
    for seed in range(lo, hi):
        t0 = time.perf_counter()
        table, player, clicks = headless_game(seed)
        g = table.game
        first = {k: v[0]["status"].split(" · ")[0] for k, v in player.seen.items()}
        print(seed, "rounds", g.round, "clicks", clicks, "over", g.is_over, "winners", g.winners,
              "You cities", len(g.cities_of("You")), first, {k: len(v) for k, v in player.seen.items()},
              f"{time.perf_counter() - t0:.1f}s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
