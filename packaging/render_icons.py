"""Render the app icon's PNG sizes from its SVG: ``.venv/bin/python packaging/render_icons.py``.

Writes ``resources/icons/hicolor/<N>x<N>/apps/<app id>.png`` for every size in ``APP_ICON_SIZES`` (16 ... 512),
the files the desktop and the app load. Run it after editing the SVG and commit the PNGs with it; the test
``tests/gui/test_resources_app_icon.py`` fails when a PNG no longer matches a fresh render.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QGuiApplication

from inspector.resource_files import APP_ICON_SIZES, app_icon_png, app_icon_svg
from inspector.ui.widgets.resources import render_svg


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    for size in APP_ICON_SIZES:
        target = app_icon_png(size)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not render_svg(app_icon_svg(), size).save(str(target), "PNG"):
            sys.stderr.write(f"render_icons: cannot write {target}\n")
            return 1
        print(target)
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
