"""``keeltui chat``: the room through a doorway, for a slow link or a small pane.

One turn (``keeltui chat TEXT``) or a line-mode chat (prompt-toolkit: history,
multi-line with Alt+Enter, Ctrl-D to leave) on the same room and store as the app.
"""

from __future__ import annotations

import asyncio
import sys

from keeltui.chief.failure_words import LINE_RETRY, TURN_RETRY
from keeltui.text.textsafe import clean_text

# How often the line-mode chat looks for reports that landed while it waits.
REPORT_POLL_SECS = 0.5


class _ReplyPrinter:
    """Writes a reply as it streams: a reasoning model's thinking first (dim, on a terminal
    only: a pipe wants the answer), then the answer on a line of its own."""

    def __init__(self, out=None) -> None:
        self.out = out or sys.stdout
        self.show_thinking = self.out.isatty()
        self.thinking = False
        self.answering = False

    def thought(self, piece: str) -> None:
        if not self.show_thinking or self.answering:
            return
        if not self.thinking:
            self.thinking = True
            self.out.write("\x1b[2mthinking… ")
        self.out.write(clean_text(piece))
        self.out.flush()

    def answered(self, piece: str) -> None:
        if self.thinking and not self.answering:
            self.out.write("\x1b[0m\n")  # the thinking ends; the answer starts its own line
        self.answering = True
        self.out.write(clean_text(piece))
        self.out.flush()

    def end(self) -> None:
        if self.thinking and not self.answering:
            self.out.write("\x1b[0m")  # a reply that stopped while it thought: no dim prompt after
        self.out.write("\n")


async def _turn(turns, text: str, stop: asyncio.Event | None = None, again: str = TURN_RETRY):
    """One turn: the user's row first (kept even if the brain is down), the reply streamed.

    ``stop`` set (Ctrl-C in the line-mode chat) ends the reply; what came is kept.
    ``again`` is what asks again here, named in a failure's words.
    """
    user_id = turns.add_user_turn(text)
    printer = _ReplyPrinter()
    try:
        result = await turns.reply(user_id, on_delta=printer.answered, stop=stop, on_thinking=printer.thought)
    finally:
        printer.end()
    if result.needs_compaction:
        await turns.compact()
    if result.stopped:
        print("keeltui: stopped by you (what came is kept in the room)", file=sys.stderr)
    elif result.error:
        print(f"keeltui: {clean_text(result.words(again))} (your message is saved in the room)", file=sys.stderr)
    return result


async def _turn_stoppable(turns, text: str):
    """A line-mode turn that Ctrl-C stops, leaving the chat open for the next message."""
    import signal

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    previous = signal.getsignal(signal.SIGINT)
    try:
        loop.add_signal_handler(signal.SIGINT, stop.set)
    except (NotImplementedError, RuntimeError, ValueError):
        return await _turn(turns, text, again=LINE_RETRY)
    try:
        return await _turn(turns, text, stop, LINE_RETRY)
    finally:
        loop.remove_signal_handler(signal.SIGINT)
        signal.signal(signal.SIGINT, previous)  # asyncio.run's own handler, as it was


def _stream_turn(config, store, text: str) -> int:
    from keeltui.wiring import wire

    services = wire(config, store)
    turns = services.chief

    async def run():
        try:
            return await _turn(turns, text)
        finally:
            await services.aclose()

    result = asyncio.run(run())
    return 1 if result.error else 0


def one_turn(config, store, text: str) -> int:
    return _stream_turn(config, store, text)


def line_chat(config, store) -> int:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, History, InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings

    bindings = KeyBindings()

    @bindings.add("enter")
    def _(event):
        event.current_buffer.validate_and_handle()

    @bindings.add("escape", "enter")
    # Alt+Enter typed before the prompt took the terminal: cooked mode made its CR an LF.
    @bindings.add("escape", "c-j")
    def _(event):
        event.current_buffer.insert_text("\n")

    from keeltui.infra.dbfiles import create_private_file, make_private_dir, tighten

    history_path = config.status_file_path().parent / "chat_history"
    try:
        # What the owner typed: owner-only, whatever the umask.
        make_private_dir(history_path.parent)
        create_private_file(history_path)
        for line in tighten([history_path]):
            print(f"keeltui: {line}", file=sys.stderr)
        history: History = FileHistory(str(history_path))
    except OSError:
        history = InMemoryHistory()
    session: PromptSession[str] = PromptSession(history=history, multiline=True, key_bindings=bindings)
    print(f"Line-mode chat with {config.owner.companion}. Alt+Enter for a new line, Ctrl-D to leave.")
    from keeltui.chief.review import format_log

    # The same lines `keeltui log` prints: system lines behind their badge.
    color = sys.stdout.isatty()
    tail = store.tail(store.chief_id(), 6)
    for line in format_log(tail, config.owner.name, config.owner.companion, color=color):
        print(line)
    reports = ReportPrinter(store, config.owner.name, config.owner.companion, tail[-1].id if tail else 0, color)
    return asyncio.run(_line_loop(config, store, session, reports))


class ReportPrinter:
    """Prints the reports (and the app's notices) that land while the chat is open."""

    def __init__(self, store, owner: str, companion: str, cursor: int, color: bool) -> None:
        self.store = store
        self.owner = owner
        self.companion = companion
        self.cursor = cursor
        self.color = color

    def print_new(self) -> None:
        from keeltui.chief.turn_kinds import SUMMARY
        from keeltui.chief.review import format_log

        rows = self.store.after(self.store.chief_id(), self.cursor)
        if not rows:
            return
        self.cursor = rows[-1].id
        # Conversation turns are this chat's own (or another window's); system lines are news.
        news = [row for row in rows if row.turn_kind and row.turn_kind != SUMMARY]
        for line in format_log(news, self.owner, self.companion, color=self.color):
            print(line)

    async def watch(self) -> None:
        while True:
            await asyncio.sleep(REPORT_POLL_SECS)
            try:
                self.print_new()
            except Exception as exc:  # noqa: BLE001 - a busy database is tried again next time
                print(f"keeltui: cannot read the room: {exc}", file=sys.stderr)


async def _line_loop(config, store, session, reports: ReportPrinter) -> int:
    from prompt_toolkit.patch_stdout import patch_stdout

    from keeltui.chief.quiet import Access, QuietModeRefusal, check_access, quiet_mode_on
    from keeltui.store import StoreError
    from keeltui.wiring import wire

    services = wire(config, store)  # the one composition root builds the brain and the turns
    turns = services.chief
    try:
        while True:
            reports.print_new()
            # While the prompt waits, reports are printed above it (patch_stdout keeps it whole).
            with patch_stdout(raw=True):
                watcher = asyncio.ensure_future(reports.watch())
                try:
                    text = (await session.prompt_async(f"{config.owner.name}> ")).strip()
                except EOFError:
                    print()
                    return 0
                except KeyboardInterrupt:
                    continue
                finally:
                    watcher.cancel()
            if not text:
                continue
            try:
                check_access(Access.VIEWER, quiet_mode_on(store))  # turned on while we chatted
            except QuietModeRefusal as refusal:
                print(refusal, file=sys.stderr)
                return 3
            sys.stdout.write(f"{config.owner.companion}: ")
            sys.stdout.flush()
            try:
                await _turn_stoppable(turns, text)  # reports that landed meanwhile print before the next prompt
            except StoreError as exc:
                print(f"\nkeeltui: not sent: {exc} (↑ brings your message back)", file=sys.stderr)
    finally:
        await services.aclose()

