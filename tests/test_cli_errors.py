"""The CLI's one error boundary: an unexpected exception is one line and exit code 8 (INTERNAL);
``--debug`` or ALFRED_GEN_DEBUG=1 shows the traceback; UserError keeps its own line and code."""

from __future__ import annotations

import subprocess
import sys

import pytest

import alfred_gen.sample.stats as stats
from alfred_gen.cli import DEBUG_ENV, main
from alfred_gen.errors import ExitCode, UserError
from tests.helpers import python_env, run_python

LINE = "alfred-gen: internal error: RuntimeError: the disk is on fire (please report it; --debug shows the traceback)"


def _explode(*args: object, **kwargs: object) -> int:
    raise RuntimeError("the disk\n is on fire")


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[object, str]:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    return stop.value.code, capsys.readouterr().err


def test_an_unexpected_exception_is_one_line_and_exit_8(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    monkeypatch.setattr(stats, "stats_command", _explode)
    code, err = _run(["stats", str(tmp_path)], capsys)
    assert code == ExitCode.INTERNAL == 8
    assert err == LINE + "\n"


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_debug_shows_the_traceback(tmp_path, monkeypatch, capsys, how: str) -> None:
    monkeypatch.setattr(stats, "stats_command", _explode)
    if how == "flag":
        monkeypatch.delenv(DEBUG_ENV, raising=False)
        argv = ["--debug", "stats", str(tmp_path)]
    else:
        monkeypatch.setenv(DEBUG_ENV, "1")
        argv = ["stats", str(tmp_path)]
    code, err = _run(argv, capsys)
    assert code == ExitCode.INTERNAL
    assert err.startswith("Traceback (most recent call last):") and "_explode" in err
    assert err.rstrip().endswith(LINE)


def test_debug_is_forgotten_between_calls(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    monkeypatch.setattr(stats, "stats_command", _explode)
    _run(["--debug", "stats", str(tmp_path)], capsys)
    _, err = _run(["stats", str(tmp_path)], capsys)
    assert "Traceback" not in err


def test_a_user_error_keeps_its_code_and_line(tmp_path, monkeypatch, capsys) -> None:
    def not_found(*args: object, **kwargs: object) -> int:
        raise UserError("no such dataset", ExitCode.NOT_FOUND)

    monkeypatch.setattr(stats, "stats_command", not_found)
    code, err = _run(["stats", str(tmp_path)], capsys)
    assert (code, err) == (ExitCode.NOT_FOUND, "alfred-gen: error: no such dataset\n")


def test_a_real_process_exits_8_with_one_line(tmp_path) -> None:
    """Through a fresh interpreter (no pytest around it), the boundary still holds."""
    code = (
        "import sys, alfred_gen.sample.stats as s\n"
        "def boom(*a, **k):\n    raise KeyError('lost')\n"
        "s.stats_command = boom\n"
        "from alfred_gen.cli import main\n"
        "main(['stats', sys.argv[1]])\n"
    )
    with pytest.raises(subprocess.CalledProcessError) as failed:
        run_python(code, str(tmp_path), env={DEBUG_ENV: ""})
    done = failed.value
    assert done.returncode == ExitCode.INTERNAL
    assert done.stderr == ("alfred-gen: internal error: KeyError: 'lost' "
                           "(please report it; --debug shows the traceback)\n")


def _interrupted_while_defining_a_class(*args: object, **kwargs: object) -> int:
    """What CI saw: SIGTERM landed while a lazily imported module built a class, and Python 3.11
    re-raised the KeyboardInterrupt from ``__set_name__`` as RuntimeError (3.12 adds a note)."""
    class Descriptor:
        def __set_name__(self, owner: type, name: str) -> None:
            raise KeyboardInterrupt

    class Owner:  # defining it is what raises
        field = Descriptor()

    return 0


def test_an_interrupt_python_wrapped_in_another_exception_is_still_an_interrupt(tmp_path, monkeypatch,
                                                                               capsys) -> None:
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    monkeypatch.setattr(stats, "stats_command", _interrupted_while_defining_a_class)
    code, err = _run(["stats", str(tmp_path)], capsys)
    assert (code, err) == (ExitCode.INTERRUPTED, "alfred-gen: interrupted\n")


def test_a_bug_raised_while_handling_nothing_is_not_an_interrupt() -> None:
    from alfred_gen.errors import caused_by_interrupt

    try:
        try:
            raise ValueError("first")
        except ValueError as first:
            raise RuntimeError("second") from first
    except RuntimeError as error:
        assert not caused_by_interrupt(error)
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise RuntimeError("while stopping")  # noqa: B904 - the implicit context is the point
    except RuntimeError as error:
        assert caused_by_interrupt(error)


def _run_module(tmp_path, body: str) -> subprocess.CompletedProcess:
    """``python -m`` a module that replaces the `stats` command with ``body``'s ``work`` and runs the
    CLI: a fresh interpreter, started the way tests/test_sigterm.py starts `alfred-gen`."""
    (tmp_path / "patched_cli.py").write_text(
        "import sys, time\nimport alfred_gen.sample.stats as stats\n" + body
        + "stats.stats_command = work\nfrom alfred_gen.cli import main\nmain(['stats', sys.argv[1]])\n")
    return subprocess.run([sys.executable, "-m", "patched_cli", str(tmp_path)], cwd=tmp_path, capture_output=True,
                          text=True, env=python_env({DEBUG_ENV: ""}), timeout=600)


def test_an_interrupt_in_code_that_exec_ran_still_exits_130(tmp_path) -> None:
    """Before: `python -m alfred_gen.cli` printed "interrupted" and then died by SIGINT (-2) when
    SIGTERM had landed in code that ``exec`` of a string ran (``dataclasses`` builds methods so)."""
    done = _run_module(tmp_path, "def work(*args, **kwargs):\n    exec('raise KeyboardInterrupt')\n")
    assert (done.returncode, done.stderr.strip()) == (ExitCode.INTERRUPTED, "alfred-gen: interrupted")


def test_an_interrupt_python_dropped_is_delivered_again(tmp_path) -> None:
    """Before: a KeyboardInterrupt raised in a ``__del__`` or weakref callback (where SIGTERM had
    landed) was printed as "Exception ignored" and dropped, and the command ran to its end, exit 0.
    The loop below ends the command only if the interrupt never comes back."""
    body = ("class Dropped:\n    def __del__(self):\n        raise KeyboardInterrupt\n"
            "def work(*args, **kwargs):\n    Dropped()\n"
            "    for _ in range(6000):\n        time.sleep(0.01)\n    return 0\n")
    done = _run_module(tmp_path, body)
    assert (done.returncode, done.stderr.strip()) == (ExitCode.INTERRUPTED, "alfred-gen: interrupted")
