"""Exercises of lesson 3, networks (``notebooks/lessons/03_networks.ipynb``)."""

from __future__ import annotations

from powergrid_nb.lessons.checker import Exercise, Lock, Mistake

__all__ = ["EXERCISES", "FORK", "GRAPH", "LOCKS"]

FORK = ["Nürnberg", "Dresden"]
"""The two cities Ada adds in exercise 3.3 (her only house is in Bremen)."""

GRAPH = {("A", "B"): 10, ("B", "C"): 12, ("A", "C"): 20, ("C", "D"): 6, ("B", "D"): 15}
"""The small map of exercise 3.p1: link -> cost in Elektro."""

_MOST_LINKS = ("that city has the most links, but not the cheapest ones: count the link costs "
               "(closeness with distance='cost'), not the links.")

EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "3.1", "Step 2: a city holds one house of another player. What is the slot price of a house "
        "there for you, links left out (R56, `g.rules.tables['build_prices']`)?",
        unit="Elektro",
        mistakes=(Mistake("that is the price of the first (empty) slot; the city's first slot is taken."),
                  Mistake("you pay only the lowest empty slot (R56), not the slots before it too.")),
        hint="slots fill from the cheapest, and you pay only the lowest one still empty (R56)."),
    Exercise(
        "3.2", "In a new game (`g = new_game(4, seed=1)`), what do the cheapest 3 cities cost a player "
        "who has no city yet, in Step 1 (`powergrid_nb.bots.planner.cheapest_cities`)?",
        unit="Elektro",
        mistakes=(Mistake("that counts the slots only; the second and third city pay their links "
                          "too (R60)."),),
        hint="the first city needs no link; each further city pays its slot and its cheapest path from "
             "the cities already chosen (R59, R60)."),
    Exercise(
        "3.3", "In the Bremen position of lesson 3 (`fork`: Ada's only house is in Bremen), what does the "
        "engine charge her to add Nürnberg and Dresden in one turn?",
        unit="Elektro",
        mistakes=(Mistake("that is the Steiner tree's price, the links shared; under R62 every city pays "
                          "its own path again, so a link on both paths is paid twice."),
                  Mistake("that is what three cities cost: Erfurt, where the two paths fork, and both "
                          "targets. A house in Erfurt makes the fork real, so the shared link is paid once, "
                          "but the question asks for Nürnberg and Dresden alone."),
                  Mistake("that builds each city on its own path from Bremen; in one turn the second city "
                          "may start from the first (R60), which is cheaper.")),
        hint="add the two cities one after the other, in both orders: the second pays its path from the "
             "network, which now holds the first. Which link lies on both paths?"),
    Exercise(
        "3.4", "In the play area of `new_game(4, seed=1)`, which city has the lowest mean cheapest path "
        "cost to all other cities in play (the most central, closeness with the link costs)?",
        kind="text",
        mistakes=(Mistake(_MOST_LINKS), Mistake(_MOST_LINKS), Mistake(_MOST_LINKS)),
        hint="closeness takes the link costs as distances: which city has the smallest mean cost to reach "
             "all the others?"),
    Exercise(
        "3.p1", "Pencil and paper. A small map has the links A–B 10, B–C 12, A–C 20, C–D 6 and B–D 15 "
        "(`GRAPH`). In Step 1 your only house is in A, and you add C and D in one turn (slots at 10). What "
        "is the least it costs, slots and links?",
        unit="Elektro",
        mistakes=(Mistake("that builds D first: D's path from A is dear, and C then costs only its link from "
                          "D. The order matters; try C first."),
                  Mistake("that counts the links only; each new house pays its slot too (R56)."),
                  Mistake("that connects each city to A on its own; in one turn the second city may start "
                          "from the first (R60).")),
        hint="try both orders: the first city pays its cheapest path from A, the second its cheapest path "
             "from A or the first."),
    Exercise(
        "3.p2", "Pencil and paper, Step 2. City X is empty and 14 Elektro of links from your network; "
        "city Y holds one house of a rival and is 8 away. What does the cheaper of the two cost you, slot "
        "and links (slots cost 10, 15, 20)?",
        unit="Elektro",
        mistakes=(Mistake("that prices Y's slot at 10; its first slot is taken, so you pay the second "
                          "(R56)."),
                  Mistake("that is X; following the rival into Y costs a slot premium but saves more "
                          "in links.")),
        hint="price each city as slot plus links; in Y the lowest empty slot is the second."),
)

