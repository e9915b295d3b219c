"""The live scoreboard page: a read-only web page that spectators follow on their phones.

``snapshot`` turns a match's state into what the page shows (JSON and an SVG pitch, drawn from
the game's look like the tablet's pitch), ``follow`` reads a journal another process is
writing, ``hub`` builds each new snapshot once, ``server`` serves the page and pushes each change
as a server-sent event (Starlette on uvicorn, run by ``runner``, as the club server is). The club
server (``club_*``) serves the same page for each table it holds (``club_tables``). Nothing here
imports Kivy: ``touchline serve`` runs without it (tests/test_web_serve_imports.py).
"""
