"""The printed board drawn once into a texture looks as it did drawn directly, in every game,
and is not drawn again while the figures move. Run by tests/test_ui_pitch_bake.py in a
subprocess (Kivy opens one window a process):

    python tests/ui_pitch_bake.py OUT.json PNG_DIR
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from dataclasses import replace
from pathlib import Path

OUT, PNGS = Path(sys.argv[1]), Path(sys.argv[2])
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ["KIVY_WINDOW"] = "sdl2"
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from kivy.config import Config  # noqa: E402

Config.set("graphics", "width", "900")
Config.set("graphics", "height", "600")

from kivy.base import runTouchApp, stopTouchApp  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.uix.floatlayout import FloatLayout  # noqa: E402

from companion.games import ruleset_for  # noqa: E402
from ui.looks import look_for  # noqa: E402
from ui.widgets.pitch import PitchView  # noqa: E402
from web_kit import GAMES, full_match  # noqa: E402

result: dict = {"error": "", "games": {}}
root = FloatLayout()


def state_of(game: str):
    """The game's state some way into its scripted match: figures on the board."""
    ruleset = ruleset_for(game)
    state = ruleset.initial_state()
    for event in full_match(game)[:400]:
        state = ruleset.evolve(state, event)
    return ruleset, state


def steps():
    for game in GAMES:
        ruleset, state = state_of(game)
        look = look_for(game)
        board = ruleset.board(state)
        shots = {}
        for baked in (True, False):
            pitch = PitchView(size_hint=(None, None), size=(900, 600), pos=(0, 0))
            if not baked:   # the old way: the board's instructions in the widget's own canvas
                pitch._bake = lambda layer, p=pitch: p._board_layer.add(layer)  # noqa: SLF001
            root.clear_widgets()
            root.add_widget(pitch)
            pitch.geometry = look.geometry(board)
            pitch.figures = look.figures(state)
            pitch.ball = look.ball(state, board)
            yield
            yield
            name = PNGS / f"{game}-{'baked' if baked else 'direct'}.png"
            shots[baked] = str(Window.screenshot(name=str(name)))
            if baked:
                draws, made = pitch.board_draws, pitch.sprites_made
                figures = list(pitch.figures)
                cells = [f.cell for f in figures]
                for i in range(20):   # the figures swap places: the board and their looks stay as made
                    turn = i % len(cells) + 1
                    pitch.figures = [replace(f, cell=c) for f, c in zip(figures, cells[turn:] + cells[:turn])]
                    yield
                result["games"][game] = {"draws_before": draws, "draws_after": pitch.board_draws,
                                         "figures": len(figures), "made_before": made,
                                         "made_after": pitch.sprites_made}
        result["games"][game].update(baked=shots[True], direct=shots[False])


def run() -> None:
    it = steps()

    def tick(_dt) -> None:
        try:
            next(it)
        except StopIteration:
            finish()
        except Exception:   # noqa: BLE001 (into the result, for the test to show)
            result["error"] = traceback.format_exc()
            finish()

    def finish() -> None:
        ev.cancel()
        OUT.write_text(json.dumps(result))
        stopTouchApp()

    ev = Clock.schedule_interval(tick, 0)


Clock.schedule_once(lambda _dt: run(), 0.5)
runTouchApp(root)
