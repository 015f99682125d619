"""The plan as a graph that follows the learner, mastery that lasts, and the learner's records,
driven through Pilot over a real store and the loopback brain."""

from __future__ import annotations

from keeltui.panes.tutor.plan_map import PlanMap
from keeltui.panes.tutor.quiz import QuizCard
from keeltui.tutor_view import TutorPane
from keeltui_dev.loopback import Reply
from tests.support.pilot import screen_text, wait_for
from tests.support.tutor_seed import big_plan, seed_session

PROTEIN = """graph TD
  basics[Why protein matters] --> leucine[Leucine threshold] & per_meal[Protein per meal]
  leucine --> timing[Timing around training]
  per_meal --> timing
"""


def region_text(app, widget) -> list[str]:
    """The screen rows inside ``widget``'s region, cropped to it."""
    region = widget.region
    lines = screen_text(app).splitlines()[region.y : region.bottom]
    return [line[region.x : region.right] for line in lines]


def map_rows(app) -> list[str]:
    return region_text(app, app.query_one(PlanMap))


def current_row(app) -> str:
    return next((row for row in map_rows(app) if "▶" in row), "")


def pane(app) -> TutorPane:
    return app.query_one(TutorPane)


async def open_first_session(pilot) -> None:
    await pilot.press("ctrl+t")
    await wait_for(pilot, lambda: "New session" in screen_text(pilot.app), what="the session list")
    await pilot.press("down", "enter")
    await wait_for(pilot, lambda: pane(pilot.app).in_session, what="the session")


def quiz_on(node: str) -> Reply:
    return Reply(tool_calls=[{"name": "quiz", "arguments": {
        "question": f"Next: {node}?", "choices": ["Right", "Wrong"], "correct": 0, "node_id": node}}])


async def test_a_30_node_map_scrolls_to_the_current_node_and_follows_it(make_app, loopback):
    loopback.responder = lambda request: quiz_on("n23")
    app = make_app()
    answers = [(f"n{i}", i != 1) for i in range(22)]
    seed_session(app.store, "graph theory", big_plan(), answers, waiting="n22")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_session(pilot)
        await wait_for(pilot, lambda: "Step 22 of the long" in current_row(app), what="the current node on screen")
        rows = map_rows(app)
        assert not any("Step 0 of the long" in row for row in rows)  # scrolled past the start
        assert any("✓" in row and "Step 21 of the long" in row for row in rows)
        assert any(glyph in "".join(rows) for glyph in "├╯╮┼")  # edges drawn, not a list
        # the quiz card names the step, not its id
        card = next(card for card in app.query(QuizCard) if card.active)
        assert "Quiz  · Step 22 of the long plan" in "\n".join(region_text(app, card))
        assert "· n22" not in screen_text(app)
        await pilot.press("1")
        await wait_for(pilot, lambda: "Step 23 of the long" in current_row(app), what="the map following")
        assert any("✓" in row and "Step 22 of the long" in row for row in map_rows(app))


async def test_answers_mark_mastered_and_review_and_the_summary_says_so(make_app, loopback):
    app = make_app()
    seed_session(app.store, "muscle protein", PROTEIN, [("basics", True), ("leucine", False)], waiting="per_meal")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_session(pilot)
        await wait_for(pilot, lambda: "Protein per meal" in current_row(app))
        rows = "\n".join(map_rows(app))
        assert "✓ Why protein matters" in rows.replace("│ ", "").replace("├─╮", "")
        assert any("↻" in row and "Leucine threshold" in row for row in map_rows(app))
        assert any("○" in row and "Timing around training" in row for row in map_rows(app))
        await pilot.press("f4")
        await wait_for(pilot, lambda: "Summary — muscle protein" in screen_text(app), what="the summary")
        text = screen_text(app)
        assert "Quizzes answered: 2 (1 right)" in text
        assert "To review: 1" in text and "↻ Leucine threshold" in text
        assert "Mastered: 1 of 4 steps" in text and "✓ Why protein matters" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Summary — muscle protein" not in screen_text(app))
        assert loopback.requests == []


async def test_the_session_list_shows_date_phase_progress_and_renames_and_deletes(make_app, loopback):
    app = make_app()
    keep = seed_session(app.store, "muscle protein", PROTEIN, [("basics", True)], waiting="leucine")
    gone = seed_session(app.store, "secant lines", PROTEIN, [], waiting="basics")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: "New session" in screen_text(app), what="the session list")
        text = screen_text(app)
        assert "learning · 1/4 mastered" in text and "learning · 0/4 mastered" in text
        assert text.count(" · learning") == 2 and "202" in text  # a date per row
        await pilot.press("down")  # the newest: secant lines
        await pilot.press("r")
        await wait_for(pilot, lambda: "Rename the session" in screen_text(app))
        await pilot.press("ctrl+u", *"limits", "enter")
        await wait_for(pilot, lambda: "limits   " in screen_text(app), what="the new title")
        assert app.store.conversation(gone).title == "limits"
        await pilot.press("delete")
        await wait_for(pilot, lambda: "Delete “limits”?" in screen_text(app))
        await pilot.press("n")  # keeps it
        await wait_for(pilot, lambda: "Delete “limits”?" not in screen_text(app))
        assert app.store.conversation(gone) is not None
        await pilot.press("delete")
        await wait_for(pilot, lambda: "Delete “limits”?" in screen_text(app))
        await pilot.press("y")
        await wait_for(pilot, lambda: "limits   " not in screen_text(app), what="the list without it")
        assert app.store.conversation(gone) is None and app.store.messages(gone) == []
        assert app.store.conversation(keep) is not None and "muscle protein" in screen_text(app)


