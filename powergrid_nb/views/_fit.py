"""Fitting text where Plotly draws it: Arial advance widths, and a deterministic layout of a map's
cities, labels and link costs at a nominal pixel scale.

Plotly draws markers and text in pixels while the map is in degrees, so the board is laid out in
pixels at the scale the figure has at its nominal size (:func:`board`): cities too close for their
marker and slot row are moved apart along the line between them (the board keeps its shape); each
city label takes a clear place of five around its marker (a ``textposition``); each link's cost
square a clear place on or beside the link. What still clashes makes the cities involved reserve
more room, and they are spread again.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

# Arial (= Liberation Sans, Helvetica) advance widths in 1/1000 em, by character
_REGULAR = {191: "'", 222: "ijl", 260: "|", 278: " !,./:;I[\\]ft·", 333: "()-`r", 334: "{}", 355: '"',
            389: "*", 469: "^", 500: "Jcksvxyzç", 556: "#$0123456789?L_abdeghnopquäöüéèáàñ–",
            584: "+<=>~×", 611: "FTZß", 667: "&ABEKPSVXYÄ", 722: "CDHNRUwÜ", 778: "GOQÖ", 833: "Mm",
            838: "✕", 889: "%", 944: "W", 1000: "→—…", 1015: "@"}
_BOLD = {238: "'", 278: " ,./I\\ijl·", 280: "|", 333: "!()-:;[]`ft", 389: "*r{}", 474: '"', 500: "z",
         556: "#$0123456789J_aceksvxyäéèáàç–", 584: "+<=>^~×", 611: "?FLTZbdghnopquöüßñ",
         667: "EPSVXY", 722: "&ABCDHKNRUÄÜ", 778: "GOQwÖ", 833: "M", 838: "✕", 889: "%m", 944: "W",
         975: "@", 1000: "→—…"}
WIDTHS = {False: {c: w / 1000 for w, cs in _REGULAR.items() for c in cs},
          True: {c: w / 1000 for w, cs in _BOLD.items() for c in cs}}
UNKNOWN = 1.0  # an em for a character not in the table (wider than any listed)

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in pixels, y down
Point = tuple[float, float]              # x, y in screen units (y up)

# Where Plotly puts a point's text (measured in Chromium): ``GAP`` px beside a 15 px marker, the
# line box ``size + 2`` px tall; the bottom row is taken by the city's slots, so it is not offered.
GAP = 10.4
POSITIONS = ("top center", "middle right", "middle left", "top right", "top left")
PREFER = {"top center": 0.0, "middle right": 1.0, "middle left": 1.5, "top right": 2.0, "top left": 2.5}
CROSSING = 10.0  # cost of a link line through a label (allowed, but a clear place is better)
AMBIGUOUS = 30.0  # cost of a label about as near another city's marker as its own (whose name is it?)
NEARER = 8.0      # px: another marker within the label's distance to its own plus this is "as near"
PAD = 1.5        # px kept clear around each label and cost square
MARKER = (-8.5, -8.5, 8.5, 8.5)    # a 15 px city marker and its ring
SLACK = 0.3                        # px of overlap (within the gap kept) not worth a move
STEP = 3.0                         # px: the most a city moves for one pair in one round
COST = 8.0                         # px: half a link-cost square (two 12 px bold digits)
TS = tuple(sorted((k / 50 for k in range(8, 43)), key=lambda t: (abs(t - 0.5), t)))  # along a link
SIDE = (0.0, 11.0, -11.0, 20.0, -20.0)  # px beside the link a cost square may sit, best first
FAR = 28.0                               # px beside the link: the last resort


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Pixels of one line of ``text`` in Arial at ``size`` px."""
    table = WIDTHS[bold]
    return size * sum(table.get(c, UNKNOWN) for c in text)


