"""The scoreboard page served over HTTP: the ASGI application (app.py) on uvicorn, in a thread
of its own with its own event loop (runner.py, shared with the club server), until ``stop``.
"""

from __future__ import annotations

import logging

from .app import MAX_VIEWERS, ScoreboardApp, new_token
from .hub import Hub
from .runner import ServerThread

log = logging.getLogger(__name__)


class ScoreboardServer:
    """The page served from one hub on one address, until ``stop``."""

    def __init__(self, hub: Hub, host: str = "127.0.0.1", port: int = 0, token: str | None = None,
                 max_viewers: int = MAX_VIEWERS, parser: str = "auto") -> None:
        self.hub = hub
        self.token = token or new_token()
        self.app = ScoreboardApp(hub, self.token, max_viewers)
        self._runner = ServerThread(self.app, host, port, "the scoreboard", parser, "touchline-web")
        self.host, self.port = host, self._runner.port

    @property
    def url(self) -> str:
        return f"{self._runner.base_url}/{self.token}/"

    @property
    def viewers(self) -> int:
        """Event streams open now."""
        return self.app.seats.taken

    @property
    def connections(self) -> int:
        """Connections open now, viewers or not."""
        return self._runner.connections

    def stop(self) -> None:
        """Stop listening at once; the viewers' streams end."""
        self.hub.stop()                  # every stream ends its response
        self._runner.stop()
