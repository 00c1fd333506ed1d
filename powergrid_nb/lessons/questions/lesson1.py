"""Lesson 1, the resource market: marginal and total cost, the next buyer's price, refills, denial."""

from __future__ import annotations

import functools

from powergrid_nb.engine.game import Game
from powergrid_nb.engine.newgame import new_game
from powergrid_nb.lessons.checker import Exercise, Lock, Mistake

__all__ = ["EXERCISES", "LOCKS", "start"]


@functools.cache
def _start() -> Game:
    return new_game(4, map="germany", edition="original", seed=1)


def start() -> Game:
    """The position of the exercises: a fresh 4-player original game on Germany (seed 1)."""
    return _start().copy()


EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "1.1", "At the start of a 4-player original game (24 coal on the market), what do 5 coal tokens "
        "cost in total? (`start()` gives the position.)",
        unit="Elektro",
        mistakes=(Mistake("that prices every token at the first token's price; the cheap space holds only "
                          "3 tokens, then the price rises (R115)."),
                  Mistake("that is the marginal price of the 5th token times 5; the earlier tokens were "
                          "cheaper. Add the prices token by token.")),
        hint="tokens leave the track cheapest first, and a price holds only for the tokens on its space: "
             "add the tokens' prices one by one."),
    Exercise(
        "1.2", "At the start (18 oil on the market) you buy 4 oil. What does the next buyer pay for one oil?",
        unit="Elektro",
        mistakes=(Mistake("that was the price before you bought; your purchase emptied the cheap space."),
                  Mistake("that is what you paid for your 4 tokens, not the next buyer's price for one.")),
        hint="after your purchase, which is the cheapest space that still holds a token?"),
    Exercise(
        "1.3", "5 uranium tokens are on the market. You buy 3. What does the third token cost you (its "
        "marginal cost)?",
        unit="Elektro",
        mistakes=(Mistake("that is the average cost per token (total / 3); the marginal cost is the price of "
                          "the last token, which is higher on a rising curve.", tolerance=0.05, step=0.01),
                  Mistake("that is the total cost of the three tokens, not the cost of the third.")),
        hint="the marginal cost is the price of that one token: on the uranium track each space holds one "
             "token (R116), so list the prices in the order you take them."),
    Exercise(
        "1.4", "In a 5-player game in Step 3, which resource gets the largest refill each round? "
        "(answer with its name, e.g. 'garbage')",
        kind="text",
        mistakes=(Mistake("coal gets the most in Steps 1 and 2; read the Step 3 column of the "
                          "refill table."),),
        hint="the refill depends on the number of players and on the Step (R108): read that one column of "
             "the refill table."),
    Exercise(
        "1.5", "You buy before Bo. Bo needs 3 oil to run his plants and 5 oil are on the market. What is the "
        "least you must pay to leave fewer than 3 oil for Bo?",
        unit="Elektro",
        mistakes=(Mistake("that buys all 5 tokens; leaving 2 on the market already leaves Bo short."),
                  Mistake("that prices each token at the dearest price; tokens are bought cheapest first "
                          "(R50)."),
                  Mistake("you counted one token too few: with 3 left on the market Bo still gets the 3 he "
                          "needs."),
                  Mistake("you counted one token too many: 2 left on the market already leave Bo short."),
                  Mistake("that is how many tokens you must buy; the question asks what they cost.")),
        hint="Bo is short once fewer than 3 tokens are left: how many must you take, and which ones are the "
             "cheapest?"),
    Exercise(
        "1.p1", "Pencil and paper. The coal track holds 8 tokens: 2 on the space priced 6 and 3 on each of "
        "the spaces priced 7 and 8; the cheaper spaces are empty. What do 3 coal cost you?",
        unit="Elektro",
        mistakes=(Mistake("that prices all three at the cheapest space, but it holds only 2 tokens."),
                  Mistake("that prices all three at the third token's price (the marginal cost); the first "
                          "two were cheaper."),
                  Mistake("that prices all three at the dearest space; you take the cheapest tokens first "
                          "(R50).")),
        hint="take the tokens one by one from the cheapest space that still holds one."),
    Exercise(
        "1.p2", "Pencil and paper, the market of 1.p1. After your 3 coal, Bo buys 2 coal. What does he pay?",
        unit="Elektro",
        mistakes=(Mistake("that is what 2 coal cost Bo before your purchase: you took the cheap tokens, and "
                          "your buying raised his price (an externality)."),
                  Mistake("that is what 5 coal cost from the full market; Bo pays only for his 2.")),
        hint="what is left on the track after your 3 tokens, and which of it is cheapest?"),
)