LOCKS: dict[str, Lock] = {
    "3.1": Lock(
        "b5c3ee3d04eed015241fd8017dec4a8b",
        "6VrUGNXReyC4pN2Zz5BrGkxbSt6awG6MRS6y8NUzNBC4QTZr56ZfqbkAjV3HLdsxi+vZ5AsSyvuEb5csIPQR/Jihz8C1LO"
        "hCI/BeWg3hdKxKvU7CWx0p5bZcoEaR04rzBHmhtKPmyeqLcA1LVzlACpnWv1CU59Ki6vmvOnnVYkcYs3XDIKrDhFD1Laiy"
        "qfoSRuLL5DGnA0KUJokVN2g=",
        (
            "bcf60a2f6f3f619b692046063ae8944b",
            "5cc39e96080d0daa18ce25ff6782c136",
        ),
    ),
    "3.2": Lock(
        "87286bdd95f13cc41beb89760a6eac03",
        "kC5npx74+DAqatB9JGALbH+BLUSgxn9w5EpYAClJkua+VRAzF9HlkHRGY5VNEgbB1hOvb6yYI6FzwfJ8MQIthCBBfHajPr"
        "QkAOiSZQb3FsnE+2+7LJ+XuE4Z8aAzuy+Rr8Isrp/eA5jv6yk6u7fjZDwmTMFRIVWZgVyRxGGnYDypP+ZYy7Ul+r1l66Ej"
        "HyuS",
        (
            "98ea6ef718d7891b5980f9618664be49",
        ),
    ),
    "3.3": Lock(
        "a9c25f7894bae0711341e7d4ecbefebc",
        "WGHJhkyMvJRX57CayU9lgtuFyuxsPs2EhVT7DfNju3nKi9GH6PfEKQ9X0V0dyB2fa1TJBvXzm2ZgGjK24LRS5MjMn8X2gN"
        "L/akVadj3t3/V1vf6StuKlAgWiwLnw3K804nzOEM6UQmTnLWtzGYhpjbsAGTuWMotRVa0Ss0nmINC9fEM3Tu05Zpv9IaLj"
        "IE2AS4fNA10z4NFEO4YBv5f3tUEA48ruX9X92eAK42pDvIPR3IvzhcNec99P/Av4P1+Kd/knvQT3jp23HdQBc1lBmWkt/6"
        "4k3DQkaQkorwuHp+yZWq40mVuke+++DDcmEY45N7XNgcnY3019rEFjp2z55uX2mtlbVXpblNXai/t3SwLtZuOp+EDKMSji"
        "Elt82vHK7Vuq52DGVzWCjeiLcpt0sW18ZVBJcdOfle5EoUY=",
        (
            "aa43f18b1c6453548b108a20bdf3898f",
            "bfdf906e63c5693c3b63a0dd78ec851d",
            "c6209b8b74417391b8fc81ad120f9fa4",
        ),
    ),
    "3.4": Lock(
        "7d3416e51f7510474e36ad7433711799",
        "JiI8Fp+OmCbRVzNAttn2tG0Sr+WHjOoUtCAzkBJKYAgMYIA88xirWQJKqMlHi/ijDYALxUtaO/MFNW6obmep/2KCxZJSKC"
        "mi/1rDftXrt/wWs5rbxp454RFDvmMsdwI83ZcCXmQny6D7Wd6u5gY4FN2LtXF9Sc5fQrqLU1SkMxcqWzPKz7ZNbQlLVsF4"
        "auvI1wpEhd8a7vWB1DDk7ZoaQlCrzjG543nai6OXhGUnEq1A3rfrFm2BLGe1o+Ef1d9o7owbqeg7CLRnZ77GUF61cB++rg"
        "Us6BEi+cHkcuqNqFTqWKn/",
        (
            "bbb8584e754958a77921ae3a71d53ac2",
            "1eef1278610a9eb6769cbed867b88a4c",
            "f3d72e0da592603810909266a1931e2f",
        ),
    ),
    "3.p1": Lock(
        "fe37ebd066289b5f0a2748d934b56640",
        "zgWm0dC0nrHkkLOWXkO+M8rzMqWHq1I1VDcUzwqACe6CZIGPY1BpD7/Y21Airr94zbUn8G46pxidh86FkiVuq8aHTVh/Tu"
        "Gx/W6BklVJa+l001vnQgKhvNVlnE3M96ujmHN/oxeoIR5bR9WhSMbnw8Faz9FWgYIBim6NB+FNgFUh1fil/Iruk3pXJp/g"
        "Cvulkf1dX1cPpWFl7TYJznfc6uU5qZHd3RlYMnyajhFg5oV0Z2zN/I+Ve5ldwLFIRYedrFkpvuS7NMurFw==",
        (
            "9f9e3947e3f4bc41908091e9a7f1619a",
            "889cf8fdf5caaee9d14e0877ec8071ea",
            "36c34ec39a3feaf15688bf31e8b3104b",
        ),
    ),
    "3.p2": Lock(
        "60a494e54150e3d854b60769665c3fb5",
        "onsKwfhy57HewW3oIwFkaIzhH93iTidIFtqXwZybpAssinnXQpAfqrY7U0pKghLqiWtS4QfDBaxUUfKtuOreGat9PFNE9L"
        "FLhjIMslNDpe23A+tvP18ZcN0GLwITvMAKE8+N9EtHUahMbilTta5fm9cpGg==",
        (
            "8d95b9a178096c58b1f0e0d8fe23cdaf",
            "c1c8c3dc15b6940d15638d2b8b7a4038",
        ),
    ),
}
