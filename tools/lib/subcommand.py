# SPDX-License-Identifier: GPL-2.0
"""What the tools' command lines share: PROG SUBCOMMAND ARGS..., where
bad input is said in one line and the usage where the words are wrong."""

import sys


def main(argv, prog, usage, error, run):
    """RUN(cmd, args)'s exit status (None: no such subcommand, or not
    these arguments: USAGE on stderr, 2); ERROR, an input that is not
    what it should be, as 'PROG: reason' on stderr, 2."""
    cmd, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    try:
        status = run(cmd, args)
    except error as e:
        print("%s: %s" % (prog, e), file=sys.stderr)
        return 2
    if status is None:
        sys.stderr.write(usage)
        return 2
    return status
