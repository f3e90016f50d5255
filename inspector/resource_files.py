"""Where the app's bundled files are: the icons, the Linux desktop entry and the AppStream metainfo (Qt-free).

The files live in ``resources/`` at the top of the repository. A wheel carries them as ``inspector/_resources``
(``setup.py`` maps the folder there), and so does the PyInstaller app (``packaging/mcp-inspect.spec``); a source
checkout or an editable install reads the checkout's ``resources/`` directly. ``resources_dir()`` is the one
answer; ``inspector.ui.widgets.resources`` turns the icons into Qt icons.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Final

import inspector

__all__ = [
    "APP_ICON_SIZES",
    "APP_ID",
    "app_icon_png",
    "app_icon_svg",
    "desktop_entry",
    "metainfo",
    "resources_dir",
    "ui_icon_names",
    "ui_icon_svg",
]

APP_ID: Final = "io.github.mcp_inspector_desktop.McpInspect"
"""The app id (reverse DNS): the desktop entry's and metainfo's file names, the icon's name, Qt's desktop file name."""
APP_ICON_SIZES: Final = (16, 24, 32, 48, 64, 128, 256, 512)
"""The PNG sizes rendered from the SVG app icon (``packaging/render_icons.py``)."""


@functools.cache
def resources_dir() -> Path:
    """The folder holding ``icons/`` and ``linux/``: the installed copy beside the package, else the checkout's."""
    package = Path(inspector.__file__).resolve().parent
    for candidate in (package / "_resources", package.parent / "resources"):
        if (candidate / "icons").is_dir():
            return candidate
    raise FileNotFoundError(f"the app's resources are missing (looked in {package / '_resources'} and beside it)")


def app_icon_svg() -> Path:
    return resources_dir() / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"


def app_icon_png(size: int) -> Path:
    return resources_dir() / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"


def ui_icon_svg(name: str) -> Path:
    """One of the UI's stroke icons (``resources/icons/ui/NAME.svg``, drawn in ``currentColor``)."""
    path = resources_dir() / "icons" / "ui" / f"{name}.svg"
    if not path.is_file():
        raise KeyError(f"no UI icon named {name!r}")
    return path


def ui_icon_names() -> list[str]:
    return sorted(p.stem for p in (resources_dir() / "icons" / "ui").glob("*.svg"))


def desktop_entry() -> Path:
    return resources_dir() / "linux" / f"{APP_ID}.desktop"


def metainfo() -> Path:
    return resources_dir() / "linux" / f"{APP_ID}.metainfo.xml"