def label_box(position: str, width: float, size: float) -> Box:
    """The box of a label ``width`` px wide at ``size`` px, relative to its marker's centre."""
    vert, horiz = position.split()
    h = size + 2
    x0 = {"left": -GAP - width, "center": -width / 2, "right": GAP}[horiz]
    y0 = {"top": -GAP - h, "middle": -h / 2 - 1, "bottom": GAP - 2}[vert]
    return x0, y0, x0 + width, y0 + h


def _hit(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _shift(b: Box, x: float, y: float, pad: float = 0.0) -> Box:
    return b[0] + x - pad, b[1] + y - pad, b[2] + x + pad, b[3] + y + pad


def _crosses(b: Box, p: Point, q: Point) -> bool:
    """Does the segment p-q (pixels) pass through box ``b`` (Liang-Barsky clipping)?"""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for d, lo, hi, s in ((dx, b[0], b[2], p[0]), (dy, b[1], b[3], p[1])):
        if d == 0:
            if not lo < s < hi:
                return False
            continue
        a, c = (lo - s) / d, (hi - s) / d
        t0, t1 = max(t0, min(a, c)), min(t1, max(a, c))
        if t0 >= t1:
            return False
    return True


def _gap(b: Box, x: float, y: float) -> float:
    """Pixels from the point (x, y) to box ``b`` (0 inside it)."""
    return math.hypot(max(b[0] - x, 0.0, x - b[2]), max(b[1] - y, 0.0, y - b[3]))


def _union(a: Box, b: Box) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def reach(boxes: Sequence[Box], ux: float, uy: float) -> float:
    """How far (px) a ray from a city's centre in direction (ux, uy) runs before it leaves the last
    of ``boxes`` (relative to the centre) that it passes through."""
    out = 0.0
    for b in boxes:
        t0, t1 = 0.0, math.inf
        for d, lo, hi in ((ux, b[0], b[2]), (uy, b[1], b[3])):
            if abs(d) < 1e-12:
                if not lo <= 0 <= hi:
                    t0, t1 = 1.0, 0.0
                continue
            a, c = lo / d, hi / d
            t0, t1 = max(t0, min(a, c)), min(t1, max(a, c))
        if t0 <= t1:
            out = max(out, t1)
    return out


def spread(points: Mapping[str, Point], scale: float, feet: Mapping[str, Box], frame: Box | None = None,
           links: Mapping[tuple[str, str], float] | None = None,
           ends: Mapping[str, Sequence[Box]] | None = None, start: Mapping[str, Point] | None = None,
           gap: float = 2.0, rounds: int = 200,
           clear: Mapping[tuple[str, str], Sequence[str]] | None = None) -> dict[str, Point]:
    """Cities moved apart until no two footprints (``feet``: a box in px around each city, e.g. its
    marker and slot row) overlap at ``scale`` px per screen unit, ``links`` (link -> px it may grow)
    are long enough for a cost square between the boxes of their ``ends`` (px around each city:
    marker, slots, label), and every footprint is inside ``frame`` (px). Two overlapping cities
    move apart along the line between their true places, half each and a few px at a time, so the
    board keeps its shape; cities with room to spare do not move. Deterministic (file order).
    ``start``: where to start from (a previous spread), else the true places. ``clear``: per link,
    the cities (not its ends) that keep their ``ends`` boxes clear of a square at its middle (each
    moved straight away from it)."""
    names = list(points)
    begin = start or points
    xy = {n: [begin[n][0] * scale, -begin[n][1] * scale] for n in names}  # pixels, y down

    ways: dict[tuple[str, str], tuple[float, float]] = {}

    def way(a: str, b: str) -> tuple[float, float]:
        """The unit vector from a to b on the true map (px, y down)."""
        if (a, b) not in ways:
            (xa, ya), (xb, yb) = points[a], points[b]
            d = math.hypot(xb - xa, yb - ya)
            ways[a, b] = ((xb - xa) / d, (ya - yb) / d) if d else (1.0, 0.0)
        return ways[a, b]

    def push(a: str, b: str, u: tuple[float, float], step: float) -> None:
        pa, pb = xy[a], xy[b]
        pa[0], pa[1] = pa[0] - u[0] * step, pa[1] - u[1] * step
        pb[0], pb[1] = pb[0] + u[0] * step, pb[1] + u[1] * step

    near = 2 * max(max(-f[0], f[2]) for f in feet.values()) + gap
    grown = {n: [_shift(e, 0, 0, COST + PAD) for e in es] for n, es in (ends or {}).items()}
    rank = {n: i for i, n in enumerate(names)}
    for _ in range(rounds):
        moved = False
        order = sorted(names, key=lambda n: xy[n][0])  # only cities close in x can overlap
        for i, p in enumerate(order):
            xp = xy[p][0]
            for q in order[i + 1:]:
                if xy[q][0] - xp > near:
                    break
                a, b = (p, q) if rank[p] < rank[q] else (q, p)  # each pair in file order
                pa, pb, fa, fb = xy[a], xy[b], feet[a], feet[b]
                lo, hi = pa[0] + fa[0], pa[0] + fa[2]
                lo2, hi2 = pb[0] + fb[0], pb[0] + fb[2]
                ox = (hi if hi < hi2 else hi2) - (lo if lo > lo2 else lo2) + gap
                if ox <= SLACK:
                    continue
                lo, hi = pa[1] + fa[1], pa[1] + fa[3]
                lo2, hi2 = pb[1] + fb[1], pb[1] + fb[3]
                oy = (hi if hi < hi2 else hi2) - (lo if lo > lo2 else lo2) + gap
                if oy <= SLACK:
                    continue
                u = way(a, b)
                push(a, b, u, min(ox / abs(u[0]) if abs(u[0]) > 1e-6 else math.inf,
                                  oy / abs(u[1]) if abs(u[1]) > 1e-6 else math.inf, 2 * STEP) / 2 + 0.05)
                moved = True
        for (a, b), extra in (links or {}).items() if ends else ():
            pa, pb = xy[a], xy[b]
            d = math.dist(pa, pb)
            if d > math.dist(points[a], points[b]) * scale + extra - SLACK:
                continue  # as long as it may get
            ux, uy = ((pb[0] - pa[0]) / d, (pb[1] - pa[1]) / d) if d else (1.0, 0.0)
            # room for a square on the line: where its centre leaves each end's boxes (grown by half
            # a square), and a few px between
            length = min(reach(grown[a], ux, uy) + reach(grown[b], -ux, -uy) + 4,
                         math.dist(points[a], points[b]) * scale + extra)
            if d < length - SLACK:
                push(a, b, (ux, uy), min((length - d) / 2 + 0.05, STEP))
                moved = True
        for (a, b), others in (clear or {}).items() if ends else ():
            mid = ((xy[a][0] + xy[b][0]) / 2, (xy[a][1] + xy[b][1]) / 2)
            for c in others:
                pc = xy[c]
                d = math.dist(mid, pc)
                ux, uy = ((pc[0] - mid[0]) / d, (pc[1] - mid[1]) / d) if d else (0.0, 1.0)
                need = reach(grown[c], -ux, -uy) + 2
                if d < need - SLACK:
                    pc[0], pc[1] = pc[0] + ux * min(need - d, STEP), pc[1] + uy * min(need - d, STEP)
                    moved = True
        for n in names if frame else ():
            p, f = xy[n], feet[n]
            for k in (0, 1):
                lo, hi = frame[k] - f[k] + 0.5, frame[k + 2] - f[k + 2] - 0.5
                if lo <= hi and not lo - SLACK <= p[k] <= hi + SLACK:
                    p[k] = min(max(p[k], lo), hi)
                    moved = True
        if not moved:
            break
    return {n: (xy[n][0] / scale, -xy[n][1] / scale) for n in names}


Option = tuple[int, float, str, Box]  # a label place: fixed clashes, cost, textposition, box


def label_options(px: Mapping[str, tuple[float, float]], widths: Mapping[str, float], size: float,
                  obstacles: Sequence[Box], links: Sequence[tuple[str, str]], frame: Box,
                  penalty: Mapping[tuple[str, str], float]) -> dict[str, list[Option]]:
    """Each city's label places, best first: how many ``obstacles`` (px boxes: markers, slot rows)
    and ``frame`` edges it touches, then its cost (the preferred place, link lines through it, a
    label about as near another city's marker as its own, a ``penalty`` per (city, position))."""
    segs = [(px[a], px[b]) for a, b in links]
    edge = _shift(frame, 0, 0, 0.1)
    out = {}
    for n, (x, y) in px.items():
        around = (x - widths[n] - 40, y - 40, x + widths[n] + 40, y + 40)
        near = [o for o in obstacles if _hit(around, o)]
        others = [(u, v) for m, (u, v) in px.items() if m != n and _hit(around, (u, v, u, v))]
        opts = []
        for pos in POSITIONS:
            box = _shift(label_box(pos, widths[n], size), x, y)
            padded = _shift(box, 0, 0, PAD)
            inside = edge[0] <= box[0] and box[2] <= edge[2] and edge[1] <= box[1] and box[3] <= edge[3]
            fixed = sum(_hit(padded, o) for o in near) + (0 if inside else 1)
            crossed = sum(_crosses(box, p, q) for p, q in segs)
            own = _gap(box, x, y)
            vague = any(_gap(box, u, v) < own + NEARER for u, v in others)
            cost = PREFER[pos] + CROSSING * crossed + AMBIGUOUS * vague + penalty.get((n, pos), 0.0)
            opts.append((fixed, cost, pos, box))
        out[n] = sorted(opts, key=lambda o: (o[0], o[1]))
    return out


def place_labels(options: Mapping[str, list[Option]], px: Mapping[str, tuple[float, float]]
                 ) -> tuple[dict[str, Option], dict[str, list[str]]]:
    """A place per city label from its ``options``: the most crowded cities choose first; then each
    label still clashing takes a clear place if the labels in its way can move to clear places.
    Returns the places and the labels that still clash, with the labels in their way."""
    def crowd(n: str) -> tuple[int, str]:
        x, y = px[n]
        return -sum(1 for u, v in px.values() if abs(u - x) < 80 and abs(v - y) < 40), n

    placed: dict[str, Option] = {}

    def blocking(n: str, box: Box, skip: tuple[str, ...] = ()) -> list[str]:
        padded = _shift(box, 0, 0, PAD)
        return [m for m, o in placed.items() if m != n and m not in skip and _hit(padded, o[3])]

    order = sorted(px, key=crowd)
    for n in order:
        placed[n] = min(options[n], key=lambda o: 100 * (o[0] + len(blocking(n, o[3]))) + o[1])
    for n in order:  # repair
        if not (placed[n][0] or blocking(n, placed[n][3])):
            continue
        for opt in (o for o in options[n] if not o[0]):
            moves: dict[str, Option] = {}
            for m in blocking(n, opt[3]):
                taken = [opt[3], *(o[3] for o in moves.values())]
                alt = next((q for q in options[m] if not q[0] and q[2] != placed[m][2]
                            and not blocking(m, q[3], (n, *moves))
                            and not any(_hit(_shift(q[3], 0, 0, PAD), t) for t in taken)), None)
                if alt is None:
                    break
                moves[m] = alt
            else:
                placed.update(moves)
                placed[n] = opt
                break
    failed = {n: blocking(n, o[3]) for n, o in placed.items() if o[0] or blocking(n, o[3])}
    return placed, failed


def place_costs(px: Mapping[str, tuple[float, float]], links: Sequence[tuple[str, str]],
                labels: Mapping[str, Box], soft: Sequence[Box], frame: Box | None = None
                ) -> tuple[list[tuple[float, float]], dict[int, list[str]]]:
    """Where each link's cost square sits: (t, s) = a share t of the way from its first city to the
    second, and s px to the side (0: on the line): the first place of ``TS`` and ``SIDE`` clear of the
    city ``labels`` (px boxes), of the squares placed before and of the ``soft`` boxes (markers,
    slots), else the one with the fewest clashes (labels and squares first); short links choose
    first; a square stays inside ``frame`` (px) if given. Also the links whose square found no clear
    place, with the cities whose labels are in
    the way ("" for another square, "·" for a marker or slot). When every usual place clashes,
    places ``FAR`` px beside the link are tried too."""
    order = sorted(range(len(links)), key=lambda i: (math.dist(px[links[i][0]], px[links[i][1]]), i))
    ts = [(0.5, 0.0)] * len(links)
    placed: list[Box] = []
    failed: dict[int, list[str]] = {}
    for i in order:
        pa, pb = px[links[i][0]], px[links[i][1]]
        m = FAR + COST + PAD  # only what is near the link can be in the way
        near = (min(pa[0], pb[0]) - m, min(pa[1], pb[1]) - m, max(pa[0], pb[0]) + m, max(pa[1], pb[1]) + m)
        strong = [o for o in (*labels.values(), *placed) if _hit(near, o)]
        weak = [o for o in soft if _hit(near, o)]
        best: tuple[int, tuple[float, float], Box] | None = None
        free: tuple[int, Box] | None = None  # the place on the fewest labels clear of all else
        # the usual places, then (if each is on a label, a square, a marker or a slot) farther along
        # and beside the link
        for side, t in [(s_, t_) for s_ in SIDE for t_ in TS] + [(s_, t_) for s_ in (FAR, -FAR) for t_ in TS]:
            if best is not None and not best[0]:
                break
            box = _cost_box(pa, pb, t, side)
            on = sum(_hit(box, o) for o in strong) + (frame is not None and not (
                frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] and box[3] <= frame[3]))
            hits = 100 * on + sum(_hit(box, o) for o in weak)
            if best is None or hits < best[0]:
                best = (hits, (t, side), box)
            if hits == 100 * on and (free is None or hits < free[0]) and \
                    not any(_hit(box, b) for b in placed):
                free = (hits, box)
        assert best is not None
        ts[i] = best[1]
        placed.append(best[2])
        if best[0]:  # "" stands for another cost square in the way, "·" for a marker or slot
            failed[i] = [n for n, b in labels.items() if _hit(best[2], b)] + \
                ([""] if any(_hit(best[2], b) for b in placed[:-1]) else []) + \
                (["·"] if best[0] % 100 else [])
            if best[0] % 100 and free is not None:  # on a marker or slot: the labels in the way of a
                failed[i] += [n for n, b in labels.items() if _hit(free[1], b) and n not in failed[i]]
    return ts, failed


