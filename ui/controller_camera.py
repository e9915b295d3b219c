"""The controller's camera: committed sightings become commands, or proposals a person takes
or drops with one tap; a declaration can wait for where the camera sees its figure settle.

``CameraDesk`` is a part of ``ui.controller.Controller`` (a mixin): it reads and writes the
controller's match, log, proposals and device health, and runs only on its worker."""

from __future__ import annotations

from companion.errors import TouchlineError
from companion.events import Source
from companion.ruleset import Command
from companion.sightings import Sighting
from companion.teams import PlayerRef

from .autoflow import Expectation, Proposal, correction_for, on_a_line
from .status import Health


def player_words(ref: PlayerRef) -> str:
    return f"{ref.team.label} #{ref.number}"


class CameraDesk:
    """Sightings in, commands or proposals out (part of the Controller)."""

    def enable_vision(self, on: bool) -> None:
        self.vision_enabled = on

    def sighting(self, sighting: Sighting, doubt: str = "") -> None:
        """A committed camera sighting (from the vision thread): the command the rules read in
        it is taken by itself, unless the camera is unsure (then a person takes or drops it:
        ``doubt`` says why, e.g. it was read where the rules have another figure), or the rules
        refuse it as a placement (then taking it is a correction)."""
        def job() -> str | None:
            m = self.match
            if m is None or not self.vision_enabled:
                return None
            self._proposals = [p for p in self._proposals if p.sighting.player != sighting.player]
            if doubt:
                command = m.ruleset.command_for(m.state, sighting)
                if command is not None:
                    self._propose(sighting, command, doubt)
                return None
            expect = self._expect
            if (expect is not None and expect.player == sighting.player and self.auto_on
                    and self._health["camera"] is not Health.DEGRADED):
                command = expect.build(m.state, sighting)
                if command is not None:   # the declaration, with the place the camera saw
                    try:
                        self._apply(lambda: m.submit(command, Source.VISION), Source.VISION)
                    except TouchlineError as exc:   # the form stays open: move again, or touch a place
                        return f"The camera sees {self._who(sighting)} {self._where(command)}: {exc}"
                    self._expect = None
                    self._expected += 1
                    return None
            command = m.ruleset.command_for(m.state, sighting)
            if command is None:
                return None   # where the rules have it already (or nothing the rules track)
            if self._health["camera"] is Health.DEGRADED:
                self._propose(sighting, command, "the camera is unsure")
                return None
            if on_a_line(m.ruleset, m.state, sighting, command):
                self._propose(sighting, command, "it stands on a line: is this the square?")
                return None
            try:
                self._apply(lambda: m.submit(command, Source.VISION), Source.VISION)
            except TouchlineError as exc:
                fix = correction_for(sighting)
                if fix is None:
                    raise
                self._propose(sighting, fix, "no move of the rules puts it there: a correction")
                return (f"The camera sees {self._who(sighting)} {self._where(command)}: {exc}. Put the figure back, "
                        f"or take the camera's place as a correction.")
            return None
        self._queue(job)

    @staticmethod
    def _who(sighting: Sighting) -> str:
        return player_words(sighting.player) if sighting.player is not None else "the ball"

    @staticmethod
    def _where(command: Command) -> str:
        square = getattr(command, "to", None) or getattr(command, "square", None)
        if square is None and getattr(command, "x_mm", None) is None:
            return "off the pitch"
        return f"at {tuple(square)}" if square is not None else "on the pitch"

    def _propose(self, sighting: Sighting, command: Command, why: str) -> None:
        text = f"Camera: {self._who(sighting)} {self._where(command)} ({why})"
        self._proposals.append(Proposal(self._next_proposal, sighting, command, text))
        self._next_proposal += 1
        self._log.append(text + ": take it or drop it")

    def expect_move(self, expectation: Expectation | None) -> None:
        """A declaration now waits only for where a figure goes (None: it no longer does): the
        camera's next sighting of that figure settling elsewhere finishes it (ui/autoflow.py)."""
        def job() -> None:
            self._expect = expectation
        self._queue(job)

    def take_proposal(self, proposal_id: int) -> None:
        """A person takes what the camera saw (one tap): the held command, source ``vision``."""
        def job() -> str | None:
            found = next((p for p in self._proposals if p.id == proposal_id), None)
            if found is None or self.match is None:
                return None
            self._proposals.remove(found)
            self._apply(lambda: self.match.submit(found.command, Source.VISION), Source.VISION)
            return None
        self._queue(job)

    def drop_proposal(self, proposal_id: int) -> None:
        def job() -> None:
            self._proposals = [p for p in self._proposals if p.id != proposal_id]
        self._queue(job)
