"""A camera check a coach can read: what the camera makes of each marker in one frame, and what
to do about what it cannot read.

:func:`check_frame` reads a frame as a single image is read (:func:`vision.locate.read_frame`)
and looks at every marker-like square on the table besides: each gets one reading, in words —

- **read**: a figure, the ball token or a corner marker, read;
- **too small**: a marker-like square the camera sees under about 9 px across (cells of 1.5 px);
- **blurred**: its edges spread over more than about a cell (focus, or a moving camera);
- **glare**: a share of its pixels are white-out (a lamp's reflection on a glossy cap);
- **too dark**: its black and white differ by less than a marker needs;
- **unknown id**: it reads, as a marker no figure of the marker map carries;
- **foreign pattern**: a marker of another kind (a 5x5 or 6x6 one, a ChArUco board's) that
  would read as ours, or a marker-like print off the table;
- **unread**: marker-like, and none of the above says why.

Then advice in words, the commonest trouble first (closer, focus, more light, glare, print
size, calibrate). Pure: no Kivy; the app's camera check screen draws :func:`draw_check`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .detect import Detection, DetectorSettings, contour_quads
from .detect import detect
from .locate import SIZE_FREE_SEARCH, FrameResult, VisionSetup, board_rect, frame_sizes, read_frame
from .marker_size import MarkerSizes, other_print
from .refine import clockwise, fit_edges, larger_grid, read_bits, sample_at, square_points

READ, SMALL, BLURRED, GLARE, DARK, UNKNOWN, FOREIGN, UNREAD = (
    "read", "too small", "blurred", "glare", "too dark", "unknown id", "foreign pattern", "unread")

# Below this side (px) a 4x4 marker's cells are 1.5 px: too few for its pattern (docs/vision.md)
SMALL_PX = 9.0
# edges spread wider than this share of a cell (10-90 % rise) are blurred past reading
BLUR_CELLS = 0.9
GLARE_LEVEL = 250
GLARE_SHARE = 0.08
DARK_CONTRAST = 25.0


@dataclass(frozen=True, slots=True)
class MarkerReading:
    """One marker-like square: ``state`` (one of the readings above), the id where it read,
    its corners (4, 2) px and its side px, and what it is in words."""

    state: str
    marker: int | None
    corners: np.ndarray = field(repr=False, compare=False)
    side_px: float
    words: str
    placed: bool = True  # read and placed on the board (a cap read but taken for lifted: False)


@dataclass(frozen=True)
class CameraCheck:
    """What one frame shows: every marker's reading, the counts by state, the advice, and the
    frame's read (:class:`~vision.locate.FrameResult`)."""

    readings: tuple[MarkerReading, ...]
    advice: tuple[str, ...]
    result: FrameResult | None = field(default=None, repr=False)
    sizes: MarkerSizes = MarkerSizes()
    size_differs: bool = False

    @property
    def offer(self) -> MarkerSizes | None:
        """The measured sizes to offer the coach, where they differ from the ones in use."""
        return self.sizes if self.size_differs else None

    def count(self, state: str) -> int:
        return sum(r.state == state for r in self.readings)

    @property
    def summary(self) -> str:
        """One line: how many markers read and what kept the others from reading."""
        unplaced = sum(r.state == READ and not r.placed for r in self.readings)
        parts = [f"{self.count(READ)} read" + (f" ({unplaced} of them not placed: see the advice)" if unplaced else "")]
        for state in (SMALL, BLURRED, GLARE, DARK, UNKNOWN, FOREIGN, UNREAD):
            n = self.count(state)
            if n:
                parts.append(f"{n} {state}")
        return ", ".join(parts)


