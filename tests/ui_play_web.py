"""The scoreboard page switched on from the tablet's Settings, as a coach would
(run by tests/test_ui_web.py through tests/ui_scenario.py ... game:web).

A new Fublet match, the opening rolls on the keypad; Menu > Settings > Scoreboard page; the
address typed (127.0.0.1: tests stay on this machine) and the switch pressed; the page is read
over HTTP; back to the match, a roll; the page has it; the switch off closes the socket.
"""

from __future__ import annotations

import json
import socket
import urllib.request
from urllib.parse import urlsplit

from kivy.uix.button import Button


def fetch_state(url: str) -> dict:
    with urllib.request.urlopen(url + "state.json", timeout=60) as resp:
        return json.loads(resp.read())


def play(sc):
    yield from sc.start_match()
    sc.keypad("7")
    yield "settle"
    seq_before = sc.app.controller.match.last_seq
    sc.press("Menu")
    yield "settle"
    sc.press("Settings")
    yield "settle"
    sc.screenshot("web_settings")
    sc.press("Scoreboard page")
    yield "settle"
    screen = sc.screen()
    assert screen.name == "scoreboard", screen.name
    assert not sc.app.scoreboard.on
    sc.screenshot("web_scoreboard_off")
    screen.ids.host.text = "127.0.0.1"
    yield "settle"
    sc.press("Off: switch on")
    yield "settle"
    board = sc.app.scoreboard
    assert board.on and screen.qr is not None, screen.status
    url = board.url
    assert url.startswith("http://127.0.0.1:"), url
    sc.screenshot("web_scoreboard_on")
    yield from sc.wait(lambda: fetch_state(url).get("seq") == seq_before)   # the page's server caught up
    state = fetch_state(url)
    assert state.get("seq") == seq_before and state.get("game") == "fublet", state
    assert state["pending"], state
    # Back to the match: Home > Resume, and the next roll.
    sc.press("Back")
    yield "settle"
    sc.press("Back")
    yield "settle"
    back = next(w.text for w in sc.screen().walk() if isinstance(w, Button)
                and w.text.startswith(("Back to the match", "Resume")))
    sc.press(back)
    yield "settle"
    assert sc.screen().name == "live"
    sc.keypad("3")
    yield "settle"
    seq_after = sc.app.controller.match.last_seq
    assert seq_after > seq_before
    yield from sc.wait(lambda: fetch_state(url).get("seq") == seq_after)
    state = fetch_state(url)
    assert state.get("seq") == seq_after, (state.get("seq"), seq_after)
    sc.log.append(f"page followed the match to seq {seq_after}")
    # Switched off: nothing listens any more.
    sc.press("Menu")
    yield "settle"
    sc.press("Settings")
    yield "settle"
    sc.press("Scoreboard page")
    yield "settle"
    sc.press("On: serving")
    yield "settle"
    assert not sc.app.scoreboard.on
    port = urlsplit(url).port
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except OSError:
        sc.log.append("switched off: connection refused")
    else:
        raise AssertionError("the page still listens after the switch went off")
    sc.screenshot("web_scoreboard_switched_off")
