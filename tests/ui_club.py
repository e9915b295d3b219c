"""A club night at one table, only by what the screen shows (run by tests/test_ui_club_app.py in a
subprocess):

    python tests/ui_club.py OUT_DIR [WIDTHxHEIGHT]

A real club server runs on 127.0.0.1 in this process (tests/club_kit.py), with a season that
puts SV Rotstein v FC Gruenwald at "Table 3". The coach opens Settings (no club: one line and
Join), tries the camera (none here: said in words), pastes the club's join link, names the
tablet "Table 3" and joins; Home shows the next game at this table and sets it up; a short
Fußball-Liga match is played to the final whistle (both halves ended by the clock's button);
the first coach confirms the result, the club goes away, the second coach confirms (signed,
not sent: said so, Settings says the club cannot be reached), the club comes back on its port
and the result goes out by itself; then the tablet leaves the club. result.json carries what
the club holds.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from ui_harness import popups, run
from ui_scenario import Scenario

from companion.club.client import read_journal  # noqa: E402
from companion.club.keys import join_link  # noqa: E402
from companion.teams import Team  # noqa: E402
from tests.club_kit import Club, http  # noqa: E402
from ui.web.club_server import ClubServer  # noqa: E402

TEAMS = ["SV Rotstein", "FC Gruenwald"]


class ClubNight(Scenario):
    def __init__(self, app) -> None:
        super().__init__(app)
        self.club = Club(Path(tempfile.mkdtemp(prefix="touchline-club-")) / "club")
        organiser = {"Authorization": f"Bearer {self.club.ledger.organiser_token}", "Content-Type": "application/json"}
        body = {"name": "Autumn League", "game": "fussball_liga", "teams": TEAMS, "tables": ["Table 3"],
                "starts": "2026-01-01"}
        made = http("POST", self.club.url + "/seasons", json.dumps(body).encode(), organiser)
        assert made.status == 200, made.body
        self.port = self.club.server.port
        self.facts: dict = {}

    def words(self) -> list[str]:
        from ui_harness import widgets
        return [w.text for w in widgets(self.screen()) if isinstance(getattr(w, "text", None), str) and w.text]

    def said(self, part: str) -> bool:
        return any(part in text for text in self.words())

    def play(self):
        yield "settle"
        # --- Settings with no club: one line, one button -----------------------------------------
        self.press("Settings", startswith=True)
        yield from self.wait(lambda: self.app.club_state.ready, 60)
        yield "settle"
        self.facts["no_club_line"] = self.screen().club_words
        self.screenshot("club_settings_no_club")
        self.press("Join a club")
        yield "settle"
        popup = popups()[0]
        self.press("Scan the club's QR code")
        yield from self.wait(lambda: not popup.scanning, 60)
        self.facts["scan_words"] = popup.status
        self.screenshot("club_join_no_camera")
        popup.ids.link.text = join_link(self.club.url, self.club.ledger.join_token)   # pasted
        popup.ids.name.text = "Table 3"
        yield "settle"
        self.press("Join")
        yield from self.wait(lambda: self.app.club_state.joined and not popups(), 60)
        yield "settle"
        self.facts["joined_line"] = self.screen().club_words
        self.screenshot("club_settings_joined")
        # --- Home: the next game at this table ------------------------------------------------------
        self.press("Back")
        yield from self.wait(lambda: self.screen().name == "home" and self.screen().pairing_text != "", 60)
        yield "settle"
        self.facts["pairing"] = self.screen().pairing_text
        self.screenshot("club_home_next_pairing")
        self.press("Set up this match")
        yield "settle"
        self.facts["setup_message"] = self.screen().message
        self.facts["setup_teams"] = [self.screen().home_name, self.screen().away_name, self.screen().game]
        from ui_play_fussball_liga import option
        option(self, "No phase time limit (trying out tactics)")
        yield "settle"
        self.press("Start match")
        yield "settle"
        # --- a short match: the toss, the line-up, both halves ended by the clock's button --------------
        yield from self.wait(lambda: self.app.controller.view.active and self.screen().name == "live", 60)
        home, away = self.app.club_state.pairing.home, self.app.club_state.pairing.away
        self.press(f"Home ({home})")
        yield "settle"
        self.press("Kick off")
        yield "settle"
        self.press("High")
        yield "settle"
        self.press("Standard line-up")
        yield "settle"
        from ui_play_fussball_liga_full_time import kick_off, time_up
        for period in ("first_half", "second_half"):
            yield from kick_off(self)
            yield from time_up(self, shots=False)
        view = self.app.controller.view
        assert view.summary.result is not None, f"no final whistle: {view.phase}"
        journal = view.path
        self.facts["journal"] = journal
        # The match was sent while it was played: the club holds it already.
        yield from self.wait(lambda: (row := self.app.club_state.row(journal)) is not None and row.sent > 0, 60)
        # --- the final whistle: both coaches confirm -------------------------------------------------------
        yield "settle"
        self.screenshot("club_full_time_confirm")
        self.press(f"{home}'s coach: the result is right")
        yield from self.wait(lambda: self.said(f"{home}'s coach confirmed."), 60)
        yield "settle"
        self.facts["one_confirmed"] = [t for t in self.words() if "coach" in t]
        self.screenshot("club_full_time_one_confirmed")
        self.club.server.stop()                       # the club goes away (its laptop's network drops)
        self.press(f"{away}'s coach: the result is right")
        yield from self.wait(lambda: self.said("not sent yet: the club cannot be reached"), 120)
        yield "settle"
        self.facts["unsent"] = [t for t in self.words() if "confirmed by both" in t]
        self.screenshot("club_full_time_not_sent")
        self.press("Menu")
        yield "settle"
        self.press("Settings")
        yield from self.wait(lambda: "cannot be reached" in self.screen().club_words, 60)
        yield "settle"
        self.facts["unreachable_line"] = self.screen().club_words
        self.screenshot("club_settings_unreachable")
        # The club comes back on its address: the outbox sends the result by itself (its backoff).
        # The coach is still in Settings when it goes: its line says so, and back at the match the
        # final whistle's panel says it too (it was built before, while the club was away).
        self.club.server = ClubServer(self.club.ledger, "127.0.0.1", self.port)
        yield from self.wait(lambda: self.screen().club_words.endswith("All sent."), 300)
        self.facts["all_sent_in_settings"] = self.screen().club_words
        self.press("Back")
        yield "settle"
        self.press("Back to the match", startswith=True)
        yield from self.wait(lambda: self.said("sent to the club"), 60)
        yield "settle"
        self.screenshot("club_full_time_sent")
        self.facts["sent"] = [t for t in self.words() if "sent to the club" in t]
        self.press("Menu")
        yield "settle"
        self.press("Settings")
        yield "settle"
        self.facts["all_sent_line"] = self.screen().club_words
        self.facts.update(self.club_holds(journal))
        # --- renaming the tablet: the club's list and this table's cards follow ---------------------------
        self.press("Rename this tablet")
        yield "settle"
        popups()[0].ids.name.text = "Table 4"
        yield "settle"
        self.screenshot("club_rename")
        self.press("Rename")
        yield from self.wait(lambda: self.app.club_state.name == "Table 4" and not popups(), 60)
        yield "settle"
        self.facts["renamed_line"] = self.screen().club_words
        self.facts["club_tablets"] = [t["name"] for t in self.club.get(
            "/tablets", {"Authorization": f"Bearer {self.club.ledger.organiser_token}"}).json["tablets"]]
        self.screenshot("club_settings_renamed")
        # --- leaving the club: asked first, then one line and Join again ---------------------------------
        self.press("Leave the club")
        yield "settle"
        self.screenshot("club_leave_asked")
        self.press("Leave the club")                    # the popup's
        yield from self.wait(lambda: not self.app.club_state.joined and not popups(), 60)
        yield "settle"
        self.facts["left_line"] = self.screen().club_words
        self.facts["left_button"] = self.screen().club_button
        yield "done"

    def club_holds(self, journal: str) -> dict:
        read = read_journal(Path(journal))
        held = self.club.get(f"/matches/{read.match}").json
        tables = self.club.get("/tables").json["tables"]
        season = self.club.get("/seasons/autumn-league").json
        filled = [g for r in season["rounds"] for g in r["games"] if g["result"]]
        return {"tablet_head": read.head, "tablet_last_seq": read.last_seq, "club_held": held,
                "tables": tables, "season_filled": filled,
                "league": self.club.get("/league").json}

    def result(self) -> dict:
        out = super().result()
        out["club"] = self.facts
        try:   # where the club's thread stood (a failed drive's first clue)
            from ui.club import status_words
            import time
            out["club_state"] = {"words": status_words(self.app.club_state, time.time()),
                                 "state": repr(self.app.club_state)}
        except Exception as exc:
            out["club_state"] = {"words": f"unreadable: {exc}"}
        return out

    def finish(self, error: str, stop: bool = True) -> None:
        super().finish(error, stop)
        try:
            self.club.stop()
        except Exception:   # stopped already (the club went away mid-drive and the drive failed)
            pass


if __name__ == "__main__":
    run(ClubNight)
