"""The new-game form (powergrid_nb.panels.SetupForm) and the start of a table from it: seats, edition,
map and regions (R3, R105), seed, the Trust (R128) and the default-starting-cities variant (R134)."""

from __future__ import annotations

import pytest
from _panels import (
    YOU,
    click,
    click_errors_fail,  # noqa: F401 (autouse)
    find,
    has,
    one,
)
from plotly.callbacks import Points

from powergrid_nb import MarkCity
from powergrid_nb.engine.options import DEFAULT_NAMES
from powergrid_nb.panels import SetupForm, play

THREE = ["blue", "cyan", "red"]  # connected regions of Germany


class Started:
    """Records what the form's Start hands over."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def __call__(self, game, bots, delay) -> None:
        self.calls.append((game, bots, delay))

    @property
    def game(self):
        assert len(self.calls) == 1, self.calls
        return self.calls[0][0]


@pytest.fixture
def form():
    started = Started()
    f = SetupForm(on_start=started)
    f.started = started
    return f


def seat_rows(f: SetupForm) -> int:
    return sum(1 for i in range(6) if find(f, f"pg-name-{i}"))


def click_region(f: SetupForm, region: str) -> None:
    trace = next(t for t in f.region_map.data if t.name == region)
    trace._dispatch_on_click(Points(point_inds=[0]), None)


def error(f: SetupForm) -> str:
    return one(f, "pg-setup-error").value


# --- seats ---------------------------------------------------------------------------------------------
def test_default_settings_give_4_players_with_seat_0_human(form):
    assert one(form, "pg-players").value == 4
    assert seat_rows(form) == 4
    assert one(form, "pg-name-0").value == "You" and one(form, "pg-kind-0").value == "human"
    for i in (1, 2, 3):
        assert one(form, f"pg-name-{i}").value == DEFAULT_NAMES[i]
        assert one(form, f"pg-kind-{i}").value == "heuristic"


def test_changing_the_player_count_changes_the_seat_rows(form):
    one(form, "pg-players").value = 6
    assert seat_rows(form) == 6
    assert one(form, "pg-name-5").value == DEFAULT_NAMES[5]
    one(form, "pg-players").value = 2
    assert seat_rows(form) == 2
    assert not find(form, "pg-name-2")


def test_seat_names_and_kinds_survive_a_change_of_player_count(form):
    one(form, "pg-name-1").value = "Zoe"
    one(form, "pg-kind-1").value = "random"
    one(form, "pg-players").value = 2
    one(form, "pg-players").value = 5
    assert one(form, "pg-name-1").value == "Zoe" and one(form, "pg-kind-1").value == "random"


def test_a_change_of_player_count_shows_the_same_seat_rows_again(form):
    rows = list(form.seat_box.children)
    one(form, "pg-players").value = 2
    one(form, "pg-players").value = 4
    assert all(a is b for a, b in zip(form.seat_box.children, rows, strict=True))


def test_start_hands_over_a_game_of_those_settings_and_the_bots(form):
    one(form, "pg-players").value = 3
    one(form, "pg-edition").value = "recharged"
    one(form, "pg-map").value = "usa"
    one(form, "pg-name-1").value = "Zoe"
    one(form, "pg-kind-1").value = "random"
    one(form, "pg-setup-delay").value = 0.2
    click(form, "pg-start")
    game, bots, delay = form.started.calls[0]
    assert game.players == ["You", "Zoe", "Cy"]
    assert (game.edition, game.map.name) == ("recharged", "usa")
    assert len(game.regions) == 3  # R105: 3 players play on 3 regions
    assert bots == {"Zoe": "random", "Cy": "heuristic"}
    assert delay == pytest.approx(0.2)
    assert error(form) == ""


def test_bad_player_names_give_an_error_not_an_exception(form):
    one(form, "pg-name-1").value = "You"
    click(form, "pg-start")
    assert "distinct" in error(form)
    assert form.started.calls == []


# --- regions ----------------------------------------------------------------------------------------------
def test_random_regions_is_the_default_and_locks_the_list(form):
    assert one(form, "pg-random-regions").value is True
    assert one(form, "pg-regions").disabled


def test_the_region_list_offers_the_maps_regions_and_asks_for_the_right_count_R105(form):
    one(form, "pg-random-regions").value = False
    regions = one(form, "pg-regions")
    assert not regions.disabled
    assert set(regions.options) == {"cyan", "brown", "red", "yellow", "blue", "purple"}
    assert regions.description == "choose 4"
    one(form, "pg-players").value = 3
    assert regions.description == "choose 3"


def test_chosen_regions_from_the_list_are_the_games_regions_R3(form):
    one(form, "pg-players").value = 3
    one(form, "pg-random-regions").value = False
    one(form, "pg-regions").value = tuple(THREE)
    click(form, "pg-start")
    assert sorted(form.started.game.regions) == THREE


def test_clicking_a_region_on_the_region_map_chooses_it_and_again_drops_it(form):
    click_region(form, "red")
    assert one(form, "pg-random-regions").value is False
    assert one(form, "pg-regions").value == ("red",)
    red = next(t for t in form.region_map.data if t.name == "red")
    assert red.marker.size == 11 and red.marker.opacity == 1
    click_region(form, "red")
    assert one(form, "pg-regions").value == ()
    assert red.marker.size == 8


def test_regions_chosen_on_the_map_start_the_game_there(form):
    one(form, "pg-players").value = 3
    for region in THREE:
        click_region(form, region)
    click(form, "pg-start")
    assert sorted(form.started.game.regions) == THREE


def test_a_wrong_region_count_shows_the_error_with_the_rule_R3_R105(form):
    one(form, "pg-random-regions").value = False
    one(form, "pg-regions").value = ("red", "blue")
    click(form, "pg-start")
    assert "R105" in error(form) and "4 regions" in error(form)
    assert form.started.calls == []


def test_unconnected_regions_show_the_error_with_the_rule_R3(form):
    one(form, "pg-players").value = 3
    one(form, "pg-random-regions").value = False
    one(form, "pg-regions").value = ("brown", "cyan", "purple")  # not one group of bordering regions
    click(form, "pg-start")
    assert "connected" in error(form) and "R3" in error(form)
    assert form.started.calls == []


def test_changing_the_map_keeps_only_regions_it_has(form):
    one(form, "pg-random-regions").value = False
    one(form, "pg-regions").value = ("red",)
    one(form, "pg-map").value = "usa"
    regions = one(form, "pg-regions")
    assert set(regions.value) <= set(regions.options)
    assert len(form.region_map.data) == len(regions.options)


# --- seed ---------------------------------------------------------------------------------------------
def test_a_seed_makes_the_start_deterministic(form):
    one(form, "pg-seed").value = "1234"
    click(form, "pg-start")
    click(form, "pg-start")
    (g1, _, _), (g2, _, _) = form.started.calls
    assert g1 is not g2 and g1.seed == 1234
    assert g1.to_dict() == g2.to_dict()


def test_a_seed_that_is_not_a_number_gives_an_error(form):
    one(form, "pg-seed").value = "twelve"
    click(form, "pg-start")
    assert error(form) and form.started.calls == []


# --- the Trust (R128) -------------------------------------------------------------------------------------
@pytest.mark.parametrize("trust", [True, False])
def test_the_trust_checkbox_decides_a_2_player_recharged_game_R128(form, trust):
    one(form, "pg-players").value = 2
    one(form, "pg-edition").value = "recharged"
    one(form, "pg-trust").value = trust
    click(form, "pg-start")
    assert (form.started.game.trust is not None) is trust


@pytest.mark.parametrize(("players", "edition"), [(3, "recharged"), (2, "original")])
def test_the_trust_checkbox_is_ignored_outside_2_player_recharged_R128(form, players, edition):
    one(form, "pg-players").value = players
    one(form, "pg-edition").value = edition
    one(form, "pg-trust").value = True
    click(form, "pg-start")
    assert form.started.game.trust is None
    assert error(form) == ""


# --- at the table -------------------------------------------------------------------------------------
def test_start_at_a_table_plays_the_game_with_the_bots():
    t = play()
    f = t.children[0]
    one(f, "pg-players").value = 2
    one(f, "pg-kind-1").value = "random"
    one(f, "pg-setup-delay").value = 0
    one(f, "pg-seed").value = "3"
    click(f, "pg-start")
    assert t.game is not None and t.game.players == [YOU, DEFAULT_NAMES[1]]
    assert t.seat(DEFAULT_NAMES[1]) == "random" and t.delay == 0
    assert t.game.current_player == YOU  # the bot moved first if it had to
    assert has(t, "pg-status") and not has(t, "pg-setup")


def test_default_starting_cities_lead_to_the_mark_panel_R134():
    t = play()
    f = t.children[0]
    one(f, "pg-players").value = 3
    one(f, "pg-edition").value = "recharged"
    one(f, "pg-starting-cities").value = True
    for i in (1, 2):
        one(f, f"pg-kind-{i}").value = "random"
    one(f, "pg-setup-delay").value = 0
    one(f, "pg-seed").value = "5"
    click(f, "pg-start")
    g = t.game
    assert g.phase == 0 and g.current_player == YOU
    pick = one(t, "pg-candidates")
    legal = sorted(a.city for a in g.legal_actions() if isinstance(a, MarkCity))
    assert list(pick.options) == legal
    city = legal[-1]
    pick.value = city
    click(t, "pg-mark")
    assert MarkCity(YOU, city) in g.actions
    assert g.phase != 0 or g.current_player != YOU


def test_a_city_clicked_on_the_map_is_marked_R134():
    t = play()
    f = t.children[0]
    one(f, "pg-players").value = 2
    one(f, "pg-edition").value = "recharged"
    one(f, "pg-starting-cities").value = True
    one(f, "pg-kind-1").value = "random"
    one(f, "pg-setup-delay").value = 0
    click(f, "pg-start")
    g = t.game
    assert g.phase == 0 and g.current_player == YOU
    city = next(a.city for a in g.legal_actions() if isinstance(a, MarkCity))
    t.city_clicked(city)
    assert MarkCity(YOU, city) in g.actions


@pytest.mark.parametrize(("players", "edition", "live"), [(2, "recharged", True), (3, "recharged", False),
                                                          (2, "original", False), (4, "original", False)])
def test_the_trust_checkbox_is_live_only_where_a_trust_plays_R128(form, players, edition, live):
    one(form, "pg-players").value = players
    one(form, "pg-edition").value = edition
    assert one(form, "pg-trust").disabled is not live
