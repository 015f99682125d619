"""A job's long title is cut with "…" on one line (issue 21), never its state after it:
the card and the landed result's title each keep one line at 80 columns."""

from __future__ import annotations

from textual.app import App

from keeltui.panes.tutor.cards import JobCard, job_result_card
from keeltui.tutor.session import JobItem, JobResultItem
from tests.support.pilot import screen_text, wait_for

TITLE = "how much leucine per meal do older adults need to keep their muscle protein synthesis going strong"


class Cards(App):
    def compose(self):
        yield JobCard(JobItem("k1", "j1", "research", TITLE, "running"), live=True)
        yield job_result_card(JobResultItem("k2", "j2", "research", TITLE, "done", "The result."))


async def test_long_job_titles_are_cut_with_an_ellipsis_and_the_state_stays():
    app = Cards()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Research job:" in screen_text(app) and "▶ Research:" in screen_text(app),
                       what="both cards")
        lines = screen_text(app).splitlines()
        card = next(line for line in lines if "Research job:" in line)
        assert "…" in card and "running · F9 aborts" in card, card
        result = next(line for line in lines if "▶ Research:" in line)
        assert "…" in result, result
        assert not any("synthesis going strong" in line for line in lines)  # no second line of title
