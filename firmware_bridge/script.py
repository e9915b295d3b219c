"""What the tray simulator is told to do, typed at its prompt or read from a script file.

One step a line::

    home            roll the home pair, random faces (an empty line rolls the default group)
    away 4 0        roll the away pair showing 4 and 0
    green+home-black  roll those dice (ids joined by '+')
    wait 0.5        pause half a second
    disconnect 0.5  pull the cable for half a second (the tray keeps its rolls)
    reboot          restart the tray in the middle of a frame (new boot id)
    # a comment
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.errors import TouchlineError

from .sim import TraySim


class ScriptError(TouchlineError):
    """A script line the simulator cannot do; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Step:
    action: str                      # roll, wait, disconnect, reboot
    group: str = ""
    faces: tuple[int, ...] | None = None
    seconds: float = 0.0


def parse_step(line: str, sim: TraySim, default_group: str) -> Step | None:
    """One line as a step (None for a comment); raises ValueError saying what is wrong."""
    words = line.split("#", 1)[0].split()
    if not words:
        return None if line.strip() else Step("roll", default_group)
    head, rest = words[0].lower(), words[1:]
    if head in ("wait", "disconnect"):
        if len(rest) > 1 or (head == "wait" and not rest):
            raise ValueError(f"'{head}' takes one number of seconds, e.g. '{head} 0.5'")
        try:
            seconds = float(rest[0]) if rest else 0.3
        except ValueError:
            raise ValueError(f"'{rest[0]}' is not a number of seconds") from None
        if not 0 <= seconds <= 3600:
            raise ValueError(f"{seconds:g} s: give 0 to 3600 seconds")
        return Step(head, seconds=seconds)
    if head == "reboot":
        if rest:
            raise ValueError("'reboot' takes nothing after it")
        return Step("reboot")
    ids = sim.ids_of(words[0])  # raises ValueError naming the groups and dice
    if not rest:
        return Step("roll", words[0])
    if not all(w.isdigit() for w in rest):
        raise ValueError(f"faces are whole numbers: {' '.join(rest)!r}")
    faces = tuple(int(w) for w in rest)
    if len(faces) != len(ids):
        raise ValueError(f"{words[0]} is {len(ids)} dice ({', '.join(ids)}); give {len(ids)} faces, not {len(faces)}")
    return Step("roll", words[0], faces)


def read_script(path: Path, sim: TraySim, default_group: str) -> list[Step]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(f"{path}: cannot read the script: {exc.strerror or exc}") from None
    steps = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue  # blank lines in a file are spacing, not Enter
        try:
            step = parse_step(line, sim, default_group)
        except ValueError as exc:
            raise ScriptError(f"{path} line {number}: {exc}") from None
        if step is not None:
            steps.append(step)
    return steps


def run_step(step: Step, sim: TraySim, sleep) -> None:
    if step.action == "roll":
        sim.roll(step.group, step.faces)
    elif step.action == "wait":
        sleep(step.seconds)
    elif step.action == "disconnect":
        sim.disconnect(step.seconds)
    elif step.action == "reboot":
        sim.reboot(mid_frame=True)
