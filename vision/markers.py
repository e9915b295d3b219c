"""The printable marker sheet: figure caps, the ball token and the corner markers at true size,
with cut lines, labels, a 100 mm check bar and a diagram of where the corner markers go."""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.board import GridBoard

from .config import MarkerMap, MarkerSet
from .printing import PAPER_MM, page_pixels
from .synth import marker_image

FONT = cv2.FONT_HERSHEY_SIMPLEX


class Sheet:
    """A white page drawn in millimetres."""

    def __init__(self, paper: str, dpi: float):
        self.dpi = dpi
        self.w_mm, self.h_mm = PAPER_MM[paper]
        w, h = page_pixels(paper, dpi)
        self.image = np.full((h, w), 255, np.uint8)

    def px(self, mm: float) -> int:
        return int(round(mm * self.dpi / 25.4))

    def text(self, x_mm: float, y_mm: float, text: str, height_mm: float = 2.5, thick: int = 1) -> None:
        scale = self.px(height_mm) / 22.0
        cv2.putText(self.image, text, (self.px(x_mm), self.px(y_mm)), FONT, scale, 0,
                    max(1, round(thick * scale * 1.5)), cv2.LINE_AA)

    def marker(self, x_mm: float, y_mm: float, side_mm: float, marker: int, dictionary: str) -> None:
        """A marker with its top-left corner at (x_mm, y_mm) on the page, exactly ``side_mm``."""
        side = self.px(side_mm)
        cells = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary)).markerSize + 2
        big = marker_image(dictionary, marker, max(1, math.ceil(side / cells)))
        img = cv2.resize(big, (side, side), interpolation=cv2.INTER_NEAREST)
        x, y = self.px(x_mm), self.px(y_mm)
        self.image[y:y + side, x:x + side] = img

    def cut(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float) -> None:
        """A dashed grey cut line around a rectangle."""
        x0, y0, x1, y1 = self.px(x_mm), self.px(y_mm), self.px(x_mm + w_mm), self.px(y_mm + h_mm)
        dash = max(2, self.px(1.0))
        for a, b, horizontal in ((x0, x1, True), (y0, y1, False)):
            for s in range(a, b, 2 * dash):
                e = min(s + dash, b)
                if horizontal:
                    cv2.line(self.image, (s, y0), (e, y0), 150, 1)
                    cv2.line(self.image, (s, y1), (e, y1), 150, 1)
                else:
                    cv2.line(self.image, (x0, s), (x0, e), 150, 1)
                    cv2.line(self.image, (x1, s), (x1, e), 150, 1)


def marker_sheet(board: GridBoard, markers: MarkerSet = MarkerSet(), marker_map: MarkerMap | None = None,
                 paper: str = "a4", dpi: float = 300.0) -> np.ndarray:
    """The whole sheet, grey uint8 (H, W), ``dpi`` pixels an inch on ``paper``."""
    marker_map = marker_map or MarkerMap.default(markers)
    s = Sheet(paper, dpi)
    margin = 10.0
    y = margin + 5
    s.text(margin, y, "Touchline markers: print at 100 % (no scaling, no 'fit to page')", 3.2, 2)
    y += 6
    s.text(margin, y, f"Caps: {markers.figure_marker_mm:g} mm markers on {markers.cap_mm:g} mm caps, on top of each "
                      f"figure {markers.cap_height_mm:g} mm above the board; top edge where the figure faces.", 2.0)
    y += 5
    cv2.line(s.image, (s.px(margin), s.px(y)), (s.px(margin + 100), s.px(y)), 0, max(1, s.px(0.4)))
    for k in range(11):
        cv2.line(s.image, (s.px(margin + 10 * k), s.px(y - (2 if k % 5 else 3))), (s.px(margin + 10 * k), s.px(y)), 0,
                 max(1, s.px(0.25)))
    s.text(margin + 103, y + 1, "check: this bar is 100 mm", 2.2)
    y += 6
    cap, mk = markers.cap_mm, markers.figure_marker_mm
    pitch_x = cap + 4
    cols = max(1, int((s.w_mm - 2 * margin + 4) // pitch_x))
    entries = [(m, str(marker_map.get(m).player) if marker_map.get(m) else "unmapped") for m in markers.figure_ids]
    entries.append((markers.ball_id, "ball"))
    for i, (marker, label) in enumerate(entries):
        cx = margin + (i % cols) * pitch_x
        cy = y + (i // cols) * (cap + 7)
        side, inner = (markers.ball_token_mm, markers.ball_marker_mm) if marker == markers.ball_id else (cap, mk)
        s.cut(cx, cy, side, side)
        s.marker(cx + (side - inner) / 2, cy + (side - inner) / 2, inner, marker, markers.dictionary)
        s.text(cx, cy + side + 4, f"{marker} {label}", 2.0)
    y += math.ceil(len(entries) / cols) * (cap + 7) + 2
    layout = markers.corners
    L, W = board.length_mm, board.width_mm
    s.text(margin, y, "Corner markers: lay each flat beside its pitch corner, top edge towards the far touch line.", 2.2)
    y += 4
    quiet = layout.side_mm / 6
    box = layout.side_mm + 2 * quiet
    names = ("(0,0)", "(L,0)", "(L,W)", "(0,W)")
    order = (3, 2, 0, 1)  # laid out as they sit round the pitch seen from above: (0,W) (L,W) / (0,0) (L,0)
    for slot, i in enumerate(order):
        marker = layout.ids[i]
        cx = margin + (slot % 2) * (box + 6)
        cy = y + (slot // 2) * (box + 8)
        s.cut(cx, cy, box, box)
        s.marker(cx + quiet, cy + quiet, layout.side_mm, marker, markers.dictionary)
        s.text(cx, cy + box + 4, f"{marker}: beside corner {names[i]}", 2.0)
    # the diagram: pitch seen from above, y = 0 touch line at the bottom, right of the markers
    left = margin + 2 * box + 14
    dw = s.w_mm - margin - left
    k = dw / (L + 2 * (layout.offset_mm + layout.side_mm))
    dh = (W + 2 * (layout.offset_mm + layout.side_mm)) * k
    ox, oy = left + (layout.offset_mm + layout.side_mm) * k, y + dh - (layout.offset_mm + layout.side_mm) * k

    def at(bx: float, by: float) -> tuple[int, int]:
        return (s.px(ox + bx * k), s.px(oy - by * k))

    cv2.rectangle(s.image, at(0, W), at(L, 0), 0, max(1, s.px(0.3)))
    cv2.line(s.image, at(L / 2, 0), at(L / 2, W), 0, 1)
    for marker, (mx, my) in layout.centres_mm(L, W).items():
        h = layout.side_mm / 2
        cv2.rectangle(s.image, at(mx - h, my + h), at(mx + h, my - h), 0, -1)
        s.text(ox + mx * k + (-1 if mx > L / 2 else -3), oy - my * k + (6 if my < W / 2 else -3.5), str(marker), 2.0)
    s.text(ox, oy + 10, "x: along the length, y: across", 1.8)
    ty = y + dh + 8
    for line in layout.describe(L, W):
        marker_part, _, rest = line.partition(": ")
        s.text(left, ty, marker_part, 1.9, 2)
        words, row = rest.split(" "), ""
        ty += 3.2
        for word in words:
            if len(row) + len(word) > 46:
                s.text(left, ty, row, 1.7)
                ty += 2.8
                row = ""
            row += word + " "
        s.text(left, ty, row, 1.7)
        ty += 3.6
    return s.image
