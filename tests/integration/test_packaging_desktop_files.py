"""The Linux desktop entry and AppStream metainfo (resources/linux) validate with the distribution's own tools, agree
with each other and with the app, and the per-user install script puts them (and the icons) where desktops look."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from nodetools import in_ci

from inspector.resource_files import APP_ICON_SIZES, APP_ID, desktop_entry, metainfo

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "packaging" / "install-desktop-entry.sh"


def _tool(name: str, package: str) -> str:
    """The tool's path; missing: a skip on a developer's machine, a failure under CI (.ci/run installs it)."""
    found = shutil.which(name)
    if found is None:
        message = f"{name} not found (Debian package {package}; .ci/run installs it)"
        if in_ci():  # CI must never turn green without the check
            pytest.fail(message)
        pytest.skip(message)
    return found


def _entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def test_desktop_entry_validates() -> None:
    tool = _tool("desktop-file-validate", "desktop-file-utils")
    done = subprocess.run([tool, str(desktop_entry())], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def test_metainfo_validates() -> None:
    tool = _tool("appstreamcli", "appstream")
    done = subprocess.run(
        [tool, "validate", "--no-net", "--pedantic", str(metainfo())], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert not re.search(r"^[EW]: ", done.stdout, flags=re.MULTILINE), done.stdout  # no errors, no warnings


def test_validators_reject_a_broken_file(tmp_path: Path) -> None:
    """The two checks above can fail: each tool refuses a file with one required field removed."""
    broken = tmp_path / f"{APP_ID}.desktop"
    broken.write_text(desktop_entry().read_text().replace("Type=Application\n", ""))
    tool = _tool("desktop-file-validate", "desktop-file-utils")
    assert subprocess.run([tool, str(broken)], capture_output=True, timeout=60).returncode != 0
    xml = tmp_path / f"{APP_ID}.metainfo.xml"
    xml.write_text(re.sub(r"<summary>.*?</summary>", "", metainfo().read_text()))
    tool = _tool("appstreamcli", "appstream")
    assert subprocess.run([tool, "validate", "--no-net", str(xml)], capture_output=True, timeout=60).returncode != 0


def test_entry_and_metainfo_agree_with_the_app() -> None:
    entry = _entry(desktop_entry())
    assert entry["Icon"] == APP_ID and entry["Exec"].split()[0] == "mcp-inspect" == entry["TryExec"]
    pyproject = (REPO / "pyproject.toml").read_text()
    assert re.search(r'^mcp-inspect = "inspector.__main__:main"$', pyproject, flags=re.MULTILINE)

    root = ET.parse(metainfo()).getroot()
    assert root.get("type") == "desktop-application" and root.findtext("id") == APP_ID
    assert root.findtext("launchable[@type='desktop-id']") == desktop_entry().name
    assert root.findtext("provides/binary") == "mcp-inspect"
    assert root.find("content_rating") is not None and root.find("releases/release") is not None
    from inspector import __version__

    assert root.find("releases/release").get("version") == __version__  # type: ignore[union-attr]
    assert len(root.findall("description/p")) >= 1
    # the screenshots are the README's, taken by the test suite
    made = set(
        re.findall(r'_grab\(window, "([\w-]+\.png)"', (REPO / "tests/gui/test_readme_screenshots.py").read_text())
    )
    images = [i.text or "" for i in root.findall("screenshots/screenshot/image")]
    assert images
    for url in images:
        assert url.startswith("https://") and "/docs/screenshots/" in url, url
        assert url.rsplit("/", 1)[1] in made, url


def _install(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ["PATH"], "HOME": str(home)}
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, env=env, timeout=120)


def _installed(data: Path) -> list[Path]:
    return [
        data / "applications" / f"{APP_ID}.desktop",
        data / "metainfo" / f"{APP_ID}.metainfo.xml",
        data / "icons/hicolor/scalable/apps" / f"{APP_ID}.svg",
        *(data / f"icons/hicolor/{n}x{n}/apps/{APP_ID}.png" for n in APP_ICON_SIZES),
    ]


def test_install_script_into_home_and_back(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    done = _install(home)  # no XDG_DATA_HOME: ~/.local/share
    assert done.returncode == 0, done.stderr
    data = home / ".local/share"
    for path in _installed(data):
        assert path.is_file(), path
    assert (data / f"icons/hicolor/48x48/apps/{APP_ID}.png").read_bytes() == (
        REPO / f"resources/icons/hicolor/48x48/apps/{APP_ID}.png"
    ).read_bytes()
    assert _entry(data / "applications" / f"{APP_ID}.desktop")["Exec"] == "mcp-inspect"

    done = _install(home, "--uninstall")
    assert done.returncode == 0, done.stderr
    assert not any(path.exists() for path in _installed(data))


def test_install_script_honours_xdg_data_home_and_exec(tmp_path: Path) -> None:
    data = tmp_path / "xdg data"
    app = tmp_path / "my apps" / "mcp-inspect"
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path / "unused"), "XDG_DATA_HOME": str(data)}
    done = subprocess.run(
        ["bash", str(INSTALL), "--exec", str(app)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "unused").exists()
    installed = data / "applications" / f"{APP_ID}.desktop"
    entry = _entry(installed)
    assert entry["Exec"] == f'"{app}"' and entry["TryExec"] == str(app)
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(installed)], capture_output=True, text=True, timeout=60)
        assert check.returncode == 0, check.stdout
    bad = subprocess.run(["bash", str(INSTALL), "--bogus"], capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and "unknown option --bogus" in bad.stderr