def check_frame(setup: VisionSetup, gray: np.ndarray, result: FrameResult | None = None) -> CameraCheck:
    """The camera check of one grey frame (H, W) uint8 read with ``setup`` (``result``: its read
    already, else it is read here)."""
    if result is None:
        result = read_frame(setup, gray)
    ms = setup.markers
    readings: list[MarkerReading] = []
    taken = list(result.detections)
    placed = {s.marker for s in result.figures} | ({result.ball.marker} if result.ball is not None else set())
    conflicts = {c.marker: c.reason for c in result.conflicts}
    for d in result.detections:
        kind = ms.kind_of(d.marker)
        if d.marker in conflicts and kind in ("unknown", "figure") and "not in the marker map" in conflicts[d.marker]:
            readings.append(MarkerReading(UNKNOWN, d.marker, d.corners, d.side_px,
                                          f"marker {d.marker} reads, but no figure carries it (the marker map)"))
        elif kind == "corner":
            readings.append(MarkerReading(READ, d.marker, d.corners, d.side_px, f"corner marker {d.marker}"))
        elif d.marker in placed:
            who = "the ball" if kind == "ball" else str(setup.marker_map.get(d.marker).player)
            readings.append(MarkerReading(READ, d.marker, d.corners, d.side_px, f"marker {d.marker}: {who}"))
        else:  # read, but not placed: lifted, tipped, seen twice
            why = conflicts.get(d.marker) or next((w for w in result.warnings if f"marker {d.marker} " in w), "")
            readings.append(MarkerReading(READ, d.marker, d.corners, d.side_px,
                                          f"marker {d.marker} reads, not placed: {why}" if why else
                                          f"marker {d.marker} reads", placed=False))
    readings += _unread(setup, gray, taken)
    sizes = result.read_at or result.marker_sizes
    if sizes.figure_mm is None:  # too few caps read at the size in use: measured at any size
        more = detect(replace(SIZE_FREE_SEARCH, dictionary=ms.dictionary), gray, [board_rect(setup)], known=taken)
        sizes = frame_sizes(setup, taken + more)
    differs = other_print(ms.figure_marker_mm, sizes.figure_mm) or other_print(ms.ball_marker_mm, sizes.ball_mm) \
        or result.read_at is not None
    blur = _frame_blur(setup, gray, result)
    return CameraCheck(tuple(readings), tuple(_advice(setup, result, readings, sizes, differs, blur)), result, sizes,
                       differs)


def _frame_blur(setup: VisionSetup, gray: np.ndarray, result: FrameResult) -> float | None:
    """How blurred the frame is, as the corner markers' edges show it (they are large, and
    always in view): their 10-90 % rise over a cap marker's cell, as the camera model draws a
    cap at the board's centre; None without a corner marker read."""
    ms, cam, b = setup.markers, setup.camera, setup.board
    corners = [d for d in result.detections if ms.kind_of(d.marker) == "corner"]
    if not corners:
        return None
    spreads = []
    for d in corners:
        uv = np.stack(np.meshgrid(np.linspace(0.05, 0.95, 12), np.linspace(0.05, 0.95, 12)), axis=-1).reshape(-1, 2)
        vals = sample_at(gray, *square_points(np.asarray(d.corners, float)[None], uv))[0]
        spreads.append(_edge_spread(gray, np.asarray(d.corners, float), np.percentile(vals, 10),
                                    np.percentile(vals, 90)))
    cell = ms.figure_marker_mm * cam.pixels_per_mm(b.length_mm / 2, b.width_mm / 2, ms.cap_height_mm) / 6
    return float(np.median(spreads)) / max(cell, 1e-6)


