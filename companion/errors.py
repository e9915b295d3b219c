"""The narrow exceptions the core raises. Every message says what is wrong and what to do."""

from __future__ import annotations


class TouchlineError(Exception):
    """Base class for every error the rules core raises on purpose."""


class RuleViolation(TouchlineError):
    """A command was refused by a rule. Nothing was appended; state and journal are unchanged.

    ``rule`` names the rulebook section (for example ``"Fublet: Round Pace"``), so the
    message a coach sees says which rule refused the move.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.reason = message


class DiceMismatch(RuleViolation):
    """A roll does not fit what the pending request asked for (wrong kind or count of dice)."""


class DecodeError(TouchlineError):
    """A stored or imported value does not have the shape its type needs."""

    def __init__(self, path: str | None, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path or ""
        self.reason = message


class JournalError(TouchlineError):
    """A journal file cannot be used: foreign, newer, corrupt, or unreadable. It was not modified."""


class ReplayError(TouchlineError):
    """Stored or imported events do not fold into a match: ``seq`` names the first that fails."""

    def __init__(self, seq: int, type_: str, reason: str) -> None:
        super().__init__(f"event {seq} ({type_}) does not replay: {reason}")
        self.seq = seq
        self.type = type_
        self.reason = reason


class DataFileError(TouchlineError):
    """A box-data file (tactical boards, cards, board geometry...) failed validation on load."""

    def __init__(self, file: str, entry: str, field: str, message: str) -> None:
        where = " / ".join(part for part in (entry, field) if part)
        super().__init__(f"{file}: {where}: {message}" if where else f"{file}: {message}")
        self.file = file
        self.entry = entry
        self.field = field
        self.reason = message
