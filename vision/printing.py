"""Writing printable sheets at true size: a PNG that carries its resolution (pHYs chunk) and a
one-page PDF embedding the same image, written by hand (zlib only, no PDF library)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}


def page_pixels(paper: str, dpi: float) -> tuple[int, int]:
    """(width, height) in pixels of a portrait page."""
    w, h = PAPER_MM[paper]
    return round(w * dpi / 25.4), round(h * dpi / 25.4)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(path: Path, image: np.ndarray, dpi: float) -> None:
    """A PNG whose pHYs chunk says ``dpi``, so printing programs size it right."""
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise OSError(f"{path}: PNG encoding failed")
    data = buf.tobytes()
    ppm = round(dpi / 0.0254)
    phys = _chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    end_of_ihdr = 8 + 8 + 13 + 4  # signature, IHDR header, IHDR data, CRC
    Path(path).write_bytes(data[:end_of_ihdr] + phys + data[end_of_ihdr:])


def write_pdf(path: Path, gray: np.ndarray, dpi: float) -> None:
    """A one-page PDF showing a grey image (H, W) uint8 at ``dpi``: the page is exactly the
    image's size (W / dpi inches wide), so printing at 100 % gives true size."""
    if gray.ndim != 2 or gray.dtype != np.uint8:
        raise ValueError("write_pdf takes a grey uint8 image (H, W)")
    h, w = gray.shape
    pw, ph = w * 72.0 / dpi, h * 72.0 / dpi
    image = zlib.compress(np.ascontiguousarray(gray).tobytes(), 9)
    content = f"q {pw:.4f} 0 0 {ph:.4f} 0 0 cm /Im0 Do Q\n".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.4f} {ph:.4f}] "
         f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(image)} >>\nstream\n").encode() + image + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"endstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    Path(path).write_bytes(bytes(out))
