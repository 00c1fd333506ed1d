"""Exercises of lesson 2, power plants as capital (``notebooks/lessons/02_power_plants.ipynb``)."""

from __future__ import annotations

from powergrid_nb.lessons.checker import Exercise, Lock, Mistake

__all__ = ["CITY", "EXERCISES", "LOCKS"]

CITY = 21  # Elektro per new city in exercise 2.3 (slot and links), a given of the question

EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "2.1", "Plant 20 burns 3 coal and powers 5 cities. How many cities does it power per token "
        "(`PLANTS[20]`)?",
        tolerance=0.01, step=0.01, unit="cities per token",
        mistakes=(Mistake("that is tokens per city (3 / 5), the inverse: divide the cities by the tokens."),),
        hint="per token: what the plant gives, divided by what one run burns."),
    Exercise(
        "2.2", "A player powers 5 cities. How much more income per round does a plant that powers 3 more "
        "cities bring (the payment table, R110)?",
        unit="Elektro",
        mistakes=(Mistake("that is the income for powering 3 cities in all, as if the plant were the "
                          "player's only one; the plant adds cities 6 to 8 (marginal, not total)."),
                  Mistake("that is the whole income for 8 cities; the question asks for the extra "
                          "income over the 5 cities already powered.")),
        hint="the plant adds cities 6, 7 and 8: what matters is how the payment table grows over those "
             "steps, not its level."),
    Exercise(
        "2.3", "In a new game (`new_game(4, seed=1)`, today's fuel prices), a player powering 5 cities "
        "buys plant 16 (2 oil, 3 cities) at face value, 16 Elektro, and builds the 3 cities it supplies at "
        f"{CITY} Elektro each. How many rounds of net income (extra income minus one run of fuel) repay "
        "the plant and its cities?",
        tolerance=0.02, step=0.01, unit="rounds",
        mistakes=(Mistake("this counts the card only: the plant supplies 3 cities, and building them is "
                          "part of what the plant costs."),
                  Mistake("this leaves out the fuel: every run burns 2 oil bought at today's price."),
                  Mistake("this counts the income for 3 cities in all instead of the extra income "
                          "over the 5 cities already powered.")),
        hint="payback is the capital (everything you pay to make the plant earn) divided by what it adds to "
             "each round's money, after its fuel."),
    Exercise(
        "2.4", "The market holds only 4 coal and 4 oil (`sc = Scenario.from_game(new_game(4, seed=1))`, "
        "`sc.set_resources({'coal': 4, 'oil': 4})`, `g = sc.game()`). "
        "What does one run of the hybrid plant 12 (2 coal or oil, any mix) cost at the cheapest mix?",
        unit="Elektro",
        mistakes=(Mistake("that is 2 coal (or 2 oil, the same here): the second token of a track costs "
                          "more; a hybrid may mix."),),
        hint="a hybrid may mix: compare all three mixes, remembering that a track's second token costs "
             "more than its first."),
    Exercise(
        "2.5", "In a new Recharged game (`new_game(4, edition='recharged', seed=1)`), what is the "
        "minimum bid of the plant under the discount token (`g.discount`)?",
        unit="Elektro",
        mistakes=(Mistake("that is the plant's number, its minimum bid without the token (R28); the "
                          "discount token changes it (R40)."),),
        hint="the discount token sets its own floor, whatever the plant's number: read R40."),
    Exercise(
        "2.p1", "Pencil and paper. A player powering 4 cities buys a plant for 25 Elektro that lets it "
        "power 2 more, and builds those 2 cities for 20 Elektro each. One run of the plant's fuel costs 5 "
        "Elektro. With the payment table of this lesson (R110), how many rounds of net income repay the "
        "plant and its cities?",
        tolerance=0.02, step=0.01, unit="rounds",
        mistakes=(Mistake("this counts the card only: the 2 cities the plant needs are part of its "
                          "capital (complements: a plant earns nothing without cities)."),
                  Mistake("this leaves out the fuel: each round's run costs 5 Elektro."),
                  Mistake("this divides by the whole income for 6 cities; the plant adds only the step "
                          "from 4 to 6 cities powered.")),
        hint="capital: the card and the 2 cities; each round adds the step of the payment table from 4 to "
             "6 cities powered, less the fuel."),
    Exercise(
        "2.p2", "Pencil and paper. Last round you paid 40 Elektro for plant 20 (3 coal, 5 cities). Coal is "
        "dear now: one run costs 18 Elektro. Without it you power 3 cities, with it 8. By how many Elektro "
        "does running it this round raise your money (a loss is negative)?",
        unit="Elektro",
        mistakes=(Mistake("the 40 Elektro were paid last round whatever you do now: a sunk cost does "
                          "not enter today's decision."),
                  Mistake("this leaves out the fuel: running the plant burns 18 Elektro of coal."),
                  Mistake("this counts the whole income for 8 cities; without the plant you would still "
                          "earn the income for 3, so running it adds only the step from 3 to 8.")),
        hint="compare this round's money with and without the run: income at 8 cities against income "
             "at 3, and the fuel. What was paid last round is the same in both."),
)

