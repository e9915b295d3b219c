"""Entry point for python-for-android: start the tablet app."""

from ui.app import build_app_class, prepare_environment

if __name__ == "__main__":
    prepare_environment()
    build_app_class()().run()
