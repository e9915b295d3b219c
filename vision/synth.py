"""A synthetic overhead camera: the printed pitch, figures with standee bodies and marker caps,
the ball token and a hand, seen through a posed pinhole camera with lens distortion, uneven
light, glare, blur, noise and JPEG, with the ground truth of every marker.

Used by the tests, the benchmark and ``touchline vision watch --source synthetic``. Scenes are
plain data (:class:`Scene`), drawn by :func:`render`; :func:`random_scene` draws one from a seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.layout import marker_corners_mm
from companion.board import GridBoard

from .config import MarkerSet
from .extent import board_extent_mm as scene_extent_mm

TABLE_BGR = (62, 88, 118)
PITCH_BGR = (58, 138, 52)
STRIPE_BGR = (52, 128, 46)
LINE_BGR = (232, 236, 234)
TEAM_BGR = {"home": (40, 40, 200), "away": (200, 120, 30)}
SKIN_BGR = (120, 160, 215)
TEX_PX_PER_MM = 2.0
CAP_PX_PER_MM = 10.0
SUPERSAMPLE = 4


@dataclass(frozen=True, slots=True)
class FigurePose:
    """A figure (or the ball token, ``ball=True``) standing at ``(x_mm, y_mm)`` facing
    ``facing_deg``; ``lift_mm`` raises it (a figure being carried)."""

    marker: int
    x_mm: float
    y_mm: float
    facing_deg: float = 0.0
    lift_mm: float = 0.0
    team: str = "home"
    ball: bool = False


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand and forearm over the board: palm centre, pointing direction, height above the board."""

    x_mm: float
    y_mm: float
    direction_deg: float
    z_mm: float = 150.0
    scale: float = 1.0


@dataclass(frozen=True, slots=True)
class Look:
    """Image faults: light falling off across the frame (``gradient``: darkest/brightest ratio
    minus one, at ``gradient_deg``), a glare spot, Gaussian blur and noise (pixels / grey levels),
    JPEG quality (0: none)."""

    gradient: float = 0.0
    gradient_deg: float = 0.0
    glare_xy: tuple[float, float] = (0.5, 0.5)
    glare_radius: float = 0.0
    glare_gain: float = 0.0
    blur_sigma: float = 0.0
    noise_sigma: float = 0.0
    jpeg_quality: int = 0
    seed: int = 0


@dataclass(frozen=True)
class Scene:
    camera: CameraModel
    board: GridBoard
    markers: MarkerSet
    figures: tuple[FigurePose, ...]
    hands: tuple[Hand, ...] = ()
    look: Look = Look()
    prints: tuple["FlatPrint", ...] = ()


@dataclass(frozen=True)
class FlatPrint:
    """Something printed lying flat on the table (a 6x6 marker, a piece of a ChArUco board, a
    die's face, a pictogram): a grey ``image`` (H, W) uint8 drawn ``side_mm`` across (its
    longer side), centred at board (``x_mm``, ``y_mm``) and turned ``turn_deg``: clutter on
    and around the pitch that is no figure."""

    image: np.ndarray = field(repr=False, compare=False)
    x_mm: float
    y_mm: float
    side_mm: float
    turn_deg: float = 0.0


@dataclass(frozen=True, slots=True)
class MarkerTruth:
    """Ground truth of one marker in a rendered frame: the board point under it, its corners in
    pixels (4, 2), the share of it left visible (0..1) and whether it lies fully in the frame."""

    marker: int
    x_mm: float
    y_mm: float
    facing_deg: float
    z_mm: float
    corners_px: np.ndarray = field(repr=False)
    visible: float
    side_px: float

    @property
    def seen(self) -> bool:
        """Fully visible: every detector should find it."""
        return self.visible >= 0.999

    @property
    def hidden(self) -> bool:
        """At least a quarter covered: no detector may report it."""
        return self.visible <= 0.75


