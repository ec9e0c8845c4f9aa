"""MkDocs hooks of the documentation site (mkdocs.yml names this file under ``hooks``).

The notebooks stay in ``notebooks/`` (where ``notebooks/execute.py`` and the tests run them); this
hook adds each one to the site as ``notebooks/<name>.ipynb``, before mkdocs-jupyter turns the
``.ipynb`` files into pages with their stored outputs (charts included, nothing executed). It also
puts ``benches/RESULTS.md`` into the benchmarks page.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import CombinedEvent, event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent


@event_priority(100)  # before mkdocs-jupyter's on_files (default priority 0) sees the files
def _add_notebooks(files: Files, config: MkDocsConfig) -> Files:
    """Add every notebook of ``notebooks/`` to the site's files."""
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        # notebooks/index.ipynb would take the URL of the section's own page (notebooks.md), so
        # each notebook's page is named after its file with a suffix: notebooks/index-notebook.
        page = File(f"notebooks/{notebook.stem.replace('_', '-')}-notebook.ipynb", src_dir=None,
                    dest_dir=config.site_dir, use_directory_urls=config.use_directory_urls)
        page.abs_src_path = str(notebook)
        files.append(page)
    return files


RESULTS_MARKER = "<!-- include: benches/RESULTS.md -->"


def on_page_markdown(markdown: str, page: Any, config: MkDocsConfig, files: Files) -> str:
    """Put ``benches/RESULTS.md`` (written by ``benches/run.py``) into the benchmarks page.

    The marker line is replaced by the file, its headings one level down (its title becomes a
    section of the page), so the page always shows the last run's figures.
    """
    if RESULTS_MARKER not in markdown:
        return markdown
    lines, fenced = [], False
    for line in (ROOT / "benches" / "RESULTS.md").read_text().splitlines():
        fenced ^= line.startswith("```")
        lines.append(re.sub(r"^(#+) ", r"#\1 ", line) if not fenced else line)
    return markdown.replace(RESULTS_MARKER, "\n".join(lines) + "\n")


@event_priority(-100)  # after mkdocs-jupyter's on_files wrapped the notebooks
def _notebook_sources(files: Files, config: MkDocsConfig) -> Files:
    """Give mkdocs-jupyter's wrapper of each notebook the source path of the file it wraps."""
    for file in files:
        inner = getattr(file, "file", None)
        if isinstance(inner, File) and file.abs_src_path is None:
            file.abs_src_path = inner.abs_src_path
    return files


on_files = CombinedEvent(_add_notebooks, _notebook_sources)
