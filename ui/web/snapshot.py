"""What the scoreboard page shows of a match at one moment, built from the folded state.

The same fold the tablet shows: the game's look (ui/looks/, the tablet's face draws from it
too) gives the scoreboard line, the clock, the phase, the figures and the ball; the ruleset gives the pending requests and the
event log's lines. The printed board goes out once per board (``board_key``), the figures
with every change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Callable, Sequence

from companion.events import Event
from companion.ruleset import Ruleset
from companion.view import summary_of

from ..looks import Look
from ..places import Places, places_for
from ..words import Names
from . import svg


LOG_LINES = 12


@dataclass(frozen=True)
class Snapshot:
    """One state of the page: ``data`` is sent as JSON; ``board`` is the printed board's SVG."""

    version: int
    data: dict[str, Any]
    board: str = ""
    board_key: str = ""


@dataclass(frozen=True)
class Problem:
    """A match the page cannot show (a damaged journal, an unknown game): said in one line."""

    message: str


RuleLink = Callable[[str, str, str], "dict[str, str] | None"]   # (game, request id, text) -> {"section", "title"}


@dataclass
class Builder:
    """Builds snapshots for one game; caches the printed board between snapshots."""

    ruleset: Ruleset
    look: Look
    rule_link: RuleLink | None = None
    _board_obj: Any = field(default=None, repr=False)
    _geometry: Any = field(default=None, repr=False)
    _board_svg: str = field(default="", repr=False)
    _board_key: str = field(default="", repr=False)

    def build(self, version: int, state: Any, log_lines: Sequence[str], last: Event | None,
              now: datetime | None = None, error: str = "") -> Snapshot:
        summary = self.ruleset.summary(state)
        board = self.look.scoreboard(summary_of(summary), now or datetime.now(UTC))
        names = Names.of_summary(summary)   # "home#7" -> "Touchline Rovers #7 Kit", as on the tablet
        rules_board = self.ruleset.board(state)
        places = places_for(self.ruleset.game, rules_board)   # "(24, 22)" -> "a square in the right half"
        pending = [self._request(r, names, places) for r in self.ruleset.pending(state)]
        figures = ""
        if rules_board is not None:
            if rules_board is not self._board_obj:
                self._board_obj = rules_board
                self._geometry = self.look.geometry(rules_board)
                self._board_svg = svg.board_svg(self._geometry)
                self._board_key = f"{self.ruleset.game}-{abs(hash(self._board_svg)) % 10**10}"
            figures = svg.figures_svg(self._geometry, self.look.figures(state), self.look.ball(state, rules_board))
        geometry = self._geometry if rules_board is not None else None
        data = {
            "version": version,
            "seq": last.seq if last is not None else 0,
            "at": last.at.isoformat() if last is not None else "",
            "game": self.ruleset.game,
            "title": getattr(self.look, "title", "") or self.ruleset.game,
            "teams": summary.get("teams") or {},
            "score": board.score,
            "goals": summary.get("score") or {},
            "clock": board.clock,
            "phase": board.phase,
            "over": summary.get("phase") == "over" or isinstance(summary.get("result"), dict),
            "pending": pending,
            "log": [names.line(line) for line in reversed(list(log_lines)[-LOG_LINES:])],
            "error": places.in_words(names.line(error)),
            "error_rule": (self.rule_link(self.ruleset.game, "", error) if error and self.rule_link else None),
            "board_key": self._board_key if geometry is not None else "",
            "viewbox": [geometry.length_mm, geometry.width_mm] if geometry is not None else None,
            "figures": figures,
        }
        return Snapshot(version, data, self._board_svg if geometry is not None else "",
                        self._board_key if geometry is not None else "")

    def _request(self, request, names: Names, places: Places) -> dict[str, Any]:
        out = {"text": places.in_words(names.line(request.text)), "team": request.team.value if request.team else None,
               "kind": request.kind}
        if self.rule_link is not None:
            link = self.rule_link(self.ruleset.game, request.id, request.text)
            if link:
                out["rule"] = link
        return out


def problem_snapshot(version: int, message: str) -> Snapshot:
    """The page for a match that cannot be shown: one clear line, no pitch."""
    return Snapshot(version, {"version": version, "problem": message, "seq": 0, "pending": [], "log": [],
                              "board_key": "", "figures": "", "score": "", "clock": "", "phase": "",
                              "title": "Touchline", "error": ""})
