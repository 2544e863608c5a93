"""The CLI's help is part of its interface: every command documents the exit codes, and every
example shown in a help text is a command line the CLI accepts (and the cheap ones really run)."""

from __future__ import annotations

import shlex

import click
import pytest
from click.testing import CliRunner

from alfred_gen.cli import cli, main
from alfred_gen.errors import ExitCode


def _commands(group: click.Group = cli, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found = []
    for name in sorted(group.commands):
        command = group.commands[name]
        found.append(((*path, name), command))
        if isinstance(command, click.Group):
            found.extend(_commands(command, (*path, name)))
    return found


def _examples(command: click.Command) -> list[list[str]]:
    """Argument lists of the `alfred-gen ...` lines in a command's help text (a line ending in a
    backslash goes on in the next, as in a shell)."""
    lines = (command.help or "").replace("\\\n", " ").splitlines()
    return [shlex.split(line.strip())[1:] for line in lines if line.strip().startswith("alfred-gen ")]


COMMANDS = _commands()
EXAMPLES = [(path, args) for path, command in [((), cli), *COMMANDS] for args in _examples(command)]


@pytest.mark.parametrize("path", [path for path, _ in COMMANDS], ids=" ".join)
def test_every_command_help_lists_the_exit_codes(path):
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    for code in ExitCode:
        assert f"{int(code):>4}  " in result.output


def test_every_leaf_command_shows_an_example():
    leaves = [path for path, command in COMMANDS if not isinstance(command, click.Group)]
    missing = [" ".join(path) for path in leaves if not _examples(dict(COMMANDS)[path])]
    assert not missing, f"commands without an example in their help: {missing}"


@pytest.mark.parametrize("path, args", EXAMPLES, ids=[" ".join(args) for _, args in EXAMPLES])
def test_every_help_example_is_accepted_by_the_parser(path, args):
    command, rest = cli, list(args)
    while isinstance(command, click.Group) and rest and rest[0] in command.commands:
        command = command.commands[rest.pop(0)]
    assert not isinstance(command, click.Group), f"{args}: no command named"
    with command.make_context(command.name, rest):  # raises on an unknown or missing option
        pass


def test_the_plan_example_runs(capsys):
    (args,) = _examples(cli.commands["plan"])
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == ExitCode.OK
    out = capsys.readouterr().out
    assert "HeatObject" in out and "PutObject" in out
