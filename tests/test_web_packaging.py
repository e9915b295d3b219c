"""The tablet builds carry the scoreboard page, the QR encoder and the rules reference's data."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_windows_build_takes_the_page_and_the_reference():
    spec = (ROOT / "ui" / "packaging" / "windows" / "touchline.spec").read_text(encoding="utf-8")
    assert '"companion" / "reference" / "data"' in spec and '"ui" / "web" / "page.html"' in spec
    assert '(str(root / "docs" / "assumptions.md"), "docs")' in spec   # the reference's readings


def test_the_android_staging_takes_the_readings():
    stage = (ROOT / "ui" / "packaging" / "android" / "stage.sh").read_text(encoding="utf-8")
    assert 'cp "$root/docs/assumptions.md" "$out/docs/"' in stage


def test_the_android_build_takes_the_page_and_segno():
    spec = (ROOT / "ui" / "packaging" / "android" / "buildozer.spec").read_text(encoding="utf-8")
    lines = dict(line.split("=", 1) for line in spec.splitlines() if "=" in line and not line.startswith("#"))
    assert "html" in {e.strip() for e in lines["source.include_exts "].split(",")}
    assert "segno" in {e.strip() for e in lines["requirements "].split(",")}


def test_the_android_build_takes_the_pure_python_server_and_all_it_needs():
    """python-for-android installs pure-Python packages by name: the scoreboard's server and every
    package it imports, and nothing that needs a compiler (httptools, uvloop)."""
    spec = (ROOT / "ui" / "packaging" / "android" / "buildozer.spec").read_text(encoding="utf-8")
    lines = dict(line.split("=", 1) for line in spec.splitlines() if "=" in line and not line.startswith("#"))
    wanted = {e.strip() for e in lines["requirements "].split(",")}
    assert {"starlette", "anyio", "idna", "typing_extensions", "uvicorn", "h11", "click"} <= wanted
    assert not {"httptools", "uvloop", "uvicorn[standard]"} & wanted
    from importlib.metadata import requires

    for package in ("starlette", "anyio", "uvicorn"):
        for need in requires(package) or []:
            if "extra ==" in need or "python_version <" in need:
                continue
            name = need.split(";")[0].split("[")[0].split(">")[0].split("<")[0].split("=")[0].split("!")[0]
            assert name.strip().lower().replace("-", "_") in {w.lower() for w in wanted}, (package, need)


def test_the_local_network_addresses_are_private():
    import ipaddress

    from ui.web.in_app import local_addresses

    for address in local_addresses():
        ip = ipaddress.ip_address(address)
        assert ip.is_private and not ip.is_loopback
