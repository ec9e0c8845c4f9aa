"""The README's "Decoding containers" examples run as written against the emulator (the notebooks
are executed by tests/test_notebooks.py)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def python_blocks(after: str, until: str = "\n### ") -> list[str]:
    """The ```python blocks of the README between the heading ``after`` and the next ``until``."""
    text = (ROOT / "README.md").read_text()
    start = text.index(after)
    end = text.index(until, start + 1)
    section = text[start:end]
    blocks = []
    at = 0
    while (i := section.find("```python\n", at)) != -1:
        j = section.index("```", i + 10)
        blocks.append(section[i + 10:j])
        at = j + 3
    return blocks


def test_the_decoding_examples_run() -> None:
    per_index, from_bytes = python_blocks("### Decoding containers")
    # The second example continues inside the first one's `with` block.
    code = per_index.rstrip() + "\n" + "\n".join("    " + line for line in from_bytes.strip().splitlines())
    code += "\n    assert decoded.height == 100 and row['number'] == 0\n"
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(code, "README.md", "exec"), namespace)
    printed = out.getvalue()
    assert "AddPermissionlessValidatorTx" not in printed and "node_id" in printed
    assert "CreateAssetTx" in printed and "block_time" in printed



def test_the_working_with_results_examples_run(tmp_path: Path, monkeypatch: "pytest.MonkeyPatch") -> None:
    """Frames, Arrow, pandas, Parquet, the amount recipe, progress and logging, as written."""
    import logging

    import polars as pl
    import pytest

    pytest.importorskip("pyarrow")
    pytest.importorskip("tqdm")
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks("## Working with results", until="\n## Datasets\n")
    assert len(blocks) == 4
    namespace: dict[str, object] = {}
    try:
        for block in blocks:
            exec(compile(block, "README.md", "exec"), namespace)
    finally:
        logging.getLogger("avax_data").setLevel(logging.NOTSET)
        import avax_data

        avax_data.reset_logging()
    assert pl.read_parquet(tmp_path / "x_tx.parquet").height == 2_000
    assert namespace["frame"].height == 500  # type: ignore[attr-defined]
    assert namespace["rows"].height == 2_000  # type: ignore[attr-defined]
