"""The rescue stage: markers the main search missed, read from rectified patches of the frame.

A 9 mm marker at 1080p is 7-10 px across, a cap seen at 35 degrees is 6-9 px across one way, and
a blurred 15 px marker has no clean outline: OpenCV's contours give no candidate for them, yet
with its corners known a marker of 8 px still reads by its blurred pattern. So here the cap
tops that no marker was read on are found cheaply, as dark squares of the expected marker size
on a small view of the caps' plane seen from straight above (the camera model makes every cap
the same size and shape there, whatever the tilt or distance); each is then rectified from the
full-resolution frame into a square patch of the plane (cubic interpolation, a fixed number of
pixels a cell), located there (its turn from the edges' directions, its centre where a marker's
black border inside a cap's white margin fits best, then an edge fit) and decoded by correlation
against every marker of the dictionary drawn as that patch's camera draws it (the frame's blur
and pixel carried into the patch: :mod:`vision.footprint`), each id at its best over a few
nudges of centre and turn, with a strict margin over the second-best id (and the bits, where a
threshold reads them, agreeing). A patch whose edges did not fit is looked at once more, turned
as its edges run about where the marker was located. The ball token, printed at its own size
and lying on the board, is searched for on its own plane at its own size when the main search
did not read it.

:func:`rescue` is the stage ``(setup, gray frame, detections so far) -> extra detections``;
:func:`draw_rescue` its debug image. Nothing is accepted that the main search read already, that
is not an id this search looks for, or whose edges do not fit (the size check downstream must
measure a marker, not be given the size assumed here).
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera import CameraModel

from .ball import ball_candidates, ball_patches, more_places, not_the_ball, read_ball
from .detect import Detection
from .extent import board_extent_mm
from .patches import Candidate, one_per_id, read_patches, spaced_out
from .plane import plane_view, resample
from .turned import look_turned

log = logging.getLogger(__name__)

_STEP = 8  # view pixels between exactly projected grid points (bilinear in between)


@dataclass(frozen=True, slots=True)
class RescueSettings:
    """How the rescue stage looks. The search view: ``view_marker_px``, a marker's side there (7: as
    many of the tuning scenes' markers were candidates as at 8, at three quarters of the pixels); a
    candidate's core darker than what is beside it by ``contrast`` on three sides of four and
    holding black and white ``spread`` apart (grey levels); with three or more markers of its size
    read, only candidates scoring ``like_share`` of their median (0, none: a small blurred marker
    scores far below the sharp ones read, and at 0.4 10 of the 9 mm tuning scenes' 499 markers were
    never looked at). The work per frame: at most ``max_patches`` figure candidates, and
    ``per_unread`` for each figure id not read yet (60 and 4: at 40 and 3 frames of 9 mm markers
    mostly unread spent them before reaching a third of their caps); ``max_ball_patches`` for the
    ball, read ``ball_first`` at a time, the next only where those read nothing (of 40 balls read on
    160 tuning frames, 37 were among the first 8). Of the candidates that read nothing, the
    likeliest are drawn again at ``turned_turns`` turns (:mod:`vision.turned`: a small marker's
    turn, measured on its patch at a third of the resolution, can be far off): ``turned_tries`` at
    most, and ``turned_per_unread`` for each figure id not read yet, of those whose cap margin
    showed ``turned_min_rim`` grey levels (12: at the first look's 15, one of the 9 mm tuning
    frames' markers was never tried); for the ball, where none was read, ``ball_tries`` at
    ``ball_turns`` turns (0 by default, since the ball's own search looks at every candidate
    over 12 turns after it; without this look the stage read the same 286 balls of 286 on 300
    tuning frames of the ball condition, in 5 % less time, and no ball on 200 ball-less ones,
    in 12-17 % less).
    Before any patch is drawn, a figure candidate beside a cap read
    (within ``body_caps`` caps, ``body_angle`` degrees of the line toward the camera's nadir)
    with under ``body_texture`` of that cap's texture is taken for its figure's body
    (:func:`figure_bodies`: 43 % of the ordinary tuning frames' candidates, none of which read);
    and any figure candidate whose texture is under ``smooth_texture`` of the caps read
    (:func:`too_smooth`: a gap between fingers, a figure's body, a line; a third of the ordinary
    tuning frames' candidates left after the bodies, none of which read).
    The patches: ``cell_px`` pixels a marker cell, ``patch_sides`` marker sides across; a first
    look keeps candidates whose cap margin is ``min_rim`` grey levels brighter than a black border
    and whose cells correlate ``screen_corr`` with some marker. The reading: a correlation of
    ``min_corr``, a contrast of ``min_contrast``, and a best id whose misfit is ``margin`` times
    smaller than any other id's (stricter than the main search's 2.5: these candidates are not
    outlines; 3 with templates drawn per patch, which fit a small marker's true id closer than the
    fixed ones did at 4). A marker whose cells are
    ``large_cell_px`` frame pixels or more needs ``margin_large``: one that large which fits no
    better than that is partly hidden (a neighbour's figure, an edge of a hand), and a hidden figure
    is never reported.

    The ball's own search (:mod:`vision.ball`): its candidates by its pattern (its dark squares
    within ``body_mm`` of a figure read last); where none was read, after the turned
    look, the likeliest ``ball_fits`` of its candidates, and of ``ball_places`` places taken as
    deep (drawn, not read), measured by the ball's own pattern (its 1.25 mm margin is too thin
    for the edges to fit)."""

    view_marker_px: float = 7.0
    cell_px: int = 6
    patch_sides: float = 1.9
    max_patches: int = 60
    per_unread: float = 4.0
    min_rim: float = 15.0
    screen_corr: float = 0.8
    like_share: float = 0.0
    max_ball_patches: int = 45
    ball_first: int = 10
    ball_tries: int = 0
    ball_turns: int = 8
    ball_fits: int = 4
    ball_places: int = 135
    body_mm: float = 9.0
    body_caps: float = 1.4
    body_angle: float = 40.0
    body_texture: float = 0.5
    smooth_texture: float = 0.12
    turned_tries: int = 20
    turned_per_unread: float = 2.0
    turned_turns: int = 4
    turned_min_rim: float = 12.0
    contrast: float = 12.0
    spread: float = 35.0
    min_corr: float = 0.93
    margin: float = 3.0
    min_contrast: float = 25.0
    margin_large: float = 4.0
    large_cell_px: float = 2.0


@dataclass(frozen=True, eq=False)
class SearchView:
    """The plane at ``z_mm`` seen from above at ``mm_per_px``: view pixel (col, row) is the board
    point (``x0_mm + col * mm_per_px``, ``y1_mm - row * mm_per_px``, ``z_mm``); ``maps`` are OpenCV's
    fixed-point remap tables (height, width) into the frame reduced ``shrink`` times (none for a
    view reduced from the plane search's, :func:`reduced_view`)."""

    camera: CameraModel
    z_mm: float
    mm_per_px: float
    x0_mm: float
    y1_mm: float
    shrink: int
    maps: tuple[np.ndarray, np.ndarray]

    def board_points(self, view_px: np.ndarray) -> np.ndarray:
        """View pixels (N, 2) -> board points (N, 3) mm."""
        p = np.asarray(view_px, np.float64).reshape(-1, 2)
        return np.column_stack([self.x0_mm + p[:, 0] * self.mm_per_px, self.y1_mm - p[:, 1] * self.mm_per_px,
                                np.full(len(p), self.z_mm)])

    def view_points(self, frame_px: np.ndarray) -> np.ndarray:
        """Frame pixels (N, 2) -> view pixels (N, 2), where their rays meet the view's plane."""
        if not len(frame_px):
            return np.zeros((0, 2))
        xy = self.camera.to_plane(np.asarray(frame_px, np.float64).reshape(-1, 2), self.z_mm)
        return np.column_stack([(xy[:, 0] - self.x0_mm) / self.mm_per_px, (self.y1_mm - xy[:, 1]) / self.mm_per_px])

    def image(self, gray: np.ndarray, reduced: dict | None = None) -> np.ndarray:
        """Grey frame (H, W) uint8 -> the view (height, width) uint8 (``reduced``: the frame's
        reductions made already, :func:`vision.plane.resample`)."""
        return resample(gray, self.shrink, self.maps, reduced)


_views: dict[tuple, tuple[object, SearchView]] = {}


def reduced_view(plane, image: np.ndarray, z_mm: float, mm_per_px: float) -> tuple[SearchView, np.ndarray] | None:
    """The search view at ``z_mm``, ``mm_per_px``, taken from the plane search's own view
    (``plane``: a :class:`vision.plane.PlaneView`, ``image`` (height, width) uint8) as every
    second pixel of it, when that view is of the same plane at half the millimetres a pixel;
    else None. The plane search has resampled the frame already, at these very points among
    others: this costs a hundredth of resampling it again, and gives what a view drawn from the
    frame gives but for the remap tables' rounding (the same figures, one either way, on 160
    tuning frames; a view averaged two by two instead lost 5 of 418 caps at 25-40 degrees)."""
    if plane.z_mm != z_mm or abs(2 * plane.mm_per_px - mm_per_px) > 1e-9 * mm_per_px:
        return None
    small = np.ascontiguousarray(image[::2, ::2])
    view = SearchView(plane.camera, z_mm, mm_per_px, plane.x0_mm, plane.y1_mm, 1, ())
    return view, small


def search_view(camera: CameraModel, board, markers, z_mm: float, marker_mm: float, marker_px: float) -> SearchView:
    """The view of the plane at ``z_mm`` in which a ``marker_mm`` marker is ``marker_px`` across
    (cached per camera, board, markers and plane)."""
    key = (camera, id(board), markers, z_mm, marker_mm, marker_px)
    if key not in _views:
        if len(_views) >= 8:
            _views.clear()
        _views[key] = (board, _search_view(camera, board, markers, z_mm, marker_mm / marker_px))
    return _views[key][1]


def _search_view(camera: CameraModel, board, markers, z_mm: float, mm_per_px: float) -> SearchView:
    ext = board_extent_mm(board, markers)
    on_plane = camera.to_plane(camera.project(ext), z_mm)
    pts = np.vstack([ext[:, :2], on_plane[np.isfinite(on_plane).all(axis=1)]])
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    width, height = int(np.ceil((x1 - x0) / mm_per_px)) + 1, int(np.ceil((y1 - y0) / mm_per_px)) + 1
    # a frame whose markers are three times the view's or more would alias: area-reduce it first
    # (below that the dark squares' box filters smooth what aliases, and a whole-frame reduction
    # would cost more than the view)
    ratio = camera.pixels_per_mm((x0 + x1) / 2, (y0 + y1) / 2, z_mm) * mm_per_px
    shrink = max(1, int(ratio / 1.2)) if ratio >= 3.0 else 1
    view = SearchView(camera, z_mm, mm_per_px, float(x0), float(y1), shrink, ())
    n_x, n_y = -(-width // _STEP) + 2, -(-height // _STEP) + 2
    gx = (np.arange(n_x) - 1) * _STEP + (_STEP - 1) / 2
    gy = (np.arange(n_y) - 1) * _STEP + (_STEP - 1) / 2
    GX, GY = np.meshgrid(gx, gy)
    px = camera.project(view.board_points(np.stack([GX, GY], axis=-1))).reshape(n_y, n_x, 2)
    px = (px + 0.5) / shrink - 0.5
    px[~np.isfinite(px)] = -1e4
    fine = [cv2.resize(np.clip(px[..., i], -1e4, 3e4).astype(np.float32), (n_x * _STEP, n_y * _STEP),
                       interpolation=cv2.INTER_LINEAR)[_STEP:_STEP + height, _STEP:_STEP + width] for i in (0, 1)]
    maps = cv2.convertMaps(fine[0], fine[1], cv2.CV_16SC2)  # OpenCV's fixed-point tables: the fast remap
    return SearchView(camera, z_mm, mm_per_px, float(x0), float(y1), shrink, maps)


# --- candidates -----------------------------------------------------------------------------------

def dark_squares(settings: RescueSettings, image: np.ndarray, side: float, taken: np.ndarray,
                 limit: int, taken_r: np.ndarray | None = None,
                 like: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Centres (N, 2) in view pixels, strongest first, and scores (N,) of dark squares of
    ``side`` view pixels in the view ``image`` (height, width) uint8, away from ``taken`` points
    (M, 2) (markers read already; farther than ``taken_r`` (M,) px each, by default 0.8 side):
    a core darker by ``contrast`` than what lies beside it on at least three of its four sides
    (a cap's figure may darken one) and holding black and white ``spread`` apart. At most
    ``limit``, no two within a side (caps touch at more). With three or more points ``like``
    (K, 2) (markers of this size read already), only candidates scoring ``like_share`` of
    their median score or more: in a frame where most caps read, what scores far below them
    is rarely a cap."""
    k = max(3, int(round(0.35 * side)) | 1)  # a marker's core
    # in whole grey levels (uint8 arithmetic, saturating): a quarter of the float work
    box = cv2.blur(image, (k, k), borderType=cv2.BORDER_REPLICATE)
    d = int(round(side / 4 + k / 2))  # beside the marker: its cap's margin and beyond
    h, w = image.shape
    pad = cv2.copyMakeBorder(box, d, d, d, d, cv2.BORDER_REPLICATE)
    a, b = pad[d:d + h, :w], pad[d:d + h, 2 * d:]
    c, e = pad[:h, d:d + w], pad[2 * d:, d:d + w]
    # the second darkest side (a sorting network's second output)
    beside = cv2.min(cv2.max(cv2.min(a, b), cv2.min(c, e)), cv2.min(cv2.max(a, b), cv2.max(c, e)))
    kernel = np.ones((k, k), np.uint8)
    spread = cv2.subtract(cv2.dilate(image, kernel), cv2.erode(image, kernel))
    dark = cv2.subtract(beside, box)
    # the score, half the spread plus the darkness, where both pass (whole grey levels)
    ok = cv2.bitwise_and(cv2.threshold(spread, settings.spread - 1, 255, cv2.THRESH_BINARY)[1],
                         cv2.threshold(dark, settings.contrast - 1, 255, cv2.THRESH_BINARY)[1])
    raw = cv2.bitwise_and(cv2.addWeighted(spread, 0.5, dark, 1.0, 0.0), ok)
    score = cv2.blur(raw, (k, k))
    peak = cv2.bitwise_and(cv2.compare(score, cv2.dilate(score, kernel), cv2.CMP_GE),
                           cv2.threshold(score, 0, 255, cv2.THRESH_BINARY)[1])
    where = cv2.findNonZero(cv2.bitwise_and(peak, ok))
    if where is None:
        return np.zeros((0, 2)), np.zeros(0)
    where = where.reshape(-1, 2)  # (N, 2) x, y
    xs, ys = where[:, 0], where[:, 1]
    sc = score[ys, xs].astype(np.float64)
    order = np.argsort(-sc, kind="stable")
    pts = np.column_stack([xs[order], ys[order]]).astype(np.float64)
    sc = sc[order]
    if like is not None and len(like) >= 3 and settings.like_share > 0:  # (at 0 it keeps every candidate)
        best = cv2.dilate(score, np.ones((2 * k + 1, 2 * k + 1), np.uint8))
        at = np.round(like).astype(int)
        inside = (at[:, 0] >= 0) & (at[:, 1] >= 0) & (at[:, 0] < w) & (at[:, 1] < h)
        if inside.sum() >= 3:
            ref = float(np.median(best[at[inside, 1], at[inside, 0]]))
            strong = sc >= settings.like_share * ref
            pts, sc = pts[strong], sc[strong] / max(ref, 1e-9)
    if len(taken):
        r = np.full(len(taken), 0.8 * side) if taken_r is None else np.maximum(taken_r, 0.8 * side)
        far = (_squared_distances(pts, taken) >= (r * r)[None]).all(axis=1)
        pts, sc = pts[far], sc[far]
    pts, sc = pts[:8 * limit], sc[:8 * limit]
    close = _squared_distances(pts, pts) < side * side
    keep = spaced_out(close, limit)
    return pts[keep], sc[keep]


def _squared_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Squared distances (N, M) between points (N, 2) and (M, 2), without a (N, M, 2) array."""
    dx = a[:, 0, None] - b[None, :, 0]
    dy = a[:, 1, None] - b[None, :, 1]
    return dx * dx + dy * dy


# --- the stage ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RescueReport:
    """What the stage did in one frame: the candidates looked at per search (figure caps, ball)
    and the milliseconds it took (thread CPU time)."""

    candidates: dict[str, list[Candidate]]
    views: dict[str, tuple[SearchView, np.ndarray]]
    ms: float


def rescue(setup, gray: np.ndarray, found: list[Detection], settings: RescueSettings | None = None,
           plane: tuple | None = None, reduced: dict | None = None) -> list[Detection]:
    """Markers in the grey frame (H, W) uint8 that the detections so far (``found``, frame
    pixels) do not hold (``setup``: a :class:`vision.locate.VisionSetup`): figure caps at the
    caps' height and size, and the ball token at its own if it was not read. ``plane``: the
    plane search's view and its image (:func:`vision.plane.search_plane`), reduced for the
    caps' search where it fits (:func:`reduced_view`). ``reduced``: the frame's reductions made
    already (:func:`vision.reduce.reduce_frame`). Returns the extra detections (frame pixels,
    ArUco order), sorted by id; never an id in ``found``."""
    return _rescue(setup, gray, found, settings, plane, reduced)[0]


def _rescue(setup, gray: np.ndarray, found: list[Detection], settings: RescueSettings | None,
            plane: tuple | None = None, reduced: dict | None = None) -> tuple[list[Detection], RescueReport]:
    settings = settings or getattr(setup, "rescue", None) or RescueSettings()
    t0 = time.thread_time()
    ms, cam = setup.markers, setup.camera
    have = {d.marker for d in found}
    searches = []
    figures = set(ms.figure_ids) - have
    if figures:
        searches.append(("figures", ms.cap_height_mm, ms.figure_marker_mm, ms.cap_mm, figures,
                         min(settings.max_patches, int(settings.per_unread * len(figures)))))
    if ms.ball_id not in have:
        searches.append(("ball", ms.ball_height_mm, ms.ball_marker_mm, ms.ball_token_mm, {ms.ball_id},
                         settings.max_ball_patches))
    out: list[Detection] = []
    stories: dict[str, list[Candidate]] = {}
    views: dict[str, tuple[SearchView, np.ndarray]] = {}
    reduced = {} if reduced is None else reduced  # the frame reduced, shared by the views (4K: caps and ball)
    for name, z, marker_mm, cap_mm, accept, limit in searches:
        shared = reduced_view(*plane, z, marker_mm / settings.view_marker_px) if plane is not None else None
        if shared is None:
            view = search_view(cam, setup.board, ms, z, marker_mm, settings.view_marker_px)
            image = view.image(gray, reduced)
        else:
            view, image = shared
        # what is read already, as the view sees it: its centre, and as far as its corners reach
        known = found + out
        corners = view.view_points(np.array([d.corners for d in known]).reshape(-1, 2)).reshape(-1, 4, 2)
        taken = corners.mean(axis=1)
        reach = np.linalg.norm(corners - taken[:, None], axis=2).max(axis=1) if len(known) else np.zeros(0)
        like = taken[[ms.side_of(d.marker) == marker_mm and ms.height_of(d.marker) == z for d in known]]
        if name == "ball":
            # the ball lies on the board, never under a figure's cap: the board within half a cap
            # of where a figure read stands is its base (a third of the ball's candidates in
            # 160 tuning frames were figures' bases; no ball was read within 1.3 caps of one)
            figures = [d for d in known if d.marker in ms.figure_ids]
            caps = np.array([d.center for d in figures]).reshape(-1, 2)
            bodies = _bodies(view, cam, caps, ms.cap_height_mm)
            stand = bodies[0][np.isfinite(bodies[0]).all(axis=1)]  # the figures' feet
            r = 0.5 * ms.cap_mm / view.mm_per_px

            def find(im: np.ndarray, n: int) -> np.ndarray:
                pts = dark_squares(settings, im, settings.view_marker_px, taken, n, reach, like)[0]
                return pts[(_squared_distances(pts, stand) >= r * r).all(axis=1)] if len(stand) and len(pts) else pts

            # by its own pattern, its dark squares on the figures' bodies last (vision.ball)
            centres = ball_candidates(find, image, ms.dictionary, ms.ball_id, settings.view_marker_px, limit,
                                      bodies, settings.body_mm / view.mm_per_px, settings.contrast)
            # the ball, one id, in batches: it is mostly among the strongest few (the next batch is
            # read only where those read nothing)
            got, story = [], []
            for start in range(0, len(centres), settings.ball_first):
                more, seen = read_patches(settings, gray, cam, view, centres[start:start + settings.ball_first],
                                          marker_mm, cap_mm, ms.dictionary, accept)
                got, story = got + more, story + seen
                if got:
                    break
        else:
            centres, _ = dark_squares(settings, image, settings.view_marker_px, taken, limit, reach, like)
            if shared is not None and (settings.body_texture > 0 or settings.smooth_texture > 0):
                # the dark bodies beside the caps read, seen from above at the caps' height, and
                # what is too smooth to be a marker (each point's texture measured once for both)
                mine = taken[[d.marker in ms.figure_ids for d in known]]
                both = textures(settings, plane[1], centres, mine)
                drop = np.zeros(len(centres), bool)
                if settings.body_texture > 0:
                    drop |= figure_bodies(settings, view, plane[1], centres, mine, ms.cap_mm, both)
                if settings.smooth_texture > 0:
                    drop |= too_smooth(settings, view, plane[1], centres, mine, marker_mm, both)
                centres = centres[~drop]
            got, story = read_patches(settings, gray, cam, view, centres, marker_mm, cap_mm, ms.dictionary,
                                      accept - {d.marker for d in out})
        # the likeliest of those that read nothing, turned every way (the ball: where none was read)
        tries = settings.ball_tries if name == "ball" else min(settings.turned_tries,
                                                               int(settings.turned_per_unread * len(accept)))
        left = accept - {d.marker for d in out} - {d.marker for d in got}
        if tries and left and (name != "ball" or not got):
            more, seen = look_turned(settings, gray, cam, view, story, marker_mm, cap_mm, ms.dictionary, left, tries,
                                     settings.ball_turns if name == "ball" else settings.turned_turns)
            got, story = got + more, story + seen
        if name == "ball" and settings.ball_fits and not got:  # measured by its pattern (vision.ball)
            places = more_places(find, image, ms.dictionary, ms.ball_id, settings.view_marker_px,
                                 settings.ball_places, centres, settings.contrast)
            got = read_ball(settings, story, marker_mm, cap_mm, ms.dictionary, ms.ball_id, settings.ball_fits,
                            not_the_ball(ms, {d.marker for d in known}),
                            ball_patches(settings, gray, cam, view, places, marker_mm))
        out += one_per_id(got)
        stories[name] = story
        views[name] = (view, image)
    spent = 1000 * (time.thread_time() - t0)
    log.debug("rescue: %d read from %d candidates in %.1f ms", len(out), sum(map(len, stories.values())), spent)
    return sorted(out, key=lambda d: d.marker), RescueReport(stories, views, spent)


def textures(settings: RescueSettings, fine: np.ndarray, centres: np.ndarray,
             caps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The texture of each candidate (N,) and of each cap read (M,) (``centres`` (N, 2) and
    ``caps`` (M, 2), view pixels), as :func:`figure_bodies` and :func:`too_smooth` compare them:
    on ``fine``, the plane search's view at twice the resolution ((2h, 2w) uint8), within a
    marker's side (:func:`_texture`), in one pass."""
    if not len(centres) or not len(caps):
        return np.zeros(len(centres)), np.zeros(len(caps))
    t = _texture(fine, 2 * np.vstack([centres, caps]), 2 * settings.view_marker_px)
    return t[:len(centres)], t[len(centres):]


def figure_bodies(settings: RescueSettings, view: SearchView, fine: np.ndarray, centres: np.ndarray,
                  caps: np.ndarray, cap_mm: float,
                  measured: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Which candidates (``centres`` (N, 2), view pixels) are a read figure's own body (N,) bool.

    Seen from above at the caps' height, a standing figure's body lies beside its cap on the
    side toward the camera's nadir (its lower parts meet that plane nearer the camera), a dark
    blob in which the caps' search finds a dark square (on the ordinary tuning frames 77 of its
    180 candidates, none of which read). A candidate within ``body_caps`` cap widths of the nearest
    figure read (``caps`` (M, 2), view pixels) and within ``body_angle`` degrees of the line
    from that cap toward the nadir is taken for its body if its texture (the mean squared gradient
    around it, on ``fine``, the plane search's view at twice the resolution: (2h, 2w) uint8) is
    under ``body_texture`` of the cap's own: a marker read there, blurred or tilted, had 0.74 of
    its neighbour's or more on the tuning frames, most bodies under 0.4. ``measured``: the
    candidates' and caps' textures, where :func:`textures` measured them already."""
    out = np.zeros(len(centres), bool)
    if not len(centres) or not len(caps):
        return out
    cx, cy, _ = view.camera.center_mm
    nadir = np.array([(cx - view.x0_mm) / view.mm_per_px, (view.y1_mm - cy) / view.mm_per_px])
    d2 = _squared_distances(centres, caps)
    near = d2.argmin(axis=1)
    away = centres - caps[near]  # from the nearest cap read to the candidate
    inward = nadir - caps[near]  # from that cap toward the nadir
    dist = np.sqrt(d2[np.arange(len(centres)), near])
    cos = (away * inward).sum(axis=1) / np.maximum(dist * np.linalg.norm(inward, axis=1), 1e-9)
    zone = (dist * view.mm_per_px < settings.body_caps * cap_mm) & (cos > math.cos(math.radians(settings.body_angle)))
    if not zone.any():
        return out
    mine, theirs = measured if measured is not None else textures(settings, fine, centres, caps)
    out[zone] = mine[zone] < settings.body_texture * theirs[near[zone]]
    return out


def too_smooth(settings: RescueSettings, view: SearchView, fine: np.ndarray, centres: np.ndarray,
               caps: np.ndarray, marker_mm: float,
               measured: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Which candidates (``centres`` (N, 2), view pixels) are too smooth to be a marker (N,) bool.

    A marker's cells give it edges; most of what else the caps' search finds (the gaps between a
    hand's fingers, figures' bodies, the pitch's lines) has few. A candidate's texture (as
    :func:`figure_bodies` measures it, on ``fine``, the plane search's view at twice the
    resolution: (2h, 2w) uint8) under ``smooth_texture`` of the median of the caps read (``caps``
    (M, 2), view pixels; three at least, else none is refused) is refused, that share scaled by
    the square of how much fewer frame pixels the candidate's marker has than theirs where it has
    fewer than the view gives it (a small or far marker is enlarged into the view, its gradients
    weaker). On the tuning frames of ten conditions every candidate that read, partly covered or
    not, had 0.2 of it or more (a third of the ordinary frames' candidates were under 0.12).
    ``measured``: the candidates' and caps' textures, where :func:`textures` measured them."""
    out = np.zeros(len(centres), bool)
    if not len(centres) or len(caps) < 3:
        return out
    side = 2 * settings.view_marker_px  # a marker's side on the fine view
    texture = np.concatenate(measured if measured is not None else textures(settings, fine, centres, caps))
    # a marker's side in frame pixels at each point, against its side in the view
    scale = np.minimum(1.0, view.camera.scales_at(view.board_points(np.vstack([centres, caps]))) * marker_mm / side)
    k = len(centres)
    ref, ref_scale = float(np.median(texture[k:])), float(np.median(scale[k:]))
    if not (ref > 0 and ref_scale > 0):  # nothing to measure against (or NaN): refuse none
        return out
    out[:] = texture[:k] < settings.smooth_texture * ref * (scale[:k] / ref_scale) ** 2
    return out


def _texture(image: np.ndarray, points: np.ndarray, side: float) -> np.ndarray:
    """The mean squared gradient (N,) (3 x 3 Sobel) of ``image`` (H, W) uint8 within a marker's
    side of ``points`` (N, 2) (pixels), weighted by a Gaussian of half a side."""
    r = int(round(side))
    span = np.arange(-r - 1, r + 2)
    h, w = image.shape
    m = 2 * r + 3
    x0 = np.round(points[:, 0]).astype(int) - r - 1
    y0 = np.round(points[:, 1]).astype(int) - r - 1
    if len(points) and x0.min() >= 0 and y0.min() >= 0 and x0.max() + m <= w and y0.max() + m <= h:
        # all inside: whole blocks of a strided view (a tenth of the cost of gathering each pixel)
        crops = np.lib.stride_tricks.sliding_window_view(image, (m, m))[y0, x0]
    else:
        xs = np.clip(x0[:, None] + r + 1 + span, 0, w - 1)
        ys = np.clip(y0[:, None] + r + 1 + span, 0, h - 1)
        crops = image[ys[:, :, None], xs[:, None, :]]  # (N, 2r + 3, 2r + 3), the edge repeated
    gx, gy = (g.reshape(-1, m, m)[:, 1:-1, 1:-1].astype(np.float32) for g in cv2.spatialGradient(crops.reshape(-1, m)))
    t = np.arange(-r, r + 1, dtype=np.float32)
    g1 = np.exp(-t * t / (2 * (side / 2) ** 2))
    wt = g1[:, None] * g1[None, :]
    return ((gx * gx + gy * gy) * wt).sum(axis=(1, 2)) / wt.sum()


def _bodies(view: SearchView, camera: CameraModel, caps_px: np.ndarray,
            cap_height_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Standing figures in the view (its plane below their caps): each one's foot, under its cap,
    and where the ray through its cap's middle meets the view's plane, view pixels (M, 2) each,
    for caps whose middles are ``caps_px`` (M, 2) frame pixels at ``cap_height_mm``."""
    if not len(caps_px):
        return np.zeros((0, 2)), np.zeros((0, 2))
    xy = camera.to_plane(caps_px, cap_height_mm)[:, :2]
    feet = np.column_stack([(xy[:, 0] - view.x0_mm) / view.mm_per_px, (view.y1_mm - xy[:, 1]) / view.mm_per_px])
    return feet, view.view_points(caps_px)


def draw_rescue(setup, gray: np.ndarray, found: list[Detection], settings: RescueSettings | None = None) -> np.ndarray:
    """Debug image (rows, cols, 3) BGR: each search's view with its candidates outlined (green:
    read, yellow: edges fitted but nothing read, red: refused at the first look or no edges), and
    below it a strip of the rectified patches with the square located in each (the caps'
    search from the plane search's view, as :func:`vision.locate.read_frame` runs it)."""
    plane = None
    if getattr(setup, "plane", None) is not None:
        view = plane_view(setup.camera, setup.board, setup.markers, setup.plane)
        plane = (view, view.rectify(gray))
    _, report = _rescue(setup, gray, found, settings, plane)
    panels = []
    for name, (view, image) in report.views.items():
        out = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        side = (setup.markers.figure_marker_mm if name == "figures" else setup.markers.ball_marker_mm) / view.mm_per_px
        tiles = []
        for cand in report.candidates[name]:
            colour = (60, 220, 60) if cand.marker >= 0 else ((0, 220, 255) if cand.fitted else (40, 40, 240))
            x, y = cand.view_px
            h = side / 2
            cv2.rectangle(out, (int(x - h), int(y - h)), (int(x + h), int(y + h)), colour, 1)
            if cand.marker >= 0:
                cv2.putText(out, str(cand.marker), (int(x + h + 1), int(y)), cv2.FONT_HERSHEY_PLAIN, 0.8, colour, 1)
            tile = cv2.cvtColor(cand.patch, cv2.COLOR_GRAY2BGR)
            cv2.polylines(tile, [np.round(cand.quad * 16).astype(np.int32).reshape(-1, 1, 2)], True, colour, 1,
                          cv2.LINE_AA, shift=4)
            tiles.append(tile)
        if tiles:
            per_row = max(1, out.shape[1] // tiles[0].shape[1])
            while len(tiles) % per_row:
                tiles.append(np.zeros_like(tiles[0]))
            rows = [np.hstack(tiles[i:i + per_row]) for i in range(0, len(tiles), per_row)]
            strip = np.vstack(rows)
            pad = np.zeros((strip.shape[0], out.shape[1], 3), np.uint8)
            pad[:, :min(out.shape[1], strip.shape[1])] = strip[:, :out.shape[1]]
            out = np.vstack([out, pad])
        cv2.putText(out, name, (4, 14), cv2.FONT_HERSHEY_PLAIN, 1.0, (255, 220, 0), 1)
        panels.append(out)
    if not panels:
        return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
    width = max(p.shape[1] for p in panels)
    return np.vstack([cv2.copyMakeBorder(p, 0, 4, 0, width - p.shape[1], cv2.BORDER_CONSTANT) for p in panels])