async def test_in_a_70_column_pane_the_map_sits_above_and_the_note_box_keeps_its_width(make_app, loopback):
    app = make_app()
    seed_session(app.store, "graph theory", big_plan(), [(f"n{i}", True) for i in range(10)], waiting="n10")
    async with app.run_test(size=(70, 40)) as pilot:
        await open_first_session(pilot)
        await wait_for(pilot, lambda: "Step 10 of the long" in current_row(app), what="the map")
        plan_map = app.query_one(PlanMap)
        log = app.query_one("#tutor-log")
        composer = pane(app).composer
        assert plan_map.region.bottom <= log.region.y  # above the transcript, not beside it
        assert plan_map.region.height <= 9
        assert composer.region.width >= 60
        composer.focus_input()
        await pilot.press(*"a note that fits")
        await wait_for(pilot, lambda: "a note that fits" in "\n".join(region_text(app, composer)))


async def test_in_an_80x24_pane_the_map_above_leaves_the_transcript_most_of_the_height(make_app, loopback):
    app = make_app()
    seed_session(app.store, "graph theory", big_plan(), [(f"n{i}", True) for i in range(10)], waiting="n10")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_first_session(pilot)
        await wait_for(pilot, lambda: "Step 10 of the long" in current_row(app), what="the map follows the step")
        plan_map = app.query_one(PlanMap)
        log = app.query_one("#tutor-log")
        assert plan_map.region.bottom <= log.region.y
        assert plan_map.region.height <= 5
        assert log.region.height >= 8  # a 9-row map left the transcript three rows


async def test_a_new_session_on_a_known_topic_starts_from_what_is_known(make_app, loopback):
    loopback.responder = lambda request: Reply(tool_calls=[{"name": "ask", "arguments": {
        "question": "Shall we review the leucine threshold first?"}}])
    app = make_app()
    seed_session(app.store, "Muscle protein", PROTEIN, [("basics", True), ("leucine", False)])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: "New session" in screen_text(app), what="the session list")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "tutor-topic")
        await pilot.press(*"muscle  protein", "enter")
        await wait_for(pilot, lambda: "Shall we review the leucine threshold first?" in screen_text(app))
        system = loopback.requests[0]["messages"][0]["content"]
        assert "## What the learner already showed on this topic" in system
        assert "Mastered: Why protein matters (basics)" in system
        assert "Due for review (answered wrong last time, or time to refresh): Leucine threshold (leucine)" in system


async def test_the_plan_presented_for_the_verdict_is_drawn_as_a_graph(make_app, loopback):
    from keeltui.panes.tutor.plan_map import PlanCard
    from keeltui.tutor import transcript as tx

    app = make_app()
    store = app.store
    session = store.create_conversation("tutor", "muscle protein")
    for message in (
        tx.user("muscle protein"),
        tx.assistant("", tx.tool_call("a1", "probe_done", {"strands": ["x"], "edge": "y"})),
        tx.tool("a1", "probe_done", True, {"status": "probe concluded"}),
        tx.assistant("Two paths that meet at timing.", tx.tool_call("a2", "plan_init", {"mermaid": PROTEIN})),
        tx.tool("a2", "plan_init", True, {"status": "plan presented"}),
    ):
        store.add_message(session, message.role, message.content, parts=[dict(p) for p in message.parts])
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_session(pilot)
        await wait_for(pilot, lambda: app.query(PlanCard), what="the plan card")
        await pilot.pause()
        card = "\n".join(region_text(app, app.query_one(PlanCard)))
        assert "├─╮" in card and "├─╯" in card  # the branch after basics, the join at timing
        lines = card.splitlines()
        order = [next(i for i, line in enumerate(lines) if title in line)
                 for title in ("Why protein matters", "Leucine threshold", "Protein per meal", "Timing around training")]
        assert order == sorted(order)
        assert "Accept with ctrl+o or decline with ctrl+r" in card
        assert loopback.requests == []


async def test_the_summary_is_in_the_command_palette(make_app, loopback):
    app = make_app()
    seed_session(app.store, "muscle protein", PROTEIN, [("basics", True)], waiting="leucine")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_session(pilot)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: "Search for commands" in screen_text(app), what="the palette")
        await pilot.press(*"tutor summary")
        await wait_for(pilot, lambda: "The open tutor session: mastered, to review" in screen_text(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Summary — muscle protein" in screen_text(app), what="the summary")
        assert "Mastered: 1 of 4 steps" in screen_text(app)


async def test_markup_in_titles_is_shown_as_text(make_app, loopback):
    app = make_app()
    hostile = """graph TD
  a["[bold red]Loud[/] step"] --> b["Close [/] early"]
"""
    seed_session(app.store, "[b]markup[/b] topic", hostile, [("a", True)], waiting="b")
    doomed = seed_session(app.store, "[/] unbalanced", hostile, [])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: "[b]markup[/b] topic" in screen_text(app), what="the list")
        await pilot.press("down", "delete", "y")  # the newest first: "[/] unbalanced"
        await wait_for(pilot, lambda: "[/] unbalanced" not in screen_text(app), what="the list without it")
        assert app.store.conversation(doomed) is None and app.is_running
        await pilot.press("down", "delete")
        await wait_for(pilot, lambda: "Delete “[b]markup[/b] topic”?" in screen_text(app))
        await pilot.press("n")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Close [/] early" in current_row(app), what="the map")
        assert any("[bold red]Loud[/] step" in row for row in map_rows(app))
        await pilot.press("f4")
        await wait_for(pilot, lambda: "✓ [bold red]Loud[/] step" in screen_text(app))
