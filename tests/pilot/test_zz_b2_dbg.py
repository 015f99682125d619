from textual._compositor import Compositor
from keeltui_dev.loopback import Reply
from bench.loop import stream_chunks
from tests.pilot.test_room_controls import send
from tests.pilot.test_stream_paint import record_frames


async def test_dbg(make_app, loopback):
    loopback.queue(Reply(chunks=stream_chunks(300, "ENDMARK"), chunk_delay=0.005, delay=float(__import__("os").environ.get("D", "0"))))
    app = make_app()
    log = []
    real = Compositor.reflow

    def reflow(self, parent, size):
        old = dict(self._full_map) if self._full_map else {}
        r = real(self, parent, size)
        ch = [(type(w).__name__, old.get(w), g) for w, g in self._full_map.items() if old.get(w) != g]
        log.append(("reflow", [(n, (o.region, o.virtual_size) if o else None, (g.region, g.virtual_size)) for n, o, g in ch]))
        return r
    Compositor.reflow = reflow
    from keeltui.chief_view import RoomLog
    import traceback
    real_ws = RoomLog.watch_scroll_y
    def ws(self, old, new):
        log.append(("scroll", (old, new, "".join(traceback.format_stack(limit=12)[-12:-1]))))
        return real_ws(self, old, new)
    RoomLog.watch_scroll_y = ws
    from textual.widget import Widget
    real_refresh = Widget.refresh
    def refresh(self, *regions, **kw):
        if type(self).__name__ in ("RoomLog", "StreamingReply", "ChatMessage", "WorkingIndicator", "ScrollBar") and not regions:
            log.append(("refresh", (type(self).__name__, kw, "".join(traceback.format_stack(limit=6)[-6:-1]))))
        return real_refresh(self, *regions, **kw)
    Widget.refresh = refresh
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(1.0)
        frames = record_frames(app)
        real_display = app._display
        def display(screen, renderable):
            log.append(("frame", len(frames)))
            real_display(screen, renderable)
        app._display = display
        await send(pilot, "go")
        await pilot.pause(1.0)
    Compositor.reflow = real
    n = 0
    for kind, x in log:
        if kind == "refresh":
            print("REFRESH", x[0], x[1]); print(x[2])
        elif kind == "scroll":
            print("SCROLL", x[0], x[1]); print(x[2])
        elif kind == "reflow":
            print("REFLOW", [(n, o, g) if n not in ("FooterKey",) else n for n, o, g in x])
        else:
            print("FRAME", len(frames[x-1]) if x else None)
    import re
    print([(len(f), sorted({int(m.group(1)) for m in re.finditer(r"\x1b\[(\d+);\d+H", f)})) for f in frames[:4]])
