"""Where Touchline keeps its data on each platform."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.paths import default_journal_path, matches_dir, user_data_dir

HOME = Path("/home/ana")


@pytest.mark.parametrize("platform, environ, expected", [
    ("linux", {}, HOME / ".local/share/touchline"),
    ("linux", {"XDG_DATA_HOME": "/data/xdg"}, Path("/data/xdg/touchline")),
    ("linux", {"XDG_DATA_HOME": "relative/ignored"}, HOME / ".local/share/touchline"),
    ("linux", {"XDG_DATA_HOME": "  "}, HOME / ".local/share/touchline"),
    ("freebsd13", {}, HOME / ".local/share/touchline"),
    ("darwin", {"XDG_DATA_HOME": "/data/xdg"}, HOME / "Library/Application Support/Touchline"),
    ("win32", {"APPDATA": "C:/Users/ana/AppData/Roaming"}, Path("C:/Users/ana/AppData/Roaming/Touchline")),
    ("win32", {}, HOME / "AppData/Roaming/Touchline"),
    ("linux", {"TOUCHLINE_DATA_DIR": "/mnt/usb/tl", "XDG_DATA_HOME": "/data/xdg"}, Path("/mnt/usb/tl")),
    ("win32", {"TOUCHLINE_DATA_DIR": "/mnt/usb/tl", "APPDATA": "C:/x"}, Path("/mnt/usb/tl")),
    ("darwin", {"TOUCHLINE_DATA_DIR": "/mnt/usb/tl"}, Path("/mnt/usb/tl")),
])
def test_user_data_dir(platform, environ, expected):
    assert user_data_dir(platform=platform, environ=environ, home=HOME) == expected


def test_override_expands_the_home_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert user_data_dir(environ={"TOUCHLINE_DATA_DIR": "~/tl"}) == tmp_path / "tl"


def test_defaults_follow_this_computer(monkeypatch, tmp_path):
    monkeypatch.setenv("TOUCHLINE_DATA_DIR", str(tmp_path))
    assert user_data_dir() == tmp_path
    assert matches_dir() == tmp_path / "matches"
    assert default_journal_path("cup final") == tmp_path / "matches" / "cup final.sqlite"
    assert not (tmp_path / "matches").exists()  # nothing is created by asking


@pytest.mark.parametrize("name, file", [("derby", "derby.sqlite"), ("derby.sqlite", "derby.sqlite"),
                                        (" spaced ", "spaced.sqlite"), ("2024-05-01 Rovers v Harbour",
                                                                         "2024-05-01 Rovers v Harbour.sqlite")])
def test_journal_names(name, file):
    assert default_journal_path(name, environ={}, home=HOME, platform="linux") == \
        HOME / ".local/share/touchline/matches" / file


@pytest.mark.parametrize("name", ["", "   ", "..", ".", "a/b", "../x", "a\\b", "C:evil", "/abs"])
def test_journal_names_that_are_paths_are_refused(name):
    with pytest.raises(ValueError):
        default_journal_path(name, environ={}, home=HOME, platform="linux")
