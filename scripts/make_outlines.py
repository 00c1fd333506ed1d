"""Write the simplified country outlines of the built-in maps (the optional ``outline`` field of
maps/germany.json and maps/usa.json). Run once at development time; nothing is fetched at install
or test time, the outlines ship inside the map files.

Sources (TopoJSON, unprojected lon/lat, from the npm registry):

* Germany: Natural Earth 1:50m Admin 0 countries, v4.1.0 (public domain), as redistributed by the
  npm package ``world-atlas`` 2.0.2 (``countries-50m.json``, object ``countries``, id 276).
* USA: US Census Bureau cartographic boundary, nation, 2017 (a US government work: public domain),
  as redistributed by the npm package ``us-atlas`` 3.0.1 (``nation-10m.json``, object ``nation``);
  only the contiguous states (and the islands close to them) are kept.

The npm packages' own code and packaging are ISC-licensed; the data inside them is public domain.

Usage::

    cd /tmp && npm pack world-atlas@2.0.2 us-atlas@3.0.1
    mkdir world us && tar xzf world-atlas-2.0.2.tgz -C world && tar xzf us-atlas-3.0.1.tgz -C us
    python scripts/make_outlines.py /tmp/world/package /tmp/us/package

Each ring is simplified with Douglas-Peucker (on a plane where a degree of longitude is shrunk by
the cosine of the map's mid latitude) to the largest tolerance that keeps the outline under its
point budget, and rounded to 0.01 degree (about a kilometre).
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
Ring = list[tuple[float, float]]

# map -> (npm package folder key, file, object, geometry id or None, keep box, min area deg², points, source)
OUTLINES = {
    "germany": ("world", "countries-50m.json", "countries", "276", (-180, -90, 180, 90), 0.02, 240,
                "Natural Earth 1:50m Admin 0 countries v4.1.0 (public domain), from the npm package "
                "world-atlas 2.0.2 (countries-50m.json, id 276); simplified by scripts/make_outlines.py"),
    "usa": ("us", "nation-10m.json", "nation", None, (-125.0, 24.0, -66.0, 50.0), 0.1, 360,
            "US Census Bureau cartographic boundary, nation, 2017 (public domain), from the npm package "
            "us-atlas 3.0.1 (nation-10m.json), contiguous states only; simplified by "
            "scripts/make_outlines.py"),
}


def decode_arcs(topo: dict) -> list[Ring]:
    """The topology's arcs as absolute lon/lat points (quantized, delta-encoded in the file)."""
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)
    return arcs


def ring(arcs: list[Ring], refs: list[int]) -> Ring:
    """A ring stitched from arc references (a negative index ~i is arc i reversed)."""
    out: Ring = []
    for r in refs:
        pts = arcs[r] if r >= 0 else arcs[~r][::-1]
        out += pts[1:] if out else pts
    return out


def area(r: Ring) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(r, r[1:] + r[:1], strict=True))) / 2


def simplify(r: Ring, tol: float, kx: float) -> Ring:
    """Douglas-Peucker on a closed ring (x scaled by ``kx``); the ring's first point is kept."""
    def dp(pts: Ring) -> Ring:
        (x0, y0), (x1, y1) = pts[0], pts[-1]
        dx, dy = (x1 - x0) * kx, y1 - y0
        norm = math.hypot(dx, dy)
        best, at = 0.0, 0
        for i, (x, y) in enumerate(pts[1:-1], 1):
            px, py = (x - x0) * kx, y - y0
            d = abs(px * dy - py * dx) / norm if norm else math.hypot(px, py)
            if d > best:
                best, at = d, i
        if best <= tol:
            return [pts[0], pts[-1]]
        return dp(pts[:at + 1])[:-1] + dp(pts[at:])

    far = max(range(len(r)), key=lambda i: math.dist(r[0], r[i]))  # split the ring in two halves
    return dp(r[:far + 1])[:-1] + dp(r[far:] + [r[0]])[:-1]


def outline(name: str, folders: dict[str, Path]) -> dict:
    key, file, obj, gid, box, min_area, budget, source = OUTLINES[name]
    topo = json.loads((folders[key] / file).read_text(encoding="utf-8"))
    arcs = decode_arcs(topo)
    geoms = topo["objects"][obj]["geometries"]
    (geom,) = [g for g in geoms if gid is None or str(g.get("id")) == gid]
    polys = geom["arcs"] if geom["type"] == "MultiPolygon" else [geom["arcs"]]
    rings = [ring(arcs, p[0]) for p in polys]  # outer rings only: a board needs no lakes
    rings = [r for r in rings if area(r) >= min_area and all(box[0] <= x <= box[2] and box[1] <= y <= box[3]
                                                             for x, y in r)]
    rings.sort(key=area, reverse=True)
    lats = [y for r in rings for _, y in r]
    kx = math.cos(math.radians((min(lats) + max(lats)) / 2))
    lo, hi = 0.0, 2.0
    for _ in range(40):  # the smallest tolerance within the point budget
        mid = (lo + hi) / 2
        if sum(len(simplify(r, mid, kx)) for r in rings) > budget:
            lo = mid
        else:
            hi = mid
    out = []
    for r in rings:
        pts: list[list[float]] = []
        for x, y in simplify(r, hi, kx):
            p = [round(x, 2), round(y, 2)]
            if not pts or p != pts[-1]:
                pts.append(p)
        if len(pts) >= 4:
            out.append(pts)
    return {"source": source, "polygons": out}


def dump(data: dict) -> str:
    """The outline block as it goes into a map file: one ring per few lines, ten points a line."""
    lines = ['  "outline": {', f'    "source": {json.dumps(data["source"], ensure_ascii=False)},',
             '    "polygons": [']
    for i, r in enumerate(data["polygons"]):
        rows = [", ".join(f"[{x}, {y}]" for x, y in r[k:k + 10]) for k in range(0, len(r), 10)]
        body = ",\n       ".join(rows)
        lines.append(f"      [{body}]" + ("," if i < len(data["polygons"]) - 1 else ""))
    lines += ["    ]", "  }"]
    return "\n".join(lines)


def write(name: str, data: dict) -> None:
    """Put (or replace) the ``outline`` block at the end of maps/<name>.json; the rest is unchanged."""
    path = ROOT / "maps" / f"{name}.json"
    text = path.read_text(encoding="utf-8").rstrip()
    text = re.sub(r',\n  "outline": \{.*\}\n\}$', "\n}", text, flags=re.S)
    assert text.endswith("\n}")
    text = text[:-2] + ",\n" + dump(data) + "\n}\n"
    assert json.loads(text)["outline"] == data
    path.write_text(text, encoding="utf-8")
    print(f"{path.name}: {len(data['polygons'])} polygons, {sum(map(len, data['polygons']))} points")


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__)
        return 2
    folders = {"world": Path(argv[1]), "us": Path(argv[2])}
    for name in OUTLINES:
        write(name, outline(name, folders))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
