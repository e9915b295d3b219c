"""The report's plots kept beside their drawing: a report opened again shows the plots it drew
last time, without importing matplotlib or drawing anything.

The tablet draws a report's plots into ``<data dir>/reports/<match>/`` each time the report
is opened (ui/screens/report.py). Importing matplotlib and drawing the five plots is the
report's whole fixed cost (about a second of CPU here, docs/benchmarks.md), paid again for a
finished match whose plots cannot have changed. ``drawn`` draws once and writes a manifest,
``plots.json``, naming what the plots were drawn from and each file with its size and
SHA-256; the next call with the same report, formats and resolution finds every file as the
manifest says and returns the same names.

What the key covers: the report's numbers (its JSON, keys sorted), the formats, the
resolution, and the text of ``plots.py`` itself, so a Touchline that draws differently draws
again; a different matplotlib drawing the same code is not noticed (its plots are as good).
A manifest or a plot that is damaged, missing, replaced by a link or by anything but a file,
or larger than a plot can be, is no hit: the plots are drawn again, never trusted, never
waited on (the data folder may hold anything: companion/opener.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
from pathlib import Path
from typing import Any

from .. import opener
from ..errors import TouchlineError
from ..outfiles import check_folder, write_text

log = logging.getLogger(__name__)

MANIFEST = "plots.json"
MANIFEST_MAX_BYTES = 64 * 1024        # five plots' names, sizes and hashes: under 2 kB
PLOT_MAX_BYTES = 16 * 1024 * 1024     # one plot at 150 dpi: 30-200 kB
_PLOTS_SOURCE = Path(__file__).with_name("plots.py")


def key_of(report: dict[str, Any], formats: tuple[str, ...], dpi: int) -> str:
    """What the plots are drawn from, as one SHA-256: the report, the formats, the resolution
    and the drawing code."""
    h = hashlib.sha256()
    h.update(json.dumps(report, sort_keys=True, separators=(",", ":"), default=str).encode("utf-8"))
    h.update(f"\n{','.join(formats)}\n{dpi}\n".encode("ascii"))
    try:
        h.update(_PLOTS_SOURCE.read_bytes())
    except OSError:   # an install without its source (frozen): the report and formats alone
        pass
    return h.hexdigest()


def drawn(report: dict[str, Any], folder: Path, formats: tuple[str, ...] = ("png",),
          dpi: int = 100) -> dict[str, dict[str, str]]:
    """The report's plots in ``folder``: {plot: {format: file name}}, as ``plots.draw_all``
    returns them; drawn only when the folder does not already hold these very plots. The
    folder is made if missing; a link or a non-folder in its place is refused (OutputRefused)
    before anything in it is read."""
    check_folder(folder)
    folder.mkdir(parents=True, exist_ok=True)
    key = key_of(report, formats, dpi)
    hit = cached(folder, key)
    if hit is not None:
        return hit
    from .plots import draw_all   # matplotlib: imported only to draw

    plots = draw_all(report, folder, formats, dpi=dpi)
    remember(folder, key, plots)
    return plots


def cached(folder: Path, key: str) -> dict[str, dict[str, str]] | None:
    """The plots the manifest in ``folder`` names when it was written for ``key`` and every
    file is there as it names it; else None."""
    try:
        with opener.open_binary(folder / MANIFEST, "a plots manifest", MANIFEST_MAX_BYTES) as fh:
            manifest = json.loads(fh.read().decode("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError, TouchlineError) as exc:
        log.info("%s: not used (%s): the plots are drawn again", folder / MANIFEST, exc)
        return None
    if not isinstance(manifest, dict) or manifest.get("key") != key:
        return None
    plots, files = manifest.get("plots"), manifest.get("files")
    if not isinstance(plots, dict) or not isinstance(files, dict) or not plots:
        return None
    named = set()
    for per in plots.values():
        if not isinstance(per, dict) or not per:
            return None
        for name in per.values():
            if not isinstance(name, str):
                return None
            named.add(name)
    if named != set(files) or not all(_intact(folder, name, files[name]) for name in named):
        return None
    return plots


def _intact(folder: Path, name: str, recorded: Any) -> bool:
    """The plot file is a plain file in ``folder`` (no link, no path) of the recorded size
    and SHA-256."""
    if (not isinstance(recorded, list) or len(recorded) != 2 or type(recorded[0]) is not int
            or not isinstance(recorded[1], str) or name != Path(name).name or name.startswith(".")):
        return False
    path = folder / name
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size != recorded[0] or st.st_size > PLOT_MAX_BYTES:
            return False
        with opener.open_binary(path, "a plot", PLOT_MAX_BYTES) as fh:
            return hashlib.sha256(fh.read()).hexdigest() == recorded[1]
    except (OSError, TouchlineError):
        return False


def remember(folder: Path, key: str, plots: dict[str, dict[str, str]]) -> None:
    """Write the manifest of plots just drawn (never through a link: companion/outfiles.py).
    A manifest that cannot be written only means drawing again next time."""
    files: dict[str, list] = {}
    try:
        for per in plots.values():
            for name in per.values():
                data = (folder / name).read_bytes()
                files[name] = [len(data), hashlib.sha256(data).hexdigest()]
        write_text(folder / MANIFEST, json.dumps({"key": key, "plots": plots, "files": files}, sort_keys=True),
                   force=True)
    except (OSError, TouchlineError) as exc:
        log.info("%s: not written (%s): the plots will be drawn again", folder / MANIFEST, exc)
