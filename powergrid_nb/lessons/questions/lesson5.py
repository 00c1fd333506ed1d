"""Lesson 5, income and the endgame: marginal income, powered vs owned cities, the end, tie-breaks."""

from __future__ import annotations

from powergrid_nb.lessons.checker import Exercise, Lock, Mistake

__all__ = ["EXERCISES", "LOCKS", "TIE"]

TIE = {"Ada": (15, 40, 16), "Bo": (15, 40, 17), "Cy": (14, 90, 14)}
"""The end of game of exercises 5.4 and 5.5: (cities powered, money, cities in network) per player."""

EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "5.1", "How much more income does a player earn powering 7 cities rather than 6?",
        unit="Elektro",
        mistakes=(Mistake("that is the whole income for 7 cities, not what the 7th adds."),
                  Mistake("that is the average income per city; the question asks for the marginal income "
                          "of one more city.", tolerance=0.5, step=0.01),
                  Mistake("that is the whole income for 6 cities; the question asks what the 7th adds.")),
        hint="marginal income: one step of the payment table (R110), not its level."),
    Exercise(
        "5.2", "You own 14 cities and your plants, with the fuel you hold, can power 12. What do you earn "
        "this round?",
        unit="Elektro",
        mistakes=(Mistake("that pays for the 14 cities you own; only powered cities earn (R110)."),),
        hint="which number of cities does the payment table use, owned or powered?"),
    Exercise(
        "5.3", "How many cities end a 2-player game in the Recharged edition?",
        unit="cities",
        mistakes=(Mistake("that is the original edition's threshold for 2 players."),
                  Mistake("that is the threshold for 3 players.")),
        hint="the end threshold depends on the edition and on the number of players (R96)."),
    Exercise(
        "5.4", "Original edition, the game is over. Ada powers 15 cities, has 40 Elektro and 16 cities; Bo "
        "powers 15, has 40 Elektro and 17 cities; Cy powers 14, has 90 Elektro and 14 cities (`TIE`). "
        "Who wins? (a name)",
        kind="text",
        mistakes=(Mistake("money only separates players tied on cities powered (R101); Cy powers fewer."),
                  Mistake("Ada and Bo are level on powered cities and money; the next tie-break is the "
                          "larger network (R102).")),
        hint="apply R100, then R101, then R102, each only among those still level."),
    Exercise(
        "5.5", "The same end (`TIE`) in the Recharged edition: who wins? (a list of names)",
        kind="set",
        mistakes=(Mistake("cities in the network break ties only in the original edition (R102)."),
                  Mistake("money only separates players tied on cities powered (R101).")),
        hint="which of the original's tie-breaks does Recharged keep (R101, R102)?"),
    Exercise(
        "5.p1", "Pencil and paper. You power 8 cities, and your plants could power 10. Building 2 more "
        "cities costs 35 Elektro. With the payment table (R110), how many rounds of extra income repay "
        "the 35?",
        tolerance=0.02, step=0.01, unit="rounds",
        mistakes=(Mistake("that divides by the whole income for 10 cities; the 2 cities add only the step "
                          "from 8 to 10."),
                  Mistake("that uses the average income per city (income / cities); the 9th and 10th city "
                          "add less than the average: the table is concave.")),
        hint="what do the 9th and 10th city add to each round's income? That is the step of the table, "
             "not its level."),
    Exercise(
        "5.p2", "Pencil and paper, original edition. The game ends this round. Ada can power 12 cities and "
        "has 20 Elektro; Bo powers 12 and has 35 Elektro. Ada could spend 18 Elektro on coal now to power a "
        "13th city she owns. If she does, who wins? (a name)",
        kind="text",
        mistakes=(Mistake("money decides only between players level on cities powered (R100, R101); the "
                          "coal makes Ada's count higher."),),
        hint="what is compared first at the end (R100), and does the coal change it?"),
)