# --- printed things -------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def marker_image(dictionary: str, marker: int, cell_px: int) -> np.ndarray:
    """The black-and-white marker (6 cells of ``cell_px``) as uint8 (S, S)."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    return cv2.aruco.generateImageMarker(d, marker, (d.markerSize + 2) * cell_px, borderBits=1)


@lru_cache(maxsize=128)
def cap_texture(dictionary: str, marker: int, marker_mm: float, cap_mm: float, px_per_mm: float) -> np.ndarray:
    """A white cap with its marker centred, uint8 (S, S), ``px_per_mm`` pixels a millimetre."""
    side = round(cap_mm * px_per_mm)
    img = np.full((side, side), 246, np.uint8)
    m = round(marker_mm * px_per_mm)
    mark = cv2.resize(marker_image(dictionary, marker, 8), (m, m), interpolation=cv2.INTER_NEAREST)
    mark = np.where(mark > 127, 246, 18).astype(np.uint8)
    o = (side - m) // 2
    img[o:o + m, o:o + m] = mark
    return img


@dataclass(frozen=True)
class PitchPrint:
    """The printed board seen from above: ``image`` (H, W, 3) and the affine ``to_board`` (2, 3)
    taking its pixels to board mm."""

    image: np.ndarray
    to_board: np.ndarray


def _mm_rect_px(x0, y0, x1, y1, ox, oy, ppm):
    return (round((x0 - ox) * ppm), round((oy - y1) * ppm)), (round((x1 - ox) * ppm), round((oy - y0) * ppm))


_print_cache: dict[tuple, PitchPrint] = {}


def pitch_print(board: GridBoard, markers: MarkerSet, px_per_mm: float = TEX_PX_PER_MM) -> PitchPrint:
    """Draw the board as printed: pitch, lines, movement-square grid, benches, corner markers."""
    key = (repr(board), repr(markers), px_per_mm)
    if key not in _print_cache:
        if len(_print_cache) > 4:
            _print_cache.clear()
        _print_cache[key] = _draw_pitch(board, markers, px_per_mm)
    return _print_cache[key]


def _draw_pitch(board: GridBoard, markers: MarkerSet, px_per_mm: float) -> PitchPrint:
    L, W = board.length_mm, board.width_mm
    off = markers.corners.offset_mm + markers.corners.side_mm
    x0, x1 = -off - 20, L + off + 20
    y0 = min(-off - 20, min((r.y0 for a in board.areas.values() if a.grid == "mm" for r in a.mm), default=0) - 20)
    y1 = W + off + 20
    ppm = px_per_mm
    w, h = round((x1 - x0) * ppm), round((y1 - y0) * ppm)
    img = np.full((h, w, 3), (200, 205, 200), np.uint8)

    def px(x, y):
        return (round((x - x0) * ppm), round((y1 - y) * ppm))

    # pitch with mowing stripes one PS wide, then the MS grid, faint
    cv2.rectangle(img, px(0, W), px(L, 0), PITCH_BGR, -1)
    psw, _ = board.ps_size_mm
    for c in range(0, board.ps_cols, 2):
        cv2.rectangle(img, px(c * psw, W), px((c + 1) * psw, 0), STRIPE_BGR, -1)
    msw, msh = board.ms_size_mm
    for c in range(1, board.ms_cols):
        cv2.line(img, px(c * msw, 0), px(c * msw, W), (70, 150, 62), 1)
    for r in range(1, board.ms_rows):
        cv2.line(img, px(0, r * msh), px(L, r * msh), (70, 150, 62), 1)
    lw = max(1, round(1.5 * ppm))
    cv2.rectangle(img, px(0, W), px(L, 0), LINE_BGR, lw)
    cv2.line(img, px(L / 2, 0), px(L / 2, W), LINE_BGR, lw)
    cv2.circle(img, px(L / 2, W / 2), round(0.1 * L * ppm), LINE_BGR, lw)
    for name in ("penalty_area_low", "penalty_area_high", "goal_area_low", "goal_area_high"):
        if name in board.areas:
            for r in board.areas[name].rects:
                pw, ph = board.ps_size_mm if board.areas[name].grid == "PS" else board.ms_size_mm
                cv2.rectangle(img, px(r.col0 * pw, (r.row1 + 1) * ph), px((r.col1 + 1) * pw, r.row0 * ph), LINE_BGR, lw)
    for name, area in board.areas.items():
        if area.grid == "mm":
            for r in area.mm:
                cv2.rectangle(img, px(r.x0, r.y1), px(r.x1, r.y0), (150, 150, 150), -1)
                cv2.rectangle(img, px(r.x0, r.y1), px(r.x1, r.y0), (90, 90, 90), lw)
    # corner markers on their white squares
    s = markers.corners.side_mm
    for marker, (cx, cy) in markers.corners.centres_mm(L, W).items():
        m = round(s * ppm)
        mark = cv2.resize(marker_image(markers.dictionary, marker, 8), (m, m), interpolation=cv2.INTER_AREA)
        q = round(s / 6 * ppm)
        a, b = round((cx - s / 2 - x0) * ppm + 0.5), round((y1 - cy - s / 2) * ppm + 0.5)
        cv2.rectangle(img, (a - q, b - q), (a + m + q, b + m + q), (246, 246, 246), -1)
        img[b:b + m, a:a + m] = np.where(mark[..., None] > 127, 246, 18)
    to_board = np.array([[1 / ppm, 0, x0], [0, -1 / ppm, y1]])
    return PitchPrint(img, to_board)


# --- drawing --------------------------------------------------------------------------------------

def _padded(camera: CameraModel, pad: int) -> CameraModel:
    return replace(camera, width=camera.width + 2 * pad, height=camera.height + 2 * pad,
                   cx=camera.cx + pad, cy=camera.cy + pad, dist=(0.0,) * 5)


_map_cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def _cached_map(camera: CameraModel, pad: int) -> tuple[np.ndarray, np.ndarray]:
    key = f"{camera!r}/{pad}"
    if key not in _map_cache:
        if len(_map_cache) > 8:
            _map_cache.clear()
        step = 8
        gx = np.arange(camera.width, dtype=float)
        gy = np.arange(camera.height, dtype=float)
        # exact on a coarse grid, bilinear in between
        cgx = np.arange(0, camera.width + step, step, dtype=float)
        cgy = np.arange(0, camera.height + step, step, dtype=float)
        xx, yy = np.meshgrid(cgx, cgy)
        ideal = camera.undistort_pixels(np.column_stack([xx.ravel(), yy.ravel()])) + pad
        cmx = ideal[:, 0].reshape(xx.shape)
        cmy = ideal[:, 1].reshape(xx.shape)
        fx, fy = gx / step, gy / step
        ix, iy = np.minimum(fx.astype(int), len(cgx) - 2), np.minimum(fy.astype(int), len(cgy) - 2)
        wx, wy = (fx - ix)[None, :], (fy - iy)[:, None]

        def interp(c):
            a = c[iy][:, ix]
            b = c[iy][:, ix + 1]
            cc = c[iy + 1][:, ix]
            d = c[iy + 1][:, ix + 1]
            return ((1 - wy) * ((1 - wx) * a + wx * b) + wy * ((1 - wx) * cc + wx * d)).astype(np.float32)

        _map_cache[key] = (interp(cmx), interp(cmy))
    return _map_cache[key]


def _hand_polygons(hand: Hand) -> list[np.ndarray]:
    """Palm, fingers and forearm as polygons (N, 3) in board mm at the hand's height."""
    a = math.radians(hand.direction_deg)
    u = np.array([math.cos(a), math.sin(a)])
    v = np.array([-u[1], u[0]])
    c = np.array([hand.x_mm, hand.y_mm])
    k = hand.scale
    t = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    palm = c + np.outer(np.cos(t) * 45 * k, u) + np.outer(np.sin(t) * 40 * k, v)
    polys = [palm]
    for i, (off, length) in enumerate(((-27, 62), (-9, 72), (9, 70), (27, 58))):
        base = c + u * 30 * k + v * off * k
        tip = base + u * length * k
        w = 8 * k
        polys.append(np.array([base - v * w, tip - v * w * 0.8, tip + u * 6 * k, tip + v * w * 0.8, base + v * w]))
    thumb_base = c + v * 35 * k
    thumb_tip = thumb_base + (u * 0.6 + v * 0.8) * 50 * k
    polys.append(np.array([thumb_base - u * 9 * k, thumb_tip - u * 7 * k, thumb_tip + u * 7 * k, thumb_base + u * 9 * k]))
    wrist = c - u * 40 * k
    elbow = c - u * 600 * k
    polys.append(np.array([wrist + v * 36 * k, elbow + v * 45 * k, elbow - v * 45 * k, wrist - v * 36 * k]))
    return [np.column_stack([p, np.full(len(p), hand.z_mm)]) for p in polys]


