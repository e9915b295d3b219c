"""Reading box data files (JSON, validated on load): one place for every game's loaders.

Keys starting with ``_`` are comments for the person editing the file and are dropped. A
problem raises DataFileError naming the file, the entry and the field.
"""

from __future__ import annotations

import json
import stat
import sys
from importlib.machinery import SourceFileLoader, SourcelessFileLoader
from pathlib import Path
from typing import Any

from .codec import from_json
from .errors import DataFileError, DecodeError


def package_folder(package: str, *parts: str) -> Any:
    """``importlib.resources.files(package).joinpath(*parts)``: the folder of a package's data.
    For a package that is a plain folder of modules (a source checkout, an installed wheel)
    that is the folder of its ``__init__``, as ``files`` gives it, found without importing
    ``importlib.resources`` and ``zipfile`` (about 3 ms of every command's start); anything
    else (a zip, another loader) asks ``importlib.resources``."""
    spec = getattr(sys.modules.get(package), "__spec__", None)
    loader = getattr(spec, "loader", None)
    if type(loader) in (SourceFileLoader, SourcelessFileLoader) and isinstance(getattr(loader, "path", None), str):
        return Path(loader.path).parent.joinpath(*parts)  # what files() gives: FileReader's Path(loader.path).parent
    from importlib import resources

    return resources.files(package).joinpath(*parts)


def file_name(path: Path | Any) -> str:
    return getattr(path, "name", str(path))


def strip_comments(obj: Any) -> Any:
    """Drop keys starting with ``_``: data files explain themselves to whoever edits them."""
    if isinstance(obj, dict):
        return {k: strip_comments(v) for k, v in obj.items() if not k.startswith("_")}
    if isinstance(obj, list):
        return [strip_comments(v) for v in obj]
    return obj


# Bounds on what a box data file may hold: far above anything a real box needs (the shipped
# files are at most 22 kB, 6 levels deep, with strings of at most 322 characters), far below
# what would make the app slow or its screens unusable.
MAX_DATA_BYTES = 1_000_000     # one data file
MAX_DEPTH = 16                 # nesting of objects and lists
MAX_STRING = 2_000             # characters in one text (a team's name, a rule's wording) or key
MAX_NUMBER = 10**12            # magnitude of a number: a box counts squares, points, millimetres


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a box file can hold")


def parse_json(text: str, name: str, depth: int = MAX_DEPTH) -> Any:
    """JSON text checked against the bounds above; any problem is a DataFileError naming the
    file and, where there is one, the field."""
    try:
        obj = json.loads(text, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise DataFileError(name, "", "", f"not valid JSON: {exc.msg} at line {exc.lineno}, "
                                          f"column {exc.colno}") from None
    except RecursionError:
        raise DataFileError(name, "", "", f"nested more than {depth} levels deep") from None
    except ValueError as exc:  # a number of thousands of digits, NaN, Infinity
        raise DataFileError(name, "", "", f"not valid JSON: {str(exc).split(';')[0]}") from None
    check_shape(obj, name, depth)
    return obj


def _where(path: tuple) -> tuple[str, str]:
    parts = [shown(p) for p in path]
    return (parts[0] if parts else ""), ".".join(parts[1:])


def shown(part: Any) -> str:
    """A key or file name as a message can show it (a newline or control character escaped)."""
    text = str(part)
    return text if text.isprintable() and len(text) <= 60 else repr(text[:60]) + ("..." if len(text) > 60 else "")


def check_shape(obj: Any, name: str, depth: int = MAX_DEPTH) -> None:
    """Walk a parsed document without recursion: too deep, a text too long, a number too
    large is refused naming the field where it is."""
    stack: list[tuple[Any, tuple, int]] = [(obj, (), 1)]
    while stack:
        value, path, level = stack.pop()
        if isinstance(value, (dict, list)):
            if level > depth:
                entry, field = _where(path)
                raise DataFileError(name, entry, field, f"nested more than {depth} levels deep")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, child in items:
                if isinstance(key, str) and len(key) > MAX_STRING:
                    entry, field = _where(path)
                    raise DataFileError(name, entry, field, f"a key of {len(key)} characters; at most {MAX_STRING}")
                stack.append((child, path + (key,), level + 1))
        elif isinstance(value, str) and len(value) > MAX_STRING:
            entry, field = _where(path)
            raise DataFileError(name, entry, field, f"a text of {len(value)} characters; at most {MAX_STRING}")
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            entry, field = _where(path)
            raise DataFileError(name, entry, field, f"the number {value:.3g} is too large for a box file")


def read_text_bounded(path: Path | Any, max_bytes: int) -> str:
    """A file's text, refused when it is not a regular file or larger than ``max_bytes``."""
    name = file_name(path)
    try:
        if isinstance(path, Path):
            st = path.stat()
            if not stat.S_ISREG(st.st_mode):
                raise DataFileError(name, "", "", "not a regular file (a folder, pipe or device)")
            if st.st_size > max_bytes:
                raise DataFileError(name, "", "", f"is {st.st_size:,} bytes; at most {max_bytes:,}")
            with open(path, "rb") as fh:
                data = fh.read(max_bytes + 1)
            text = data.decode("utf-8")
        else:
            text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError(name, "", "", "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(name, "", "", f"cannot be read ({exc})") from None
    if len(text) > max_bytes:
        raise DataFileError(name, "", "", f"is more than {max_bytes:,} bytes")
    return text


def read_json(path: Path | Any, max_bytes: int = MAX_DATA_BYTES, depth: int = MAX_DEPTH) -> Any:
    """A data file's content without its comments (``path``: a Path or a package resource),
    within the bounds above."""
    name = file_name(path)
    return strip_comments(parse_json(read_text_bounded(path, max_bytes), name, depth))


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
