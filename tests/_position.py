"""The one position builder of the tests, and the one ``assert_illegal``.

A position is built as a user builds one: a public :class:`powergrid_nb.Scenario` of
``new_game(...)``, edited with its setters, then ``Scenario.game()`` (which validates it, and says
what is wrong field by field). The tests never write the save format by hand.

What the builder always decides (so a test knows exactly what it gets):

* players: ``who[name]`` gives money (default 50, the Trust 0), plants (newest last), tokens
  ((c, o, g, u) or a dict) and cities (names, or ``i`` for the i-th city of the play area);
* cards: ``market`` (default: the 8 lowest plants not placed elsewhere), ``deck`` (its top cards),
  ``removed`` and ``boxed``; every other plant goes where ``rest`` says, see :func:`position_from`;
* the rest of the state: no houses but the players' cities, no flags, marks, Step 3 trigger or
  draws so far, top card unknown, empty history. ``to_act`` and the auction round are left to the
  loader's defaults for the start of ``phase`` unless given.

The per-area helper modules (``_helpers_phases`` and co.) are thin adapters that keep their
historical defaults; new tests call :func:`position` directly.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from powergrid_nb import Action, Game, IllegalAction, Scenario, new_game
from powergrid_nb.engine.phases.resources import TOTALS
from powergrid_nb.engine.rules.plants import PLANTS, RESOURCES, STEP3

S3 = "step3"  # the Step 3 card as scenario dicts spell it
RESTS = ("deck", "removed", "boxed", "shuffled")


def card(c: Any) -> int:
    """A card as the engine numbers it ("step3" -> STEP3)."""
    return STEP3 if c == S3 else int(c)


def card_out(c: Any) -> int | str:
    """A card as a scenario dict spells it (STEP3 -> "step3")."""
    c = card(c)
    return S3 if c == STEP3 else c


def token_dict(t: Any) -> dict[str, int]:
    """(coal, oil, garbage, uranium) or a dict (missing types 0) as a scenario ``tokens`` dict."""
    if t is None:
        return {}
    if isinstance(t, Mapping):
        return dict(t)
    return dict(zip(RESOURCES, t, strict=True))


def who_of(money: Mapping | None = None, plants: Mapping | None = None, tokens: Mapping | None = None,
           cities: Mapping | None = None) -> dict[str, dict[str, Any]]:
    """Per-field dicts ({name: money}, {name: plants}, ...) as the ``who`` of :func:`position`."""
    out: dict[str, dict[str, Any]] = {}
    for field, per in (("money", money), ("plants", plants), ("tokens", tokens), ("cities", cities)):
        for name, v in (per or {}).items():
            out.setdefault(name, {})[field] = v
    return out


def position(players: int | Sequence[str] = 4, edition: str = "original", map: Any = "germany", *,
             seed: int = 11, regions: Sequence[str] | None = None, options: Mapping | None = None,
             **edits: Any) -> Game:
    """A position of ``new_game(players, map=map, edition=edition, seed=seed, regions=regions,
    **options)`` (``regions=None``: the seed's choice); ``edits`` as in :func:`position_from`."""
    g0 = new_game(players, map=map, edition=edition, seed=seed, regions=regions, **dict(options or {}))
    return position_from(g0, **edits)


def position_from(g0: Game, *, round: int = 2, phase: int = 3, step: int = 1,
                  who: Mapping[str, Mapping[str, Any]] | None = None,
                  order: Sequence[str] | str | None = None, seats: Sequence[str] | None = None,
                  market: Iterable | None = None, deck: Iterable = (), rest: str = "deck",
                  removed: Iterable = (), boxed: Iterable = (), resources: Any = None,
                  discount: int | str | None = None, to_act: Sequence[str] | None = None,
                  flags: Mapping | None = None, marked: Sequence[str] = ()) -> Game:
    """The game of ``g0`` (its players, edition, map, regions, seed and options; nothing of its play)
    at the start of ``phase`` of ``round``, in Step ``step``.

    order: player order (default Ada, Bo, ... with the Trust second; ``"dealt"``: g0's order; the
    Trust is put second when missing); seats: seat order (default: the order without the Trust).
    rest: where the plants not placed anywhere go: "deck" (below ``deck``, ascending), "removed"
    (out of the game), "boxed" (in the box, so ``deck`` is the whole deck) or "shuffled" (left to
    the loader: shuffled by the seed). The Step 3 card, unless placed, ends the deck ("boxed": goes
    to the box). resources: the market's tokens, (c, o, g, u) or a dict over the default; default:
    the edition's initial market, less what would exceed R1 with the tokens handed out.
    discount: the plant under the Recharged discount token, or "lowest" (R40: the lowest in the
    market). to_act: who is still to act in ``phase`` (default: the loader's, the whole phase).
    """
    if rest not in RESTS:
        raise ValueError(f"rest must be one of {RESTS}, not {rest!r}")
    sc = Scenario.from_game(g0)
    names, trust = list(g0.players), g0.trust
    play_area = list(g0.map.cities_in(g0.regions))
    who = who or {}
    sc.set_round(round)
    sc.set_step(step)
    sc.set_phase(phase)
    order = list(g0.player_order if order == "dealt" else order or names)
    if trust and trust not in order:
        order.insert(1, trust)
    sc.set_order(order)
    sc.set_seat_order(list(seats) if seats is not None else [n for n in order if n != trust])

    top, removed, boxed = [card(c) for c in deck], [card(c) for c in removed], [card(c) for c in boxed]
    owned = [card(c) for w in who.values() for c in w.get("plants", [])]
    placed = set(top) | set(removed) | set(boxed) | set(owned)
    market = [card(c) for c in market] if market is not None else \
        [c for c in sorted(PLANTS) if c not in placed][:8]
    placed |= set(market)
    others = [c for c in sorted(PLANTS) if c not in placed]
    if STEP3 not in placed:
        others.append(STEP3)
    if rest == "removed":
        removed += [c for c in others if c != STEP3]
        top += [c for c in others if c == STEP3]
    elif rest == "boxed":
        boxed += others
    elif rest == "deck":
        top += others
    elif top:
        raise ValueError("rest='shuffled' deals the whole deck; leave deck empty")
    sc.set_plant_market(market)  # first: a plant of g0's market a player is to own goes back to the deck
    for n in names + ([trust] if trust else []):
        w = who.get(n, {})
        sc.set_money(n, w.get("money", 0 if n == trust else 50))
        sc.set_plants(n, w.get("plants", []))
        sc.set_tokens(n, {r: 0 for r in RESOURCES} | token_dict(w.get("tokens")))
        sc.set_cities(n, [play_area[c] if isinstance(c, int) else c for c in w.get("cities", [])])
    sc.set_removed(removed)
    sc.set_boxed(boxed)
    if rest != "shuffled":
        sc.set_deck_top(top)

    initial = sc.resources()
    if resources is None or isinstance(resources, Mapping):
        held = [sum(token_dict(w.get("tokens")).get(r, 0) for w in who.values()) for r in RESOURCES]
        fit = {r: min(initial[r], TOTALS[k] - held[k]) for k, r in enumerate(RESOURCES)}
        sc.set_resources({**fit, **(resources or {})})
    else:
        sc.set_resources({r: 0 for r in RESOURCES} | token_dict(resources))
    plants = [c for c in market if c != STEP3]
    sc.set_discount(min(plants) if discount == "lowest" else discount)
    sc.set_flags(flags or {})
    sc.set_marked(marked)
    sc.set_top_known(False)
    if to_act is not None:
        sc.set_to_act(to_act)
    if rest == "shuffled":
        sc.deal_deck()  # last: the loader deals only to a position it can load
    return sc.game()


def random_game(players: int | Sequence[str] = 4, map: Any = "germany", edition: str = "original", *,
                seed: int = 1, moves: int = 0, **options: Any) -> Game:
    """A seeded game ``moves`` decisions in (fewer if it ends), each a seeded uniform-random legal one."""
    g = new_game(players, map=map, edition=edition, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def assert_illegal(g: Game, action: Action | str, rule: str) -> IllegalAction:
    """``g.apply(action)`` (an Action or its text) raises IllegalAction for ``rule``, the message
    names the action and the rule, and nothing is half-applied: ``g.to_dict()``, the undo stack and
    the legal actions are exactly as before. Returns the exception."""
    text = str(action if isinstance(action, Action) else Action.parse(action))
    before, stack, legal = g.to_dict(), g.actions, g.legal_actions()
    try:
        g.apply(action)
    except IllegalAction as e:
        error = e
    else:
        raise AssertionError(f"{text} was accepted; expected IllegalAction ({rule})")
    assert error.rule == rule, f"expected {rule}, got {error.rule}: {error}"
    assert str(error).startswith(f"{text}: {rule}: "), f"the message must name {text} and {rule}: {error}"
    assert g.to_dict() == before, f"{text} was refused but changed the game"
    assert g.actions == stack, f"{text} was refused but changed the undo stack"
    assert g.legal_actions() == legal, f"{text} was refused but changed the legal actions"
    return error
