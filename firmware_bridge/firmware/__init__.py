"""The reference firmware (MicroPython). A package here only so the simulator can run
``traycore`` and the tests can check ``trayproto``; the tray itself has a flat filesystem."""
