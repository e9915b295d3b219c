"""The overhead camera: frame sources, marker detection, board positions and the live tracker.

Vision speaks board millimetres; squares come only from ``companion.board.GridBoard``. The live
tracker runs in its own thread and hands committed :class:`~vision.sighting.Sighting` records to
the app through a ``queue.Queue``; nothing waits on it.
"""
