"""The tutor pane: sessions, the transcript, the composer (with its verdict mode), the plan map.

A projection of the store. Every learner action is written to the store first (through
:class:`keeltui.services.tutor_turns.TutorTurns`), then a worker runs the agents' turn
and posts messages; the pane re-reads the session and redraws. What to show and what
an action means come from the pure core (:mod:`keeltui.tutor.session`, ``phases``,
``plan_status``); the widgets only draw.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Input, OptionList, Static
from textual.widgets.option_list import Option

from keeltui.brain import Usage
from keeltui.config import Config
from keeltui.messages import StatusMessage
from keeltui.panes.assessment import AssessmentCard
from keeltui.panes.composer import Composer
from keeltui.panes.message import ChatMessage
from keeltui.panes.plan_map import PlanCard, PlanMap
from keeltui.panes.quiz import AskCard, QuizCard
from keeltui.services.tutor_turns import TurnOutcome, TutorTurns
from keeltui.textsafe import clean_text
from keeltui.tutor import session as ts
from keeltui.tutor.phases import awaiting_verdict, latest_plan, pending_question, phase_of, plan_version
from keeltui.tutor.plan_status import plan_statuses

log = logging.getLogger("keeltui.tutor")

NEW_SESSION = "new-session"
AGENT_NAMES = {"prober": "Prober", "teacher": "Teacher"}


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
    TutorPane #tutor-topic { display: none; margin-top: 1; }
    TutorPane.-asking-topic #tutor-topic { display: block; }
    TutorPane #tutor-session { height: 1fr; }
    TutorPane #tutor-main { width: 1fr; height: 1fr; }
    TutorPane #tutor-header { height: 1; background: $panel; padding: 0 1; }
    TutorPane #tutor-log { height: 1fr; scrollbar-size-vertical: 1; }
    """

    BINDINGS = [
        Binding("ctrl+l", "sessions", "Sessions", id="tutor_sessions"),
        Binding("f5", "retry", "Retry", id="tutor_retry"),
        Binding("escape", "leave_input", "Leave input", show=False, id="tutor_leave_input"),
    ]

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

    def __init__(self, *, id: str | None = None, app_config: Config, turns: TutorTurns) -> None:
        super().__init__(id=id)
        self.config = app_config
        self.turns = turns  # built once by keeltui.wiring, handed down
        self.session_id: int | None = None
        self._busy_sessions: set[int] = set()
        self._widgets: dict[str, Widget] = {}
        self._items: dict[str, ts.Item] = {}
        self._keys: list[str] = []
        self._focused_for: str | None = None  # the item or state focus last moved for
        self._status_error = False

    # -- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with ContentSwitcher(initial="tutor-picker", id="tutor-switcher"):
            with Vertical(id="tutor-picker"):
                yield Static("Tutor sessions — Enter opens, “New session” starts one", classes="tutor-heading")
                yield OptionList(id="tutor-session-list")
                yield Input(placeholder="What do you want to learn? (Enter starts, Escape cancels)", id="tutor-topic")
            with Horizontal(id="tutor-session"):
                with Vertical(id="tutor-main"):
                    yield Static("", id="tutor-header", markup=False)
                    yield VerticalScroll(id="tutor-log")
                    yield Composer("Answer, ask, or note…", id="tutor-composer")
                yield PlanMap(id="plan-map")

    def on_mount(self) -> None:
        logs = self.query("#tutor-log").results(VerticalScroll)
        log_view = next(logs, None)
        if log_view is None:
            return  # quit during start-up: the app exits before the pane was composed
        log_view.anchor()
        self._fill_session_list()

    @property
    def composer(self) -> Composer:
        return self.query_one("#tutor-composer", Composer)

    @property
    def plan_map(self) -> PlanMap:
        return self.query_one(PlanMap)

    @property
    def in_session(self) -> bool:
        return self.query_one(ContentSwitcher).current == "tutor-session" and self.session_id is not None

    def _visible(self) -> bool:
        # A pane in a hidden tab has no region; never pull focus there.
        return self.region.area > 0

    def _focus_is_ours(self) -> bool:
        focused = self.app.focused
        return focused is None or self in focused.ancestors

    # -- the session picker -----------------------------------------------------------

    def _fill_session_list(self, keep_place: bool = True) -> None:
        options = [Option(Text("+ New session", style="bold"), id=NEW_SESSION)]
        for conversation in self.turns.sessions():
            phase = phase_of(self.turns.transcript(conversation.id))
            prompt = Text(conversation.title or f"Session {conversation.id}")
            prompt.append(f"   {phase}", style="dim")
            options.append(Option(prompt, id=f"session-{conversation.id}"))
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
        except Exception:  # the session vanished from the list: start at the top
            listing.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or ""
        if option_id == NEW_SESSION:
            self.add_class("-asking-topic")
            self.query_one("#tutor-topic", Input).focus()
        elif option_id.startswith("session-"):
            self.open_session(int(option_id.removeprefix("session-")))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "tutor-topic":
            return
        event.stop()
        topic = event.value.strip()
        if not topic:
            self.app.bell()
            return
        event.input.clear()
        self.remove_class("-asking-topic")
        session_id = self.turns.start_session(topic)  # write-ahead: the topic is stored first
        self.open_session(session_id)

    def action_sessions(self) -> None:
        """Back to the session list."""
        self.remove_class("-asking-topic")
        self._fill_session_list(keep_place=False)
        self.query_one(ContentSwitcher).current = "tutor-picker"
        self.refresh_bindings()
        self.query_one("#tutor-session-list", OptionList).focus()

    # -- one session ------------------------------------------------------------------

    def open_session(self, session_id: int) -> None:
        """Show ``session_id``; an agent that still owes a turn (a crash, an error) gets it."""
        if session_id != self.session_id:
            self._clear_log()
        self.session_id = session_id
        self._focused_for = None
        self.query_one(ContentSwitcher).current = "tutor-session"
        self.refresh_bindings()
        rows = self.turns.transcript(session_id)
        self._show_usage(_last_usage(rows))
        self._draw(rows)
        if ts.needs_reply(rows) and session_id not in self._busy_sessions:
            self.run_turn(session_id)
        self.call_after_refresh(self._focus_default)

    def _clear_log(self) -> None:
        self.query_one("#tutor-log", VerticalScroll).remove_children()
        self._widgets.clear()
        self._items.clear()
        self._keys = []

    def refresh_from_store(self) -> None:
        """Re-read the store (the app calls this when another process wrote to it)."""
        if self.in_session and self.session_id is not None:
            self._draw(self.turns.transcript(self.session_id))
        elif self.is_mounted:
            self._fill_session_list()

    def _draw(self, rows: Sequence) -> None:
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
            self.query_one("#tutor-log", VerticalScroll).mount_all(new)
        self._show_state(rows, items)

    def _widget_for(self, item: ts.Item) -> Widget:
        if isinstance(item, ts.LearnerLine):
            return ChatMessage(0, "user", self.config.owner.name, item.text)
        if isinstance(item, ts.AgentText):
            return ChatMessage(0, "assistant", AGENT_NAMES.get(item.agent, "Tutor"), item.text)
        if isinstance(item, ts.QuizItem):
            return QuizCard(item)
        if isinstance(item, ts.AskItem):
            return AskCard(item)
        if isinstance(item, ts.AssessmentItem):
            return AssessmentCard(item)
        if isinstance(item, ts.PlanItem):
            return PlanCard(item)
        return VerdictLine(item)

    def _show_state(self, rows: Sequence, items: list[ts.Item]) -> None:
        """The header, the plan map, the composer's mode, and where focus belongs."""
        session_id = self.session_id
        busy = session_id in self._busy_sessions
        verdict = awaiting_verdict(rows)
        conversation = self.turns.store.conversation(session_id) if session_id is not None else None
        header = f"{conversation.title if conversation else ''}  ·  {phase_of(rows)}"
        if verdict:
            header += "  ·  the plan waits for your verdict"
        if busy:
            header += "  ·  thinking…"
        self.query_one("#tutor-header", Static).update(header)
        plan = latest_plan(rows)
        self.plan_map.show_plan(plan, plan_statuses(plan, rows) if plan is not None else {})
        composer = self.composer
        composer.verdict_mode = verdict
        composer.busy = busy
        if busy or not self._visible() or not self._focus_is_ours():
            return
        quiz = self._active_quiz()
        if quiz is not None:
            if self._focused_for != quiz.call_id:
                self._focused_for = quiz.call_id
                # A draft typed while the tutor thought keeps the keys: its digits must
                # never answer the quiz by accident (Escape hands the keys to the quiz).
                if not self._drafting():
                    quiz.focus()
                quiz.scroll_visible()
            return
        waiting = pending_question(rows)
        reason = f"ask:{waiting.get('id')}" if waiting is not None else ("verdict" if verdict else None)
        if reason is not None and self._focused_for != reason:
            self._focused_for = reason
            composer.focus_input()

    def _drafting(self) -> bool:
        composer_input = self.composer.input
        return self.app.focused is composer_input and bool(composer_input.text.strip())

    def _active_quiz(self) -> QuizCard | None:
        for widget in self._widgets.values():
            if isinstance(widget, QuizCard) and widget.active:
                return widget
        return None

    def _focus_default(self) -> None:
        if not self._visible():
            return
        if not self.in_session:
            if self.has_class("-asking-topic"):
                self.query_one("#tutor-topic", Input).focus()
            else:
                self.query_one("#tutor-session-list", OptionList).focus()
            return
        quiz = self._active_quiz()
        if quiz is not None and not self.composer.busy:
            quiz.focus()
        else:
            self.composer.focus_input()

    def on_show(self) -> None:
        # The tab became visible: put the keyboard where the learner will want it.
        self.call_after_refresh(self._focus_default)

    def focus_input(self) -> None:
        """The app's `i` key: the composer in a session, else the picker."""
        if self.in_session:
            self.composer.focus_input()
        else:
            self._focus_default()

    def action_leave_input(self) -> None:
        """Escape: cancel a new topic, or hand the keys to a waiting quiz, or let go."""
        if self.has_class("-asking-topic"):
            self.remove_class("-asking-topic")
            self.query_one("#tutor-session-list", OptionList).focus()
            return
        quiz = self._active_quiz() if self.in_session else None
        if quiz is not None and self.app.focused is not quiz:
            quiz.focus()
        else:
            self.app.set_focus(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "retry":
            return self.in_session
        return True

    # -- learner actions (each stored before the agents run) --------------------------

    def _rows(self) -> list:
        return self.turns.transcript(self.session_id) if self.session_id is not None else []

    def _learner_acts(self, message) -> None:
        session_id = self.session_id
        if session_id is None:
            return
        self.turns.add_learner(session_id, message)
        self._draw(self._rows())
        self.run_turn(session_id)

    def on_composer_submitted(self, event: Composer.Submitted) -> None:
        if event.composer.id != "tutor-composer":
            return
        event.stop()
        if self.session_id is None or self.session_id in self._busy_sessions:
            return
        self._learner_acts(ts.learner_line(self._rows(), event.text))

    def on_composer_verdict_chosen(self, event: Composer.VerdictChosen) -> None:
        if event.composer.id != "tutor-composer":
            return
        event.stop()
        rows = self._rows()
        if self.session_id in self._busy_sessions or not awaiting_verdict(rows):
            self.app.bell()
            return
        self._learner_acts(ts.verdict(event.accepted, event.note, plan_version(rows)))

    def on_quiz_card_answered(self, event: QuizCard.Answered) -> None:
        event.stop()
        rows = self._rows()
        waiting = pending_question(rows)
        if self.session_id in self._busy_sessions or waiting is None or waiting.get("id") != event.call_id:
            return  # not the open quiz (a stale card, or a turn is running)
        self._learner_acts(ts.quiz_pick(waiting, event.choice))

    def action_retry(self) -> None:
        """F5: let the agent finish a turn that a brain error or a crash cut short."""
        session_id = self.session_id
        if session_id is None or session_id in self._busy_sessions:
            return
        if ts.needs_reply(self._rows()):
            self.run_turn(session_id)
        else:
            self.app.notify("The tutor is waiting for you, not the other way round.", timeout=2)

    # -- turns run in workers; the pane reacts to their messages --------------------------

    def run_turn(self, session_id: int) -> None:
        self._busy_sessions.add(session_id)
        if session_id == self.session_id:
            self.composer.busy = True
            self._draw(self._rows())
        self.run_worker(self._turn(session_id), name="tutor-turn", group="tutor", exit_on_error=False)

    async def _turn(self, session_id: int) -> None:
        def on_step(agent: str, usage: Usage) -> None:
            self.post_message(self.TurnProgress(session_id, agent, usage))

        try:
            outcome = await self.turns.respond(session_id, on_step)
        except Exception as exc:  # a bug, not a brain error: say so, keep the pane usable
            log.exception("tutor turn failed")
            outcome = TurnOutcome("tutor", error=f"tutor turn failed: {type(exc).__name__}: {exc}")
        self.post_message(self.TurnFinished(session_id, outcome))

    def on_tutor_pane_turn_progress(self, message: TurnProgress) -> None:
        message.stop()
        if message.session_id == self.session_id:
            self._show_usage(message.usage)
            self._draw(self._rows())

    def on_tutor_pane_turn_finished(self, message: TurnFinished) -> None:
        message.stop()
        self._busy_sessions.discard(message.session_id)
        outcome = message.outcome
        text = outcome.status_text
        if text:
            self._status_error = outcome.error is not None
            self.post_message(StatusMessage(text))
        elif self._status_error:
            self._status_error = False
            self.post_message(StatusMessage(""))
        if message.session_id == self.session_id:
            if outcome.usage is not None:
                self._show_usage(outcome.usage)
            self._draw(self._rows())
            if self.composer.busy is False and self._active_quiz() is None and self._visible() and self._focus_is_ours():
                self.call_after_refresh(self._focus_default)

    def _show_usage(self, usage: Usage | dict | None) -> None:
        """The live context percentage of this session, in the status line."""
        if usage is None or not hasattr(self.app, "context_text"):
            return
        fraction = usage.fraction if isinstance(usage, Usage) else usage.get("fraction")
        if isinstance(fraction, (int, float)):
            self.app.context_text = f"tutor context {round(fraction * 100)}%"


def _last_usage(rows: Sequence) -> dict | None:
    for row in reversed(rows):
        usage = getattr(row, "usage", None)
        if usage:
            return usage
    return None
