"""Code blocks as the owner copies them (keeltui/chief/code_blocks.py)."""

from __future__ import annotations

from keeltui.chief.code_blocks import code_blocks

REPLY = """Try this:

```python
def main():
    print("hi")
```

Then run it:

~~~sh
python main.py
~~~
"""


def test_each_fenced_block_with_its_language():
    blocks = code_blocks(REPLY)
    assert [(b.language, b.code) for b in blocks] == [
        ("python", 'def main():\n    print("hi")'), ("sh", "python main.py"),
    ]
    assert blocks[0].confirmation() == "Copied the python code block (2 lines)."
    assert blocks[0].label().startswith("python · def main():")


def test_longer_fences_hold_shorter_ones_and_indented_fences_are_dedented():
    text = "1. step\n\n   ````md\n   ```\n   inner\n   ```\n   ````\n"
    assert [b.code for b in code_blocks(text)] == ["```\ninner\n```"]


def test_a_cut_off_block_runs_to_the_end_and_inline_code_is_no_block():
    assert [b.code for b in code_blocks("say ```x``` and\n```\nunfinished\nstill")] == ["unfinished\nstill"]


def test_hidden_escapes_are_not_copied():
    (block,) = code_blocks("```\nls\x1b]52;c;cm0gLXJm\x07 -l\n```")
    assert block.code == "ls -l"
    assert block.language == "" and block.confirmation() == "Copied the code block (1 line)."