RESCUE_TS = tuple(k / 50 for k in range(6, 45))        # along a link: 0.12 to 0.88
RESCUE_FAR = 36.0                                      # px: the farthest beside its link a square goes
RESCUE_SIDES = tuple(float(k) for k in range(-36, 37, 4))  # px beside it


def rescue_costs(px: Mapping[str, tuple[float, float]], links: Sequence[tuple[str, str]],
                 ts: list[tuple[float, float]], lost: dict[int, list[str]], labels: Sequence[Box],
                 soft: Sequence[Box], frame: Box) -> dict[int, list[str]]:
    """The squares of ``lost`` links (``ts`` updated in place) moved to the place nearest their link's
    middle, on a finer grid along and beside it, that is clear of every label, marker, slot and other
    square and inside ``frame``; returns the links still without one."""
    squares = [_cost_box(px[a], px[b], t, side) for (a, b), (t, side) in zip(links, ts, strict=True)]
    left = {}
    for i, why in lost.items():
        pa, pb = px[links[i][0]], px[links[i][1]]
        m = 44 + COST + PAD
        near = (min(pa[0], pb[0]) - m, min(pa[1], pb[1]) - m, max(pa[0], pb[0]) + m, max(pa[1], pb[1]) + m)
        boxes = [o for o in (*labels, *soft, *(q for k, q in enumerate(squares) if k != i)) if _hit(near, o)]
        spots = sorted(((t, side) for t in RESCUE_TS for side in RESCUE_SIDES),
                       key=lambda p: (abs(p[0] - 0.5) * math.dist(pa, pb) + abs(p[1]), p))
        for t, side in spots:
            box = _cost_box(pa, pb, t, side)
            if frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] and box[3] <= frame[3] \
                    and not any(_hit(box, o) for o in boxes):
                ts[i], squares[i] = (t, side), box
                break
        else:
            left[i] = why
    return left


