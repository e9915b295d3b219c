"""Before Kivy starts: is there a display to open a window on, how big the window is, and
a quiet log.

With no display the app says so in one line and exits with status 2 instead of running
invisibly; tests and other headless runs opt in with ``TOUCHLINE_HEADLESS=1`` (Kivy's SDL2
then draws offscreen). At the default log level Kivy's start-up chatter is not shown; the
few messages it raises for optional system parts (the X11 cut buffer, libmtdev) are kept
for ``-v`` and listed in the README with the packages that provide them.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import sys

HEADLESS_ENV = "TOUCHLINE_HEADLESS"
WINDOW_ENV = "TOUCHLINE_WINDOW"     # "1920x1200": another window size on a desktop
DESIGN_SIZE = (1280, 800)           # what the screens are laid out for
EXIT_NO_DISPLAY = 2

log = logging.getLogger(__name__)

# Kivy messages that are no fault of the app (a desktop without xclip, a kernel without
# libmtdev, a fresh Kivy config being written): kept for -v, not shown at the default level.
HARMLESS = ("Cutbuffer: Unable to find any valuable Cutbuffer provider",
            "Input: MTDev is not supported",
            "Config: Older configuration version detected",
            "Config: Upgrading configuration in progress",
            "Config: Upgrading from",
            # No audio device (a desktop without sound): time up is on screen all the same.
            "AudioSDL2: Unable to open mixer",
            "AudioSDL2: Unable to load")


def platform() -> str:
    if "ANDROID_ARGUMENT" in os.environ or "ANDROID_PRIVATE" in os.environ:
        return "android"
    return {"win32": "win", "darwin": "macosx"}.get(sys.platform, "linux" if sys.platform.startswith("linux")
                                                    else sys.platform)


def headless() -> bool:
    return os.environ.get(HEADLESS_ENV, "").strip().lower() in ("1", "yes", "true")


def _x11():
    name = ctypes.util.find_library("X11")
    if not name:
        return None
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        return None
    lib.XOpenDisplay.restype = ctypes.c_void_p
    lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    lib.XDefaultScreenOfDisplay.restype = ctypes.c_void_p
    lib.XDefaultScreenOfDisplay.argtypes = [ctypes.c_void_p]
    lib.XWidthOfScreen.argtypes = [ctypes.c_void_p]
    lib.XHeightOfScreen.argtypes = [ctypes.c_void_p]
    lib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    return lib


def x11_screen() -> tuple[int, int] | None:
    """The X screen's size in pixels, or None (no X display, no libX11, Wayland)."""
    if not os.environ.get("DISPLAY"):
        return None
    lib = _x11()
    if lib is None:
        return None
    display = lib.XOpenDisplay(None)
    if not display:
        return None
    try:
        screen = lib.XDefaultScreenOfDisplay(display)
        return int(lib.XWidthOfScreen(screen)), int(lib.XHeightOfScreen(screen))
    finally:
        lib.XCloseDisplay(display)


def display_problem() -> str | None:
    """Why no window can be shown here, or None when one can (or the run opted out)."""
    if headless() or platform() != "linux":
        return None
    if os.environ.get("WAYLAND_DISPLAY"):
        return None
    display = os.environ.get("DISPLAY")
    if not display:
        return ("no display to open the tablet app's window on (DISPLAY is not set): run it on the "
                "tablet's desktop, or under xvfb-run; 'touchline demo --text' needs no display")
    if _x11() is not None and x11_screen() is None:
        return (f"cannot open the display {display}: check the X server is running and this user may "
                f"use it (xhost), or run under xvfb-run")
    return None


def window_size(screen: tuple[int, int] | None) -> tuple[int, int]:
    """1280x800, or less keeping its shape when the screen is smaller (room left for a title
    bar and a panel)."""
    wanted = os.environ.get(WINDOW_ENV, "")
    try:
        w, h = (int(v) for v in wanted.lower().split("x"))
        if w >= 320 and h >= 240:
            return w, h
    except ValueError:
        pass
    w, h = DESIGN_SIZE
    if screen is None:
        return w, h
    room_w, room_h = screen[0], screen[1] - 64
    scale = min(1.0, room_w / w, room_h / h)
    return int(w * scale), int(h * scale)


class _Harmless(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        level = logging.getLogger().getEffectiveLevel()
        if level <= logging.DEBUG:
            return True
        if record.levelno < level:   # Kivy sets its own logger to INFO while it starts
            return False
        try:
            text = record.getMessage()
        except Exception:
            return True
        return not text.startswith(HARMLESS)


def quiet_kivy() -> None:
    """Kivy logs through Python's logging (the command's own handler and level): no second
    console format, no stderr redirection, no INFO chatter at the default level."""
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    kivy_log = logging.getLogger("kivy")
    if not any(isinstance(f, _Harmless) for f in kivy_log.filters):
        kivy_log.addFilter(_Harmless())


def after_kivy_import() -> None:
    """Kivy's config sets its logger to INFO: back to the command's level."""
    root = logging.getLogger().getEffectiveLevel()
    logging.getLogger("kivy").setLevel(max(root, logging.DEBUG) if root > logging.NOTSET else logging.WARNING)


def configure_window() -> None:
    """The window: fullscreen landscape on Android, 1280x800 (or what fits) on a desktop."""
    from kivy.config import Config

    after_kivy_import()
    if platform() == "android":
        Config.set("graphics", "fullscreen", "auto")
        os.environ.setdefault("KIVY_ORIENTATION", "LandscapeLeft LandscapeRight")
        return
    screen = None if headless() else x11_screen()
    w, h = window_size(screen)
    if screen is not None and not os.environ.get(WINDOW_ENV) and screen[0] <= DESIGN_SIZE[0] \
            and screen[1] <= DESIGN_SIZE[1]:
        # A 1280x800 tablet (or smaller): the whole screen, as on Android. A borderless window
        # the screen's size (SDL's "fullscreen auto" misplaces the window without a window manager).
        Config.set("graphics", "borderless", "1")
        Config.set("graphics", "position", "custom")
        Config.set("graphics", "left", "0")
        Config.set("graphics", "top", "0")
        Config.set("graphics", "width", str(screen[0]))
        Config.set("graphics", "height", str(screen[1]))
        return
    Config.set("graphics", "width", str(w))
    Config.set("graphics", "height", str(h))
    Config.set("graphics", "resizable", "1")
    # A mouse on a desktop: no red dots where the right button clicked.
    Config.set("input", "mouse", "mouse,multitouch_on_demand")


def start_app(check_display: bool = True) -> int | None:
    """Everything before ``build_app_class``; returns an exit status when the app must not
    start (no display), else None."""
    if check_display:
        problem = display_problem()
        if problem is not None:
            print(f"touchline: {problem}", file=sys.stderr)
            return EXIT_NO_DISPLAY
    quiet_kivy()
    if headless():
        os.environ.setdefault("KIVY_WINDOW", "sdl2")
    configure_window()
    return None
