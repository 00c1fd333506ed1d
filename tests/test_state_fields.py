"""The state's fields are declared once (``state.FIELDS``: name and how the value is copied); every
other place that lists them agrees with it: ``__slots__``, ``__init__``, ``clone``, ``frozen``/``thawed``,
the compiled engine's ``state.pxd`` and the save format (written by ``game_to_dict``, read by
``_state_from``, or listed in ``saves.NOT_SAVED`` with a reason). A field added in one place only fails
here, naming the place that misses it."""

from __future__ import annotations

import ast
import inspect
import random
import re
import textwrap
from pathlib import Path

import pytest

from powergrid_nb import Game, new_game
from powergrid_nb.engine import state as state_module
from powergrid_nb.engine.io import saves
from powergrid_nb.engine.phases.auction import Auction
from powergrid_nb.engine.state import AUCTION, DICT, FIELD_NAMES, FIELDS, LIST, LISTS, VALUE, State

KINDS = {VALUE, LIST, LISTS, DICT, AUCTION}


class Mark:
    """A value that belongs to one field (equal only to itself), to see where each field's value goes."""

    def __init__(self, field: str, part: str = "") -> None:
        self.field, self.part = field, part

    def __repr__(self) -> str:
        return f"Mark({self.field}{'.' + self.part if self.part else ''})"


def marked_value(name: str, kind: str) -> object:
    """A value of ``kind`` made of marks of field ``name`` only."""
    if kind == VALUE:
        return Mark(name)
    if kind == LIST:
        return [Mark(name, "0"), Mark(name, "1")]
    if kind == LISTS:
        return [[Mark(name, "0")], [Mark(name, "1"), Mark(name, "2")]]
    if kind == DICT:
        return {f"{name}-key": Mark(name)}
    return Auction(Mark(name, "plant"), Mark(name, "bid"), Mark(name, "leader"), [Mark(name, "bidder")])


def marked_state() -> State:
    s = State()
    for name, kind in FIELDS:
        setattr(s, name, marked_value(name, kind))
    return s


def assert_copied(name: str, kind: str, original: object, copy: object) -> None:
    """``copy`` is an equal, independent copy of field ``name``'s value, as its kind says."""
    assert copy == original, f"{name}: {copy!r} != {original!r}"
    if kind == VALUE:
        assert copy is original, f"{name}: an immutable value is shared"
    elif kind == LISTS:
        assert copy is not original and all(a is not b for a, b in zip(copy, original, strict=True)), \
            f"{name}: each player's list must be copied"
    elif kind == AUCTION:
        assert copy is not original and copy.bidders is not original.bidders, f"{name}: Auction.copy()"
    else:
        assert copy is not original, f"{name}: the {kind} must be copied"


def _marks_in(value: object) -> set[str]:
    if isinstance(value, Mark):
        return {value.field}
    if isinstance(value, Auction):
        value = (value.plant, value.bid, value.leader, value.bidders)
    if isinstance(value, dict):
        value = list(value.items())
    if isinstance(value, list | tuple):
        return set().union(*map(_marks_in, value)) if value else set()
    return set()


def test_the_fields_are_named_once_each_with_a_known_kind():
    assert len(set(FIELD_NAMES)) == len(FIELDS) and tuple(n for n, _ in FIELDS) == FIELD_NAMES
    assert {kind for _, kind in FIELDS} <= KINDS


def test_the_slots_are_the_fields():
    assert State.__slots__ == FIELD_NAMES


def test_a_new_state_sets_every_field():
    s = State()
    missing = [name for name in FIELD_NAMES if not hasattr(s, name)]
    assert not missing, f"State.__init__ does not set {missing}"


@pytest.mark.parametrize(("name", "kind"), FIELDS)
def test_clone_copies_each_field_as_its_kind_says(name, kind):
    s = marked_state()
    c = s.clone()
    assert hasattr(c, name), f"clone() does not copy {name}"
    assert_copied(name, kind, getattr(s, name), getattr(c, name))


def test_frozen_lists_the_fields_in_their_declared_order_as_tuples():
    """frozen()'s snapshot: one entry per field, in FIELDS' order, no list or dict (the garbage collector
    does not track tuples of numbers and names; an Auction is kept as a copy)."""
    f = marked_state().frozen()
    assert len(f) == len(FIELDS), f"frozen() has {len(f)} entries for {len(FIELDS)} fields"
    for (name, _kind), entry in zip(FIELDS, f, strict=True):
        assert _marks_in(entry) == {name}, f"frozen() puts {sorted(_marks_in(entry))} where {name} belongs"

    def no_lists(v: object) -> bool:
        if isinstance(v, list | dict):
            return False
        return all(map(no_lists, v)) if isinstance(v, tuple) else True

    assert no_lists(f)


@pytest.mark.parametrize(("name", "kind"), FIELDS)
def test_thawed_restores_each_field_from_frozen(name, kind):
    s = marked_state()
    f = s.frozen()
    t = State.thawed(f)
    assert_copied(name, kind, getattr(s, name), getattr(t, name))
    if kind != VALUE:  # thawing twice gives independent states: the snapshot is not handed out
        assert getattr(State.thawed(f), name) is not getattr(t, name)


def test_the_compiled_engines_declarations_are_the_fields():
    pxd = Path(state_module.__file__).with_suffix(".pxd").read_text(encoding="utf-8")
    declared = [n.strip() for line in re.findall(r"cdef public object (.+)", pxd) for n in line.split(",")]
    missing, extra = set(FIELD_NAMES) - set(declared), set(declared) - set(FIELD_NAMES)
    assert sorted(declared) == sorted(FIELD_NAMES), f"state.pxd: missing {sorted(missing)}, extra {extra}"


def _state_attributes(func: object, ctx: type) -> set[str]:
    """The attributes of ``s`` that ``func`` reads (ctx ast.Load) or sets (ast.Store)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    return {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ctx)
            and isinstance(n.value, ast.Name) and n.value.id == "s"}


def test_the_save_format_writes_and_reads_every_field_or_says_why_not():
    written = _state_attributes(saves.game_to_dict, ast.Load)
    read = _state_attributes(saves._state_from, ast.Store)
    fields = set(FIELD_NAMES)
    assert not (written | read) - fields, f"the save uses {sorted((written | read) - fields)}: not in FIELDS"
    assert set(saves.NOT_SAVED) <= fields and all(saves.NOT_SAVED.values()), "NOT_SAVED: fields with reasons"
    saved = fields - set(saves.NOT_SAVED)
    assert not saved - written, f"game_to_dict does not write {sorted(saved - written)} (or NOT_SAVED)"
    assert not saved - read, f"the loader does not read {sorted(saved - read)} (or NOT_SAVED)"
    assert not set(saves.NOT_SAVED) & (written | read), "a field listed as not saved is saved"


@pytest.mark.parametrize(("edition", "players", "seed"), [("original", 3, 4), ("recharged", 4, 7),
                                                           ("recharged", 2, 5)])
def test_a_save_gives_back_every_saved_field(edition, players, seed):
    """Game.from_dict(g.to_dict()) has every saved field of g's state, at many points of a game."""
    g = new_game(players, edition=edition, seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not g.is_over and moves < 400:
        if moves % 9 == 0:
            h = Game.from_dict(g.to_dict())
            for name in FIELD_NAMES:
                if name not in saves.NOT_SAVED:
                    assert getattr(h.s, name) == getattr(g.s, name), f"move {moves}: {name}"
        g.apply(rng.choice(g.legal_actions()))
        moves += 1