def make_room(px: Mapping[str, tuple[float, float]], links: Sequence[tuple[str, str]],
              ts: list[tuple[float, float]], lost: dict[int, list[str]], placed: dict[str, Option],
              options: Mapping[str, list[Option]], soft: Sequence[Box], frame: Box) -> dict[int, list[str]]:
    """The squares of ``lost`` links put where only city labels are in the way, those labels moved
    to another of their clear places (``placed`` and ``ts`` updated in place); the links still
    without a place."""
    squares = [_cost_box(px[a], px[b], t, side) for (a, b), (t, side) in zip(links, ts, strict=True)]
    left = {}
    for i, why in lost.items():
        pa, pb = px[links[i][0]], px[links[i][1]]
        others = [q for k, q in enumerate(squares) if k != i]
        spots = sorted(((t, side) for t in RESCUE_TS for side in RESCUE_SIDES),
                       key=lambda p: (abs(p[0] - 0.5) * math.dist(pa, pb) + abs(p[1]), p))
        for t, side in spots:
            box = _cost_box(pa, pb, t, side)
            if not (frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] and box[3] <= frame[3]) \
                    or any(_hit(box, o) for o in soft) or any(_hit(box, o) for o in others):
                continue
            in_way = [n for n, o in placed.items() if _hit(box, o[3])]
            moves: dict[str, Option] = {}
            for n in in_way:
                taken = [box, *(o[3] for o in moves.values())]
                alt = next((q for q in options[n] if not q[0] and q[2] != placed[n][2]
                            and not any(_hit(q[3], sq) for sq in others)
                            and not any(_hit(_shift(q[3], 0, 0, PAD), b) for b in taken)
                            and not any(_hit(_shift(q[3], 0, 0, PAD), o[3]) for k, o in placed.items()
                                        if k != n and k not in moves)), None)
                if alt is None:
                    break
                moves[n] = alt
            else:
                placed.update(moves)
                ts[i], squares[i] = (t, side), box
                break
        else:
            left[i] = why
    return left


