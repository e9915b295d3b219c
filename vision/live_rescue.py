"""The rescue stage in live mode: a second look at a few places of the frame, not the whole board.

The live reader's search (:mod:`vision.live`) works from OpenCV's contours: a blurred 15 px
marker has no clean outline, and caps standing shoulder to shoulder, their markers' borders
touching where one cap hides the edge of the next, merge into one outline that is no quad. The
rescue stage (:mod:`vision.rescue`) reads such markers from rectified patches, but run on the
whole board it costs more than the rest of a live frame. Here it runs only where it pays
(:func:`look_again`): around the places where the reader or the rules expect a figure that this
frame did not read, accepting there only that figure's id (a partly covered marker cannot come
out as another figure), and in the band of the board the reader sweeps this frame, accepting
any figure id not read yet but never where a figure was read before (caps never read at all:
the walls of touching caps).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .detect import Detection, Rect
from .patches import one_per_id, read_patches
from .reduce import reduce_frame
from .rescue import RescueSettings, dark_squares, search_view


@dataclass(frozen=True, slots=True)
class Place:
    """Where to look again: ``rect`` (x0, y0, x1, y1, frame pixels), the ids that may be read
    there (``accept``; empty: any figure id not read in this frame and not known elsewhere), at
    most ``limit`` candidates there; or, given ``centre`` (frame pixels: where the marker was
    last read), that one candidate alone (the reading finds a marker within half its side)."""

    rect: Rect
    accept: frozenset[int] = frozenset()
    limit: int = 2
    centre: tuple[float, float] | None = None

    def __repr__(self) -> str:
        return f"Place({self.rect!r}, accept={sorted(self.accept)!r}, limit={self.limit}, centre={self.centre!r})"


def look_again(setup, settings: RescueSettings, gray: np.ndarray, found: list[Detection], places: list[Place],
               known: list[Detection] = (), barren: np.ndarray | None = None
               ) -> tuple[list[Detection], np.ndarray, list[int]]:
    """Markers read in the grey frame (H, W) uint8 at ``places`` by the rescue stage's candidate
    search (dark squares of a marker's size on the caps' plane seen from above, here only on the
    part of that view under each place) and its reading (:func:`vision.patches.read_patches`).
    ``found``: read in this frame already (never read again, their places not searched);
    ``known``: where markers were read before (an open place, ``accept`` empty, does not search
    there either, nor within a marker of the ``barren`` points (K, 2) frame pixels). Returns
    the detections (frame pixels) sorted by id, each id at most once, inside a place that
    accepts it (an id read at two places is no reading), the open places' candidates that
    read as nothing (M, 2) frame pixels (the caller may keep off them for a while), and how
    many candidates each place had (a place with fewer than its ``limit`` had every one it
    holds looked at)."""
    empty = np.zeros((0, 2))
    tried = [0] * len(places)
    if not places:
        return [], empty, tried
    ms, cam = setup.markers, setup.camera
    have = {d.marker for d in found}
    avoid = list(found) + [d for d in known if d.marker not in have]
    open_ids = frozenset(ms.figure_ids) - have - {d.marker for d in known}
    got: list[tuple[Detection, int]] = []
    fruitless: list[np.ndarray] = []  # frame pixels
    reduced: dict[int, np.ndarray] = {}
    for ball in (False, True):
        # an open place with every figure id read or known elsewhere has nothing left to read
        group = [(i, p) for i, p in enumerate(places) if (ms.ball_id in p.accept) == ball and (p.accept or open_ids)]
        if not group:
            continue
        if ball:
            z, marker_mm, cap_mm = ms.ball_height_mm, ms.ball_marker_mm, ms.ball_token_mm
        else:
            z, marker_mm, cap_mm = ms.cap_height_mm, ms.figure_marker_mm, ms.cap_mm
        side = settings.view_marker_px
        view = search_view(cam, setup.board, ms, z, marker_mm, side)
        # as the whole view would be drawn (vision.plane.resample), the caps' reduction kept for the ball's
        source = reduce_frame(gray, view.shrink, reduced)
        vh, vw = view.maps[1].shape[:2]
        # markers read, by their centres (a marker of another size or height is a little off
        # there: the candidates keep 0.8 of a side off it, as in the rescue stage)
        taken = view.view_points(np.array([d.center for d in avoid]).reshape(-1, 2))
        reach = np.full(len(avoid), 0.8 * side)
        like = taken[[ms.side_of(d.marker) == marker_mm and ms.height_of(d.marker) == z for d in avoid]]
        spent = view.view_points(barren) if barren is not None and len(barren) else empty
        centres, owner = [], []
        for i, p in group:
            x0, y0, x1, y1 = p.rect
            box = view.view_points(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))
            if not np.isfinite(box).all():
                continue
            (bx0, by0), (bx1, by1) = np.floor(box.min(axis=0)).astype(int), np.ceil(box.max(axis=0)).astype(int)
            bx0, by0, bx1, by1 = max(bx0, 0), max(by0, 0), min(bx1 + 1, vw), min(by1 + 1, vh)
            if p.centre is None and bx1 - bx0 >= 2 * side and by1 - by0 >= 2 * side:
                maps = (view.maps[0][by0:by1, bx0:bx1], view.maps[1][by0:by1, bx0:bx1])
                part = cv2.remap(source, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
                offset = np.array([bx0, by0], np.float64)
                # an open place keeps off every marker read before, a place for one id only off
                # the others: that id's own last place is where it is looked for
                if p.accept:
                    keep = np.array([d.marker not in p.accept for d in avoid], bool)
                    off, off_r, alike = taken[keep], reach[keep], None
                else:  # and off the spots found fruitless lately; only candidates like the caps read
                    off = np.vstack([taken, spent])
                    off_r, alike = np.concatenate([reach, np.full(len(spent), side)]), like - offset
                pts, _ = dark_squares(settings, part, side, off - offset, p.limit, off_r, alike)
                tried[i] += len(pts)
                for q in pts + offset:
                    centres.append(q)
                    owner.append(i)
            if p.centre is not None:
                at = view.view_points(np.array([p.centre], np.float64))[0]
                if np.isfinite(at).all() and 0 <= at[0] < vw and 0 <= at[1] < vh:
                    tried[i] += 1
                    centres.append(at)
                    owner.append(i)
        if not centres:
            continue
        accept = set().union(*(places[i].accept or open_ids for i, _ in group)) - have
        if not accept:
            continue
        centres = np.array(centres)
        dets, stories = read_patches(settings, gray, cam, view, centres, marker_mm, cap_mm, ms.dictionary, accept)
        it = iter(dets)
        for j, (story, i) in enumerate(zip(stories, owner)):
            if story.marker < 0:
                if not places[i].accept:
                    fruitless.append(cam.project(view.board_points(centres[j:j + 1]))[0])
                continue
            d = next(it)
            p = places[i]
            x0, y0, x1, y1 = p.rect
            if (d.marker in (p.accept or open_ids) and x0 <= d.center[0] < x1 and y0 <= d.center[1] < y1):
                got.append((d, i))
    return one_per_id([d for d, _ in got]), np.array(fruitless) if fruitless else empty, tried

