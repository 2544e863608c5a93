"""The `alfred-gen` command line: parses options and calls one library function per command.

No pipeline logic lives here; every command body is a function a Python user can call directly.
"""

from __future__ import annotations

import sys

import click

from alfred_gen import __version__
from alfred_gen.errors import ExitCode, UserError, exit_code_table

EPILOG = "Exit codes:\n\n\b\n" + exit_code_table()


@click.group(epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="alfred-gen")
def cli() -> None:
    """Generate, replay and check ALFRED-style expert demonstrations.

    \b
    Examples:
      alfred-gen validate path/to/json_2.1.0
    """


@cli.command(epilog=EPILOG)
@click.argument("paths", nargs=-1, required=True, type=click.Path())
def validate(paths: tuple[str, ...]) -> None:
    """Check traj_data.json files (or directories of them) against the trajectory schema.

    Prints one line per invalid file and a summary; exits 0 only if every file is valid.
    """
    from alfred_gen.validate import validate_paths

    sys.exit(validate_paths(paths, echo=click.echo))


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: turns UserError into one line and its exit code."""
    try:
        cli.main(args=argv, prog_name="alfred-gen", standalone_mode=False)
    except click.exceptions.Exit as stop:
        sys.exit(stop.exit_code)
    except click.ClickException as usage:
        usage.show()
        sys.exit(ExitCode.USAGE)
    except click.exceptions.Abort:
        click.echo("alfred-gen: interrupted", err=True)
        sys.exit(ExitCode.INTERRUPTED)
    except UserError as error:
        click.echo(f"alfred-gen: error: {error}", err=True)
        sys.exit(error.code)
    except KeyboardInterrupt:
        click.echo("alfred-gen: interrupted", err=True)
        sys.exit(ExitCode.INTERRUPTED)


if __name__ == "__main__":
    main()