def _cost_box(pa: tuple[float, float], pb: tuple[float, float], t: float, side: float) -> Box:
    d = math.dist(pa, pb) or 1.0
    x = pa[0] + t * (pb[0] - pa[0]) - side * (pb[1] - pa[1]) / d
    y = pa[1] + t * (pb[1] - pa[1]) + side * (pb[0] - pa[0]) / d
    return x - COST - PAD, y - COST - PAD, x + COST + PAD, y + COST + PAD


def board(points: Mapping[str, Point], links: Sequence[tuple[str, str]], widths: Mapping[str, float],
          size: float, scale: float, slots: Box, frame: Box, attempts: int = 8, grow: float = 0.0
          ) -> tuple[dict[str, Point], dict[str, str], list[tuple[float, float]], list[str]]:
    """Where a map's cities (screen units), labels (``textposition``) and link costs (t along the
    link, px beside it) go at ``scale`` px per unit, and what still clashes (city names and "a-b"
    links; empty when the board is clear).

    ``slots``: the box of a city's slot row in px around its centre; ``frame``: the plot area in
    px, which labels stay inside. Each attempt spreads the cities (from where the last one left
    them), places the labels, then the cost squares, moving a label out from under a square if it
    can. A label with no clear place then reserves its place (with the labels in its way) as part
    of its city's footprint; a square on a label penalises that label's place and lets its link
    grow (``grow`` px, from the start: for a second try). The best attempt wins (fewest clashes,
    then fewest squares on a marker or slot)."""
    feet = dict.fromkeys(points, _union(MARKER, slots))
    ends: dict[str, tuple[Box, ...]] = dict.fromkeys(points, (MARKER, slots))
    penalty: dict[tuple[str, str], float] = {}
    # link -> how much longer than on the map it may get (some px each, from the start)
    stretch: dict[tuple[str, str], float] = dict.fromkeys(links, grow) if grow else {}
    clear: dict[tuple[str, str], list[str]] = {}  # link -> the cities kept off its middle
    best: tuple[int, dict[str, Point], dict[str, str], list[tuple[float, float]], list[str]] | None = None
    stale = 0
    xy: dict[str, Point] | None = None
    for _ in range(attempts):
        xy = spread(points, scale, feet, frame, stretch, ends, xy, clear=clear)
        px = {n: (x * scale, -y * scale) for n, (x, y) in xy.items()}
        fixed = [b for x, y in px.values() for b in (_shift(MARKER, x, y), _shift(slots, x, y))]
        options = label_options(px, widths, size, fixed, links, frame, penalty)
        placed, failed = place_labels(options, px)
        ts, lost = place_costs(px, links, {n: o[3] for n, o in placed.items()}, fixed, frame)
        if any(lost.values()):  # labels under a cost square move to a place clear of every square
            squares = [_cost_box(px[a], px[b], t, side) for (a, b), (t, side) in zip(links, ts, strict=True)]
            for m in sorted({m for v in lost.values() for m in v if m not in ('', '·')}):
                alt = next((q for q in options[m] if not q[0] and not any(_hit(q[3], sq) for sq in squares)
                            and not any(_hit(_shift(q[3], 0, 0, PAD), o[3]) for k, o in placed.items()
                                        if k != m)), None)
                if alt is not None:
                    placed[m] = alt
            ts, lost = place_costs(px, links, {n: o[3] for n, o in placed.items()}, fixed, frame)
        if lost:
            lost = rescue_costs(px, links, ts, lost, [o[3] for o in placed.values()], fixed, frame)
        if lost:
            lost = make_room(px, links, ts, lost, placed, options, fixed, frame)
        chosen = {n: o[2] for n, o in placed.items()}
        clashes = [*failed, *(f"{links[i][0]}-{links[i][1]}" for i, v in lost.items() if v)]
        score = 1000 * len(clashes) + len(lost)  # then the cost squares on a marker or slot
        if best is None or score < best[0]:
            best, stale = (score, xy, chosen, ts, clashes), 0
        else:
            stale += 1
        if not lost and not failed or stale >= 5:
            break
        for n in {m: 0 for k, others in failed.items() for m in (k, *others)}:
            box = label_box(chosen[n], widths[n], size)  # the label joins the city's footprint
            feet[n] = _union(feet[n], box)
        for i, on in lost.items():  # a cost square on a label: that label tries elsewhere, and
            blockers = [n for n in on if n not in ('', '·')]  # the link makes room for it (its ends
                                                             # reserve the label)
            for n in blockers:
                penalty[(n, chosen[n])] = penalty.get((n, chosen[n]), 0.0) + 20.0
            if blockers:
                for n in links[i]:
                    box = label_box(chosen[n], widths[n], size)
                    ends[n] = ends[n] if box in ends[n] else (*ends[n], box)
            # room for the square: some more length, and a city beside the link kept off its middle
            stretch[links[i]] = min(stretch.get(links[i], 0.0) + 12.0, 96.0)
            (a, b), (t, side) = links[i], ts[i]
            square = _cost_box(px[a], px[b], t, side)
            for c, (x, y) in px.items():
                if c not in (a, b) and c not in clear.get(links[i], ()) and \
                        (_hit(square, _shift(MARKER, x, y)) or _hit(square, _shift(slots, x, y))):
                    clear.setdefault(links[i], []).append(c)
    assert best is not None
    return best[1], best[2], best[3], best[4]
