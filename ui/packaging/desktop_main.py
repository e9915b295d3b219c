"""Entry point of the desktop builds (PyInstaller): the ``touchline`` command, so the built
program starts the tablet app when run plainly and takes every subcommand (``demo``, ...)."""

from companion.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
