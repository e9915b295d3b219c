"""The methods ``dataclasses`` writes for Touchline's records, compiled once and kept.

Python 3.11's ``dataclasses`` writes each record class's methods (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, the frozen ``__setattr__`` and ``__delattr__``) as
source text and compiles each text with ``exec`` at import: a game defines 60-130 records,
and compiling their 400-800 little functions was about half of importing a game (cProfile
of ``touchline replay``: 66 of 266 ms in ``dataclasses._create_fn``, nearly all of it the
compiler). The texts are the same at every start, so, as Python keeps a module's bytecode,
this keeps their compiled code in a file beside the package's bytecode and hands
``dataclasses`` the code object already compiled for an identical text. The classes are
the very ones ``exec`` of the text makes (the same code object: compiled from the same text
with the same flags; tests/test_method_cache.py compares them).

Only for Touchline's own modules, and only on the Python this was written against (3.11:
3.13 compiles a class's methods in one go, and its ``dataclasses`` differs): anywhere else
``dataclasses`` runs untouched. The file is read when present and written at exit when a
text was compiled that it lacked, unless bytecode is not written (``PYTHONDONTWRITEBYTECODE``);
``PYTHONPYCACHEPREFIX`` moves it as it moves the bytecode. A file that cannot be read or
written is ignored: everything then compiles as before.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import marshal
import os
import sys
import threading
from types import CodeType
from typing import Any

OURS = ("companion", "ui", "vision", "calibration", "firmware_bridge")
VERSIONS = ((3, 11),)
MAX_ENTRIES = 5_000    # per package: far above the 800 or so texts of a game's records

# One file per package (``companion``, ``companion.fublet``, ``ui``...), read when the package
# makes its first record: a process reads what it uses (a replay: the core and one game).
_groups: dict[str, dict[str, CodeType]] = {}
_dirty: set[str] = set()
_used: set[str] = set()
_folder = {"path": ""}
_lock = threading.RLock()
_exec = builtins.exec


def cache_folder() -> str:
    """Where the compiled methods are kept: the package's ``__pycache__``, or under
    ``sys.pycache_prefix`` as Python puts bytecode there."""
    folder = os.path.dirname(os.path.abspath(__file__))
    if sys.pycache_prefix:
        return os.path.join(sys.pycache_prefix, os.path.splitdrive(folder)[1].lstrip(os.sep))
    return os.path.join(folder, "__pycache__")


def cache_file(group: str) -> str:
    return os.path.join(_folder["path"] or cache_folder(),
                        f"dataclass-methods.{group}.{sys.implementation.cache_tag}.marshal")


def compiled(text: str, group: str = "companion", flags: int = 0) -> CodeType:
    """The code ``exec(text)`` compiles in ``dataclasses`` (which has no ``__future__``
    imports: no flags to inherit), from the cache when it holds this very text; ``flags``:
    the ``__future__`` flags of a module that compiles its own text (one group, one set)."""
    cache = _groups.get(group)
    if cache is None:
        with _lock:
            cache = _groups.get(group)
            if cache is None:
                cache = _groups[group] = _load(cache_file(group))
    code = cache.get(text)
    if code is None:
        code = compile(text, "<string>", "exec", flags=flags, dont_inherit=True)
        with _lock:
            cache[text] = code
            _dirty.add(group)
    _used.add(text)
    return code


def code_for(text: str, group: str, flags: int) -> CodeType | str:
    """For a module that writes code of its own at run time (the codec's decoders): what to
    hand ``exec``: the cached code of ``text`` where the cache is installed, else the text."""
    return compiled(text, group, flags) if _folder["path"] else text


def _exec_for_dataclasses(source: Any, globals: Any = None, locals: Any = None) -> None:
    """``exec`` as ``dataclasses._create_fn`` calls it: a method's text, the class's module
    globals, a fresh namespace."""
    if type(source) is str:
        module = str(globals.get("__name__", "")) if type(globals) is dict else ""
        if module.split(".")[0] in OURS:
            source = compiled(source, module.rpartition(".")[0] or module)
        else:  # compiled here as exec would compile it there: not with this module's __future__ flags
            source = compile(source, "<string>", "exec", dont_inherit=True)
    _exec(source, globals, locals)


def install() -> bool:
    """Hand ``dataclasses`` the cache (once per process); False where it does not apply."""
    if sys.version_info[:2] not in VERSIONS or not hasattr(dataclasses, "_create_fn"):
        return False
    if os.environ.get("TOUCHLINE_METHOD_CACHE") == "0":  # to measure or rule it out
        return False
    if getattr(dataclasses, "exec", None) is _exec_for_dataclasses:
        return True
    if "exec" in vars(dataclasses):  # someone else's hook: leave it be
        return False
    _folder["path"] = cache_folder()
    dataclasses.exec = _exec_for_dataclasses  # type: ignore[attr-defined]  # its module global, read before builtins'
    atexit.register(save)
    return True


def _load(path: str) -> dict[str, CodeType]:
    try:
        with open(path, "rb") as fh:
            data = marshal.loads(fh.read())  # one read: marshal.load reads a file piece by piece
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if type(data) is not dict:
        return {}
    return {k: v for k, v in data.items() if type(k) is str and type(v) is CodeType}


def save() -> None:
    """Write each package's file where this process compiled a text it lacked (atomically:
    a reader sees the old file or the new one)."""
    if not _dirty or sys.dont_write_bytecode:
        return
    with _lock:
        groups = [(g, dict(_groups[g])) for g in sorted(_dirty)]
        _dirty.clear()
    for group, entries in groups:
        if len(entries) > MAX_ENTRIES:  # texts of code long changed: keep what this process used
            entries = {k: v for k, v in entries.items() if k in _used}
        path = cache_file(group)
        tmp = f"{path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(tmp, "wb") as fh:
                marshal.dump(entries, fh)
            os.replace(tmp, path)
        except (OSError, ValueError):
            try:
                os.remove(tmp)
            except OSError:
                pass


__all__ = ["install", "save", "compiled", "code_for", "cache_folder", "cache_file", "OURS"]
