"""The ``tresillo`` command installed with the package: the same code and
subcommands as the binary of ``cargo install`` (the CLI's library, run inside
the extension module)."""

import signal
import sys

from . import _tresillo


def main():
    """Runs ``tresillo`` on this process's arguments and exits with its status."""
    # Ctrl-C ends the command as it ends the binary (a run stays resumable);
    # a closed pipe is an error the command handles itself.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.exit(_tresillo._cli_main(sys.argv))


if __name__ == "__main__":
    main()
