"""Lesson 4, turn order and catch-up: the player order, who buys first, what going last costs, intervals."""

from __future__ import annotations

import functools

from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.lessons.checker import Exercise, Lock, Mistake

__all__ = ["BIGGEST", "CITIES", "EXERCISES", "LOCKS", "start"]

# the position of exercises 4.1 and 4.2: cities on the map and each player's biggest plant
CITIES = {"Ada": 5, "Bo": 6, "Cy": 6, "Dee": 4}
BIGGEST = {"Ada": 25, "Bo": 20, "Cy": 31, "Dee": 13}


@functools.cache
def _start() -> Game:
    return new_game(4, map="germany", edition="original", seed=1)


def start() -> Game:
    """The position of exercise 4.3: a fresh 4-player original game on Germany (seed 1)."""
    return _start().copy()


EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "4.1", "Cities on the map: Ada 5, Bo 6, Cy 6, Dee 4 (`CITIES`); biggest plants: Ada 25, Bo 20, "
        "Cy 31, Dee 13 (`BIGGEST`). Give the player order of the next round as a list of names, first "
        "player first.",
        kind="list",
        mistakes=(Mistake("the tie between Bo and Cy is broken by the biggest plant (R19), not by the name "
                          "or the seat."),
                  Mistake("that is the reverse order (the one phases 3 and 4 use, R45, R54); the player "
                          "order itself starts with the most cities (R18).")),
        hint="most cities first (R18); a tie is broken as R19 says."),
    Exercise(
        "4.2", "In the same position, who is the first to buy resources in phase 3? (a name)",
        kind="text",
        mistakes=(Mistake("that is the first player, who opens the auction first (phase 2) but buys "
                          "resources last: phase 3 goes in reverse player order (R45)."),),
        hint="find the player order first (4.1), then read R45."),
    Exercise(
        "4.3", "On the opening coal market of a 4-player game (`start().market_cost(coal=...)`), two "
        "players each want 4 coal. How many Elektro more does the one who buys second pay than the one who "
        "buys first?",
        unit="Elektro",
        mistakes=(Mistake("that is what the second buyer pays in all; the question asks how much more than "
                          "the first buyer."),
                  Mistake("that is the cost of all 8 tokens together, not the second buyer's extra cost.")),
        hint="the second buyer's tokens are the next ones up the track, after the first buyer's 4."),
    Exercise(
        "4.4", "In 10 games the leader won 7. What is the lower end of the 95% Wilson interval of the "
        "leader's win rate? (a share, e.g. 0.42; `powergrid_nb.play.results.wilson`)",
        tolerance=0.005, step=0.001, share=True,
        mistakes=(Mistake("that is the normal approximation p - 1.96·sqrt(p(1-p)/n); with 10 games it is "
                          "off, and it can even go below 0 or above 1. Use the Wilson interval."),
                  Mistake("that is the measured share itself; the question asks for the lower end of "
                          "its interval.")),
        hint="the Wilson interval is the one the lesson's tables use; with 10 games it is wide and not "
             "centred on the measured share."),
    Exercise(
        "4.5", "With rules={'reverse_order': [4]}, in which of the phases 2, 3 and 4 does the leader act "
        "first? (a set of phase numbers)",
        kind="set", items="number",
        mistakes=(Mistake("the leader also acts first in phase 2: every auction round starts with the first "
                          "player in player order (R26)."),
                  Mistake("reverse_order lists the phases that *stay* reversed (leader last); [4] keeps "
                          "building reversed, so phase 3 is the one that changes.")),
        hint="reverse_order lists the phases played leader last; which of 2, 3, 4 are not among them, and "
             "who opens the auction (R26)?"),
    Exercise(
        "4.p1", "Pencil and paper. Three players: Ada has 7 cities and plant 22 as her biggest, Bo 7 cities "
        "and plant 25, Cy 8 cities and plant 15. Who builds first in phase 4? (a name)",
        kind="text",
        mistakes=(Mistake("that is the first player, who builds last: phase 4 goes in reverse player "
                          "order (R54)."),
                  Mistake("Bo and Ada tie on cities; Bo's bigger plant puts him ahead in player order "
                          "(R19), so he builds after Ada in the reverse order.")),
        hint="find the player order (R18, R19), then reverse it for phase 4 (R54)."),
    Exercise(
        "4.p2", "Pencil and paper. 9 oil are on the market: 3 each on the spaces priced 6, 7 and 8. Bo and "
        "you each want 3 oil, and Bo buys first. How many Elektro more than Bo do you pay?",
        unit="Elektro",
        mistakes=(Mistake("that is what you pay in all; the question asks how much more than Bo."),
                  Mistake("that is what all 6 tokens cost together.")),
        hint="Bo empties the cheapest space; you start on the next one."),
)