def _project_ideal(cam: CameraModel, pts: np.ndarray) -> np.ndarray | None:
    """Project onto the padded pinhole image; None if any point is behind the camera."""
    pts = np.asarray(pts, float).reshape(-1, 3)
    if np.any(cam.depth(pts) <= 1.0):
        return None
    return cam.project(pts)


def _fill(img: np.ndarray, labels: np.ndarray, pts2d: np.ndarray, color, label: int = 0) -> None:
    poly = np.round(pts2d * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillPoly(img, [poly], color, lineType=cv2.LINE_AA, shift=4)
    cv2.fillPoly(labels, [poly], label, shift=4)


def _draw_cap(img: np.ndarray, labels: np.ndarray, cam: CameraModel, tex: np.ndarray, corners3d: np.ndarray,
              marker_quad3d: np.ndarray, label: int, shade: float) -> None:
    """Warp a cap texture onto its projected quad, supersampled, and label the marker's quad."""
    q = _project_ideal(cam, corners3d)
    if q is None:
        return
    x0, y0 = np.floor(q.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 2
    H, W = img.shape[:2]
    if x1 <= 0 or y1 <= 0 or x0 >= W or y0 >= H:
        return
    s = SUPERSAMPLE
    rw, rh = x1 - x0, y1 - y0
    side = tex.shape[0]
    # pixel centres sit at integers: the texture spans -0.5..side-0.5, and a pixel of the
    # supersampled ROI maps to (k + 0.5) / s - 0.5 in the frame
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32) - 0.5
    dst = ((q - [x0, y0] + 0.5) * s - 0.5).astype(np.float32)
    M = cv2.getPerspectiveTransform(src, dst)
    big = cv2.warpPerspective(tex, M, (rw * s, rh * s), flags=cv2.INTER_AREA, borderValue=0)
    alpha = cv2.warpPerspective(np.full(tex.shape[:2], 255, np.uint8), M, (rw * s, rh * s), flags=cv2.INTER_LINEAR, borderValue=0)
    small = cv2.resize(big, (rw, rh), interpolation=cv2.INTER_AREA).astype(np.float32) * shade
    a = cv2.resize(alpha, (rw, rh), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    sub = img[cy0:cy1, cx0:cx1].astype(np.float32)
    sm = small[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    aa = a[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0, None]
    img[cy0:cy1, cx0:cx1] = np.clip(sub * (1 - aa) + sm * aa, 0, 255).astype(np.uint8)
    # the cap hides what was drawn below it; the marker itself gets its label
    cv2.fillPoly(labels, [np.round(q * 16).astype(np.int32).reshape(-1, 1, 2)], 0, shift=4)
    mq = _project_ideal(cam, marker_quad3d)
    if mq is not None:
        cv2.fillPoly(labels, [np.round(mq * 16).astype(np.int32).reshape(-1, 1, 2)], label, shift=4)


def _distortion_pad(cam: CameraModel) -> int:
    """How far beyond the frame the pinhole image must reach for a barrel lens to fill the frame:
    the undistorted positions of the frame's border pixels, plus a little."""
    if not cam.has_distortion:
        return 0
    w, h = cam.width, cam.height
    t = np.linspace(0, 1, 33)
    border = np.concatenate([np.column_stack([t * w, np.zeros_like(t)]), np.column_stack([t * w, np.full_like(t, h)]),
                             np.column_stack([np.zeros_like(t), t * h]), np.column_stack([np.full_like(t, w), t * h])])
    ideal = cam.undistort_pixels(border)
    over = max(float(-ideal.min()), float((ideal[:, 0] - w).max()), float((ideal[:, 1] - h).max()), 0.0)
    return int(min(math.ceil(over) + 8, max(w, h)))


def render(scene: Scene) -> tuple[np.ndarray, dict[int, MarkerTruth]]:
    """Draw a scene: the frame, BGR uint8 (H, W, 3), and the truth of every marker it holds
    (figures, ball, corner markers), keyed by id."""
    cam, board, ms = scene.camera, scene.board, scene.markers
    pad = _distortion_pad(cam)
    ideal = _padded(cam, pad)
    Wp, Hp = ideal.width, ideal.height
    printed = pitch_print(board, ms)
    A = np.vstack([printed.to_board, [0, 0, 1]])
    Hm = ideal.plane_homography(0.0) @ A
    img = cv2.warpPerspective(printed.image, Hm, (Wp, Hp), flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR)
    for pr in scene.prints:  # flat on the board, under everything standing
        h, w = pr.image.shape[:2]
        k = pr.side_mm / max(h, w)
        a = math.radians(pr.turn_deg)
        R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) * k
        to_board = np.vstack([np.column_stack([R, np.array([pr.x_mm, pr.y_mm]) - R @ np.array([w / 2, h / 2])]),
                              [0, 0, 1]])
        Hp_ = ideal.plane_homography(0.0) @ to_board
        ink = cv2.warpPerspective(cv2.cvtColor(pr.image, cv2.COLOR_GRAY2BGR), Hp_, (Wp, Hp), flags=cv2.INTER_AREA)
        cover = cv2.warpPerspective(np.full((h, w), 255, np.uint8), Hp_, (Wp, Hp), flags=cv2.INTER_AREA)
        alpha = (cover.astype(np.float32) / 255.0)[..., None]
        img = (img * (1 - alpha) + ink * alpha).astype(np.uint8)
    labels = np.zeros((Hp, Wp), np.int16)
    # corner markers: label their quads (on the board plane, nothing above them but hands)
    quads: dict[int, np.ndarray] = {}
    for marker, corners in ms.corners.corners_mm(board.length_mm, board.width_mm).items():
        quads[marker] = corners
        q = _project_ideal(ideal, corners)
        if q is not None:
            cv2.fillPoly(labels, [np.round(q * 16).astype(np.int32).reshape(-1, 1, 2)], marker + 1, shift=4)
    truths_pose: dict[int, tuple[float, float, float, float]] = {}
    # far to near, the ball token first: everything standing is above it
    order = sorted(scene.figures, key=lambda f: (not f.ball, -float(ideal.depth(np.array([f.x_mm, f.y_mm, 0]))[0])))
    for f in (f for f in order if not f.ball):
        h = ms.cap_height_mm + f.lift_mm
        a = math.radians(f.facing_deg)
        u = np.array([math.cos(a), math.sin(a)])
        v = np.array([-u[1], u[0]])
        c = np.array([f.x_mm, f.y_mm])
        t = np.linspace(0, 2 * math.pi, 20, endpoint=False)
        base = np.column_stack([c + np.outer(np.cos(t), u * 8.5) + np.outer(np.sin(t), v * 8.5), np.full(20, f.lift_mm)])
        pb = _project_ideal(ideal, base)
        if pb is not None:
            _fill(img, labels, pb, (35, 35, 35))
        w = 7.5
        card = np.array([[*(c + v * w), f.lift_mm + 2], [*(c - v * w), f.lift_mm + 2], [*(c - v * w), h - 1],
                         [*(c + v * w), h - 1]])
        color = TEAM_BGR.get(f.team, (60, 60, 60))
        for side in (-1.0, 1.0):  # both faces of the standee, a hair apart
            pc = _project_ideal(ideal, card + np.array([*(u * side * 0.6), 0]))
            if pc is not None:
                _fill(img, labels, pc, color)
    for f in order:
        h = (ms.ball_height_mm if f.ball else ms.cap_height_mm) + f.lift_mm
        cap_mm = ms.ball_token_mm if f.ball else ms.cap_mm
        mk_mm = ms.ball_marker_mm if f.ball else ms.figure_marker_mm
        tex = cap_texture(ms.dictionary, f.marker, mk_mm, cap_mm, CAP_PX_PER_MM)
        corners = marker_corners_mm(f.x_mm, f.y_mm, cap_mm, f.facing_deg, h)
        quad = marker_corners_mm(f.x_mm, f.y_mm, mk_mm, f.facing_deg, h)
        quads[f.marker] = quad
        truths_pose[f.marker] = (f.x_mm, f.y_mm, f.facing_deg, h)
        shade = 1.0 if f.ball else 1.0 - 0.06 * (f.marker % 3)
        _draw_cap(img, labels, ideal, cv2.cvtColor(tex, cv2.COLOR_GRAY2BGR), corners, quad, f.marker + 1, shade)
    for hand in scene.hands:
        for poly in _hand_polygons(hand):
            p = _project_ideal(ideal, poly)
            if p is not None:
                _fill(img, labels, p, SKIN_BGR)
    # visibility from the labels, in the pinhole image
    truth: dict[int, MarkerTruth] = {}
    for marker, quad in quads.items():
        q = _project_ideal(ideal, quad)
        if q is None:
            continue
        x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int) - 1, 0)
        x1, y1 = np.minimum(np.ceil(q.max(axis=0)).astype(int) + 2, [Wp, Hp])
        if x1 <= x0 or y1 <= y0:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round((q - [x0, y0]) * 16).astype(np.int32).reshape(-1, 1, 2)], 1, shift=4)
        area = int(mask.sum())
        shown = int(np.count_nonzero((labels[y0:y1, x0:x1] == marker + 1) & (mask > 0)))
        px = cam.project(quad)
        inside = bool(np.all((px >= 1) & (px <= [cam.width - 2, cam.height - 2])))
        vis = (shown / area if area else 0.0) if inside else 0.0
        x, y, face, z = truths_pose.get(marker, (*np.mean(quad[:, :2], axis=0), 90.0, 0.0))
        side = float(np.mean(np.linalg.norm(px - np.roll(px, 1, axis=0), axis=1)))
        truth[marker] = MarkerTruth(marker, float(x), float(y), float(face), float(z), px, float(vis), side)
    if pad:
        mx, my = _cached_map(cam, pad)
        img = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR)
    return _apply_look(img, scene.look), truth