LOCKS: dict[str, Lock] = {
    "5.1": Lock(
        "563188dd7ef5d39afe13a7d5b1958a15",
        "1zM6w+AmyzmBzt1gIGqevk3UnLMbbwB8rQBoaWiMYNbESVsKZMmXWue7avF98TW21CeO3BdXEhq4ovFvIxIr5k0+5x5rad"
        "sAjMcaDDkB4CkVao8CeGQBLJbOwfkaWraylSzw5HGzworLP2EpOloyf3T1okHV/B6QZJer3fk71MOEVHMT6ugQGiCr4x4f"
        "RsUIXc/shhK6Wz6wKPN7O1wLoRBnmU3IQysx",
        (
            "0869624741dad1dffb787f0dad71f44f",
            "9a868c9e34d99bcf28b099e9ffa89fcf",
            "867a9708da818072197420692806a687",
        ),
    ),
    "5.2": Lock(
        "db7431d31b15ac1cbf29014100ce24f4",
        "9QkdQuYHO/ghHSLcegAVhttSn5s6fm66nyM7PtsA+khUAPgI6EERBUGjLKJ0//eAFMD2PWvYnhLCVUSapRx3bGUmXNj7nz"
        "Y1gaDOB9NlLKhzIZQKT8jMmGYjUf0tkYO17RqFD8mtA8RUF6O2QK6L15EqcfcJb/NlOkP5vYgkaRzEZA8ogmFzA+ELvjy+",
        (
            "d624e2944bb77aba352cb082df050e2f",
        ),
    ),
    "5.3": Lock(
        "e97dc9a65842d694e16dacfb916643dc",
        "tEgrVsqCTaai5mUJSCLQlphvpP9P4qL3lsynQmceBW4CMVvgw/G0Sp7lezhc+oeGJ+ih8eQdazpP6eQPueO+VAXUVg==",
        (
            "a577b0fe15dc9fb6b5a124dca6697a3e",
            "6064886aaaae692644073acf6aa65723",
        ),
    ),
    "5.4": Lock(
        "8896595c72427778e6e95f81d6e34bdb",
        "B4r2k2Svh0Sli60gx7DZ3OShakO6F0/1mLYJLfsNEyP4wj6xbUXy/uamjR740pi9m0CN3Nt0B4SemU1ZHu3YyqYHU2nRCK"
        "u3Y3fkIOoWudPIPC1gjgQVaKBtkacgAN7VysO3u582KzJ4Y3Nqw8PrwNNeJMMKjK2K7WgDiYQetMAPAtjgt4VnKQ==",
        (
            "4c3db1c4ed4b7f4df2cd07a397bda613",
            "453e13760f0f920319cbdcc06fef1baf",
        ),
    ),
    "5.5": Lock(
        "47ee44be77da0b0d16caaf01cec07d3e",
        "EYVn6psMR6e9sy0bNh9FnYuLyB+yKStI3LRB1mqDjFp7uayhDS3w4fOEgUNqlozKuOWR4JQCrIXB7pXkeFlqsXHSFLQKtu"
        "C7lwQ//otVJHmqdTdDfk8eN+IgoP8R7w7ZG6Fgi/B1GcNiWDuJibugBOnF+7A5N6g=",
        (
            "fbfb0af5fe30b893c62de37d86be0886",
            "8496d2c7d00426a118efa1d3dec801a3",
        ),
    ),
    "5.p1": Lock(
        "88a03787703227908578c97ba7c8cd88",
        "BjkA8yNiZXMElPvOkg/0HK3etTWCaxSBzIBZCkhZF32iEfr1v7Arm5RzyXpuWUr1iXbaiX0C0/gsK2nJICDaiX0O0+Y0Di"
        "9393ebwU7zqv8LHEXFi47/dPKsXCevds1S7pNIdo+TrX3tA8k5oRaqJBvpcQHEMjs/wZF+1d6nuXd6YF0CC6+wubILxe05"
        "QYmyP1rrWqU+f/CQd2gw7Vo+3aQv0/SR",
        (
            "73a22eac4f72efdb511fbffc6baa2dd8",
            "30c5fe92cf61fbc8a2fe67f1468bf643",
        ),
    ),
    "5.p2": Lock(
        "684268cf7e4b8934b10c4c4f0e885d1e",
        "5f8xfuFSopQQMbCJskvj5nZYRiurUPTQtQAn5owLGDQfKO93rJDyGOARneGLUuma6qj09LrFxbjcPlot+Xywj9zzISV98Q"
        "mZur6UfjgjT7aNNFAOhIVqaEE6MChQZIO7aWy169MABCO2Z7wzQQtzxfs2F7Trwx/yh7/EwkoMGRUiyV/f218mto/eUUOH"
        "HV3K1HAr/mJNbLO6XuHdiH2S8RGFI3FK3xwV7w==",
        (
            "f3d7d9d748742a1f4084e1e861bb0eb9",
        ),
    ),
}
