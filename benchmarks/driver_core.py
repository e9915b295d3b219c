"""What the automatic players share (benchmarks/driver.py, futboard_driver.py,
football_leader_driver.py): each turn a driver proposes *speculative* commands, which the
rules may refuse (recorded in ``refusals``), and one *expected* command it has made sure is
legal (a refusal of that one raises ``UnexpectedRefusal`` with the state, to debug)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import RuleViolation
from companion.match import Match
from companion.ruleset import Command


class UnexpectedRefusal(AssertionError):
    """A command the driver believed legal was refused by the rules."""

    def __init__(self, command: Command, error: Exception, match: Match, where: str) -> None:
        pending = "; ".join(f"{r.id}: {r.text}" for r in match.pending()) or "nothing"
        super().__init__(f"refused: {command!r}\n  because: {error}\n  {where}\n  pending: {pending}\n"
                         f"  after {match.last_seq} events")
        self.command = command
        self.error = error


@dataclass
class Refusal:
    command: Command
    reason: str
    seq: int  # the last event's seq when it was refused


class Speculating:
    """``step`` and ``play`` for a dataclass driver with ``match``, ``refusals``, ``over``,
    ``propose() -> (speculative, expected)``, ``_submit(command)`` and ``where()`` (its
    state in one or two lines, for an unexpected refusal)."""

    match: Match
    refusals: list[Refusal]
    over: Any

    def step(self) -> Command:
        """Submit one accepted command; returns it."""
        speculative, expected = self.propose()
        for cmd in speculative:
            try:
                self._submit(cmd)
                return cmd
            except RuleViolation as exc:
                self.refusals.append(Refusal(cmd, str(exc), self.match.last_seq))
        try:
            self._submit(expected)
        except RuleViolation as exc:
            raise UnexpectedRefusal(expected, exc, self.match, self.where()) from exc
        return expected

    def play(self, commands: int | None = None, events: int | None = None) -> int:
        """Play until ``commands`` more commands were accepted, the match has ``events``
        events, or the match is over. Returns the commands played."""
        played = 0
        while not self.over:
            if commands is not None and played >= commands:
                break
            if events is not None and self.match.last_seq >= events:
                break
            self.step()
            played += 1
        return played

    def propose(self) -> tuple[list[Command], Command]:
        raise NotImplementedError

    def _submit(self, cmd: Command) -> None:
        raise NotImplementedError

    def where(self) -> str:
        raise NotImplementedError