def _apply_look(img: np.ndarray, look: Look) -> np.ndarray:
    """Light falloff and glare (computed on a coarse grid: both are smooth), blur, noise, JPEG."""
    h, w = img.shape[:2]
    gh, gw = max(2, h // 8), max(2, w // 8)
    yy, xx = np.ogrid[0:gh, 0:gw]
    xx, yy = (xx + 0.5) / gw, (yy + 0.5) / gh
    gain = np.ones((gh, gw), np.float32)
    glow = np.zeros((gh, gw), np.float32)
    if look.gradient:
        a = math.radians(look.gradient_deg)
        ramp = np.clip((xx - 0.5) * math.cos(a) + (yy - 0.5) * math.sin(a) + 0.5, 0, 1)
        gain = (1.0 - look.gradient * ramp).astype(np.float32)
    if look.glare_gain and look.glare_radius:
        r2 = ((xx - look.glare_xy[0]) * w) ** 2 + ((yy - look.glare_xy[1]) * h) ** 2
        glow = (look.glare_gain * np.exp(-r2 / (2 * (look.glare_radius * w) ** 2))).astype(np.float32)
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    glow = cv2.resize(glow, (w, h), interpolation=cv2.INTER_LINEAR)
    out = img.astype(np.float32)
    out = cv2.add(cv2.multiply(out, cv2.merge([gain] * 3)), cv2.merge([glow] * 3))
    if look.blur_sigma > 0:
        out = cv2.GaussianBlur(out, (0, 0), look.blur_sigma)
    if look.noise_sigma > 0:
        noise = np.empty_like(out)
        cv2.setRNGSeed(look.seed)
        cv2.randn(noise, 0.0, float(look.noise_sigma))
        out = cv2.add(out, noise)
    img = np.clip(out, 0, 255).astype(np.uint8)
    if look.jpeg_quality:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(look.jpeg_quality)])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def compact_board() -> GridBoard:
    """A small board (8 x 6 pass squares of 2 x 2 movement squares, 20 mm each, a bench and a
    substitution area below the y = 0 touch line) whose frames render fast: for tests."""
    from companion.board import Area, MmRect

    return GridBoard(name="compact test board", length_mm=320.0, width_mm=240.0, ps_cols=8, ps_rows=6, ms_per_ps=2,
                     areas={"bench_home": Area("mm", mm=(MmRect(60.0, -80.0, 150.0, -20.0),)),
                            "substitution_area": Area("mm", mm=(MmRect(170.0, -80.0, 210.0, -20.0),))})