def _unread(setup: VisionSetup, gray: np.ndarray, taken: list[Detection]) -> list[MarkerReading]:
    """Marker-like squares on the table that did not read, each with the likeliest reason."""
    x0, y0, x1, y1 = board_rect(setup)
    part = gray[y0:y1, x0:x1]
    if part.size == 0:
        return []
    quads = []
    for window in (5, 9):
        q, _ = contour_quads(DetectorSettings(window_px=window, window_max_px=window, min_side_px=6.0,
                                              max_side_px=220.0), part)
        quads.append(q)
    q = np.concatenate(quads) + np.array([x0, y0], float)
    if not len(q):
        return []
    q = clockwise(q)
    centres = q.mean(axis=1)
    sides = np.linalg.norm(q - q[:, [3, 0, 1, 2]], axis=2).mean(axis=1)
    keep = (sides >= 6.0) & (sides <= 220.0)
    if taken:  # not on a marker read already
        kc = np.stack([d.center for d in taken])
        ks = np.array([d.side_px for d in taken])
        near = np.linalg.norm(centres[:, None] - kc[None], axis=2) < np.maximum(ks[None], sides[:, None])
        keep &= ~near.any(axis=1)
    q, sides = q[keep], sides[keep]
    if not len(q):
        return []
    q, ok = fit_edges(gray, q)
    plausible: list = []
    ids, turned = read_bits(gray, q, setup.markers.dictionary, plausible=plausible)
    like = plausible[0] | (ids >= 0)
    q, ids, turned, sides, ok = q[like], ids[like], turned[like], sides[like], ok[like]
    out: list[MarkerReading] = []
    # one reading per place (the two threshold windows find the same square twice)
    order = np.argsort(-sides)
    used = np.zeros(len(q), bool)
    cents = q.mean(axis=1)
    foreign = larger_grid(gray, q, setup.markers.dictionary)
    for i in order:
        if used[i]:
            continue
        used |= np.linalg.norm(cents - cents[i], axis=1) < sides[i] / 2
        corners = turned[i] if ids[i] >= 0 else q[i]
        if foreign[i]:
            out.append(MarkerReading(FOREIGN, None, corners, float(sides[i]),
                                     "a marker of another kind (5x5, 6x6, ChArUco): never read as a figure"))
            continue
        out.append(MarkerReading(_why(gray, q[i], float(sides[i]), bool(ok[i])), None, corners, float(sides[i]), ""))
    return [MarkerReading(r.state, r.marker, r.corners, r.side_px, _words(r.state, r.side_px)) for r in out]


def _why(gray: np.ndarray, quad: np.ndarray, side: float, edges_fit: bool) -> str:
    """The likeliest reason a marker-like square did not read."""
    if side < SMALL_PX:
        return SMALL
    uv = np.stack(np.meshgrid(np.linspace(0.05, 0.95, 12), np.linspace(0.05, 0.95, 12)), axis=-1).reshape(-1, 2)
    vals = sample_at(gray, *square_points(quad[None], uv))[0]
    if (vals >= GLARE_LEVEL).mean() > GLARE_SHARE:
        return GLARE
    lo, hi = np.percentile(vals, 10), np.percentile(vals, 90)
    if hi - lo < DARK_CONTRAST:
        return DARK
    if not edges_fit or _edge_spread(gray, quad, lo, hi) > BLUR_CELLS * side / 6:
        return BLURRED
    return UNREAD


def _edge_spread(gray: np.ndarray, quad: np.ndarray, lo: float, hi: float) -> float:
    """The 10-90 % rise of a square's outer edges, px (across each side's middle, averaged)."""
    c = quad.mean(axis=0)
    spreads = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        mid = (a + b) / 2
        normal = mid - c
        n = float(np.linalg.norm(normal))
        if n < 1e-6:
            continue
        normal /= n
        t = np.linspace(-0.3, 0.3, 25) * np.linalg.norm(b - a)
        pts = mid[None] + t[:, None] * normal[None]
        prof = sample_at(gray, pts[:, 0], pts[:, 1])
        rise = (prof - lo) / max(hi - lo, 1.0)
        inside = np.flatnonzero(rise >= 0.9)
        outside = np.flatnonzero(rise <= 0.1)
        if not len(inside) or not len(outside):
            spreads.append(abs(t[-1] - t[0]))
            continue
        spreads.append(abs(t[inside[0]] - t[outside[-1]]) if inside[0] > outside[-1] else 0.0)
    return float(np.median(spreads)) if spreads else 0.0


def _words(state: str, side: float) -> str:
    return {SMALL: f"{side:.0f} px across: too small to read",
            BLURRED: f"{side:.0f} px, edges blurred",
            GLARE: "a reflection whites part of it out",
            DARK: "too little contrast: too dark or too grey",
            UNREAD: f"{side:.0f} px, marker-like, does not read (covered, dirty or bent?)"}.get(state, state)


