"""Issue 24.2: the disk fills while a reply streams. Nothing shown is lost: the screen keeps
every word and says the reply is not saved (and why); once there is room, F5 stores what
was shown, settled as cut off by the failed write, and asks again."""

from __future__ import annotations

import threading

import pytest

from keeltui.store import Store
from keeltui_dev.loopback import Reply
from tests.conftest import write_config
from tests.support.tmux import Tmux, keeltui_command

resource = pytest.importorskip("resource", reason="no resource module: no way to limit a file's size here")
if not hasattr(resource, "prlimit"):
    pytest.skip("no prlimit() on this platform: the disk cannot be filled for one process", allow_module_level=True)

WORDS = [f"w{i:02d} " for i in range(40)]


def _flat(screen: str) -> str:
    return " ".join(screen.replace("█", " ").split())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_disk_full_mid_stream_keeps_the_shown_text_and_f5_saves_and_retries(tmp_path, loopback, e2e_env, size):
    gate = threading.Semaphore(0)
    loopback.queue(Reply(chunks=WORDS, gate=gate), Reply(text="Second try, all saved."))
    config = write_config(tmp_path / "c.toml", loopback.url,
                          f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    tmux = Tmux(*size)
    try:
        tmux.start(keeltui_command(config), e2e_env)
        tmux.wait_text("Write to the Chief")
        tmux.type("tell me forty words")
        tmux.send("Enter")
        tmux.wait_text("w00")
        pid = tmux.pane_pid()
        soft, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (1, hard))  # the disk is full for the app from now on
        try:
            for _ in WORDS[1:]:
                gate.release()
            screen = tmux.wait_for(lambda text: "w39" in text and "not saved" in text, what="the end, not saved")
            flat = _flat(screen)
            assert "cut off: not saved (the database could not be written)" in flat or \
                "cut off: not saved (the disk is full)" in flat
            assert all(word.strip() in flat for word in WORDS)
            store = Store(tmp_path / "k.db", readonly=True)
            on_disk = store.tail(1, 1)[0]
            store.close()
            assert on_disk.status == "streaming" and len(on_disk.content) < len("".join(WORDS))
            tmux.send("F5")  # still full: nothing is lost, and the screen says so
            tmux.wait_text("still not saved")
        finally:
            resource.prlimit(pid, resource.RLIMIT_FSIZE, (soft, hard))  # space is back
        tmux.send("F5")
        tmux.wait_text("Second try, all saved.")
        store = Store(tmp_path / "k.db", readonly=True)
        replies = [r for r in store.messages(1) if r.role == "assistant" and r.turn_kind is None]
        store.close()
        first, second = replies
        assert first.content == "".join(WORDS)  # every word that was shown, stored
        assert first.status == "superseded"  # kept as the earlier version of the answer
        assert [p.get("kind") for p in first.parts if p.get("type") == "error"] == ["unsaved"]
        assert (second.content, second.status) == ("Second try, all saved.", "complete")
    finally:
        tmux.close()


def test_disk_full_mid_stream_keeps_the_thinking_shown_and_f5_stores_it(tmp_path, loopback, e2e_env):
    thought = ["Weighing the plumber ", "against the invoice."]
    gate = threading.Semaphore(0)
    loopback.queue(Reply(reasoning=thought, chunks=WORDS[:5], gate=gate), Reply(text="Second try, all saved."))
    config = write_config(tmp_path / "c.toml", loopback.url,
                          f'[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n')
    tmux = Tmux(120, 40)
    try:
        tmux.start(keeltui_command(config), e2e_env)
        tmux.wait_text("Write to the Chief")
        tmux.type("think, then five words")
        tmux.send("Enter")
        tmux.wait_for(lambda text: "thinking…" in text and thought[0].strip() in text, what="the live thinking")
        pid = tmux.pane_pid()
        soft, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (1, hard))  # the disk is full for the app from now on
        try:
            for _ in range(1 + 5):  # the thinking's second piece, then the words
                gate.release()
            screen = tmux.wait_for(lambda text: "w04" in text and "not saved" in text, what="the end, not saved")
            assert "thought for" in screen, screen  # the thinking is still on the reply, folded
            store = Store(tmp_path / "k.db", readonly=True)
            assert store.tail(1, 1)[0].thinking != "".join(thought)  # its end never reached the disk
            store.close()
        finally:
            resource.prlimit(pid, resource.RLIMIT_FSIZE, (soft, hard))  # space is back
        tmux.send("F5")
        tmux.wait_text("Second try, all saved.")
        store = Store(tmp_path / "k.db", readonly=True)
        first = next(r for r in store.messages(1) if r.role == "assistant" and r.turn_kind is None)
        store.close()
        assert first.content == "".join(WORDS[:5])
        assert first.thinking == "".join(thought), first  # what was shown of the thinking, stored with the text
    finally:
        tmux.close()
