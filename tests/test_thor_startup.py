"""Starting THOR on a machine without a build: every failure is fast, one line, exit code 7
(BACKEND_UNAVAILABLE), and nothing is downloaded or waited for."""

from __future__ import annotations

import json
import socket
import stat
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ai2thor")


from alfred_gen.errors import ExitCode
from alfred_gen.sim import thor
from alfred_gen.sim.thor import (
    ThorBackendError,
    ThorController,
    check_display,
    find_thor_build,
)
from alfred_gen.sim.thor_versions import THOR_2_1, THOR_5
from tests.helpers.thor_events import recording_factory

# ---------------------------------------------------------------------------------------------
# Fail-fast startup on a machine without a THOR build
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def bare_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No ~/.ai2thor cache, no DISPLAY, no X sockets, and no network: any attempt fails the test."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("ALFRED_GEN_THOR_BUILD", raising=False)
    x11 = tmp_path / "x11"
    x11.mkdir()
    monkeypatch.setattr(thor, "X11_SOCKET_DIR", str(x11))

    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    return tmp_path


def one_line(error: BaseException) -> str:
    text = str(error)
    assert "\n" not in text and text.strip() == text and text
    return text


def test_no_build_fails_fast_with_one_line(bare_machine: Path) -> None:
    with pytest.raises(ThorBackendError) as caught:
        ThorController()
    assert caught.value.code == ExitCode.BACKEND_UNAVAILABLE
    message = one_line(caught.value)
    assert message.startswith("no THOR build found")
    assert "--thor-build PATH" in message and "X display" in message and "CloudRendering" in message


def test_missing_or_non_executable_build_path(bare_machine: Path) -> None:
    with pytest.raises(ThorBackendError, match="no such file"):
        ThorController(build_path=str(bare_machine / "nothing-here"))
    not_executable = bare_machine / "thor-Linux64-abc"
    not_executable.write_text("")
    with pytest.raises(ThorBackendError, match="not an executable"):
        ThorController(build_path=str(not_executable))
    empty_dir = bare_machine / "emptybuild"
    empty_dir.mkdir()
    with pytest.raises(ThorBackendError, match="no THOR executable"):
        ThorController(build_path=str(empty_dir))


def fake_executable(directory: Path, name: str = "thor-Linux64-local") -> Path:
    """A 'build' that exits at once, as a broken or headless-incompatible Unity player would."""
    build_dir = directory / name
    build_dir.mkdir()
    executable = build_dir / name
    executable.write_text("#!/bin/sh\nexit 1\n")
    executable.chmod(executable.stat().st_mode | stat.S_IXUSR)
    return executable


def test_a_build_without_an_x_display_fails_fast(bare_machine: Path) -> None:
    executable = fake_executable(bare_machine)
    with pytest.raises(ThorBackendError) as caught:
        ThorController(build_path=str(executable.parent))  # a build directory works too
    assert one_line(caught.value).startswith("no X display")
    with pytest.raises(ThorBackendError, match="X display :5 is not running"):
        ThorController(build_path=str(executable), x_display=":5")


def test_cached_build_of_the_installed_ai2thor_is_found(bare_machine: Path) -> None:
    from ai2thor.build import COMMIT_ID

    releases = bare_machine / "home" / ".ai2thor" / "releases"
    releases.mkdir(parents=True)
    executable = fake_executable(releases, f"thor-CloudRendering-{COMMIT_ID}")
    assert find_thor_build(None, THOR_5, "CloudRendering") == executable.resolve()
    with pytest.raises(ThorBackendError, match="no THOR build found"):
        find_thor_build(None, THOR_5, "Linux64")  # only the CloudRendering build is installed


def test_platform_checks(bare_machine: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ThorBackendError, match=r"not available with ai2thor 2\.1"):
        check_display(THOR_2_1, "CloudRendering", None)
    monkeypatch.setattr(thor.ctypes.util, "find_library", lambda name: None)
    with pytest.raises(ThorBackendError, match="Vulkan"):
        check_display(THOR_5, "CloudRendering", None)
    (Path(thor.X11_SOCKET_DIR) / "X3").touch()
    assert check_display(THOR_5, "Linux64", ":3.0") == ":3.0"
    assert check_display(THOR_2_1, "Linux64", "3") == "3"
    assert check_display(THOR_5, "Linux64", "remote.host:0") == "remote.host:0"  # cannot check; let X decide


