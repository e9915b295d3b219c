"""What every headless drive of the real tablet app shares: Kivy started in a window of the
asked size, fingers on the glass, finding and pressing buttons, screenshots, and a clock that
plays a generator of steps once the app is idle.

Imported first by tests/ui_scenario.py, ui_box_editor.py and ui_report_scenario.py (each run
in a subprocess: Kivy opens one window per process), whose command line is always

    python tests/<driver>.py OUT_DIR [WIDTHxHEIGHT|default] [MODE]

A driver subclasses ``Driver``, writes ``play()`` (a generator yielding "settle" to let the
app catch up, ``self.wait(...)`` for something slower, or "done") and calls ``run(cls)``.
result.json in OUT_DIR says what happened: ``error`` (a traceback, or empty), ``log``,
``screenshots``, ``window`` and whatever the driver's ``result()`` adds.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

OUT = Path(sys.argv[1])
SIZE = sys.argv[2] if len(sys.argv) > 2 else "1280x800"
MODE = sys.argv[3] if len(sys.argv) > 3 else ""
OUT.mkdir(parents=True, exist_ok=True)
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ["KIVY_WINDOW"] = "sdl2"
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))   # the games' ui_play_<game>.py

from kivy.config import Config  # noqa: E402

if SIZE != "default":
    width, height = SIZE.split("x")
    Config.set("graphics", "width", width)
    Config.set("graphics", "height", height)

from kivy.animation import Animation  # noqa: E402
from kivy.base import EventLoop  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.input.motionevent import MotionEvent  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402

from ui.app import build_app_class  # noqa: E402


class Touch(MotionEvent):
    """A finger on the glass at window coordinates."""

    def __init__(self, x: float, y: float) -> None:
        super().__init__("harness", 1, {"x": x, "y": y}, is_touch=True, type_id="touch")

    def depack(self, args) -> None:
        self.sx = args["x"] / Window.width
        self.sy = args["y"] / Window.height
        super().depack(args)


def tap(x: float, y: float) -> None:
    touch = Touch(x, y)
    EventLoop.post_dispatch_input("begin", touch)
    EventLoop.post_dispatch_input("end", touch)


def widgets(root):
    yield root
    for child in root.children:
        yield from widgets(child)


def popups() -> list:
    """What is open over the screen: popups and drop-down menus, topmost first."""
    return [w for w in Window.children if type(w).__name__.endswith(("Popup", "DropDown"))]


class Driver:
    """Drives the app: finds, presses, photographs; plays ``play()`` step by step."""

    def __init__(self, app) -> None:
        self.app = app
        self.log: list[str] = []
        self.shots: list[str] = []
        self.frames = 0
        self.waiting = None
        self.deadline = 0.0
        self.steps = self.play()
        from ui.layout_check import Steadiness
        self.steady = Steadiness()   # targets that move within one step (ui/layout_check.py)

    # --- what is played ---------------------------------------------------------------------------
    def play(self):
        yield "done"

    def result(self) -> dict:
        """What the driver adds to result.json."""
        return {}

    def step_key(self):
        """What makes one step for the coach: the screen, the question the rules ask, the
        game's touch mode and the figures picked in it, the figure selected, what is open over
        the screen. While it stays the same, a touch target must not move (ui/layout_check.py)."""
        screen = self.screen()
        view = getattr(self.app.controller, "view", None)
        head = (view.pending[0].id, str(view.pending[0].team)) if view is not None and view.pending else None
        picked = (str(getattr(screen, "action", None)), str(list(getattr(screen, "picked", []))),
                  str(dict(getattr(screen, "form", {}))))
        return (screen.name, head if screen.name == "live" else None, getattr(screen, "mode", None),
                str(getattr(screen, "selected", None)), picked, str(getattr(screen, "game", "")),
                tuple(id(p) for p in popups()))

    def look(self) -> None:
        """The touch targets now, against the last frame of the same step."""
        over = popups()
        root = over[0] if over else self.screen()
        found = self.steady.look(self.step_key(), root, f"{self.screen().name} ({SIZE}): ")
        if found and os.environ.get("TOUCHLINE_DEBUG_MOVES"):
            texts = [getattr(w, "text", "") for w in widgets(root) if getattr(w, "text", "")]
            self.log.append(f"moved at {self.step_key()}: {texts[:40]} / before: {getattr(self, '_last_texts', [])[:40]}")
        if os.environ.get("TOUCHLINE_DEBUG_MOVES"):
            self._last_texts = [getattr(w, "text", "") for w in widgets(root) if getattr(w, "text", "")]

    def wait(self, predicate, timeout: float = 600.0):
        """Steps pause until ``predicate()`` holds (a report computed on a thread, the rendered
        camera's first frames): never a count of steps, which a loaded machine outlasts. The
        timeout only ends a hung drive."""
        caller = traceback.extract_stack(limit=2)[0]   # the driver's line that waits (for a timeout's message)
        self.waited_for = f"{Path(caller.filename).name}:{caller.lineno}: {caller.line}"
        self.waiting, self.deadline = predicate, time.monotonic() + timeout
        yield "wait"

    # --- finding and touching things ------------------------------------------------------------
    def screen(self):
        return self.app.root.current_screen

    def button(self, text: str, startswith: bool = False, within=None) -> Button:
        """An enabled button by its text: in ``within``, else in an open popup, else on the screen."""
        roots = [within] if within is not None else (popups() or [self.screen()])
        found = [w for root in roots for w in widgets(root) if isinstance(w, Button) and not w.disabled
                 and (w.text.startswith(text) if startswith else w.text == text)]
        if not found:
            raise AssertionError(f"no button {text!r} on {self.screen().name}; buttons: "
                                 f"{[w.text for r in roots for w in widgets(r) if isinstance(w, Button)][:60]}")
        return found[0]

    def any_button(self, text: str, startswith: bool = False):
        """A button by its text, enabled or not."""
        found = [w for w in widgets(self.screen()) if isinstance(w, Button)
                 and (w.text.startswith(text) if startswith else w.text == text)]
        assert found, f"no button {text!r} on {self.screen().name}"
        return found[0]

    def press(self, text: str, startswith: bool = False, within=None) -> None:
        b = self.button(text, startswith, within)
        self.scroll_to(b)
        self.tap_widget(b)
        self.log.append(f"press {text}")

    def tap_widget(self, w) -> None:
        tap(*w.to_window(w.center_x, w.center_y))

    @staticmethod
    def scroll_to(w) -> None:
        """A widget below a panel's fold: scrolled into view first, as a coach would."""
        parent = w.parent
        while parent is not None and parent is not parent.parent and not isinstance(parent, ScrollView):
            parent = parent.parent
        if not isinstance(parent, ScrollView):
            return
        _x0, y0 = parent.to_window(parent.x, parent.y)
        _wx, wy = w.to_window(w.x, w.y)
        if wy >= y0 and wy + w.height <= y0 + parent.height:
            return   # in view already
        parent.scroll_to(w, padding=10, animate=False)
        parent.scroll_y = min(1.0, max(0.0, parent.scroll_y))
        parent.update_from_scroll()

    def screenshot(self, name: str) -> str:
        """The window as a PNG in OUT (Kivy numbers it: name0001.png); its path."""
        path = Window.screenshot(name=str(OUT / f"{name}.png"))
        self.shots.append(path)
        self.checked(name)
        return path

    def checked(self, name: str) -> None:
        """Each driver's checks of a photographed screen."""

    # --- the clock ------------------------------------------------------------------------------------
    def tick(self, _dt) -> bool | None:
        ctl = self.app.controller
        # Settled means the controller idle and no animation running (a popup being dismissed
        # stays on the window until its fade ends): counting frames alone passes on a slow
        # machine and fails on a fast one.
        busy = [why for why, holds in (("the controller is busy", not ctl.idle),
                                       ("views wait to be shown", not self.app._views.empty()),
                                       ("an animation runs", bool(Animation._instances))) if holds]
        if self.waiting is not None and time.monotonic() > self.deadline and not self.holds_safely():
            # Checked before settling: an app that never settles ends the drive too, saying why.
            self.finish(f"timed out waiting at {self.waited_for}\n"
                        f"the app: {', '.join(busy) or 'settled'}\nthe window said: {self.window_words()}")
            return False
        if busy:
            self.frames = 0
            return None
        if self.waiting is not None:
            try:
                holds = self.waiting()
            except Exception:
                self.finish(traceback.format_exc())
                return False
            if not holds:
                return None
            self.waiting = None
        self.frames += 1
        if self.frames < 3:  # let the screens catch up with the view
            return None
        self.frames = 0
        try:
            self.look()
        except Exception:
            self.finish(traceback.format_exc())
            return False
        try:
            step = next(self.steps)
        except StopIteration:
            step = "done"
        except Exception:
            self.finish(traceback.format_exc())
            return False
        if step == "done":
            self.finish("")
            return False
        return None

    def holds_safely(self) -> bool:
        try:
            return bool(self.waiting())
        except Exception:   # said by the settled check's traceback, when it gets there
            return False

    def window_words(self) -> list[str]:
        """Every text on the window (screen and popups), for a failure's message."""
        return [w.text for w in widgets(Window) if isinstance(getattr(w, "text", None), str) and w.text][:80]

    def finish(self, error: str, stop: bool = True) -> None:
        result = {"error": error, "log": self.log, "screenshots": self.shots, "window": list(Window.size)}
        try:
            result.update(moved=list(self.steady.faults), **self.result())
        except Exception:   # the driver's own facts failed: the error still reaches the test
            result["error"] = (error + "\n" if error else "") + "the driver's result failed:\n" + traceback.format_exc()
        try:
            (OUT / "result.json").write_text(json.dumps(result, indent=1, default=str))
        finally:   # a drive that cannot write its result still ends (never a hung subprocess)
            if stop:
                self.app.stop()


def run(driver_class, data_dir: Path | None = None, **app_kwargs) -> None:
    """Start the app on ``data_dir`` (TOUCHLINE_DATA_DIR, else a new temporary folder) and
    play ``driver_class`` once it is up."""
    data = data_dir or Path(os.environ.get("TOUCHLINE_DATA_DIR") or tempfile.mkdtemp(prefix="touchline-ui-"))
    app = build_app_class()(data_dir=data, **app_kwargs)
    driver = driver_class(app)

    def start(*_args) -> None:   # returns None: a true value would stop the app's own on_start
        Clock.schedule_interval(driver.tick, 0.05)
    app.bind(on_start=start)
    app.run()
