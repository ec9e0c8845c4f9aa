"""The documentation site builds with ``mkdocs build --strict``: a broken link, an unknown page, a
docstring griffe cannot read or a notebook that does not render fails the test suite (and so CI)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


# mkdocs with every page and notebook takes minutes on a loaded machine: the build's own timeout
# (600 s) decides, not the suite's 300 s default
@pytest.mark.timeout(900)
def test_the_docs_build_strictly_with_every_page(tmp_path: Path) -> None:
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # mkdocs-material's notice about MkDocs 2.0
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "--site-dir", str(site)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert not re.search(r"^(WARNING|ERROR)\b", output, re.MULTILINE), output

    # The API reference is rendered from the docstrings: the native classes' full docstrings too.
    reference = (site / "reference" / "index-client" / "index.html").read_text()
    assert 'id="avax_data.IndexClient"' in reference
    for method in ("avax_data.Range.write_parquet", "avax_data.Chain.last_accepted", "avax_data.AsyncRange.to_polars"):
        assert f'id="{method}"' in reference, method  # last_accepted has @overload signatures only
    # ... with the runtime docstrings of the extension (the stubs hold only summary lines): the
    # parameters table of Chain.range and its doctest, rendered as code.
    assert "index order, with bounded memory" in reference
    assert 'class="doc-section-title">Parameters:' in reference
    assert 'class="doc-section-title">Examples:' in reference and '<details class="example"' not in reference
    exceptions = (site / "reference" / "exceptions" / "index.html").read_text()
    assert "InvalidParameterError" in exceptions and "PageTokenError" in exceptions
    # A page per notebook, with its charts (PNG outputs stored in the notebook).
    for name in ("index-notebook", "data-api-notebook", "metrics-notebook", "wallet-activity-notebook",
                 "ERC20-token-transfers-notebook"):
        page = (site / "notebooks" / name / "index.html").read_text()
        assert page.count("data:image/png;base64,") >= 1, name
    # The guides, the schema tables and the benchmarks.
    for page in ("getting-started", "guides/walks", "guides/cli", "schema", "benchmarks"):
        assert (site / page / "index.html").is_file(), page
    assert "Targets" in (site / "benchmarks" / "index.html").read_text()


def test_the_readme_fits_five_minutes_and_keeps_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) < 250
    # The two set-up commands, exactly; CI (.ci/run) runs the second one.
    assert "   pip install . && avax-data walk --emulator --chain X/tx --out x_tx.parquet\n" in readme
    ci_command = "pip install '.[test]' && cargo test --workspace --release && python -m pytest -n auto"
    assert f"   {ci_command}\n" in readme
    assert ci_command in (ROOT / ".ci" / "run").read_text()
    assert "This test command is exactly what CI runs" in readme
    # Every page the README's table points at exists.
    for target in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / target).exists(), target
    # Building and serving the docs locally.
    assert "mkdocs serve" in readme and "mkdocs build --strict" in readme
