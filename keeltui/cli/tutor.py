"""``keeltui tutor …``: the learner's records from the shell (list, export, rename, delete).

Called from :mod:`keeltui.cli.commands` with a few lines; Textual is never imported here.
"""

from __future__ import annotations

import sys
from pathlib import Path

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_parser(sub, parser_class) -> None:
    """The ``tutor`` subcommand and its actions."""
    p = sub.add_parser("tutor", help="tutor sessions: list, export, rename, delete")
    tsub = p.add_subparsers(dest="tutor_command", metavar="ACTION", parser_class=parser_class, required=True)
    tsub.add_parser("list", help="tutor sessions: id, last active, phase, progress, topic")
    te = tsub.add_parser("export", help="a session as Markdown: topic, plan, quiz record, mastery")
    te.add_argument("session", help="the session's id (see `keeltui tutor list`) or its exact topic")
    te.add_argument("--out", metavar="FILE", help="file to write (default: standard output)")
    tr = tsub.add_parser("rename", help="give a session a new title")
    tr.add_argument("session", help="the session's id or its exact topic")
    tr.add_argument("title", nargs="+", help="the new title")
    td = tsub.add_parser("delete", help="delete a session and its transcript")
    td.add_argument("session", help="the session's id or its exact topic")
    td.add_argument("--yes", action="store_true", help="confirm: without it nothing is deleted")


def _err(text: str) -> None:
    print(f"keeltui: {text}", file=sys.stderr)


def _session(records, ref: str):
    found = records.find_session(ref)
    if found is None:
        _err(f"tutor: no tutor session {ref!r} — `keeltui tutor list` shows the ids")
    return found


def run(args, store) -> int:
    """Run ``keeltui tutor <action>`` against ``store``."""
    from keeltui.infra.private_files import open_private
    from keeltui.services.tutor_records import TutorRecords, list_line
    from keeltui.text.textsafe import clean_text

    records = TutorRecords(store)
    if args.tutor_command == "list":
        rows = records.sessions()
        if not rows:
            print("no tutor sessions yet — start one in the app (Ctrl+T)")
        for row in rows:
            print(list_line(row))
        return EXIT_OK
    session = _session(records, args.session)
    if session is None:
        return EXIT_FAILED
    if args.tutor_command == "export":
        # A model wrote much of it (plan labels, quiz items): no escape sequence reaches
        # the terminal or a file that is later `cat`ed.
        text = clean_text(records.export_markdown(session.id))
        if not args.out:
            sys.stdout.write(text)
            return EXIT_OK
        try:
            with open_private(Path(args.out)) as handle:  # a learner's record is private (0600)
                handle.write(text)
        except OSError as exc:
            _err(f"tutor export: cannot write {args.out}: {exc.strerror}")
            return EXIT_FAILED
        print(f"wrote session {session.id} to {args.out}")
        return EXIT_OK
    if args.tutor_command == "rename":
        title = " ".join(" ".join(args.title).split())
        if not title:
            _err("tutor rename: the title is empty")
            return EXIT_USAGE
        records.rename(session.id, title)
        print(f"session {session.id} is now {clean_text(title)!r}")
        return EXIT_OK
    if not args.yes:
        _err(f"tutor delete: this deletes session {session.id} ({clean_text(session.title)!r}) "
             "and its transcript — add --yes to confirm")
        return EXIT_USAGE
    records.delete(session.id)
    print(f"deleted session {session.id}")
    return EXIT_OK
