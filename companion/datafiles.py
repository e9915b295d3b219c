"""Reading box data files (JSON, validated on load): one place for every game's loaders.

Keys starting with ``_`` are comments for the person editing the file and are dropped. A
problem raises DataFileError naming the file, the entry and the field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .codec import from_json
from .errors import DataFileError, DecodeError


def file_name(path: Path | Any) -> str:
    return getattr(path, "name", str(path))


def strip_comments(obj: Any) -> Any:
    """Drop keys starting with ``_``: data files explain themselves to whoever edits them."""
    if isinstance(obj, dict):
        return {k: strip_comments(v) for k, v in obj.items() if not k.startswith("_")}
    if isinstance(obj, list):
        return [strip_comments(v) for v in obj]
    return obj


def read_json(path: Path | Any) -> Any:
    """A data file's content without its comments (``path``: a Path or a package resource)."""
    name = file_name(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError(name, "", "", "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(name, "", "", f"cannot be read ({exc})") from None
    try:
        return strip_comments(json.loads(text))
    except json.JSONDecodeError as exc:
        raise DataFileError(name, "", "", f"not valid JSON: {exc.msg} at line {exc.lineno}, "
                                          f"column {exc.colno}") from None


def decode(tp: Any, obj: Any, file: str, entry: str = "") -> Any:
    """Decode a file's content as ``tp``; an error names the file, the entry (``entry``, else
    the first key of the failing path) and the field."""
    try:
        return from_json(tp, obj, "")
    except DecodeError as exc:
        path = exc.path or ""
        if entry:
            raise DataFileError(file, entry, path, exc.reason) from None
        head, _, rest = path.partition(".")
        raise DataFileError(file, head, rest, exc.reason) from None
