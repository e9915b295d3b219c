"""The live scoreboard page: a read-only web page that spectators follow on their phones.

``snapshot`` turns a match's state into what the page shows (JSON and an SVG pitch, drawn by
the game's face like the tablet's pitch), ``follow`` reads a journal another process is
writing, ``server`` serves the page and pushes each change as a server-sent event.
Nothing here imports Kivy's window; the faces pull in Kivy's widget classes only.
"""