LOCKS: dict[str, Lock] = {
    "4.1": Lock(
        "4af8f626813ed90e725c0eda5d2143fa",
        "ufgodVSNIUTP+xSEqa39P8GebugeWgjtnfLjaD02n3yoHWmEJTNC//jgtRAmGC+xgYlasfdLMYMfNuCZaZZNPdKsMXEnyg"
        "/uXkqiRcQ9DuJwkxYARDkniHF35kZnimPndXdccYQD8JpD5cg003sa6JjJxy2DiAj3jZvah4VzFhmUVS/F7XSqTbL1qKa/"
        "iZX7RU4e31opAbZ38DK9eeA=",
        (
            "ee4978f878cbdae2c2324fd91e0fa082",
            "1098e8e2a15666a1b632d44c02675f64",
        ),
    ),
    "4.2": Lock(
        "3697cd86422af4e47b8e94d3027744c2",
        "s/vGoUAxpAShVPdRJoCSAQ0cyERM/iVJj+NgnH7Kr7Sw3ghFr/3vsI68Pn4BkZmQyUd6qE4drDPY2bElL9TKsfeQfTMnu5"
        "LqbdelGgqyQ4z8LKvDkvOTnSr4VSy0s1zAPhEL5vR3VxfC/f+SKIy0AVLuKmK2dX5IfICjqPPRaL3+P1XkMpmkZmDd",
        (
            "9006b0a8ba5711b1066e6352e4e0c1ff",
        ),
    ),
    "4.3": Lock(
        "c4c7bf158923350ba3d55090566b2f7d",
        "pxKpxIbq5fhJfHOtbxGsKGE2iOVfmodcjMZKCtqQZrPK3gGF1f50l6V8g3XTrC8HKj+zuKMd2oIpJIDp2CLSrR1RwjLNpx"
        "a3u5GGb1Dhc30GQhj8LthyRJdk+e1nPr7QP3RFixuoxBglYXm+Cw6Qr3iBJuBSlbcqwl9KXbxCiMUhAKhaypxGGuIjIDWo"
        "ZztqGX9PtcE6jFEFJu9/8bBZF0hJGfa0",
        (
            "eb4cdfd16120b3e64b5bfaddb379bc55",
            "9d5eb1f0967a1b83f987496f539fa4ee",
        ),
    ),
    "4.4": Lock(
        "edff35d417d23be14dfa14821d1c45be",
        "w1wWOjpqRJ4vZyHApzHt0+aZFxqclLf4mS8dJxx9IaM50Xl04Sxl1OFg6cowEOcElo4f4b3JmZLJA18OvwjhZxBEWFiREa"
        "th3z3TVo6s0MVgIbLeyO65mkh1rpf5WMZUukMug4s2MbwEqkmh2ep8d3V/zabHQN1NB2JO435Bt+Fa8EIWv6ESbOI=",
        (
            "04127a619f54ccf86b150c32081ae68b",
            "6af825e8ca7c9074d9d02f5100cdcb99",
        ),
    ),
    "4.5": Lock(
        "7ea4dcbef137c8ae5c0bbe3a6da873f9",
        "E4ZYwYybQHkKQGQiEIoUFkg3/JJ4zRDTtqAr2TgQtDammJQrOyY9fJp0z6oTr1v6CZYFsWXlHcnXhAm65aKkWty3+1hUZZ"
        "R+6cNrUK9PnS1qXfdqmEUnrb5TTAPluz915ubYtye9inPt33x9qdmpsWFjiPaYR0UONmYP3V9GeroMpfwID4nN9ldC9QzG"
        "68J1I27IoxHRRF3fIG35xuxm8D/Jx/UbGXKIq5QcYuq8rHi903YP/J5mUBFlHdmYyzbns394pCw=",
        (
            "af17c5f5052da527708d42a296f918dd",
            "532521d29386194bf56f86e7d995f114",
        ),
    ),
    "4.p1": Lock(
        "96d506b85849aa6bc5003bef8d5128e1",
        "5RyOsTwtJpZjtA3o5FBTdFrYzniocSShVwH+fHRJZCQW0zUIuoEzb1OpWRdLgTmMEA0aRnRdx+3EQ63RaXf5PmEzdjqM9P"
        "7MFMBCfFENQTeJ/O1N5PNX9KcS3AxDJsB2FL4MudtlSIRSc+KtVRQNPbCqn4aKf+9GOkMgEZrEj+zJbiPECTuZtjMeeT/T"
        "xx11SiGlGppCxXWZPE0Ev1dC6n3xjeMS9qfiksXJkPVMp4He1FaTKneGQg==",
        (
            "9d0b485613756dfcd495d5beeefc90e2",
            "ae66b0f16ace1077e23a71f83f4269fc",
        ),
    ),
    "4.p2": Lock(
        "00bce35c32868c621a4a3ce406b7c59c",
        "+A1K6ZKx+JGYDhD6iOGMjQkpV3GYpgpfKVLMKYjZ66mmzPwndUQVDec0XdMwq+cslzrPT2Rq2+usPY0+vkXoG9fdjiLmDU"
        "lv8C11lgABMvenZlJ+k+utHJnYscSWdLH6PnjKYH5qo3ldk7BDs1PcGpI=",
        (
            "b2cb8b447679625101a8bed45902b4ad",
            "3d695d4da357fb4a06697d9901797967",
        ),
    ),
}
