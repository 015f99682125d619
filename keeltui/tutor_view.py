"""The tutor pane: sessions, the transcript, the composer (with its verdict mode), the plan map.

A projection of the store. Every learner action is written to the store first (through
:class:`keeltui.services.tutor_turns.TutorTurns`), then a worker runs the agents' turn
and posts messages; the pane re-reads the session and redraws. What to show and what
an action means come from the pure core (:mod:`keeltui.tutor.session`, ``phases``,
``plan_status``); the widgets only draw.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.css.query import NoMatches
from textual.widgets import ContentSwitcher, Input, OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from keeltui.keys.keyspec import typed_character
from keeltui.values import Usage
from keeltui.config import Config
from keeltui.panes.tutor.assessment import AssessmentCard
from keeltui.panes.common.bindings import bind
from keeltui.panes.common.composer import Composer
from keeltui.panes.tutor.chat_message import ChatMessage
from keeltui.panes.tutor.plan_map import PlanCard, PlanMap
from keeltui.panes.tutor.quiz import AskCard, QuizCard
from keeltui.panes.tutor.cards import AbortedJobMark, JobCard, ThinkingIndicator, TurnErrorCard, job_result_card
from keeltui.panes.tutor.jobs import JobRunner
from keeltui.panes.tutor.turns import TurnRunner
from keeltui.panes.tutor.session_list import ConfirmDelete, RenameSession, SessionList, SummaryScreen, session_prompt
from keeltui.tutor.outcome import TurnOutcome
from keeltui.text.textsafe import clean_text, one_line
from keeltui.tutor import jobs as tj
from keeltui.tutor import session as ts
from keeltui.panes.common.theme_styles import themed
from keeltui.tutor.phases import AGENT_WORDS, PHASE_WORDS, awaiting_verdict, latest_plan, pending_question, phase_of, plan_version
from keeltui.tutor.mastery import map_statuses

if TYPE_CHECKING:  # handed down by keeltui.wiring: the pane only names their types
    from keeltui.services.tutor_job_runner import TutorJobs
    from keeltui.services.tutor_records import TutorRecords
    from keeltui.services.tutor_turns import TutorTurns

log = logging.getLogger("keeltui.tutor")

NEW_SESSION = "new-session"
AGENT_NAMES = AGENT_WORDS  # plain words: the learner never reads "prober"
LIVE_FLUSH_SECS = 0.05
UNFINISHED = "Its last turn did not finish (keeltui stopped, or the turn was cut short)."


class VerdictLine(Static):
    """The learner's accept or decline, with the note that rode along."""

    DEFAULT_CSS = """
    VerdictLine { height: auto; margin: 1 1 0 1; padding: 0 1; text-style: italic; }
    VerdictLine.-accepted { color: $success; }
    VerdictLine.-declined { color: $error; }
    """

    def __init__(self, item: ts.VerdictLine) -> None:
        text = Text("✓ You accepted the plan." if item.accepted else "✗ You declined the plan.")
        if item.note:
            text.append(f"  {clean_text(item.note)}", style="not italic")
        super().__init__(text, classes="-accepted" if item.accepted else "-declined")
        self.item = item


