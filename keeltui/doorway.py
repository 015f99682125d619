"""``keeltui chat``: the room through a doorway, for a slow link or a small pane.

One turn (``keeltui chat TEXT``) or a line-mode chat (prompt-toolkit: history,
multi-line with Alt+Enter, Ctrl-D to leave) on the same room and store as the app.
"""

from __future__ import annotations

import asyncio
import sys

from keeltui.textsafe import clean_text


def _stream_turn(config, store, text: str) -> int:
    from keeltui.wiring import wire

    services = wire(config, store)
    turns = services.chief

    async def run():
        user_id = turns.add_user_turn(text)  # write-ahead: kept even if the brain is down
        try:
            result = await turns.reply(
                user_id, on_delta=lambda piece: (sys.stdout.write(clean_text(piece)), sys.stdout.flush())
            )
            if result.needs_compaction:
                await turns.compact()
        finally:
            await services.aclose()
        return result

    result = asyncio.run(run())
    sys.stdout.write("\n")
    if result.error:
        print(f"keeltui: {result.error} (your message is saved in the room)", file=sys.stderr)
        return 1
    return 0


def one_turn(config, store, text: str) -> int:
    return _stream_turn(config, store, text)


def line_chat(config, store) -> int:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, History, InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings

    from keeltui.chief.quiet import Access, QuietModeRefusal, check_access, quiet_mode_on

    bindings = KeyBindings()

    @bindings.add("enter")
    def _(event):
        event.current_buffer.validate_and_handle()

    @bindings.add("escape", "enter")
    def _(event):
        event.current_buffer.insert_text("\n")

    history_path = config.status_file_path().parent / "chat_history"
    try:
        history_path.parent.mkdir(parents=True, exist_ok=True)
        history: History = FileHistory(str(history_path))
    except OSError:
        history = InMemoryHistory()
    session: PromptSession[str] = PromptSession(history=history, multiline=True, key_bindings=bindings)
    print(f"Line-mode chat with {config.owner.companion}. Alt+Enter for a new line, Ctrl-D to leave.")
    from keeltui.review import format_log

    # The same lines `keeltui log` prints: system lines behind their badge.
    for line in format_log(store.tail(store.chief_id(), 6), config.owner.name, config.owner.companion,
                           color=sys.stdout.isatty()):
        print(line)
    while True:
        try:
            text = session.prompt(f"{config.owner.name}> ").strip()
        except EOFError:
            print()
            return 0
        except KeyboardInterrupt:
            continue
        if not text:
            continue
        try:
            check_access(Access.VIEWER, quiet_mode_on(store))  # turned on while we chatted
        except QuietModeRefusal as refusal:
            print(refusal, file=sys.stderr)
            return 3
        sys.stdout.write(f"{config.owner.companion}: ")
        _stream_turn(config, store, text)
