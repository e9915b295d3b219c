"""The compiled methods of the records kept between starts (companion/method_cache.py): the
classes are the ones dataclasses makes without it, and a missing, damaged or unwritable
cache changes nothing but the time."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

import companion.fublet.rules  # noqa: F401  (its records made through the cache)
from companion import method_cache

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(sys.version_info[:2] not in method_cache.VERSIONS,
                                reason="the cache applies to the Python it was written for")

# Records of each game and of the core, shown and compared: the same text whichever way
# their methods were compiled.
PROBE = r"""
import sys
from companion import method_cache
from companion.teams import PlayerRef, Team
from companion.fublet.model import FubletState
from companion.fussball_liga.model import Ball, Control
from companion.dice import Die, DieKind, DieResult
b = Ball(square=(1, 2), holder=PlayerRef(Team.HOME, 7), control=Control.CLOSE)
d = DieResult(Die(DieKind.D6, "black", Team.AWAY), 5)
print(repr(b), b == Ball(square=(1, 2), holder=PlayerRef(Team.HOME, 7), control=Control.CLOSE), hash(d) == hash(
    DieResult(Die(DieKind.D6, "black", Team.AWAY), 5)), repr(d), repr(FubletState())[:300])
try:
    b.square = (3, 4)
except Exception as exc:
    print(type(exc).__name__)
try:
    DieResult(Die(DieKind.D6), 9)
except ValueError as exc:
    print(exc)
print("compiled", len(method_cache._dirty), "used", len(method_cache._used), file=sys.stderr)
"""


def run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TOUCHLINE_METHOD_CACHE")}
    environ.update(PYTHONPYCACHEPREFIX=str(tmp_path / "pycache"), PYTHONPATH=str(ROOT), **env)
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=environ, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done


def cache_files(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "pycache").rglob("dataclass-methods.*.marshal"))


def test_every_cached_method_is_the_code_exec_would_compile():
    assert dataclasses.exec is method_cache._exec_for_dataclasses  # installed by importing companion
    # dataclasses has no __future__ import, so exec there compiles with no inherited flags:
    assert "annotations" not in vars(dataclasses)
    from companion.codec import GENERATED

    texts = [(t, c) for name, group in method_cache._groups.items() if name != GENERATED for t, c in group.items()]
    assert len(texts) > 300  # the core's and Fublet's records at least
    for text, code in texts:
        assert compile(text, "<string>", "exec", dont_inherit=True) == code
    made = dataclasses.make_dataclass("Probe", [("x", int)], frozen=True)  # a module that is not ours: untouched
    assert made(1) == made(1) and repr(made(2)) == "Probe(x=2)"


def test_the_records_are_the_same_with_the_cache_without_it_and_from_it(tmp_path):
    first = run(tmp_path)                       # compiles and writes the files
    files = cache_files(tmp_path)
    assert files and all(f.stat().st_size for f in files)
    second = run(tmp_path)                      # reads them: compiles nothing
    without = run(tmp_path, TOUCHLINE_METHOD_CACHE="0")
    assert first.stdout == second.stdout == without.stdout
    assert "FrozenInstanceError" in first.stdout and "a d6 shows 1..6, not 9" in first.stdout
    assert "compiled 0 used" in second.stderr and "compiled 0 used 0" not in second.stderr
    assert "compiled 0" not in first.stderr


def test_a_damaged_cache_is_ignored_and_written_again(tmp_path):
    run(tmp_path)
    files = cache_files(tmp_path)
    for f in files:
        f.write_bytes(b"\x00garbage" * 10)
    again = run(tmp_path)
    assert "compiled 0" not in again.stderr  # compiled afresh
    assert all(f.stat().st_size > 80 for f in cache_files(tmp_path))


def test_no_cache_written_when_bytecode_is_not(tmp_path):
    run(tmp_path, PYTHONDONTWRITEBYTECODE="1")
    assert cache_files(tmp_path) == []


def test_the_codecs_own_code_is_the_code_exec_compiles_there():
    """The decoders the codec writes at run time, kept too: compiled with the codec's
    ``__future__`` flags, which this module shares (exec of the text there inherits them)."""
    from companion.codec import GENERATED, fast_decoder
    from companion.fublet.events import PlayerMoved

    fast_decoder(PlayerMoved)
    texts = method_cache._groups.get(GENERATED, {})
    assert texts
    for text, code in texts.items():
        assert compile(text, "<string>", "exec") == code
