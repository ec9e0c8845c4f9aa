"""Every ```python block of README.md and docs/**/*.md runs against the emulator and asserts.

The blocks of one page run in order in one namespace (a page's later examples use the names its
first ones made), in a temporary working directory. A block that cannot run here (it needs a real
node, the internet or a Dask cluster, or it is a pytest module that another test runs) is preceded
by a line ``<!-- no-run: reason -->``; the skipped blocks are counted with their reasons, and may
be only a small share of all. A block that runs must hold an ``assert``, and no name it leaves
bound may be an empty DataFrame: a documented example that returns nothing fails.
"""

from __future__ import annotations

import ast
import contextlib
import io
import logging
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import polars as pl
import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NO_RUN = re.compile(r"^\s*<!--\s*no-run:\s*(?P<reason>.*?)\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)```python\s*$")
MAX_SKIPPED_SHARE = 0.25


@dataclass(frozen=True)
class Block:
    """One ```python block: where it is, its code (dedented), and why it is skipped, if it is."""

    page: str
    line: int
    code: str
    no_run: str | None


def blocks_of(text: str, page: str) -> list[Block]:
    """The ```python blocks of a Markdown text, with the ``no-run`` reason of the line before each."""
    lines = text.splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if fence is None:
            i += 1
            continue
        indent = fence["indent"]
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if end == len(lines):
            raise AssertionError(f"{page}:{i + 1}: a ```python block that is never closed")
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1:end]]
        before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = NO_RUN.match(before)
        found.append(Block(page, i + 2, "\n".join(body) + "\n", marker["reason"] if marker else None))
        i = end + 1
    return found


def all_blocks() -> list[Block]:
    """The blocks of every documentation page."""
    return [b for page in PAGES for b in blocks_of(page.read_text(), str(page.relative_to(ROOT)))]


def has_assert(code: str) -> bool:
    """Whether the code holds an ``assert`` statement (anywhere, a function body included)."""
    return any(isinstance(node, ast.Assert) for node in ast.walk(ast.parse(code)))


def empty_frames(namespace: dict[str, Any]) -> list[str]:
    """The names bound to a DataFrame without rows."""
    return [name for name, value in namespace.items() if isinstance(value, pl.DataFrame) and value.height == 0]


@contextlib.contextmanager
def logging_restored() -> Iterator[None]:
    """Undo what an example does to ``logging`` (the Logging guide configures it)."""
    root = logging.getLogger()
    ours = logging.getLogger("avax_data")
    saved = (root.level, list(root.handlers), ours.level)
    try:
        yield
    finally:
        for handler in root.handlers[:]:
            if handler not in saved[1]:
                root.removeHandler(handler)
        root.setLevel(saved[0])
        ours.setLevel(saved[2])
        import avax_data

        avax_data.reset_logging()


def close_all(namespace: dict[str, Any]) -> None:
    """Close the sync clients and emulators an example left open."""
    for value in namespace.values():
        kind = type(value)
        if kind.__module__.startswith("avax_data") and not kind.__name__.startswith("Async") and hasattr(value, "close"):
            with contextlib.suppress(Exception):
                value.close()


RUN_PAGES = sorted({b.page for b in all_blocks() if b.no_run is None})


@pytest.mark.parametrize("page", RUN_PAGES)
def test_the_examples_of_a_page_run_and_assert(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = [b for b in all_blocks() if b.page == page and b.no_run is None]
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    try:
        with logging_restored(), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            for block in blocks:
                where = f"{block.page}:{block.line}"
                assert has_assert(block.code), f"{where}: an example that runs must assert something about its result"
                exec(compile(block.code, where, "exec"), namespace)
                empty = empty_frames(namespace)
                assert not empty, f"{where}: the example leaves empty DataFrames: {empty}"
    finally:
        close_all(namespace)


def test_skipped_examples_are_few_and_say_why(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = all_blocks()
    skipped = [b for b in blocks if b.no_run is not None]
    assert len(blocks) >= 30, "the pages should hold their examples"
    for block in skipped:
        assert block.no_run and len(block.no_run) >= 10, f"{block.page}:{block.line}: say why the block does not run"
    reasons = Counter(b.no_run for b in skipped)
    with capsys.disabled():
        print(f"\ndocumentation examples: {len(blocks)} blocks, {len(blocks) - len(skipped)} run, {len(skipped)} skipped")
        for reason, count in reasons.most_common():
            print(f"  skipped {count}: {reason}")
    assert len(skipped) <= MAX_SKIPPED_SHARE * len(blocks), f"{len(skipped)} of {len(blocks)} examples do not run"


def test_the_block_reader_finds_fences_markers_and_indentation() -> None:
    text = "\n".join([
        "# page", "```python", "x = 1", "```", "",
        "<!-- no-run: needs a real node -->", "", "```python", "y = 2", "```",
        "1. a list item", "", "   ```python", "   if x:", "       z = 3", "   ```",
        "```sh", "echo no", "```",
    ])
    got = blocks_of(text, "p.md")
    assert [(b.line, b.code, b.no_run) for b in got] == [
        (3, "x = 1\n", None),
        (9, "y = 2\n", "needs a real node"),
        (14, "if x:\n    z = 3\n", None),
    ]
    with pytest.raises(AssertionError, match="never closed"):
        blocks_of("```python\nx = 1\n", "p.md")
    assert has_assert("def f():\n    assert 1\n") and not has_assert("x = 1\n")
    assert empty_frames({"a": pl.DataFrame({"x": []}), "b": pl.DataFrame({"x": [1]}), "c": 3}) == ["a"]
