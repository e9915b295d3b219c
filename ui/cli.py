"""``touchline app`` (and plain ``touchline``): start the tablet app."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="where matches and box data live (default: the user data folder)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from .app import build_app_class, prepare_environment

    status = prepare_environment()
    if status is not None:
        return status
    build_app_class()(data_dir=args.data_dir).run()
    return 0
