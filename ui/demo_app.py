"""``touchline demo``: the tablet app with the demo director playing its scripted match."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path


def run_demo(args: argparse.Namespace) -> int:
    from .app import build_app_class, prepare_environment

    status = prepare_environment()
    if status is not None:
        return status
    from kivy.clock import Clock

    from .demo import DemoDirector

    # The demo's matches go to a folder of their own: they never mix with a table's matches.
    data_dir = Path(tempfile.mkdtemp(prefix="touchline-demo-"))
    app = build_app_class()(data_dir=data_dir, resume_last=False)
    outcome: dict = {}

    def finished(error: str) -> None:  # on the director's thread
        outcome["error"] = error
        if args.result:
            view = app.controller.view
            sources: dict[str, int] = {}
            for event in (app.controller.match.events if app.controller.match else ()):
                sources[event.source.value] = sources.get(event.source.value, 0) + 1
            Path(args.result).write_text(json.dumps({
                "error": error, "steps": director.steps, "summary": view.ruleset.summary(view.state) if view.active else {}, "sources": sources,
                "camera": view.camera, "tray": view.tray, "log": list(view.log)}, indent=1, default=str))
        if args.exit_when_done:
            Clock.schedule_once(lambda _dt: app.stop(), 0.5)

    director = DemoDirector(app.controller, on_done=finished, pace=args.pace, camera=app.camera)

    def start(*_args) -> None:
        app.show("live")
        director.start()

    app.bind(on_start=start)
    try:
        app.run()
    finally:
        director.stop()
    return 0 if not outcome.get("error") else 2
