"""Where Touchline keeps its files on this computer.

The per-user data folder holds the match journals (``matches/``). It is the platform's usual
place, or ``TOUCHLINE_DATA_DIR`` when that is set (tests, portable installs, a USB stick):

- Linux and other Unix: ``$XDG_DATA_HOME/touchline``, else ``~/.local/share/touchline``
- Windows: ``%APPDATA%\\Touchline``
- macOS: ``~/Library/Application Support/Touchline``

Nothing here creates folders; the journal creates its own when it writes the first match.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Mapping

ENV_OVERRIDE = "TOUCHLINE_DATA_DIR"
JOURNAL_SUFFIX = ".sqlite"


def user_data_dir(platform: str | None = None, environ: Mapping[str, str] | None = None,
                  home: Path | None = None) -> Path:
    """The folder for Touchline's data. ``platform``, ``environ`` and ``home`` default to
    this computer's (``sys.platform``, ``os.environ``, the user's home); tests pass others."""
    env = os.environ if environ is None else environ
    override = env.get(ENV_OVERRIDE, "").strip()
    if override:
        return Path(override).expanduser()
    platform = sys.platform if platform is None else platform
    home = Path.home() if home is None else home
    if platform.startswith("win"):
        appdata = env.get("APPDATA", "").strip()
        return (Path(appdata) if appdata else home / "AppData" / "Roaming") / "Touchline"
    if platform == "darwin":
        return home / "Library" / "Application Support" / "Touchline"
    xdg = env.get("XDG_DATA_HOME", "").strip()
    # The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else home / ".local" / "share"
    return base / "touchline"


def matches_dir(**kwargs) -> Path:
    """Where match journals go by default: ``<data dir>/matches``."""
    return user_data_dir(**kwargs) / "matches"


def default_journal_path(name: str, **kwargs) -> Path:
    """The journal file for a match called ``name`` (``"cup-final"`` ->
    ``<data dir>/matches/cup-final.sqlite``). ``name`` must be a plain file name."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError("a match needs a name to make its journal's file name")
    name = name.strip()
    if (name in (".", "..") or PurePosixPath(name).name != name or PureWindowsPath(name).name != name
            or "\x00" in name):
        raise ValueError(f"a match name cannot be a path: {name!r} (no '/', '\\\\' or '..')")
    if not name.endswith(JOURNAL_SUFFIX):
        name += JOURNAL_SUFFIX
    return matches_dir(**kwargs) / name


__all__ = ["user_data_dir", "matches_dir", "default_journal_path", "ENV_OVERRIDE"]
