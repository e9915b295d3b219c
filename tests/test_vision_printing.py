"""Printable sheets through Pillow (issue 32, item 6): the PNG carries its resolution, the PDF's
page is the image's true size, and what the PDF holds is the sheet as drawn."""

from __future__ import annotations

import re
import struct

import cv2
import numpy as np
import pytest

from vision.printing import write_pdf, write_png


def sheet(h: int = 300, w: int = 200) -> np.ndarray:
    """Black squares with crisp edges on white, and a grey ramp (the sheet's text is grey at its edges)."""
    rng = np.random.default_rng(7)
    image = np.full((h, w), 255, np.uint8)
    for _ in range(12):
        y, x = rng.integers(0, h - 30), rng.integers(0, w - 30)
        image[y:y + 24, x:x + 24] = 0
    image[-20:, :] = np.linspace(0, 255, w).astype(np.uint8)[None]
    return image


def pdf_image(data: bytes) -> np.ndarray:
    at = data.index(b"stream", data.index(b"/DCTDecode")) + len(b"stream")
    at += 2 if data[at:at + 2] == b"\r\n" else 1
    return cv2.imdecode(np.frombuffer(data[at:data.index(b"endstream", at)], np.uint8), cv2.IMREAD_UNCHANGED)


@pytest.mark.parametrize("dpi", [150, 300, 254.5])
def test_the_png_says_its_resolution_and_keeps_every_pixel(tmp_path, dpi):
    image = sheet()
    write_png(tmp_path / "s.png", image, dpi)
    data = (tmp_path / "s.png").read_bytes()
    at = data.index(b"pHYs")
    assert data.index(b"pHYs") < data.index(b"IDAT")   # where a reader looks for it
    ppm_x, ppm_y, unit = struct.unpack(">IIB", data[at + 4:at + 13])
    assert unit == 1 and ppm_x == ppm_y == round(dpi / 0.0254)
    assert np.array_equal(cv2.imread(str(tmp_path / "s.png"), cv2.IMREAD_UNCHANGED), image)


def test_a_colour_png_keeps_its_colours(tmp_path):
    bgr = np.zeros((10, 20, 3), np.uint8)
    bgr[:, :, 0] = 200   # blue in OpenCV's order
    write_png(tmp_path / "c.png", bgr, 100)
    assert np.array_equal(cv2.imread(str(tmp_path / "c.png")), bgr)


@pytest.mark.parametrize("dpi", [150, 300])
def test_the_pdf_page_is_the_images_true_size_and_holds_the_sheet(tmp_path, dpi):
    image = sheet()
    write_pdf(tmp_path / "s.pdf", image, dpi)
    data = (tmp_path / "s.pdf").read_bytes()
    assert data.startswith(b"%PDF-1.") and data.rstrip().endswith(b"%%EOF")
    box = [float(v) for v in re.search(rb"/MediaBox \[([^\]]*)\]", data).group(1).split()]
    assert box[:2] == [0, 0]
    assert box[2] == pytest.approx(image.shape[1] * 72 / dpi, abs=1e-3)   # printed at 100 %: true size
    assert box[3] == pytest.approx(image.shape[0] * 72 / dpi, abs=1e-3)
    back = pdf_image(data)
    assert back.shape == image.shape
    assert np.abs(back.astype(int) - image).max() <= 2   # every edge where it was drawn


def test_what_is_no_printable_image_is_refused(tmp_path):
    with pytest.raises(ValueError):
        write_pdf(tmp_path / "x.pdf", np.zeros((4, 4, 3), np.uint8), 100)
    with pytest.raises(ValueError):
        write_png(tmp_path / "x.png", np.zeros((4, 4), np.float32), 100)