LOCKS: dict[str, Lock] = {
    "1.1": Lock(
        "f2512e3d8a9bb520b40c5f8f644dc175",
        "oSOAQiqhf5pxtNEFllS6TJcunACLeJ46pPEpdzUh0iSyp6mwO4LDXL6O23qzyPLtxI0jG7lkOI0aUe8EEZl2AZeyK16iNP"
        "ZZipRw44PYv/s38XAGYJiyOTH4TqXd8qpvYjxIyTI=",
        (
            "88014a401b03ae1f4f5c9bb8414cdf44",
            "963ab76bea9d4277551d98c29e384b94",
        ),
    ),
    "1.2": Lock(
        "b0834414fc803f60d6f68e15f2dc8da5",
        "FO6D7j+JujVc1Xm4Xr5zvVcTjnIZpXN5c8U07DUUGYRaNaTGYeq38Cv6+zmYIQiaHz0MBy8/jvC/OTZYvGhjeXf3/rj4CO"
        "GLEQv1HFmxozDXXBo8HFaM/rhns3BRycH/Ka9sUBHthGxXBBGabhpvzscoWrfYlZQ3mgnxseJyl5kbdnhah2pi",
        (
            "3e363ca63b4997c2b356924260b8febf",
            "049d6f9d3bc27d578ba8c560ed5bc2b8",
        ),
    ),
    "1.3": Lock(
        "213659831edee29f23a982759e21e39b",
        "vv3RCjGnSWFqXGv+epOKdGgio1BJX5Mq/3966ym0iWXAMpSxh50ttTw7fj1LKUU0xRsi0clhP190vPnVFFKWi1qkt3hu28"
        "xddMRgvxnM3Ci+b6CXeVcGf45LtG8MRD35ZdcRA3Wj6aE/6ls+nt+azxtIk/WFq1QSgu7W8Kh/FQKVZkSTP4N8ddbjB/Nv"
        "PnmlGpszJ2h2QOY/g1KvyGWX/EYQL3hMtCXJRTWNpBJ+cCDZNABNaxYhCC9L+PSUEmLAvBSTmyVZjOn5++u66ioJh2MIqn"
        "Y=",
        (
            "75414a12b87dd22c85af18d9caa086dc",
            "7ee6dc305b376f2f32a1e9c45080cfbc",
        ),
    ),
    "1.4": Lock(
        "71dde703654fe50f28e13dcb10b80c5b",
        "PztYmHUqAxLM2XR0DQRB3w0IZJE7S+nTmx7zEnKEpZ0J+TkBOFVewwtyODRG7BptSZS88p71lbgSiMx43n56vvw+dXa8s9"
        "9kXmZb03/FtQv0S3bt50NFjrIUsYM87BnkrPmnf3gIzlNouLBNCTU9PVoQ7C+noq9dsvKgIveOT38lMc+KVnlo",
        (
            "3449b9c77d257b1fbb559a6f4b07b904",
        ),
    ),
    "1.5": Lock(
        "13e9b5c52f8ec1f5738a337d2313c0ac",
        "edstTLfBlhJuyPZb6t/XEyiWUNfWgLwNlnBsBcURqX3voWrXk/6SxYdpJ+6pmTfUaTuZDBwda5cPcqg+rubHGb/MOnY6AN"
        "deR4OIkU3DWOsovFD2fqA57/mpUcgTktD3JtKcqQVMOUWGhKs2GRlSw04xRvWQI/a53Ld3xNr8pIqbFJIVOVaHPMM/OOkZ"
        "PA144EwpAuXBqD2VtwmZRyP3x7wFa1kkBkHVHfk3NPakbb2jKyLUxUw=",
        (
            "addc9ed2171d89816baa2bc955bc03f0",
            "04df7c0ff9eaaeb3d3055a828b1bc72d",
            "53c35c273fc7dd2ea7ba67feca474657",
            "650a2f0bd2a1c440ff9d51ec3903f3c5",
            "e5175c0f32ffb6fd7ce7bbfb41927155",
        ),
    ),
    "1.p1": Lock(
        "19ea56b0c40633cb550074df111f83ef",
        "xAiD7a3IJvRWN9oskN6pudTGbJVSBXm+ccB91B+ugtTCRhs6eoBqLAoVKa/I9t2ugX2V6a0+cD+CsGDN9CZuvAjMk/c4hG"
        "ik9KXrYeHHDmIrsgv4XhwEDUeqgMQgcHAe1HpFDrt0k9mgwaIqDjEq2umrhQ5o8q65Iqo=",
        (
            "56dd37df1bbc37c344670f3d5462c551",
            "59814dbcd6a12bbc6cfd7fea0903c411",
            "4a85a9c85b4250286bef3458936436c5",
        ),
    ),
    "1.p2": Lock(
        "1e30649398bdbad80c0499ffa4099d18",
        "CzR8DuKR6QkQoLo5nmMPuu42ioEho6tNtZr7r2AgWbkOr9UO3Zx1sdcV76xrDGhrYyiHZbqv/A8Lh52AhcwiautGQ5iHEr"
        "s+jc8YJGrmRQ+ASqXY3YT2cE4xtvoRN/Myii49gq/9Ogi2cnA+oaovJnH2Hu+g5EDhs203tDXI+sknmC6aMBp8PgdERiDZ"
        "4/awjoJLc4BiTpwveFv1k+DEaM2oDqEW6iVwsR3skwm7uO3kn7J1IyRJjyb9FpkPOMkeeyzP8hMuP+eCvSR2MiXVehh5hG"
        "wy",
        (
            "76faafa7577b2c72b90084fa45bb803d",
            "3a373e4ce7f518183104d8fd902a398a",
        ),
    ),
}