# --- random scenes --------------------------------------------------------------------------------

def random_camera(rng: np.random.Generator, board: GridBoard, markers: MarkerSet, size: tuple[int, int] = (1920, 1080),
                  max_tilt_deg: float = 25.0, height_mm: tuple[float, float] = (600.0, 1000.0),
                  yaw_deg: float | None = None, distortion: float = 0.1, fill: tuple[float, float] = (0.94, 1.0),
                  tilt_deg: float | None = None, min_tilt_deg: float = 0.0) -> CameraModel:
    """A webcam above the board: random height, tilt up to ``max_tilt_deg`` in any direction, the
    board's length along the frame's width (either way round, give or take 8 degrees) unless
    ``yaw_deg`` is given, a focal length that frames the whole board, and barrel distortion up to
    ``distortion`` (k1)."""
    W, H = size
    L, Wd = board.length_mm, board.width_mm
    tilt = math.radians(rng.uniform(min_tilt_deg, max_tilt_deg) if tilt_deg is None else tilt_deg)
    azim = rng.uniform(0, 2 * math.pi)
    yaw = math.radians(yaw_deg if yaw_deg is not None else rng.choice([0.0, 180.0]) + rng.uniform(-8, 8))
    height = rng.uniform(*height_mm)
    target = np.array([L / 2 + rng.uniform(-30, 30), Wd / 2 + rng.uniform(-60, 20), 0.0])
    axis = np.array([math.sin(tilt) * math.cos(azim), math.sin(tilt) * math.sin(azim), -math.cos(tilt)])
    centre = target - axis * height / math.cos(tilt)
    xdir = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    xdir = xdir - axis * (xdir @ axis)
    xdir /= np.linalg.norm(xdir)
    ydir = np.cross(axis, xdir)
    R = np.vstack([xdir, ydir, axis])
    extent = scene_extent_mm(board, markers)
    for _ in range(6):  # slide the camera sideways until the board sits in the middle of the frame
        cam_pts = (extent - centre) @ R.T
        xn, yn = cam_pts[:, 0] / cam_pts[:, 2], cam_pts[:, 1] / cam_pts[:, 2]
        mid = np.array([xn.max() + xn.min(), yn.max() + yn.min()]) / 2
        centre = centre + (mid[0] * xdir + mid[1] * ydir) * float(np.mean(cam_pts[:, 2]))
    t = -R @ centre
    cx, cy = W / 2 + rng.uniform(-0.015, 0.015) * W, H / 2 + rng.uniform(-0.015, 0.015) * H
    cam_pts = extent @ R.T + t
    xn, yn = cam_pts[:, 0] / cam_pts[:, 2], cam_pts[:, 1] / cam_pts[:, 2]
    margin = 0.01
    f = min(min((W * (1 - margin) - cx) / max(xn.max(), 1e-9), (cx - W * margin) / max(-xn.min(), 1e-9)),
            min((H * (1 - margin) - cy) / max(yn.max(), 1e-9), (cy - H * margin) / max(-yn.min(), 1e-9)))
    f *= rng.uniform(*fill)
    k1 = -rng.uniform(0, distortion) if distortion > 0 else 0.0
    k2 = rng.uniform(-0.3, 0.3) * abs(k1) if distortion > 0 else 0.0
    dist = (k1, k2, 0.0, 0.0, 0.0)
    return CameraModel(W, H, f, f, cx, cy, dist, tuple(cv2.Rodrigues(R)[0].ravel()), tuple(t))


