"""The ``tresillo`` command installed with the package: the CLI binary itself
(``tresillo/bin/tresillo``, shipped in the wheel beside the extension module,
which links neither the commands nor the HTTP server). This script hands the
process over to it, so exit status, signals and output are the binary's own."""

import os
import sys

BINARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "tresillo")


def main():
    """Runs the shipped ``tresillo`` binary on this process's arguments."""
    if not os.access(BINARY, os.X_OK):
        sys.exit(
            f"error: this installation has no tresillo command ({BINARY} is missing): "
            "install a wheel (scripts/build-wheels.sh, or CI's), or build the CLI with "
            "`cargo build --release -p tresillo-cli` and run target/release/tresillo"
        )
    sys.stdout.flush()
    os.execv(BINARY, ["tresillo", *sys.argv[1:]])


if __name__ == "__main__":
    main()
