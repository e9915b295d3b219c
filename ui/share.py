"""A report out of the tablet: on Android through the platform's share sheet (mail, chat,
Drive...), on a desktop saved into a folder the coach can find and opened in the browser.

The report is one web page with its plots inside (companion/report/html.py ``write_single``).
Android's share sheet needs a content URI: through the app's FileProvider when the build has
one (``<package>.fileprovider``), else a file URI with Android's file-URI check relaxed for
this app (python-for-android's usual way). No Kivy here: the report screen calls it on a
worker thread and says the result.
"""

from __future__ import annotations

import logging
import os
import webbrowser
from pathlib import Path

from .launch import platform

log = logging.getLogger(__name__)

EXPORT_ENV = "TOUCHLINE_EXPORT_DIR"   # where a desktop saves reports (tests, a USB stick)
FOLDER_NAME = "Touchline reports"


def can_share() -> bool:
    """This platform has a share sheet (Android)."""
    return platform() == "android"


def export_folder(home: Path | None = None) -> Path:
    """Where a desktop saves reports: TOUCHLINE_EXPORT_DIR, else "Touchline reports" in the
    user's Documents (or home) folder."""
    wanted = os.environ.get(EXPORT_ENV, "").strip()
    if wanted:
        return Path(wanted).expanduser()
    home = home or Path.home()
    documents = home / "Documents"
    return (documents if documents.is_dir() else home) / FOLDER_NAME


def android_share(path: Path, title: str) -> None:
    """Open the share sheet for ``path`` (Android only; raises when the platform refuses)."""
    from jnius import autoclass, cast  # type: ignore[import-not-found]  # python-for-android only

    Intent = autoclass("android.content.Intent")
    File = autoclass("java.io.File")
    activity = autoclass("org.kivy.android.PythonActivity").mActivity
    try:
        provider = autoclass("androidx.core.content.FileProvider")
        uri = provider.getUriForFile(activity, f"{activity.getPackageName()}.fileprovider", File(str(path)))
    except Exception:   # no FileProvider in this build: a file URI, with the strict check relaxed
        StrictMode = autoclass("android.os.StrictMode")
        Builder = autoclass("android.os.StrictMode$VmPolicy$Builder")
        StrictMode.setVmPolicy(Builder().build())
        uri = autoclass("android.net.Uri").fromFile(File(str(path)))
    send = Intent(Intent.ACTION_SEND)
    send.setType("text/html")
    send.putExtra(Intent.EXTRA_STREAM, cast("android.os.Parcelable", uri))
    send.putExtra(Intent.EXTRA_SUBJECT, cast("java.lang.CharSequence", autoclass("java.lang.String")(title)))
    send.addFlags(Intent.FLAG_GRANT_READ_URI_PERMISSION)
    chooser = Intent.createChooser(send, cast("java.lang.CharSequence",
                                              autoclass("java.lang.String")("Share the match report")))
    activity.startActivity(chooser)


def open_in_browser(path: Path) -> bool:
    """Show a saved report in the desktop's browser; False when none could be started."""
    try:
        return bool(webbrowser.open(Path(path).resolve().as_uri()))
    except Exception:   # no browser registered: the file is saved all the same
        log.info("no browser to open %s", path, exc_info=True)
        return False