class TutorPane(Vertical):
    """The tutor: a session picker, then one session's transcript, composer and plan map."""

    DEFAULT_CSS = """
    TutorPane { height: 1fr; }
    TutorPane #tutor-switcher { height: 1fr; }
    TutorPane #tutor-picker { height: 1fr; padding: 1 2; }
    TutorPane .tutor-heading { text-style: bold; margin-bottom: 1; }
    TutorPane #tutor-session-list { height: auto; max-height: 1fr; }
    TutorPane #tutor-review-due { color: $warning; margin-bottom: 1; }
    TutorPane #tutor-review-due.-none { display: none; }
    TutorPane #tutor-topic { display: none; margin-top: 1; }
    TutorPane.-asking-topic #tutor-topic { display: block; }
    TutorPane #tutor-session { height: 1fr; }
    TutorPane #tutor-main { width: 1fr; height: 1fr; }
    TutorPane #tutor-header { height: 1; background: $panel; padding: 0 1; }
    TutorPane #tutor-log { height: 1fr; scrollbar-size-vertical: 1; }
    """

    # On the pane, so they work wherever focus is inside it (the quiz, the log, a button).
    BINDINGS = [
        bind("tutor_sessions", "sessions", "Sessions"),
        bind("tutor_retry", "retry", "Retry"),
        bind("tutor_summary", "summary", "Summary"),
        bind("accept_plan", "accept", "Accept plan"),
        bind("decline_plan", "decline", "Decline plan"),
        bind("tutor_abort_job", "abort_job", "Abort job"),
        bind("tutor_leave_input", "leave_input", "Stop / leave input", show=False),
        # Enter on the session list acts before the next key is handed on (a priority
        # binding runs as the app takes the key in): the keys typed right behind it go
        # where it sends the keyboard, not to the list (see _choose).
        Binding("enter", "choose_session", show=False, priority=True),
    ]

    class Ready(Message):
        """The pane's places can take the keys: it is mounted, or the session left open
        is back in view."""

    class JobStarted(Message):
        """The teacher's job call was accepted in ``session_id``: run it."""

        def __init__(self, session_id: int, job: tj.Job) -> None:
            super().__init__()
            self.session_id = session_id
            self.job = job

    class JobLanded(Message):
        """A job's worker finished; ``steer`` is its result (or failure) to deliver."""

        def __init__(self, session_id: int, job: tj.Job, steer) -> None:
            super().__init__()
            self.session_id = session_id
            self.job = job
            self.steer = steer

    class TurnProgress(Message):
        """A worker stored one step of an agent's turn in ``session_id``."""

        def __init__(self, session_id: int, agent: str, usage: Usage) -> None:
            super().__init__()
            self.session_id = session_id
            self.agent = agent
            self.usage = usage

    class TurnFinished(Message):
        """A worker finished the agents' turn in ``session_id``."""

        def __init__(self, session_id: int, outcome: TurnOutcome) -> None:
            super().__init__()
            self.session_id = session_id
            self.outcome = outcome

    def __init__(
        self, *, id: str | None = None, app_config: Config, turns: TutorTurns, jobs: TutorJobs, records: TutorRecords
    ) -> None:
        super().__init__(id=id)
        self.config = app_config
        self.turns = turns  # built once by keeltui.wiring, handed down
        self.jobs = jobs
        self.records = records
        self.session_id: int | None = None
        self.turn_runner = TurnRunner(self)  # the turns (panes/tutor/turns.py)
        self.job_runner = JobRunner(self)  # the teacher's background jobs (panes/tutor/jobs.py)
        self._live: ChatMessage | None = None  # the reply streaming in the open session
        self._owed = False  # the open session's agent owes a turn and none runs (F5 shows)
        self._widgets: dict[str, Widget] = {}
        self._items: dict[str, ts.Item] = {}
        self._keys: list[str] = []
        self._focused_for: str | None = None  # the item or state focus last moved for
        self._restored = False  # the last open session is reopened on the tab's first show

    # -- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with ContentSwitcher(initial="tutor-picker", id="tutor-switcher"):
            with Vertical(id="tutor-picker"):
                yield Static("Tutor sessions — Enter opens, “New session” starts one", classes="tutor-heading")
                yield Static("", id="tutor-review-due", markup=False)
                yield SessionList(id="tutor-session-list")
                yield Input(placeholder="What do you want to learn? (Enter starts, Escape cancels)", id="tutor-topic",
                            select_on_focus=False)  # the first letter typed on the list is in it (take_typed)
            with Horizontal(id="tutor-session"):
                with Vertical(id="tutor-main"):
                    yield Static("", id="tutor-header", markup=False)
                    yield VerticalScroll(id="tutor-log")
                    yield ThinkingIndicator(id="tutor-thinking")
                    yield Composer("Answer, ask, or note…", id="tutor-composer")
                yield PlanMap(id="plan-map")

    mounted_at: float | None = None
    """``time.monotonic()`` when the pane mounted: keys typed behind Ctrl+T wait for it from then."""

    def on_mount(self) -> None:
        self.mounted_at = time.monotonic()
        logs = self.query("#tutor-log").results(VerticalScroll)
        log_view = next(logs, None)
        if log_view is None:
            return  # quit during start-up: the app exits before the pane was composed
        log_view.anchor()
        self._live_timer = self.set_interval(LIVE_FLUSH_SECS, self._flush_live, pause=True)
        self._fill_session_list()
        self.post_message(self.Ready())

    @property
    def composer(self) -> Composer:
        return self.query_one("#tutor-composer", Composer)

    @property
    def plan_map(self) -> PlanMap:
        return self.query_one(PlanMap)

    @property
    def composed(self) -> bool:
        """Whether the pane's parts are there (it is mounted after the first frame, then composes)."""
        try:
            self.query_one(ContentSwitcher)  # cached once found: asked on every bindings refresh
        except NoMatches:
            return False
        return True

    @property
    def in_session(self) -> bool:
        return self.composed and self.query_one(ContentSwitcher).current == "tutor-session" and self.session_id is not None

    def _visible(self) -> bool:
        # A pane in a hidden tab has no region; never pull focus there. The region lags a
        # tab switch by a frame; the tab pane's display does not (Ctrl+T twice, fast).
        tab = self.parent
        return self.region.area > 0 and (tab is None or bool(tab.display))

    def _focus_is_ours(self) -> bool:
        focused = self.app.focused
        return focused is None or self in focused.ancestors

    # -- the session picker -----------------------------------------------------------

    def _fill_session_list(self, keep_place: bool = True) -> None:
        options = [Option(Text("+ New session", style="bold"), id=NEW_SESSION)]
        working = self.job_runner.working_sessions()
        for row in self.records.sessions():
            # The busy dot: a turn or a background job runs in this session.
            # Only the dot is coloured (a style given to Text() colours the whole row).
            prompt = Text.assemble(("● " if row.id in working else "  ", themed(self.app, "bold $text-warning")))
            prompt.append_text(session_prompt(row))
            options.append(Option(prompt, id=f"session-{row.id}"))
        self._show_review_due()
        listing = self.query_one("#tutor-session-list", OptionList)
        highlighted = listing.highlighted_option if keep_place else None
        listing.set_options(options)
        # Keep the learner's place in the list across a refresh; else start on the open session.
        if highlighted is not None and highlighted.id:
            current = highlighted.id
        else:
            current = f"session-{self.session_id}" if self.session_id is not None else NEW_SESSION
        try:
            listing.highlighted = listing.get_option_index(current)
        except OptionDoesNotExist:  # the session vanished from the list: start at the top
            listing.highlighted = 0

    def _show_review_due(self) -> None:
        """Above the list: what is due for review today, across every topic."""
        due = self.records.review_due()
        line = self.query_one("#tutor-review-due", Static)
        line.set_class(not due, "-none")
        if due:
            count = sum(len(steps) for _, steps in due)
            topics = " · ".join(f"{one_line(clean_text(topic), 30)}: {', '.join(clean_text(s) for s in steps)}"
                                for topic, steps in due)
            line.update(f"↻ Review due today ({count} step{'s' if count != 1 else ''}) — {topics}")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A click on a row (Enter is :meth:`action_choose_session`)."""
        event.stop()
        self._choose(event.option.id or "")

    def action_choose_session(self) -> None:
        option = self.query_one("#tutor-session-list", SessionList).highlighted_option
        if option is not None:
            self._choose(option.id or "")

    def _choose(self, option_id: str) -> None:
        """Start a new topic or open a session, the keyboard moved at once (Screen.set_focus
        is immediate; Widget.focus is a message later, after keys already on their way)."""
        if option_id == NEW_SESSION:
            self.add_class("-asking-topic")
            self.screen.set_focus(self.query_one("#tutor-topic", Input))
        elif option_id.startswith("session-"):
            self.open_session(int(option_id.removeprefix("session-")))

    @on(Input.Submitted, "#tutor-topic")
    def _topic_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        topic = event.value.strip()
        if not topic:
            self.app.bell()
            return
        event.input.clear()
        self.remove_class("-asking-topic")
        session_id = self.turns.start_session(topic)  # write-ahead: the topic is stored first
        self._offer_review(session_id)
        self.open_session(session_id)
        self.turn_runner.run(session_id)  # the one call the learner asked for: a new session

    def action_sessions(self) -> None:
        """Back to the session list."""
        self.remove_class("-asking-topic")
        self.turn_runner.post_context(None)  # no session in view: its percentage and warning go
        self.records.remember_open(None)
        self._fill_session_list(keep_place=False)
        self.query_one(ContentSwitcher).current = "tutor-picker"
        self.refresh_bindings()
        self.query_one("#tutor-session-list", OptionList).focus()

    # -- one session ------------------------------------------------------------------

    def open_session(self, session_id: int) -> None:
        """Show ``session_id``. Never calls the model by itself: an agent that still owes
        a turn (a crash, an error) shows a card with Retry, and the learner decides."""
        if session_id != self.session_id:
            self._clear_log()
        self.session_id = session_id
        self.records.remember_open(session_id)
        self._focused_for = None
        self.query_one(ContentSwitcher).current = "tutor-session"
        self.refresh_bindings()
        rows = self.turns.transcript(session_id)
        self.turn_runner.post_context(session_id, _last_usage(rows))
        self.draw(rows)
        if self._focus_is_ours() and self._active_quiz() is None:
            # At once, so the first keys typed after opening are not lost in the
            # frame before the refresh; _focus_default may hand them to a quiz then.
            self.composer.focus_input()
        self._focus_default_later()

    def _clear_log(self) -> None:
        self.query_one("#tutor-log", VerticalScroll).remove_children()
        self._widgets.clear()
        self._items.clear()
        self._keys = []
        self._live = None

    def refresh_from_store(self) -> None:
        """Re-read the store (the app calls this when another process wrote to it)."""
        if self.in_session and self.session_id is not None:
            self.draw(self.turns.transcript(self.session_id))
        elif self.is_mounted:
            self._fill_session_list()

    def draw(self, rows: Sequence) -> None:
        items = ts.session_items(rows)
        keys = [item.key for item in items]
        if keys[: len(self._keys)] != self._keys:
            self._clear_log()  # not an append (never in practice): redraw from scratch
        new: list[Widget] = []
        for item in items:
            widget = self._widgets.get(item.key)
            if widget is None:
                widget = self._widget_for(item)
                self._widgets[item.key] = widget
                new.append(widget)
            elif self._items.get(item.key) != item and hasattr(widget, "show_item"):
                widget.show_item(item)
            self._items[item.key] = item
        self._keys = keys
        if new:
            log_view = self.query_one("#tutor-log", VerticalScroll)
            # A learner reading the newest lines keeps reading them: whatever scroll released
            # the log's anchor meanwhile (a focus moving into view), new rows are followed.
            following = log_view.scroll_y >= log_view.max_scroll_y - 1
            # Stored rows go above whatever is still live (a streaming reply, an error card).
            anchor = self._live if self._live is not None else self._error_card()
            log_view.mount_all(new, before=anchor) if anchor is not None else log_view.mount_all(new)
            if following:
                self.call_after_refresh(log_view.scroll_end, animate=False)
        self._show_state(rows, items)

    def _widget_for(self, item: ts.Item) -> Widget:
        if isinstance(item, ts.LearnerLine):
            return ChatMessage(0, "user", self.config.owner.name, item.text)
        if isinstance(item, ts.AgentText):
            text = item.text + ("\n\n*— stopped*" if item.stopped else "")
            return ChatMessage(0, "assistant", AGENT_NAMES.get(item.agent, "Tutor"), text)
        if isinstance(item, ts.QuizItem):
            return QuizCard(item)
        if isinstance(item, ts.AskItem):
            return AskCard(item)
        if isinstance(item, ts.AssessmentItem):
            return AssessmentCard(item)
        if isinstance(item, ts.PlanItem):
            return PlanCard(item)
        if isinstance(item, ts.JobItem):
            return JobCard(item, live=item.job_id in self.job_runner.running, held=self.job_runner.held().get(item.job_id))
        if isinstance(item, ts.JobResultItem):
            return job_result_card(item)
        return VerdictLine(item)

    def _show_state(self, rows: Sequence, items: list[ts.Item]) -> None:
        """The header, the plan map, the composer's mode, and where focus belongs."""
        session_id = self.session_id
        busy = session_id in self.turn_runner.busy
        verdict = awaiting_verdict(rows)
        title = self.records.title(session_id) if session_id is not None else ""
        header = f"{title}  ·  {PHASE_WORDS[phase_of(rows)]}"
        progress = self.records.progress(session_id) if session_id is not None else ""
        if progress:
            header += f"  ·  {progress}"
        if verdict:
            header += "  ·  the plan waits for your verdict"
        if busy:
            header += "  ·  thinking…"
        self.query_one("#tutor-header", Static).update(header)
        plan = latest_plan(rows)
        self.plan_map.show_plan(plan, self._map_statuses(plan, rows))
        composer = self.composer
        composer.verdict_mode = verdict
        composer.busy = busy
        self.refresh_bindings()
        self._show_waiting(rows, busy)
        if busy or not self._visible() or not self._focus_is_ours():
            return
        quiz = self._active_quiz()
        if quiz is not None:
            if self._focused_for != quiz.call_id:
                self._focused_for = quiz.call_id
                # A draft typed while the tutor thought keeps the keys: its digits must
                # never answer the quiz by accident (Escape hands the keys to the quiz).
                self._show_quiz(quiz, focus=not self._drafting())
            return
        waiting = pending_question(rows)
        reason = f"ask:{waiting.get('id')}" if waiting is not None else ("verdict" if verdict else None)
        if reason is not None and self._focused_for != reason:
            self._focused_for = reason
            composer.focus_input()

    def _show_quiz(self, quiz: QuizCard, focus: bool = True) -> None:
        """Bring ``quiz`` into view (and hand it the keys). Focus's own scroll into view
        would release the log's anchor (an animated scroll toward a bottom that is still
        growing), and the replies after the answer then landed below the screen: a quiz at
        the end of the log is shown by following the end instead."""
        if focus:
            self._give_keys(quiz)
        log_view = self.query_one("#tutor-log", VerticalScroll)
        if log_view.children and log_view.children[-1] is quiz:
            log_view.scroll_end(animate=False)
        else:
            quiz.scroll_visible()

    def _drafting(self) -> bool:
        composer_input = self.composer.input
        return self.app.focused is composer_input and bool(composer_input.text.strip())

    def _active_quiz(self) -> QuizCard | None:
        for widget in self._widgets.values():
            if isinstance(widget, QuizCard) and widget.active:
                return widget
        return None

    def _default_place(self) -> Widget:
        """Where the keyboard belongs in the pane now: the topic prompt, the session list,
        a waiting quiz, or the composer."""
        if not self.in_session:
            if self.has_class("-asking-topic"):
                return self.query_one("#tutor-topic", Input)
            return self.query_one("#tutor-session-list", OptionList)
        quiz = self._active_quiz()
        if quiz is not None and not self.composer.busy:
            return quiz
        return self.composer.input

    def _focus_default(self) -> None:
        if not self._visible():
            return
        place = self._default_place()
        if isinstance(place, QuizCard):
            self._show_quiz(place)
        else:
            self._give_keys(place)

    def _give_keys(self, place: Widget) -> None:
        """Focus ``place`` a message later (as ``Widget.focus`` does: it may be mounting
        now), unless the focus moved meanwhile: a key handled in between (Tab to the note
        box right after the session reopened) decides, not this older call."""
        was = self.app.focused

        def apply() -> None:
            focused = self.app.focused
            if place.is_attached and (focused is was or focused is None or focused is place):
                self.screen.set_focus(place, scroll_visible=False)

        self.app.call_later(apply)  # in the app's queue, in order with the keys (as Widget.focus)

    def _focus_default_later(self, expect: Widget | None = None) -> None:
        """:meth:`_focus_default` once laid out, unless the focus moved meanwhile: a key
        the learner pressed in that frame (Tab to the note box, a click) decides, and a
        deferred call must not pull the keys back from where it sent them. ``expect``:
        the focus the caller is about to set (default: the focus now)."""
        was = expect if expect is not None else self.app.focused

        def apply() -> None:
            if self._keys_not_moved_since(was):
                self._focus_default()

        self.call_after_refresh(apply)

    def _keys_not_moved_since(self, was: Widget | None) -> bool:
        """No key or click has moved the keys since a deferred "put the keys in their place"
        was asked for when they were at ``was``: they are still there, nowhere, or at that
        place already (it is brought into view again). Otherwise what the learner did stands."""
        focused = self.app.focused
        return focused is was or focused is None or focused is self._default_place()

    def _restore_pending(self) -> bool:
        return not self._restored and not self.in_session and self.records.last_open() is not None

    def coming_into_view(self) -> Widget | None:
        """Ctrl+T brings the pane forward: the place that takes the keys typed right
        behind it. The app focuses it at once, before those keys (in the same read
        over SSH) are handed on; a focus set a frame later would lose them. None: the
        session left open is reopened once the pane shows (on_show), and the keys wait
        for :class:`Ready`."""
        if self._restore_pending():
            return None
        self._restored = True
        place = self._default_place()
        if isinstance(place, QuizCard):
            self._focused_for = place.call_id  # handed the keys here: not again when drawn
            self._focus_default_later(expect=place)  # into view once laid out
        return place

    def on_show(self) -> None:
        # The first time the tab shows, it comes back where the learner left it (never
        # at mount: the Chief room has the keys and the status line then).
        if self._restore_pending():
            self._restored = True
            last = self.records.last_open()
            if last is not None:
                self.open_session(last)
            self.call_after_refresh(self._restored_in_view, self.app.focused)
            return
        self._restored = True
        # The tab became visible (a click on its tab): put the keyboard where the
        # learner will want it, unless Ctrl+T already did.
        focused = self.app.focused
        if focused is None or self not in focused.ancestors:
            self._focus_default_later()

    def _restored_in_view(self, was: Widget | None) -> None:
        """The session left open is back and laid out: the keys go to their place (the quiz
        scrolled into view), unless they moved since it showed (``was``). The mount's Ready
        can reach the app after this showing and hand on the keys behind Ctrl+T already: a
        Tab among them took them from the quiz to the note box, and must not be undone."""
        if self._keys_not_moved_since(was):
            self._focus_default()
        self.post_message(self.Ready())  # the keys held since Ctrl+T have their place now

    def focus_input(self) -> None:
        """The app's `i` key: the composer in a session, else the picker."""
        if not self.composed:
            return  # it gives the keys their place itself once it shows (Ready)
        if self.in_session:
            self.composer.focus_input()
        else:
            self._focus_default()

    def action_leave_input(self) -> None:
        """Escape: stop a running turn; else cancel a new topic, or hand the keys to a
        waiting quiz, or leave the text field for the transcript (focus stays in the
        pane, so its keys keep working)."""
        if self.in_session and self.session_id in self.turn_runner.busy:
            self.action_stop()
            return
        if self.has_class("-asking-topic"):  # Escape cancels the new topic: its words go too
            self.remove_class("-asking-topic")
            self.query_one("#tutor-topic", Input).clear()
            self.query_one("#tutor-session-list", OptionList).focus()
            return
        quiz = self._active_quiz() if self.in_session else None
        if quiz is not None and self.app.focused is not quiz:
            self._show_quiz(quiz)
        elif self.in_session:
            self.query_one("#tutor-log", VerticalScroll).focus()

    def action_stop(self) -> None:
        """Stop the open session's turn: the in-flight call is cancelled, what streamed is kept."""
        self.turn_runner.stop()

    def action_accept(self) -> None:
        self.composer.action_accept()

    def action_decline(self) -> None:
        self.composer.action_decline()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "retry":
            return self.in_session and self._owed
        if action == "abort_job":
            return self.job_runner.in_open_session()
        if action == "choose_session":
            return self.app.focused is self.query_one("#tutor-session-list", SessionList)
        if action in ("accept", "decline"):
            # Shown (and live) only while a plan waits for the verdict.
            return self.in_session and self.composer.verdict_mode and not self.composer.busy
        return True

    def take_typed(self, character: str) -> None:
        """A printable key typed in the pane that nothing took: the start of what the learner
        writes. In a session it goes to the composer; on the session list it begins a new
        topic (the prompt opens with it, as "New session" does): never into the composer the
        list hides, where the words would vanish."""
        if self.in_session:
            self.composer.input.insert(character)
            self.composer.focus_input()
            return
        if not self.has_class("-asking-topic"):
            self._choose(NEW_SESSION)
        topic = self.query_one("#tutor-topic", Input)
        topic.insert_text_at_cursor(character)
        self.screen.set_focus(topic)

    def on_key(self, event: events.Key) -> None:
        """Typing never fires an app key: a character typed while a quiz, the transcript
        or a button has the keys starts (or continues) a draft in the composer. Digits
        on a focused quiz stay the quiz's."""
        # A text field consumes the characters it is typed, so any that bubbles up here
        # was typed elsewhere — or queued for the quiz in the same burst as the first
        # letter, after which focus already sits in the composer: never ask who has it.
        if not typed_character(event.character) or not self.in_session:
            return  # on the session list, letters are its own keys (r renames, d deletes)
        if isinstance(self.app.focused, QuizCard) and event.character.isdigit():
            return  # the quiz's own binding answers it
        event.stop()
        event.prevent_default()
        self.take_typed(event.character)

    # -- learner actions (each stored before the agents run; panes/tutor/turns.py) ------

    def _rows(self) -> list:
        return self.turn_runner.rows()

    @on(Composer.Submitted, "#tutor-composer")
    def _composer_submitted(self, event: Composer.Submitted) -> None:
        event.stop()
        if self.session_id is None or self.session_id in self.turn_runner.busy:
            return
        self.turn_runner.learner_acts(ts.learner_line(self._rows(), event.text))

    @on(Composer.VerdictChosen, "#tutor-composer")
    def _verdict_chosen(self, event: Composer.VerdictChosen) -> None:
        event.stop()
        rows = self._rows()
        if self.session_id in self.turn_runner.busy or not awaiting_verdict(rows):
            self.app.bell()
            return
        self.turn_runner.learner_acts(ts.verdict(event.accepted, event.note, plan_version(rows)))

    def on_quiz_card_answered(self, event: QuizCard.Answered) -> None:
        event.stop()
        rows = self._rows()
        waiting = pending_question(rows)
        if self.session_id in self.turn_runner.busy or waiting is None or waiting.get("id") != event.call_id:
            return  # not the open quiz (a stale card, or a turn is running)
        self.turn_runner.learner_acts(ts.quiz_pick(waiting, event.choice))

    @on(TurnErrorCard.RetryRequested)
    def _retry_pressed(self, event: TurnErrorCard.RetryRequested) -> None:
        event.stop()
        self.action_retry()

    def action_retry(self) -> None:
        """F5: let the agent finish a turn that a brain error or a crash cut short."""
        self.turn_runner.retry()

    # -- what the turns and jobs (panes/tutor/) post; the pane draws --------------------

    def turn_started(self, session_id: int) -> None:
        self._live_timer.resume()
        if session_id == self.session_id:
            self.composer.busy = True
            self.draw(self._rows())

    def _flush_live(self) -> None:
        """Draw what the open session's reply has streamed so far (on a timer, not per token)."""
        session_id = self.session_id
        buffer = self.turn_runner.buffers.get(session_id) if session_id is not None else None
        if buffer is None or session_id not in self.turn_runner.busy or not self.in_session:
            return
        piece = buffer.drain()
        if not piece:
            return
        if self._live is None:
            agent = "prober" if phase_of(self._rows()) == "probe" else "teacher"
            self._live = ChatMessage(0, "assistant", AGENT_NAMES[agent], piece, status="streaming")
            self.query_one("#tutor-log", VerticalScroll).mount(self._live)
            self.query_one(ThinkingIndicator).stop()
        else:
            self._live.set_content(self._live.row_text + piece)

    def _drop_live(self) -> None:
        if self._live is not None:
            self._live.remove()
            self._live = None

    def on_tutor_pane_turn_progress(self, message: TurnProgress) -> None:
        message.stop()
        if message.session_id == self.session_id and self.in_session:
            self._drop_live()
            self.turn_runner.post_context(message.session_id, message.usage)
            self.draw(self._rows())

    def on_tutor_pane_turn_finished(self, message: TurnFinished) -> None:
        message.stop()
        session_id, outcome = message.session_id, message.outcome
        settled = self.turn_runner.finished(session_id, outcome)
        if not self.turn_runner.busy:
            self._live_timer.pause()
        if not settled:
            return
        if not self.in_session:
            self._fill_session_list()
        if session_id == self.session_id and self.in_session:
            self._drop_live()
            if outcome.usage is not None or outcome.warnings:
                self.turn_runner.post_context(session_id, outcome.usage or _last_usage(self._rows()))
            self.draw(self._rows())
            if self.composer.busy is False and self._active_quiz() is None and self._visible() and self._focus_is_ours():
                self._focus_default_later()

    def on_tutor_pane_job_started(self, message: JobStarted) -> None:
        message.stop()
        self.job_runner.start(message.session_id, message.job)

    def on_tutor_pane_job_landed(self, message: JobLanded) -> None:
        message.stop()
        self.job_runner.landed(message.session_id, message.job, message.steer)

    def action_abort_job(self) -> None:
        """F9: abort the newest job running in the open session (the usage so far is kept)."""
        self.job_runner.abort()

    @on(AbortedJobMark.RerunRequested)
    def _rerun_job(self, event: AbortedJobMark.RerunRequested) -> None:
        event.stop()
        self.job_runner.rerun(event.kind, event.title)

    def job_changed(self, session_id: int, job: tj.Job) -> None:
        if not self.in_session:
            self._fill_session_list()
        elif session_id == self.session_id:
            for widget in self._widgets.values():
                if isinstance(widget, JobCard) and widget.item.job_id == job.job_id:
                    widget.show_item(widget.item, live=job.job_id in self.job_runner.running,
                                     held=self.job_runner.held().get(job.job_id, ""))
            self.draw(self._rows())
            self.refresh_bindings()

    def _error_card(self) -> TurnErrorCard | None:
        found = self.query("#tutor-log > TurnErrorCard")
        return found.first(TurnErrorCard) if found else None

    def _show_waiting(self, rows: Sequence, busy: bool) -> None:
        """The indicator while a turn runs (until text streams); the error card with
        Retry when the agent owes a turn and none runs."""
        indicator = self.query_one(ThinkingIndicator)
        if busy and self._live is None:
            agent = AGENT_NAMES["prober" if phase_of(rows) == "probe" else "teacher"]
            indicator.start(f"{agent} is thinking…")
        elif not busy:
            indicator.stop()
        card = self._error_card()
        owed = not busy and ts.needs_reply(rows)
        if owed != self._owed:
            self._owed = owed
            self.refresh_bindings()
        if not owed:
            if card is not None:
                card.remove()
            return
        reason = self.turn_runner.errors.get(self.session_id, UNFINISHED) if self.session_id is not None else UNFINISHED
        if card is None:
            self.query_one("#tutor-log", VerticalScroll).mount(TurnErrorCard(reason))
        else:
            card.show_reason(reason)

    # -- the learner's records: mastery marks, summary, rename, delete, narrow panes ----

    def _map_statuses(self, plan, rows: Sequence) -> dict[str, str]:
        """Each node's mark: position and mastery, earlier sessions on the topic counted."""
        if plan is None or self.session_id is None:
            return {}
        return map_statuses(plan, rows, self.records.clock(), self.records.prior_for(self.session_id)[0])

    def _offer_review(self, session_id: int) -> None:
        """A new session on a studied topic: say what carries over and what is due."""
        offer = self.records.review_offer(session_id)
        if offer:
            self.app.notify(offer, title="From your earlier sessions", timeout=12, markup=False)

    def action_summary(self) -> None:
        """F4: the open session's summary (mastered, to review), at any time."""
        if self.session_id is None or not self.in_session:
            self.app.notify("Open a tutor session to see its summary.", timeout=3)
            return
        lines = [*self.records.summary_lines(self.session_id), "", *self.records.mistake_lines(self.session_id)]
        self.app.push_screen(SummaryScreen(self.records.title(self.session_id), lines))

    def on_session_list_rename_requested(self, message: SessionList.RenameRequested) -> None:
        message.stop()
        conversation = self.records.conversation(message.session_id)
        if conversation is None:
            return

        def renamed(title: str | None) -> None:
            if title:
                self.records.rename(message.session_id, title)
            self._fill_session_list()

        self.app.push_screen(RenameSession(conversation.title), renamed)

    def on_session_list_delete_requested(self, message: SessionList.DeleteRequested) -> None:
        message.stop()
        conversation = self.records.conversation(message.session_id)
        if conversation is None or message.session_id in self.job_runner.working_sessions():
            self.app.bell()  # a turn or a background job still writes into it
            return

        def answered(delete: bool | None) -> None:
            if delete:
                self.records.delete(message.session_id)
                if self.session_id == message.session_id:
                    self.session_id = None
                    self._clear_log()
                self.app.notify(f"Deleted “{clean_text(conversation.title)}”.", timeout=3, markup=False)
            self._fill_session_list()

        self.app.push_screen(ConfirmDelete(conversation.title), answered)

    def on_resize(self, event) -> None:
        # Below this width the map would squeeze the transcript: it moves above it.
        self.set_class(event.size.width < NARROW_WIDTH, "-narrow")
        # In a short pane too (80x24), the map above keeps only a few lines, so the
        # transcript keeps most of the height; it still follows the current step.
        self.set_class(event.size.height < SHORT_HEIGHT, "-short")


NARROW_WIDTH = 90
SHORT_HEIGHT = 30


def _last_usage(rows: Sequence) -> dict | None:
    for row in reversed(rows):
        usage = getattr(row, "usage", None)
        if usage:
            return usage
    return None
