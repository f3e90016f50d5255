"""``python -m build`` makes a wheel and an sdist that carry resources/, and the installed wheel finds them."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from inspector.resource_files import APP_ICON_SIZES, APP_ID, resources_dir

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _resource_files() -> list[str]:
    """Every file under the checkout's resources/, relative to it (what both archives must carry)."""
    root = REPO / "resources"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=out,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist, "dir": out}


def test_the_checkout_has_the_resources() -> None:
    files = _resource_files()
    assert f"linux/{APP_ID}.desktop" in files and f"linux/{APP_ID}.metainfo.xml" in files
    assert {f"icons/hicolor/{n}x{n}/apps/{APP_ID}.png" for n in APP_ICON_SIZES} <= set(files)
    assert resources_dir() == REPO / "resources"  # the editable install reads them from the checkout


def test_wheel_carries_resources(built: dict[str, Path]) -> None:
    names = set(zipfile.ZipFile(built["wheel"]).namelist())
    expected = {f"inspector/_resources/{f}" for f in _resource_files()}
    assert expected <= names, sorted(expected - names)
    assert "inspector/resource_files.py" in names and "inspector/ui/widgets/resources.py" in names
    assert not any("__pycache__" in n for n in names)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "mcp-inspect = inspector.__main__:main" in zipfile.ZipFile(built["wheel"]).read(entry_points).decode()


def test_sdist_carries_resources_and_packaging(built: dict[str, Path]) -> None:
    with tarfile.open(built["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {f"resources/{f}" for f in _resource_files()} <= names
    assert {"setup.py", "pyproject.toml", "packaging/mcp-inspect.spec", "packaging/install-desktop-entry.sh"} <= names


def test_installed_wheel_finds_its_resources(built: dict[str, Path], tmp_path: Path) -> None:
    """Unpacked as pip installs it, the package's locator answers its own ``inspector/_resources`` (not the
    checkout's), and the Qt side renders the app icon and a UI icon from there."""
    site = tmp_path / "site"
    zipfile.ZipFile(built["wheel"]).extractall(site)
    script = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "import inspector\n"
        "from inspector.resource_files import resources_dir, desktop_entry\n"
        "from inspector.ui.widgets.resources import app_icon, ui_icon\n"
        "assert not app_icon().isNull() and not ui_icon('warning').isNull()\n"
        "print(inspector.__file__)\n"
        "print(resources_dir())\n"
        "print(desktop_entry().is_file())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )
    assert done.returncode == 0, done.stderr
    package, found, has_entry = done.stdout.split()
    assert Path(package).parent == site / "inspector"
    assert Path(found) == site / "inspector" / "_resources"
    assert has_entry == "True"


def test_editable_install_finds_the_checkout_resources(tmp_path: Path) -> None:
    """``pip install -e .`` (what .ci/run and the tests use) maps the package to the checkout, whose resources/ the
    locator then reads: checked in a fresh venv (no dependencies needed for the locator)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "-e", str(REPO)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    script = "from inspector.resource_files import resources_dir as d, metainfo as m; print(d(), m().is_file())"
    done = subprocess.run([str(python), "-c", script], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(REPO / "resources"), "True"]
