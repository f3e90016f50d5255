"""The demo server's command line: ``python -m inspector.demo`` normally, the app itself when frozen."""

from __future__ import annotations

import sys

import pytest

from inspector.__main__ import main
from inspector.cli.catalog_entries import demo_target
from inspector.cli.config import demo_server
from inspector.demo.command import FROZEN_DEMO_FLAG, demo_command, is_frozen


def test_demo_command_from_python() -> None:
    assert not is_frozen()
    assert demo_command() == [sys.executable, "-m", "inspector.demo"]
    assert demo_command("--http", "0") == [sys.executable, "-m", "inspector.demo", "--http", "0"]


def test_demo_command_when_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert is_frozen()
    assert demo_command("--era", "modern") == [sys.executable, FROZEN_DEMO_FLAG, "--era", "modern"]
    # every place that starts the demo asks it: the CLI's --demo and its catalog's demo entry
    assert demo_target() == [sys.executable, FROZEN_DEMO_FLAG]
    spec = demo_server()
    assert (spec.command, list(spec.args)) == (sys.executable, [FROZEN_DEMO_FLAG])


def test_hidden_entry_runs_the_demo_server(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([FROZEN_DEMO_FLAG, "--help"])
    assert exited.value.code == 0
    assert "The MCP Inspector Desktop demo server" in capsys.readouterr().out


def test_window_demo_profile_when_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.ui.window.profile_bridge import demo_profile

    assert (demo_profile().stdio.command, demo_profile().stdio.args) == (sys.executable, ["-m", "inspector.demo"])
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert (demo_profile().stdio.command, demo_profile().stdio.args) == (sys.executable, [FROZEN_DEMO_FLAG])