LOCKS: dict[str, Lock] = {
    "2.1": Lock(
        "081a0dc4534a9e2634b7721b57d182fa",
        "Df5JO6sGTcW8ZcRMyfLJgrdTOJBhGkE0Co5K7QlhCw48Rnokxfk6Uhi8IwBRJOO4NaQjmpSTnpiBZBOE2GDoiQzTOEvtKg"
        "dUC/NjfMQVPMI6hQ==",
        (
            "48c95efe072cc8e662c25e7d1aa97405",
        ),
    ),
    "2.2": Lock(
        "2e759c3bd5362a16400e23c000acaf85",
        "/OFZC2Qt+RYf41+3+zHxiMQN1907N+VuX1cXNSGRoz8khZJOpOuDuzxTuTEf2G0SuarE8i4zfSgHnjp4kmMpnrF9WFiTLn"
        "6BZo/SJZlJT/F3cfJn5EOlM13AYX3ugKXaT2PlQHIk3Pqyq4WHUXGnnpM4CwZNJ1OWiPUwA+43SurM/rpKcceu82oAqJTX"
        "IpE=",
        (
            "557ed7035f023542a1404b53b8dd1497",
            "4d5be6250a56bc6dd61b5e299a568f03",
        ),
    ),
    "2.3": Lock(
        "645d5744895591573d63c3d04ceeae7e",
        "OB/VchO6pqF0xEAgfV22zhJ8fI4g7409PHQgay8xqRxHJkH4mfdtohwrDKG93q4Dj7xMl1w9jIduKigUGeVty38uo0/bE9"
        "5eCHUkQMhcCXDBoMOBz8Vfqdt5deKDBh0gGYzL6Cu+pImMVYCLRJMIsYoObjXMnISVbn/FwXBCMOyMEavU5MofEWk5jGnZ"
        "49LGCxHc827QkwtwFL72et5vHz3ZzS+E334TLS0ZolmjPClUjoJNHnvfITw390I+ZouB6LUPx1DBEYjoia8e9VnynnO9C7"
        "y0OnHcQmPDjnWDo7ZDNCw1CnuS+Bvo",
        (
            "70bf85aaa5ce5a93d40fdbd93b814dc4",
            "411856d0077863b7a3f2146ccecd29ea",
            "c673a6cae432b82b7f578f629f36456a",
        ),
    ),
    "2.4": Lock(
        "6e9f8b2861608cafb6457df1bb23c894",
        "I9VpTbRDFA+zOvWzu4WtHJwzCYeXvug6EIz2BOsEf64TfEhUCRyqcvxYlvZVK3rENVrT5gJ5c33H6SQT+ZyUCtxWkeD8Z/"
        "vZkI7WXc1rPscie8F3YS2M1AFQsZ79pgoHns2ljmGUujxf3Vz6HtObga6ipUFY2ptvkHG/KnKXnQsHCcEJxy9tvHnqyuR7"
        "iLIrGRBoNTVYo6507vB8UrssG6znvm5DL+A0jwkXyY4eI6xEWjxf3hXGiRTzFr/BsWzyas7V1x+MJeeVADQxGg==",
        (
            "78a6d69b151a82c02136e58ace7210c8",
        ),
    ),
    "2.5": Lock(
        "8b5596f1e915430c382633d266626995",
        "VTyyr06G+2fTGsMfJpOjtxt6+suEwG4YtNqF0e8LgJVvI04pR/Fz+aSxn2ScmvpE/R/HHWNGggQzc//ab7HKms2pPU6p3x"
        "a9RxzEIRvxUgWAL6XCIk6D8vnG+h5USHKvHnT6kM8nUKqFx4T7qX7NNbqYYyg94jxg8ZksEmf/HEsTf8wWUU1hj8IpK3bJ"
        "rgqlDTL1VA6leXE/HGF5uanzZMJYCoAt3PGY",
        (
            "540032a038097307c4bbdb6f33f2ea93",
        ),
    ),
    "2.p1": Lock(
        "5b3358ad4c88903372edcb28f7a1c3a4",
        "4sarsmFs6bUJhBGS9I6A/N5VoGyxTLy8TrpdX0B4PvCRHcMxAyiTqYmpTqhFFN+Jw1MqKAiTBub/nP98QhKCehy8XLGLLI"
        "V9emPACvyBNwBSGTtVQpJy232OJg9q2a1Iu4ylrTFNfX/rVTAPPMSEN8/gk5PoAaU+ycZ3PeUJwduYV18RXQuig6LmUsGm",
        (
            "0ba0cbf550c1b281dc9ef8fdadaa98c6",
            "f5e7fe3c02b6206e08a1e71fa913f9f5",
            "d7fd4885e53f0dbceac1889844b0ac00",
        ),
    ),
    "2.p2": Lock(
        "1672bdbd03670d9a7511450d14d5492c",
        "TVUff10xUp+5xnn5UMEdHJ7AdKcAnlt0laMcpSVT4mOcBraTu5JRIq319q2yZ4KRIktpJP79UlBwQx/fi0hdgcnibDkKgA"
        "ptWP9IPOJOVRVabzOfZtRW8xW4QJjefLoA6xAGj/avZuJqCqctJT/YXgyvD1lLWfi0OMz2CQlaJt48Rlzu+omD4sv+XaAX"
        "+Vo9QZr/sJrI1QemGcqzDbPctZhtqvookhJFJM8=",
        (
            "c900deac54d8ff69bab1537b027245d2",
            "6a7594bffac85103792b1daa06e37e78",
            "6375effdbb911178f3ad132020f421ed",
        ),
    ),
}
