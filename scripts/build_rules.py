"""Build the rules the package ships (``powergrid_nb/engine/rules/data/rules.json``) from the rules
specification, ``docs/rules.md``, their one source.

    python scripts/build_rules.py            # reads docs/rules.md
    python scripts/build_rules.py other.md   # or another copy of the specification

The specification cites the source rulebooks by key, marks open points and talks to engine authors. The
shipped text is the same rules in words for players: source keys and translation remarks are left out,
edition tags become words ("Original edition:", "Recharged:"), and each open point becomes a note saying
how this package plays it. Run it after editing docs/rules.md and commit the JSON;
``tests/test_rulebook.py`` checks that the shipped file is this script's output on docs/rules.md.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "docs" / "rules.md"
OUT = ROOT / "powergrid_nb" / "engine" / "rules" / "data" / "rules.json"

# section number of docs/rules.md -> the game phase its rules are about (None: the whole game)
PHASE_OF_SECTION = {3: 1, 4: 2, 5: 3, 6: 4, 7: 5, 19: 0}
EDITION_TAGS = [  # longest first
    ("[ORIG]-style", "original-edition-style"),
    ("[RECH, 2-player Trust mode]", "Recharged, 2 players against the Trust:"),
    ("[RECH, optional set-up for experienced players]", "Recharged, optional set-up:"),
    ("[RECH, optional]", "(Recharged, optional)"),
    ("[RECH, Germany]", "Recharged, Germany map:"),
    ("[RECH, USA map]", "Recharged, USA map:"),
    ("[RECH, USA]", "Recharged, USA map:"),
    ("[RECH]", "Recharged:"),
    ("[ORIG]", "Original edition:"),
]
WORDS = [  # the reference's shorthand for its sources, in players' words
    ("[000]/[001]", "the rulebooks"), ("[003]/[004]", "some translations"),
    ("[000]", "the original rulebook"), ("[001]", "the Recharged rulebook"),
    ("[EXT] values", "values from outside the rulebooks"), ("[EXT]", "from outside the rulebooks"),
    ("the seeds", "the rulebooks"),
    ("The seeds", "The rulebooks"), ("the seed", "the rulebook"), ("The seed", "The rulebook"),
    ("Recommended as written.", "This package plays it as written."), ("Recommended:", "This package:"),
    ("recommended:", "this package:"), ("Engine:", "This package:"), ("(seed: ", "(the rulebook: "),
    ("Recommended as the legality test.", "This package uses it as the legality test."),
    ("Recommended until", "This package plays, until"), ("Recommended (", "This package follows ("),
]
# a parenthesis citing a source: "(000, 001)", "(derived from 000)", "(001; see [EXT])", "([003] say ...)"
SOURCES = re.compile(r"\s*\((?:derived from )?(?:\d{3}\b|EXT\b|\[\d{3}\])[^()]*(?:\([^()]*\)[^()]*)*\)")
INTERNAL = ("They ship as the map files in `maps/`, cross-checked against several public sources "
            "(`tests/reference_maps/SOURCES.md`, which also lists the Recharged board's differences).",
            "This package ships them as map files, cross-checked against several public sources.")
OPEN_INLINE = [(re.compile(r"OPEN: (O\d+) — "), r"\1: "), (re.compile(r"OPEN: (O\d+)\."), r"(see \1).")]


def players_text(text: str) -> str:
    """One paragraph of the reference, in players' words."""
    text = SOURCES.sub("", text).replace(*INTERNAL)
    for pattern, repl in OPEN_INLINE:
        text = pattern.sub(repl, text)
    for old, new in EDITION_TAGS + WORDS:
        text = text.replace(old, new)
    text = re.sub(r"\b(?:the )?ORIG\b", "the original edition", text)
    text = re.sub(r"\bRECH\b", "Recharged", text)
    text = re.sub(r"\bseeds\b", "rulebooks", re.sub(r"\bseed\b", "rulebook", text))
    return re.sub(r"[ \t]+\n", "\n", text).strip()


def editions_of(body: str, section: str) -> list[str]:
    if body.startswith("[ORIG]"):
        return ["original"]
    if body.startswith("[RECH") or "[RECH" in section:
        return ["recharged"]
    return ["original", "recharged"]


def parse(md: str) -> dict:
    rules: dict[str, dict] = {}
    open_index: dict[str, dict] = {}
    section, number, phase = "", 0, None
    current: dict | None = None
    lines = md.splitlines()
    in_index = False
    for line in lines:
        head = re.match(r"## (\d+)\. (.+)", line)
        if head:
            number, section = int(head.group(1)), head.group(2).strip()
            phase, current = PHASE_OF_SECTION.get(number), None
            in_index = section.startswith("Index of OPEN")
            continue
        if in_index:
            row = re.match(r"\| (O\d+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|", line)
            if row:
                open_index[row.group(1)] = {"topic": row.group(2).strip(), "short": row.group(3).strip(),
                                            "rules": row.group(4).strip()}
            continue
        if number >= 20:  # contradictions and worked examples: for engine authors only
            current = None
            continue
        m = re.match(r"(R\d+)\. (.*)", line)
        if m:
            body = m.group(2)
            current = rules[m.group(1)] = {"section": section, "phase": phase, "text": [body], "notes": [],
                                          "editions": editions_of(body, section)}
            continue
        if current is None:
            continue
        if not line.strip():
            if current["notes"] or current["text"][-1:] != [""]:
                current["text" if not current["notes"] else "notes"].append("")
            continue
        if line.startswith("OPEN:"):
            current["notes"].append(line[len("OPEN:"):].strip())
        elif line.startswith(("---", "#")):
            current = None
        elif current["notes"] and current["notes"][-1]:
            current["notes"][-1] += "\n" + line
        else:
            current["text"].append(line)
    out: dict[str, dict] = {}
    for key, r in rules.items():
        text = "\n".join(r["text"]).strip()
        text = re.sub(r"\n{2,}", "\n\n", text)
        if text.startswith("OPEN:"):  # a rule that is itself an open point (R22, R53, R103)
            r["notes"].insert(0, text[len("OPEN:"):].strip())
            text = ""
        notes = [players_text(_note(n)) for n in r["notes"] if n.strip()]
        out[key] = {"section": players_text(r["section"]), "phase": r["phase"], "editions": r["editions"],
                    "text": players_text(text) or notes[0], "notes": notes if text else notes[1:]}
    points = {}
    for oid, row in open_index.items():
        full = [n for r in out.values() for n in r["notes"] if n.startswith((f"{oid} ", f"{oid}:"))]
        points[oid] = {"topic": players_text(row["topic"]), "summary": players_text(row["short"]),
                       "rules": row["rules"], "text": full[0] if full else ""}
    return {"rules": out, "open_points": points}


def _note(note: str) -> str:
    """``O15 — text`` -> ``O15: text`` (the id kept: errors and docs cite it)."""
    return re.sub(r"^(O\d+(?: \([a-d]\))?) — ", r"\1: ", note.strip())


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        sys.stderr.write(__doc__ or "")
        return 2
    data = parse(Path(argv[0] if argv else SOURCE).read_text(encoding="utf-8"))
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{OUT.name}: {len(data['rules'])} rules, {len(data['open_points'])} open points")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