def random_figures(rng: np.random.Generator, board: GridBoard, markers: MarkerSet, on_pitch: int | None = None,
                   benched: int = 6, jitter_mm: float = 4.0, ball: bool = True, walls: int = 0
                   ) -> tuple[FigurePose, ...]:
    """Figures on distinct movement squares (centre +- ``jitter_mm``), a few on the benches, the ball
    on a free square; ``walls`` rows of three figures shoulder to shoulder (caps touching)."""
    ids = list(markers.figure_ids)
    rng.shuffle(ids)
    benches = [a for name, a in sorted(board.areas.items()) if a.grid == "mm"]
    spots = []
    for area in benches:
        for r in area.mm:
            for x in np.arange(r.x0 + 15, r.x1 - 14, 25.0):
                spots.append((float(x), (r.y0 + r.y1) / 2))
    benched = min(benched, len(spots))
    if on_pitch is None:
        on_pitch = min(len(ids) - benched, board.ms_cols * board.ms_rows // 6)
    cols = board.ms_cols
    wall_cells: list[int] = []
    for _ in range(walls if on_pitch >= 3 * walls else 0):
        for _ in range(100):
            along_x = bool(rng.random() < 0.5)
            c0 = int(rng.integers(1, cols - (4 if along_x else 1)))
            r0 = int(rng.integers(1, board.ms_rows - (1 if along_x else 4)))
            row = [(r0 * cols + c0 + k) if along_x else ((r0 + k) * cols + c0) for k in range(3)]
            if not set(row) & set(wall_cells):
                wall_cells += row
                break
    free = np.setdiff1d(np.arange(cols * board.ms_rows), wall_cells)
    rest = rng.choice(free, size=on_pitch + 1 - len(wall_cells), replace=False)
    cells = np.concatenate([np.array(wall_cells, int), rest])
    half = len(markers.figure_ids) // 2
    figs = []
    for k, (marker, cell) in enumerate(zip(ids[:on_pitch], cells)):
        x, y = board.ms_center_mm((int(cell % cols), int(cell // cols)))
        j = 0.4 if k < len(wall_cells) else jitter_mm  # a wall stands square, caps all but touching
        figs.append(FigurePose(int(marker), x + rng.uniform(-j, j), y + rng.uniform(-j, j),
                               float(rng.uniform(0, 360)), team="home" if marker < half else "away"))
    for marker, i in zip(ids[on_pitch:on_pitch + benched], rng.permutation(len(spots))):
        x, y = spots[int(i)]
        figs.append(FigurePose(int(marker), x + rng.uniform(-2, 2), y + rng.uniform(-2, 2), float(rng.uniform(0, 360)),
                               team="home" if marker < half else "away"))
    if ball:
        x, y = board.ms_center_mm((int(cells[-1] % board.ms_cols), int(cells[-1] // board.ms_cols)))
        figs.append(FigurePose(markers.ball_id, x + rng.uniform(-jitter_mm, jitter_mm),
                               y + rng.uniform(-jitter_mm, jitter_mm), float(rng.uniform(0, 360)), ball=True))
    return tuple(figs)


def random_look(rng: np.random.Generator, strength: float = 1.0) -> Look:
    return Look(gradient=rng.uniform(0.1, 0.45) * strength, gradient_deg=rng.uniform(0, 360),
                glare_xy=(rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9)), glare_radius=rng.uniform(0.05, 0.15),
                glare_gain=rng.uniform(20, 80) * strength, blur_sigma=rng.uniform(0.3, 0.9) * strength,
                noise_sigma=rng.uniform(1.0, 4.0) * strength, jpeg_quality=int(rng.integers(75, 96)) if strength else 0,
                seed=int(rng.integers(1 << 30)))


def random_hand(rng: np.random.Generator, board: GridBoard) -> Hand:
    x, y = rng.uniform(100, board.length_mm - 100), rng.uniform(80, board.width_mm - 80)
    towards = 90.0 if y < board.width_mm / 2 else 270.0  # the arm reaches in from the nearer touch line
    return Hand(x, y, towards + rng.uniform(-30, 30), rng.uniform(60, 200), rng.uniform(0.9, 1.2))


def random_scene(seed: int, board: GridBoard, markers: MarkerSet = MarkerSet(), size: tuple[int, int] = (1920, 1080),
                 hand: bool | None = None, distortion: float = 0.1, look_strength: float = 1.0,
                 figures: int | None = None, **camera_kw) -> Scene:
    """A whole random scene from one seed."""
    rng = np.random.default_rng(seed)
    cam = random_camera(rng, board, markers, size, distortion=distortion, **camera_kw)
    figs = random_figures(rng, board, markers, **({} if figures is None else {"on_pitch": figures}))
    with_hand = bool(rng.random() < 0.5) if hand is None else hand
    hands = (random_hand(rng, board),) if with_hand else ()
    return Scene(cam, board, markers, figs, hands, random_look(rng, look_strength))


def render_charuco(camera: CameraModel, spec, rng: np.random.Generator, look_strength: float = 0.5) -> np.ndarray:
    """The printed ChArUco board (``calibration.lens.CharucoSpec``) held in front of ``camera``
    at a random distance and angle, through its lens: BGR uint8 (H, W, 3)."""
    ppm = 4.0
    sheet = spec.image(ppm * 25.4, margin_mm=8.0)
    bw, bh = sheet.shape[1] / ppm, sheet.shape[0] / ppm  # mm
    pad = _distortion_pad(camera)
    ideal = _padded(camera, pad)
    for _ in range(100):
        tilt = np.radians(rng.uniform(0, 40))
        axis = rng.normal(size=3)
        axis[2] = 0
        axis /= np.linalg.norm(axis)
        Rb = cv2.Rodrigues(axis * tilt)[0] @ cv2.Rodrigues(np.array([0, 0, rng.uniform(-0.3, 0.3)]))[0]
        dist = rng.uniform(1.1, 2.2) * max(bw, bh) * camera.fx / camera.width
        spot = np.array([rng.uniform(-0.3, 0.3) * camera.width, rng.uniform(-0.3, 0.3) * camera.height]) / camera.fx
        centre = np.array([spot[0] * dist, spot[1] * dist, dist])
        local = np.array([[-bw / 2, -bh / 2, 0], [bw / 2, -bh / 2, 0], [bw / 2, bh / 2, 0], [-bw / 2, bh / 2, 0]])
        cam_pts = local @ Rb.T + centre
        px = cam_pts[:, :2] / cam_pts[:, 2:3] * [ideal.fx, ideal.fy] + [ideal.cx, ideal.cy]
        inside = (px[:, 0] > pad) & (px[:, 0] < camera.width + pad) & (px[:, 1] > pad) & (px[:, 1] < camera.height + pad)
        if inside.all():
            break
    src = np.array([[0, 0], [sheet.shape[1], 0], [sheet.shape[1], sheet.shape[0]], [0, sheet.shape[0]]], np.float32) - 0.5
    M = cv2.getPerspectiveTransform(src, px.astype(np.float32))
    img = cv2.warpPerspective(cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR), M, (ideal.width, ideal.height),
                              flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR)
    if pad:
        mx, my = _cached_map(camera, pad)
        img = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR)
    return _apply_look(img, random_look(rng, look_strength))


def clutter(rng: np.random.Generator, board: GridBoard, n: int = 10, around_mm: float = 60.0) -> tuple[FlatPrint, ...]:
    """``n`` things printed flat on and around the pitch that are no figures: 6x6 markers, pieces
    of 5x5 and 6x6 ChArUco boards, dice faces and pictograms (a dark square with a white glyph,
    as on a cardboard box), 12-45 mm across, anywhere within ``around_mm`` of the pitch."""
    out = []
    for _ in range(n):
        kind = int(rng.integers(4))
        if kind == 0:  # a 6x6 marker with its white margin
            d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_6X6_250)
            img = cv2.copyMakeBorder(cv2.aruco.generateImageMarker(d, int(rng.integers(250)), 80), 10, 10, 10, 10,
                                     cv2.BORDER_CONSTANT, value=255)
        elif kind == 1:  # a corner of a ChArUco board
            name = cv2.aruco.DICT_5X5_100 if rng.random() < 0.5 else cv2.aruco.DICT_6X6_250
            b = cv2.aruco.CharucoBoard((3, 3), 0.04, 0.03, cv2.aruco.getPredefinedDictionary(name))
            b.setLegacyPattern(bool(rng.random() < 0.5))
            img = b.generateImage((240, 240), marginSize=10)
        elif kind == 2:  # a die's face
            img = np.full((90, 90), 245, np.uint8)
            pips = int(rng.integers(1, 7))
            spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
                     5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)]}
            for r, c in spots[pips]:
                cv2.circle(img, (20 + 25 * c, 20 + 25 * r), 9, 20, -1, cv2.LINE_AA)
        else:  # a pictogram: a dark rounded square, a white glyph in it
            img = np.full((100, 100), 200, np.uint8)
            cv2.rectangle(img, (12, 12), (88, 88), 35, -1)
            for _ in range(int(rng.integers(2, 5))):
                p = rng.integers(24, 76, size=4)
                cv2.line(img, (int(p[0]), int(p[1])), (int(p[2]), int(p[3])), 235, int(rng.integers(5, 11)))
        side = float(rng.uniform(12.0, 45.0))
        while True:  # off the corner markers (the calibration must see them)
            x = float(rng.uniform(-around_mm, board.length_mm + around_mm))
            y = float(rng.uniform(-around_mm, board.width_mm + around_mm))
            if min(math.hypot(x - cx, y - cy) for cx, cy in ((0, 0), (board.length_mm, 0), (0, board.width_mm),
                                                              (board.length_mm, board.width_mm))) > 90 + side:
                break
        out.append(FlatPrint(img, x, y, side, float(rng.uniform(0, 360))))
    return tuple(out)
