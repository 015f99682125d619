"""``keeltui`` (the console script) and ``python -m keeltui``.

``keeltui status`` is answered here, before the module of all the commands
(keeltui/cli/commands.py) is even loaded: tmux runs ``keeltui status --tmux`` on every
status tick, and loading the commands (argparse set-up, a hundred functions) and one more
package would cost more than the answer itself. Nothing is imported at module level.
"""


def main() -> int:
    import sys

    from keeltui.status.fast import fast_status

    argv = sys.argv[1:]
    answered = fast_status(argv)
    if answered is not None:
        return answered
    from keeltui.cli.commands import full_main

    return full_main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
