"""The failure kinds and their words (keeltui/chief/failure_words.py), pure."""

from __future__ import annotations

import pytest

from keeltui.chief import failure_words as fw


@pytest.mark.parametrize("error_class, status, detail, overflow, had_text, kind", [
    ("BrainUnavailable", None, "", False, False, fw.UNREACHABLE),
    ("BrainUnavailable", None, "", False, True, fw.DROPPED),
    ("BrainTimeout", None, "", False, True, fw.STALLED),
    ("BrainReplyError", None, "", False, False, fw.UNREADABLE),
    ("BrainHTTPError", 401, "invalid key", False, False, fw.BAD_KEY),
    ("BrainHTTPError", 403, "", False, False, fw.BAD_KEY),
    ("BrainHTTPError", 404, "model 'x' not found", False, False, fw.UNKNOWN_MODEL),
    ("BrainHTTPError", 404, "no route /v2/chat", False, False, fw.SERVER_ERROR),
    ("BrainHTTPError", 400, "maximum context length", True, False, fw.CONTEXT_TOO_LONG),
    ("BrainHTTPError", 429, "slow down", False, False, fw.RATE_LIMITED),
    ("BrainHTTPError", 503, "overloaded", False, False, fw.SERVER_ERROR),
])
def test_classify(error_class, status, detail, overflow, had_text, kind):
    assert fw.classify(error_class, status, detail, context_overflow=overflow, had_text=had_text) == kind


def test_words_name_what_happened_and_what_to_do():
    url = "http://127.0.0.1:11434/v1"
    said = {kind: fw.failure_words("error", [fw.error_part(kind, "raw", url=url, status=code, **facts)])
            for kind, code, facts in [
                (fw.UNREACHABLE, None, {}), (fw.STALLED, None, {"timeout_secs": 30.0}),
                (fw.BAD_KEY, 401, {"variable": "OPENROUTER_KEY"}), (fw.UNKNOWN_MODEL, 404, {"model": "x", "models": ["a", "b"]}),
                (fw.RATE_LIMITED, 429, {"retry_after": 120}), (fw.CLOSED, None, {}),
                (fw.UNSAVED, None, {"detail": "the disk is full"}),
            ]}
    assert said[fw.UNREACHABLE] == (f"no reply: no model server answers at {url}: start it (e.g. `ollama serve`) "
                                    "or fix brain.base_url, then F5 retries")
    assert said[fw.STALLED] == "no reply: the brain stopped sending for 30s: F5 retries"
    assert "check $OPENROUTER_KEY" in said[fw.BAD_KEY] and "ollama" not in said[fw.BAD_KEY]
    assert "it offers a, b: set brain.model" in said[fw.UNKNOWN_MODEL]
    assert said[fw.RATE_LIMITED].endswith("F5 after 3 min")
    assert "keeltui was closed" in said[fw.CLOSED] and "brain" not in said[fw.CLOSED]
    assert "not saved (the disk is full)" in said[fw.UNSAVED]
    assert fw.failure_words("stopped", []) == "stopped by you"
    assert fw.failure_words("complete", []) == ""


def test_a_servers_words_are_one_clean_line():
    part = fw.error_part(fw.SERVER_ERROR, "x", url="u", status=500, detail="boom\x1b]52;c;aGk=\x07\nsecond line")
    words = fw.failure_words("partial", [part])
    assert "\x1b" not in words and "\n" not in words and "boom second line" in words