def _advice(setup: VisionSetup, result: FrameResult, readings: list[MarkerReading], sizes: MarkerSizes,
            differs: bool, blur: float | None = None) -> list[str]:
    """What the coach can do, in words, the commonest trouble first."""
    ms = setup.markers
    caps = [r for r in readings if r.state == READ and r.marker is not None and ms.kind_of(r.marker) == "figure"]
    counts = {s: sum(r.state == s for r in readings) for s in (SMALL, BLURRED, GLARE, DARK, UNKNOWN, FOREIGN, UNREAD)}
    out: list[tuple[int, str]] = []
    sides = [r.side_px for r in caps]
    typical = float(np.median(sides)) if sides else None
    enough = max(2, len(caps) // 10)  # one odd square (a figure's dark base) is no trouble with the camera
    if counts[SMALL] >= enough or (typical is not None and typical < 12):
        out.append((counts[SMALL] + 1, "Move the camera closer to the board, or set it to a higher resolution: "
                                       "the caps' markers need 12 pixels across or more"
                                       + (f" (they are about {typical:.0f} now)." if typical else ".")))
    if counts[BLURRED] >= enough or (blur is not None and blur > BLUR_CELLS):
        out.append((counts[BLURRED] + 2, "Focus the camera on the caps (turn its focus ring, or switch autofocus on), "
                                     "and keep it still."))
    if counts[DARK] >= enough:
        out.append((counts[DARK], "More light on the board: the markers' black and white are too close."))
    if counts[GLARE]:
        out.append((counts[GLARE], "A reflection whites out some caps: move the lamp or tilt the camera a little."))
    if differs and sizes.figure_mm is not None:
        out.append((50, f"Print size: the caps' markers measure {sizes.figure_mm:g} mm across, not the "
                        f"{ms.figure_marker_mm:g} mm the camera reads with. Use the measured size."))
    elif differs and sizes.ball_mm is not None:
        out.append((50, f"Print size: the ball token's marker measures {sizes.ball_mm:g} mm, not "
                        f"{ms.ball_marker_mm:g} mm. Use the measured size."))
    if counts[UNKNOWN]:
        out.append((counts[UNKNOWN], "Some markers belong to no figure: check the marker map, or take them off "
                                     "the table."))
    if counts[FOREIGN]:
        out.append((1, "Other printed markers lie on or by the table (a calibration board?): they are never "
                       "taken for figures, but they cost time; put them away."))
    if not caps and not any(counts.values()):
        out.append((0, "No figure's marker is in view: set the figures up on the board, then check again."))
    if not out:
        unread = sum(counts[k] for k in (SMALL, BLURRED, DARK, GLARE, UNREAD))
        out.append((0, f"{len(caps)} caps read" + (f"; {unread} marker-like square{'s' if unread > 1 else ''} "
                                                    f"did not (see the picture)" if unread else "")
                    + ". Nothing to change."))
    out.sort(key=lambda a: -a[0])
    return [words for _, words in out]


COLOURS = {READ: (60, 200, 60), SMALL: (0, 160, 255), BLURRED: (255, 160, 0), GLARE: (255, 255, 255),
           DARK: (160, 160, 160), UNKNOWN: (200, 0, 200), FOREIGN: (40, 40, 240), UNREAD: (0, 220, 255)}


def draw_check(image: np.ndarray, check: CameraCheck, scale: float = 1.0) -> np.ndarray:
    """Frame -> BGR copy with every marker outlined in its reading's colour and labelled (the
    ids read, and the reason for the others), large enough to read on a tablet."""
    img = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR) if image.ndim == 2 else image.copy()
    if scale != 1.0:
        img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    font = max(0.5, img.shape[1] / 2200)
    for r in check.readings:
        colour = COLOURS.get(r.state, (255, 255, 255))
        pts = np.round(np.asarray(r.corners, float) * scale * 16).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(img, [pts], True, colour, 2, cv2.LINE_AA, shift=4)
        label = str(r.marker) if r.state == READ else r.state
        x, y = (np.asarray(r.corners, float) * scale).max(axis=0)
        cv2.putText(img, label, (int(x) + 3, int(y)), cv2.FONT_HERSHEY_SIMPLEX, font, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(img, label, (int(x) + 3, int(y)), cv2.FONT_HERSHEY_SIMPLEX, font, colour, 1, cv2.LINE_AA)
    return img

