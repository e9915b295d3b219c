"""The club server's pure parts (issue 33): the store, the checks a published journal passes on
arrival, the tablets' keys and signatures, the club's standings, and the tablet's outbox. No
HTTP here (ui/web/club_*.py serves it) and nothing of Kivy."""
