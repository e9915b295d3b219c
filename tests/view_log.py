"""Every view a threaded controller publishes, kept in order, for tests that wait on one.

Polling ``controller.view`` can miss a view: the worker may publish the one a test looks for
and then another (a tray heartbeat, the next roll) between two polls, and the refusal it
carried is gone. ``ViewLog`` is the controller's ``post`` callback instead: it keeps each view
as it is published, so a wait finds it however fast or slow the machine is."""

from __future__ import annotations

import threading
from typing import Callable

HANG = 120.0  # seconds: only reached when something hangs; a passing wait returns at once


class ViewLog:
    def __init__(self) -> None:
        self.views: list = []
        self._changed = threading.Condition()

    def __call__(self, view) -> None:   # the controller's ``post``, called on its worker
        with self._changed:
            self.views.append(view)
            self._changed.notify_all()

    def mark(self) -> int:
        """Where the views published from now on start (for ``wait(..., since=)``)."""
        with self._changed:
            return len(self.views)

    def wait(self, predicate: Callable, since: int = 0, timeout: float = HANG, what: str = ""):
        """The first view published at or after ``since`` for which ``predicate`` holds; fails
        with every view's error and the last log if none comes within ``timeout``."""
        with self._changed:
            found = self._changed.wait_for(lambda: self._first(predicate, since), timeout)
            if found is not None:
                return found
            seen = len(self.views)
            errors = [v.error for v in self.views[since:] if v.error]
            last = self.views[-1].log[-8:] if self.views else ()
        raise AssertionError(f"no view {what or predicate} among {seen - since} published within {timeout} s; "
                             f"errors: {errors}; last log: {list(last)}")

    def _first(self, predicate: Callable, since: int):
        return next((v for v in self.views[since:] if predicate(v)), None)
