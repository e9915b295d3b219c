"""The host's framing and the reference firmware's agree, byte for byte, on the shared
test vectors (firmware_bridge/vectors.json); the firmware's modules stay MicroPython-sized."""

from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path

import pytest

from firmware_bridge import framing
from firmware_bridge.framing import Frame, Rejected

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware_bridge" / "firmware"
VECTORS = json.loads((ROOT / "firmware_bridge" / "vectors.json").read_text(encoding="ascii"))


def load_standalone(name: str):
    """A firmware module loaded from its file alone, as the tray's flat filesystem has it."""
    spec = importlib.util.spec_from_file_location(f"standalone_{name}", FIRMWARE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


trayproto = load_standalone("trayproto")


def raw(text: str) -> bytes:
    return text.encode("latin-1")


def as_frame(item: dict) -> Frame:
    return Frame(item["type"], item["seq"], tuple(tuple(pair) for pair in item["fields"]))


def host_decode(chunks: list[bytes]) -> list:
    decoder = framing.Decoder()
    out = []
    for chunk in chunks:
        for item in decoder.feed(chunk):
            out.append({"reject": item.reason.value} if isinstance(item, Rejected) else
                       {"frame": {"type": item.type, "seq": item.seq, "fields": [list(p) for p in item.fields]}})
    return out


def firmware_decode(chunks: list[bytes]) -> list:
    decoder = trayproto.Decoder()
    out = []
    for chunk in chunks:
        for item in decoder.feed(chunk):
            if item[0] == "reject":
                out.append({"reject": item[1]})
            else:
                _, type_, seq, fields = item
                out.append({"frame": {"type": type_, "seq": seq, "fields": [list(p) for p in fields]}})
    return out


def ids(cases: list[dict]) -> list[str]:
    return [case["name"] for case in cases]


@pytest.mark.parametrize("case", VECTORS["crc16"], ids=lambda c: repr(c["data"]))
def test_crc16_agrees(case):
    expected = int(case["crc"], 16)
    assert framing.crc16(raw(case["data"])) == expected
    assert trayproto.crc16(raw(case["data"])) == expected


@pytest.mark.parametrize("case", VECTORS["encode"], ids=ids(VECTORS["encode"]))
def test_both_encode_the_same_bytes(case):
    frame = as_frame(case["frame"])
    assert framing.encode(frame) == raw(case["bytes"])
    assert trayproto.encode(frame.type, frame.seq, frame.fields) == raw(case["bytes"])


@pytest.mark.parametrize("case", VECTORS["encode"], ids=ids(VECTORS["encode"]))
def test_both_decode_what_they_encode(case):
    frame = as_frame(case["frame"])
    assert framing.decode(raw(case["bytes"])) == [frame]
    assert firmware_decode([raw(case["bytes"])]) == [{"frame": case["frame"]}]


@pytest.mark.parametrize("case", VECTORS["decode"], ids=ids(VECTORS["decode"]))
def test_both_decode_the_same_items(case):
    chunks = [raw(c) for c in case["chunks"]]
    assert host_decode(chunks) == case["expect"]
    assert firmware_decode(chunks) == case["expect"]


def test_the_vectors_cover_the_issue_s_cases():
    names = " | ".join(ids(VECTORS["decode"]))
    for needed in ("garbage in front", "split", "bad checksum, then a good frame", "over-long"):
        assert needed in names
    rejects = {item["reject"] for case in VECTORS["decode"] for item in case["expect"] if "reject" in item}
    assert rejects == {"garbage", "truncated", "overlong", "checksum", "malformed"}


# --- the firmware stays portable ------------------------------------------------------------------

MICROPYTHON_MODULES = {"trayproto", "traycore"}
ALLOWED_IMPORTS = {"trayproto": set(), "traycore": {"trayproto"}}


@pytest.mark.parametrize("name", sorted(MICROPYTHON_MODULES))
def test_portable_firmware_modules_import_only_each_other(name):
    tree = ast.parse((FIRMWARE / f"{name}.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported |= {alias.name for alias in node.names} if node.level else {node.module}
    assert imported <= ALLOWED_IMPORTS[name]


@pytest.mark.parametrize("name", sorted(MICROPYTHON_MODULES))
def test_portable_firmware_modules_avoid_what_micropython_lacks(name):
    """No annotations, dataclasses, f-strings or walrus: MicroPython ports differ in them."""
    tree = ast.parse((FIRMWARE / f"{name}.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        assert not isinstance(node, (ast.JoinedStr, ast.NamedExpr, ast.AnnAssign)), ast.dump(node)[:80]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.returns is None and all(a.annotation is None for a in node.args.args), node.name
