"""The app shows a new view on the pitch first and on the rest of the live screen on the next
frame. Run by tests/test_ui_pitch_first.py in a subprocess (Kivy opens one window a process):

    python tests/ui_pitch_first.py OUT.json
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from pathlib import Path

OUT = Path(sys.argv[1])
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ["KIVY_WINDOW"] = "sdl2"
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402

from companion.fublet import commands as c  # noqa: E402
from companion.fublet.components import load_components, shipped_team  # noqa: E402
from companion.sightings import Sighting  # noqa: E402
from companion.teams import PlayerRef, Team  # noqa: E402
from ui.app import build_app_class  # noqa: E402

REF = PlayerRef(Team.HOME, 7)
app = build_app_class()(data_dir=Path(tempfile.mkdtemp()), resume_last=False)
seen: dict = {"flips": []}


def finish(error: str = "") -> None:
    OUT.write_text(json.dumps({"error": error, "flips": seen["flips"]}))
    app.stop()


def on_flip(*_args) -> None:
    new = seen.get("new")
    if new is None or len(seen["flips"]) > 20:
        return
    live = app.root.get_screen("live")
    seen["flips"].append({"pitch": live.ids.pitch.state is new.state, "screen": live.view is new})


def wait_for_live(_dt) -> bool | None:
    live = app.root.get_screen("live")
    if live.view is None or not live.view.active or not app.controller.idle:
        return None
    ctl = app.controller
    post = ctl._post

    def keep(view):  # the view the sighting makes
        seen["new"] = view
        post(view)
    ctl._post = keep
    board = ctl.match.ruleset.board(ctl.match.state)
    x, y = board.ms_center_mm((16, 14))
    ctl.sighting(Sighting(REF, x, y, 0.0))
    Clock.schedule_once(lambda _dt: finish(), 3.0)
    return False


def start(*_args) -> None:
    try:
        app.controller.new_match(c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components()),
                                 seed=1)
        app.show("live")
        Clock.schedule_interval(wait_for_live, 0.1)
    except Exception:
        finish(traceback.format_exc())


Window.bind(on_flip=on_flip)
app.bind(on_start=start)
app.run()