def test_real_ai2thor_controller_on_a_dead_build_gives_up_instead_of_hanging(bare_machine: Path) -> None:
    """ai2thor 5.x itself, pinned to a build that exits at once: its FIFO open() would block
    forever; the watchdog ends it, nothing is downloaded, and the error is one line."""
    executable = fake_executable(bare_machine)
    (Path(thor.X11_SOCKET_DIR) / "X9").touch()
    with pytest.raises(ThorBackendError) as caught:
        ThorController(build_path=str(executable), x_display=":9", startup_timeout=1.0)
    message = one_line(caught.value)
    assert str(executable) in message
    assert not (bare_machine / "home" / ".ai2thor" / "releases").exists() or not any(
        (bare_machine / "home" / ".ai2thor" / "releases").iterdir()
    )


def test_watchdog_reports_errors_and_timeouts_as_one_line() -> None:
    import threading

    release = threading.Event()
    with pytest.raises(ThorBackendError, match=r"did not answer within 0\.2 s"):
        thor._run_with_watchdog(release.wait, 0.2, release.set, "THOR build x")

    def broken() -> None:
        raise OSError("exec format error\nmore")

    with pytest.raises(ThorBackendError) as caught:
        thor._run_with_watchdog(broken, 5.0, lambda: None, "THOR build y")
    assert one_line(caught.value) == "THOR build y failed to start: exec format error"


def test_cli_with_backend_thor_prints_one_line_and_exits_backend_unavailable(
    bare_machine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the real console entry point, with a command built from thor_options."""
    import click

    from alfred_gen import cli as cli_module

    @click.command("thor-probe")
    @cli_module.thor_options
    def probe(**options: Any) -> None:
        if options["backend"] == "thor":
            thor.make_thor_controller(**options)

    cli_module.cli.add_command(probe)
    try:
        with pytest.raises(SystemExit) as exit_info:
            cli_module.main(["thor-probe", "--backend", "thor"])
    finally:
        cli_module.cli.commands.pop("thor-probe", None)
    assert exit_info.value.code == ExitCode.BACKEND_UNAVAILABLE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("alfred-gen: error: no THOR build found"), err
    assert "Traceback" not in err


def test_thor_options_defaults_and_choices() -> None:
    import click
    from click.testing import CliRunner

    from alfred_gen.cli import thor_options

    @click.command()
    @thor_options
    def show(**options: Any) -> None:
        click.echo(json.dumps(options, sort_keys=True))

    runner = CliRunner()
    result = runner.invoke(show, [], env={"ALFRED_GEN_THOR_BUILD": ""})
    assert json.loads(result.output) == {
        "backend": "lite",
        "thor_build": None,
        "thor_platform": None,
        "thor_timeout": None,
        "x_display": None,
    }
    result = runner.invoke(
        show, ["--backend", "thor", "--thor-platform", "CloudRendering", "--x-display", "1", "--thor-build", "/b",
               "--thor-timeout", "5"]
    )
    assert json.loads(result.output) == {
        "backend": "thor",
        "thor_build": "/b",
        "thor_platform": "CloudRendering",
        "thor_timeout": 5.0,
        "x_display": "1",
    }
    assert runner.invoke(show, ["--thor-platform", "WebGL"]).exit_code == 2
    assert runner.invoke(show, ["--thor-timeout", "0"]).exit_code == 2


def test_the_command_line_offers_the_backends_and_platforms_the_simulators_have() -> None:
    from alfred_gen import cli
    from alfred_gen.sim.controller import BACKENDS

    assert cli.BACKENDS == BACKENDS and cli.THOR_PLATFORMS == thor.PLATFORMS


def test_unsupported_or_mismatched_ai2thor_versions_are_refused() -> None:
    factory, _ = recording_factory()
    with pytest.raises(ThorBackendError, match=r"ai2thor 3\.3\.5 is not supported"):
        ThorController(version="3.3.5", controller_factory=factory)
    installed = thor.installed_ai2thor_version()
    other = "2.1.0" if installed and installed.startswith("5") else "5.0.0"
    with pytest.raises(ThorBackendError, match="is installed"):
        ThorController(version=other)


def test_without_ai2thor_the_backend_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thor, "installed_ai2thor_version", lambda: None)
    with pytest.raises(ThorBackendError) as caught:
        ThorController()
    assert one_line(caught.value) == "the thor backend needs the ai2thor package: pip install 'alfred-gen[thor]'"


def test_modules_import_without_ai2thor() -> None:
    """The CLI options and the fail-fast checks must not need the optional extra."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['ai2thor'] = None\n"
        "import alfred_gen.sim.thor as t, alfred_gen.sim.thor_adapt, alfred_gen.sim.thor_versions\n"
        "print(sorted(t.PROFILES))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "['2.1', '5']"
