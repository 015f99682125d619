"""One change of the ambient state is one status-file write: the app copies the
message's six values without a watcher per field, then renders the line once."""

from __future__ import annotations

from keeltui.panes.common.events import AmbientChanged
from keeltui.status.file import read_status
from tests.support.pilot import wait_for


async def test_one_ambient_change_writes_the_status_file_once(make_app, tmp_path, monkeypatch):
    import keeltui.shell.status_keeping

    writes: list[str] = []
    real = keeltui.shell.status_keeping.write_status

    def counting(path, line, **kwargs):
        writes.append(line)
        return real(path, line, **kwargs)

    monkeypatch.setattr(keeltui.shell.status_keeping, "write_status", counting)
    app = make_app()  # no evidence source: nothing else changes the ambient state
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.ambient is not None and app.ambient.is_mounted and app.brain_online,
                       what="the ambient controller and the brain check")
        await wait_for(pilot, lambda: app.judge_name == "brain", what="the controller's first state")
        app.post_message(AmbientChanged("Back to the report?", "", "brain", mode="notify"))
        await wait_for(pilot, lambda: read_status(tmp_path / "status").startswith("⚠ Back to the report?"),
                       what="the drift line in the status file")
        writes.clear()
        # The line ends, the judge falls back and the mode goes off, all in one message.
        app.post_message(AmbientChanged("", "", "local · brain unreachable", mode="off"))
        await wait_for(pilot, lambda: read_status(tmp_path / "status").startswith("ambient off"),
                       what="the new state in the status file")
        assert len(writes) == 1, writes
