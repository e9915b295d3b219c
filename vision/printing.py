"""Writing printable sheets at true size, through Pillow (installed with matplotlib): a PNG
that carries its resolution (its pHYs chunk) and a one-page PDF whose page is exactly the
image's size at that resolution, so printing at 100 % gives true size.

Pillow puts a grey image into a PDF as JPEG (DCTDecode), the only way its PDF writer stores
one: at quality 100, every pixel comes back within 2 grey levels of the sheet's (the tests
decode it), so each marker's cells and edges stay where they were drawn."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}
PDF_QUALITY = 100


def page_pixels(paper: str, dpi: float) -> tuple[int, int]:
    """(width, height) in pixels of a portrait page."""
    w, h = PAPER_MM[paper]
    return round(w * dpi / 25.4), round(h * dpi / 25.4)


def _image(array: np.ndarray) -> Image.Image:
    """A Pillow image of a grey (H, W) or OpenCV colour (H, W, 3: BGR) uint8 array."""
    if array.dtype != np.uint8 or array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] != 3):
        raise ValueError("a printable sheet is a grey (H, W) or colour (H, W, 3) uint8 image")
    if array.ndim == 3:
        return Image.fromarray(np.ascontiguousarray(array[:, :, ::-1]), "RGB")
    return Image.fromarray(np.ascontiguousarray(array), "L")


def write_png(path: Path, image: np.ndarray, dpi: float) -> None:
    """A PNG whose pHYs chunk says ``dpi``, so printing programs size it right."""
    _image(image).save(Path(path), "PNG", dpi=(dpi, dpi))


def write_pdf(path: Path, gray: np.ndarray, dpi: float) -> None:
    """A one-page PDF showing a grey image (H, W) uint8 at ``dpi``: the page is exactly the
    image's size (W / dpi inches wide), so printing at 100 % gives true size."""
    if gray.ndim != 2 or gray.dtype != np.uint8:
        raise ValueError("write_pdf takes a grey uint8 image (H, W)")
    _image(gray).save(Path(path), "PDF", resolution=float(dpi), quality=PDF_QUALITY)
